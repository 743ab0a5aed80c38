/* string.h (shim for tools/msvc_syntax_check.sh): the Universal CRT's <string.h> (and
 * vcruntime_string.h), declared with its x64 signatures: C11's functions less the Annex K
 * ones, and the MSVC names _strdup, _stricmp and _strnicmp (there is no strcasecmp). */
#ifndef _INC_STRING
#define _INC_STRING
#include <corecrt.h>

_VCRTIMP void *__cdecl memchr(void const *_Buf, int _Val, size_t _MaxCount);
_VCRTIMP int __cdecl memcmp(void const *_Buf1, void const *_Buf2, size_t _Size);
_VCRTIMP void *__cdecl memcpy(void *_Dst, void const *_Src, size_t _Size);
_VCRTIMP void *__cdecl memmove(void *_Dst, void const *_Src, size_t _Size);
_VCRTIMP void *__cdecl memset(void *_Dst, int _Val, size_t _Size);

_ACRTIMP char *__cdecl strcat(char *_Destination, char const *_Source);
_VCRTIMP char *__cdecl strchr(char const *_Str, int _Val);
_ACRTIMP int __cdecl strcmp(char const *_Str1, char const *_Str2);
_ACRTIMP int __cdecl strcoll(char const *_String1, char const *_String2);
_ACRTIMP char *__cdecl strcpy(char *_Destination, char const *_Source);
_ACRTIMP size_t __cdecl strcspn(char const *_Str, char const *_Control);
_ACRTIMP char *__cdecl strerror(int _ErrorMessage);
_ACRTIMP size_t __cdecl strlen(char const *_Str);
_ACRTIMP char *__cdecl strncat(char *_Destination, char const *_Source, size_t _Count);
_ACRTIMP int __cdecl strncmp(char const *_Str1, char const *_Str2, size_t _MaxCount);
_ACRTIMP char *__cdecl strncpy(char *_Destination, char const *_Source, size_t _Count);
_ACRTIMP size_t __cdecl strnlen(char const *_String, size_t _MaxCount);
_ACRTIMP char *__cdecl strpbrk(char const *_Str, char const *_Control);
_VCRTIMP char *__cdecl strrchr(char const *_Str, int _Ch);
_ACRTIMP size_t __cdecl strspn(char const *_Str, char const *_Control);
_VCRTIMP char *__cdecl strstr(char const *_Str, char const *_SubStr);
_ACRTIMP char *__cdecl strtok(char *_String, char const *_Delimiter);
_ACRTIMP size_t __cdecl strxfrm(char *_Destination, char const *_Source, size_t _MaxCount);

_ACRTIMP char *__cdecl _strdup(char const *_Source);
_ACRTIMP int __cdecl _stricmp(char const *_String1, char const *_String2);
_ACRTIMP int __cdecl _strnicmp(char const *_String1, char const *_String2, size_t _MaxCount);

#if _CRT_INTERNAL_NONSTDC_NAMES
_ACRTIMP char *__cdecl strdup(char const *_String);
#endif

#endif
