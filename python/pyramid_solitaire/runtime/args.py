"""Checking of scalar arguments, written once for the API and the command line.

Every number a user gives (an API argument or a CLI flag) goes through one of these, with the
name to quote in the error (``max_nodes`` from Python, ``--max-nodes`` from the CLI):

- :func:`whole`: a whole number. Accepted: ``int``, numpy integers, floats and numpy floats
  that are whole (``1e6``), and text of ASCII digits with an optional sign, ``_`` or ``,``
  separators (``"1_000_000"``), or a whole number in decimal or scientific form
  (``"1e6"``). Refused: bools, fractions, NaN, infinities, other Unicode digits (``"²"``,
  ``"٣"``), anything else. Text in scientific form is read exactly (``"1e6"`` is 1,000,000;
  ``"1.5e0"`` is refused) without ever computing a huge power: text worth 10**100 or more
  (``"1e999999999"``) is out of every range.
- :func:`real`: a number (int, float, numpy numbers, or decimal text such as ``"2.5"``);
  NaN and bools are refused; ``inf`` is allowed where the caller says so (no limit); text or
  a number that a float cannot hold (``"1e400"``, ``"1e-400"``) is refused, never read as
  infinity or 0.
- :func:`memory`: a number of bytes, or text with a unit (``"512MB"``, ``"1 GiB"``), at most
  the machine's memory (``MEMORY_UNKNOWN_MAX`` when the machine does not say).
- :func:`threads` and :func:`workers`: counts bounded by the machine's cores.

Values that make sense but exceed what the core stores (``max_nodes=2**70``) are clamped
where the caller allows it (a budget that large means no budget); others raise. Every error
is a ``ValueError`` whose message starts with the argument's name and quotes at most a short
excerpt of the value.
"""

from __future__ import annotations

import ctypes
import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

_EXCERPT = 60
# One rule for every number a user writes: digits, with underscores only between digits as
# Python writes them (1_000_000); no commas, no other separators.
_DIGITS = r"[0-9](?:_?[0-9])*"
_INT_TEXT = re.compile(rf"[+-]?{_DIGITS}")
_REAL_TEXT = re.compile(
    rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][+-]?{_DIGITS})?"
    r"|[+-]?(?:inf|infinity|nan)",
    re.IGNORECASE,
)
#: What a number with separators the rule refuses looks like (for a clearer message).
_SEPARATED = re.compile(r"[+-]?[0-9._,]*[0-9][0-9._,]*(?:[eE][+-]?[0-9_]+)?")


def _separator_problem(text: str) -> str | None:
    """Why ``text``, a number with separators, is refused: commas, or underscores not
    between two digits; None when it is no such thing."""
    if _REAL_TEXT.fullmatch(text) or not _SEPARATED.fullmatch(text):
        return None
    if "," in text:
        return "no commas in numbers: write 1500 or 1_500"
    if "_" in text:
        return "an underscore goes only between two digits, as in 1_500"
    return None


_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "kib": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "mib": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
    "gib": 1 << 30,
    "t": 1 << 40,
    "tb": 1 << 40,
    "tib": 1 << 40,
}
_SCIENTIFIC = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
#: Text is read as a whole number of at most this many digits (more is out of every range).
TEXT_DIGITS_MAX = 100
INT64_MAX = (1 << 63) - 1
#: The largest memory size accepted when the machine's memory cannot be read (256 TiB).
MEMORY_UNKNOWN_MAX = 1 << 48
#: The most threads a batch call accepts, as a multiple of the machine's cores.
THREADS_PER_CORE_MAX = 4


