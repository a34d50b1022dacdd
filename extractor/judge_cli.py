"""``ygo-extractor judge PATH...``: run the summoning rules core on scenario files.

Each PATH is a scenario ``.json`` file or a folder of them (``*.json`` at any depth, sorted by
path; hidden files and folders left out).  No scenario file at all is an error (exit status 1).
Output: one JSON object per scenario per line, ``{"id", "legal", "reason", "tributes_required",
"counts_as_normal_summon", "considered_summoned", "normal_summon_limit"}``; a scenario that
cannot be read or breaks the format gives ``{"id", "error"}`` on its line and the rest goes on.
With ``--check`` each verdict is compared to the file's ``expect`` (only after judging; the
rules core never sees it): failures are printed to standard error and the exit status is 1 if
any scenario failed or had an error.  A summary line goes to standard error.

A file that cannot be read (not JSON, not UTF-8, nested too deeply for the parser) is an error
line naming the file, and the others are judged.  A PATH that does not exist stops the command
before any judging with exit status 2, naming the path.  ``judge`` has no ``--lang`` or
``--input-format``: each scenario states its own ``card.lang`` (SCENARIOS.md §2.4: the verdict
must come from that text in that language), and scenario files have one format.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .meta import SIDECAR_SUFFIX

VERDICT_KEYS = ("legal", "reason", "tributes_required", "counts_as_normal_summon", "considered_summoned",
                "normal_summon_limit")


def scenario_files(paths: tuple[str, ...]) -> list[Path]:
    """The scenario files named by ``paths``: a file as given; a folder's ``*.json`` files at any
    depth (``judge ../shared/rules`` finds the examples in ``rules/examples``), sorted by path,
    leaving out hidden files and folders (a name starting with ``.``) and the provenance sidecars
    this tool writes beside its outputs (``*.meta.json``, :data:`extractor.meta.SIDECAR_SUFFIX`:
    never a scenario).  A file named on its own is read whatever its name.

    Raises:
        click.BadParameter: a path that does not exist (exit status 2, the path named).
    """
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*.json")
                              if f.is_file() and not f.name.endswith(SIDECAR_SUFFIX)
                              and not any(part.startswith(".") for part in f.relative_to(p).parts)))
        elif p.is_file():
            out.append(p)
        else:
            raise click.BadParameter(f"no such file or folder: {p}", param_hint="PATH")
    return out


def compare(verdict: dict, expect: dict) -> list[str]:
    """Differences between a verdict and ``expect`` (only the keys ``expect`` has)."""
    return [f"{k}: expected {expect[k]!r}, got {verdict.get(k)!r}" for k in expect if verdict.get(k) != expect[k]]


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Compare each verdict to the file's expect; exit 1 on any failure.")
@click.option("-q", "--quiet", is_flag=True, help="With --check, print only failures and the summary.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON output (one object per line): judge's only output form, accepted like tag's and explain's.")
def judge_cmd(paths: tuple[str, ...], check: bool, quiet: bool, as_json: bool) -> None:
    """Judge summoning-rules scenarios (../shared/rules/SCENARIOS.md): files or folders of JSON
    (searched at any depth).

    One JSON object per scenario per line.  Each scenario names its card's language
    (card.lang), so there is no --lang.  Exit status: 0, 1 with --check when a scenario failed
    or had an error, 1 when PATH holds no scenario file, 2 when a PATH does not exist."""
    files = scenario_files(paths)
    if not files:  # a folder with no scenario: nothing was checked, which must not look like a pass
        click.echo(f"error: no scenario file (*.json) in {', '.join(paths)}", err=True)
        sys.exit(1)
    from .cli import check_signals
    from .rules import ScenarioError, judge as rules_judge

    n = passed = failed = errors = 0
    for path in files:
        check_signals()
        n += 1
        sid: object = path.stem
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            errors += 1
            _emit({"id": sid, "error": f"{path}: not a readable JSON file ({e})"})
            continue
        except RecursionError:
            errors += 1
            _emit({"id": sid, "error": f"{path}: not a readable JSON file (nested too deeply)"})
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), str):
            sid = obj["id"]
        try:
            if not isinstance(obj, dict):
                raise ScenarioError("scenario", "must be one JSON object (arrays are not allowed)")
            scenario = {k: v for k, v in obj.items() if k not in ("expect", "source", "note")}
            verdict = rules_judge(scenario).as_dict()
        except ScenarioError as e:
            errors += 1
            _emit({"id": sid, "error": f"{path}: {e}"})
            continue
        except Exception as e:  # noqa: BLE001 - one bad scenario must not stop the batch
            errors += 1
            _emit({"id": sid, "error": f"{path}: internal error {type(e).__name__}: {e}"})
            continue
        _emit({"id": sid, **{k: verdict[k] for k in VERDICT_KEYS}}, quiet)
        if check:
            expect = obj.get("expect")
            if not isinstance(expect, dict):
                failed += 1
                click.echo(f"FAIL {sid}: no expect object", err=True)
                continue
            diffs = compare(verdict, expect)
            if diffs:
                failed += 1
                click.echo(f"FAIL {sid} ({path}): " + "; ".join(diffs), err=True)
            else:
                passed += 1
    if check:
        click.echo(f"scenarios {n}, passed {passed}, failed {failed}, errors {errors}", err=True)
        if failed or errors:
            sys.exit(1)
    elif errors:
        click.echo(f"scenarios {n}, errors {errors}", err=True)


def _emit(obj: dict, quiet: bool = False) -> None:
    if not quiet:
        from .writers import dumps_line
        click.echo(dumps_line(obj).decode())


#: the click command registered as ``ygo-extractor judge``
judge = judge_cmd
judge.name = "judge"
