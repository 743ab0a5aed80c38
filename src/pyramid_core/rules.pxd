# The rule options of docs/rules.md as a flat C struct. The Python class
# pyramid_solitaire.Rules validates combinations and fills this struct; the core trusts it.
from libc.stdint cimport uint8_t

cdef enum:
    REDEALS_UNLIMITED = 255   # value of pyr_rules.redeals meaning "recycle without limit"
    REDEALS_MAX = 63          # largest finite redeal count (a position keeps recycles in 6 bits)

ctypedef struct pyr_rules:
    uint8_t waste_at_deal        # 0 or 1 talon cards turned onto the waste at the deal
    uint8_t draw                 # 1, or 3 (three waste piles; needs redeals 0)
    uint8_t redeals              # 0..REDEALS_MAX, or REDEALS_UNLIMITED
    uint8_t win_all              # 0: clear the pyramid; 1: remove all 52 cards
    uint8_t stock_top_playable   # the stock's top card is available (Microsoft rules)
    uint8_t pair_waste_top_two   # the top two waste cards may pair with each other
    uint8_t pair_with_covering   # a card may pair with the only card still covering it


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