def excerpt(value: Any, limit: int = _EXCERPT) -> str:
    """``repr(value)``, cut to about ``limit`` characters for an error message (a huge int
    as its number of digits: its repr may not even be allowed)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 128:
        return _short_int(value)
    if isinstance(value, range):
        ends = (value.start, value.stop) + ((value.step,) if value.step != 1 else ())
        return f"range({', '.join(excerpt(x, limit // 2) for x in ends)})"
    try:
        text = repr(value)
    except Exception:  # pragma: no cover - a broken __repr__
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str) else type(value).__name__
    return f"{text[: limit - 10]}... ({size})"


def _is_bool(value: Any) -> bool:
    """Bools, and numpy times (a timedelta64 is a numpy integer): never numbers here."""
    return isinstance(value, (bool, np.bool_, np.timedelta64, np.datetime64))


class _HugeText(Exception):
    """Text of a whole number of more than TEXT_DIGITS_MAX digits (never computed)."""

    def __init__(self, sign: int) -> None:
        self.sign = sign


def whole(
    name: str, value: Any, low: int | None = None, high: int | None = None, *, clamp: bool = False
) -> int:
    """A whole number in ``low .. high``; with ``clamp``, values above ``high`` become
    ``high`` (a budget so large it is no budget) instead of raising."""
    try:
        n = _to_int(name, value)
    except _HugeText as e:
        if clamp and high is not None and e.sign > 0:
            return high
        bound = (
            _range(low, high) if high is not None else f"a whole number below 10**{TEXT_DIGITS_MAX}"
        )
        raise ValueError(f"{name} must be {bound}, got {excerpt(value)}") from None
    if low is not None and n < low:
        raise ValueError(f"{name} must be {_range(low, high)}, got {_short_int(n)}")
    if high is not None and n > high:
        if clamp:
            return high
        raise ValueError(f"{name} must be {_range(low, high)}, got {_short_int(n)}")
    return n


def _to_int(name: str, value: Any) -> int:
    if _is_bool(value):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if math.isfinite(value) and float(value).is_integer():
            return int(value)
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= 100:
            if _INT_TEXT.fullmatch(text):
                return int(text.replace("_", ""))
            if _REAL_TEXT.fullmatch(text) and "n" not in text.lower():  # "1e6", "2.0"
                n = _scientific_int(text.replace("_", ""))
                if n is not None:
                    return n
        elif text.isascii() and text.lstrip("+-").isdigit():  # digits, just too many
            raise ValueError(
                f"{name} must be a whole number written in at most 100 "
                f"characters, got a number of {len(text.lstrip('+-')):,} digits"
            )
        problem = _separator_problem(text)
        raise ValueError(
            f"{name} must be a whole number (ASCII digits, or such as 1e6"
            + (f"; {problem}" if problem else "")
            + f"), got {excerpt(value)}"
        )
    raise ValueError(f"{name} must be a whole number, got {excerpt(value)}")


def _scientific_int(text: str) -> int | None:
    """The whole number a decimal or scientific text (``"2.0"``, ``"1e6"``) is exactly; None
    for a fraction. The power of ten is looked at before it is computed: _HugeText for a
    number of more than TEXT_DIGITS_MAX digits (``"1e999999999"``)."""
    m = _SCIENTIFIC.fullmatch(text)
    if m is None:  # pragma: no cover - _REAL_TEXT matched
        return None
    sign, whole_part, fraction, exponent = m.groups(default="")
    digits = (whole_part + fraction).lstrip("0")
    if not digits:
        return 0
    significant = digits.rstrip("0")
    power = int(exponent or 0) - len(fraction) + len(digits) - len(significant)
    if power < 0:
        return None  # a fraction: 1.5e0, 1e-3
    if len(significant) + power > TEXT_DIGITS_MAX:
        raise _HugeText(-1 if sign == "-" else 1)
    n = int(significant) * int(10**power)
    return -n if sign == "-" else n


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low:,}..{high:,}"
    if low is not None:
        return f"at least {low:,}"
    return f"at most {high:,}"


def _short_int(n: int) -> str:
    """``n`` with separators, or for a long one its number of digits (worked out from its
    bits for a huge one, which Python refuses to turn into text)."""
    bits = abs(n).bit_length()
    if bits > 10_000:  # more than about 3,000 digits
        return f"a number of about {int(bits * math.log10(2)) + 1:,} digits"
    text = f"{n:,}"
    return text if len(text) <= 40 else f"a number of {len(str(abs(n))):,} digits"


def count_of(n: int, word: str) -> str:
    """``n`` and the word, plural but for one: ``1 deal``, ``2 deals``, ``1,000 games``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def path_name(name: str, value: Any) -> Path:
    """A file or folder name (a str or os.PathLike): an empty or blank one is refused,
    never taken as the current folder or standard input."""
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise ValueError(f"{name} must be a file or folder name, got {excerpt(value)}")
    text = os.fspath(value)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} must be a file or folder name, got an empty one {excerpt(text)}")
    return Path(text)


