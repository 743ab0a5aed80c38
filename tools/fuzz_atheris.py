#!/usr/bin/env python3
"""Coverage-guided fuzzing of the native entry points with atheris (libFuzzer for Python).

What it fuzzes, through the public API only (so every input passes the Python layer's checks
first, as a user's would), one target per input chosen by the input's first byte:

- decks: 1..4 rows of 52 card indices, as an integer numpy array of a fuzzed dtype (a
  permutation built from the input with a few cells changed, or raw bytes), into
  ``solve_many`` and ``simulate(deals=...)`` under a fuzzed preset, policy and seed;
- card lists: text and sequences of tokens into ``Deal.parse``, ``Deal.from_cards``,
  ``solve``;
- deal codes: ``PY1-...`` text into ``parse_code`` / ``Deal.from_code``;
- moves: a fuzzed deal and rule set, then move text played with ``Game.play`` (and the
  solver's ``hint`` on the position reached);
- rules: dicts of option names and fuzzed values into ``Rules.coerce``;
- deal numbers: 1-D integer arrays of any dtype into ``solve_many`` / ``simulate``.

The property: a call returns, or raises ValueError (IllegalMoveError is one) or
SearchBudgetExceeded, with a message of at most 400 characters. Anything else (another
exception, a crash or a sanitizer report of the core, a hang past ``-timeout``) makes
libFuzzer stop and write the input to ``crash-<sha1>`` (or ``timeout-``/``oom-``) in the
current directory; rerun one with ``python tools/fuzz_atheris.py crash-<sha1>``.

Every search is bounded (``max_nodes`` at most 5,000) and every simulation small, so an input
takes milliseconds.

Usage (needs ``pip install atheris``; the core is the normal build, not compiled with
``-fsanitize=fuzzer``, so coverage guidance comes from the instrumented Python layer, and the
native code is exercised by the inputs that get through it)::

    PYTHONPATH=python:src python tools/fuzz_atheris.py -max_total_time=120        # 2 minutes
    PYTHONPATH=python:src python tools/fuzz_atheris.py -max_total_time=600 -timeout=20 corpus/
    PYTHONPATH=python:src python tools/fuzz_atheris.py -runs=20000 -print_final_stats=1
    PYTHONPATH=python:src python tools/fuzz_atheris.py crash-1234abcd...          # replay one

Any libFuzzer flag works (``-help=1`` lists them; ``-max_len`` defaults to 2048 here, room
for four decks); a directory argument keeps the corpus
between runs. A couple of minutes finds what shallow input bugs there are; leave it for an
hour or more (``-max_total_time=3600``) for a deeper run.
"""

from __future__ import annotations

import sys

import atheris
import numpy as np  # imported before instrumentation: numpy itself is not fuzzed

with atheris.instrument_imports(include=["pyramid_solitaire"]):
    import pyramid_solitaire as ps
    from pyramid_solitaire.deal import parse_code

ALLOWED = (ValueError, ps.SearchBudgetExceeded)
MAX_MESSAGE = 400
PRESETS = ps.Rules.preset_names() + [
    {"preset": "msc", "pair_with_covering": True},
    {"preset": "unlimited", "pair_waste_top_two": True, "win": "all"},
]
DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
OPTIONS = [
    "waste_at_deal",
    "draw",
    "redeals",
    "win",
    "stock_top_playable",
    "pair_waste_top_two",
    "pair_with_covering",
    "preset",
    "name",
    "letter",
]
NODES = 5_000


def call(fn, *args, **kwargs):
    """fn(...): its result, or None after an allowed exception with a short message."""
    try:
        return fn(*args, **kwargs)
    except ALLOWED as e:
        if len(str(e)) > MAX_MESSAGE:
            raise AssertionError(
                f"{type(e).__name__} message of {len(str(e)):,} characters "
                f"from {getattr(fn, '__name__', fn)}: {str(e)[:200]!r}"
            ) from None
        return None


def permutation(fdp: atheris.FuzzedDataProvider) -> list[int]:
    """52 card indices: a permutation drawn from the input, with up to two cells changed."""
    cards = list(range(52))
    for i in range(51, 0, -1):
        j = fdp.ConsumeIntInRange(0, i)
        cards[i], cards[j] = cards[j], cards[i]
    for _ in range(fdp.ConsumeIntInRange(0, 2) if fdp.ConsumeBool() else 0):
        cards[fdp.ConsumeIntInRange(0, 51)] = fdp.ConsumeIntInRange(-2, 300)
    return cards


def target_decks(fdp: atheris.FuzzedDataProvider) -> None:
    rows = fdp.ConsumeIntInRange(1, 4)
    dtype = DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)]
    if fdp.ConsumeBool():
        values = [permutation(fdp) for _ in range(rows)]
        with np.errstate(all="ignore"):
            decks = np.array(values, dtype=np.int64).astype(dtype)
    else:
        raw = fdp.ConsumeBytes(rows * 52 * np.dtype(dtype).itemsize)
        raw = raw.ljust(rows * 52 * np.dtype(dtype).itemsize, b"\0")
        decks = np.frombuffer(raw, dtype=dtype).reshape(rows, 52)
    rules = PRESETS[fdp.ConsumeIntInRange(0, len(PRESETS) - 1)]
    r = call(
        ps.solve_many,
        decks,
        rules=rules,
        max_nodes=NODES,
        threads=1,
        max_removed=fdp.ConsumeBool(),
        objective="min_moves" if fdp.ConsumeBool() else "any",
    )
    if r is not None:
        assert len(r) == rows and set(np.unique(r.winnable)) <= {-1, 0, 1}
        assert (r.max_removed <= 28).all()
    policy = ["greedy", "random", "solver"][fdp.ConsumeIntInRange(0, 2)]
    budget = {"max_nodes": NODES} if policy == "solver" else {}
    s = call(
        ps.simulate,
        deals=decks,
        rules=rules,
        policy=policy,
        seed=fdp.ConsumeIntInRange(0, 2**64 - 1),
        threads=1,
        **budget,
    )
    if s is not None:
        assert s.games == rows and (s.removed <= 28).all()
        for i in range(rows):
            if s.removed[i] == 28 and rules in ("pyramide", "msc"):
                assert s.won[i]


