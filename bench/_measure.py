"""Run a module or script in THIS process, pinned to one CPU (``YGO_BENCH_ONE_CORE=N``), and
record its peak memory.

    python bench/_measure.py REPORT.json -m extractor.cli tag ...
    python bench/_measure.py REPORT.json path/to/script.py args ...

At exit it writes ``{"peak_rss_kib": ..., "source": ...}`` to REPORT.json.  The peak is ``VmHWM``
of ``/proc/self/status``: the high-water RSS of this program's own memory since ``exec``.
(``resource.getrusage`` / ``os.wait4`` ``ru_maxrss`` are not used for children because Linux
carries the parent's RSS at ``fork`` into them: a 200 MiB parent makes ``python -c pass`` report
200 MiB.)  Without ``/proc`` it falls back to ``getrusage(RUSAGE_SELF).ru_maxrss``.
"""
import atexit
import json
import os
import resource
import runpy
import sys


def _peak() -> tuple[int, str]:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]), "VmHWM"
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "ru_maxrss"


def main() -> None:
    report = sys.argv[1]
    args = sys.argv[2:]
    cpu = os.environ.get("YGO_BENCH_ONE_CORE", "")  # a CPU number: run on that core only
    if cpu.isdigit() and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(cpu)})

    def write() -> None:
        kib, src = _peak()
        with open(report, "w", encoding="utf-8") as f:
            json.dump({"peak_rss_kib": kib, "source": src}, f)

    atexit.register(write)
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        sys.path.insert(0, os.path.dirname(os.path.abspath(args[0])))
        runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    main()
