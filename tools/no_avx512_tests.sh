#!/usr/bin/env bash
# The simulator's tests on a CPU without AVX-512, as most laptops, macOS on Intel and older
# servers are: PYRAMID_DISABLE_CPU_FEATURES makes the installed core see none, so the vector
# tests run on the AVX2 path. The AVX-512 cases are deselected (-k), not skipped, and the run
# fails unless the core sees AVX2: the vector path must really run, never the plain C one in
# its place. Used by .ci/run and the CI workflow's no-avx512 job.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PYRAMID_DISABLE_CPU_FEATURES=avx512
python - <<'PY'
from pyramid_core import simulate
cpu = simulate.cpu_features()
assert not cpu["avx512"], "PYRAMID_DISABLE_CPU_FEATURES=avx512 did not hide AVX-512"
assert cpu["avx2"], "this CPU has no AVX2: the vector tests cannot run on the AVX2 path"
print("== simulator tests without AVX-512, on the AVX2 path:", cpu)
PY
python -m pytest -q tests/test_simulate.py tests/test_simulate_golden.py tests/test_simulate_decks.py -k "not avx512"
