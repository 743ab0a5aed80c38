"""Build the Cython core (src/pyramid_core) as C extension modules."""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = os.path.join("src", "pyramid_core")
# Every .pyx in the core is one extension module.
MODULES = sorted(os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(CORE, "*.pyx")))

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O3", "-fno-strict-aliasing"]

extensions = [
    Extension(
        f"pyramid_core.{name}",
        [os.path.join(CORE, f"{name}.pyx")],
        include_dirs=[CORE],
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
        },
    ),
)
