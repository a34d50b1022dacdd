"""Lenient JSON: what orjson refuses (invalid UTF-8, lone surrogates, raw control characters)
read again with the bad characters replaced by U+FFFD."""
from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(obj: Any) -> tuple[Any, int, int]:
    """``(obj, surrogates, replacements)``: ``obj`` with every lone surrogate in its strings (and
    keys) replaced by U+FFFD, the number replaced, and the number of U+FFFD it then holds."""
    if isinstance(obj, str):
        s, n = _SURROGATE.subn("\ufffd", obj)
        return s, n, s.count("\ufffd")
    if isinstance(obj, list):
        out, ns, nr = [], 0, 0
        for x in obj:
            y, a, b = _scrub(x)
            out.append(y)
            ns, nr = ns + a, nr + b
        return out, ns, nr
    if isinstance(obj, dict):
        d, ns, nr = {}, 0, 0
        for k, x in obj.items():
            k2, a, b = _scrub(k)
            y, c, e = _scrub(x)
            d[k2] = y
            ns, nr = ns + a + c, nr + b + e
        return d, ns, nr
    return obj, 0, 0


_NOT_JSON = object()


def _lenient_json(data: bytes, strict_error: Exception) -> tuple[Any, str]:
    """Decode JSON that orjson refused: invalid UTF-8 bytes and lone surrogate escapes become
    U+FFFD, raw control characters in strings and ``NaN`` are accepted (the standard library's
    parser, ``strict=False``).

    Output: ``(object, what was wrong)``, or ``(_NOT_JSON, why)`` when it cannot be read at all
    (``why``: ``"not JSON"`` or ``"nested too deeply to read"``).
    """
    try:
        text, bad_bytes = data.decode("utf-8"), False
    except UnicodeDecodeError:
        text, bad_bytes = data.decode("utf-8", errors="replace"), True
    try:
        obj, surrogates, _ = _scrub(json.loads(text.removeprefix("\ufeff"), strict=False))
    except ValueError:
        return _NOT_JSON, "not JSON"
    except RecursionError:
        return _NOT_JSON, "nested too deeply to read"
    why = []
    if bad_bytes:
        why.append("invalid UTF-8 bytes")
    if surrogates:
        why.append(f"{surrogates} lone surrogate escape{'s' if surrogates > 1 else ''} (such as \\udc00)")
    if why:
        return obj, " and ".join(why) + ", replaced by U+FFFD"
    return obj, f"not strict JSON ({strict_error})"


def _id_finder(keys: tuple[str, ...]) -> re.Pattern[bytes]:
    return re.compile(rb'"(?:' + b"|".join(re.escape(k.encode()) for k in keys) + rb')"\s*:\s*"?\s*(-?\d+)')
