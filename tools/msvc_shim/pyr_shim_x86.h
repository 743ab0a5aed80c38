/* Not a Windows header: a helper of the intrin.h and immintrin.h shims. The cl.exe emulation
 * pass of tools/msvc_syntax_check.sh (PYR_SHIM_CL_EXE) undefines the macros clang predefines
 * and cl.exe does not, __x86_64__ and __SSE2__ among them; clang's own intrinsic headers test
 * these (x86-64 or not, which base instruction sets), so they are defined again while one of
 * those is read, and only then. Included in pairs, without a guard: the first inclusion
 * defines them (and PYR_SHIM_X86_ON), the second undefines them. */
#ifndef PYR_SHIM_X86_ON
#define PYR_SHIM_X86_ON 1
#define __x86_64__ 1
#define __x86_64 1
#define __MMX__ 1
#define __SSE__ 1
#define __SSE2__ 1
#define __FXSR__ 1
#else
#undef PYR_SHIM_X86_ON
#undef __x86_64__
#undef __x86_64
#undef __MMX__
#undef __SSE__
#undef __SSE2__
#undef __FXSR__
#endif
