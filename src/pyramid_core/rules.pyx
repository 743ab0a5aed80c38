# cython: language_level=3
"""The C rule struct seen from Python (used by the Python layer and tests)."""

UNLIMITED = REDEALS_UNLIMITED
MAX_REDEALS = REDEALS_MAX
