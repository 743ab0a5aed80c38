"""MkDocs hooks for the documentation site (mkdocs.yml's ``hooks``).

The pages are the repository's own Markdown, written to be read on the repository's web
view: the README, CONTRIBUTING, the changelog, examples/README.md and docs/. So that one
text serves both, the site adds the pages that live outside docs/ (README.md as the home
page, and so on: ``PAGES``) and rewrites each page's relative links by what they point at in
the repository:

- a file that is a page of the site: a link to that page (``docs/solver.md#budgets`` from
  the README becomes ``solver.md#budgets``; ``../../README.md#speed`` from
  docs/internals/ becomes ``../index.md#speed``);
- any other file or folder of the repository (a script, data): a link to it in the
  repository (``repo_url``, branch ``main``);
- anything else is left as written, and MkDocs' own link check (``--strict``) fails the
  build on it.

Anchors are kept and checked by MkDocs (``validation`` in mkdocs.yml).

A page of docs/ that mkdocs.yml's ``nav`` does not list is added at the end of its section
(``SECTIONS``: docs/internals/ under "Internals", and so on), so a new page is on the site,
in the navigation, without an edit of mkdocs.yml.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the link rewriting itself needs no MkDocs: tests/test_site.py)
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
#: Repository files that are pages of the site, by the page's path on the site.
PAGES = {
    "index.md": "README.md",
    "contributing.md": "CONTRIBUTING.md",
    "changelog.md": "CHANGELOG.md",
    "examples.md": "examples/README.md",
}
#: The nav's section of a page of docs/ not listed there, by the page's folder.
SECTIONS = {"internals/": "Internals", "api/": "API reference", "": "Guides"}
#: A Markdown link or image target: ``](target)``, the target perhaps on the next line.
_LINK = re.compile(r"(\]\(\s*)([^)\s]+)(\s*\))")
_FENCE = re.compile(r"^\s*(```|~~~)")


def repo_path(src_uri: str) -> str:
    """The repository path of the page at ``src_uri`` on the site."""
    return PAGES.get(src_uri, f"docs/{src_uri}")


def site_path(path: str) -> str | None:
    """The site path of the repository file ``path``, or None if it is not on the site."""
    for page, repo in PAGES.items():
        if path == repo:
            return page
    if path.startswith("docs/") and (ROOT / path).is_file():
        return path[len("docs/") :]
    return None


def rewrite_target(target: str, src_uri: str, repo_url: str) -> str:
    """The link ``target`` written on the page ``src_uri``, as the site needs it."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target, re.IGNORECASE):
        return target  # a URL, an anchor on the page, or a site-absolute path
    path, sep, anchor = target.partition("#")
    here = posixpath.dirname(repo_path(src_uri))
    resolved = posixpath.normpath(posixpath.join(here, path))
    if resolved.startswith("../"):
        return target  # outside the repository: MkDocs reports it
    page = site_path(resolved)
    if page is not None:
        rel = posixpath.relpath(page, posixpath.dirname(src_uri) or ".")
        return rel + sep + anchor
    if (ROOT / resolved).exists():
        kind = "tree" if (ROOT / resolved).is_dir() else "blob"
        return f"{repo_url.rstrip('/')}/{kind}/main/{resolved}" + sep + anchor
    return target


def rewrite_links(markdown: str, src_uri: str, repo_url: str) -> str:
    """Every link of ``markdown`` (outside fenced code) rewritten by :func:`rewrite_target`."""
    out: list[str] = []
    block: list[str] = []
    fenced = False

    def flush() -> None:
        if not block:
            return
        text = "\n".join(block)
        out.append(
            _LINK.sub(
                lambda m: m.group(1) + rewrite_target(m.group(2), src_uri, repo_url) + m.group(3),
                text,
            )
        )
        block.clear()

    for line in markdown.split("\n"):
        if _FENCE.match(line):
            if not fenced:
                flush()
            else:
                out.append(line)
                fenced = False
                continue
            fenced = True
        if fenced:
            out.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(out)


def _listed(nav: Any) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    items = nav.values() if isinstance(nav, dict) else nav if isinstance(nav, list) else []
    return set().union(*map(_listed, items))


def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    nav = config.nav
    if not nav:
        return config
    listed = _listed(nav)
    docs = Path(config.docs_dir)
    for path in sorted(docs.rglob("*.md")):
        page = path.relative_to(docs).as_posix()
        if page in listed:
            continue
        title = next(t for prefix, t in SECTIONS.items() if page.startswith(prefix))
        for item in nav:
            if isinstance(item, dict) and isinstance(item.get(title), list):
                item[title].append(page)
                break
        else:
            raise ValueError(f"mkdocs.yml's nav has no section {title!r} for docs/{page}")
    return config


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    from mkdocs.structure.files import File

    for page, repo in PAGES.items():
        files.append(File.generated(config, page, abs_src_path=str(ROOT / repo)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    return rewrite_links(markdown, page.file.src_uri, config.repo_url or "")
