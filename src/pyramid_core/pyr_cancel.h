/* The solver's cancel flag: a byte another thread sets to nonzero to stop a search running
   without the GIL. The search reads it where it reads the clock (every 1,024 positions), so a
   plain volatile read is enough: it only has to see the store eventually, never in order with
   anything else. NULL means "never cancelled". */
#ifndef PYR_CANCEL_H
#define PYR_CANCEL_H
#if defined(_MSC_VER)
static __inline int pyr_cancelled(const volatile unsigned char* f) {
    return f != 0 && *f != 0;
}
#else
static inline int pyr_cancelled(const volatile unsigned char* f) {
    return f != 0 && *f != 0;
}
#endif
#endif
