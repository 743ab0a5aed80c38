# The record of which shortcuts may run under a rule set (pyr_shortcuts.h: each shortcut lists
# the rule options it has been shown sound for). The solver reads it from its table
# (pyr_table.shortcuts, set by table_init); the simulator works it out from the rules.
from libc.stdint cimport uint32_t

from pyramid_core.rules cimport pyr_rules

cdef extern from "pyr_shortcuts.h" nogil:
    enum:
        SC_FREE_TALON "PYR_SC_FREE_TALON"
        SC_FRAMES "PYR_SC_FRAMES"
        SC_KING_FIRST "PYR_SC_KING_FIRST"
        SC_CLASSES "PYR_SC_CLASSES"
        SC_PARTNERS "PYR_SC_PARTNERS"
        SC_STACK "PYR_SC_STACK"
        SC_RELAX "PYR_SC_RELAX"
        SC_LOWER_BOUND "PYR_SC_LOWER_BOUND"
        SC_MACRO "PYR_SC_MACRO"
        SC_FRESH "PYR_SC_FRESH"
        SC_CURSOR "PYR_SC_CURSOR"
        SC_PLAYOUT_DRAW1 "PYR_SC_PLAYOUT_DRAW1"
        SC_PLAYOUT_DRAW3 "PYR_SC_PLAYOUT_DRAW3"
        SC_LOCKSTEP_DRAW1 "PYR_SC_LOCKSTEP_DRAW1"
        SC_LOCKSTEP_DRAW3 "PYR_SC_LOCKSTEP_DRAW3"
        SC_PROGRESS "PYR_SC_PROGRESS"
        SC_ROUND "PYR_SC_ROUND"
        SC_LOWER_BOUND_NEEDS "PYR_SC_LOWER_BOUND_NEEDS"
        SC_ALL "PYR_SC_ALL"
        SC_COUNT "PYR_SC_COUNT"
    uint32_t pyr_shortcuts(const pyr_rules* r)
    const char* pyr_sc_name(int bit)