def real(name: str, value: Any, *, positive: bool = True, allow_inf: bool = False) -> float:
    """A real number (> 0 when ``positive``); NaN never, infinity only with ``allow_inf``
    (given as such: ``"1e400"``, which a float cannot hold, is refused, not read as inf)."""
    if _is_bool(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    sensible = f"{name} must be a number a float holds (about 1e-308 .. 1e308), got "
    if isinstance(value, str):
        text = value.strip()
        if not _REAL_TEXT.fullmatch(text) or len(text) > 100:
            problem = _separator_problem(text) if len(text) <= 100 else None
            raise ValueError(
                f"{name} must be a number"
                + (f" ({problem})" if problem else "")
                + f", got {excerpt(value)}"
            )
        number = float(text.replace("_", ""))
        mantissa = re.split("[eE]", text.lower())[0]
        if (math.isinf(number) and "inf" not in mantissa) or (
            number == 0 and any(ch in "123456789" for ch in mantissa)
        ):
            raise ValueError(sensible + excerpt(value))  # "1e400", "1e-400"
        value = number
    elif isinstance(value, (int, np.integer)):
        if abs(int(value)) > 1 << 1000:
            raise ValueError(sensible + _short_int(int(value)))
        value = float(value)
    elif isinstance(value, (float, np.floating)):
        number = float(value)
        if (math.isinf(number) and np.isfinite(value)) or (number == 0 and value != 0):
            raise ValueError(sensible + excerpt(value))  # a long double out of range
        value = number
    else:
        raise ValueError(f"{name} must be a number, got {excerpt(value)}")
    if math.isnan(value):
        raise ValueError(f"{name} must be a number, got NaN")
    if math.isinf(value) and not (allow_inf and value > 0):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if positive and not value > 0:
        raise ValueError(f"{name} must be more than 0, got {value!r}")
    return float(value)


class MEMORYSTATUSEX(ctypes.Structure):
    """What Windows' GlobalMemoryStatusEx fills in (sizes in bytes)."""

    _fields_ = [
        ("dwLength", ctypes.c_uint32),
        ("dwMemoryLoad", ctypes.c_uint32),
        ("ullTotalPhys", ctypes.c_uint64),
        ("ullAvailPhys", ctypes.c_uint64),
        ("ullTotalPageFile", ctypes.c_uint64),
        ("ullAvailPageFile", ctypes.c_uint64),
        ("ullTotalVirtual", ctypes.c_uint64),
        ("ullAvailVirtual", ctypes.c_uint64),
        ("ullAvailExtendedVirtual", ctypes.c_uint64),
    ]


def _windll() -> Any:
    """ctypes' ``windll`` on Windows, else None."""
    return getattr(ctypes, "windll", None)


def windows_memory(windll: Any) -> tuple[int, int] | None:
    """(physical memory, memory available) in bytes from Windows' ``GlobalMemoryStatusEx``,
    through ``windll`` (ctypes.windll); None when the call fails."""
    status = MEMORYSTATUSEX()
    status.dwLength = ctypes.sizeof(MEMORYSTATUSEX)
    try:
        ok = windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status))
    except (AttributeError, OSError):
        return None
    if not ok or status.ullTotalPhys <= 0:
        return None
    return int(status.ullTotalPhys), int(status.ullAvailPhys)


def machine_memory() -> int | None:
    """The machine's physical memory in bytes, when the platform says (POSIX sysconf, or
    Windows' GlobalMemoryStatusEx)."""
    windll = _windll()
    if windll is not None:
        win = windows_memory(windll)
        return None if win is None else win[0]
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None
    return total if total > 0 else None


def available_memory() -> int | None:
    """Bytes of memory available for new allocations (Windows' available physical memory,
    Linux MemAvailable, else the physical memory), None when unknown."""
    windll = _windll()
    if windll is not None:
        win = windows_memory(windll)
        return None if win is None else win[1]
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return machine_memory()


