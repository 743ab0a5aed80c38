/* corecrt.h (shim for tools/msvc_syntax_check.sh): what the Universal CRT's corecrt.h and
 * vcruntime.h give every CRT header on x64 (size_t, ptrdiff_t, intptr_t, uintptr_t, wchar_t,
 * errno_t, NULL), and the spellings its declarations are written with: _ACRTIMP and _VCRTIMP
 * (dllimport under /MD, which defines _DLL, as Python extensions are built) and
 * _CRT_INTERNAL_NONSTDC_NAMES (the non-standard names such as max and min, on unless
 * __STDC__, which cl.exe leaves undefined by default). Declarations only. */
#ifndef _INC_CORECRT
#define _INC_CORECRT

typedef unsigned __int64 size_t;
typedef __int64 ptrdiff_t;
typedef __int64 intptr_t;
typedef unsigned __int64 uintptr_t;
typedef unsigned short wchar_t;   /* C: a typedef (a keyword only in C++) */
typedef int errno_t;
typedef size_t rsize_t;

#ifndef NULL
#define NULL ((void *)0)
#endif

#ifdef _DLL
#define _ACRTIMP __declspec(dllimport)
#define _VCRTIMP __declspec(dllimport)
#else
#define _ACRTIMP
#define _VCRTIMP
#endif
#define _DCRTIMP _ACRTIMP

#if defined(_CRT_DECLARE_NONSTDC_NAMES) && _CRT_DECLARE_NONSTDC_NAMES
#define _CRT_INTERNAL_NONSTDC_NAMES 1
#elif !defined(_CRT_DECLARE_NONSTDC_NAMES) && !defined(__STDC__)
#define _CRT_INTERNAL_NONSTDC_NAMES 1
#else
#define _CRT_INTERNAL_NONSTDC_NAMES 0
#endif

#endif
