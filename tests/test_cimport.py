"""Other Cython code can cimport the core's C-level API from the installed package."""

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("Cython")

SOURCE = textwrap.dedent("""
    # cython: language_level=3
    from libc.stdint cimport uint8_t
    from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, table_init,
                                        pos_start, gen_moves, pos_apply)
    from pyramid_core.rules cimport pyr_rules, REDEALS_UNLIMITED
    from pyramid_core.shuffle cimport deal_shuffle

    def first_moves(unsigned long long number):
        cdef uint8_t deck[52]
        cdef pyr_rules r
        cdef pyr_table t
        cdef pyr_move buf[MAX_MOVES]
        cdef int n
        r.waste_at_deal = 1; r.draw = 1; r.redeals = REDEALS_UNLIMITED; r.win_all = 0
        r.stock_top_playable = 0; r.pair_waste_top_two = 0; r.pair_with_covering = 0
        with nogil:
            deal_shuffle(number, deck)
            table_init(&t, deck, &r)
            n = gen_moves(&t, pos_start(&t), buf)
        return [buf[i] for i in range(n)]
""")

SETUP = textwrap.dedent("""
    from setuptools import Extension, setup
    from Cython.Build import cythonize
    import pyramid_core
    setup(ext_modules=cythonize([Extension("user_ext", ["user_ext.pyx"],
                                           include_dirs=[pyramid_core.get_include()])],
                                quiet=True),
          script_args=["build_ext", "--inplace"])
""")


def test_cimport_from_another_extension(tmp_path):
    (tmp_path / "user_ext.pyx").write_text(SOURCE)
    (tmp_path / "setup.py").write_text(SETUP)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    build = subprocess.run(
        [sys.executable, "setup.py"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    if build.returncode != 0 and "error: command" in build.stderr and "failed" in build.stderr:
        pytest.skip("no working C compiler")
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run(
        [sys.executable, "-c", "import user_ext; print(user_ext.first_moves(18))"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    from pyramid_solitaire import Game

    game = Game("PY1-N-AAAAAAS")
    assert eval(run.stdout) == game._table.moves(game.position)
