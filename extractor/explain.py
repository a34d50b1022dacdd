"""Human-readable rendering of one card's analysis (the ``explain`` command), with rich."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .console import PipeConsole


def render(card, res, console: Console | None = None, note: str | None = None) -> None:
    """Print ``card`` text with every condition phrase highlighted, a table of conditions
    (kind, phrase with its canonical rendering under it, pattern id, span) and the tags, Tributes
    and profile facts.

    What says how the text was read comes first, above the text and the tables: ``note`` (e.g.
    ``read as zh-CN (guessed from the text; ...)``) and any ``language mismatch`` warning (the
    text is not in the language asked for, so the tables below are likely empty); the other
    warnings come last."""
    if console is None:
        probe = PipeConsole()
        console = probe if probe.is_terminal else PipeConsole(width=200)
    con = console
    if note:
        con.print(note, markup=False, highlight=False)
    first = [w for w in res.warnings if w.startswith("language mismatch")]
    for w in first:
        con.print("[yellow]warning:[/yellow] " + escape(w))
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
        tab.add_row(str(i), Text(c.kind, style=styles[i % len(styles)]), details, _phrase_and_rendering(c, card),
                    c.pattern_id,
                    f"{c.span[0]}-{c.span[1]}" + (" (pendulum)" if c.source != "text" else ""))
    con.print(tab)
    for stab in structure_tables(res):
        con.print(stab)
    con.print(f"tags: {', '.join(res.tags) or '(none)'}")
    con.print(f"tributes: {res.tributes}")
    con.print(profile_table(card, res))
    for w in res.warnings:
        if w not in first:
            con.print("[yellow]warning:[/yellow] " + escape(w))


def _phrase_and_rendering(c, card) -> Text:
    """The original phrase and, under it, the object's canonical rendering in the card's language
    (:func:`extractor.render.render`: English, Simplified Chinese or Japanese; none for a language
    without a rendering table)."""
    from .normalize.ja import plain_name
    from .render import RenderError, render as render_condition

    out = Text(c.phrase)
    try:
        out.append("\n= " + render_condition(c, card.lang, name=plain_name(card.name) if card.name else None),
                   style="dim")
    except RenderError:
        pass
    return out


# which condition kinds a profile fact rests on (the frame rules are named separately)
_FACT_KINDS: dict[str, tuple[str, ...]] = {
    "normal summon allowed": ("cannot-normal-summon", "summon-condition-while"),
    "Set allowed": ("cannot-normal-summon", "tributes-required"),
    "tributes": ("tributes-required",),
    "alternative tributes": ("normal-summon-without-tributes", "tribute-summon-optional"),
    "Mausoleum of the Emperor allowed": ("tributes-required", "must-be-normal-summoned-by"),
    "special summon monster": ("cannot-normal-summon",),
    "nomi / semi-nomi": ("must-be-special-summoned", "builtin-special-summon", "cannot-special-summon",
                         "special-summons-itself"),
    "revive limit": ("must-be-special-summoned", "builtin-special-summon", "special-summon-only-by",
                     "must-first-be-summoned-by"),
    "only by": ("special-summon-only-by",),
    "must first be": ("must-first-be-summoned-by",),
    "cannot be Special Summoned from": ("cannot-special-summon-from",),
    "cannot be Special Summoned": ("cannot-special-summon",),
    "fusion materials only": ("fusion-materials-only",),
    "ritual spell": ("ritual-summon-with",),
}


def profile_table(card, res) -> Table:
    """A table of the profile's facts: fact, value, and where it came from (the condition
    index and its original phrase with its span, or the frame rule: Ritual and Extra Deck monsters
    cannot be Normal Summoned/Set and have a revive limit, TAGS.md)."""
    tab = Table(title="profile")
    for col in ("fact", "value", "from"):
        tab.add_column(col)
    p = res.profile
    if p is None or p.normal_summon is None or p.special_summon is None:
        tab.add_row("card kind", str(p.card_kind if p else None), "frame")
        tab.add_row("grants additional Normal Summon", str(bool(p and p.grants_additional_normal_summon)),
                    _sources(res, ("additional-normal-summon",)))
        return tab
    ns, ss = p.normal_summon, p.special_summon
    locked = card.frame.frame_locked
    rows = [
        ("normal summon allowed", ns.allowed), ("Set allowed", ns.set_allowed), ("tributes", ns.tributes),
        ("alternative tributes", ns.alternative_tributes or "-"),
        ("Mausoleum of the Emperor allowed", ns.mausoleum_allowed),
        ("special summon monster", ss.special_summon_monster),
        ("nomi / semi-nomi", "nomi" if ss.nomi else "semi-nomi" if ss.semi_nomi else "-"),
        ("revive limit", ss.revive_limit), ("only by", ss.only_by or "-"),
        ("must first be", ss.must_first_be or "-"), ("cannot be Special Summoned from", ss.cannot_from or "-"),
        ("cannot be Special Summoned", ss.cannot_special_summon),
        ("fusion materials only", ss.fusion_materials_only), ("ritual spell", ss.ritual_spell or "-"),
    ]
    for fact, value in rows:
        src = _sources(res, _FACT_KINDS.get(fact, ()))
        if locked and fact in ("normal summon allowed", "Set allowed", "revive limit"):
            src = "frame rule (Ritual / Extra Deck monster)" + ("; " + src if src != "-" else "")
        elif fact == "tributes" and src == "-" and value is not None:
            src = f"Level {card.frame.level} (seed 000: 5-6 one Tribute, 7+ two)"
        tab.add_row(fact, str(value), src)
    for pr in ss.procedures:
        c = res.conditions[pr.basis]
        tab.add_row("built-in Special Summon", f"from {', '.join(pr.locations)}"
                    + ("" if pr.location_stated else " (no location named: seed 002 default)")
                    + f"; negated by Summon-negating cards: {pr.negated_by_summon_negation}",
                    f"#{pr.basis} {c.phrase!r} {c.span[0]}-{c.span[1]}")
    tab.add_row("Gemini", str(p.gemini), _sources(res, ("gemini",)) if p.gemini else "-")
    tab.add_row("grants additional Normal Summon", str(p.grants_additional_normal_summon),
                _sources(res, ("additional-normal-summon",)))
    return tab


def _sources(res, kinds: tuple[str, ...]) -> str:
    found = [f"#{i} {c.phrase!r} {c.span[0]}-{c.span[1]}" for i, c in enumerate(res.conditions) if c.kind in kinds]
    return "; ".join(found) or "-"


def _places(places) -> str:
    return ", ".join(p.replace("grave", "gy").replace("_", "-") for p in places or ())


def _cost_line(action: dict, read: dict | None) -> str:
    act = action.get("action")
    if act == "none":
        return "none (nothing is paid)"
    if act == "pay_lp":
        return "pay LP " + ("half" if action.get("count") is None else str(action["count"]))
    from .writers import count_text

    text = f"{act.replace('_', ' ')} {count_text(action.get('count'))}"
    if action.get("from"):
        text += f" from {_places(action['from'])}"
    flt = (read or {}).get("filter") or {}
    if flt.get("phrase"):
        text += f": {flt['phrase']}"
    return text


def structure_tables(res) -> list[Table]:
    """The STRUCTURE.md view of a result (``res.procedures``, ``res.materials``,
    ``res.tribute_rules``) as rich tables, one per non-empty list: procedures (range, each cost
    action with its count, places and filter, requirement, limit, other flags, the pattern and
    span), material lines (Summon, counts, Level, alternative, named materials), the effects that
    Special Summon the card itself (from ``res.conditions``, :func:`extractor.structure.self_summons_of`:
    from where, trigger, cost; apart from the procedures, they start a Chain) and Tribute rules
    (mode, Tributes, what must be Tributed).  Counts read ``1``, ``1+``, ``1-3``, ``?`` (not read).
    Input: a :class:`extractor.pipeline.CardResult` (or any object with those three lists of
    dicts).  Raises nothing."""
    from .structure import self_summons_of
    from .writers import count_text

    tables = []
    procs = getattr(res, "procedures", None) or []
    if procs:
        tab = Table(title="procedures (built-in Special Summons)", show_lines=True)
        for col in ("#", "range", "cost", "requirement", "limit", "other", "pattern", "span"):
            tab.add_column(col)
        for i, p in enumerate(procs):
            read = p.get("cost") or []
            cost = "\n".join(_cost_line(a, read[j] if j < len(read) else None)
                              for j, a in enumerate(p.get("cost_actions") or []))
            req = p.get("requirement")
            requirement = (f"{req.get('kind', 'other')}: {req.get('phrase', '')}" if req
                           else "yes (not read)" if p.get("requires_condition") else "-")
            limit = "once per turn" if p.get("once_per_turn") else "once per Duel" if p.get("once_per_duel") else "-"
            other = [x for x in ("to the opponent's field" if p.get("to_opponent_field") else "",
                                 f"{p['position']} position" if p.get("position") else "",
                                 "zone restricted" if p.get("zone_restricted") else "") if x]
            span = p.get("span") or ("", "")
            tab.add_row(str(i), _places(p.get("range")), cost, requirement, limit, ", ".join(other) or "-",
                        str(p.get("pattern_id", "")), f"{span[0]}-{span[1]}")
        tables.append(tab)
    mats = getattr(res, "materials", None) or []
    if mats:
        tab = Table(title="materials")
        for col in ("#", "summon", "counts", "level", "alternative", "named materials", "pattern", "span"):
            tab.add_column(col)
        for i, m in enumerate(mats):
            kind = m.get("summon", "")
            counts = (f"tuner {count_text(m.get('tuner'))}, non-tuner {count_text(m.get('non_tuner'))}" if kind == "synchro"
                      else count_text(m.get("count")))
            ids = m.get("named_materials") or []
            named = ", ".join(m.get("named_names") or []) + (f" ({', '.join(map(str, ids))})" if ids else "")
            span = m.get("span") or ("", "")
            tab.add_row(str(i), kind, counts, "-" if m.get("level") is None else str(m["level"]),
                        "yes" if m.get("alternative") else "-", named or "-", str(m.get("pattern_id", "")),
                        f"{span[0]}-{span[1]}")
        tables.append(tab)
    selfs = self_summons_of(getattr(res, "conditions", None) or [])
    if selfs:
        tab = Table(title="effects that Special Summon this card (start a Chain; not procedures)", show_lines=True)
        for col in ("#", "from", "trigger", "cost", "pattern", "span"):
            tab.add_column(col)
        for i, e in enumerate(selfs):
            read = e["cost"]
            cost = "\n".join(_cost_line(a, read[j] if j < len(read) else None) for j, a in enumerate(e["cost_actions"]))
            span = e["span"]
            tab.add_row(str(i), _places(e["range"]) if e["range"] else "- (not stated)", e["trigger"] or "-", cost,
                        str(e["pattern_id"]), f"{span[0]}-{span[1]}")
        tables.append(tab)
    rules = getattr(res, "tribute_rules", None) or []
    if rules:
        tab = Table(title="Tribute rules")
        for col in ("#", "mode", "tributes", "what", "pattern", "span"):
            tab.add_column(col)
        for i, r in enumerate(rules):
            span = r.get("span") or ("", "")
            tab.add_row(str(i), str(r.get("mode")), "?" if r.get("tributes") is None else str(r["tributes"]),
                        r.get("filter") or "-", str(r.get("pattern_id", "")), f"{span[0]}-{span[1]}")
        tables.append(tab)
    return tables
