/* What the CPU can run: the vector instruction set of the simulator's fast path (AVX-512).
 * The wheels are built for the baseline CPU of their platform, so that path is chosen at run
 * time (as numpy and CRoaring do), once, at import (simulate.pyx's path record); the
 * PYRAMID_SIMD environment variable can narrow the choice, and PYRAMID_DISABLE_CPU_FEATURES
 * (as numpy's NPY_DISABLE_CPU_FEATURES: names separated by commas or spaces; the core knows
 * "avx512") makes the core see a CPU without it, as a CI job without AVX-512 does. */
#ifndef PYR_CPU_H
#define PYR_CPU_H
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "pyr_bitops.h"   /* PYR_INLINE */

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__APPLE__) \
    && !defined(PYR_NO_AVX512) && !defined(_MSC_VER)
#define PYR_CPU_X86_DISPATCH 1
#endif

/* Whether PYRAMID_DISABLE_CPU_FEATURES names `name` (lower case), in any case. */
static PYR_INLINE int pyr_cpu_disabled(const char *name)
{
    const char *s = getenv("PYRAMID_DISABLE_CPU_FEATURES");
    size_t n = strlen(name), i;
    while (s && *s) {
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        for (i = 0; s[i] && s[i] != ',' && !isspace((unsigned char)s[i]); i++)
            ;
        if (i == n) {
            size_t j = 0;
            while (j < n && tolower((unsigned char)s[j]) == name[j])
                j++;
            if (j == n)
                return 1;
        }
        s += i;
    }
    return 0;
}

/* AVX-512 F, DQ, BW, VL, VPOPCNTDQ and CD: what the AVX-512 set-up and lockstep playouts
 * use (Ice Lake and later, Zen 4 and later). */
static PYR_INLINE int pyr_cpu_avx512(void)
{
#ifdef PYR_CPU_X86_DISPATCH
    __builtin_cpu_init();
    return !pyr_cpu_disabled("avx512") && __builtin_cpu_supports("avx512f")
           && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
           && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512cd");
#else
    return 0;
#endif
}

#endif
