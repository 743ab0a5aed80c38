"""Build the Cython core (src/pyramid_core) as C extension modules.

The modules shipped are listed by name in MODULES. Each one's ``depends=`` is every .pxd it
cimports and every C header it reaches (through ``cdef extern from`` and ``#include``, to the
end of the chain), so a change to a header rebuilds exactly the modules that use it. The
tests' and benchmarks' hook modules are not here: they live in tests/core_hooks and are built
by the tests themselves, so no wheel carries them.

Every build (pip, ``python -m build``, ``setup.py build_ext``):

* leaves out debug information (``-g0``, and on Linux ``-Wl,--strip-debug``): it made
  three quarters of the wheels (docs/internals/packaging.md has the figures).
  ``PYRAMID_KEEP_SYMBOLS=1`` keeps it (``-g`` from Python's flags, as before), for gdb or
  perf on the compiled core;
* cythonizes and compiles the modules in parallel, one job per CPU (``PYRAMID_BUILD_JOBS``
  to choose; ``build_ext -j N`` still wins), the longest first;
* gives the package index a README whose relative links are absolute (long_description:
  the repository's README.md keeps its relative ones, which GitHub and the docs resolve).
"""

import os
import posixpath
import re
import sys

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


#: The project's canonical addresses (pyproject.toml's [project.urls] names the same).
REPOSITORY = "https://github.com/pyramid-solitaire/pyramid-solitaire"
#: Where the README's links point on the package index: its files on the main branch, its
#: images as raw files (the index shows a picture only from an address that serves one).
BLOB = f"{REPOSITORY}/blob/main/"
RAW = "https://raw.githubusercontent.com/pyramid-solitaire/pyramid-solitaire/main/"

# Markdown's code (fenced blocks, inline spans: never rewritten) or a link: an inline link or
# image (one level of brackets in its text), a reference definition, an HTML src= or href=.
_MARKDOWN = re.compile(
    r"(?P<code>^ {0,3}(?P<fence>```|~~~).*?^ {0,3}(?P=fence)[ \t]*$|`[^`\n]+`)"
    r"|(?P<bang>!?)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\((?P<inline>[^()\s]+)"
    r"|^ {0,3}\[[^\]\n]+\]:[ \t]*(?P<ref>\S+)"
    r"|<(?P<tag>img|a)\b[^>]*?\b(?:src|href)=\"(?P<attr>[^\"]+)\"",
    re.S | re.M,
)
_ABSOLUTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


def absolute_links(readme: str) -> str:
    """``readme`` (Markdown) with every relative link made absolute: a link to a file of the
    repository goes to it on GitHub, an image to its raw file, an anchor (``#...``) to the
    README's own; links that are absolute already, and code, are left as they are."""

    def target(path: str, image: bool) -> str:
        if _ABSOLUTE.match(path):
            return path
        if path.startswith("#"):
            return f"{BLOB}README.md{path}"
        path, hashmark, anchor = path.partition("#")
        folder = "/" if path.endswith("/") else ""  # (a folder's link keeps its slash)
        path = posixpath.normpath(path.lstrip("/")) + folder
        return (RAW if image else BLOB) + path + hashmark + anchor

    def rewrite(m: re.Match[str]) -> str:
        if m["code"]:
            return m[0]
        group = next(g for g in ("inline", "ref", "attr") if m[g])
        image = bool(m["bang"]) or m["tag"] == "img"
        start, end = m.span(group)
        return m[0][: start - m.start()] + target(m[group], image) + m[0][end - m.start() :]

    return _MARKDOWN.sub(rewrite, readme)


def long_description() -> dict[str, str]:
    """setup()'s long_description: README.md with absolute links (none where there is no
    README.md: tools/dummy_option_build.sh builds from a copy of setup.py alone)."""
    if not os.path.exists("README.md"):
        return {}
    with open("README.md", encoding="utf-8") as f:
        text = f.read()
    return {
        "long_description": absolute_links(text),
        "long_description_content_type": "text/markdown",
    }


def build_jobs() -> int:
    """The parallel jobs of the build: PYRAMID_BUILD_JOBS, else one per CPU this process may
    use."""
    if os.environ.get("PYRAMID_BUILD_JOBS"):
        return max(1, int(os.environ["PYRAMID_BUILD_JOBS"]))
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def compile_flags() -> tuple[list[str], list[str]]:
    """The compiler's and the linker's extra arguments. MSVC's release builds carry no debug
    information (no /Zi): nothing to strip there. gcc and clang: Python's flags have -g, which
    -g0 (after them) takes back; on Linux the linker drops any that an object still brings.
    PYRAMID_KEEP_SYMBOLS=1 keeps them."""
    if sys.platform == "win32":
        return ["/O2"], []
    compile_args, link_args = ["-O3", "-fno-strict-aliasing"], []
    if os.environ.get("PYRAMID_KEEP_SYMBOLS") != "1":
        compile_args.append("-g0")
        if sys.platform.startswith("linux"):
            link_args.append("-Wl,--strip-debug")
    return compile_args, link_args


#: Cython's options for the core's modules.
CYTHON_OPTIONS = {
    "include_path": ["src"],
    "compiler_directives": {
        "language_level": "3",
        "boundscheck": False,
        "wraparound": False,
        "cdivision": True,
        "initializedcheck": False,
        # Safe without the GIL (docs/internals/free-threading.md): on a free-threaded
        # CPython (3.14t) importing the core leaves the GIL off
        "freethreading_compatible": True,
    },
}


def main() -> None:
    from setuptools import Extension, setup
    from setuptools.command.build_ext import build_ext

    class cythonize_and_build_ext(build_ext):
        """build_ext that cythonizes first: only a build of the modules writes the C (an
        sdist, or the metadata pip asks for, needs none), in parallel processes, and then
        compiles the longest first (the largest C), so that the parallel compilation does
        not end on one of them alone."""

        def run(self) -> None:
            from Cython.Build import cythonize

            jobs = self.parallel if isinstance(self.parallel, int) else 1
            c_files = {
                ext.name: ext.sources
                for ext in cythonize(
                    self.extensions, nthreads=jobs if jobs > 1 else 0, **CYTHON_OPTIONS
                )
            }
            # (the extensions themselves: build_ext has set attributes of its own on them)
            for ext in self.extensions:
                ext.sources = c_files[ext.name]
            self.extensions.sort(key=lambda ext: -os.path.getsize(ext.sources[0]))
            super().run()

    _check_listed()
    compile_args, link_args = compile_flags()
    setup(
        ext_modules=[
            Extension(
                f"pyramid_core.{name}",
                [os.path.join(CORE, f"{name}.pyx")],
                include_dirs=[CORE],
                depends=depends(name),
                extra_compile_args=compile_args,
                extra_link_args=link_args,
            )
            for name in MODULES
        ],
        cmdclass={"build_ext": cythonize_and_build_ext},
        # setuptools' parallel build_ext (threads running the compiler; `build_ext -j N` on
        # the command line wins). Not on Windows: there the compiler object initializes
        # itself on its first use, which two threads would do at once.
        options={"build_ext": {"parallel": build_jobs() if sys.platform != "win32" else 1}},
        **long_description(),
    )


if __name__ == "__main__":
    main()
