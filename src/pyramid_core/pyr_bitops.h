/* Portable bit tricks for the pyramid core: count trailing zeros, index of the highest set
 * bit, population count. GCC/Clang builtins, MSVC intrinsics elsewhere. Arguments are never 0
 * for the first two (callers check). */
#ifndef PYR_BITOPS_H
#define PYR_BITOPS_H
#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#define PYR_INLINE __inline
#define PYR_FORCE_INLINE static __forceinline
#else
#define PYR_INLINE inline
#define PYR_FORCE_INLINE static inline __attribute__((always_inline))
#endif

/* Without a popcnt instruction in the target (wheels are built for the baseline CPU),
 * __builtin_popcount becomes a library call; this bit trick is faster than that call. */
static PYR_INLINE int pyr_popcount32_swar(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __inline int pyr_ctz32(uint32_t x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
static __inline int pyr_msb32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
static __inline int pyr_popcount32(uint32_t x) { return pyr_popcount32_swar(x); }
#else
static inline int pyr_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int pyr_msb32(uint32_t x) { return 31 - __builtin_clz(x); }
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
static inline int pyr_popcount32(uint32_t x) { return __builtin_popcount(x); }
#else
static inline int pyr_popcount32(uint32_t x) { return pyr_popcount32_swar(x); }
#endif
#endif

#endif
