"""Strict JSON for every machine-readable output.

- No NaN or Infinity (they are not JSON): written as ``null``.
- Integers a JavaScript frontend would round (beyond +-2**53, such as a user's 64-bit seed)
  are written as strings of digits; smaller ones stay numbers.
- numpy scalars and arrays become plain numbers and lists; tuples become lists.

>>> dumps({"rate": float("nan"), "seed": 2**64 - 1, "games": 10})
'{"rate": null, "seed": "18446744073709551615", "games": 10}'
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

#: The largest integer a JSON reader using IEEE doubles (JavaScript) keeps exactly.
SAFE_INTEGER = (1 << 53) - 1


def jsonable(value: Any) -> Any:
    """``value`` with everything strict JSON cannot carry exactly replaced (see the module)."""
    kind = type(value)
    if kind is str or value is None:  # (the common cases first: they need nothing)
        return value
    if kind is list and all(type(v) is str for v in value):
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        n = int(value)
        return n if -SAFE_INTEGER <= n <= SAFE_INTEGER else str(n)
    if isinstance(value, (float, np.floating)):
        x = float(value)
        return x if math.isfinite(x) else None
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """Strict JSON text of ``value`` (``json.dumps`` with ``allow_nan=False``)."""
    return json.dumps(jsonable(value), allow_nan=False, **kwargs)
