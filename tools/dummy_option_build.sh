#!/usr/bin/env bash
# Shortcuts by capability, proven: build the core with one more rule option, "dummy" (0 or 1,
# default 0), that the engine plays as if absent and that no shortcut of pyr_shortcuts.h
# lists, then check with tests/dummy_option_check.py that setting it turns every shortcut
# off and that every answer (the solver's against exhaustive search on the reference model,
# the simulator's against its answers without the option) stays right. What an option added
# tomorrow gets before anyone shows a shortcut sound for it.
#
#     bash tools/dummy_option_build.sh      # about 3 minutes on 2 cores (a full core build)
#
# Needs the package's test dependencies (the venv of .ci/run) and a C compiler.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
python tools/rule_tables.py --with-dummy "$work/src/pyramid_core"
cp setup.py "$work/"
echo "== building the core with the dummy option in $work"
if ! (cd "$work" && python setup.py -q build_ext --build-lib src -j 2 >build.log 2>&1); then
    tail -n 40 "$work/build.log"
    exit 1
fi
echo "== checking it"
PYRAMID_DUMMY_CORE="$work/src" PYTHONPATH="$work/src:python:tests" \
    python -m pytest -q -p no:cacheprovider tests/dummy_option_check.py
