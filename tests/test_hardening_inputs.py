"""Input hardening: deals files (line breaks, what a bad line holds, --skip-bad), a Deal's
number against its cards, X codes shown without rules, None where a deal is expected,
numbers that overflow (text, floats, memory sizes, on a machine whose memory is unknown or
on Windows), survey workers and damaged survey shards."""

from __future__ import annotations

import ctypes
import io
import os
import pickle
import shutil

import numpy as np
import pytest

import pyramid_solitaire as ps
from pyramid_solitaire import Deal, _args
from pyramid_solitaire import survey as S
from pyramid_solitaire.commands import _input

from conftest import import_or_skip_extra, run_main

MAX_BAD_SHOWN = _input.MAX_BAD_SHOWN


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def codes(*numbers: int) -> list[str]:
    return [Deal.from_number(n, rules="msc").code for n in numbers]


# ---- 1. deals files ---------------------------------------------------------------------------

# What str.splitlines breaks at besides \n, \r\n and \r: whitespace inside a line here.
NOT_LINE_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def test_split_lines_breaks_at_newlines_only():
    text = "a\x0bb\x0cc\x1c\x1d\x1e\x85d\u2028\u2029e\r\nf\rg\nh"
    got = [t for _, t in _input.iter_lines(io.BytesIO(text.encode()), "x")]
    assert got == ["a\x0bb\x0cc\x1c\x1d\x1e\x85d\u2028\u2029e", "f", "g", "h"]


@pytest.mark.parametrize("sep", NOT_LINE_BREAKS, ids=[f"U+{ord(c):04X}" for c in NOT_LINE_BREAKS])
def test_line_numbers_count_only_line_breaks(tmp_path, capsys, sep):
    """A form feed, U+2028... inside line 1 does not shift the line numbers after it."""
    path = tmp_path / "deals.txt"
    path.write_text(f"{codes(0)[0]}{sep}# a comment\n{codes(1)[0]}\nnot a deal\n", encoding="utf-8")
    for cmd in ("solve", "simulate"):
        status, out, err = run_main(capsys, cmd, "--file", str(path))
        line = one_error_line(err)
        assert status == 2 and f"{path}, line 3:" in line, line


@pytest.mark.parametrize("sep", ["\u2028", "\x0c", "\x85"])
def test_a_non_break_separator_keeps_two_codes_on_one_line(tmp_path, capsys, sep):
    path = tmp_path / "deals.txt"
    path.write_text(f"{codes(0)[0]}\n{codes(1)[0]}{sep}{codes(2)[0]}\n", encoding="utf-8")
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    line = one_error_line(err)
    assert status == 2 and f"line 2: a deal code and 1 more word ('{codes(1)[0]}'" in line
    assert "one deal a line" in line


def test_old_mac_line_ends_and_byte_errors_count_carriage_returns(tmp_path, capsys):
    path = tmp_path / "deals.txt"
    path.write_bytes("\r".join(codes(0, 1)).encode() + b"\rnot a deal\r")
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    assert status == 2 and "line 3:" in one_error_line(err)
    for bad, what in ((b"\x00", "NUL"), (b"\xff", "not UTF-8")):
        path.write_bytes("\r".join(codes(0, 1)).encode() + b"\r" + bad + b"\r")
        status, out, err = run_main(capsys, "solve", "--file", str(path))
        line = one_error_line(err)
        assert status == 2 and f"{path}, line 3:" in line and what in line, line


def test_one_card_a_line_says_what_it_saw(tmp_path, capsys):
    path = tmp_path / "deals.txt"
    path.write_text("# one card a line\n\n" + "\n".join(Deal.from_number(7).to_cards().split()))
    status, out, err = run_main(capsys, "solve", "--file", str(path))
    assert status == 2 and one_error_line(err).endswith(
        f"{path}, line 3: got 1 card token (a deal is a code, a deal number or 52 card "
        "tokens on one line)"
    )


@pytest.mark.parametrize("deals, words", [(2, "two"), (3, "three")])
def test_several_deals_on_one_line_says_so(tmp_path, capsys, deals, words):
    path = tmp_path / "deals.txt"
    path.write_text(
        codes(0)[0] + "\n\n" + " ".join(Deal.from_number(n).to_cards() for n in range(deals)) + "\n"
    )
    status, out, err = run_main(capsys, "simulate", "--file", str(path))
    assert status == 2 and one_error_line(err).endswith(
        f"{path}, line 3: {52 * deals} card tokens: {words} deals on one line? (one deal a line)"
    )


