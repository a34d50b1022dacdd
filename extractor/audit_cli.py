"""``ygo-extractor audit CARDS.cdb``: compare what a card database says about each card (type
bits, alias groups) with what its text says (see :mod:`extractor.audit`)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

_SEVERITIES = ["high", "medium", "low"]
_MAX_LISTED = 20  # unreadable records listed on the terminal; -o FILE gets all


@click.command("audit")
@click.argument("input", type=click.Path(dir_okay=False))
@click.option("--lang", help="Language of the texts (en, zh-CN, zh-TW, ja, ...). Default: guessed from the texts.")
@click.option("-o", "--output", help="Write one JSON object per finding to FILE ('-' = standard output): "
              "id, name, check, severity, detail, span, phrase.  Written atomically.")
@click.option("--html", "html_path", help="Write a self-contained HTML report to FILE.")
@click.option("--html-limit", type=int, default=5000, show_default=True,
              help="At most this many cards in the HTML report (0 = all).")
@click.option("--sql", "sql_path", help="Write UPDATE datas SET type = ... statements that fix the type-bit "
              "findings to FILE (apply them to a copy; the database itself is never written).")
@click.option("--min-severity", type=click.Choice(_SEVERITIES), default="low", show_default=True,
              help="Leave out findings below this severity (in -o, --html, --sql and the table).")
@click.option("--check", "checks", multiple=True, metavar="NAME",
              help="Only this check (repeatable): special-summon-flag-missing, special-summon-flag-extra, "
                   "empty-text, alias-conditions-differ, frame-text-conflict, unreadable, no-datas-row.")
@click.option("--fail-on", type=click.Choice(_SEVERITIES),
              help="Exit with status 1 when a finding at or above this severity was found (for CI jobs).")
def audit(input: str, lang: str | None, output: str | None, html_path: str | None, html_limit: int,
          sql_path: str | None, min_severity: str, checks: tuple[str, ...], fail_on: str | None) -> None:
    """Audit the cards.cdb INPUT: compare its type bits and alias rows with what each text says.

    Checks: special-summon-flag-missing (the text says "Cannot be Normal Summoned/Set", the type
    lacks 0x2000000), special-summon-flag-extra (the reverse), empty-text, alias-conditions-differ
    (alternate artwork rows with other conditions), frame-text-conflict (a material line, a
    Pendulum block, a Gemini or Toon reminder without its type bit).  INPUT is opened read-only.
    A summary table goes to the terminal (standard error).

    Outputs are checked before any work (exit status 2, naming the option and the file): never
    the input database, never a write-protected file, never one file for two of -o / --html / --sql.
    """
    from .audit import CHECKS, audit as run, iter_output, render_html, sql_patch
    from .normalize import lang_family
    from .readers import InputError

    if lang is not None:
        try:
            lang_family(lang)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--lang")
    bad = [c for c in checks if c not in CHECKS]
    if bad:
        raise click.BadParameter(f"unknown check {bad[0]!r} (one of {', '.join(CHECKS)})", param_hint="--check")
    from .cli import require_input
    from .writers import OutputError, check_outputs

    require_input(input, "INPUT")
    try:  # never the input database, a write-protected file, or two outputs in one file
        check_outputs({"-o": output, "--html": html_path, "--sql": sql_path}, [input])
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint=e.option)
    only = frozenset(checks) if checks else None
    try:
        rep = run(input, lang)
    except (InputError, ValueError) as e:
        raise click.ClickException(str(e))
    except KeyboardInterrupt:
        click.echo("interrupted: nothing written", err=True)
        sys.exit(130)
    try:
        _write(rep, output, html_path, html_limit, sql_path, min_severity, only, iter_output, render_html, sql_patch)
        if any(p and p != "-" for p in (output, html_path, sql_path)):  # issue 12 §3: <file>.meta.json beside each
            from .meta import build_meta, write_sidecars
            write_sidecars([output, html_path, sql_path], build_meta("audit", [input]))
    except OSError as e:  # a missing folder, a full disk: the atomic writer left no partial file
        raise click.ClickException(f"cannot write the output ({e}); nothing written")
    _summary(rep, min_severity, only)
    if fail_on and any(True for _ in rep.findings(fail_on, only)):
        sys.exit(1)


def _write(rep, output, html_path, html_limit, sql_path, min_severity, only, iter_output, render_html,
           sql_patch) -> None:
    import orjson

    from .writers import atomic_path

    if output:
        lines = (orjson.dumps(o) + b"\n" for o in iter_output(rep, min_severity, only))
        if output == "-":
            for line in lines:
                sys.stdout.buffer.write(line)
            sys.stdout.flush()
        else:
            with atomic_path(output) as tmp, open(tmp, "wb") as f:
                f.writelines(lines)
    if html_path:
        with atomic_path(html_path) as tmp:
            tmp.write_text(render_html(rep, min_severity=min_severity, checks=only, max_cards=html_limit or None),
                           encoding="utf-8")
    if sql_path:
        from .audit import AuditReport

        sub = rep if only is None else AuditReport(**{**rep.__dict__, "cards_with_findings": [
            c.model_copy(update={"findings": [f for f in c.findings if f.check in only]})
            for c in rep.cards_with_findings]})
        with atomic_path(sql_path) as tmp:
            tmp.write_text(sql_patch(sub, min_severity), encoding="utf-8")


def _summary(rep, min_severity: str, only) -> None:
    from rich.console import Console
    from rich.table import Table

    from .audit import CHECKS, SEVERITIES

    con = Console(stderr=True)
    counts = rep.counts()
    shown = [s for s in SEVERITIES if SEVERITIES.index(s) <= SEVERITIES.index(min_severity)]
    t = Table(title=f"audit {Path(rep.path).name} ({rep.lang or 'language unknown'})")
    t.add_column("check")
    for s in shown:
        t.add_column(s, justify="right")
    t.add_column("cards", justify="right")
    for k in CHECKS:
        if only is not None and k not in only:
            continue
        ncards = sum(1 for c in rep.cards_with_findings
                     if any(f.check == k and f.severity in shown for f in c.findings))
        t.add_row(k, *(str(counts[k][s]) for s in shown), str(ncards))
    con.print(t)
    unread = [f for f in rep.findings(min_severity, only) if f.check == "unreadable"]
    if unread:
        con.print(f"{len(unread)} record{'s' if len(unread) != 1 else ''} could not be read or analyzed:", markup=False)
        for f in unread[:_MAX_LISTED]:
            con.print(f"  {f.detail}", markup=False, highlight=False)
        if len(unread) > _MAX_LISTED:
            con.print(f"  ... and {len(unread) - _MAX_LISTED} more (all of them: -o FILE)", markup=False)
    n = sum(1 for _ in rep.findings(min_severity, only))
    con.print(f"cards {rep.cards}, monsters {rep.monsters}, findings {n}, seconds {rep.seconds:.2f}", markup=False,
              highlight=False)
