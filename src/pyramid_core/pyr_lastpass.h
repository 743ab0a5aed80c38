/* The last pass's tables (lastpass.pyx), kept in the solver's workspace between solves: a C
 * struct so that the solver's and the search's declarations can both hold it. */
#ifndef PYR_LASTPASS_H
#define PYR_LASTPASS_H
#include <stdint.h>
#include "pyr_hashset.h"

typedef struct {
    pyr_hset frames;     /* frame key -> 1 (won), or the offset of its returns in arena << 1 */
    pyr_hset known;      /* whole positions decided by lp_won: word -> 1 won, 0 lost */
    uint64_t* arena;     /* lists of returns: a count, then that many position words */
    int64_t arena_len;
    int64_t arena_cap;
    int64_t arena_max;   /* the memory budget, in entries */
    uint64_t* scratch;   /* the returns of the frames being worked out, a stack of them */
    int64_t scratch_len;
    int64_t scratch_cap;
    uint64_t* dedup_key; /* a stamped table taking repeats out of long lists */
    uint32_t* dedup_seen;
    uint32_t dedup_stamp;
} pyr_lp_store;

#endif
