"""Reading the two inputs and pairing their cards by passcode."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..pipeline import Card
from ..readers import guess_lang, read_cards

__all__ = ["Side", "read_side", "describe"]


@dataclass(slots=True)
class Side:
    """One side of a validation: its cards by passcode, the passcodes whose record could not be
    read (``missing``: id -> (name, reader message)), the errors not tied to a passcode, and
    its language."""

    cards: dict[int, Card]
    missing: dict[int, tuple[str, str]]  # id -> (name, reader message)
    errors: list[str]
    lang: str


def _guess_lang(cards: list[Card]) -> str:
    g = guess_lang(c.text for c in cards[:50])
    return "zh-CN" if g == "zh-TW" else g  # one Chinese normalizer serves both scripts


def read_side(inp: str | Path | Iterable[Card], lang: str | None, fmt: str | None) -> Side:
    """Read one input (a path :func:`extractor.readers.read_cards` reads, or cards) into a
    :class:`Side`.  A card without a passcode, or a passcode seen twice, is an error line.  With no
    ``lang`` the language is guessed from the texts.

    Raises:
        extractor.readers.InputError: the file cannot be read at all.
    """
    cards: dict[int, Card] = {}
    missing: dict[int, tuple[str, str]] = {}
    errors: list[str] = []
    if isinstance(inp, (str, Path)):
        items: Iterable[Any] = read_cards(inp, lang, fmt)
    else:
        items = inp
    raw: list[Card] = []
    for it in items:
        card = it if isinstance(it, Card) else it.card
        if card is None:
            if it.id is not None:
                missing.setdefault(int(it.id), (it.name, it.error or "unreadable"))
            else:
                errors.append(it.error or "unreadable record")
            continue
        if card.id is None:
            errors.append(f"card {card.name!r}: no passcode, cannot be paired")
            continue
        raw.append(card)
    guessed = lang or (raw[0].lang if raw and not isinstance(inp, (str, Path)) else None)
    if lang is None and isinstance(inp, (str, Path)):
        g = _guess_lang(raw)
        if g != "en":  # the reader defaulted to en; the texts say otherwise
            raw = [c.model_copy(update={"lang": g}) if c.lang == "en" else c for c in raw]
        guessed = raw[0].lang if raw else g
    for c in raw:
        if c.id in cards:
            errors.append(f"card {c.id} {c.name!r}: passcode appears twice, second one ignored")
            continue
        cards[c.id] = c
    for cid in list(missing):
        if cid in cards:
            del missing[cid]
    return Side(cards, missing, errors, guessed or "en")


def describe(inp: Any) -> str:
    """How the report names an input: its path, or ``<cards>``."""
    return str(inp) if isinstance(inp, (str, Path)) else "<cards>"
