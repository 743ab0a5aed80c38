/* malloc.h (shim for tools/msvc_syntax_check.sh): the Universal CRT's <malloc.h> (and
 * corecrt_malloc.h), declared with its x64 signatures: the allocation functions, the aligned
 * ones MSVC has instead of C11's aligned_alloc (clang's <mm_malloc.h>, reached from
 * <immintrin.h>, uses them on _WIN32), _alloca and _msize. */
#ifndef _INC_MALLOC
#define _INC_MALLOC
#include <corecrt.h>

_ACRTIMP void *__cdecl malloc(size_t _Size);
_ACRTIMP void *__cdecl calloc(size_t _Count, size_t _Size);
_ACRTIMP void *__cdecl realloc(void *_Block, size_t _Size);
_ACRTIMP void __cdecl free(void *_Block);
_ACRTIMP void *__cdecl _aligned_malloc(size_t _Size, size_t _Alignment);
_ACRTIMP void *__cdecl _aligned_realloc(void *_Block, size_t _Size, size_t _Alignment);
_ACRTIMP void __cdecl _aligned_free(void *_Block);
_ACRTIMP size_t __cdecl _msize(void *_Block);
void *__cdecl _alloca(size_t _Size);

#if _CRT_INTERNAL_NONSTDC_NAMES
#define alloca _alloca
#endif

#endif
