"""pyramid_core: the compiled Pyramid Solitaire core.

Cython code can ``cimport`` the C-level API declared in the ``.pxd`` files shipped here
(``from pyramid_core.position cimport pyr_table, pyr_pos, gen_moves, pos_apply``); build such
extensions with ``include_dirs=[pyramid_core.get_include()]``.
"""

import os


def get_include() -> str:
    """Directory holding the pyramid_core .pxd files and pyr_bitops.h."""
    return os.path.dirname(os.path.abspath(__file__))
