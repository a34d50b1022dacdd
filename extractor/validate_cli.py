"""``ygo-extractor validate``: compare the Summoning Conditions of translated card texts
(see :mod:`extractor.validate`).

Options: ``--input-format`` for both inputs (``--source-format`` / ``--target-format`` override
it), ``--fail-on SEVERITY`` (exit 1 when the report holds a mismatch at or above it),
``--ignore-missing`` (cards on one side only stay out of the report), ``--no-progress`` (the
progress bar shows only on a terminal), ``--min-severity`` (every item below it is left out of
``-o``, ``--html``, the table and ``--fail-on``: :func:`at_or_above`).  Ctrl-C exits 130 with one
line; a missing input file and a refused output (:func:`extractor.writers.check_outputs`) are
usage errors (2) that name the file.
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator

import click
import orjson

from .readers import FORMATS as IN_FORMATS, InputError


def _check_lang(lang: str | None, hint: str) -> None:
    from .normalize import lang_family

    if lang is not None:
        try:
            lang_family(lang)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=hint)


_SEVERITIES = ("high", "medium", "low")
_RANK = {s: i for i, s in enumerate(_SEVERITIES)}


#: card problems of a card that was not compared (one side missing, an empty text)
_NOT_COMPARED = frozenset({"card-missing-in-source", "card-missing-in-target", "empty-text"})


def at_or_above(rep, min_severity: str):
    """``rep`` with every reported item below ``min_severity`` left out: condition mismatches AND
    card problems (a card on one side only and a text with no final punctuation are ``low``), so
    that ``-o``, ``--html``, the summary table and ``--fail-on`` all see the same items.

    Input: a :class:`~extractor.validate.ValidationReport` and ``high`` / ``medium`` / ``low``.
    Output: a new report (``rep`` is not changed): a card left with no item is dropped, and counts
    as agreeing when it was compared (both texts present and not empty).  Raises ``KeyError`` for
    an unknown severity.
    """
    cut = _RANK[min_severity]
    kept, agreeing = [], rep.cards_agreeing
    for c in rep.cards:
        mm = [m for m in c.mismatches if _RANK[m.severity] <= cut]
        if mm:
            kept.append(c if len(mm) == len(c.mismatches) else c.model_copy(update={"mismatches": mm}))
        elif not any(m.kind in _NOT_COMPARED for m in c.mismatches):
            agreeing += 1
    return rep.model_copy(update={"cards": kept, "cards_agreeing": agreeing})


@click.command("validate")
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("targets", metavar="[TARGET]...", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--source-lang", help="Language of SOURCE (en, zh-CN, zh-TW, ja, ...). Default: guessed from the texts.")
@click.option("--target-lang", "target_langs", multiple=True, help="Language of TARGET. Default: guessed. Required "
              "with one multilingual file. With --reference: give it once per translation, in the order of the "
              "TARGET files (or, with one multilingual file, the translations to compare).")
@click.option("--reference", "reference", metavar="LANG", help="Reference mode: SOURCE is the ORIGINAL text, in LANG "
              "(ja: every card is written first in Japanese), and every translation (each TARGET file, or each "
              "--target-lang of one multilingual SOURCE) is compared with it; each difference says which "
              "translation departs from the original, in which slot, with the values of every text, and whether "
              "all translations agree with each other against the original (a likely misreading of it, or an "
              "errata). -o writes format validate-reference/1.")
@click.option("--input-format", type=click.Choice(IN_FORMATS), help="Input format of both inputs (default: detected).")
@click.option("--source-format", type=click.Choice(IN_FORMATS), help="Input format of SOURCE (overrides --input-format).")
@click.option("--target-format", type=click.Choice(IN_FORMATS), help="Input format of TARGET (overrides --input-format).")
@click.option("-o", "--output", help="Write one JSON object per card with a problem to FILE ('-' = standard output). "
              "Written atomically.")
@click.option("--html", "html_path", help="Write a self-contained HTML report to FILE.")
@click.option("--html-limit", type=int, default=5000, show_default=True,
              help="At most this many cards in the HTML report (0 = all).")
@click.option("--ignore-missing", is_flag=True, help="Leave cards present on one side only out of the report.")
@click.option("--min-severity", type=click.Choice(_SEVERITIES), default="medium", show_default=True,
              help="Leave out every item below this severity, in -o, --html, the table and --fail-on: condition "
                   "mismatches (low ones are often wording only: Set allowed under Chinese 通常召唤, procedure vs "
                   "effect in older Chinese) and card problems (a card on one side only and a text with no final "
                   "punctuation are low: give --min-severity low to see them).")
@click.option("--fail-on", type=click.Choice(_SEVERITIES), help="Exit with status 1 when the report holds a "
              "mismatch or card problem of this severity or worse (for CI jobs); must not be below --min-severity.")
@click.option("--errors", "errors_path", help="Write every record that could not be read or paired (one line "
              "each, prefixed source: / target:) to FILE; the terminal lists the first 20.")
@click.option("--include-effects", is_flag=True, help="Also report effects (a self-Summon effect, an additional "
              "Normal Summon) found on one side only; by default only Summoning Conditions are reported.")
@click.option("--no-progress", is_flag=True, help="No progress bar (it shows only on a terminal).")
def validate(source: str, targets: tuple[str, ...], source_lang: str | None, target_langs: tuple[str, ...],
             reference: str | None, input_format: str | None, source_format: str | None, target_format: str | None,
             output: str | None, html_path: str | None, html_limit: int, ignore_missing: bool, min_severity: str,
             fail_on: str | None, include_effects: bool, errors_path: str | None, no_progress: bool) -> None:
    """Compare the Summoning Conditions of SOURCE and its translation TARGET, card by card.

    Cards are paired by passcode.  SOURCE and TARGET are any input `tag` reads (cards.cdb,
    yaml-yugi JSONL, YGOPRODeck JSON, JSONL); with one multilingual file (yaml-yugi) leave TARGET
    out and give --source-lang and --target-lang.  Reports conditions missing in the target,
    extra in the target, or differing in a slot (locations, method, first/only, Tribute count,
    Set allowed), and card problems (missing card, empty, truncated or unanalyzable text, a text in
    another language than asked).

    Against the original (--reference LANG): `validate cards.jsonl --reference ja --target-lang en
    --target-lang zh-CN` (one multilingual file) or `validate JA_FILE EN_FILE ZH_FILE --reference
    ja --target-lang en --target-lang zh-CN` (one file per text) compare every translation with
    the Japanese and say which one departs (docs/ja-validate.md).

    Exit status: 0 done; 1 --fail-on found a mismatch at or above its severity, or the output
    could not be written; 2 usage error, a missing input file (named) or a refused output (an
    input itself, a write-protected file, two of -o / --html / --errors in one file), checked
    before any work; 130 Ctrl-C.
    """
    from .cli import require_input
    from .writers import OutputError, check_outputs

    _check_lang(source_lang, "--source-lang")
    for lg in target_langs:
        _check_lang(lg, "--target-lang")
    _check_lang(reference, "--reference")
    if reference is not None and source_lang is not None and source_lang != reference:
        raise click.UsageError(f"--source-lang {source_lang} and --reference {reference}: the reference is SOURCE, "
                               "give its language once")
    if reference is None and (len(targets) > 1 or len(target_langs) > 1):
        raise click.UsageError("several translations (TARGET files or --target-lang values) need --reference LANG")
    require_input(source, "SOURCE")
    for t in targets:
        require_input(t, "TARGET")
    try:
        check_outputs({"-o": output, "--html": html_path, "--errors": errors_path}, [source, *targets])
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint=e.option)
    if fail_on is not None and _RANK[fail_on] > _RANK[min_severity]:
        raise click.UsageError(f"--fail-on {fail_on} is below --min-severity {min_severity}: such mismatches are "
                               f"not reported (give --min-severity {fail_on})")
    if reference is not None:
        _reference_mode(source, targets, reference, target_langs, source_format or input_format,
                        target_format or input_format, output, html_path, html_limit, ignore_missing, min_severity,
                        fail_on, include_effects, errors_path, no_progress)
        return
    target = targets[0] if targets else None
    target_lang = target_langs[0] if target_langs else None
    if target is None and not (source_lang and target_lang):
        raise click.UsageError("with one input file give both --source-lang and --target-lang")
    if target is None:
        from .readers import yaml_yugi_key
        if yaml_yugi_key(source_lang) == yaml_yugi_key(target_lang):  # zh-Hans and zh-CN: one text compared to itself
            raise click.UsageError(f"--source-lang {source_lang} and --target-lang {target_lang} name the same texts "
                                   f"({yaml_yugi_key(source_lang)}) of one file: give two different languages")
    try:
        _run(source, target, source_lang, target_lang, source_format or input_format, target_format or input_format,
             output, html_path, html_limit, ignore_missing, min_severity, fail_on, include_effects, errors_path,
             no_progress)
    except KeyboardInterrupt:
        click.echo("interrupted: no output written", err=True)
        sys.exit(130)


def _run(source, target, source_lang, target_lang, source_format, target_format, output, html_path, html_limit,
         ignore_missing, min_severity, fail_on, include_effects, errors_path, no_progress) -> None:
    from .validate import validate as run

    t0 = time.perf_counter()
    try:
        with _comparing("comparing", not no_progress and output != "-") as progress:
            rep = run(source, target, source_lang=source_lang, target_lang=target_lang, source_format=source_format,
                      target_format=target_format, include_missing=not ignore_missing,
                      include_effects=include_effects, min_severity=min_severity, progress=progress)
    except (InputError, ValueError) as e:
        raise click.ClickException(str(e))
    rep = at_or_above(rep, min_severity)
    dt = time.perf_counter() - t0
    try:
        _write(rep, output, html_path, html_limit)
        if errors_path:
            from .writers import atomic_path
            with atomic_path(errors_path) as tmp:
                tmp.write_text("".join(e + "\n" for e in rep.read_errors), encoding="utf-8")
        if any(p and p != "-" for p in (output, html_path, errors_path)):  # issue 12 §3: <file>.meta.json beside each
            from .meta import build_meta, write_sidecars
            write_sidecars([output, html_path, errors_path], build_meta("validate", [source, target][:2 if target else 1]))
    except OSError as e:  # -o names a folder, disk full, ...: the atomic writer left no partial file
        raise click.ClickException(f"cannot write the output ({e}); nothing written")
    _summary(rep, dt)
    if fail_on is not None:
        n = failing(rep, fail_on)
        if n:
            click.echo(f"{n} mismatch{'es' if n != 1 else ''} of severity {fail_on} or worse (--fail-on {fail_on})",
                       err=True)
            sys.exit(1)


def failing(rep, severity: str) -> int:
    """Number of mismatches and card problems in ``rep`` of ``severity`` or worse (the CLI
    counts them in the report :func:`at_or_above` filtered, so ``--fail-on`` sees what is
    reported)."""
    cut = _RANK[severity]
    return sum(1 for c in rep.cards for m in c.mismatches if _RANK[m.severity] <= cut)


@contextmanager
def _comparing(label: str, show: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error while cards are compared: yields the ``progress(done,
    total)`` callback validate takes, or ``None`` when ``show`` is false or standard error is no
    terminal (no bar).  The bar is removed when the block ends, also on an error."""
    if not (show and sys.stderr.isatty()):
        yield None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    bar = Progress(SpinnerColumn(), TextColumn(label), BarColumn(),
                   TextColumn("{task.completed}/{task.total} cards"), TimeElapsedColumn(), transient=True)
    task = None

    def progress(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            task = bar.add_task("validate", total=total)
        if done % 200 == 0 or done == total:
            bar.update(task, completed=done)

    bar.start()
    try:
        yield progress
    finally:
        bar.stop()


def _write(rep, output: str | None, html_path: str | None, html_limit: int, reference: bool = False) -> None:
    """Write a validate report: its JSONL lines to ``output`` (``-``: standard output; a file is
    replaced atomically) and its HTML page to ``html_path`` (at most ``html_limit`` cards, 0: all).
    ``reference``: ``rep`` is a ``--reference`` report (its own lines and page).  Raises
    ``OSError`` from the file system."""
    from .validate import iter_output, iter_reference_output, render_html, render_reference_html
    from .writers import atomic_path

    lines, page = (iter_reference_output, render_reference_html) if reference else (iter_output, render_html)
    if output:
        if output == "-":
            for obj in lines(rep):
                sys.stdout.buffer.write(orjson.dumps(obj) + b"\n")
            sys.stdout.flush()
        else:
            with atomic_path(output) as tmp, open(tmp, "wb") as f:
                for obj in lines(rep):
                    f.write(orjson.dumps(obj) + b"\n")
    if html_path:
        with atomic_path(html_path) as tmp:
            tmp.write_text(page(rep, max_cards=html_limit or None), encoding="utf-8")


_MAX_ERRORS = 20  # reader errors listed on the terminal; --errors FILE gets all


def _summary(rep, dt: float) -> None:
    from rich.console import Console
    from rich.table import Table

    from .validate import ALL_KINDS

    con = Console(stderr=True)
    t = Table(title=f"validate {rep.source_lang} -> {rep.target_lang}", show_header=True)
    t.add_column("")
    t.add_column("cards", justify="right")
    t.add_column("mismatches", justify="right")
    t.add_row("cards compared", str(rep.cards_compared), "")
    t.add_row("agreeing", str(rep.cards_agreeing), "")
    t.add_row("mismatching (conditions)", str(rep.cards_mismatching), "")
    cc, mc = rep.card_counts(), rep.mismatch_counts()
    for k in ALL_KINDS:
        if cc.get(k) or k in ("missing-in-target", "extra-in-target", "slot-differs"):
            t.add_row(f"  {k}", str(cc.get(k, 0)), str(mc.get(k, 0)))
    sev = rep.severity_counts(conditions_only=True)
    t.add_row("condition mismatches high / medium / low", "", f"{sev['high']} / {sev['medium']} / {sev['low']}")
    con.print(t)
    if rep.read_errors:
        n = len(rep.read_errors)
        con.print(f"{n} record{'s' if n != 1 else ''} could not be read or paired (not compared):", markup=False)
        for e in rep.read_errors[:_MAX_ERRORS]:
            con.print(f"  {e}", markup=False, highlight=False)
        if len(rep.read_errors) > _MAX_ERRORS:
            con.print(f"  ... and {len(rep.read_errors) - _MAX_ERRORS} more (all of them: --errors FILE)", markup=False)
    con.print(f"seconds {dt:.2f}")


def _reference_mode(source, targets, reference, target_langs, source_format, target_format, output, html_path,
                    html_limit, ignore_missing, min_severity, fail_on, include_effects, errors_path,
                    no_progress) -> None:
    """``validate --reference LANG``: check the inputs, run :func:`extractor.validate.validate_reference`,
    write ``-o`` (format ``validate-reference/1``), ``--html``, ``--errors`` and their ``.meta.json``
    sidecars, print the summary per translation; exit 1 on ``--fail-on``, 130 on Ctrl-C."""
    if not targets:
        if not target_langs:
            raise click.UsageError("--reference with one input file: give each translation with --target-lang")
        from .readers import yaml_yugi_key
        keys = [yaml_yugi_key(lg) for lg in (reference, *target_langs)]
        if len(set(keys)) != len(keys):
            raise click.UsageError(f"--reference {reference} and --target-lang {' '.join(target_langs)} name the same "
                                   "texts of one file twice: give different languages")
        translations: list = [None] * len(target_langs)
    else:
        if len(target_langs) > len(targets):
            raise click.UsageError(f"{len(target_langs)} --target-lang values for {len(targets)} TARGET files")
        translations = list(targets)
    try:
        rep, dt = _run_reference(source, translations, reference, list(target_langs), source_format, target_format,
                                 ignore_missing, min_severity, include_effects, no_progress or output == "-")
    except KeyboardInterrupt:
        click.echo("interrupted: no output written", err=True)
        sys.exit(130)
    try:
        _write(rep, output, html_path, html_limit, reference=True)
        if errors_path:
            from .writers import atomic_path
            with atomic_path(errors_path) as tmp:
                tmp.write_text("".join(e + "\n" for e in rep.read_errors), encoding="utf-8")
        if any(p and p != "-" for p in (output, html_path, errors_path)):
            from .meta import build_meta, write_sidecars
            write_sidecars([output, html_path, errors_path], build_meta("validate", [source, *targets]))
    except OSError as e:
        raise click.ClickException(f"cannot write the output ({e}); nothing written")
    _reference_summary(rep, dt)
    if fail_on is not None:
        cut = _RANK[fail_on]
        n = sum(1 for c in rep.cards for f in c.findings if _RANK[f.severity] <= cut)
        if n:
            click.echo(f"{n} finding{'s' if n != 1 else ''} of severity {fail_on} or worse (--fail-on {fail_on})",
                       err=True)
            sys.exit(1)


def _run_reference(source, translations, reference, target_langs, source_format, target_format, ignore_missing,
                   min_severity, include_effects, no_progress):
    from .validate import validate_reference

    t0 = time.perf_counter()
    try:
        with _comparing("comparing with the reference", not no_progress) as progress:
            rep = validate_reference(source, translations, reference_lang=reference, translation_langs=target_langs,
                                     reference_format=source_format, translation_format=target_format,
                                     include_missing=not ignore_missing, include_effects=include_effects,
                                     min_severity=min_severity, progress=progress)
    except (InputError, ValueError) as e:
        raise click.ClickException(str(e))
    return rep, time.perf_counter() - t0


def _reference_summary(rep, dt: float) -> None:
    """The terminal summary of a reference run: one row per translation (compared, agreeing, cards
    where it departs alone / with the others, findings where it departs alone per kind, card
    problems), then cards per verdict."""
    from rich.console import Console
    from rich.table import Table

    from .validate.reference import REFERENCE_KINDS

    con = Console(stderr=True)
    s = rep.summary()

    t = Table(title=f"validate against the {rep.reference_lang} reference", show_header=True, box=None, pad_edge=False,
              padding=(0, 1))
    width = max([4, *(len(lg) for lg in rep.translation_langs)])
    for col in ("text", "compared", "agreeing", "alone", "w/ other", "missing", "extra", "slot", "problems"):
        t.add_column(col, justify="left" if col == "text" else "right", no_wrap=True,
                     min_width=width if col == "text" else len(col))

    for lg, d in s["translations"].items():
        t.add_row(lg, str(d["compared"]), str(d["agreeing"]), str(d["departs_alone"]), str(d["departs_with_others"]),
                  *(str(d["findings_alone"][k]) for k in REFERENCE_KINDS), str(d["card_problems"]))
    con.print(t)
    con.print("alone / w/ other: cards where that translation departs from the reference alone / with another "
              "translation; missing, extra, slot: its departures alone, per kind; problems: cards with a problem of that "
              "text", markup=False, highlight=False)
    v = s["verdicts"]
    con.print(f"cards per verdict: one translation departs {v['one']}, all agree against {rep.reference_lang} "
              f"{v['all-agree']}, all differ {v['all-differ']}, some {v['some']}; problems of the "
              f"{rep.reference_lang} text {s['reference_problems']}", markup=False, highlight=False)
    for lg, nr in rep.not_read.items():
        if nr:
            con.print(f"not compared, {rep.reference_lang} or {lg} never reads it (differences): "
                      + ", ".join(f"{k} {v}" for k, v in sorted(nr.items(), key=lambda kv: -kv[1])),
                      markup=False, highlight=False)
    if rep.read_errors:
        n = len(rep.read_errors)
        con.print(f"{n} record{'s' if n != 1 else ''} could not be read or paired (not compared):", markup=False)
        for e in rep.read_errors[:_MAX_ERRORS]:
            con.print(f"  {e}", markup=False, highlight=False)
        if n > _MAX_ERRORS:
            con.print(f"  ... and {n - _MAX_ERRORS} more (all of them: --errors FILE)", markup=False)
    con.print(f"seconds {dt:.2f}")
