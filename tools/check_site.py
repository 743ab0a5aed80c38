"""Check every link of the built documentation site (no network).

    python -m mkdocs build --strict && python tools/check_site.py site

Reads every HTML page under the site folder and checks each ``href`` and ``src``:

- a link within the site: the file exists (a folder means its index.html) and, with a
  ``#fragment``, the target page has an element with that id;
- a link into this repository on its host (``repo_url`` of mkdocs.yml, ``/blob/main/PATH``
  or ``/tree/main/PATH``, as tools/docs_hooks.py writes them): PATH exists in the checkout;
- any other URL (another site): not fetched, listed with ``--external``.

MkDocs checks the Markdown's own links and anchors while building (``--strict``); this
checks what it does not see: the theme's links, the API reference's cross-references and
the built pages as a reader gets them. Exit status 1 and one line per broken link.
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src"):
                self.links.append(value)


def urls_of(mkdocs_yml: Path) -> tuple[str, str]:
    """``site_url`` and ``repo_url`` of mkdocs.yml, as MkDocs reads them."""
    from mkdocs.config import load_config

    config = load_config(str(mkdocs_yml))
    return (config.site_url or "/").rstrip("/") + "/", (config.repo_url or "").rstrip("/")


def check(
    site: Path, site_url: str = "/", repo_url: str = "", root: Path = ROOT
) -> tuple[list[str], set[str]]:
    """(problems, external URLs) of the site built in ``site``, which is published at
    ``site_url``: a link to that address, or to a path under its path, is a link within
    the site."""
    base = urlsplit(site_url)
    pages: dict[str, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = page
    problems: list[str] = []
    external: set[str] = set()
    for name, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if link.startswith(site_url) and site_url != "/":  # the site's own address
                parts = urlsplit(link[len(site_url.rstrip("/")) :])
            if parts.path.startswith("/") and not parts.netloc:  # site-absolute
                if not parts.path.startswith(base.path):
                    problems.append(f"{name}: {link}: outside the site")
                    continue
                parts = parts._replace(path=parts.path[len(base.path) :] or ".")
                name_dir = ""
            else:
                name_dir = posixpath.dirname(name)
            if parts.scheme or link.startswith("//"):
                if parts.scheme not in ("http", "https"):
                    continue  # mailto:, data:, javascript:
                url = f"{parts.scheme}://{parts.netloc}{parts.path}"
                if repo_url and url.startswith(repo_url + "/"):
                    m = re.match(r"(blob|tree)/main/(.+)", url[len(repo_url) + 1 :])
                    if m is None:
                        problems.append(f"{name}: {link}: not a file of the repository")
                    elif not (root / unquote(m.group(2))).exists():
                        problems.append(f"{name}: {link}: no {m.group(2)} in the repository")
                elif url.rstrip("/") != repo_url:
                    external.add(url)
                continue
            if not parts.path:  # "#fragment" on the same page
                target = name
            else:
                target = posixpath.normpath(posixpath.join(name_dir, unquote(parts.path)))
                if target.startswith("../") or target == "..":
                    problems.append(f"{name}: {link}: outside the site")
                    continue
                if (site / target).is_dir():
                    target = posixpath.join(target, "index.html")
                if target == ".":
                    target = "index.html"
                if not (site / target).is_file():
                    problems.append(f"{name}: {link}: no such file")
                    continue
            if parts.fragment and target in pages:
                if unquote(parts.fragment) not in pages[target].ids:
                    problems.append(f"{name}: {link}: no #{parts.fragment} in {target}")
    return problems, external


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default="site", type=Path, help="the built site")
    parser.add_argument("--external", action="store_true", help="list the external URLs")
    args = parser.parse_args(argv)
    problems, external = check(args.site, *urls_of(ROOT / "mkdocs.yml"))
    for line in problems:
        print(line)
    if args.external:
        print("\n".join(sorted(external)))
    pages = sum(1 for _ in args.site.rglob("*.html"))
    print(f"{pages} pages, {len(problems)} broken links, {len(external)} external URLs not fetched")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
