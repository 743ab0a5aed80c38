/* The rule options of docs/rules.md as a flat C struct, for the Cython core (rules.pxd) and
 * its C headers alike. The Python class pyramid_solitaire.Rules validates combinations and
 * fills it; the core trusts it. */
#ifndef PYR_RULES_H
#define PYR_RULES_H
#include <stdint.h>

#define PYR_REDEALS_UNLIMITED 255 /* redeals: recycle without limit */
#define PYR_REDEALS_MAX 63        /* the largest finite redeal count (6 bits in a position) */

typedef struct {
    uint8_t waste_at_deal;      /* 0 or 1 talon cards turned onto the waste at the deal */
    uint8_t draw;               /* 1, or 3 (three waste piles; needs redeals 0) */
    uint8_t redeals;            /* 0..PYR_REDEALS_MAX, or PYR_REDEALS_UNLIMITED */
    uint8_t win_all;            /* 0: clear the pyramid; 1: remove all 52 cards */
    uint8_t stock_top_playable; /* the stock's top card is available (Microsoft rules) */
    uint8_t pair_waste_top_two; /* the top two waste cards may pair with each other */
    uint8_t pair_with_covering; /* a card may pair with the only card still covering it */
} pyr_rules;

#endif
