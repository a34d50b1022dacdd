"""The card as every reader gives it: :class:`Card`.

It lives apart from :mod:`extractor.pipeline` so that the readers (the first stage) depend only
on the frame and not on the stages after them (dependencies point one way: readers -> pipeline).
``extractor.pipeline`` re-exports it (``from extractor.pipeline import Card`` keeps working).
"""

from pydantic import BaseModel, Field

from .frame import Frame


class Card(BaseModel):
    """One card as read from any input.

    id: passcode (int) or ``None``; name; lang (``en``, ``zh-CN``, ``zh-TW``, ...);
    text: the card text (monster text, possibly with a Pendulum block as in cdb files);
    pendulum_effect: a separate Pendulum Effect (yaml-yugi), or ``None``; frame.
    """

    id: int | None = None
    name: str = ""
    lang: str = "en"
    text: str = ""
    pendulum_effect: str | None = None
    frame: Frame = Field(default_factory=Frame)
