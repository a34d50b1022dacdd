"""The catalog's objects: :class:`Pattern`, :class:`Fragment`, :class:`RawMatch` and :class:`PatternError`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import regex


class PatternError(ValueError):
    """A pattern file is malformed; the message names the file and the pattern id."""


@dataclass(slots=True)
class RawMatch:
    """One pattern match in normalized text (offsets into the normalized text)."""

    pattern: "Pattern"
    start: int
    end: int
    fields: dict[str, Any]


@dataclass(slots=True)
class Pattern:
    id: str
    lang: str
    regex: "regex.Pattern[str]"
    yields: dict[str, Any]
    captures: dict[str, tuple[str, str]]
    scope: str = "monster"
    requires: tuple[str, ...] = ()
    anchor: "regex.Pattern[str] | None" = None
    examples_match: list[dict[str, Any]] = field(default_factory=list)
    examples_no_match: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""
    source: str = ""  # the regex as written in the file (fragment references not expanded)
    anchor_source: str = ""  # the anchor as written
    # ``within``: (breaks, cues): every match lies inside one piece of the text between two of the
    # ``breaks`` characters, a piece that holds one of the ``cues`` (see Catalog.run); with an
    # ``anchor``: every position where the anchor holds lies in such a piece
    within: "tuple[str, tuple[str, ...]] | None" = None
    # ``anchor_after`` (with ``anchor`` and ``within``): literals; inside a piece the anchor holds
    # only at the piece's start or right after one of them, so Catalog.run tries the anchor only
    # there instead of scanning every character of the piece
    anchor_after: tuple[str, ...] = ()


@dataclass(slots=True)
class Fragment:
    """A named piece of regex of one language (``patterns/fragments/<lang>.yaml``).

    ``source`` is the regex as written (it may refer to other fragments), ``expanded`` the regex
    with every reference replaced; ``vocab`` names the term-table list it was built from, if any.
    """

    name: str
    lang: str
    source: str
    expanded: str
    examples_match: list[str] = field(default_factory=list)
    examples_no_match: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""
    vocab: str = ""

    def check(self, text: str) -> bool:
        """Whether the fragment matches an example (NORMALIZED text, see :data:`EXAMPLE_MARK`).

        No mark: the fragment matches the whole text.  One mark: it matches (possibly the empty
        string, for a guard) at the marked position.  Two marks: it matches exactly the text
        between them.
        """
        parts = text.split(EXAMPLE_MARK)
        rx = regex.compile(self.expanded)
        if len(parts) == 1:
            return rx.fullmatch(text) is not None
        plain = "".join(parts)
        start = len(parts[0])
        m = rx.match(plain, start)
        if len(parts) == 2:
            return m is not None
        if len(parts) == 3:
            return m is not None and m.end() == start + len(parts[1])
        raise ValueError(f"fragment {self.name}: an example has more than two {EXAMPLE_MARK!r} marks: {text!r}")


EXAMPLE_MARK = "‸"  # ‸ : a position in a fragment example
