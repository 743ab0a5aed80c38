/* windows.h (shim for tools/msvc_syntax_check.sh): what the core's headers use of the Windows
 * SDK's <windows.h>, declared as the SDK does on x64: the integer types of minwindef.h and
 * winnt.h, LARGE_INTEGER (winnt.h) and the performance counter of profileapi.h. Also the
 * macros of minwindef.h that clobber ordinary identifiers: near and far (empty), and min and
 * max unless NOMINMAX. WIN32_LEAN_AND_MEAN leaves out nothing here. */
#ifndef _WINDOWS_
#define _WINDOWS_
#include <corecrt.h>

#define WINAPI __stdcall
#define WINBASEAPI __declspec(dllimport)
#define far
#define near
#define FAR far
#define NEAR near
#define CONST const
#define FALSE 0
#define TRUE 1
#ifndef NOMINMAX
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#endif

typedef int BOOL;
typedef unsigned char BYTE;
typedef unsigned short WORD;
typedef unsigned long DWORD;
typedef long LONG;
typedef __int64 LONGLONG;
typedef unsigned __int64 ULONGLONG;
typedef void *HANDLE;

typedef union _LARGE_INTEGER {
    struct {
        DWORD LowPart;
        LONG HighPart;
    };
    struct {
        DWORD LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER;
typedef LARGE_INTEGER *PLARGE_INTEGER;

WINBASEAPI BOOL WINAPI QueryPerformanceCounter(LARGE_INTEGER *lpPerformanceCount);
WINBASEAPI BOOL WINAPI QueryPerformanceFrequency(LARGE_INTEGER *lpFrequency);

#endif
