/* A deal under a rule set, as the simulator's playouts need it (constant during a game):
 * one struct for simulate.pyx (simulate.pxd's sim_deal) and the C set-up and playouts
 * (pyr_sim_shuffle.h, pyr_sim_lockstep.h), which read it by field, never by byte offsets
 * passed in. Locations: 0..27 the pyramid, 28 + t talon card t. */
#ifndef PYR_SIM_DEAL_H
#define PYR_SIM_DEAL_H
#include <stdint.h>
#include "pyr_rules.h"

typedef struct {
    pyr_rules rules;
    uint8_t card[52];   /* location -> card index (only filled when a game is recorded) */
    uint8_t rank[52];   /* location -> rank 1..13 */
    uint32_t prank[14]; /* pyramid positions holding each rank (prank[0] = 0) */
    uint32_t trank[14]; /* talon cards (bit t) of each rank (trank[0] = 0) */
    uint32_t pile[3];   /* draw 3: talon bits of waste piles 1, 2, 3 */
    uint32_t tnext;     /* talon cards t (bit t) that pair with talon card t + 1 */
    uint32_t t3;        /* talon cards t (t <= 21) such that two of t, t + 1, t + 2 pair */
    uint8_t pc0[14];    /* pyramid cards of each rank */
    uint8_t tc0[14];    /* talon cards of each rank */
    int move_cap;       /* the random policy's safety bound on moves under unlimited redeals
                         * (simulate.pxd's SIM_MOVE_CAP unless a test lowers it) */
} pyr_sim_deal;

#endif
