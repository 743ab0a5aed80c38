"""Shortcuts by capability (src/pyramid_core/pyr_shortcuts.h): the record says for each rule
set which of the solver's and the simulator's shortcuts may run, and with any of them turned off
the answers stay the same.

- The record agrees, on every rule set of the options' values, with the conditions each
  shortcut was guarded by before the record (written out here as the oracle).
- With every shortcut off (the general search, bounds that never prune), and with each one off
  alone, the solver's answers on late positions equal plain exhaustive search on the reference
  model (tests/late_positions.py).
- An option no shortcut lists turns them all off: tools/dummy_option_build.sh builds the core
  with such an option and runs tests/dummy_option_check.py against it (in CI).
"""

from __future__ import annotations

import itertools

import pytest
from late_positions import RULE_SETS, late_cases

from pyramid_core import rules as core_rules
from pyramid_core.position import Table
from pyramid_core.solver import OBJECTIVES, solve_table
from pyramid_solitaire import Rules
from pyramid_solitaire.model.options import OPTIONS, UNLIMITED

ALL = core_rules.SHORTCUTS


def old_guards(r: Rules) -> set[str]:
    """The shortcuts each rule set ran before the record, as the code's own checks said."""
    draw1, top2, pwc, stp = (
        r.draw == 1,
        r.pair_waste_top_two,
        r.pair_with_covering,
        r.stock_top_playable,
    )
    unlimited = r.redeals == UNLIMITED
    on = {"king_first", "classes", "relax", "lower_bound", "macro", "progress", "round"}
    if draw1 and unlimited and not stp and not top2:
        on.add("free_talon")
    if draw1 and r.redeals == 0 and not top2:
        on.add("frames")
    if not pwc:
        on.add("partners")
    if draw1 and not pwc and not top2:
        on |= {"stack", "playout_draw1", "lockstep_draw1"}
    if draw1 and not top2:
        on.add("fresh")
    if draw1 and not unlimited:
        on.add("cursor")
    if r.draw == 3 and not pwc:
        on |= {"playout_draw3", "lockstep_draw3"}
    return on


def every_rule_set():
    domains = [(0, 1, 2, 63, UNLIMITED) if o.kind == "count" else o.choices for o in OPTIONS]
    for values in itertools.product(*domains):
        try:
            yield Rules(**dict(zip((o.name for o in OPTIONS), values)))
        except ValueError:
            continue


def test_the_record_says_what_the_guards_said():
    n = 0
    for r in every_rule_set():
        assert set(core_rules.shortcuts(r.core_options())) == old_guards(r), r
        assert set(Table(range(52), **r.core_options()).shortcuts) <= set(ALL)
        n += 1
    assert n > 100


def test_the_record_names_every_shortcut_once():
    assert len(ALL) == len(set(ALL)) and all(ALL), ALL
    every = set()
    for r in every_rule_set():
        every |= set(core_rules.shortcuts(r.core_options()))
    assert every == set(ALL)  # each one runs somewhere, and none is unnamed


def test_a_table_can_drop_its_shortcuts():
    t = Table(range(52), **Rules.preset("msc").core_options())
    assert "stack" in t.shortcuts
    t.drop_shortcuts(["stack", "classes"])
    assert "stack" not in t.shortcuts and "classes" not in t.shortcuts and t.shortcuts
    t.drop_shortcuts("relax")  # one name
    assert "relax" not in t.shortcuts and "lower_bound" in t.shortcuts
    t.drop_shortcuts("all")
    assert t.shortcuts == ()
    with pytest.raises(ValueError, match="unknown shortcut 'fast'"):
        t.drop_shortcuts(["fast"])


def _answers(game, drop) -> tuple[int, int | None, int]:
    """(winnable, fewest moves or None, most removed) by the solver with ``drop`` off."""
    deck = [int(c) for c in game.deal.cards]
    got = []
    for objective in ("any", "min_moves", "max_removed"):
        t = Table(deck, **game.rules.core_options())
        t.drop_shortcuts(drop)
        got.append(solve_table(t, game.position, OBJECTIVES[objective]))
    any_, shortest, most = got
    assert shortest["winnable"] == any_["winnable"]
    return (
        any_["winnable"],
        len(shortest["line"]) if shortest["winnable"] == 1 else None,
        most["max_removed"],
    )


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_without_shortcuts_the_answers_stay_exact(name):
    """Every shortcut off, and each one off alone: the same answers as exhaustive search."""
    rules = RULE_SETS[name]
    on = core_rules.shortcuts(rules.core_options())
    checked = 0
    for game, (winnable, depth, most) in late_cases(rules, f"shortcuts-{name}", 100):
        want = (int(winnable), depth, most)
        assert _answers(game, "all") == want, (name, game.moves)
        if checked < 2:
            for shortcut in on:
                assert _answers(game, [shortcut]) == want, (name, shortcut, game.moves)
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3, f"only {checked} positions were small enough"
