"""One layout for every per-deal result: the same column, with the same name and type, for the
same fact, whichever call made it (``simulate().to_pandas()``, ``solve_many().to_pandas()``,
``survey.to_pandas()``), so that results of different kinds are compared or concatenated
without renaming anything (docs/results.md):

======== ============== =========================================================================
column   type           what
======== ============== =========================================================================
deal     Int64          the deal number; <NA> for a deal given as a card list (no number)
code     string         the deal code under the rules; <NA> for a card list
rules    category       the rule set: a preset's name, else ``custom:`` and the options changed
policy   category       ``solver``, ``greedy``, ``random``, ``hindsight`` or a callable's name
won      boolean        won (a playout) or winnable (the solver); <NA>: undecided (a budget)
moves    Int32          the moves played, or the winning line's length; <NA> when unknown
removed  Int8           pyramid cards removed (the most removable, for the solver); <NA> unknown
nodes    UInt64         positions the solver searched (0 for playouts)
seconds  Float64        the deal's solving time; <NA> for playouts (timed as a whole)
======== ============== =========================================================================

Each kind may add columns of its own after these (``score``; ``optimal``, ``stopped_by``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model import options as _options
from ..model.deal import codes_of
from ..model.rules import Rules

#: The shared columns, in order, with their pandas dtypes.
COLUMNS: dict[str, str] = {
    "deal": "Int64",
    "code": "string",
    "rules": "category",
    "policy": "category",
    "won": "boolean",
    "moves": "Int32",
    "removed": "Int8",
    "nodes": "UInt64",
    "seconds": "Float64",
}


def rules_label(rules: Rules) -> str:
    """A rule set as data: a preset's name (``msc``), else ``custom:`` and the options that
    differ from the defaults (``custom:redeals=1,stock_top_playable=True``): the same rules
    give the same label."""
    if rules.name != "custom":
        return str(rules.name)
    defaults = _options.defaults()
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if defaults.get(k) != v]
    return "custom:" + ",".join(changed)


def _pandas(what: str) -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(f"{what} needs pandas: python -m pip install pandas") from None
    return pd


def frame(
    what: str,
    *,
    rules: Rules,
    policy: str,
    deal: np.ndarray,
    numbered: np.ndarray,
    won: np.ndarray,
    decided: np.ndarray,
    moves: np.ndarray,
    moves_known: np.ndarray,
    removed: np.ndarray,
    removed_known: np.ndarray,
    nodes: np.ndarray | None = None,
    seconds: np.ndarray | None = None,
    extra: dict[str, Any] | None = None,
) -> Any:
    """The DataFrame of one result in the shared layout (``what`` names the caller in the
    error when pandas is missing); the ``*_known`` masks (and ``decided``) say which values
    are facts, the others are <NA>."""
    pd = _pandas(what)
    n = len(won)
    numbered = np.asarray(numbered, np.bool_)
    numbers = np.asarray(deal).astype(np.int64, copy=False)
    codes = np.full(n, None, dtype=object)
    if numbered.any():
        codes[numbered] = codes_of(np.asarray(deal)[numbered].astype(np.uint64), rules)
    label, name = rules_label(rules), str(policy)

    def known(values: Any, dtype: str, mask: Any) -> Any:
        arr = pd.array(values, dtype=dtype)
        arr[~np.asarray(mask, np.bool_)] = pd.NA
        return arr

    df = pd.DataFrame(
        {
            "deal": known(np.where(numbered, numbers, 0), "Int64", numbered),
            "code": pd.array(codes, dtype="string"),
            "rules": pd.Categorical([label] * n),
            "policy": pd.Categorical([name] * n),
            "won": known(np.asarray(won, np.bool_), "boolean", decided),
            "moves": known(np.asarray(moves).astype(np.int64), "Int32", moves_known),
            "removed": known(np.asarray(removed).astype(np.int64), "Int8", removed_known),
            "nodes": pd.array(
                np.zeros(n, np.uint64) if nodes is None else np.asarray(nodes, np.uint64),
                dtype="UInt64",
            ),
            "seconds": (
                known(np.zeros(n), "Float64", np.zeros(n, np.bool_))
                if seconds is None
                else pd.array(np.asarray(seconds, np.float64), dtype="Float64")
            ),
        }
    )
    for k, v in (extra or {}).items():
        df[k] = v
    return df
