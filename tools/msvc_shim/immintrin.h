/* immintrin.h (shim for tools/msvc_syntax_check.sh): clang's own, read so that it declares
 * every instruction set's intrinsics whatever the target options, as cl.exe's does and as
 * clang's does from clang 19 on. Before 19 its MSVC mode declares only the instruction sets
 * enabled on the command line (llvm-project issue 53520): a function built for a wider target
 * (__attribute__((target))) cannot use the others, and a clang-cl build of the core's AVX-512
 * path fails. _MSC_VER is hidden while it is read, which gives the full set. In the cl.exe
 * emulation pass (PYR_SHIM_CL_EXE) the x86-64 macros it is written on are also defined while
 * it is read (pyr_shim_x86.h). */
#if defined(PYR_SHIM_CL_EXE) && !defined(PYR_SHIM_X86_ON)
#define PYR_SHIM_IMMINTRIN_X86 1
#include "pyr_shim_x86.h"
#endif
#pragma push_macro("_MSC_VER")
#undef _MSC_VER
#include_next <immintrin.h>
#pragma pop_macro("_MSC_VER")
#ifdef PYR_SHIM_IMMINTRIN_X86
#undef PYR_SHIM_IMMINTRIN_X86
#include "pyr_shim_x86.h"
#endif
