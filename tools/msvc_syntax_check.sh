#!/usr/bin/env bash
# The core's C headers (src/pyramid_core/pyr_*.h) as MSVC reads them, checked from Linux: the
# Windows wheels are built with cl.exe elsewhere, and this catches its differences early
# (GCC-only builtins and attributes, statement expressions, VLAs, __int128, void * arithmetic,
# a function the MSVC headers do not declare, a 32-bit long...). Each header is included on
# its own in a one-line translation unit (a header included by another with its set-up and
# no include guard, as pyr_sim_lockstep_body.h, is checked within that one) and compiled with
# clang --target=x86_64-pc-windows-msvc -fms-compatibility -fms-extensions
# -fms-compatibility-version=19.40 -std=c11 -fsyntax-only, twice:
#
#  - clang-cl: the headers as clang-cl sees them (_MSC_VER and __clang__ both defined): the
#    branches for GCC and Clang are taken, the AVX-512 code with them, as a clang-cl build
#    would compile it, with the intrinsics of clang 19 and later (older clang-cl declares no
#    AVX-512 intrinsic in a build without -mavx512f: see tools/msvc_shim/immintrin.h).
#  - cl.exe emulation: every macro clang predefines that cl.exe does not (__clang__,
#    __x86_64__, __SSE2__, __BYTE_ORDER__, __SIZEOF_INT128__, ... the list is worked out from
#    this clang's own, less the type and limit macros its stdint.h and stddef.h are written on)
#    is undefined (clang's intrinsic headers get the x86-64 ones back while they are read:
#    tools/msvc_shim/pyr_shim_x86.h), and __STDC_NO_VLA__, __STDC_NO_ATOMICS__ and
#    __STDC_NO_COMPLEX__ are defined as cl.exe /std:c11 does, so the headers' compiler tests
#    take the branches meant for MSVC and those are what is parsed (bitops' _BitScanForward,
#    __forceinline, the clock's QueryPerformanceCounter, no AVX-512 dispatch, the scalar
#    paths). clang still accepts GNU spellings there that cl.exe rejects,
#    so the preprocessed text of the core's own lines is also searched for them (__attribute__,
#    __builtin_*, __int128, typeof, inline asm, #pragma GCC, ...): one found fails the header.
#
# Both passes: -Werror on what breaks MSVC (-Wgnu: statement expressions and the other GNU
# extensions; -Wvla; -Wpointer-arith; implicit declarations, that is a function the MSVC
# headers do not declare; C2x extensions; shift and constant overflows, which a 32-bit long
# makes), with no Windows SDK: tools/msvc_shim/ declares the CRT and Windows headers the core
# includes (stdlib.h, string.h, ctype.h, windows.h, and malloc.h and setjmp.h for clang's
# intrinsic headers) with their MSVC signatures and macros (min and max among them), and clang's
# own stdint.h, stddef.h, limits.h, intrin.h and immintrin.h serve (-nostdlibinc keeps them).
# _MT and _DLL are defined, as /MD (Python extensions) does; _CRT_SECURE_NO_DEPRECATE and
# _CRT_NONSTDC_NO_DEPRECATE, as Python's pyconfig.h does ahead of every header of the core.
#
# What it proves: the headers preprocess, parse and type-check as C11 under MSVC's data model
# (LLP64), predefined macros, CRT declarations and intrinsics, in the branches each compiler
# takes. What it cannot: it is not cl.exe. Nothing is code-generated, linked or run (a missing
# library, such as compiler-rt's __cpu_model behind __builtin_cpu_supports under clang-cl, is
# not seen); cl.exe's own diagnostics (C4146, C4244 and the like), its parser's limits and its
# traditional preprocessor (the lockstep's token pasting) are not reproduced; the C dialect is
# clang's C11, whereas setup.py gives cl.exe no /std (its legacy C mode); the shim's
# declarations are written from the SDK's, not the SDK; and the Cython-generated C around the
# headers (which needs Windows' Python.h) is not compiled.
#
#     bash tools/msvc_syntax_check.sh        # a few seconds; used by .ci/run and the CI workflow
#
# Needs clang, any recent version (clang on PATH, else the newest clang-NN; tried with 14 and
# 19): when there is none it is installed with apt-get (root), as Debian's clang.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CORE=src/pyramid_core
SHIM=tools/msvc_shim

