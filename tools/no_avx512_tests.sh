#!/usr/bin/env bash
# The simulator's tests on a CPU without AVX-512, as most laptops, macOS on Intel and older
# servers are: PYRAMID_DISABLE_CPU_FEATURES makes the installed core see none, so the
# simulator resolves the scalar path at import and the tests run the scalar and one-lane
# paths. The AVX-512 cases are deselected (-k), not skipped, and the run fails unless the
# core really sees no AVX-512. Used by .ci/run and the CI workflow's no-avx512 job.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PYRAMID_DISABLE_CPU_FEATURES=avx512
python - <<'PY'
from pyramid_core import simulate
cpu = simulate.cpu_features()
assert not cpu["avx512"], "PYRAMID_DISABLE_CPU_FEATURES=avx512 did not hide AVX-512"
assert simulate.simd_path() == "scalar", simulate.simd_path()
print("== simulator tests without AVX-512 (the scalar path at import):", cpu)
PY
python -m pytest -q tests/test_simulate.py tests/test_simulate_golden.py tests/test_simulate_decks.py -k "not avx512"