def test_a_few_cards_too_many_or_too_few_say_how_many(capsys):
    cards = Deal.from_number(3).to_cards().split()
    status, out, err = run_main(capsys, "solve", " ".join(cards[:20]))
    assert status == 2 and "got 20 card tokens (a deal is a code" in one_error_line(err)
    status, out, err = run_main(capsys, "solve", " ".join(cards + cards[:10]))
    assert status == 2 and "got 62 card tokens" in one_error_line(err)
    # a card or two missing: the card list's own message names them
    status, out, err = run_main(capsys, "solve", " ".join(cards[:-1]))
    assert status == 2 and f"(missing: {cards[-1]})" in one_error_line(err)


def test_skip_bad_names_each_line_and_why_capped(tmp_path, capsys):
    bad = [f"bad{i}" for i in range(MAX_BAD_SHOWN + 3)]
    rows = [codes(0)[0], "Kc", *bad, codes(1)[0]]
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(rows) + "\n")
    status, out, err = run_main(capsys, "solve", "--file", str(path), "--skip-bad", "--json")
    assert status == 0 and len(out.splitlines()) == 2  # the two good deals
    assert "skipped" not in out
    lines = err.splitlines()
    start = lines.index(f"skipped {len(bad) + 1} bad lines:")
    shown = lines[start + 1 : start + 1 + MAX_BAD_SHOWN]
    assert shown[0] == (
        f"  {path}, line 2: got 1 card token (a deal is a code, a deal "
        "number or 52 card tokens on one line)"
    )
    for k, text in enumerate(shown[1:], 3):
        assert text.startswith(f"  {path}, line {k}: token 1 'bad{k - 3}' is not a card")
    assert lines[start + 1 + MAX_BAD_SHOWN] == "  ... and 4 more"


def test_skip_bad_goes_with_a_file(capsys):
    for argv in (["simulate", "--games", "10"], ["solve", "PY1-M-AAAAAAS"]):
        status, out, err = run_main(capsys, *argv, "--skip-bad")
        assert status == 2 and "--skip-bad go" in one_error_line(err) and out == ""


def test_skip_bad_with_no_good_line_still_says_why(tmp_path, capsys):
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(Deal.from_number(1).to_cards().split()))
    status, out, err = run_main(capsys, "simulate", "--file", str(path), "--skip-bad")
    line = one_error_line(err)
    assert (
        status == 2
        and f"{path} holds no deals (52 bad lines skipped; the first: "
        f"{path}, line 1: got 1 card token"
        in line
    ), line


# ---- 2. a Deal's number must be its cards' ----------------------------------------------------


def test_a_number_that_does_not_deal_the_cards_is_refused():
    five = Deal.from_number(5)
    with pytest.raises(
        ValueError,
        match=r"number 6 does not deal these cards .*"
        r"Deal\.from_number\(6\)",
    ):
        Deal(five.cards, number=6)
    with pytest.raises(ValueError, match="number 5 does not deal"):
        Deal(Deal.from_number(6).to_cards(), number=5, rules="msc")
    for bad in (-1, 26**7, "5", 5.0, True):
        with pytest.raises(ValueError, match="deal number"):
            Deal(five.cards, number=bad)
    same = Deal(five.cards, number=5, rules="msc")
    assert same == Deal.from_number(5, rules="msc") and same.code == "PY1-M-AAAAAAF"
    assert Deal(five.cards).number is None and five.with_rules("classic").number == 5


def test_an_unpickled_deal_is_checked_too():
    deal = Deal.from_number(9, rules="msc")
    assert pickle.loads(pickle.dumps(deal)) == deal
    rebuild, (cards, number, rules) = deal.__reduce__()
    assert number == 9
    with pytest.raises(ValueError, match="number 10 does not deal these cards"):
        rebuild(cards, 10, rules)  # what a pickle of another number would run


# ---- 3. an X code's cards need no rules -------------------------------------------------------


