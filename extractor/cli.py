"""The ``ygo-extractor`` command line: ``tag``, ``explain``, ``judge``, ``validate``, ``audit``, ``schema``.

Start-up is kept short: at load time this module imports only click.  The pipeline, the pydantic
models, rich, the readers and writers and the ``judge`` / ``validate`` / ``audit`` modules are
imported inside the command that needs them, so ``--version`` loads none of them.

Options mean the same in every command: the input file is the positional argument (``-`` is
standard input), ``--input-format`` names its format (default: detected), ``--lang`` the
language of its texts (default: guessed for a cdb / YGOPRODeck / i18n file, ``en`` otherwise),
``--json`` asks for JSON output.

Exit status, the same for every command:

- 0: done (``tag``: the output was written, even if some cards became error lines);
- 1: the command failed: ``tag`` when every card failed (and there was at least one), the
  output could not be written (disk full ...), ``judge --check`` found a failing scenario;
- 2: usage error, including a missing input file (named) and a refused output (the input
  itself, write-protected, a missing folder, two outputs in one file, an extension that
  disagrees with ``--format``, ``--format sqlite`` without ``-o``);
- 130: Ctrl-C; 128 + N: signal N (SIGTERM 143, SIGHUP 129).  One line on standard error, no
  traceback, and no output file, temporary file or SQLite journal is left behind.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from contextlib import contextmanager
from typing import Iterator

import click

#: input formats (``extractor.readers.FORMATS``; repeated here so that the CLI starts without
#: importing the readers and the pipeline: tests/test_cli.py checks the two agree)
IN_FORMATS = ("cdb", "yaml-yugi", "ygoprodeck", "i18n", "jsonl")
#: output formats of ``tag`` (``extractor.writers.FORMATS``, checked the same way)
OUT_FORMATS = ("jsonl", "csv", "sqlite")

#: English words a ``--type`` line may hold (yaml-yugi ``monster_type_line`` such as
#: ``"Dragon / Synchro / Tuner / Effect"``, YGOPRODeck ``type`` such as ``"Synchro Pendulum
#: Effect Monster"`` / ``"Spell Card"``), split like :meth:`Frame.from_type_line` splits them
#: (on spaces, ``/`` and ``-``, lower case).  ``Frame.from_type_line`` ignores other words, so
#: ``explain`` rejects them instead of silently dropping a misspelt frame.
TYPE_WORDS = frozenset(
    # monster Types
    "aqua beast warrior winged creator god cyberse dinosaur divine dragon fairy fiend fish illusion insect "
    "machine plant psychic pyro reptile rock sea serpent spellcaster thunder wyrm zombie "
    # frames and abilities
    "normal effect fusion ritual synchro xyz link pendulum tuner gemini spirit toon union flip token "
    # card kinds, Spell / Trap properties, YGOPRODeck's words
    "monster spell trap card quick play continuous field equip counter skill".split())

#: the highest Level / Rank / Link Rating a card has (Level 12 monsters and Rank 13 Xyz Monsters);
#: ``explain --level`` outside 0..MAX_LEVEL is a usage error
MAX_LEVEL = 13

_LANG_HELP = ("Language of the texts: en, zh-CN, zh-TW, ja (yaml-yugi picks that text). Default: guessed from the "
              "texts of a cdb / YGOPRODeck / i18n file, en otherwise; a JSONL record's own 'lang' wins.")
_INPUT_FORMAT_HELP = "Input format (default: detected from the file)."


class Terminated(BaseException):
    """Raised in the main thread when SIGTERM or SIGHUP arrives, so that every ``finally`` and
    context manager (the atomic writer) cleans up before the process exits with 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


#: signals received while a command runs, in order.  A handler's exception can be swallowed
#: when the signal arrives while Python runs a finalizer ("Exception ignored in ..."), so long
#: loops also call :func:`check_signals` and the group checks this list when a command returns.
_PENDING: list[int] = []


def _signal_exception(signum: int) -> BaseException:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def _on_signal(signum: int, frame) -> None:
    _PENDING.append(signum)
    if signum != signal.SIGINT:
        signal.signal(signum, signal.SIG_IGN)  # a second SIGTERM / SIGHUP must not interrupt the clean-up
    raise _signal_exception(signum)


