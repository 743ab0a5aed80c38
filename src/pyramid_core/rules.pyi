"""Type stubs for the compiled pyramid_core.rules module."""

UNLIMITED: int  # the core's redeals value for no limit
MAX_REDEALS: int
SHORTCUTS: tuple[str, ...]

def check(options: dict[str, int]) -> None: ...
def shortcuts(options: dict[str, int]) -> tuple[str, ...]: ...