def test_deal_cards_of_an_x_code_needs_no_rules(capsys, monkeypatch):
    cards = Deal.from_number(18).to_cards()
    status, out, err = run_main(capsys, "deal", "PY1-X-AAAAAAS", "--format", "cards")
    assert (status, out, err) == (0, cards + "\n", "")
    status, out, err = run_main(
        capsys, "deal", "PY1-X-AAAAAAS", "--format", "cards", "--redeals", "1"
    )
    assert (status, out) == (0, cards + "\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"PY1-X-AAAAAAS\n")))
    status, out, err = run_main(capsys, "deal", "-", "--format", "cards")
    assert (status, out) == (0, cards + "\n"), err
    # the formats that show the rules still need them; a conflict is still one
    for fmt in ("text", "json"):
        status, out, err = run_main(capsys, "deal", "PY1-X-AAAAAAS", "--format", fmt)
        assert status == 2 and "custom rules (letter X)" in one_error_line(err)
    status, out, err = run_main(
        capsys, "deal", "PY1-M-AAAAAAS", "--format", "cards", "--rules", "classic"
    )
    assert status == 2 and "names the msc rules" in one_error_line(err)


# ---- 4. None where a deal is expected ---------------------------------------------------------


def test_every_function_taking_a_deal_refuses_none():
    """None names no deal: a clear ValueError naming the argument, never a random deal."""
    for fn in (ps.solve, ps.max_removable, ps.max_removed_line, ps.replay):
        with pytest.raises(
            ValueError,
            match=r"^deal must be a Deal, a deal code .* got None "
            r"\(for a random deal: Deal\.random\(\)\)",
        ):
            fn(None)
    calls = [
        (lambda: Deal.parse(None), "^Deal.parse: text must be a deal code"),
        (lambda: Deal(None), "^cards must be a card list"),
        (lambda: Deal.from_cards(None), "^cards must be a card list"),
        (lambda: ps.parse_cards(None), "^cards must be a card list"),
        (lambda: Deal.from_code(None), "^code must be a deal code"),
        (lambda: Deal.from_number(None), "^a deal number is a whole number"),
        (lambda: ps.format_cards(None), "^format_cards: cards must be a sequence"),
        (lambda: ps.format_cards([52]), "card index"),
        (lambda: ps.format_cards("Kc Qd"), "^format_cards: cards must be a sequence"),
        (
            lambda: ps.simulate(None),
            "exactly one of games .* got neither: games and deals are None",
        ),
        (lambda: ps.solve_many(None), "^deals must be a sequence"),
        (lambda: ps.hint(None), "hint takes a Game"),
        (lambda: ps.can_still_win(None), "can_still_win takes a Game"),
        (lambda: ps.memory_needed(None), "games must be a whole number"),
    ]
    for call, match in calls:
        with pytest.raises(ValueError, match=match):
            call()
    assert ps.format_cards([ps.Card("Kc"), 0, "Qd"]) == "Kc Ac Qd"
    # the documented meanings of None stay: Game(None) deals a random deal, Rules.coerce(None)
    # is pyramide
    assert isinstance(ps.Game(None), ps.Game) and ps.Game(None).deal.number is not None
    assert ps.Rules.coerce(None) == ps.Rules()


# ---- 5. numbers that overflow -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["1e999999999", "1e1000000", "-1e999999999", "1e400", "1e100", "9.9e99999999999"]
)
def test_huge_scientific_text_is_refused_at_once(text):
    """Refused from its exponent, without building the number: 10**1000000 alone is 415 KB
    (memory, not time, measured: a deterministic bound)."""
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(ValueError, match=f"^games must be 1..8,031,810,176, got '{text}'"):
        _args.whole("games", text, 1, 26**7)
    with pytest.raises(
        ValueError, match=f"^games must be a whole number below 10\\*\\*100, got '{text}'"
    ):
        _args.whole("games", text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100_000, peak


def test_scientific_text_is_read_exactly():
    assert _args.whole("n", "1e99") == 10**99
    assert [
        _args.whole("n", t) for t in ("2.0", "1_000e3", ".5e1", "+12.50e1", "0e999999999", "-3e2")
    ] == [2, 10**6, 5, 125, 0, -300]
    for fraction in ("1.5e0", "1e-999999999", "0.5"):
        with pytest.raises(ValueError, match="must be a whole number"):
            _args.whole("n", fraction)
    # a budget that large is no budget, as for the int 2**70
    assert (
        _args.whole("max_nodes", "1e999999999", 1, _args.INT64_MAX, clamp=True) == _args.INT64_MAX
    )


def test_huge_numbers_through_the_api_and_the_cli(capsys):
    with pytest.raises(ValueError, match="^games must be"):
        ps.simulate("1e1000000")
    with pytest.raises(ValueError, match="^games must be"):
        ps.memory_needed("1e999999999")
    for argv, flag in (
        (["simulate", "--games", "1e999999999"], "--games"),
        (["simulate", "--games", "10", "--start", "1e999999999"], "--start"),
        (["simulate", "--games", "10", "--seed", "1e999999999"], "--seed"),
        (["simulate", "--games", "10", "--threads", "1e999999999"], "--threads"),
        (["simulate", "--games", "10", "--draw", "1e999999999"], "--draw"),
        (["simulate", "--games", "10", "--redeals", "1e99999999"], "--redeals"),
        (["survey", "--count", "1e999999999", "--out", "x"], "--count"),
        (["solve", "PY1-M-AAAAAAS", "--max-seconds", "1e400"], "--max-seconds"),
        (["solve", "PY1-M-AAAAAAS", "--max-seconds", "1e-400"], "--max-seconds"),
    ):
        status, out, err = run_main(capsys, *argv)
        assert status == 2 and flag in one_error_line(err), (argv, err)


def test_ints_too_long_to_print_are_named_by_their_digits():
    """Python refuses to turn an int of more than 4,300 digits into text: the messages give
    its number of digits instead of that error."""
    huge = 10**5000
    calls = [
        (lambda: _args.whole("games", huge, 1, 10), "^games must be 1..10, got"),
        (lambda: _args.real("max_seconds", huge), "^max_seconds must be a number"),
        (lambda: Deal.from_number(huge), "^a deal number is a whole number"),
        (lambda: ps.simulate(10, seed=huge), "^seed must be"),
        (lambda: ps.solve_many([huge]), "^deal 1: a deal number"),
        (
            lambda: ps.solve_many(range(huge, huge + 2)),
            r"^deal numbers must be .* got "
            r"range\(a number of about",
        ),
        (lambda: _args.memory("max_memory", huge), "^max_memory a number of about"),
    ]
    for call, match in calls:
        with pytest.raises(ValueError, match=match) as info:
            call()
        assert "a number of about 5,001 digits" in str(info.value)
        assert "4300" not in str(info.value)


@pytest.mark.parametrize("text", ["1e400", "-1e400", "1e-400", "2.5e-9999"])
def test_float_text_a_float_cannot_hold_is_refused(text):
    """Never read as infinity (no limit) or as 0."""
    with pytest.raises(
        ValueError, match=f"^max_seconds must be a number a float holds .* got '{text}'"
    ):
        _args.real("max_seconds", text, positive=False, allow_inf=True)
    with pytest.raises(ValueError, match="max_seconds"):
        ps.solve("PY1-M-AAAAAAS", max_seconds=text)


def test_float_text_in_range_and_infinity_as_such():
    assert _args.real("s", "inf", allow_inf=True) == float("inf")
    assert _args.real("s", "1e308") == 1e308 and _args.real("s", "0e-400", positive=False) == 0
    with pytest.raises(ValueError, match="penalty must be a number a float holds"):
        ps.GameBatch(1, penalty="-1e400")


@pytest.mark.skipif(not np.isfinite(np.longdouble("1e400")), reason="long double is a double here")
def test_a_long_double_out_of_float_range_is_refused():
    for value in (np.longdouble("1e400"), np.longdouble("1e-400")):
        with pytest.raises(ValueError, match="a float holds"):
            _args.real("max_seconds", value, allow_inf=True)


class FakeWindll:
    """ctypes.windll as far as GlobalMemoryStatusEx goes."""

    def __init__(self, total: int, available: int, ok: bool = True) -> None:
        self.kernel32 = self
        self.total, self.available, self.ok, self.lengths = total, available, ok, []

    def GlobalMemoryStatusEx(self, ref) -> int:  # noqa: N802 - the Windows name
        status = ref._obj
        assert isinstance(status, _args.MEMORYSTATUSEX)
        self.lengths.append(status.dwLength)
        if self.ok:
            status.ullTotalPhys, status.ullAvailPhys = self.total, self.available
        return int(self.ok)


def test_windows_memory_is_read_through_global_memory_status_ex(monkeypatch):
    assert ctypes.sizeof(_args.MEMORYSTATUSEX) == 64  # the Windows struct's size
    fake = FakeWindll(16 << 30, 5 << 30)
    assert _args.windows_memory(fake) == (16 << 30, 5 << 30) and fake.lengths == [64]
    monkeypatch.setattr(_args, "_windll", lambda: fake)
    assert _args.machine_memory() == 16 << 30 and _args.available_memory() == 5 << 30
    assert _args.memory("max_memory", "8GB") == 8 << 30
    with pytest.raises(
        ValueError, match="^max_memory '32GB' is more than this machine's 16.0 GB of memory"
    ):
        _args.memory("max_memory", "32GB")
    failing = FakeWindll(0, 0, ok=False)
    assert _args.windows_memory(failing) is None
    monkeypatch.setattr(_args, "_windll", lambda: failing)
    assert _args.machine_memory() is None and _args.available_memory() is None


def test_memory_budgets_are_bounded_when_the_memory_is_unknown(monkeypatch):
    monkeypatch.setattr(_args, "machine_memory", lambda: None)
    for value in (2**80, 2**48 + 1, "300 TB", 1e30):
        with pytest.raises(
            ValueError,
            match=r"is more than 256.0 TB, the most accepted when "
            "the machine's memory cannot be read",
        ):
            _args.memory("max_memory", value)
    with pytest.raises(ValueError, match="^max_memory"):
        ps.solve("PY1-M-AAAAAAS", max_memory=2**80)
    assert _args.memory("max_memory", 2**48) == 2**48
    assert ps.solve("PY1-M-AAAAAAS", max_memory="64MB").winnable is True


# ---- 6. survey workers and damaged shards -----------------------------------------------------


def test_survey_workers_are_bounded_by_the_cores(tmp_path, capsys):
    cap = _args.THREADS_PER_CORE_MAX * (os.cpu_count() or 1)
    status, out, err = run_main(
        capsys, "survey", "--count", "10", "--out", str(tmp_path / "w"), "--workers", str(cap + 1)
    )
    assert status == 2 and one_error_line(err).endswith(
        f"--workers must be at most {cap} ({_args.THREADS_PER_CORE_MAX} x the "
        f"{os.cpu_count() or 1} cores of this machine), got {cap + 1:,}"
    )
    assert not (tmp_path / "w").exists()
    with pytest.raises(ValueError, match=f"^workers must be at most {cap} "):
        S.survey(tmp_path / "w", rules="msc", policy="greedy", count=10, workers=cap + 1)
    from pyramid_solitaire._cluster import run_tasks

    with pytest.raises(ValueError, match=f"^workers must be at most {cap} "):
        next(run_tasks(abs, [(1,)], workers=cap + 1))
    assert _args.workers(cap) == cap


@pytest.fixture(scope="module")
def finished_survey(tmp_path_factory):
    import_or_skip_extra("pyarrow")  # the survey extra
    folder = tmp_path_factory.mktemp("survey") / "s"
    S.survey(folder, rules="msc", policy="greedy", count=3000, shard_size=1000)
    return folder


def _table(folder):
    import pyarrow.parquet as pq

    return pq.read_table(folder / S.shard_name(1))


def _set(table, name, change):
    import pyarrow as pa

    values = table.column(name).to_numpy().copy()
    change(values)
    return table.set_column(table.schema.get_field_index(name), name, pa.array(values))


def _write(path, table):
    import pyarrow.parquet as pq

    pq.write_table(table, path)


DAMAGE = {
    "truncated": (
        lambda p, t: p.write_bytes(p.read_bytes()[:300]),
        "not a readable Parquet file (Parquet magic bytes not found",
    ),
    "empty": (
        lambda p, t: p.write_bytes(b""),
        "not a readable Parquet file (Parquet file size is 0 bytes)",
    ),
    "not parquet": (lambda p, t: p.write_text("deal,won\n1,1\n"), "not a readable Parquet file"),
    "a folder": (lambda p, t: (p.unlink(), p.mkdir()), "it is not a file"),
    "column missing": (
        lambda p, t: _write(p, t.drop_columns(["won"])),
        "it has no column 'won' (it has 'deal', 'length', 'removed', 'nodes', "
        "'seconds'; a shard has 'deal', 'won', 'length', 'removed', 'nodes', "
        "'seconds')",
    ),
    "column type": (
        lambda p, t: _write(p, t.set_column(1, "won", t.column("won").cast("int64"))),
        "its column 'won' is of type int64, not int8",
    ),
    "rows missing": (
        lambda p, t: _write(p, t.slice(0, 10)),
        "it has 10 rows, not the 1,000 deals 1,000..1,999 of shard 1",
    ),
    "won": (
        lambda p, t: _write(p, _set(t, "won", lambda v: v.__setitem__(5, 7))),
        "column 'won' holds 7 for deal 1,005, not a value -1..1",
    ),
    "removed": (
        lambda p, t: _write(p, _set(t, "removed", lambda v: v.__setitem__(9, 29))),
        "column 'removed' holds 29 for deal 1,009, not a value -1..28",
    ),
    "length": (
        lambda p, t: _write(p, _set(t, "length", lambda v: v.__setitem__(0, -5))),
        "column 'length' holds -5 for deal 1,000, not a value -1..32767",
    ),
    "deal": (
        lambda p, t: _write(p, _set(t, "deal", lambda v: v.__setitem__(2, 5))),
        "row 3 is deal 5, not 1,002 (shard 1 holds deals 1,000..1,999)",
    ),
    "seconds": (
        lambda p, t: _write(p, _set(t, "seconds", lambda v: v.__setitem__(0, np.nan))),
        "column 'seconds' holds nan for deal 1,000, not a time of 0 or more",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_survey_report_names_a_damaged_shard(finished_survey, tmp_path, capsys, damage):
    folder = tmp_path / "s"
    shutil.copytree(finished_survey, folder)
    path = folder / S.shard_name(1)
    spoil, what = DAMAGE[damage]
    spoil(path, _table(finished_survey))
    status, out, err = run_main(capsys, "survey", "report", str(folder))
    line = one_error_line(err)
    assert status == 2 and out == ""
    assert line.startswith(f"pyramid-solitaire: error: survey shard {path} is damaged: {what}")
    assert line.endswith("run the survey again to redo it")
    for read in (S.report, S.load):
        with pytest.raises(ValueError, match=f"^survey shard {path} is damaged"):
            read(folder)


def test_a_shard_of_other_columns_is_redone_on_resume(finished_survey, tmp_path):
    folder = tmp_path / "s"
    shutil.copytree(finished_survey, folder)
    _write(folder / S.shard_name(2), _table(finished_survey).drop_columns(["nodes"]))
    run = S.survey(folder, rules="msc", policy="greedy", count=3000, shard_size=1000)
    assert (run["done_now"], run["done_before"]) == (1, 2)
    assert S.report(folder)["deals"] == 3000


def test_a_manifest_number_out_of_range_names_the_manifest(finished_survey, tmp_path, capsys):
    import json

    folder = tmp_path / "s"
    shutil.copytree(finished_survey, folder)
    manifest = json.loads((folder / S.MANIFEST).read_text())
    (folder / S.MANIFEST).write_text(json.dumps(manifest | {"count": "1e999999999"}))
    status, out, err = run_main(capsys, "survey", "report", str(folder))
    assert status == 2 and one_error_line(err).startswith(
        f"pyramid-solitaire: error: survey manifest {folder / S.MANIFEST}: count must be"
    )


def test_the_port_is_a_number_like_every_other(tmp_path, capsys):
    """--port is read by _args like every number: other Unicode digits are refused, text in
    scientific form is read exactly, and the range is checked there."""
    folder_as_file = tmp_path / "a file"
    folder_as_file.write_text("x")
    for port, says in (
        ("\u0663", "--port must be a whole number"),
        ("1e999999999", "--port must be 0..65,535, got '1e999999999'"),
        ("70000", "--port must be 0..65,535, got 70,000"),
    ):
        status, out, err = run_main(
            capsys, "play", "--web", "--no-browser", "--port", port, "--save", str(folder_as_file)
        )
        assert status == 2 and says in one_error_line(err), (port, err)
