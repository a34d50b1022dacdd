"""The ``--html`` report (``extractor/templates/audit.html.j2``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..report_html import row_filter_script, script_hash as script_hash_of
from .checks import hex_type
from .report import CHECKS, RANK, SEVERITIES, AuditReport

_SCRIPT = row_filter_script("check-filter", "data-checks")


def _pieces(text: str, marks: list[tuple[tuple[int, int], str, str]]) -> list[dict[str, Any]]:
    """``text`` cut into pieces ``{"text", "cls", "title"}``; a piece inside a mark gets the
    mark's check as class (the first mark wins where marks overlap)."""
    ms = [(s, e, cls, title) for (s, e), cls, title in marks if 0 <= s < e <= len(text)]
    cuts = sorted({0, len(text), *(m[0] for m in ms), *(m[1] for m in ms)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [m for m in ms if m[0] <= a and b <= m[1]]
        out.append({"text": text[a:b], "cls": cover[0][2] if cover else None,
                    "title": "; ".join(m[3] for m in cover)})
    return out


def render_html(report: AuditReport, *, min_severity: str = "low", checks: frozenset[str] | None = None,
                max_cards: int | None = None, title: str | None = None) -> str:
    """A self-contained HTML page of ``report``: a summary table, then one row per card with
    findings (worst severity first, then passcode; at most ``max_cards``): the findings and the
    ORIGINAL text with the phrase that proves each finding in ``<mark>`` (for an alias finding the
    base row's text too).  Jinja2 with autoescape ON (card text is always text); the page's
    Content-Security-Policy allows only its own inline script (by hash) and inline styles.
    """
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=FileSystemLoader(str(Path(__file__).parent.parent / "templates")),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    tpl = env.get_template("audit.html.j2")
    lim = RANK[min_severity]
    rows = []
    for c in report.cards_with_findings:
        fs = [f for f in c.findings if RANK[f.severity] <= lim and (checks is None or f.check in checks)]
        if not fs:
            continue
        marks = [(f.span, f.check, f"{f.check} ({f.severity})") for f in fs if f.span]
        others = []
        for oid in dict.fromkeys(f.other_id for f in fs if f.other_id is not None):
            oname, otext = report.others.get(oid, ("", ""))
            omarks = [(f.other_span, f.check, f"{f.check}: base row") for f in fs if f.other_id == oid and f.other_span]
            others.append({"id": oid, "name": oname, "pieces": _pieces(otext, omarks)})
        rows.append({"card": c, "findings": fs, "checks": sorted({f.check for f in fs}),
                     "worst": min(RANK[f.severity] for f in fs), "pieces": _pieces(c.text, marks), "others": others,
                     "type_hex": hex_type(c.type) if c.type is not None else "-"})
    rows.sort(key=lambda r: (r["worst"], r["card"].id is None, r["card"].id or 0))
    total = len(rows)
    if max_cards is not None:
        rows = rows[:max_cards]
    counts = report.counts()
    return tpl.render(report=report, rows=rows, total=total, counts=counts, checks=CHECKS, severities=SEVERITIES,
                      present=[k for k in CHECKS if any(counts[k].values())], script=Markup(_SCRIPT),
                      script_hash=script_hash_of(_SCRIPT),
                      title=title or f"Audit: {Path(report.path).name}")
