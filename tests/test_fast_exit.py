"""The command line's process entry (``extractor.cli.run``: ``python -m extractor.cli`` and the
``ygo-extractor`` script) ends the process with ``os._exit`` after flushing, skipping the
interpreter's teardown.  What a caller sees must be what the normal exit gives: the same exit
status, output, sidecar and messages (the normal exit is ``main()`` called from ``python -c``)."""
import json
import os
import re
import subprocess
import sys
import threading

import pytest

import extractor.cli as cli

from conftest import ROOT

SAMPLE = ROOT / "corpora" / "sample" / "cards.jsonl"
FAST = [sys.executable, "-m", "extractor.cli"]
# the normal exit: main() returns through SystemExit and the interpreter tears down (click names the
# program as it does for `python -m extractor.cli`)
PLAIN = [sys.executable, "-c", "from extractor.cli import main; main(prog_name='python -m extractor.cli')"]


def _both(args, tmp_path, **kw):
    """Run ``args`` through the fast exit and the normal exit; each writes into its own folder
    (``{out}`` in ``args`` is replaced by a file of that folder)."""
    out = []
    for name, head in (("fast", FAST), ("plain", PLAIN)):
        d = tmp_path / name
        d.mkdir()
        r = subprocess.run([*head, *[a.replace("{out}", str(d / "out.jsonl")) for a in args]],
                           capture_output=True, cwd=ROOT, timeout=300, **kw)
        out.append((r, d))
    return out


def _summary(stderr: bytes) -> str:
    return re.sub(rb"seconds [0-9.]+", b"seconds X", stderr).decode()


def _files(d):
    got = {}
    for p in sorted(d.iterdir()):
        data = p.read_bytes()
        if p.name.endswith(".meta.json"):
            meta = json.loads(data)
            meta.pop("created")
            got[p.name] = meta
        else:
            got[p.name] = data
    return got


def test_tag_to_file_same_output_sidecar_and_status(tmp_path):
    (fast, fd), (plain, pd) = _both(["tag", str(SAMPLE), "-o", "{out}", "--no-progress"], tmp_path)
    assert fast.returncode == plain.returncode == 0, fast.stderr
    assert _summary(fast.stderr) == _summary(plain.stderr)
    assert "cards " in _summary(fast.stderr)
    files = _files(fd)
    assert sorted(files) == ["out.jsonl", "out.jsonl.meta.json"]  # the sidecar is written, no temporary file left
    assert files == _files(pd)
    assert files["out.jsonl.meta.json"]["output"]["bytes"] == len(files["out.jsonl"]) > 0


def test_tag_to_stdout_is_flushed_in_full(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # standard output block-buffered
    (fast, _), (plain, _) = _both(["tag", str(SAMPLE), "--compact"], tmp_path, env=env)
    assert fast.returncode == plain.returncode == 0
    assert fast.stdout == plain.stdout and fast.stdout.count(b"\n") > 10  # nothing lost in a buffer


@pytest.mark.parametrize("args, code", [
    (["tag", "no-such-file.jsonl", "-o", "{out}"], 2),  # usage error
    (["tag", str(SAMPLE), "--lang", "xx", "-o", "{out}"], 2),  # unknown language
    (["explain"], 2),
    (["--version"], 0),
    (["no-such-command"], 2),
])
def test_exit_status_and_messages_are_the_normal_exits(tmp_path, args, code):
    (fast, fd), (plain, pd) = _both(args, tmp_path)
    assert fast.returncode == plain.returncode == code
    assert fast.stdout == plain.stdout and fast.stderr == plain.stderr
    assert _files(fd) == _files(pd) == {}


def test_every_card_failed_exits_1(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "name": "A", "text": 5, "lang": "en"}\n', encoding="utf-8")
    (fast, fd), (plain, pd) = _both(["tag", str(bad), "-o", "{out}", "--no-progress"], tmp_path)
    assert fast.returncode == plain.returncode == 1
    assert _summary(fast.stderr) == _summary(plain.stderr) and "every card failed" in _summary(fast.stderr)
    assert _files(fd) == _files(pd)


EXITFUNCS: list[str] = []


def _fake_exit(monkeypatch, argv):
    """Call ``cli.run`` with ``argv`` and ``os._exit`` recorded instead of ending the test process:
    ``("os._exit", code)`` or ``("sys.exit", code)``."""
    import atexit

    calls = []

    def fake(code):
        calls.append(code)
        raise SystemExit("fake os._exit")

    # (the test process's own atexit functions must not run: the call is recorded instead)
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: EXITFUNCS.append("ran"))
    monkeypatch.setattr(cli.os, "_exit", fake)
    monkeypatch.setattr(sys, "argv", ["ygo-extractor", *argv])
    with pytest.raises(SystemExit) as e:
        cli.run()
    return ("os._exit", calls[0]) if calls else ("sys.exit", e.value.code)


def test_run_ends_with_os_exit_after_atexit_functions(monkeypatch, capsys):
    EXITFUNCS.clear()
    assert _fake_exit(monkeypatch, ["--version"]) == ("os._exit", 0)
    assert EXITFUNCS == ["ran"]  # what interpreter shutdown would have run, ran (before os._exit)
    assert "version" in capsys.readouterr().out


def test_run_takes_the_normal_exit_while_another_thread_runs(monkeypatch, capsys):
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert _fake_exit(monkeypatch, ["--version"]) == ("sys.exit", 0)
    finally:
        stop.set()
        t.join()
    assert _fake_exit(monkeypatch, ["no-such-command"]) == ("os._exit", 2)
    capsys.readouterr()


def test_run_takes_the_normal_exit_when_flushing_fails(monkeypatch, capsys):
    class Broken:
        def write(self, s):
            return len(s)

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "main", lambda: sys.exit(0))
    monkeypatch.setattr(sys, "stdout", Broken())
    assert _fake_exit(monkeypatch, []) == ("sys.exit", 0)
