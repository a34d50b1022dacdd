"""The HTML reports of a validation run: :func:`render_html` (two texts, template
``templates/validate.html.j2``) and :func:`render_reference_html` (the reference mode: the
reference text and every translation, ``templates/validate-reference.html.j2``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..report_html import multi_filter_script, row_filter_script, script_hash as script_hash_of
from .reference import ReferenceCard, ReferenceReport
from .report import ALL_KINDS, MISMATCH_KINDS, SEV_RANK, CardReport, Mark, ValidationReport

__all__ = ["render_html", "render_reference_html"]

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _pieces(text: str | None, marks: list[Mark], field: str) -> list[dict[str, Any]]:
    """Split ``text`` into pieces ``{"text", "marks"}``; ``marks`` is the list of :class:`Mark`
    covering the piece (empty for plain text).  Overlapping marks nest by splitting."""
    if not text:
        return []
    ms = [m for m in marks if m.field == field and 0 <= m.span[0] < m.span[1] <= len(text)]
    cuts = sorted({0, len(text), *(m.span[0] for m in ms), *(m.span[1] for m in ms)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [m for m in ms if m.span[0] <= a and b <= m.span[1]]
        out.append({"text": text[a:b], "marks": cover,
                    "status": next((m.status for m in cover if m.status != "ok"), "ok") if cover else None,
                    "title": "; ".join(f"{m.condition} ({m.status})" for m in cover)})
    return out


_SCRIPT = row_filter_script("kind-filter", "data-kinds")


def _row_order(c: CardReport) -> tuple:
    """Condition mismatches first (worst severity first), then empty / truncated texts, then
    cards present on one side only; by passcode within each."""
    kinds = {m.kind for m in c.mismatches}
    cls = 0 if kinds & set(MISMATCH_KINDS) else 1 if kinds & {"empty-text", "truncated-text", "analysis-failed"} else 2
    return (cls, min(SEV_RANK[m.severity] for m in c.mismatches), c.id)


def render_html(report: ValidationReport, *, title: str | None = None, max_cards: int | None = None) -> str:
    """A self-contained HTML page of ``report``: one row per card with a problem (condition
    mismatches first, worst severity first; at most ``max_cards`` rows), the two
    original texts side by side with condition phrases in ``<mark>`` (spans of the original
    texts), filterable by mismatch kind.  Jinja2 with autoescape ON: card text is always text
    (``<script>`` shows as ``<script>``); the page's Content-Security-Policy allows only its own
    inline script (by hash) and inline styles, so even injected markup could not run or load.
    """
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    tpl = env.get_template("validate.html.j2")
    cards = sorted(report.cards, key=_row_order)
    cards = cards if max_cards is None else cards[:max_cards]
    rows = []
    for c in cards:
        rows.append({
            "card": c, "kinds": c.kinds,
            "source": _pieces(c.source_text, c.source_marks, "text"),
            "target": _pieces(c.target_text, c.target_marks, "text"),
            "source_pend": _pieces(c.source_pendulum, c.source_marks, "pendulum_effect"),
            "target_pend": _pieces(c.target_pendulum, c.target_marks, "pendulum_effect"),
        })
    card_counts = report.card_counts()
    script_hash = script_hash_of(_SCRIPT)
    return tpl.render(report=report, rows=rows, kinds=[k for k in ALL_KINDS if card_counts.get(k)],
                      card_counts=card_counts, counts=report.mismatch_counts(), script=Markup(_SCRIPT),
                      script_hash=script_hash, title=title or f"Validation: {report.source_lang} vs {report.target_lang}",
                      truncated_list=max_cards is not None and len(report.cards) > max_cards)


_REF_SCRIPT = multi_filter_script([("lang-filter", "data-langs"), ("slot-filter", "data-slots"),
                                   ("verdict-filter", "data-verdicts")])
#: highlight classes, strongest first (an overlap shows the strongest)
_REF_CLASSES = ("departs", "reference", "agrees", "ok")


def _ref_pieces(text: str | None, spans: list[tuple[tuple[int, int], str, str]]) -> list[dict[str, Any]]:
    """Split ``text`` into pieces ``{"text", "cls", "title"}`` for the reference report; ``spans``:
    ``((start, end), class, title)`` (class one of :data:`_REF_CLASSES`); a piece under several
    spans takes the strongest class and every title."""
    if not text:
        return []
    ok = [s for s in spans if 0 <= s[0][0] < s[0][1] <= len(text)]
    cuts = sorted({0, len(text), *(s[0][0] for s in ok), *(s[0][1] for s in ok)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [s for s in ok if s[0][0] <= a and b <= s[0][1]]
        cls = min((s[1] for s in cover), key=_REF_CLASSES.index) if cover else None
        out.append({"text": text[a:b], "cls": cls, "title": "; ".join(dict.fromkeys(s[2] for s in cover))})
    return out


def _ref_row(c: ReferenceCard, langs: list[str], rlang: str) -> dict[str, Any]:
    spans: dict[tuple[str, str], list[tuple[tuple[int, int], str, str]]] = {}
    for lg, marks in c.marks.items():
        for m in marks:
            spans.setdefault((lg, m.field), []).append((m.span, "ok", m.condition))
    row_langs: list[str] = []
    slots: list[str] = []
    verdicts: list[str] = []
    for f in c.findings:
        row_langs += f.departs if f.departs else [f.side or rlang]
        slots.append(f.slot or ("card" if f.verdict == "card" else f.kind))
        verdicts.append(f.verdict)
        what = f"{f.kind} {f.slot or ''} {f.condition or ''}".strip()
        for rd in ([f.reference] if f.reference else []) + f.translations:
            if rd.span is None or rd.field is None:
                continue
            cls = "reference" if rd.role == "reference" else "departs" if rd.departs else "agrees"
            spans.setdefault((rd.lang, rd.field), []).append((rd.span, cls, f"{what}: {f.verdict}"))
    names = [n for n in dict.fromkeys(c.names.get(lg, "") for lg in langs[1:]) if n and n != c.name]
    return {"card": c, "names": names, "langs": list(dict.fromkeys(row_langs)), "slots": list(dict.fromkeys(slots)),
            "verdicts": list(dict.fromkeys(verdicts)),
            "text": {lg: _ref_pieces(c.texts.get(lg), spans.get((lg, "text"), [])) for lg in langs},
            "pend": {lg: _ref_pieces(c.pendulum.get(lg), spans.get((lg, "pendulum_effect"), [])) for lg in langs}}


def _ref_order(c: ReferenceCard) -> tuple:
    """Cards where one translation departs first, then every translation, then card problems;
    worst severity first; by passcode."""
    rank = {"one": 0, "some": 1, "all-differ": 2, "all-agree": 3, "card": 4}
    return (min(rank[f.verdict] for f in c.findings), min(SEV_RANK[f.severity] for f in c.findings), c.id)


def render_reference_html(report: ReferenceReport, *, title: str | None = None,
                          max_cards: int | None = None) -> str:
    """A self-contained HTML page of a reference run (:func:`extractor.validate.validate_reference`):
    one row per reported card (cards where ONE translation departs first, then the others; at
    most ``max_cards`` rows) with the reference text and every translation side by side; in each
    text the phrases of every finding are in ``<mark>``: ``reference`` (the reference phrase),
    ``departs`` (a translation that departs), ``agrees`` (a translation that agrees with the
    reference there), ``ok`` (other condition phrases read).  Rows filter by departing text,
    by slot (or kind) and by verdict (:func:`extractor.report_html.multi_filter_script`).
    Jinja2 with autoescape ON and the same Content-Security-Policy as :func:`render_html`."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    tpl = env.get_template("validate-reference.html.j2")
    langs = [report.reference_lang, *report.translation_langs]
    cards = sorted(report.cards, key=_ref_order)
    rows = [_ref_row(c, langs, report.reference_lang) for c in (cards if max_cards is None else cards[:max_cards])]
    every = [_ref_row(c, langs, report.reference_lang) for c in report.cards] if max_cards is not None else rows

    def keys(attr: str) -> list[tuple[str, int]]:
        n: dict[str, int] = {}
        for r in every:
            for k in r[attr]:
                n[k] = n.get(k, 0) + 1
        return sorted(n.items(), key=lambda kv: (-kv[1], kv[0]))
    lang_keys = sorted(keys("langs"), key=lambda kv: langs.index(kv[0]) if kv[0] in langs else 99)
    def fmt(v: Any) -> str:
        """A slot value as JSON (sets as sorted lists), for the finding list."""
        import json
        from pydantic import TypeAdapter
        return json.dumps(TypeAdapter(Any).dump_python(v, mode="json"), ensure_ascii=False)
    return tpl.render(report=report, summary=report.summary(), rows=rows, langs=langs, lang_keys=lang_keys, fmt=fmt,
                      slot_keys=keys("slots"), verdict_keys=keys("verdicts"), script=Markup(_REF_SCRIPT),
                      script_hash=script_hash_of(_REF_SCRIPT),
                      title=title or f"Validation against the {report.reference_lang} reference: "
                                     f"{', '.join(report.translation_langs)}",
                      truncated_list=max_cards is not None and len(report.cards) > max_cards)
