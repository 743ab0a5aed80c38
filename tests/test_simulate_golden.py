"""The simulator's games pinned: a hash of the result arrays (won, removed, moves, score) of
deals 0..19,999 under every preset (and three option variants) and both policies (random
with a fixed seed), on every path (the AVX-512 set-up and lockstep playouts where the CPU
has them, and the scalar playouts), against tests/golden/simulate.json. The file was
written by the build before the simulator shared the core's geometry tables; any change to
the games shows here.

Regenerate (only for a deliberate change of the games): python tests/test_simulate_golden.py
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import numpy as np
import pytest

from conftest import SIM_PATHS, run_on

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden" / "simulate.json"
DEALS = 20_000
SEED = 12345


# The presets, and variants: two that take the engine playout (pair_with_covering, and
# pair_waste_top_two under draw 1) and win = all on the specialised playouts.
VARIANTS = {
    "unlimited+pair_with_covering": {"preset": "unlimited", "pair_with_covering": True},
    "pyramide+win_all": {"preset": "pyramide", "win": "all"},
    "classic+pair_waste_top_two": {"preset": "classic", "pair_waste_top_two": True},
}


def digest(preset: str, policy: str, path: str | None = None) -> str:
    """The games of the case as simulate() plays them, or on the simulator's path `path`."""
    from pyramid_solitaire import Rules, simulate

    rules = VARIANTS.get(preset, preset)
    if path is None:
        r = simulate(DEALS, rules=rules, policy=policy, seed=SEED, threads=1)
        rows = [getattr(r, name) for name in ("won", "removed", "moves", "score")]
    else:
        options = Rules.coerce(rules).core_options()
        rows = run_on(path, policy, options, SEED, 0, DEALS)
    h = hashlib.sha256()
    for name, row in zip(("won", "removed", "moves", "score"), rows):
        h.update(name.encode())
        h.update(np.ascontiguousarray(row, dtype=np.int64).tobytes())
    return h.hexdigest()


def table() -> dict[str, dict[str, str]]:
    from pyramid_solitaire import Rules

    return {
        p: {pol: digest(p, pol) for pol in ("greedy", "random")}
        for p in [*Rules.preset_names(), *VARIANTS]
    }


CASES = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.mark.parametrize("path", [None, *SIM_PATHS], ids=["simulate", *SIM_PATHS])
@pytest.mark.parametrize("preset, policy", [(p, q) for p in CASES for q in CASES[p]])
def test_games_as_pinned(preset, policy, path):
    """The pinned games, by the public API (on the path resolved at import) and on every path
    of the simulator."""
    assert digest(preset, policy, path) == CASES[preset][policy]


def test_every_preset_pinned():
    from pyramid_solitaire import Rules

    assert sorted(CASES) == sorted([*Rules.preset_names(), *VARIANTS])


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(table(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)