def target_numbers(fdp: atheris.FuzzedDataProvider) -> None:
    dtype = DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)]
    n = fdp.ConsumeIntInRange(0, 4)
    raw = fdp.ConsumeBytes(n * np.dtype(dtype).itemsize).ljust(n * np.dtype(dtype).itemsize, b"\0")
    numbers = np.frombuffer(raw, dtype=dtype)
    if fdp.ConsumeBool() and np.dtype(dtype).itemsize == 8:  # mostly valid deal numbers
        numbers = (numbers.astype(np.uint64) % np.uint64(ps.deal.MAX_DEAL_NUMBER + 1)).astype(dtype)
    rules = PRESETS[fdp.ConsumeIntInRange(0, len(PRESETS) - 1)]
    r = call(ps.solve_many, numbers, rules=rules, max_nodes=NODES, threads=1)
    if r is not None:
        assert len(r) == n
    s = call(ps.simulate, deals=numbers, rules=rules, policy="random", seed=1, threads=1)
    if s is not None:
        assert s.games == n


def target_cards(fdp: atheris.FuzzedDataProvider) -> None:
    if fdp.ConsumeBool():
        order = permutation(fdp)
        spell = [
            lambda c: c.token,
            lambda c: c.symbol,
            lambda c: c.token.upper(),
            lambda c: c.symbol.lower(),
        ]
        tokens = [
            spell[fdp.ConsumeIntInRange(0, 3)](ps.CARDS[c]) if 0 <= c < 52 else str(c)
            for c in order
        ]
        sep = [" ", ",", "", "\n", " | "][fdp.ConsumeIntInRange(0, 4)]
        text = sep.join(tokens)
    else:
        text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 400))
    deal = call(ps.Deal.parse, text)
    if deal is not None:
        assert sorted(map(int, deal.cards)) == list(range(52))
        assert ps.Deal.from_cards(deal.to_cards()).cards == deal.cards
        call(ps.solve, deal, max_nodes=NODES)
    call(ps.Deal.from_cards, text.split())
    call(ps.solve, text, max_nodes=NODES)


def target_codes(fdp: atheris.FuzzedDataProvider) -> None:
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 30))
    if fdp.ConsumeBool():
        text = "PY1-" + text
    parsed = call(parse_code, text)
    deal = call(ps.Deal.from_code, text)
    assert (parsed is None) == (deal is None)
    if deal is not None:
        assert deal.number == parsed[0]
        assert ps.Deal.from_code(deal.code).cards == deal.cards


def target_moves(fdp: atheris.FuzzedDataProvider) -> None:
    rules = PRESETS[fdp.ConsumeIntInRange(0, len(PRESETS) - 1)]
    game = ps.Game(fdp.ConsumeIntInRange(0, ps.deal.MAX_DEAL_NUMBER), rules)
    for _ in range(fdp.ConsumeIntInRange(0, 60)):
        if fdp.ConsumeBool() and game.legal_moves:
            move = game.legal_moves[fdp.ConsumeIntInRange(0, len(game.legal_moves) - 1)]
            text = str(move) if fdp.ConsumeBool() else move.symbols()
        else:
            text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 12))
        legal = game.is_legal(text)
        before = game.position
        try:
            game.play(text)
        except ps.IllegalMoveError as e:
            assert not legal and game.position == before and len(str(e)) <= MAX_MESSAGE
        else:
            assert legal
    hint = call(ps.hint, game, max_nodes=NODES)
    assert hint is None or game.is_legal(hint)


def target_rules(fdp: atheris.FuzzedDataProvider) -> None:
    d = {}
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        key = (
            OPTIONS[fdp.ConsumeIntInRange(0, len(OPTIONS) - 1)]
            if fdp.ConsumeBool()
            else fdp.ConsumeUnicodeNoSurrogates(6)
        )
        kind = fdp.ConsumeIntInRange(0, 5)
        if kind == 0:
            value = fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 80))
        elif kind == 1:
            value = fdp.ConsumeRegularFloat() if fdp.ConsumeBool() else fdp.ConsumeFloat()
        elif kind == 2:
            value = fdp.ConsumeBool()
        elif kind == 3:
            value = DTYPES[fdp.ConsumeIntInRange(0, 7)](fdp.ConsumeIntInRange(0, 127))
        else:
            value = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 10))
        d[key] = value
    rules = call(ps.Rules.coerce, d)
    if rules is not None:
        assert ps.Rules.coerce(rules.to_dict()) == rules
        call(ps.simulate, 50, rules=rules, threads=1)
        call(ps.solve, fdp.ConsumeIntInRange(0, 1000), rules=rules, max_nodes=NODES)


TARGETS = [
    target_decks,
    target_decks,
    target_numbers,
    target_cards,
    target_codes,
    target_moves,
    target_rules,
]


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)](fdp)


def main() -> None:
    argv = list(sys.argv)
    if not any(a.startswith("-max_len=") for a in argv):
        argv.append("-max_len=2048")  # room for four decks from the start
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
