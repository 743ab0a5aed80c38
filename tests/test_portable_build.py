"""The core's C headers compile without AVX-512 (aarch64, macOS, MSVC and -DPYR_NO_AVX512):
every function simulate.pyx takes from pyr_sim_lockstep.h needs a definition there too, or the
extension fails to import with an undefined symbol."""

import os
import shutil
import subprocess
import sysconfig
import textwrap

import pytest

import pyramid_core

CALLS = textwrap.dedent("""
    #include <stddef.h>
    #include <stdint.h>
    #include "pyr_sim_lockstep.h"

    int main(void)
    {
        uint8_t won[1], removed[1];
        uint16_t moves[1], score[1];
        uint64_t rng[1] = {0};
        pyr_sim_deal deals[1];
        pyr_rules rules = {1, 1, 255, 0, 0, 0, 0};
        pyr_sim_path path;
        pyr_sim_init();
        pyr_ls_init_greedy(NULL, NULL, 0, 0);
        if (!pyr_sim_path_make(PYR_PATH_SCALAR, &path) || path.play != NULL)
            return 1;
        if (!pyr_sim_path_make(PYR_PATH_ONE_LANE, &path) || path.play == NULL)
            return 1;
        pyr_sim_path_make(PYR_PATH_AVX512, &path);  /* where the CPU and build have it */
        if (path.play != NULL)
            path.play(1, &rules, 2000, deals, rng, 0, won, removed, moves, score);
        pyr_sim_shuffle_masks_block(path.vector_setup, NULL, NULL, NULL, NULL, NULL);
        return 0;
    }
""")


def _compiler():
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) or shutil.which("cc") or shutil.which("gcc")


@pytest.mark.parametrize("define", ["-DPYR_NO_AVX512", None])
def test_lockstep_header_compiles_with_and_without_avx512(tmp_path, define):
    include = pyramid_core.get_include()
    # The headers are package data (pyproject.toml): a wheel without them is broken, not a skip.
    assert os.path.exists(os.path.join(include, "pyr_sim_lockstep.h")), include
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    (tmp_path / "calls.c").write_text(CALLS)
    args = [
        cc,
        "-std=c99",
        "-Wall",
        "-Werror=implicit-function-declaration",
        "-I",
        include,
        "-c",
        str(tmp_path / "calls.c"),
        "-o",
        str(tmp_path / "calls.o"),
    ]
    if define:
        args.insert(1, define)
    build = subprocess.run(args, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
