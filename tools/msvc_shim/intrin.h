/* intrin.h (shim for tools/msvc_syntax_check.sh): clang's own, whose MSVC mode declares the
 * MSVC intrinsics (_BitScanForward, __popcnt, __cpuid, ...) as cl.exe's <intrin.h> does.
 * Reached through this file so that in the cl.exe emulation pass (PYR_SHIM_CL_EXE) the x86-64
 * macros it is written on are defined while it is read (pyr_shim_x86.h). */
#if defined(PYR_SHIM_CL_EXE) && !defined(PYR_SHIM_X86_ON)
#define PYR_SHIM_INTRIN_X86 1
#include "pyr_shim_x86.h"
#endif
#include_next <intrin.h>
#ifdef PYR_SHIM_INTRIN_X86
#undef PYR_SHIM_INTRIN_X86
#include "pyr_shim_x86.h"
#endif
