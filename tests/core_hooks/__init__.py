"""The core's test and benchmark hooks: Cython extensions that are not part of the package
(numpy keeps its test extensions apart the same way), compiled here on first use against the
pyramid_core being tested (its shipped .pxd files and C headers), then kept.

    from core_hooks import _simulate_tests     # the simulator's oracle and switches
    from core_hooks import _solver_tests       # the solver's bounds at one position
    from core_hooks import _bench              # the benchmarks' C-level loops

The modules are built once per pyramid_core build and Python (a key of their sources, the
core's headers and the interpreter) into a folder of the system's temporary directory, or
``PYRAMID_HOOKS_DIR``; a second run, and every test after the first, imports them at once.
Building needs Cython, setuptools (both in the ``test`` extra) and a C compiler.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
NAMES = ("_simulate_tests", "_solver_tests", "_bench")
PACKAGE = "pyramid_core_hooks"

SETUP = """
import sys
from Cython.Build import cythonize
from setuptools import Extension, setup
include = sys.argv.pop(1)
compile_args = ["/O2"] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]
extensions = [Extension("{package}." + name, ["{package}/" + name + ".pyx"],
                        include_dirs=[include], extra_compile_args=compile_args)
              for name in {names!r}]
directives = dict(language_level="3", boundscheck=False, wraparound=False, cdivision=True,
                  initializedcheck=False, freethreading_compatible=True)
setup(ext_modules=cythonize(extensions, include_path=[include + "/.."], quiet=True,
                            compiler_directives=directives),
      script_args=["build_ext", "--inplace"])
"""


def _key() -> str:
    """What the built hooks depend on: their sources, the core's headers and interpreter."""
    import pyramid_core

    core = Path(pyramid_core.get_include())
    h = hashlib.sha256()
    for path in sorted(HERE.glob("*.pyx")) + sorted(core.glob("*.pxd")) + sorted(core.glob("*.h")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    h.update(f"{sys.version}|{sysconfig.get_platform()}|{core}".encode())
    return h.hexdigest()[:20]


def _folder() -> Path:
    base = os.environ.get("PYRAMID_HOOKS_DIR") or tempfile.gettempdir()
    return Path(base) / f"pyramid-core-hooks-{_key()}"


def build() -> Path:
    """The folder holding the built hooks (built now when they are not there yet)."""
    import pyramid_core

    folder = _folder()
    if (folder / "done").exists():
        return folder
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        pkg = work / PACKAGE
        pkg.mkdir()
        (pkg / "__init__.py").write_text("")
        for name in NAMES:
            shutil.copy(HERE / f"{name}.pyx", pkg / f"{name}.pyx")
        (work / "setup.py").write_text(SETUP.format(package=PACKAGE, names=NAMES))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        proc = subprocess.run(
            [sys.executable, "setup.py", pyramid_core.get_include()],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(
                "building the core's test hooks (tests/core_hooks) failed:\n"
                + (proc.stdout + proc.stderr)[-4000:]
            )
        (work / "done").write_text("")
        try:
            work.rename(folder)  # atomic: another run sees all of it or none
        except OSError:  # another run finished first: use its build
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return folder


def __getattr__(name: str) -> ModuleType:
    """``from core_hooks import _simulate_tests``: the hook module, built on first use."""
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    folder = str(build())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.import_module(f"{PACKAGE}.{name}")
    globals()[name] = module
    return module
