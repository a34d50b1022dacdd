"""Helpers shared by the bench scripts (speed.py, tag_counts.py, accuracy.py).

Not part of the product: the scripts only read ``../shared`` and write to temp folders (and to
``bench/results/`` with ``--save``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("YGO_SHARED", ROOT.parent / "shared"))
YAML_YUGI = SHARED / "data" / "yaml-yugi" / "cards.jsonl"
RESULTS = ROOT / "bench" / "results"
CACHE = Path(tempfile.gettempdir()) / "ygo-extractor-bench"


def require_shared(*paths: Path) -> None:
    """Exit with a clear message (status 2) when ../shared or a file in it is missing."""
    me = Path(sys.argv[0]).name
    missing = None
    if not SHARED.is_dir():
        missing = (f"{me}: {SHARED} is not present; this benchmark needs the shared card data "
                   f"(../shared/data, ../shared/eval; set YGO_SHARED to use another folder). Nothing was run.")
    else:
        for p in paths:
            if not p.exists():
                missing = f"{me}: {p} is missing; nothing was run."
                break
    if missing:
        print(missing, file=sys.stderr)
        sys.exit(2)


def rel(p: Path | str) -> str:
    """``p`` relative to the project root when possible (for printed commands)."""
    try:
        return os.path.relpath(p, ROOT)
    except ValueError:
        return str(p)


def s2tw_yaml_yugi(src: Path = YAML_YUGI) -> Path:
    """A copy of yaml-yugi whose ``zh-TW`` name, text and Pendulum Effect are OpenCC ``s2tw``
    conversions of the ``zh-CN`` ones (yaml-yugi's own zh-TW texts are dropped: most of them are
    in Simplified characters).  Cards without zh-CN text get no zh-TW text.  Cached in the temp
    folder, keyed by the source's size and mtime; the conversion (~15 s) is never timed."""
    import orjson
    from opencc import OpenCC

    st = src.stat()
    out = CACHE / f"cards.zh-TW-s2tw-names.{st.st_size}-{int(st.st_mtime)}.jsonl"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    conv = OpenCC("s2tw")
    tmp = out.with_suffix(".part")
    with open(src, "rb") as f, open(tmp, "wb") as g:
        for line in f:
            if not line.strip():
                continue
            d = orjson.loads(line)
            for field in ("name", "text", "pendulum_effect"):
                block = d.get(field)
                if isinstance(block, dict):
                    block.pop("zh-TW", None)
                    if block.get("zh-CN"):
                        block["zh-TW"] = conv.convert(block["zh-CN"])
            g.write(orjson.dumps(d) + b"\n")
    os.replace(tmp, out)
    return out


@dataclass
class Run:
    """One child process: wall seconds, CPU seconds (user+sys), peak RSS (MiB), output."""

    wall: float
    cpu: float
    maxrss_mib: float
    returncode: int
    stdout: str
    stderr: str


def match_calls(lang: str) -> list[tuple]:
    """Run ``tag`` on yaml-yugi in ``lang`` (zh-TW: the s2tw copy) in this process and return the
    arguments of every ``Catalog.run`` call, in order: ``(text, lang, start, end, scopes)``.  For the
    matching benchmarks (``speed.py --patterns``, ``match_speed.py``), which replay them.  Needs
    ../shared (exits with a message if absent)."""
    import extractor.cli as cli
    import extractor.patterns as pt

    require_shared(YAML_YUGI)
    calls: list[tuple] = []
    run = pt.Catalog.run

    def keep(self, text, lang_, start=0, end=None, scopes=pt.ALL_SCOPES):
        calls.append((text, lang_, start, end, scopes))
        return run(self, text, lang_, start, end, scopes)
    pt.Catalog.run = keep
    src = s2tw_yaml_yugi() if lang == "zh-TW" else YAML_YUGI
    try:
        with tempfile.TemporaryDirectory(prefix="ygo-match-") as d:
            cli.main(["tag", str(src), "--lang", lang, "-o", str(Path(d) / "out.jsonl"), "--no-progress"],
                     standalone_mode=False)
    finally:
        pt.Catalog.run = run
    return calls


def idlest_cpu(sample: float = 0.3) -> int:
    """The CPU (of this process's affinity set) with the most idle time over ``sample`` seconds,
    from ``/proc/stat``; the first allowed CPU when that cannot be read."""
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]

    def idle() -> dict[int, int]:
        out = {}
        with open("/proc/stat", encoding="ascii") as f:
            for line in f:
                if line.startswith("cpu") and line[3].isdigit():
                    parts = line.split()
                    out[int(parts[0][3:])] = int(parts[4]) + int(parts[5])  # idle + iowait
        return out

    try:
        a = idle()
        time.sleep(sample)
        b = idle()
        return max(allowed, key=lambda c: b.get(c, 0) - a.get(c, 0))
    except (OSError, ValueError, IndexError):
        return allowed[0]


def compile_bytecode() -> None:
    """Write the bytecode of the project's modules (``python -m compileall -q extractor``) before the
    timed runs, as ``pip install`` does for an installed package: without it a shell that sets
    ``PYTHONDONTWRITEBYTECODE`` (as this development machine's does) makes every timed ``tag`` run
    compile ~40 modules from source (~0.1 s), a cost no installed copy pays.  The plain scan imports
    only ``orjson`` and ``regex``, whose bytecode is already installed.  Failures (a read-only
    checkout) are ignored: the runs are then timed as they are."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "extractor")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def run_child(args: list[str], *, one_core: bool = True, cwd: Path = ROOT) -> Run:
    """Run ``python bench/_measure.py REPORT *args`` (``args`` = ``["-m", module, ...]`` or
    ``[script, ...]``) with this interpreter: CPU time from ``os.wait4`` (that child's own
    rusage), peak RSS from the child's own ``VmHWM`` (see ``_measure.py``); ``one_core`` pins the
    child to one CPU (the idlest one just before the run)."""
    with tempfile.TemporaryDirectory(prefix="ygo-measure-") as d:
        report = Path(d) / "peak.json"
        out = tempfile.TemporaryFile()
        err = tempfile.TemporaryFile()
        env = dict(os.environ, YGO_BENCH_ONE_CORE=str(idlest_cpu()) if one_core else "")
        cmd = [sys.executable, str(ROOT / "bench" / "_measure.py"), str(report), *args]
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        peak = json.loads(report.read_text())["peak_rss_kib"] / 1024 if report.exists() else float("nan")
        return Run(wall, ru.ru_utime + ru.ru_stime, peak, p.returncode,
                   out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))


def tag_args(input_path: Path, lang: str, output: Path, *extra: str) -> list[str]:
    """Arguments of :func:`run_child` for the real ``tag`` command line."""
    return ["-m", "extractor.cli", "tag", str(input_path), "--lang", lang, "-o", str(output), "--no-progress", *extra]


def save(name: str, text: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / name
    path.write_text(text, encoding="utf-8")
    return path


def finish(lines: list[str], commands: list[str], name: str, do_save: bool) -> int:
    """Append the fenced ``commands`` to the report ``lines``, print it, and write it to
    ``bench/results/<name>`` when ``do_save``.  Returns the exit status 0."""
    text = "\n".join([*lines, "```", *commands, "```"]) + "\n"
    print(text)
    if do_save:
        print(f"saved {save(name, text)}", file=sys.stderr)
    return 0