find_clang() {   # clang, else the newest clang-NN on PATH; nothing when there is none
    local c
    c=$(command -v clang \
        || compgen -c clang- | grep -E '^clang-[0-9]+$' | sort -t- -k2 -n | tail -n 1 || true)
    if [[ -n $c ]]; then
        command -v "$c"
    fi
}
CLANG=$(find_clang)
if [[ -z $CLANG ]]; then
    echo "== msvc check: installing clang (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q --no-install-recommends clang
    CLANG=$(find_clang)
fi

TARGET=(--target=x86_64-pc-windows-msvc -fms-compatibility -fms-extensions
        -fms-compatibility-version=19.40 -std=c11 -nostdlibinc -isystem "$SHIM" -I "$CORE")
DEFS=(-D_MT -D_DLL -D_CRT_SECURE_NO_DEPRECATE -D_CRT_NONSTDC_NO_DEPRECATE)
ERRORS=(-Werror=gnu -Werror=vla -Werror=pointer-arith -Werror=implicit-function-declaration
        -Werror=implicit-int -Werror=int-conversion -Werror=incompatible-pointer-types
        -Werror=return-type -Werror=c2x-extensions -Werror=shift-count-overflow
        -Werror=constant-conversion -Werror=integer-overflow)

# The cl.exe emulation: every macro this clang predefines for the target, less cl.exe's own
# (_MSC_*, _M_*, _WIN32, _WIN64, ...) and the type and limit macros (__INT64_TYPE__,
# __SIZE_MAX__, __FLT_*, ...) that clang's stdint.h, stddef.h and limits.h are written on
# (cl.exe's headers spell those out), is undefined.
KEEP='^(_M_|_MSC_|_MSVC_|_WIN32$|_WIN64$|_INTEGRAL_MAX_BITS$|__STDC'
KEEP+='|__(U?INT(8|16|32|64|MAX|PTR|_FAST[0-9]+|_LEAST[0-9]+)?|SIZE|PTRDIFF|WCHAR|WINT|CHAR'
KEEP+='|SCHAR|SHRT|LONG|LONG_LONG|LLONG|BOOL|FLT|DBL|LDBL|FLT16|SIG_ATOMIC|CHAR16|CHAR32'
KEEP+='|DECIMAL|BITINT)_)'
mapfile -t UNDEF < <("$CLANG" "${TARGET[@]}" -dM -E -x c /dev/null \
    | awk '{ sub(/\(.*/, "", $2); print $2 }' | grep -Ev "$KEEP" | sed 's/^/-U/')
CL_EXE=("${UNDEF[@]}" -DPYR_SHIM_CL_EXE -D__STDC_NO_VLA__=1 -D__STDC_NO_ATOMICS__=1
        -D__STDC_NO_COMPLEX__=1)
if [[ ! " ${UNDEF[*]} " =~ " -U__clang__ " ]]; then
    echo "msvc check: $CLANG does not predefine __clang__ for the MSVC target?" >&2
    exit 2
fi