def memory(name: str, value: Any, low: int = 1 << 16) -> int:
    """Bytes, from a whole number or text with a unit (``"512MB"``, ``"1.5 GiB"``); at
    least ``low`` and at most the machine's physical memory (MEMORY_UNKNOWN_MAX when the
    machine does not say)."""
    if isinstance(value, str):
        m = re.fullmatch(rf"\s*({_DIGITS}(?:\.{_DIGITS})?)\s*([a-zA-Z]*)\s*", value)
        if not m or m.group(2).lower() not in _UNITS or len(value) > 100:
            number_part = re.match(r"\s*([^a-zA-Z\s]*)", value)
            problem = _separator_problem(number_part.group(1)) if number_part else None
            raise ValueError(
                f"{name} must be bytes such as 1000000, '512MB' or '1GiB'"
                + (f" ({problem})" if problem and len(value) <= 100 else "")
                + f", got {excerpt(value)}"
            )
        number = float(m.group(1).replace("_", ""))
        if not math.isfinite(number):  # pragma: no cover - the pattern has no inf
            raise ValueError(f"{name} must be a finite size, got {excerpt(value)}")
        size = int(number * _UNITS[m.group(2).lower()])
    else:
        size = whole(name, value)
    if size < low:
        raise ValueError(f"{name} must be at least {low:,} bytes, got {excerpt(value)}")
    total = machine_memory()
    if total is not None and size > total:
        raise ValueError(
            f"{name} {excerpt(value)} is more than this machine's {format_bytes(total)} of memory"
        )
    if total is None and size > MEMORY_UNKNOWN_MAX:
        raise ValueError(
            f"{name} {excerpt(value)} is more than "
            f"{format_bytes(MEMORY_UNKNOWN_MAX)}, the most accepted when the "
            "machine's memory cannot be read"
        )
    return size


def format_bytes(n: float) -> str:
    """``12.3 GB`` (powers of 1,024, the unit names people use)."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} TB"  # pragma: no cover


def choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    """One of the names ``allowed`` (lower case), in any case and spacing."""
    if isinstance(value, str) and value.strip().lower() in allowed:
        return value.strip().lower()
    raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {excerpt(value)}")


def flag(name: str, value: Any) -> bool:
    """On or off: ``True``/``False`` (or numpy bools, 0 and 1)."""
    if isinstance(value, (bool, np.bool_)) or (
        isinstance(value, (int, np.integer)) and not _is_bool(value) and value in (0, 1)
    ):
        return bool(value)
    raise ValueError(f"{name} is on or off (True/False), got {excerpt(value)}")


def threads(value: Any) -> int:
    """Resolve a thread count: None for all cores; n >= 1; negative n counts back from the
    cores (-1 all, -2 all but one: scikit-learn's convention). At most
    ``THREADS_PER_CORE_MAX`` x the cores."""
    cores = os.cpu_count() or 1
    if value is None:
        return cores
    n = whole("threads", value)
    if n == 0:
        raise ValueError(
            "threads must be >= 1, or negative to count back from the number of "
            f"cores (-1 = all {cores}), got 0"
        )
    if n < 0:
        if cores + 1 + n < 1:
            raise ValueError(
                f"threads={_short_int(n)} leaves no thread on {cores} core(s): use -1 .. -{cores}"
            )
        return cores + 1 + n
    cap = THREADS_PER_CORE_MAX * cores
    if n > cap:
        raise ValueError(
            f"threads must be at most {cap} ({THREADS_PER_CORE_MAX} x the "
            f"{cores} cores of this machine), got {_short_int(n)}"
        )
    return n


def workers(value: Any, name: str = "workers") -> int:
    """A count of worker processes: 1 .. ``THREADS_PER_CORE_MAX`` x the cores, as threads
    are bounded (each process runs its share of the cores)."""
    cores = os.cpu_count() or 1
    cap = THREADS_PER_CORE_MAX * cores
    n = whole(name, value, 1)
    if n > cap:
        raise ValueError(
            f"{name} must be at most {cap} ({THREADS_PER_CORE_MAX} x the {cores} "
            f"cores of this machine), got {_short_int(n)}"
        )
    return n
