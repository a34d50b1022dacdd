"""spaCy pipeline component ``summoning_conditions``: the Summoning Conditions of a card text as
spans of a spaCy ``Doc``.

Needs the optional extra ``spacy`` (``pip install 'ygo-extractor[spacy]'``); importing this module
without spaCy raises :class:`ImportError` naming the extra.

Usage::

    import spacy
    nlp = spacy.blank("en")                       # or spacy.blank("zh") (default "char" segmenter)
    nlp.add_pipe("summoning_conditions")          # config: {"lang": ..., "frame_type": ..., "level": ...}
    doc = nlp("Cannot be Normal Summoned/Set. Must be Special Summoned ...")
    for span in doc.spans["summoning_conditions"]:
        span.label_, span._.pattern_id, span._.condition   # kind, rule id, pydantic condition

The factory is registered twice so that either way works: by ``@Language.factory`` when this
module is imported, and through the ``spacy_factories`` entry point of ``pyproject.toml``
(``summoning_conditions = "extractor.spacy_component:make_component"``), which spaCy loads
by itself when the project is installed.

The component does NOT have its own rules: it calls :func:`extractor.pipeline.analyze_text` with
the catalog of :func:`extractor.patterns.load_catalog` (the same cached object ``tag`` uses), so
the spans are exactly the conditions ``tag`` writes.  spaCy is only an adapter here; the ``tag``
path never imports spaCy.

Spans: a condition's ``span`` is a pair of CHARACTER offsets into ``doc.text``; it is mapped to
tokens with ``doc.char_span(start, end, alignment_mode="expand")``, so a span covers every token
the condition's characters touch (``span.start_char`` can be smaller and ``span.end_char``
larger than the condition's offsets; the exact offsets are in ``span._.condition.span``).
Overlapping conditions are all kept (a ``SpanGroup`` allows overlaps).  Conditions found in a
separate Pendulum Effect cannot occur: the component only reads ``doc.text``.

Extensions set on import:

- ``Span._.condition``: the condition object (a :mod:`extractor.conditions` model), rebuilt from
  the stored JSON form on each access (``None`` for a span this component did not make);
- ``Span._.condition_data``: that JSON form (a dict), ``Span._.pattern_id``: the rule id;
- ``Doc._.summoning_tags``: the card's TAGS.md tags (list of str) after the component ran;
- ``Doc._.summoning_frame``: optional per-doc type line (e.g. ``"Dragon / Synchro / Effect"``)
  that overrides the ``frame_type`` config for that doc.  Set it before calling the component.

Everything stored in the ``Doc`` is plain JSON data, so ``Doc.to_bytes`` / ``DocBin`` keep
working (the condition objects are rebuilt from it).
"""
from __future__ import annotations

from typing import Any

try:
    from spacy.language import Language
    from spacy.tokens import Doc, Span
except ImportError as _e:  # spaCy is the optional extra ``ygo-extractor[spacy]``
    raise ImportError("the spaCy component 'summoning_conditions' needs spaCy, which is an optional extra: "
                      "pip install 'ygo-extractor[spacy]'") from _e

from .conditions import ConditionAdapter
from .frame import Frame
from .normalize import lang_family
from .patterns import load_catalog
from .pipeline import analyze_text

__all__ = ["SummoningConditions", "make_component", "SPANS_KEY"]

SPANS_KEY = "summoning_conditions"
_STORE = "summoning_conditions.records"  # doc.user_data key: list of condition dicts


def _records(doc: Doc) -> list[dict[str, Any]]:
    return doc.user_data.get(_STORE) or []


def _record(span: Span) -> dict[str, Any] | None:
    """The stored condition of ``span``: by its ``span_id`` (``"sc<index>"``, set by the
    component), else the first record of the same label whose offsets expand to the span."""
    recs = _records(span.doc)
    sid = span.id_
    if sid.startswith("sc") and sid[2:].isdigit():
        i = int(sid[2:])
        if i < len(recs):
            return recs[i]
    for r in recs:
        s, e = r["span"]
        if r["kind"] == span.label_ and span.start_char <= s and e <= span.end_char:
            return r
    return None


def _get_condition(span: Span):
    r = _record(span)
    return ConditionAdapter.validate_python(r) if r is not None else None


def _get_condition_data(span: Span):
    return _record(span)


def _get_pattern_id(span: Span) -> str | None:
    r = _record(span)
    return r["pattern_id"] if r is not None else None


def _register_extensions() -> None:
    for name, getter in (("condition", _get_condition), ("condition_data", _get_condition_data),
                         ("pattern_id", _get_pattern_id)):
        if not Span.has_extension(name):
            Span.set_extension(name, getter=getter)
    if not Doc.has_extension("summoning_tags"):
        Doc.set_extension("summoning_tags", default=None)
    if not Doc.has_extension("summoning_frame"):
        Doc.set_extension("summoning_frame", default=None)


_register_extensions()


class SummoningConditions:
    """The component.  ``__call__(doc) -> doc`` sets ``doc.spans[spans_key]`` (one span per
    condition, label = the condition ``kind``) and ``doc._.summoning_tags``.

    lang: the language of the texts (``en``, ``zh``, ``zh-CN``, ``zh-TW``, ...); default
        ``nlp.lang``.  frame_type / level: the card frame (a type line such as
        ``"Fiend / Effect"``); without it the frame is unknown and only the text counts.

    Raises (at construction): ValueError for a language the project does not read.
    Never raises for a text: a runaway pattern (TimeoutError) leaves the doc with no spans.
    """

    def __init__(self, nlp: Language, name: str = "summoning_conditions", *, lang: str | None = None,
                 frame_type: str | None = None, level: int | None = None, spans_key: str = SPANS_KEY):
        self.name = name
        self.lang = lang or nlp.lang
        lang_family(self.lang)  # ValueError for an unsupported language
        self.frame_type, self.level = frame_type, level
        self.frame = Frame.from_type_line(frame_type, level) if frame_type else Frame(level=level)
        self.spans_key = spans_key
        self.catalog = load_catalog()  # the same cached catalog the `tag` command uses

    def _frame_for(self, doc: Doc) -> Frame:
        f = doc._.summoning_frame
        if isinstance(f, Frame):
            return f
        if isinstance(f, str) and f.strip():
            return Frame.from_type_line(f, self.level)
        return self.frame

    def __call__(self, doc: Doc) -> Doc:
        try:
            conds, _profile, tags, _mt, _seg = analyze_text(doc.text, self.lang, self._frame_for(doc),
                                                            catalog=self.catalog)
        except TimeoutError:
            conds, tags = [], []
        records: list[dict[str, Any]] = []
        spans: list[Span] = []
        for c in conds:
            s, e = c.span
            span = doc.char_span(s, e, label=c.kind, alignment_mode="expand", span_id=f"sc{len(records)}")
            if span is None:  # an empty or whitespace-only range: nothing to point at
                continue
            records.append(c.model_dump(mode="json"))
            spans.append(span)
        doc.user_data[_STORE] = records
        doc.spans[self.spans_key] = spans
        doc._.summoning_tags = list(tags)
        return doc


@Language.factory(
    "summoning_conditions",
    default_config={"lang": None, "frame_type": None, "level": None, "spans_key": SPANS_KEY},
)
def make_component(nlp: Language, name: str, lang: str | None, frame_type: str | None,
                   level: int | None, spans_key: str) -> SummoningConditions:
    """Factory of :class:`SummoningConditions` (spaCy calls it from ``nlp.add_pipe``)."""
    return SummoningConditions(nlp, name, lang=lang, frame_type=frame_type, level=level, spans_key=spans_key)
