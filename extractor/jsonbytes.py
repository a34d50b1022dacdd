"""JSON forms that carry their own JSON bytes: :class:`JSONDict`.

A part that many output lines share (a shared profile's JSON form, made once by
:func:`extractor.pipeline.dump_result`) is serialized once; the JSONL writer
(:class:`extractor.writers.Writer`) writes those bytes instead of serializing the dict again.  It
lives apart from both so that the objects stage (``pipeline``) does not import the output stage
(``writers``): both import it.
"""
from __future__ import annotations

import orjson


class JSONDict(dict):
    """A dict (the JSON form of an object) that carries its own JSON bytes, made once
    (:func:`json_dict`): a part many output lines share, such as a shared profile's JSON form
    (:func:`extractor.pipeline.dump_result`).  It is a plain dict to every reader (equal to one,
    serialized by orjson as one); the JSONL :class:`extractor.writers.Writer` writes its ``fragment`` instead of
    serializing it again (the same bytes: orjson writes a dict the same wherever it stands).  Read
    it, never change it: the bytes would no longer be its JSON."""

    __slots__ = ("fragment",)


def json_dict(d: dict) -> JSONDict:
    """``d`` (a JSON-ready dict) as a :class:`JSONDict` with its JSON bytes made now (orjson,
    compact; the line separators are escaped later, on the whole line, as for any other part).
    Raises ``TypeError`` when ``d`` holds something JSON cannot represent."""
    out = JSONDict(d)
    out.fragment = orjson.Fragment(orjson.dumps(d))
    return out
