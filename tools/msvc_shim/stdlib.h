/* stdlib.h (shim for tools/msvc_syntax_check.sh): the Universal CRT's <stdlib.h> as the core's
 * headers can use it, declared with its x64 signatures: what C11 puts there that the UCRT has
 * (it has no aligned_alloc: _aligned_malloc is in <malloc.h>), a few MSVC names (_abs64,
 * _byteswap_*, _rotl*, _dupenv_s), and the C-only max and min macros of the real header,
 * which break any code that names something max( or min(. RAND_MAX is 0x7fff there.
 * The real getenv is marked deprecated (warning C4996) unless _CRT_SECURE_NO_DEPRECATE,
 * which Python's pyconfig.h defines ahead of the core's headers: not reproduced. */
#ifndef _INC_STDLIB
#define _INC_STDLIB
#include <corecrt.h>
#include <limits.h>   /* the real header includes it */

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 0x7fff
#define __max(a, b) (((a) > (b)) ? (a) : (b))
#define __min(a, b) (((a) < (b)) ? (a) : (b))

typedef struct _div_t { int quot; int rem; } div_t;
typedef struct _ldiv_t { long quot; long rem; } ldiv_t;
typedef struct _lldiv_t { long long quot; long long rem; } lldiv_t;

_ACRTIMP void *__cdecl malloc(size_t _Size);
_ACRTIMP void *__cdecl calloc(size_t _Count, size_t _Size);
_ACRTIMP void *__cdecl realloc(void *_Block, size_t _Size);
_ACRTIMP void __cdecl free(void *_Block);

_ACRTIMP __declspec(noreturn) void __cdecl exit(int _Code);
_ACRTIMP __declspec(noreturn) void __cdecl _exit(int _Code);
_ACRTIMP __declspec(noreturn) void __cdecl _Exit(int _Code);
_ACRTIMP __declspec(noreturn) void __cdecl quick_exit(int _Code);
_ACRTIMP __declspec(noreturn) void __cdecl abort(void);
int __cdecl atexit(void(__cdecl *)(void));
int __cdecl at_quick_exit(void(__cdecl *)(void));

_DCRTIMP char *__cdecl getenv(char const *_VarName);
_DCRTIMP errno_t __cdecl getenv_s(size_t *_RequiredCount, char *_Buffer, rsize_t _BufferCount,
                                  char const *_VarName);
_DCRTIMP errno_t __cdecl _dupenv_s(char **_Buffer, size_t *_BufferCount, char const *_VarName);
_DCRTIMP int __cdecl system(char const *_Command);

int __cdecl abs(int _Number);
long __cdecl labs(long _Number);
long long __cdecl llabs(long long _Number);
__int64 __cdecl _abs64(__int64 _Number);
_ACRTIMP div_t __cdecl div(int _Numerator, int _Denominator);
_ACRTIMP ldiv_t __cdecl ldiv(long _Numerator, long _Denominator);
_ACRTIMP lldiv_t __cdecl lldiv(long long _Numerator, long long _Denominator);
unsigned short __cdecl _byteswap_ushort(unsigned short _Number);
unsigned long __cdecl _byteswap_ulong(unsigned long _Number);
unsigned __int64 __cdecl _byteswap_uint64(unsigned __int64 _Number);
unsigned int __cdecl _rotl(unsigned int _Value, int _Shift);
unsigned int __cdecl _rotr(unsigned int _Value, int _Shift);
unsigned __int64 __cdecl _rotl64(unsigned __int64 _Value, int _Shift);
unsigned __int64 __cdecl _rotr64(unsigned __int64 _Value, int _Shift);

_ACRTIMP void __cdecl srand(unsigned int _Seed);
_ACRTIMP int __cdecl rand(void);

_ACRTIMP double __cdecl atof(char const *_String);
_ACRTIMP int __cdecl atoi(char const *_String);
_ACRTIMP long __cdecl atol(char const *_String);
_ACRTIMP long long __cdecl atoll(char const *_String);
_ACRTIMP float __cdecl strtof(char const *_String, char **_EndPtr);
_ACRTIMP double __cdecl strtod(char const *_String, char **_EndPtr);
_ACRTIMP long double __cdecl strtold(char const *_String, char **_EndPtr);
_ACRTIMP long __cdecl strtol(char const *_String, char **_EndPtr, int _Radix);
_ACRTIMP long long __cdecl strtoll(char const *_String, char **_EndPtr, int _Radix);
_ACRTIMP unsigned long __cdecl strtoul(char const *_String, char **_EndPtr, int _Radix);
_ACRTIMP unsigned long long __cdecl strtoull(char const *_String, char **_EndPtr, int _Radix);
_ACRTIMP __int64 __cdecl _strtoi64(char const *_String, char **_EndPtr, int _Radix);
_ACRTIMP unsigned __int64 __cdecl _strtoui64(char const *_String, char **_EndPtr, int _Radix);

_ACRTIMP void __cdecl qsort(void *_Base, size_t _NumOfElements, size_t _SizeOfElements,
                            int(__cdecl *_CompareFunction)(void const *, void const *));
_ACRTIMP void *__cdecl bsearch(void const *_Key, void const *_Base, size_t _NumOfElements,
                               size_t _SizeOfElements,
                               int(__cdecl *_CompareFunction)(void const *, void const *));

_ACRTIMP int *__cdecl _errno(void);
#define errno (*_errno())

#if _CRT_INTERNAL_NONSTDC_NAMES
#define max(a, b) (((a) > (b)) ? (a) : (b))
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif

#endif
