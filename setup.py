"""Build the Cython core (src/pyramid_core) as C extension modules.

The modules shipped are listed by name in MODULES. Each one's ``depends=`` is every .pxd it
cimports and every C header it reaches (through ``cdef extern from`` and ``#include``, to the
end of the chain), so a change to a header rebuilds exactly the modules that use it. The
tests' and benchmarks' hook modules are not here: they live in tests/core_hooks and are built
by the tests themselves, so no wheel carries them.
"""

import os
import re
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = os.path.join("src", "pyramid_core")

#: The extension modules of the package, one per .pyx of src/pyramid_core.
MODULES = (
    "cards",
    "rules",
    "geometry",
    "shuffle",
    "position",
    "bounds",
    "shortest",
    "lastpass",
    "solver",
    "simulate",
    "fair",
    "batch",
)

_CIMPORT = re.compile(
    r"^\s*(?:from\s+pyramid_core\.(\w+)\s+cimport|cimport\s+pyramid_core\.(\w+))", re.M
)
_EXTERN = re.compile(r'^\s*cdef\s+extern\s+from\s+"([\w.]+)"', re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([\w.]+)"', re.M)


def _read(name: str) -> str:
    with open(os.path.join(CORE, name), encoding="utf-8") as f:
        return f.read()


def depends(module: str) -> list[str]:
    """The .pxd files and C headers ``module`` is compiled with (its own .pxd too)."""
    seen: set[str] = set()
    todo = [f"{module}.pyx"] + (
        [f"{module}.pxd"] if os.path.exists(os.path.join(CORE, f"{module}.pxd")) else []
    )
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = _read(name)
        if name.endswith((".pyx", ".pxd")):
            for a, b in _CIMPORT.findall(text):
                todo.append(f"{a or b}.pxd")
            todo += _EXTERN.findall(text)
        else:
            todo += _INCLUDE.findall(text)
    return sorted(os.path.join(CORE, n) for n in seen if not n.endswith(".pyx"))


def _check_listed() -> None:
    """Every .pyx of the core is a listed module (a new one must be added on purpose)."""
    sources = {n[:-4] for n in os.listdir(CORE) if n.endswith(".pyx")}
    if sources != set(MODULES):
        sys.exit(
            f"setup.py: MODULES {sorted(MODULES)} and the .pyx files of {CORE} "
            f"{sorted(sources)} differ: list each shipped module"
        )


compile_args = ["/O2"] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]

_check_listed()
extensions = [
    Extension(
        f"pyramid_core.{name}",
        [os.path.join(CORE, f"{name}.pyx")],
        include_dirs=[CORE],
        depends=depends(name),
        extra_compile_args=compile_args,
    )
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src"],
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            # Safe without the GIL (docs/internals/free-threading.md): on a free-threaded
            # CPython (3.14t) importing the core leaves the GIL off
            "freethreading_compatible": True,
        },
    ),
)
