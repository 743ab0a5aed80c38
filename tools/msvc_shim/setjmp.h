/* setjmp.h (shim for tools/msvc_syntax_check.sh): the x64 MSVC <setjmp.h> (vcruntime),
 * declared with its signatures. None of the core's headers includes it: clang's own
 * MSVC-mode <intrin.h> does, for jmp_buf. */
#ifndef _INC_SETJMP
#define _INC_SETJMP
#include <corecrt.h>

typedef struct __declspec(align(16)) _SETJMP_FLOAT128 {
    unsigned __int64 Part[2];
} SETJMP_FLOAT128;
#define _JBLEN 16
typedef SETJMP_FLOAT128 _JBTYPE;
typedef _JBTYPE jmp_buf[_JBLEN];

#define setjmp _setjmp
int __cdecl _setjmp(jmp_buf _Buf);
_VCRTIMP __declspec(noreturn) void __cdecl longjmp(jmp_buf _Buf, int _Value);

#endif
