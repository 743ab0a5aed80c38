"""Atomic file writes: a temporary file beside the target, flushed to disk (fsync), renamed
over it, and the folder's entry flushed too, so that a crash leaves the old file or the new
one, never a torn one. Saves (session/saves.py) and survey shards (survey.py) use it."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Callable


def write_atomic_with(path: str | os.PathLike, write: Callable[[IO[bytes]], None],
                      mode: int | None = None) -> None:
    """Write ``path`` by calling ``write`` on a binary file, atomically. The file is private
    to its owner (0600) unless ``mode`` says otherwise."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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
    try:   # the rename itself reaches the disk with the folder's entry
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(dir_fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dir_fd)


def write_atomic(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    data = text.encode("utf-8")
    write_atomic_with(path, lambda f: f.write(data), mode)
