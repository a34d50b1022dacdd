"""Atomic output files: a temporary file beside the target, renamed into place on success
(``atomic_path``).  Used by every writer of the project (:mod:`extractor.writers`, the
metadata sidecars of :mod:`extractor.meta`, the CLIs), so that a crash, Ctrl-C or a signal
leaves no half-written file."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["atomic_path"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _unlink_quietly(path: str | Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``.

    A symlink ``target`` is followed: the file it points to is replaced, the link stays.  On any
    exception (including KeyboardInterrupt and the CLI's signal exceptions) the temporary file and
    any SQLite ``-journal``/``-wal``/``-shm`` beside it are removed and ``target`` is untouched.

    Raises:
        FileNotFoundError: the folder of ``target`` does not exist (it is never created).
    """
    target = Path(os.path.realpath(target))
    if not target.parent.is_dir():  # a typo in a path must not create folders
        raise FileNotFoundError(f"the output folder {str(target.parent)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        # mkstemp makes the file 0600: give it the mode a plain open() would (or the old file's)
        os.chmod(tmp, target.stat().st_mode & 0o7777 if target.is_file() else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        for leftover in (tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"):
            _unlink_quietly(leftover)
        raise


