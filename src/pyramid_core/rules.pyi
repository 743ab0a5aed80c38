"""Type stubs for the compiled pyramid_core.rules module."""

UNLIMITED: int
MAX_REDEALS: int