# GNU spellings cl.exe does not know, in the preprocessed lines of the core's own files
# (__builtin_offsetof is clang's offsetof, from its stddef.h: MSVC's offsetof is its own).
GNU_ONLY='__attribute__|__attribute|__builtin_[A-Za-z0-9_]+|__int128|__int128_t|__uint128_t'
GNU_ONLY+='|__typeof__|__typeof|typeof|__extension__|__asm__|__asm|asm|__inline__|__restrict__'
GNU_ONLY+='|__volatile__|__const__|__signed__|__alignof__|__thread|__label__|__auto_type'
GNU_ONLY+='|_Complex|__complex__|__real__|__imag__|__seg_fs|__seg_gs'
gnu_only_scan() {   # preprocessed text on stdin; one line per finding on stdout
    awk -v core="$CORE/" -v re="$GNU_ONLY" '
        /^# [0-9]+ "/ { line = $2; file = $3; gsub(/"/, "", file); sub(/^\.\//, "", file); next }
        {
            if (index(file, core) == 1) {
                if ($0 ~ /^[ \t]*#[ \t]*pragma[ \t]+(GCC|clang)[ \t]/)
                    printf "%s:%d: %s: a GCC/clang pragma (cl.exe: C4068)\n", file, line, $0
                rest = $0
                while (match(rest, "(^|[^A-Za-z0-9_])(" re ")($|[^A-Za-z0-9_])")) {
                    tok = substr(rest, RSTART, RLENGTH)
                    gsub(/^[^A-Za-z0-9_]|[^A-Za-z0-9_]$/, "", tok)
                    if (tok != "__builtin_offsetof")
                        printf "%s:%d: %s: a GNU spelling cl.exe does not know\n", file, line, tok
                    rest = substr(rest, RSTART + RLENGTH - 1)
                }
            }
            line++
        }' | sort -u
}

# The headers, and those checked within another: no include guard, included by one header.
HEADERS=()
declare -A WITHIN=()
for path in "$CORE"/pyr_*.h; do
    h=${path##*/}
    if ! grep -qE '^#ifndef PYR_[A-Z0-9_]+_H' "$path"; then
        by=$(grep -lF "#include \"$h\"" "$CORE"/pyr_*.h | head -n 1 || true)
        if [[ -n $by ]]; then
            WITHIN[$h]=${by##*/}
            continue
        fi
    fi
    HEADERS+=("$h")
done

WORK=$(mktemp -d /tmp/pyramid-msvc.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "== msvc check: $("$CLANG" --version | head -n 1), ${#HEADERS[@]} headers; the cl.exe" \
     "emulation undefines ${#UNDEF[@]} macros clang predefines"

# One pass over one header: "ok" or "FAIL" in $WORK/<pass>.<header>.rc, diagnostics in .log.
check() {
    local pass=$1 h=$2 out=$WORK/$1.$2
    local -a extra=()
    [[ $pass == cl ]] && extra=("${CL_EXE[@]}")
    printf '#include "%s"\n' "$h" >"$out.c"
    if "$CLANG" "${TARGET[@]}" "${DEFS[@]}" "${extra[@]}" "${ERRORS[@]}" -fsyntax-only "$out.c" \
        >"$out.log" 2>&1; then
        echo ok >"$out.rc"
    else
        echo FAIL >"$out.rc"
    fi
    if [[ $pass == cl ]]; then
        "$CLANG" "${TARGET[@]}" "${DEFS[@]}" "${extra[@]}" -E "$out.c" 2>/dev/null \
            | gnu_only_scan >"$out.gnu" || true
        if [[ -s $out.gnu ]]; then
            cat "$out.gnu" >>"$out.log"
            echo FAIL >"$out.rc"
        fi
    fi
}
for h in "${HEADERS[@]}"; do
    check clangcl "$h" &
    check cl "$h" &
done
wait

status=0
for h in "${HEADERS[@]}"; do
    for pass in clangcl cl; do
        name=$([[ $pass == cl ]] && echo "cl.exe emulation" || echo "clang-cl")
        out=$WORK/$pass.$h
        rc=$(cat "$out.rc" 2>/dev/null || echo FAIL)
        [[ $rc == ok ]] || status=1
        if [[ -s $out.log ]]; then
            echo "$rc $h ($name):"
            sed "s|$WORK/$pass\.||; s|^|    |" "$out.log"
        else
            echo "$rc $h ($name)"
        fi
    done
done
for h in "${!WITHIN[@]}"; do
    by=${WITHIN[$h]}
    for pass in clangcl cl; do
        name=$([[ $pass == cl ]] && echo "cl.exe emulation" || echo "clang-cl")
        echo "$(cat "$WORK/$pass.$by.rc" 2>/dev/null || echo FAIL) $h ($name, within $by)"
    done
done
if ((status)); then
    echo "== msvc check: FAILED (see above; the header of tools/msvc_syntax_check.sh says what"
    echo "   each pass means)"
fi
exit $status
