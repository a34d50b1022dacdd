"""The HTML report of a validation run (:func:`render_html`, template ``templates/validate.html.j2``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..report_html import row_filter_script, script_hash as script_hash_of
from .report import ALL_KINDS, MISMATCH_KINDS, SEV_RANK, CardReport, Mark, ValidationReport

__all__ = ["render_html"]

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