def check_signals() -> None:
    """Raise KeyboardInterrupt / :class:`Terminated` for a signal received while the command runs
    whose exception was swallowed (see :data:`_PENDING`); call it once per item in long loops.

    Raises:
        KeyboardInterrupt: SIGINT arrived.  Terminated: SIGTERM or SIGHUP arrived.
    """
    if _PENDING:
        raise _signal_exception(_PENDING[0])


@contextmanager
def _fewer_collections(threshold: int = 50_000) -> Iterator[None]:
    """Run the cyclic garbage collector's youngest generation every ``threshold`` allocations
    instead of every 700 for the block or the decorated command (the previous thresholds come
    back after it).  Reading a file allocates a container per JSON value and each card thousands
    of short-lived objects that reference counting frees; the collections those allocations
    trigger find almost nothing, and the full ones walk every card read so far: ~3 % of a
    ``tag`` run's CPU (zh-CN yaml-yugi: 276 collections, 0.09 s).  Objects in reference cycles (a
    caught exception's traceback) are still collected, later."""
    import gc

    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@contextmanager
def _signals_raise() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt and SIGTERM / SIGHUP raise :class:`Terminated` while the
    block runs (main thread only), each also recorded in :data:`_PENDING`; a signal that was
    ignored when the command started (``nohup``, SIGINT of a background job) stays ignored; the
    previous handlers are restored afterwards."""
    old = {}
    _PENDING.clear()
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            if signal.getsignal(sig) == signal.SIG_IGN:  # nohup, a background job: stay ignored
                continue
            old[sig] = signal.signal(sig, _on_signal)
        except (ValueError, OSError):  # not the main thread (e.g. an embedding application)
            pass
    old_hook = sys.unraisablehook

    def quiet_hook(unraisable) -> None:  # our signal exception swallowed by a finalizer: acted on later
        if not (_PENDING and isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated))):
            old_hook(unraisable)

    sys.unraisablehook = quiet_hook
    try:
        yield
    finally:
        sys.unraisablehook = old_hook
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _stop(code: int, message: str) -> None:
    try:
        click.echo(message, err=True)
    except Exception:  # noqa: BLE001 - standard error gone: the exit status still tells
        pass
    sys.exit(code)


def _quiet_stdout() -> None:
    """Point file descriptor 1 at /dev/null after standard output failed (full disk, closed
    pipe), so that Python's flush at exit does not print a second error.  No-op when standard
    output has no file descriptor (click's CliRunner)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(fd, sys.stdout.fileno())
        finally:
            os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def _os_error(e: OSError) -> str:
    import errno
    what = e.strerror or str(e) or type(e).__name__
    what = what[0].lower() + what[1:]
    if e.filename:
        return f"{e.filename}: {what}"
    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
        return f"cannot write the output: {what}"
    return what


class _Main(click.Group):
    """The command group: loads ``judge``, ``validate`` and ``audit`` only when they are called, and turns
    Ctrl-C and SIGTERM / SIGHUP into a one-line message and exit 130 / 128 + N."""

    lazy = {"judge": ("extractor.judge_cli", "judge"), "validate": ("extractor.validate_cli", "validate"),
            "audit": ("extractor.audit_cli", "audit"), "query": ("extractor.query_cli", "query")}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy and name not in self.commands:
            import importlib
            module, attr = self.lazy[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        with _signals_raise():
            try:
                rv = super().invoke(ctx)
                check_signals()  # a signal whose exception a finalizer swallowed
                return rv
            except KeyboardInterrupt:
                _stop(130, "interrupted")
            except Terminated as e:
                _stop(128 + e.signum, f"terminated by {e.name}")
            except BrokenPipeError:  # `explain ... | head`: the reader went away, nothing to report
                _quiet_stdout()
                sys.exit(0)
            except OSError as e:  # e.g. standard output on a full disk: one line, no traceback
                _quiet_stdout()
                _stop(1, f"Error: {_os_error(e)}")


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ygo-extractor")
def main() -> None:
    """Read Yu-Gi-Oh! card text (English, Simplified and Traditional Chinese, Japanese) and extract its
    Summoning Conditions.

    Exit status: 0 done, 1 failed (tag: every card failed; the output could not be written, e.g.
    a full disk; judge --check failures), 2 usage error, missing input file or refused output (the
    input, write-protected, missing folder), 130 Ctrl-C, 128+N signal N.
    """


def _check_lang(lang: str | None) -> None:
    if lang is not None:
        from .normalize import lang_family
        try:
            lang_family(lang)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--lang")


def require_input(path: str, hint: str) -> None:
    """Exit 2 with a message naming ``path`` when it is missing or a folder (``-`` = standard
    input, always accepted).

    Raises:
        click.BadParameter: ``"no such file: PATH"`` / ``"PATH is a folder, expected a file"``.
    """
    if path == "-":
        return
    if not os.path.exists(path):
        raise click.BadParameter(f"no such file: {path}", param_hint=hint)
    if os.path.isdir(path):
        raise click.BadParameter(f"{path} is a folder, expected a card database file", param_hint=hint)


def check_type_line(type_line: str) -> None:
    """Reject a ``--type`` holding a word that is neither a monster Type, a frame or ability, a
    card kind nor a Spell / Trap property (:data:`TYPE_WORDS`).

    Raises:
        click.BadParameter: naming the unknown word(s).
    """
    words = type_line.replace("/", " ").replace("-", " ").split()
    unknown = [w for w in words if w.lower() not in TYPE_WORDS]
    if not words:
        raise click.BadParameter("empty type line", param_hint="--type")
    if unknown:
        raise click.BadParameter(
            f"{', '.join(repr(w) for w in unknown)} {'is' if len(unknown) == 1 else 'are'} not a card type word "
            f"in {type_line!r} (e.g. \"Dragon / Synchro / Effect\", \"Spell Card\")", param_hint="--type")


def _summary(n: int, tagged: int, errors: int, mismatch: int, seconds: float, partial: int = 0) -> str:
    return (f"cards {n}, tagged {tagged}, errors {errors}, language mismatch {mismatch}, partial {partial}, "
            f"seconds {seconds:.2f}")


@main.command()
@click.argument("input", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--lang", help=_LANG_HELP)
@click.option("-o", "--output", help="Output file (default: standard output). Written atomically; never the input, "
              "never a write-protected file.")
@click.option("--format", "fmt", type=click.Choice(OUT_FORMATS),
              help="Output format (default: from the extension of -o: .jsonl/.json jsonl, .csv csv, .db/.sqlite "
                   "sqlite; else jsonl).")
@click.option("--json", "as_json", is_flag=True, help="JSON output: the same as --format jsonl.")
@click.option("--input-format", type=click.Choice(IN_FORMATS), help=_INPUT_FORMAT_HELP)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--compact", is_flag=True, help="Leave the profile out of each JSONL line.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes for the cards (0: one per CPU); the output is the same, in the same order.")
@_fewer_collections()
def tag(input: str, lang: str | None, output: str | None, fmt: str | None, as_json: bool,
        input_format: str | None, no_progress: bool, compact: bool, jobs: int) -> None:
    """Tag every card of INPUT with its Summoning Conditions.

    INPUT is a ygopro/EDOPro cards.cdb, yaml-yugi JSONL, YGOPRODeck JSON, i18n JSON
    ({"cards": [{id, name, lore}]}) or JSONL of {id, name, text, lang[, type, level]}; "-" (or
    /dev/stdin) reads standard input.  Writes one object per card: id, name, lang, tags,
    conditions, tributes, profile, registers, procedures, materials, tribute_rules, coverage,
    unread, warnings (and error for a card that could not be read).  The summary line counts
    cards, cards with at least one tag, error lines, cards whose text is not in the language asked
    for ("language mismatch"), cards whose summoning wording was not all read ("partial": their
    coverage), and seconds.  Exits 1 when every card failed.
    """
    from .writers import OutputError, check_output, output_format

    if as_json:
        if fmt not in (None, "jsonl"):
            raise click.BadParameter(f"--json means --format jsonl, not {fmt}", param_hint="--json")
        fmt = "jsonl"
    try:
        fmt = output_format(output, fmt)
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="--format")
    if fmt == "sqlite" and output in (None, "-"):  # a usage error (2), before any work
        raise click.BadParameter("--format sqlite needs -o FILE (a database cannot go to standard output)",
                                 param_hint="--format")
    require_input(input, "INPUT")
    try:
        check_output(output, [input])
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="-o")
    _check_lang(lang)

    from .parallel import analyze_items
    from .patterns import load_catalog
    from .pipeline import dump_result
    from .readers import InputError, open_input, read_cards
    from .writers import Writer
    from .meta import output_meta

    t0 = time.perf_counter()
    try:
        src = open_input(input)
        items = read_cards(src, lang, input_format)
        from .structure import input_names, resolve_names
        names = None
        if input != "-":  # named Fusion Materials -> passcodes: a first pass over the file's names
            import gc

            # the cards read stay to the end, and reading makes no cyclic garbage: no collection while
            # reading (each walked every card read so far: two took ~0.05 s of CPU on yaml-yugi), and
            # none after it (gc.freeze: the collector never walks them again)
            collecting = gc.isenabled()
            gc.disable()
            try:
                items = list(items)
                names = input_names([it.card for it in items if it.card])
            finally:
                gc.freeze()  # (also starts the youngest generation's count afresh)
                if collecting:
                    gc.enable()
        cat = load_catalog()
        writer = Writer(output, fmt, meta=output_meta("tag", [input], output, {input: src.digest} if src.digest else None))
    except (InputError, ValueError) as e:
        raise click.ClickException(str(e))
    n = tagged = errors = mismatch = partial = 0
    to_file = output not in (None, "-")
    show = not no_progress and sys.stderr.isatty() and to_file
    progress = None
    if show:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        progress = Progress(SpinnerColumn(), TextColumn("tagging"), BarColumn(), TextColumn("{task.completed} cards"),
                            TimeElapsedColumn(), transient=True, console=Console(stderr=True))
        progress.start()
        task = progress.add_task("tag", total=None)
    lost = "no output written" if to_file else "output incomplete"

    def stop_progress() -> None:  # before any message, so that the bar does not swallow or repeat it
        nonlocal progress
        if progress is not None:
            progress.stop()
            progress = None

    parts = fmt == "jsonl"
    try:
        with writer:
            for item, res in analyze_items(items, cat, jobs):
                check_signals()
                n += 1
                if item.card is None:
                    errors += 1
                    writer.write({"id": item.id, "name": item.name, "lang": lang or "en", "tags": [], "error": item.error})
                    continue
                if names is not None and res.materials:
                    resolve_names(res.materials, names, item.card.lang)
                if item.warnings:
                    res.warnings[:0] = item.warnings
                if res.error:
                    errors += 1
                elif res.tags:
                    tagged += 1
                if res.warnings and any(w.startswith("language mismatch: ") for w in res.warnings):
                    mismatch += 1
                obj = dump_result(res, parts=parts)  # JSONL: the objects as their JSON bytes
                partial += obj.get("coverage") == "partial"
                if obj.get("error") is None:
                    obj.pop("error", None)  # a present "error" key marks a failed card
                if compact:
                    obj.pop("profile", None)
                writer.write(obj)
                if progress is not None and n % 200 == 0:
                    progress.update(task, completed=n)
            check_signals()  # not one more step (commit, rename) after a swallowed signal
    except InputError as e:
        stop_progress()
        raise click.ClickException(f"{e}; {lost}")
    except OutputError as e:
        stop_progress()
        if not to_file:
            _quiet_stdout()
        raise click.ClickException(str(e))
    except BrokenPipeError:  # e.g. `tag ... | head`: the reader went away, nothing to report
        stop_progress()
        _quiet_stdout()
        sys.exit(0)
    except OSError as e:  # reading the input failed mid-way (an I/O error ...)
        stop_progress()
        raise click.ClickException(f"cannot read {input}: {e}; {lost}")
    except KeyboardInterrupt:
        stop_progress()
        _stop(130, f"interrupted: {lost}")
    except Terminated as e:
        stop_progress()
        _stop(128 + e.signum, f"terminated by {e.name}: {lost}")
    finally:
        stop_progress()
    dt = time.perf_counter() - t0
    click.echo(_summary(n, tagged, errors, mismatch, dt, partial), err=True)
    if n and errors == n:
        _stop(1, f"error: every card failed ({n} error line{'s' if n > 1 else ''}; see each line's 'error')")


@main.command()
@click.argument("text", required=False, metavar="[TEXT | FILE]")
@click.option("--id", "card_id", type=int, help="Explain card N of the input FILE (explain FILE --id N).")
@click.option("--input", "input_path", type=click.Path(dir_okay=False, allow_dash=True),
              help="The input FILE for --id (the same as giving FILE first).")
@click.option("--input-format", type=click.Choice(IN_FORMATS), help=_INPUT_FORMAT_HELP)
@click.option("--lang", help="Language of TEXT (default: guessed from TEXT, as tag guesses a file's: Han "
              "characters zh-CN / zh-TW, kana ja, else en; the output says which) or of FILE's texts (default as "
              "for tag: guessed for a cdb / YGOPRODeck / i18n file, en otherwise).")
@click.option("--type", "type_line", help='Type line of TEXT\'s card, e.g. "Dragon / Synchro / Effect".')
@click.option("--level", type=int, help=f"Level / Rank / Link Rating of TEXT's card (0-{MAX_LEVEL}).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def explain(text: str | None, card_id: int | None, input_path: str | None, input_format: str | None,
            lang: str | None, type_line: str | None, level: int | None, as_json: bool) -> None:
    """Show each condition of TEXT (or of card N of FILE: `explain FILE --id N`) with the phrase
    that matched and the pattern, then the profile."""
    _check_lang(lang)
    read_as = None  # the language TEXT was guessed to be in, said at the top of the output
    if card_id is not None:
        if text is not None and input_path is not None:
            raise click.UsageError("give TEXT, or --id N with FILE (explain FILE --id N or --input FILE), not both")
        path = input_path if input_path is not None else text
        if path is None:
            raise click.UsageError("--id needs the input FILE: explain FILE --id N (or --input FILE)")
        if type_line is not None or level is not None:
            raise click.UsageError("--type and --level describe TEXT; with --id the frame comes from FILE")
        require_input(path, "FILE" if input_path is None else "--input")
        from .readers import InputError, read_cards
        try:
            found = next((it for it in read_cards(path, lang, input_format)
                          if (it.card and it.card.id == card_id) or it.id == card_id), None)
        except InputError as e:
            raise click.ClickException(str(e))
        if found is None:
            raise click.ClickException(f"card {card_id} not found in {path}")
        if found.card is None:
            raise click.ClickException(found.error or f"card {card_id}: unreadable")
        card = found.card
    elif text is not None:
        if input_path is not None or input_format is not None:
            raise click.UsageError("--input / --input-format need --id N")
        if not text.strip():
            raise click.BadParameter("the text is empty: give a card text to explain", param_hint="TEXT")
        if os.path.isfile(text):
            raise click.UsageError(f"{text} is a file: give --id N to explain one of its cards (explain FILE --id N)")
        if level is not None and not 0 <= level <= MAX_LEVEL:
            raise click.BadParameter(f"{level} is not a Level / Rank / Link Rating: no card has one below 0 or "
                                     f"above {MAX_LEVEL}", param_hint="--level")
        if type_line is not None:
            check_type_line(type_line)
        from .frame import Frame
        from .pipeline import Card
        frame = Frame.from_type_line(type_line, level) if type_line else Frame(level=level)
        if lang is None:
            lang, read_as = guess_text_lang(text)
        card = Card(id=None, name="", lang=lang, text=text, frame=frame)
    else:
        raise click.UsageError("give TEXT, or FILE --id N")
    from .pipeline import analyze
    res = analyze(card)
    if as_json:
        from .writers import dumps_line
        click.echo(dumps_line(res.model_dump(mode="json"), indent=True).decode())
        return
    from .explain import render
    render(card, res, note=read_as)  # with --json the result's "lang" says how TEXT was read


def guess_text_lang(text: str) -> tuple[str, str]:
    """The language to read one TEXT in when ``explain`` is given no ``--lang``, and the line that
    says so.  The writing is judged as ``tag`` judges a file's (:func:`extractor.readers.guess_lang`,
    built on :func:`extractor.langcheck.looks_like`): Han characters without kana ``zh-CN`` (``zh-TW``
    with Traditional characters), kana ``ja``, else ``en``.

    Input: the text.  Output: ``(lang, note)``, e.g. ``("zh-CN", "read as zh-CN (guessed from the
    text; give --lang to choose)")``.  Raises nothing.
    """
    from .langcheck import looks_like
    from .readers import guess_lang

    lang = guess_lang([text])
    seen = looks_like(text, min_han=1)
    why = "guessed from the text" if seen is not None else "the language could not be told from the text"
    if seen == "ko":
        why = "the text looks like Korean, which is not read"
    return lang, f"read as {lang} ({why}; give --lang to choose)"


@main.command()
@click.option("-o", "--output", help="Write the schema to FILE instead of standard output (atomically).")
def schema(output: str | None) -> None:
    """Print the JSON Schema of one output line of `tag` (procedures, materials and tribute_rules
    described item by item: extractor.structure_models)."""
    from .structure_models import output_schema
    from .writers import OutputError, atomic_path, check_output, dumps_line

    data = dumps_line(output_schema(), indent=True)
    if output and output != "-":
        try:
            check_output(output)
            if os.path.exists(output) and not os.path.isfile(output):  # a device or a pipe
                with open(output, "wb") as f:
                    f.write(data + b"\n")
            else:
                with atomic_path(output) as tmp:
                    tmp.write_bytes(data + b"\n")
        except OutputError as e:
            raise click.BadParameter(str(e), param_hint="-o")
        except OSError as e:
            raise click.ClickException(f"cannot write the output {output!r}: {e}")
    else:
        click.echo(data.decode())


def run() -> None:
    """The command line's process entry (the ``ygo-extractor`` console script and ``python -m
    extractor.cli``): :func:`main` in click's standalone mode, then the process ends with
    :func:`os._exit` once what it wrote is flushed, skipping the interpreter's teardown (freeing
    every card, result and module one by one: ~6 % of the instructions of a 3,000-card ``tag``).

    Everything a normal exit does that can be seen from outside is done first: every command has
    returned or raised (the writer committed or removed its temporary file, the sidecar is
    written, the signal handlers restored), the ``atexit`` functions run, standard output and
    standard error are flushed.  The normal exit is taken instead (``sys.exit``) when the exit
    status is not a number, when another thread or a child process is still running, or when
    flushing a stream fails (Python then reports it and sets the status as it always does).  An
    exception that escapes :func:`main` (a bug) takes the normal path too, with its traceback.
    Tests call :func:`main` (click's ``CliRunner``), never this.

    Pydantic plugins: the process sets ``PYDANTIC_DISABLE_PLUGINS=__all__`` when the variable is
    not set (a user who sets it, even to the empty string, keeps pydantic's own handling), so the
    first model built does not look up the ``pydantic`` entry point group: that reads the metadata
    of every installed distribution (spaCy's extra brings dozens), ~15 M instructions, 1.3 % of a
    one-card ``tag`` (callgrind).  The command line validates only its own models, which no
    plugin is meant to observe; a program importing :mod:`extractor` is not affected.

    Exit status: :func:`main`'s (see the module docstring).  Raises SystemExit on the normal path.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # see above: only this process and its children
    try:
        main()  # standalone mode: ends in SystemExit, also on success
        code: object = 0
    except SystemExit as e:
        code = 0 if e.code is None else e.code
    if type(code) is not int or not _quiet_process():
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()  # what interpreter shutdown would run (e.g. multiprocessing's, logging's)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # noqa: BLE001 - e.g. a closed pipe: let the normal exit report it as Python does
        sys.exit(code)
    os._exit(code)


def _quiet_process() -> bool:
    """True when no other thread and no child process of :mod:`multiprocessing` is alive (so
    ending the process at once cannot cut short work the interpreter would wait for)."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    mp = sys.modules.get("multiprocessing")
    return mp is None or not mp.active_children()


if __name__ == "__main__":  # pragma: no cover
    run()
