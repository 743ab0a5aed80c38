"""Atomic file writes: a temporary file beside the target, flushed to disk (fsync), renamed
over it, and the folder's entry flushed too, so that a crash leaves the old file or the new
one, never a torn one. Saves (session/saves.py) and survey shards (survey.py) use it; it is
the one writer of files a user keeps.

A symbolic link is followed: the file it points to is replaced (in that file's folder) and
the link stays a link. Anything that is not a regular file (a device such as ``/dev/full``,
a folder, a pipe, a socket) is refused with an ``OSError`` and left as it is.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO


def target_of(path: str | os.PathLike[str]) -> tuple[Path, int | None]:
    """The file a write to ``path`` replaces (``path`` with its symbolic links followed) and
    its permission bits (None for a new file); ``OSError`` when it exists and is not a
    regular file."""
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real, None  # a new file (or a link to one still to come)
    except NotADirectoryError as e:  # a file where a folder must be: say which
        raise OSError(e.errno, folder_problem(path) or e.strerror, os.fspath(path)) from None
    if not stat.S_ISREG(mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a pipe"
            if stat.S_ISFIFO(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "not a regular file"
        )
        raise OSError(errno.EINVAL, f"{kind}, not a file: it is left as it is", os.fspath(path))
    return real, stat.S_IMODE(mode)


def file_in_the_way(path: str | os.PathLike[str]) -> Path | None:
    """The first of ``path``'s folders (from the root down) that exists and is not a folder
    (a file where a folder must be), or None."""
    for parent in reversed(Path(path).parents):
        try:
            if not stat.S_ISDIR(os.stat(parent).st_mode):
                return parent
        except OSError:  # missing (or not reachable): nothing in the way there
            return None
    return None


def folder_problem(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be made: "<part> is a file, not a folder", or None."""
    part = file_in_the_way(path)
    return None if part is None else f"{part} is a file, not a folder"


def write_atomic_with(
    path: str | os.PathLike[str], write: Callable[[IO[bytes]], object], mode: int | None = None
) -> None:
    """Write ``path`` by calling ``write`` on a binary file, atomically. A new file is
    private to its owner (0600) and a replaced one keeps its permissions, unless ``mode``
    says otherwise."""
    path, kept = target_of(path)
    folder = path.parent
    if mode is None:
        mode = kept
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as e:  # named by the file asked for, not the temporary one
        problem = folder_problem(path)  # a file where a folder must be: say which
        raise OSError(e.errno, problem or e.strerror, os.fspath(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # the rename itself reaches the disk with the folder's entry
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(dir_fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dir_fd)


def write_atomic(path: str | os.PathLike[str], text: str, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    data = text.encode("utf-8")
    write_atomic_with(path, lambda f: f.write(data), mode)


def lock_file(path: str | os.PathLike[str], busy: str) -> IO[str]:
    """An exclusive lock on ``path`` (made if missing), for one run at a time on a folder:
    the open file, whose closing releases the lock. ``ValueError`` with the message ``busy``
    when another process holds it, or naming the file when it cannot be opened."""
    try:
        f: IO[str] = open(path, "a+")
    except OSError as e:
        raise ValueError(f"cannot open the lock file {path}: {e}") from None
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows (no fcntl there)
            import msvcrt

            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise ValueError(busy) from None
    return f
