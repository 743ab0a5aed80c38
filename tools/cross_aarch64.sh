#!/usr/bin/env bash
# The core on Linux aarch64, from this x86-64 machine: Debian's cross compiler builds every
# extension module of setup.py's list for aarch64 against Debian's arm64 Python 3.11, and a
# subset of the tests runs under qemu-user on that arm64 Python (with Debian's arm64 numpy).
# Then the same simulations and solves, run on both machines, must give the same digest.
#
#     bash tools/cross_aarch64.sh          # from the checkout, in a venv with Cython
#
# Needs root for apt-get (the packages are installed when missing: gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross, qemu-user-static; the arm64 Python is downloaded and unpacked into
# a folder, never installed). Used by .ci/run. Work folder: $CROSS_DIR (default a new one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
WORK=${CROSS_DIR:-$(mktemp -d /tmp/pyramid-aarch64.XXXXXX)}
ROOT=$WORK/root            # the arm64 Python, unpacked
OUT=$WORK/site             # the cross-built pyramid_core, and pure-Python test packages
step() { echo "== aarch64: $*"; }

if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
    step "installing the cross compiler and qemu-user (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
        qemu-user-static
fi

if [[ ! -x $ROOT/usr/bin/python3.11 ]]; then
    step "Debian's arm64 Python 3.11 and numpy, unpacked into $ROOT"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
    fi
    apt-get update -q
    mkdir -p "$WORK/debs" "$ROOT"
    (cd "$WORK/debs" && apt-get download -q \
        python3.11-minimal:arm64 libpython3.11-minimal:arm64 libpython3.11-stdlib:arm64 \
        libpython3.11-dev:arm64 python3-numpy:arm64 libblas3:arm64 liblapack3:arm64 \
        libgfortran5:arm64 libgcc-s1:arm64 libstdc++6:arm64 libc6:arm64 zlib1g:arm64 \
        libexpat1:arm64 libffi8:arm64 libssl3:arm64 libbz2-1.0:arm64 liblzma5:arm64 \
        libsqlite3-0:arm64 libuuid1:arm64 libncursesw6:arm64 libtinfo6:arm64 \
        libreadline8:arm64 libcrypt1:arm64 libdb5.3:arm64 libnsl2:arm64 libtirpc3:arm64 \
        libgssapi-krb5-2:arm64 libkrb5-3:arm64 libk5crypto3:arm64 libkrb5support0:arm64 \
        libcom-err2:arm64 libkeyutils1:arm64 2>&1 | tail -n 1)
    for deb in "$WORK"/debs/*.deb; do dpkg -x "$deb" "$ROOT"; done
fi

# The arm64 interpreter under qemu: its libraries from $ROOT, numpy's BLAS where Debian's
# alternatives would have put it.
arm64_python() {
    QEMU_LD_PREFIX=$ROOT \
    LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu/blas:/usr/lib/aarch64-linux-gnu/lapack \
    PYTHONPATH=$OUT:$REPO/python:$REPO/tests \
    PYTHONDONTWRITEBYTECODE=1 \
        qemu-aarch64-static "$ROOT/usr/bin/python3.11" "$@"
}
arm64_python -c 'import platform, sys; assert platform.machine() == "aarch64", platform.machine()'

step "cythonize (host) and compile every module for aarch64 (aarch64-linux-gnu-gcc)"
rm -rf "$OUT" && mkdir -p "$OUT/pyramid_core"
cp src/pyramid_core/*.pyx src/pyramid_core/*.pxd src/pyramid_core/*.h \
    src/pyramid_core/*.py "$OUT/pyramid_core/"
MODULES=$(python - <<'EOF'
import ast
tree = ast.parse(open("setup.py", encoding="utf-8").read())
for node in tree.body:
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MODULES":
        print(" ".join(ast.literal_eval(node.value)))
EOF
)
(cd "$OUT" && python - $MODULES <<'EOF'
import sys
from Cython.Build import cythonize
cythonize([f"pyramid_core/{m}.pyx" for m in sys.argv[1:]], include_path=["."], quiet=True,
          compiler_directives=dict(language_level="3", boundscheck=False, wraparound=False,
                                   cdivision=True, initializedcheck=False))
EOF
)
SUFFIX=$(arm64_python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
for m in $MODULES; do
    aarch64-linux-gnu-gcc -shared -fPIC -O3 -fno-strict-aliasing -Wno-unused-function \
        -I"$ROOT/usr/include/python3.11" -I"$ROOT/usr/include" -I"$OUT/pyramid_core" \
        "$OUT/pyramid_core/$m.c" -o "$OUT/pyramid_core/$m$SUFFIX" &
done
wait
for m in $MODULES; do
    [[ -f $OUT/pyramid_core/$m$SUFFIX ]] || { echo "aarch64: $m was not built" >&2; exit 1; }
done
aarch64-linux-gnu-readelf -h "$OUT/pyramid_core/solver$SUFFIX" | grep -q AArch64 || { echo "aarch64: not an AArch64 binary" >&2; exit 1; }
echo "   $(echo $MODULES | wc -w) modules, $SUFFIX"

step "pure-Python packages for the tests (pytest, hypothesis, tqdm, platformdirs)"
python - "$OUT" <<'EOF'
import importlib.util, os, shutil, sys
out = sys.argv[1]
for name in ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "hypothesis", "attr",
             "attrs", "sortedcontainers", "tqdm", "platformdirs", "pygments", "py"):
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        continue
    src = os.path.dirname(spec.origin) if spec.submodule_search_locations else spec.origin
    dst = os.path.join(out, os.path.basename(src))
    (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, dst)
EOF

step "the same games and solves on both machines (a digest of their results)"
DIGEST='
import hashlib, numpy as np, platform
from pyramid_solitaire import simulate, solve_many
h = hashlib.sha256()
for rules in ("pyramide", "msc", "classic-draw3"):
    for policy in ("greedy", "random"):
        r = simulate(deals=range(2000), rules=rules, policy=policy, seed=7, threads=1)
        for a in (r.won, r.removed, r.moves):
            h.update(np.ascontiguousarray(a).astype("<i8").tobytes())
s = solve_many(range(60), "msc", threads=1)
for a in (s.winnable, s.n_moves):
    h.update(np.ascontiguousarray(a).astype("<i8").tobytes())
print(platform.machine(), h.hexdigest())
'
host=$(python -c "$DIGEST")      # the package as installed (or on PYTHONPATH)
arm=$(arm64_python -c "$DIGEST")
echo "   $host"
echo "   $arm"
[[ ${host#* } == "${arm#* }" ]] || { echo "aarch64: the results differ from x86-64" >&2; exit 1; }

step "tests under qemu-user"
cd "$REPO/tests"
# the rules against the pure-Python reference, the deal shuffle, the solver and the batch
# under every preset (the 1,500 msc deals and the single-option variants take two minutes
# under emulation: the x86-64 run covers them, and the digest above the solver's answers)
arm64_python -m pytest -q -p no:cacheprovider -o addopts="" -m "not slow" \
    test_api.py test_geometry.py test_shuffle.py test_seed000.py test_differential.py \
    test_solver.py test_batch.py test_reasons.py \
    --deselect test_solver.py::test_msc_all_1500_decided_and_shortest \
    -k "not (test_core_matches_reference and opt-)"
echo "== aarch64: OK"
