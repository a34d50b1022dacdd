"""``ygo-extractor query INPUT 'EXPR'``: the cards of ``tag`` output (or of any card database,
tagged on the fly) that match a Scryfall-style query (see :mod:`extractor.query`)."""
from __future__ import annotations

import sys

import click

_MAX_LISTED = 10  # records that could not be queried, listed on standard error


@click.command("query", context_settings={"ignore_unknown_options": True})  # 'EXPR' may start with '-' 
@click.argument("input", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.argument("expr", metavar="'EXPR'")
@click.option("--json", "as_json", is_flag=True, help="Print each matching card as one JSON line (tag's format).")
@click.option("--count", is_flag=True, help="Print the number of matching cards only.")
@click.option("--lang", help="Language of the texts when INPUT is a card database tagged on the fly "
              "(as for tag).")
@click.option("--input-format", help="Input format of a card database to tag on the fly (as for tag); "
              "default: detected (tag output is read as it is).")
def query(input: str, expr: str, as_json: bool, count: bool, lang: str | None, input_format: str | None) -> None:
    """Print the cards of INPUT that match EXPR.

    INPUT is tag output (JSONL, '-' for standard input, or SQLite) or any card database tag reads
    (tagged on the fly).  EXPR terms: tag:T / is:T (is:nomi), kind:K (a condition kind), from:LOC
    (built-in Special Summon location), cost:ACTION, tributes:N (tributes>=2), summon:fusion|synchro|
    xyz|link|ritual, lang:L, name:W and bare words (in the name).  '-' negates a term, terms side by
    side all hold, 'or' and parentheses group.  Example: 'is:nomi or from:gy'.

    Output: a table (id, name, lang, tags) on a terminal, tab-separated lines otherwise; --json
    JSONL; --count the number alone.  Exit status: 0 done (also when nothing matches); 1 the
    input cannot be read; 2 a malformed query (the error points at the character) or a usage error.
    """
    from .query import QueryError, ReadProblem, iter_records, parse

    if as_json and count:
        raise click.UsageError("give --json or --count, not both")
    if input_format is not None:
        from .readers import FORMATS
        if input_format not in FORMATS:
            raise click.BadParameter(f"{input_format!r} is not one of {', '.join(FORMATS)}",
                                     param_hint="--input-format")
    if lang is not None:
        from .normalize import lang_family
        try:
            lang_family(lang)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--lang")
    try:
        q = parse(expr)
    except QueryError as e:
        click.echo(f"Error: bad query: {e}", err=True)
        sys.exit(2)
    problems: list[ReadProblem] = []
    from .readers import InputError

    out = sys.stdout.buffer
    n = 0
    rows: list[dict] = []
    table = not as_json and not count and sys.stdout.isatty()
    try:
        for obj, raw in iter_records(input, lang, input_format, needs=q.needs, problems=problems):
            if not q.matches(obj):
                continue
            n += 1
            if count:
                continue
            if as_json:
                if raw is None:
                    import orjson
                    raw = orjson.dumps(obj) + b"\n"
                out.write(raw if raw.endswith(b"\n") else raw + b"\n")
            elif table:
                rows.append(obj)
            else:
                line = "\t".join([str(obj.get("id")), obj.get("name") or "", obj.get("lang") or "",
                                  " ".join(obj.get("tags") or [])])
                out.write(line.encode("utf-8") + b"\n")
        if count:
            out.write(f"{n}\n".encode())
        out.flush()
    except (InputError, ValueError, OSError) as e:
        if isinstance(e, BrokenPipeError):
            sys.stderr.close()
            sys.exit(0)
        raise click.ClickException(str(e))
    if table:
        _table(rows)
    if problems:
        click.echo(f"{len(problems)} record{'s' if len(problems) != 1 else ''} not queried (could not be read):",
                   err=True)
        for p in problems[:_MAX_LISTED]:
            click.echo(f"  {p}", err=True)
        if len(problems) > _MAX_LISTED:
            click.echo(f"  ... and {len(problems) - _MAX_LISTED} more", err=True)


def _table(rows: list[dict]) -> None:
    from rich.table import Table
    from rich.text import Text

    t = Table(title=f"{len(rows)} card{'s' if len(rows) != 1 else ''}")
    for col, kw in (("id", {"justify": "right"}), ("name", {}), ("lang", {}), ("tags", {"overflow": "fold"})):
        t.add_column(col, **kw)
    for o in rows:
        t.add_row(*(Text(s) for s in (str(o.get("id")), o.get("name") or "", o.get("lang") or "",
                                      " ".join(o.get("tags") or []))))  # Text: a name is never markup
    from .console import PipeConsole

    PipeConsole(highlight=False).print(t)
