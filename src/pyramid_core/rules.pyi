"""Type stubs for the compiled pyramid_core.rules module."""

UNLIMITED: int  # the core's redeals value for no limit
MAX_REDEALS: int
