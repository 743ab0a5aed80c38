"""The ``pyramid-solitaire`` command line: the ``deal`` command, the rule flags and bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pyramid_core
import pyramid_solitaire

from conftest import run_main

VECTOR_A = (
    "8s Jh 9c 2s 2d Qd 6s Tc 3d Ac Jc 7c 9h 8c Qs Kh 5h 2c 3h 5c Ah 6c 4s Td 5d 8h 8d Ad "
    "Qh Ts Qc Jd 3s 4d 2h 9d 3c Kd As 7s 9s 7d Js 6h Ks 4c 7h 5s 6d 4h Kc Th"
)
VECTOR_S = (
    "Ad 3c 7d 6c 5c 8d 2h 4c 8c 2d Kd Qd 6s 8h 8s 9h 3h 4d Ts Qc Kh 5d Kc 2s Jh 3d Th As "
    "Tc 3s 4s 9d Qh 9c 7s Td 9s 2c 6h 5h Ah 5s Jd Ac 7h Js 4h Ks 6d Jc 7c Qs"
)
ERROR_LINE = re.compile(r"^pyramid-solitaire: error: \S.*$")

DEFAULT_RULES = {
    "name": "pyramide",
    "letter": "N",
    "waste_at_deal": 1,
    "draw": 1,
    "redeals": "unlimited",
    "win": "pyramid",
    "stock_top_playable": False,
    "pair_waste_top_two": False,
    "pair_with_covering": False,
}


def run(capsys, *argv) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


def run_json(capsys, *argv) -> dict:
    status, out, err = run(capsys, "deal", *argv, "--format", "json")
    assert status == 0 and err == "", err
    return json.loads(out)


# ---- deal -------------------------------------------------------------------------------------


def test_deal_text(capsys):
    status, out, err = run(capsys, "deal", "PY1-N-AAAAAAA")
    assert status == 0 and err == ""
    assert "PY1-N-AAAAAAA" in out and "pyramide" in out
    bracketed = re.findall(r"\[([A2-9TJQK][cdhs])\]", out)
    assert bracketed == VECTOR_A.split()[21:28]  # the 7 bottom cards, and only those
    lines = out.splitlines()
    # the 28 pyramid cards, row by row, in the spec's order
    found = [
        t
        for line in lines
        for t in re.findall(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![a-z])", line)
        if "Stock" not in line
    ]
    assert found[:28] == VECTOR_A.split()[:28]
    bottom_line = next(line for line in lines if "[6c]" in line)
    assert all(f"[{t}]" in bottom_line for t in VECTOR_A.split()[21:28])
    assert "Stock: 23" in out and "Qh" in out  # seed 000: one card on the waste at the deal


def test_deal_text_default_format_is_text(capsys):
    a = run(capsys, "deal", "PY1-N-AAAAAAS")
    b = run(capsys, "deal", "PY1-N-AAAAAAS", "--format", "text")
    assert a == b and a[0] == 0


@pytest.mark.parametrize(
    "code, vector",
    [("PY1-N-AAAAAAA", VECTOR_A), ("PY1-N-AAAAAAS", VECTOR_S), ("PY1-M-AAAAAAS", VECTOR_S)],
)
def test_deal_cards(capsys, code, vector):
    status, out, err = run(capsys, "deal", code, "--format", "cards")
    assert status == 0 and err == ""
    assert out.split() == vector.split() and len(out.split()) == 52
    assert out == vector + "\n"


def test_deal_cards_from_card_list(capsys):
    symbols = VECTOR_S.replace("T", "10").replace("c", "♣").replace("d", "♦")
    status, out, _ = run(capsys, "deal", symbols, "--format", "cards")
    assert status == 0 and out.split() == VECTOR_S.split()


def test_deal_json(capsys):
    data = run_json(capsys, "PY1-N-AAAAAAA")
    toks = VECTOR_A.split()
    assert data["code"] == "PY1-N-AAAAAAA" and data["number"] == 0
    assert data["pyramid"] == [toks[r * (r + 1) // 2 : (r + 1) * (r + 2) // 2] for r in range(7)]
    assert data["talon"] == toks[28:]
    assert data["cards"] == VECTOR_A
    assert data["rules"] == DEFAULT_RULES


def test_deal_json_card_list(capsys):
    data = run_json(capsys, VECTOR_S)
    assert data["code"] is None and data["number"] is None
    assert data["cards"] == VECTOR_S and data["rules"]["name"] == "pyramide"


def test_deal_json_code_letter(capsys):
    data = run_json(capsys, "PY1-M-AAAAAAS")
    assert data["rules"]["name"] == "msc" and data["rules"]["letter"] == "M"
    assert data["rules"]["stock_top_playable"] is True and data["rules"]["redeals"] == 2


# ---- rule flags -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, changes",
    [
        (
            ["--rules", "msc"],
            dict(name="msc", letter="M", waste_at_deal=0, redeals=2, stock_top_playable=True),
        ),
        (["--rules", "T"], dict(name="three-pass", letter="T", waste_at_deal=0, redeals=2)),
        (
            ["--rules", "classic-draw3"],
            dict(name="classic-draw3", letter="D", waste_at_deal=0, draw=3, redeals=0),
        ),
        (["--redeals", "2"], dict(name="custom", letter="X", redeals=2)),
        (["--redeals", "0"], dict(name="custom", letter="X", redeals=0)),
        (
            ["--rules", "classic", "--redeals", "unlimited"],
            dict(name="unlimited", letter="U", waste_at_deal=0),
        ),
        (["--waste-at-deal", "0"], dict(name="unlimited", letter="U", waste_at_deal=0)),
        (
            ["--rules", "classic", "--draw", "3"],
            dict(name="classic-draw3", letter="D", waste_at_deal=0, draw=3, redeals=0),
        ),
        (["--draw", "3", "--redeals", "0"], dict(name="custom", letter="X", draw=3, redeals=0)),
        (["--win", "all"], dict(name="custom", letter="X", win="all")),
        (["--stock-top-playable"], dict(name="custom", letter="X", stock_top_playable=True)),
        (["--pair-waste-top-two"], dict(name="custom", letter="X", pair_waste_top_two=True)),
        (["--pair-with-covering"], dict(name="custom", letter="X", pair_with_covering=True)),
        (
            ["--rules", "msc", "--no-stock-top-playable"],
            dict(name="three-pass", letter="T", waste_at_deal=0, redeals=2),
        ),
        (["--win", "pyramid"], dict()),
    ],
)
def test_rule_flags(capsys, flags, changes):
    # an X code takes the flags' rules (an N code would name pyramide: see below)
    data = run_json(capsys, "PY1-X-AAAAAAA", *flags)
    assert data["rules"] == {**DEFAULT_RULES, **changes}
    assert data["code"] == f"PY1-{data['rules']['letter']}-AAAAAAA"
    assert data["cards"] == VECTOR_A  # the layout does not depend on the rules


def test_flags_apply_on_top_of_the_codes_preset(capsys):
    data = run_json(capsys, "PY1-M-AAAAAAA", "--win", "all")
    assert data["rules"]["stock_top_playable"] is True and data["rules"]["win"] == "all"
    assert data["rules"]["redeals"] == 2 and data["code"] == "PY1-X-AAAAAAA"
    # an X code is playable when the rules are given
    data = run_json(capsys, "PY1-X-AAAAAAA", "--rules", "classic")
    assert data["rules"]["name"] == "classic"


def test_rule_flags_change_the_text(capsys):
    _, plain, _ = run(capsys, "deal", "PY1-N-AAAAAAA")
    _, msc, _ = run(capsys, "deal", "PY1-X-AAAAAAA", "--rules", "msc")
    assert "msc" in msc and "Stock: 24" in msc and "Stock: 23" in plain


def test_rules_flag_conflicting_with_the_code(capsys):
    status, out, err = run(capsys, "deal", "PY1-N-AAAAAAA", "--rules", "msc")
    assert status == 2 and "names the pyramide rules" in err and "PY1-M-AAAAAAA" in err


# ---- bad input --------------------------------------------------------------------------------

BAD = [
    ["deal", "PY2-N-AAAAAAA"],
    ["deal", "PY1-Q-AAAAAAA"],
    ["deal", "PY1-N-AAAA"],
    ["deal", "PY1-N-AAAAAA1"],
    ["deal", "PY1-X-AAAAAAA"],
    ["deal", "Ac 2c 3c"],
    ["deal", VECTOR_A.replace("Th", "Tx")],
    ["deal", VECTOR_A.replace("Th", "8s")],
    ["deal", "PY1-N-AAAAAAA", "--rules", "vegas"],
    ["deal", "PY1-N-AAAAAAA", "--redeals", "many"],
    ["deal", "PY1-N-AAAAAAA", "--redeals", "-1"],
    ["deal", "PY1-N-AAAAAAA", "--redeals", "64"],
    ["deal", "PY1-N-AAAAAAA", "--waste-at-deal", "2"],
    ["deal", "PY1-N-AAAAAAA", "--waste-at-deal", "x"],
    ["deal", "PY1-N-AAAAAAA", "--draw", "2"],
    ["deal", "PY1-N-AAAAAAA", "--draw", "three"],
    ["deal", "PY1-N-AAAAAAA", "--draw", "3"],
    ["deal", "PY1-N-AAAAAAA", "--draw", "3", "--redeals", "0", "--stock-top-playable"],
    ["deal", "PY1-N-AAAAAAA", "--draw", "3", "--redeals", "0", "--pair-waste-top-two"],
    ["deal", "PY1-N-AAAAAAA", "--win", "some"],
]
# argparse's own errors (unknown flag, bad choice, missing argument)
ARGPARSE_BAD = [
    [],
    ["deal"],
    ["frobnicate"],
    ["deal", "PY1-N-AAAAAAA", "--format", "xml"],
    ["deal", "PY1-N-AAAAAAA", "--bogus"],
    ["deal", "PY1-N-AAAAAAA", "--redeals"],
    ["atlas", "report", "extra"],
]

# what each message must name
BAD_PARTS = {
    0: ["PY2"],
    1: ["'Q'"],
    2: ["'AAAA'"],
    3: ["'1'"],
    4: ["PY1-X-AAAAAAA"],
    5: ["52", "got 3"],
    6: ["'Tx'", "token 52"],
    7: ["8s", "twice"],
    8: ["'vegas'"],
    9: ["--redeals", "'many'"],
    10: ["--redeals"],
    11: ["--redeals", "64"],
    12: ["--waste-at-deal", "2"],
    13: ["--waste-at-deal", "'x'"],
    14: ["--draw", "2"],
    15: ["--draw", "'three'"],
    16: ["--draw 3", "--redeals 0"],
    17: ["--draw 3", "--stock-top-playable"],
    18: ["--draw 3", "--pair-waste-top-two"],
    19: ["--win", "'some'"],
}


@pytest.mark.parametrize("i", range(len(BAD)), ids=[" ".join(a[1:])[:40] for a in BAD])
def test_bad_input(capsys, i):
    status, out, err = run(capsys, *BAD[i])
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and ERROR_LINE.match(lines[0]), err
    assert "Traceback" not in err
    for part in BAD_PARTS[i]:
        assert part in lines[0]


ARGPARSE_PARTS = [
    ["COMMAND"],
    ["CODE"],
    ["'frobnicate'"],
    ["'xml'"],
    ["--bogus", "(see 'pyramid-solitaire deal --help')"],
    ["--redeals"],
    ["unrecognized arguments: extra", "(see 'pyramid-solitaire atlas report --help')"],
]


@pytest.mark.parametrize(
    "i", range(len(ARGPARSE_BAD)), ids=[" ".join(a)[:40] or "(none)" for a in ARGPARSE_BAD]
)
def test_argparse_errors_are_one_line(capsys, i):
    status, out, err = run(capsys, *ARGPARSE_BAD[i])
    lines = err.splitlines()
    assert status == 2 and out == "" and "Traceback" not in err
    assert len(lines) == 1 and ERROR_LINE.match(lines[0]), err
    for part in ARGPARSE_PARTS[i]:
        assert part in lines[0]


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and pyramid_solitaire.__version__ in out


# ---- the module entry point, in a fresh interpreter -------------------------------------------


def _env() -> dict:
    paths = [
        str(Path(pyramid_solitaire.__file__).resolve().parent.parent),
        str(Path(pyramid_core.__file__).resolve().parent.parent),
    ]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_python_dash_m():
    env = _env()
    ok = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "deal", "PY1-N-AAAAAAA", "--format", "cards"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        encoding="utf-8",
    )
    assert ok.returncode == 0 and ok.stderr == ""
    assert ok.stdout.split() == VECTOR_A.split()
    js = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramid_solitaire",
            "deal",
            "PY1-X-AAAAAAS",
            "--rules",
            "msc",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        encoding="utf-8",
    )
    assert js.returncode == 0 and json.loads(js.stdout)["code"] == "PY1-M-AAAAAAS"
    bad = subprocess.run(
        [sys.executable, "-m", "pyramid_solitaire", "deal", "PY1-N-AAAAAA!"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        encoding="utf-8",
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == [bad.stderr.strip()]
    assert ERROR_LINE.match(bad.stderr.strip()) and "'!'" in bad.stderr
    assert "Traceback" not in bad.stderr
