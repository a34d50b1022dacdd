"""What a reader yields: :class:`ReadItem`, a card or an error naming the record; and the frame
of a JSON record."""
from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from ..card import Card
from ..frame import Frame, cdb_type_problem
from .values import _as_int


@dataclass(slots=True)
class ReadItem:
    """One record: ``card`` or ``error`` (with whatever ``id``/``name`` could be read; ``id`` is
    always an ``int`` or ``None``)."""

    card: Card | None = None
    error: str | None = None
    id: int | None = None
    name: str = ""
    warnings: list[str] = field(default_factory=list)


def _card(warnings: list[str] | None = None, **kw) -> ReadItem:
    """A :class:`ReadItem` holding ``Card(**kw)`` (with ``warnings``), or an error naming the card
    when a field has the wrong type (e.g. a ``lang`` that is not a string)."""
    try:  # (Card's validator called directly: Card(**kw) without its Python-level __init__)
        return ReadItem(card=_new_card(kw), warnings=warnings or [])
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        cid = kw.get("id")
        return ReadItem(error=f"card {cid} {kw.get('name', '')!r}: bad {where} ({err['msg']})",
                        id=cid if isinstance(cid, int) else None, name=str(kw.get("name", "")))


_new_card = Card.__pydantic_validator__.validate_python  # dict of fields -> validated Card


def _frame_from_record(d: dict, warnings: list[str]) -> Frame:
    typ = d.get("type") or d.get("type_line") or d.get("frame") or d.get("frameType")
    level = _as_int(d.get("level")) or _as_int(d.get("rank")) or _as_int(d.get("linkval"))
    if isinstance(typ, int) and not isinstance(typ, bool):
        problem = cdb_type_problem(typ)
        if problem:
            warnings.append(f"{problem}: frame unknown")
        return Frame.from_cdb(typ, level)
    return Frame.from_type_line(typ, level) if isinstance(typ, str) and typ else Frame(level=level)
