/* ctype.h (shim for tools/msvc_syntax_check.sh): the Universal CRT's <ctype.h>, declared with
 * its x64 signatures (the real header also has macro forms of these, which read the same
 * arguments). */
#ifndef _INC_CTYPE
#define _INC_CTYPE
#include <corecrt.h>

_ACRTIMP int __cdecl isalnum(int _C);
_ACRTIMP int __cdecl isalpha(int _C);
_ACRTIMP int __cdecl isblank(int _C);
_ACRTIMP int __cdecl iscntrl(int _C);
_ACRTIMP int __cdecl isdigit(int _C);
_ACRTIMP int __cdecl isgraph(int _C);
_ACRTIMP int __cdecl islower(int _C);
_ACRTIMP int __cdecl isprint(int _C);
_ACRTIMP int __cdecl ispunct(int _C);
_ACRTIMP int __cdecl isspace(int _C);
_ACRTIMP int __cdecl isupper(int _C);
_ACRTIMP int __cdecl isxdigit(int _C);
_ACRTIMP int __cdecl tolower(int _C);
_ACRTIMP int __cdecl toupper(int _C);
_ACRTIMP int __cdecl _tolower(int _C);
_ACRTIMP int __cdecl _toupper(int _C);
_ACRTIMP int __cdecl __isascii(int _C);

#endif
