/* The core's one random generator: SplitMix64 (Steele, Lea and Flood), and Lemire's uniform
 * draw below n on it. The version-1 deal shuffle (docs/deal-codes.md) is SplitMix64 seeded
 * with the deal number: never change these constants or the order of the steps, deal codes
 * name deals through them. The vector set-up and playouts (pyr_sim_shuffle.h,
 * pyr_sim_lockstep.h) use the same constants lane by lane. */
#ifndef PYR_RNG_H
#define PYR_RNG_H
#include <stdint.h>
#include "pyr_bitops.h"

#define PYR_SM_GAMMA 0x9E3779B97F4A7C15ULL /* the state's step */
#define PYR_SM_M1 0xBF58476D1CE4E5B9ULL    /* the output function's two multipliers */
#define PYR_SM_M2 0x94D049BB133111EBULL

/* The output function: a state (after its step) to the value drawn. */
static PYR_INLINE uint64_t pyr_sm_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * PYR_SM_M1;
    z = (z ^ (z >> 27)) * PYR_SM_M2;
    return z ^ (z >> 31);
}

/* The next value of the generator whose state is *state. */
static PYR_INLINE uint64_t pyr_sm_next(uint64_t* state) {
    *state += PYR_SM_GAMMA;
    return pyr_sm_mix(*state);
}

/* Uniform in 0..n-1 (n >= 1): Lemire's multiply-shift on the value's high 32 bits, with
 * rejection, so exactly uniform. */
static PYR_INLINE uint32_t pyr_rand_below(uint64_t* state, uint32_t n) {
    uint64_t m = (pyr_sm_next(state) >> 32) * n;
    uint32_t t;
    if ((uint32_t)m < n) {
        t = (0u - n) % n;
        while ((uint32_t)m < t)
            m = (pyr_sm_next(state) >> 32) * n;
    }
    return (uint32_t)(m >> 32);
}

#endif
