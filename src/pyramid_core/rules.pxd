# The rule options of docs/rules.md as a flat C struct (pyr_rules.h). The Python class
# pyramid_solitaire.Rules validates combinations and fills this struct; the core trusts it.
from libc.stdint cimport uint8_t

cdef extern from "pyr_rules.h" nogil:
    enum:
        REDEALS_UNLIMITED "PYR_REDEALS_UNLIMITED"   # redeals: recycle without limit
        REDEALS_MAX "PYR_REDEALS_MAX"               # the largest finite redeal count
    ctypedef struct pyr_rules:   # (its fields are described in pyr_rules.h)
        uint8_t waste_at_deal
        uint8_t draw
        uint8_t redeals
        uint8_t win_all
        uint8_t stock_top_playable
        uint8_t pair_waste_top_two
        uint8_t pair_with_covering


cdef inline int rules_from_options(pyr_rules* r, dict d) except -1:
    """Fill r from Rules.core_options()-style keywords (missing ones: the pyramide preset)."""
    r.waste_at_deal = d.get("waste_at_deal", 1)
    r.draw = d.get("draw", 1)
    r.redeals = d.get("redeals", REDEALS_UNLIMITED)
    r.win_all = d.get("win_all", 0)
    r.stock_top_playable = d.get("stock_top_playable", 0)
    r.pair_waste_top_two = d.get("pair_waste_top_two", 0)
    r.pair_with_covering = d.get("pair_with_covering", 0)
    return 0
