"""Ids and numbers of raw records: ints, integral floats and digit strings."""
from __future__ import annotations

import re
from typing import Any

_INT = re.compile(r"[+-]?\d+")


def _as_int(v: Any) -> int | None:
    """``v`` as an int: ints, integral floats (``1.0``), digit strings (``"123"``); else ``None``."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v) if v.is_integer() else None
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, str) and _INT.fullmatch(v.strip()):
        return int(v.strip())
    return None


def _as_id(v: Any, key: str = "id") -> tuple[int | None, str | None]:
    """``(passcode, problem)`` of a raw id value: ``123``, ``"123"``, ``1.0`` -> an int and no
    problem; ``None`` -> ``(None, None)``; anything else (``"abc"``, ``1.5``, ``True``) ->
    ``None`` and a problem naming the raw value."""
    if type(v) is int:  # the usual passcode (bool, a subclass, goes the long way: it is no id)
        return v, None
    if v is None:
        return None, None
    cid = _as_int(v)
    if cid is None:
        raw = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
        return None, f"{key} {raw!r} is not an integer passcode"
    return cid, None


def _show(v: Any) -> str:
    return repr(v.decode("utf-8", "replace")) if isinstance(v, bytes) else repr(v)
