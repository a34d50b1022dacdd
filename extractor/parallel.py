"""``tag --jobs N``: the cards of one input analyzed by N worker processes, results in input order.

``analyze_items(items, catalog, jobs)`` yields ``(item, result)`` for every read item, in the order
the items were read: ``result`` is the :class:`~extractor.pipeline.CardResult` of the item's card,
or ``None`` for an item that holds no card (a record that could not be read).  With ``jobs`` 1 it is
the plain loop (each card analyzed when its turn comes); with more, the cards go to a
``multiprocessing`` pool in chunks (``imap``: a streaming, ordered pool; the input is read as the
workers ask for it, never all at once) and the results come back in order, so the output is the
same, line for line, whatever ``jobs`` is.  Workers start with the parent's catalog (inherited
where processes are forked, sent once otherwise).
"""
from __future__ import annotations

import os
from collections import deque
from typing import Iterable, Iterator

from . import pipeline  # pipeline.analyze is looked up at each call (tests replace it)
from .patterns import Catalog
from .pipeline import CardResult

__all__ = ["analyze_items", "default_jobs", "DumpedResult"]

CHUNK = 64  # cards per task sent to a worker: big enough that sending costs little next to analyzing

_catalog: Catalog | None = None  # the catalog of this worker process (set by _start_worker)


def _start_worker(catalog: Catalog) -> None:
    global _catalog
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle (it ends the pool)
    for name in ("SIGTERM", "SIGHUP"):  # the command's handlers (clean-up of its output) are the parent's
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _catalog = catalog


def _analyze(card) -> dict:
    # the JSON form travels back: plain dicts pickle ~4x faster than the pydantic objects
    return pipeline.analyze(card, _catalog).model_dump(mode="json")


class DumpedResult:
    """A :class:`~extractor.pipeline.CardResult` already dumped to its JSON form by a worker: what
    ``tag`` reads of a result (``error``, ``tags``, ``warnings``, ``materials`` -- the dumped lists
    themselves, so what is added to them or changed in them is in the output) and ``model_dump()`` giving that dict (the same dict
    as ``CardResult.model_dump(mode="json")`` of the result in the worker)."""

    __slots__ = ("_obj",)

    def __init__(self, obj: dict):
        self._obj = obj

    @property
    def error(self) -> str | None:
        return self._obj.get("error")

    @property
    def tags(self) -> list[str]:
        return self._obj["tags"]

    @property
    def warnings(self) -> list[str]:
        return self._obj["warnings"]

    @property
    def materials(self) -> list[dict]:
        return self._obj.get("materials", [])

    def model_dump(self, mode: str = "json") -> dict:
        return self._obj


def default_jobs() -> int:
    """The number of CPUs this process may run on (``--jobs 0``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def analyze_items(items: Iterable, catalog: Catalog,
                  jobs: int = 1) -> Iterator[tuple[object, CardResult | DumpedResult | None]]:
    """``(item, result)`` for each of ``items`` (:class:`~extractor.readers.ReadItem`), in order.

    Input: the read items, the catalog, the number of processes (1: this one; 0: one per CPU).
    Output: an iterator; ``result`` is ``None`` for an item without a card, else its
    :class:`CardResult` (``jobs`` 1) or the :class:`DumpedResult` of one (more jobs).
    Raises: whatever reading the items raises (e.g. ``InputError``), when it happens."""
    if jobs == 0:
        jobs = default_jobs()
    if jobs <= 1:
        for it in items:
            yield it, (pipeline.analyze(it.card, catalog) if it.card is not None else None)
        return
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    import threading

    pending: deque = deque()  # items read and not yet given back, in order
    # the pool reads its input as fast as it can: at most `ahead` cards are read and not yet given
    # back (a whole number of chunks, so a chunk is never held back half full)
    ahead = threading.BoundedSemaphore(CHUNK * jobs * 4)

    def cards() -> Iterator:
        # runs in the pool's feeding thread: every item is queued before the card that follows it
        for it in items:
            if it.card is not None:
                ahead.acquire()
            pending.append(it)
            if it.card is not None:
                yield it.card

    with ctx.Pool(jobs, initializer=_start_worker, initargs=(catalog,)) as pool:
        for res in pool.imap(_analyze, cards(), CHUNK):
            ahead.release()
            it = pending.popleft()
            while it.card is None:  # items without a card before this card
                yield it, None
                it = pending.popleft()
            yield it, DumpedResult(res)
    while pending:  # items without a card after the last card
        yield pending.popleft(), None
