"""The input of a reader: a file, standard input or a pipe, opened once (the first bytes read
to detect the format are put back in front of the rest)."""
from __future__ import annotations

import hashlib
import io
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

#: the path that means standard input
STDIN = "-"
_BOM = b"\xef\xbb\xbf"
_SQLITE = b"SQLite format 3"
_HEAD = 4096  # bytes looked at to detect the format


class InputError(Exception):
    """The input as a whole cannot be read (missing file, unknown format, a cdb on a pipe)."""



class _HeadThenRest(io.RawIOBase):
    """A raw stream giving ``head`` and then what is left of ``rest`` (a pipe whose first bytes
    were read to detect the format)."""

    def __init__(self, head: bytes, rest: BinaryIO, owns_rest: bool):
        super().__init__()
        self._head = memoryview(head)
        self._pos = 0
        self._rest = rest
        self._owns = owns_rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        if self._pos < len(self._head):
            n = min(len(b), len(self._head) - self._pos)
            b[:n] = self._head[self._pos:self._pos + n]
            self._pos += n
            return n
        read1 = getattr(self._rest, "read1", self._rest.read)
        data = read1(len(b))
        n = len(data)
        b[:n] = data
        return n

    def close(self) -> None:
        if not self.closed and self._owns:
            self._rest.close()
        super().close()


class _Source:
    """An input opened once for reading.

    ``label``: the path as given, or ``standard input``; ``path``: a regular file that can be
    opened again (and handed to SQLite), else ``None``; ``head``: its first bytes, read to
    detect the format.  :meth:`open` gives a binary stream over the WHOLE input: a regular file
    is opened again, a pipe or standard input goes on where the head ended with the head put
    back in front (so it can be opened once).  ``digest``: ``(sha256 hex, size in bytes)`` of a
    regular file once a reader has read it whole from its first byte (hashed as it was read, so
    the metadata sidecar need not read the file again: :func:`extractor.meta.input_info`), else
    ``None``.

    Raises:
        InputError: a missing file, a folder, a file that cannot be opened or read.
    """

    def __init__(self, path: str | Path):
        self._rest: BinaryIO | None = None
        self._owns = True
        self.digest: tuple[str, int] | None = None
        if str(path) == STDIN:
            self.label, self.path = "standard input", None
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise InputError("standard input: not available")
            self._owns = False
        else:
            p = Path(path)
            self.label = str(path)
            if not p.exists():
                raise InputError(f"{path}: no such file")
            if p.is_dir():
                raise InputError(f"{path}: is a directory, expected a card database file")
            try:
                stream = open(p, "rb")
            except OSError as e:
                raise InputError(f"{path}: cannot be opened ({e.strerror or e})") from e
            self.path = p if stat.S_ISREG(os.fstat(stream.fileno()).st_mode) else None
        try:
            self.head: bytes = stream.read(_HEAD)  # a buffered read: up to _HEAD bytes or the end
        except OSError as e:
            raise InputError(f"{self.label}: cannot be read ({e.strerror or e})") from e
        if self.path is not None:
            stream.close()
        else:
            self._rest = stream

    @property
    def suffix(self) -> str:
        return Path(self.label).suffix.lower() if self.label != "standard input" else ""

    def open(self) -> BinaryIO:
        """A binary stream over the whole input, from its first byte.

        Raises:
            InputError: a pipe or standard input opened a second time.
        """
        if self.path is not None:
            try:
                return open(self.path, "rb")
            except OSError as e:
                raise InputError(f"{self.label}: cannot be opened ({e.strerror or e})") from e
        if self._rest is None:
            raise InputError(f"{self.label}: a pipe can be read only once")
        rest, self._rest = self._rest, None
        return io.BufferedReader(_HeadThenRest(self.head, rest, self._owns), buffer_size=1 << 16)

    def read_all(self) -> bytes:
        """The whole input as bytes (a leading UTF-8 byte-order mark left out); sets
        :attr:`digest` for a regular file."""
        with self.open() as f:
            try:
                data = f.read()
            except OSError as e:
                raise InputError(f"{self.label}: cannot be read ({e.strerror or e})") from e
        if self.path is not None:
            self.digest = (hashlib.sha256(data).hexdigest(), len(data))
        return data[len(_BOM):] if data.startswith(_BOM) else data


def _not_sqlite(src: _Source) -> str:
    if not src.head:
        return f"{src.label}: empty file (0 bytes), not a cards.cdb"
    return f"{src.label}: not a SQLite database, so not a cards.cdb"


def _source(path: "str | Path | _Source") -> _Source:
    return path if isinstance(path, _Source) else _Source(path)
