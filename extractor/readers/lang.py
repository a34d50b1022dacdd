"""The language of a whole file read without ``--lang``, guessed from its texts."""
from __future__ import annotations

from itertools import chain, islice
from typing import Iterable, Iterator

from ..langcheck import looks_like
from .item import ReadItem


def guess_lang(texts: Iterable[str]) -> str:
    """The language of a sample of card texts: ``ja`` (kana), ``zh-TW`` (Han with Traditional
    characters), ``zh-CN`` (other Han) or ``en`` (Latin script, or nothing to tell by).

    The writing is judged by :func:`extractor.langcheck.looks_like` on the first 200 characters
    of each text (one Han character is enough here: a file of short Chinese texts is Chinese).
    """
    sample = "\n".join(t[:200] for t in texts)
    seen = looks_like(sample, min_han=1, limit=None)
    if seen == "ja":
        return "ja"
    if seen == "zh":
        from ..normalize.zh import has_traditional
        return "zh-TW" if has_traditional(sample) else "zh-CN"
    return "en"


def _relabel(items: Iterator[ReadItem], sample_size: int = 50) -> Iterator[ReadItem]:
    """Items of a one-language file read with no ``--lang``: the language is guessed from the
    first ``sample_size`` texts and set on every card (the reader's default was ``en``)."""
    head = list(islice(items, sample_size))
    lang = guess_lang(it.card.text for it in head if it.card is not None)
    for it in chain(head, items):
        if lang != "en" and it.card is not None:
            it.card = it.card.model_copy(update={"lang": lang})
        yield it
