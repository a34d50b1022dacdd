"""Human-readable rendering of one card's analysis (the ``explain`` command), with rich."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text


def render(card, res, console: Console | None = None) -> None:
    """Print ``card`` text with every condition phrase highlighted, a table of conditions
    (kind, phrase, pattern id, span) and the tags, Tributes and profile facts."""
    if console is None:
        probe = Console()
        console = probe if probe.is_terminal else Console(width=200)
    con = console
    if res.error:
        con.print(f"[red]error:[/red] {res.error}")
        return
    styles = ["bold yellow", "bold cyan", "bold magenta", "bold green", "bold red", "bold blue"]
    t = Text(card.text)
    for i, c in enumerate(res.conditions):
        if c.source == "text":
            t.stylize(styles[i % len(styles)] + " underline", c.span[0], c.span[1])
    con.print(t)
    tab = Table(title="conditions", show_lines=False)
    for col in ("#", "kind", "details", "phrase", "pattern", "span"):
        tab.add_column(col)
    for i, c in enumerate(res.conditions):
        d = c.model_dump(exclude={"kind", "span", "phrase", "pattern_id", "lang", "source"})
        details = ", ".join(f"{k}={v}" for k, v in d.items() if v not in ((), None, []))
        tab.add_row(str(i), Text(c.kind, style=styles[i % len(styles)]), details, c.phrase, c.pattern_id,
                    f"{c.span[0]}-{c.span[1]}" + (" (pendulum)" if c.source != "text" else ""))
    con.print(tab)
    con.print(f"tags: {', '.join(res.tags) or '(none)'}")
    con.print(f"tributes: {res.tributes}")
    p = res.profile
    if p and p.normal_summon:
        ns = p.normal_summon
        con.print(f"normal summon: allowed={ns.allowed} set={ns.set_allowed} tributes={ns.tributes} "
                  f"alternatives={ns.alternative_tributes} from conditions {ns.basis}")
    if p and p.special_summon:
        ss = p.special_summon
        facts = [k for k in ("special_summon_monster", "nomi", "semi_nomi", "revive_limit", "cannot_special_summon",
                             "fusion_materials_only") if getattr(ss, k)]
        con.print(f"special summon: {', '.join(facts) or '-'}; procedures "
                  f"{[(pr.locations, pr.basis) for pr in ss.procedures]}; only by {ss.only_by}; "
                  f"must first be {ss.must_first_be}; cannot from {ss.cannot_from}; from conditions {ss.basis}")
    for w in res.warnings:
        con.print(f"[yellow]warning:[/yellow] {w}")
