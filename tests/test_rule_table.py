"""The rule options are declared once (model/options.py): everything built from the table agrees
with it, the generated files are up to date, and the core's check of a rule set refuses exactly
what the Python model refuses."""

from __future__ import annotations

import inspect
import itertools
import json
import subprocess
import sys
from importlib import resources

import pytest

from pyramid_core.position import Table
from pyramid_solitaire import Rules
from pyramid_solitaire.commands.cli import build_parser, rules_from_args
from pyramid_solitaire.model import options
from pyramid_solitaire.model.options import OPTIONS, PRESETS, UNLIMITED
from pyramid_solitaire.model.profiles import Profile
from pyramid_solitaire.session.howto import how_to_play

from conftest import repo_file

DECK = list(range(52))


def _domain(option: options.Option) -> tuple[object, ...]:
    """Values worth trying: every choice, or counts at their edges and unlimited."""
    return (0, 1, 2, 63, UNLIMITED) if option.kind == "count" else option.choices


def _rules_with(name: str, value: object) -> Rules:
    """The default rules with one option changed, on the one-pass classic rules when the
    value needs them (draw=3)."""
    try:
        return Rules(**{name: value})
    except ValueError:
        return Rules.preset("classic").replace(**{name: value})


def test_generated_files_are_up_to_date():
    done = subprocess.run(
        [sys.executable, str(repo_file("tools", "rule_tables.py")), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_rules_take_every_option_of_the_table_and_nothing_else():
    assert Rules().to_dict() == options.defaults()
    assert list(inspect.signature(Rules).parameters) == [o.name for o in OPTIONS]
    for o in OPTIONS:
        other = next(v for v in _domain(o) if v != o.default)
        changed = _rules_with(o.name, other)
        assert getattr(changed, o.name) == other and changed != Rules()
    with pytest.raises(TypeError, match="unknown rule option"):
        Rules(dummy=1)


def test_core_options_keep_their_types():
    """Numbers as ints, yes/no as bools (as before the table)."""
    got = Rules.preset("msc").core_options()
    assert got == dict(
        waste_at_deal=0,
        draw=1,
        redeals=2,
        win_all=False,
        stock_top_playable=True,
        pair_waste_top_two=False,
        pair_with_covering=False,
    )
    assert [type(v) for v in got.values()] == [int, int, int, bool, bool, bool, bool]


def test_presets_are_the_tables():
    assert Rules.preset_names() == [p.name for p in PRESETS]
    for p in PRESETS:
        rules = Rules.preset(p.letter)
        assert rules == Rules(**p.changes) and rules.name == p.name and rules.letter == p.letter


def test_every_option_has_its_flag():
    parser = build_parser()
    for o in OPTIONS:
        other = next(v for v in _domain(o) if v != o.default)
        if o.kind == "flag":
            argv = [o.flag if other else "--no-" + o.flag[2:]]
        else:
            argv = [o.flag, str(other)]
        if _rules_with(o.name, other).redeals == 0:
            argv += ["--rules", "classic"]
        args = parser.parse_args(["deal", "7", *argv])
        assert getattr(rules_from_args(args), o.name) == other, o.flag


def test_the_schema_and_the_docs_list_every_option():
    schema = json.loads(
        resources.files("pyramid_solitaire.session")
        .joinpath("protocol.schema.json")
        .read_text(encoding="utf-8")
    )
    rules = schema["$defs"]["rules"]
    assert set(rules["required"]) == {"name", "letter", *(o.name for o in OPTIONS)}
    docs = repo_file("docs", "rules.md").read_text(encoding="utf-8")
    for o in OPTIONS:
        assert f"| `{o.name}` |" in docs
    for p in PRESETS:
        assert f"| `{p.name}`" in docs


def test_every_sentence_of_the_how_to_page_is_shown_for_its_value():
    """Each option's sentences appear on the page of a rule set with the value they are for."""
    for o in OPTIONS:
        for sentence in o.sentences:
            value = next(v for v in _domain(o) if sentence.when(v))
            rules = _rules_with(o.name, value)
            for lang in ("en", "vi"):
                page = how_to_play(Profile.preset("pyramide").replace(rules=rules), lang)
                keys = ("goal", "pairs", "free", "stock", "points")
                section = page["sections"][keys.index(sentence.section)]
                assert getattr(sentence, lang).format(n=value) in section["paragraphs"]


def test_the_core_refuses_exactly_what_the_model_refuses():
    """Every combination of the options' values: Rules raises iff the core's check does, and
    a rule set the model accepts is the one the core plays."""
    for values in itertools.product(*(_domain(o) for o in OPTIONS)):
        kw = dict(zip((o.name for o in OPTIONS), values))
        core = {o.core: o.to_core(v) for o, v in zip(OPTIONS, values)}
        try:
            Rules(**kw)
            model_ok = True
        except ValueError:
            model_ok = False
        try:
            Table(DECK, **core)
            core_ok = True
        except ValueError as e:
            core_ok = False
            assert "needs" in str(e) or "does not go with" in str(e)
        assert model_ok == core_ok, kw


def test_the_core_refuses_unknown_and_out_of_range_options():
    with pytest.raises(ValueError, match="unknown core rule option 'dummy'"):
        Table(DECK, dummy=1)
    with pytest.raises(ValueError, match="draw must be 1 or 3"):
        Table(DECK, draw=2)
    with pytest.raises(ValueError, match="redeals must be 0..63 or 255"):
        Table(DECK, redeals=64)
    for bad in (300, -1, "1", 1.0):  # never an OverflowError or a TypeError
        with pytest.raises(ValueError, match="core rule option redeals must be a whole number"):
            Table(DECK, redeals=bad)


def test_a_dummy_option_is_written_into_a_copy_of_the_core(tmp_path):
    done = subprocess.run(
        [sys.executable, str(repo_file("tools", "rule_tables.py")), "--with-dummy", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    header = (tmp_path / "pyr_rules.h").read_text(encoding="utf-8")
    assert "uint8_t dummy;" in header and "PYR_OPT_DUMMY" in header
    assert 'r.dummy = d.get("dummy", 0)' in (tmp_path / "rules.pxd").read_text(encoding="utf-8")
