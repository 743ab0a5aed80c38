"""Type stubs for the compiled pyramid_core.geometry module."""

from typing import TypedDict

class _Tables(TypedDict):
    """The per-position tables of pyr_geometry.h (lists by pyramid location)."""

    covering: list[int]
    covered: list[int]
    covered_l: list[int]
    covered_r: list[int]
    above: list[int]
    support: list[int]
    rel: list[int]
    direct: list[int]
    bad: list[int]
    bad_pwc: list[int]
    has_left: int
    has_right: int

def free(pyramid_mask: int) -> int: ...
def covers(i: int) -> tuple[int, ...]: ...
def row(i: int) -> int: ...
def tables() -> _Tables: ...
def match(rset: int, sset: int, pair_with_covering: bool = False) -> int: ...
