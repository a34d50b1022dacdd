"""The ``ygo-extractor`` command line: ``tag``, ``explain``, ``schema``."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click
import orjson

from .normalize import lang_family
from .readers import FORMATS as IN_FORMATS, InputError, read_cards
from .writers import FORMATS as OUT_FORMATS, Writer


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ygo-extractor")
def main() -> None:
    """Read Yu-Gi-Oh! card text (English, Simplified and Traditional Chinese) and extract its
    Summoning Conditions."""


def _check_lang(lang: str | None) -> None:
    if lang is not None:
        try:
            lang_family(lang)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--lang")


@main.command()
@click.argument("input", type=click.Path(dir_okay=False))
@click.option("--lang", help="Language of the texts: en, zh-CN, zh-TW (yaml-yugi picks that text). Default en; "
              "a JSONL record's own 'lang' wins.")
@click.option("-o", "--output", help="Output file (default: standard output). Written atomically.")
@click.option("--format", "fmt", type=click.Choice(OUT_FORMATS), default="jsonl", show_default=True)
@click.option("--input-format", type=click.Choice(IN_FORMATS), help="Input format (default: detected).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--compact", is_flag=True, help="Leave the profile out of each JSONL line.")
def tag(input: str, lang: str | None, output: str | None, fmt: str, input_format: str | None,
        no_progress: bool, compact: bool) -> None:
    """Tag every card of INPUT with its Summoning Conditions.

    INPUT is a ygopro/EDOPro cards.cdb, yaml-yugi JSONL, YGOPRODeck JSON, i18n JSON
    ({"cards": [{id, name, lore}]}) or JSONL of {id, name, text, lang[, type, level]}.  Without
    --lang the language of a cdb / JSON file is guessed from its texts.  Writes one object per
    card: id, name, lang, tags, conditions, tributes, profile, registers, warnings (and error for
    a card that could not be read).  The summary counts cards, cards with at least one tag,
    error lines and seconds.
    """
    from .pipeline import analyze
    from .patterns import load_catalog

    _check_lang(lang)
    t0 = time.perf_counter()
    try:
        items = read_cards(input, lang, input_format)
        cat = load_catalog()
        writer = Writer(output, fmt)
    except (InputError, ValueError) as e:
        raise click.ClickException(str(e))
    n = tagged = errors = 0
    show = not no_progress and sys.stderr.isatty() and output not in (None, "-")
    progress = None
    if show:
        from rich.progress import Progress, SpinnerColumn, TextColumn, BarColumn, TimeElapsedColumn
        progress = Progress(SpinnerColumn(), TextColumn("tagging"), BarColumn(), TextColumn("{task.completed} cards"),
                            TimeElapsedColumn(), transient=True)
        progress.start()
        task = progress.add_task("tag", total=None)
    try:
        with writer:
            for item in items:
                n += 1
                if item.card is None:
                    errors += 1
                    writer.write({"id": item.id, "name": item.name, "lang": lang or "en", "tags": [], "error": item.error})
                    continue
                res = analyze(item.card, cat)
                if item.warnings:
                    res.warnings[:0] = item.warnings
                if res.error:
                    errors += 1
                elif res.tags:
                    tagged += 1
                obj = res.model_dump(mode="json")
                if obj.get("error") is None:
                    obj.pop("error", None)  # a present "error" key marks a failed card
                if compact:
                    obj.pop("profile", None)
                writer.write(obj)
                if progress is not None and n % 200 == 0:
                    progress.update(task, completed=n)
    except InputError as e:
        raise click.ClickException(str(e))
    except BrokenPipeError:  # e.g. `tag ... | head`: the reader went away, nothing to report
        sys.stderr.close()
        sys.exit(0)
    except OSError as e:  # e.g. -o names a folder, disk full: the atomic writer left no file
        raise click.ClickException(f"cannot write the output ({e}); nothing written")
    except KeyboardInterrupt:
        click.echo("interrupted: no output written", err=True)
        sys.exit(130)
    finally:
        if progress is not None:
            progress.stop()
    dt = time.perf_counter() - t0
    click.echo(f"cards {n}, tagged {tagged}, errors {errors}, seconds {dt:.2f}", err=True)


@main.command()
@click.argument("text", required=False)
@click.option("--lang", default="en", show_default=True, help="Language of TEXT (or of INPUT's texts).")
@click.option("--type", "type_line", help='Type line of the card, e.g. "Dragon / Synchro / Effect".')
@click.option("--level", type=int, help="Level / Rank / Link Rating.")
@click.option("--id", "card_id", type=int, help="Explain card N of --input instead of TEXT.")
@click.option("--input", "input_path", type=click.Path(dir_okay=False), help="Card database for --id.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def explain(text: str | None, lang: str, type_line: str | None, level: int | None, card_id: int | None,
            input_path: str | None, as_json: bool) -> None:
    """Show each condition of TEXT with the phrase that matched and the pattern, then the profile."""
    from .explain import render
    from .frame import Frame
    from .pipeline import Card, analyze

    _check_lang(lang)
    if card_id is not None and text is not None:
        raise click.UsageError("give TEXT, or --id N --input FILE, not both")
    if card_id is not None:
        if not input_path:
            raise click.UsageError("--id needs --input FILE")
        try:
            found = next((it for it in read_cards(input_path, lang) if (it.card and it.card.id == card_id) or it.id == card_id), None)
        except InputError as e:
            raise click.ClickException(str(e))
        if found is None:
            raise click.ClickException(f"card {card_id} not found in {input_path}")
        if found.card is None:
            raise click.ClickException(found.error or f"card {card_id}: unreadable")
        card = found.card
    elif text is not None:
        card = Card(id=None, name="", lang=lang, text=text, frame=Frame.from_type_line(type_line, level) if type_line else Frame(level=level))
    else:
        raise click.UsageError("give TEXT, or --id N --input FILE")
    res = analyze(card)
    if as_json:
        click.echo(orjson.dumps(res.model_dump(mode="json"), option=orjson.OPT_INDENT_2).decode())
        return
    render(card, res)


@main.command()
@click.option("-o", "--output", help="Write the schema to FILE instead of standard output.")
def schema(output: str | None) -> None:
    """Print the JSON Schema of one output line of `tag`."""
    from .pipeline import CardResult

    data = orjson.dumps(CardResult.model_json_schema(), option=orjson.OPT_INDENT_2)
    if output:
        Path(output).write_bytes(data + b"\n")
    else:
        click.echo(data.decode())


from .judge_cli import judge; main.add_command(judge)  # noqa: E402,E702  (summoning rules core)

from .validate_cli import validate; main.add_command(validate)  # noqa: E402,E702  (translation validation)

from .audit_cli import audit; main.add_command(audit)  # noqa: E402,E702  (card database audit)


if __name__ == "__main__":  # pragma: no cover
    main()
