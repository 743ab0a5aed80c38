# cython: language_level=3
"""The C rule struct seen from Python (used by the Python layer and tests): the redeal limits,
the core's check of a rule set, and the record of the shortcuts it allows."""
from pyramid_core.shortcuts cimport pyr_shortcuts, pyr_sc_name, SC_COUNT

UNLIMITED = REDEALS_UNLIMITED
MAX_REDEALS = REDEALS_MAX
#: Every shortcut's name, in the record's order (pyr_shortcuts.h).
SHORTCUTS = tuple(pyr_sc_name(i).decode() for i in range(SC_COUNT))


def check(dict options):
    """ValueError unless the core plays these rules (Rules.core_options()-style keywords)."""
    cdef pyr_rules r
    rules_from_options(&r, options)


def shortcuts(dict options):
    """The names of the shortcuts (the solver's and the simulator's) that may run under these
    rules: pyr_shortcuts.h's record."""
    cdef pyr_rules r
    cdef uint32_t bits
    rules_from_options(&r, options)
    bits = pyr_shortcuts(&r)
    return tuple(SHORTCUTS[i] for i in range(SC_COUNT) if (bits >> i) & 1)
