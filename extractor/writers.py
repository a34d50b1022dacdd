"""Output writers for ``tag``: JSONL (default), CSV and SQLite, always written atomically
(to a temporary file in the target folder, renamed into place only when complete), so a crash,
Ctrl-C, SIGTERM or SIGHUP never leaves a half-written output file, a temporary file or a SQLite
journal behind.

Before any work starts, :func:`check_output` refuses an output that would destroy data (the
input itself, a write-protected file, a folder) and :func:`output_format` picks the format from
the file's extension.  While writing, every failure of the output (disk full, I/O error, a
SQLite error) becomes one :class:`OutputError` naming the file and the cause.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
from hashlib import sha256
from pathlib import Path
from typing import Iterable, Mapping

import orjson

from .atomic import atomic_path  # noqa: F401 (also imported from here by the CLIs)
from .jsonbytes import JSONDict

FORMATS = ("jsonl", "csv", "sqlite")
_BUFFER = 1 << 20  # bytes of the output file's write buffer

#: output format implied by a file extension (``-o out.csv`` writes CSV without ``--format``)
EXTENSIONS: dict[str, str] = {".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".csv": "csv",
                              ".db": "sqlite", ".sqlite": "sqlite", ".sqlite3": "sqlite"}

# characters that orjson writes raw but that line readers using str.splitlines() split on:
# U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR and U+0085 NEXT LINE (all other line breaks
# are control characters below U+0020, which JSON always escapes)
_RAW_BREAKS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"), (b"\xc2\x85", b"\\u0085"))


#: the CSV header: one row per card; ``procedures``, ``materials`` and ``tribute_rules`` flattened to
#: text a spreadsheet user can read (:func:`csv_procedures`, :func:`csv_materials`,
#: :func:`csv_tribute_rules`; items of one card separated by `` | ``)
CSV_COLUMNS = ["id", "name", "lang", "tags", "tributes", "conditions", "registers", "warnings", "error",
               "procedures", "materials", "tribute_rules"]

#: The SQLite output (issue 10 §6: the structure as related tables, not JSON text).  ``cards``: one
#: row per card (``card_rowid`` its key; ``conditions``, ``profile`` and ``warnings`` as JSON text);
#: ``card_tags``: one row per tag.  ``procedures``: one row per built-in Special Summon procedure
#: (``n``: its place in the card's list; ``range``: STRUCTURE.md places, space-separated;
#: ``requirement_kind`` / ``requirement`` / ``requirement_count_min`` / ``_max``: the precondition's
#: kind, phrase and count ("exactly 3 DARK monsters in your GY": 3, 3)); ``cost_actions``: one
#: row per action of a procedure's cost (``action`` ``none`` = nothing is paid; ``count_min`` /
#: ``count_max`` (``NULL`` max = "or more"); ``amount``: LP of ``pay_lp``, materials of ``detach``,
#: counters of ``remove_counter``; ``places``: where the paid cards come from, STRUCTURE.md names,
#: space-separated; ``filter``: what they must be, as written, and its typed parts where stated:
#: ``attributes``, ``types``, ``card_kinds`` (comma-separated: "Winged Beast", "Fusion Monster"),
#: ``level_min`` / ``level_max``, ``face_up``); ``cost_action_names``: the card names (``archetype``
#: 0) and archetypes (``archetype`` 1) of a cost's filter; ``materials``: one row per material
#: line; ``material_names``: the materials named by card name (``passcode`` ``NULL`` when the input
#: database holds no card of that name); ``tribute_rules``: one row per Tribute rule.
SQLITE_SCHEMA = """
CREATE TABLE cards (card_rowid INTEGER PRIMARY KEY, id INTEGER, name TEXT, lang TEXT, tags TEXT, tributes INTEGER,
                    conditions TEXT, profile TEXT, registers TEXT, warnings TEXT, error TEXT);
CREATE TABLE card_tags (id INTEGER, lang TEXT, tag TEXT);
CREATE TABLE procedures (procedure_id INTEGER PRIMARY KEY, card_rowid INTEGER NOT NULL REFERENCES cards(card_rowid),
                         n INTEGER NOT NULL, kind TEXT, range TEXT, once_per_turn INTEGER, once_per_duel INTEGER,
                         to_opponent_field INTEGER, position TEXT, zone_restricted INTEGER,
                         requires_condition INTEGER, requirement_kind TEXT, requirement TEXT,
                         requirement_count_min INTEGER, requirement_count_max INTEGER,
                         span_start INTEGER, span_end INTEGER, pattern_id TEXT);
CREATE TABLE cost_actions (cost_action_id INTEGER PRIMARY KEY,
                           procedure_id INTEGER NOT NULL REFERENCES procedures(procedure_id),
                           n INTEGER NOT NULL, action TEXT NOT NULL, count_min INTEGER, count_max INTEGER,
                           amount INTEGER, places TEXT, filter TEXT, attributes TEXT, types TEXT,
                           card_kinds TEXT, level_min INTEGER, level_max INTEGER, face_up INTEGER);
CREATE TABLE cost_action_names (cost_action_id INTEGER NOT NULL REFERENCES cost_actions(cost_action_id),
                                name TEXT NOT NULL, archetype INTEGER NOT NULL);
CREATE TABLE materials (material_id INTEGER PRIMARY KEY, card_rowid INTEGER NOT NULL REFERENCES cards(card_rowid),
                        n INTEGER NOT NULL, summon TEXT NOT NULL, count_min INTEGER, count_max INTEGER,
                        tuner_min INTEGER, tuner_max INTEGER, non_tuner_min INTEGER, non_tuner_max INTEGER,
                        level INTEGER, alternative INTEGER, span_start INTEGER, span_end INTEGER, pattern_id TEXT);
CREATE TABLE material_names (material_id INTEGER NOT NULL REFERENCES materials(material_id),
                             passcode INTEGER, name TEXT);
CREATE TABLE tribute_rules (tribute_rule_id INTEGER PRIMARY KEY,
                            card_rowid INTEGER NOT NULL REFERENCES cards(card_rowid), n INTEGER NOT NULL,
                            mode TEXT NOT NULL, tributes INTEGER, filter TEXT,
                            span_start INTEGER, span_end INTEGER, pattern_id TEXT);
CREATE INDEX procedures_card ON procedures(card_rowid);
CREATE INDEX cost_actions_procedure ON cost_actions(procedure_id);
CREATE INDEX cost_actions_action ON cost_actions(action);
CREATE INDEX cost_action_names_action ON cost_action_names(cost_action_id);
CREATE INDEX cost_action_names_name ON cost_action_names(name);
CREATE INDEX materials_card ON materials(card_rowid);
CREATE INDEX materials_summon ON materials(summon);
CREATE INDEX material_names_material ON material_names(material_id);
CREATE INDEX material_names_passcode ON material_names(passcode);
CREATE INDEX tribute_rules_card ON tribute_rules(card_rowid);
"""


def count_text(c) -> str:
    """A count (``[min, max]``, or an int) as a reader says it: ``1``, ``1+`` (or more), ``1-3``;
    ``?`` = not read (``None``).  Used by the CSV cells and ``explain``.  Raises nothing."""
    if c is None:
        return "?"
    if isinstance(c, int):
        return str(c)
    lo, hi = c
    return f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}-{hi}"


def _place_text(place: str) -> str:
    return place.replace("grave", "gy").replace("_", "-")


def _cost_text(a: dict) -> str:
    act = a.get("action")
    if act == "none":
        return "no cost"
    if act == "pay_lp":
        return "pay LP " + ("(half)" if a.get("count") is None else str(a["count"]))
    words = act.replace("_", " ") + " " + count_text(a.get("count"))
    if a.get("from"):
        words += " (" + ", ".join(_place_text(p) for p in a["from"]) + ")"
    return words


def csv_procedures(procs: list[dict]) -> str:
    """The ``procedures`` of a record (STRUCTURE.md view) as one CSV cell: per procedure
    ``RANGE: COST[; LIMIT][; FLAGS][; if REQUIREMENT]``, e.g. "hand: banish 1 (gy) + banish 1 (gy);
    once per turn"; "extra: return to deck 2 (field)"; "hand: no cost; if: If you control no
    monsters".  Counts: ``1``, ``1+`` (or more), ``1-3``, ``?`` (not read); places in the project's
    words (``gy``, ``opp-field``).  Procedures separated by `` | ``.  Raises nothing on a well-formed
    view (a missing key reads as not stated)."""
    out = []
    for p in procs:
        text = ", ".join(_place_text(x) for x in p.get("range") or []) + ": "
        text += " + ".join(_cost_text(a) for a in p.get("cost_actions") or [{"action": "none"}])
        if p.get("once_per_turn"):
            text += "; once per turn"
        if p.get("once_per_duel"):
            text += "; once per Duel"
        if p.get("to_opponent_field"):
            text += "; to the opponent's field"
        if p.get("position"):
            text += f"; in {p['position']} position"
        if p.get("zone_restricted"):
            text += "; zone restricted"
        req = p.get("requirement")
        if req:
            text += "; if: " + (req.get("phrase") or req.get("kind") or "")
        elif p.get("requires_condition"):
            text += "; if: (requirement)"
        out.append(text)
    return " | ".join(out)


def csv_materials(materials: list[dict]) -> str:
    """The ``materials`` of a record as one CSV cell: "synchro: tuner 1, non-tuner 1+"; "xyz: level 4,
    2 (or alternative)"; "link: 2+"; "fusion: 3; named: Blue-Eyes White Dragon (89631139)" (a name
    the input database lacks has no passcode).  Lines separated by `` | ``.  Raises nothing."""
    out = []
    for m in materials:
        kind = m.get("summon")
        if kind == "synchro":
            text = f"synchro: tuner {count_text(m.get('tuner'))}, non-tuner {count_text(m.get('non_tuner'))}"
        elif kind == "xyz":
            text = "xyz: " + (f"level {m['level']}, " if m.get("level") is not None else "") + count_text(m.get("count"))
            if m.get("alternative"):
                text += " (or alternative)"
        else:
            text = f"{kind}: {count_text(m.get('count'))}"
        names = m.get("named_names") or []
        if names:
            ids = list(m.get("named_materials") or [])
            text += "; named: " + ", ".join(names) + (f" ({', '.join(map(str, ids))})" if ids else "")
        out.append(text)
    return " | ".join(out)


def csv_tribute_rules(rules: list[dict]) -> str:
    """The ``tribute_rules`` of a record as one CSV cell: "required 3", "optional 0", "optional 1
    (1 Dinosaur monster)" (what must be Tributed, when read); rules separated by `` | ``.  Raises
    nothing."""
    return " | ".join(f"{r.get('mode')} {'?' if r.get('tributes') is None else r['tributes']}"
                      + (f" ({r['filter']})" if r.get("filter") else "") for r in rules)


def _pair(c) -> tuple:
    return (None, None) if c is None else (c[0], c[1])


def _insert_structure(db, card_rowid: int, obj: dict, names: list) -> None:
    """Insert the structure of one record into the related tables of :data:`SQLITE_SCHEMA`;
    ``names``: gets ``(material_id, name, lang, named_materials)`` of each named material, resolved
    at the end (:func:`_resolve_material_names`)."""
    for n, p in enumerate(obj.get("procedures") or []):
        req = p.get("requirement") or {}
        span = p.get("span") or (None, None)
        cur = db.execute("INSERT INTO procedures VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
            card_rowid, n, p.get("kind"), " ".join(p.get("range") or []), p.get("once_per_turn"), p.get("once_per_duel"),
            p.get("to_opponent_field"), p.get("position"), p.get("zone_restricted"), p.get("requires_condition"),
            (req.get("kind") or "other") if req else None, req.get("phrase") if req else None,
            *_pair(req.get("count")), span[0], span[1], p.get("pattern_id")))
        pid = cur.lastrowid
        read = p.get("cost") or []
        for i, a in enumerate(p.get("cost_actions") or []):
            act, count = a.get("action"), a.get("count")
            amount = None
            if act == "pay_lp":
                amount, count = count, None
            elif act in ("detach", "remove_counter"):
                amount, count = (count[0] if count else None), None
            flt = (read[i].get("filter") if i < len(read) and isinstance(read[i], dict) else None) or {}
            cur = db.execute("INSERT INTO cost_actions VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
                pid, i, act, *_pair(count), amount, " ".join(a.get("from") or []) or None, flt.get("phrase") or None,
                ", ".join(flt.get("attributes") or ()) or None, ", ".join(flt.get("types") or ()) or None,
                ", ".join(flt.get("card_kinds") or ()) or None, *_pair(flt.get("levels")),
                bool(flt.get("face_up")) if flt else None))
            named = [(cur.lastrowid, nm, 0) for nm in flt.get("names") or ()]
            named += [(cur.lastrowid, nm, 1) for nm in flt.get("archetypes") or ()]
            if named:
                db.executemany("INSERT INTO cost_action_names VALUES (?,?,?)", named)
    for n, m in enumerate(obj.get("materials") or []):
        span = m.get("span") or (None, None)
        alt = m.get("alternative") if m.get("summon") == "xyz" else None
        cur = db.execute("INSERT INTO materials VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
            card_rowid, n, m.get("summon"), *_pair(m.get("count")), *_pair(m.get("tuner")), *_pair(m.get("non_tuner")),
            m.get("level"), alt, span[0], span[1], m.get("pattern_id")))
        if m.get("named_names") or m.get("named_materials"):
            names.append((cur.lastrowid, list(m.get("named_names") or []), obj.get("lang") or "en",
                          list(m.get("named_materials") or [])))
    for n, r in enumerate(obj.get("tribute_rules") or []):
        span = r.get("span") or (None, None)
        db.execute("INSERT INTO tribute_rules VALUES (NULL,?,?,?,?,?,?,?,?)", (
            card_rowid, n, r.get("mode"), r.get("tributes"), r.get("filter"), span[0], span[1], r.get("pattern_id")))


def _resolve_material_names(db, names: list) -> None:
    """Fill ``material_names``: one row per named material of each line, its passcode found as
    ``tag`` found it (:func:`extractor.structure.input_names` over those cards written that some
    line's ``named_materials`` holds; each name keyed by :func:`extractor.structure.name_keys`) and
    kept only when the line's ``named_materials`` holds it, so the table says what the JSONL says;
    a passcode of ``named_materials`` no name was tied to gets a row without a name (none is lost).
    ``names``: ``(material_id, names, lang, named_materials)`` per line."""
    if not names:
        return
    from types import SimpleNamespace

    from .names import lookup
    from .structure import input_names, name_keys

    wanted = {pc for *_, ids in names for pc in ids}  # only the cards a line resolved to need a key
    cards = [SimpleNamespace(id=i, name=nm, lang=lg) for i, nm, lg in
             db.execute("SELECT id, name, lang FROM cards WHERE error IS NULL ORDER BY card_rowid") if i in wanted]
    by_key = input_names(cards)
    by_lang: dict[str, list[str]] = {}
    for _, written, lang, _ in names:
        by_lang.setdefault(lang, []).extend(written)
    keys = {lang: iter(name_keys(ns, lang)) for lang, ns in by_lang.items()}  # one normalizer pass a language
    rows = []
    for mid, written, lang, ids in names:
        held, tied = set(ids), set()
        for nm in written:
            pc = lookup(next(keys[lang]), lang, by_key)  # as tag resolved it (extractor.names)
            pc = pc if pc in held else None
            tied.add(pc)
            rows.append((mid, pc, nm))
        rows.extend((mid, pc, None) for pc in sorted(held - tied))
    db.executemany("INSERT INTO material_names VALUES (?,?,?)", rows)


class OutputError(Exception):
    """The output cannot be written: the message names the file and the cause (``no space
    left on device``, ``is write-protected`` ...).  Raised by :class:`Writer`,
    :func:`check_output` and :func:`check_outputs`; ``option`` names the command-line option
    concerned when known (``-o``, ``--html`` ...), else ``None``."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


def dumps_line(obj: object, indent: bool = False, newline: bool = False) -> bytes:
    """``obj`` as JSON bytes safe for every line reader: U+2028, U+2029
    and U+0085, which orjson writes raw and ``str.splitlines()`` splits on, are escaped
    (``\\u2028`` ...), so one object is always one line.  ``indent``: pretty-printed (2 spaces).
    ``newline``: a line break appended (by orjson, without copying the bytes); none by default.

    Raises:
        TypeError: ``obj`` holds something JSON cannot represent (orjson's ``JSONEncodeError``).
    """
    data = orjson.dumps(obj, option=(orjson.OPT_INDENT_2 if indent else 0)
                       | (orjson.OPT_APPEND_NEWLINE if newline else 0))
    # (inside a JSON document these bytes only occur within strings).  Looked for in steps: none in an ASCII line (most
    # English ones: one fast pass); the lead byte U+2028 and U+2029 share (E2: a one-byte search, several times faster
    # than a two-byte one; absent from most lines), then the part they share (E2 80: ~1 Chinese line in 14), and the
    # lead byte of U+0085 (C2); one search per character costs ~2x as much.  (Writer._write_held: the same test.)
    # ``bytes.find``, not ``in``: ``b"x" in data`` first tries its operand as an integer (a byte value), raising and
    # clearing a TypeError each time (~2,000 instructions); ``find`` takes a bytes operand as it is: the same answer,
    # ~45 % less time for the test (timeit on a Chinese line), ~12 M instructions of a 3,000-card zh-CN ``tag``.
    if not data.isascii() and ((data.find(b"\xe2") >= 0 and data.find(b"\xe2\x80") >= 0) or data.find(b"\xc2") >= 0):
        data = _escape_breaks(data)
    return data


def _escape_breaks(data: bytes) -> bytes:
    for raw, escaped in _RAW_BREAKS:
        data = data.replace(raw, escaped)  # (the same bytes object when there is none)
    return data


def output_format(output: str | None, fmt: str | None) -> str:
    """The output format: ``fmt`` when given, else the one the extension of ``output`` implies
    (:data:`EXTENSIONS`: ``.jsonl``/``.json`` JSONL, ``.csv`` CSV, ``.db``/``.sqlite`` SQLite), else
    ``jsonl`` (also for standard output, ``None`` or ``-``).

    Raises:
        OutputError: ``fmt`` disagrees with a known extension of ``output`` (the message names
            both), or ``fmt`` is not one of :data:`FORMATS`.
    """
    if fmt is not None and fmt not in FORMATS:
        raise OutputError(f"unknown output format {fmt!r} (one of {', '.join(FORMATS)})")
    implied = EXTENSIONS.get(Path(output).suffix.lower()) if output not in (None, "-") else None
    if fmt is not None and implied is not None and fmt != implied:
        raise OutputError(f"--format {fmt} disagrees with the extension of {output!r} "
                          f"({Path(output).suffix} means {implied}); give a matching -o or --format")
    return fmt or implied or "jsonl"


def check_output(output: str | None, inputs: Iterable[str] = ()) -> None:
    """Refuse, before any work, an output file that would destroy data.  ``None``/``-`` (standard
    output) and devices/pipes (``/dev/null``, a FIFO) are written as they are and always allowed.

    Raises:
        OutputError: ``output`` is one of ``inputs`` (same file, also through a symlink, a hard
            link or another relative path); it exists and is write-protected (no write permission,
            or no write bit at all, which root would otherwise override); it is a folder; its
            folder does not exist (folders are never created).
    """
    if output in (None, "-"):
        return
    p = Path(output)
    if p.is_dir():
        raise OutputError(f"cannot write the output {output!r}: it is a folder")
    for inp in inputs:
        if inp in (None, "-") or not os.path.isfile(inp) or not p.exists():
            continue
        if os.path.samefile(inp, output):
            raise OutputError(f"the output {output!r} is the input file {inp!r}: refusing to overwrite it; "
                              "choose another -o")
    if p.exists():
        st = p.stat()
        if stat.S_ISREG(st.st_mode) and (not os.access(p, os.W_OK) or not st.st_mode & 0o222):
            raise OutputError(f"the output {output!r} is write-protected: not replaced "
                              "(remove it or make it writable first)")
    folder = Path(os.path.realpath(p)).parent
    if not folder.is_dir():
        raise OutputError(f"cannot write the output {output!r}: its folder {str(p.parent)!r} does not exist "
                          "(folders are never created)")


def _same_path(a: str, b: str) -> bool:
    """``a`` and ``b`` name one file: the same path once symlinks and ``..`` are resolved, or two
    existing names of one file (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): different files
        return False


def check_outputs(outputs: Mapping[str, str | None], inputs: Iterable[str | None] = ()) -> None:
    """:func:`check_output` for every output of one command, and refuse two outputs that name the
    same file (one would replace the other).  Used by ``tag``, ``validate`` (``-o``, ``--html``,
    ``--errors``) and ``audit`` (``-o``, ``--html``, ``--sql``) before any work.

    Input: ``outputs``: option name -> path (``None`` = not asked for, ``-`` = standard output,
    neither is checked); ``inputs``: the command's input files.

    Raises:
        OutputError: as :func:`check_output`, its message prefixed with the option; or two
            options name one file (also through a symlink, a hard link or another relative
            path), the message naming both options and the file.  ``option`` holds the (first)
            option concerned.
    """
    seen: list[tuple[str, str]] = []
    for opt, path in outputs.items():
        if path in (None, "-"):
            continue
        try:
            check_output(path, inputs)
        except OutputError as e:
            raise OutputError(str(e), option=opt) from None
        for other_opt, other in seen:
            if _same_path(path, other):
                raise OutputError(f"{other_opt} {other!r} and {opt} {path!r} are the same file: one would replace "
                                  "the other; give each output its own file", option=opt)
        seen.append((opt, path))


def _describe(e: BaseException) -> str:
    if isinstance(e, OSError) and e.errno == errno.ENOSPC:
        return "no space left on device"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror[0].lower() + e.strerror[1:]
    return str(e) or type(e).__name__


class Writer:
    """Writes result dicts (the JSON form of ``CardResult``) in one format.

    Use as a context manager; ``write(obj)`` per card.  ``output`` ``None`` or ``-`` means
    standard output (JSONL and CSV only); an existing device or pipe (``/dev/null``, a FIFO) is
    written directly; any other file atomically (:func:`atomic_path`).

    Raises:
        ValueError: unknown format, or SQLite without an output file (from the constructor).
        OutputError: the output cannot be written (disk full, I/O or SQLite error, a device for
            SQLite); the message names the file and the cause, and no partial file is left.
        BrokenPipeError: standard output was closed by its reader (``tag ... | head``).
    """

    def __init__(self, output: str | None, fmt: str = "jsonl", meta: dict | None = None):
        self.meta = meta  # extractor.meta.build_meta(...): a meta table in SQLite, a <output>.meta.json sidecar
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r} (one of {', '.join(FORMATS)})")
        if fmt == "sqlite" and (output is None or output == "-"):
            raise ValueError("--format sqlite needs -o FILE")
        self.output, self.fmt = output, fmt

    def _fail(self, e: BaseException) -> OutputError:
        where = "standard output" if self.output in (None, "-") else repr(self.output)
        return OutputError(f"cannot write the output {where}: {_describe(e)}; "
                           + ("output incomplete" if self.output in (None, "-") or self._ctx is None
                              else "nothing written"))

    def __enter__(self) -> "Writer":
        self._ctx = None
        self._own_fh = False
        self._sha = None  # the output's sha256 while it is written (a file that gets a sidecar)
        if self.output in (None, "-"):
            self._fh = sys.stdout.buffer
        else:
            is_special = os.path.exists(self.output) and not os.path.isfile(self.output)
            if is_special:  # /dev/null, /dev/full, a FIFO: never replaced by a rename
                if self.fmt == "sqlite":
                    raise OutputError(f"cannot write the output {self.output!r}: SQLite needs a regular file")
                try:
                    self._fh = open(self.output, "wb")
                except OSError as e:
                    raise self._fail(e) from e
                self._own_fh = True
            else:
                try:
                    self._ctx = atomic_path(self.output)
                    self._tmp = self._ctx.__enter__()
                except OSError as e:
                    self._ctx = None
                    raise self._fail(e) from e
                try:
                    if self.fmt == "sqlite":
                        import sqlite3
                        self._db = sqlite3.connect(self._tmp)
                        # the rename makes the file atomic: no rollback journal is needed, and none is left
                        self._db.execute("PRAGMA journal_mode=OFF")
                        self._db.executescript(SQLITE_SCHEMA)
                        self._rowid = 0
                        self._names: list[tuple[int, str, str]] = []  # (material_id, name, lang) to resolve at the end
                        if self.meta is not None:
                            from .meta import write_sqlite_meta
                            write_sqlite_meta(self._db, self.meta)
                        self._fh = None
                    else:
                        # a large buffer: one system call per ~1 MB instead of per 8 KB (~2 KB a card)
                        self._fh = open(self._tmp, "wb", buffering=_BUFFER)
                        self._own_fh = True
                        if self.meta is not None:  # the sidecar's digest made as the bytes go out (_put)
                            self._sha, self._size, self._pending = sha256(), 0, bytearray()
                            if self.fmt == "jsonl":
                                self.write = self._write_held  # type: ignore[method-assign]
                except BaseException as e:  # no temp file left behind
                    self._ctx.__exit__(type(e), e, e.__traceback__)
                    if isinstance(e, Exception) and not isinstance(e, OutputError):
                        raise self._fail(e) from e
                    raise
        if self.fmt == "csv":
            import csv
            import io
            self._buf = io.StringIO()
            self._csv = csv.writer(self._buf)
            self._csv.writerow(CSV_COLUMNS)
            try:
                self._flush_csv()
            except BaseException as e:  # the header cannot be written: no temp file left behind
                self.__exit__(type(e), e, e.__traceback__)
                if isinstance(e, OSError) and not isinstance(e, BrokenPipeError):
                    raise self._fail(e) from e
                raise
        return self

    def _put(self, data: bytes) -> None:  # to a file with a sidecar: held, written and hashed per MiB
        if self._sha is None:
            self._fh.write(data)
            return
        self._pending += data
        if len(self._pending) >= _BUFFER:
            self._drain()

    def _drain(self) -> None:  # (the sidecar's sha256 of the output made as it is written, not read back)
        try:
            self._fh.write(self._pending)  # (1 MiB or more: straight through the file's buffer)
        except OSError as e:
            raise self._fail(e) from e
        self._sha.update(self._pending)
        self._size += len(self._pending)
        self._pending.clear()

    def _write_held(self, obj: dict) -> None:  # write() of a JSONL file with a sidecar (_put, dumps_line inline)
        if type(p := obj.get("profile")) is JSONDict:
            obj = {**obj, "profile": p.fragment}
        data = orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)
        if not data.isascii() and ((data.find(b"\xe2") >= 0 and data.find(b"\xe2\x80") >= 0) or data.find(b"\xc2") >= 0):
            data = _escape_breaks(data)
        pending = self._pending
        pending += data
        if len(pending) >= _BUFFER:
            self._drain()

    def _flush_csv(self) -> None:
        self._put(self._buf.getvalue().encode("utf-8"))
        self._buf.seek(0)
        self._buf.truncate()

    def write(self, obj: dict) -> None:
        """Write one result dict.  Raises OutputError (or BrokenPipeError on standard output)."""
        try:
            self._write(obj)
        except (BrokenPipeError, OutputError):
            raise
        except Exception as e:
            if self.fmt == "sqlite" or isinstance(e, OSError):
                raise self._fail(e) from e
            raise

    def _write(self, obj: dict) -> None:
        if self.fmt == "jsonl":
            p = obj.get("profile")
            if type(p) is JSONDict:  # a shared profile: its JSON bytes are made already
                obj = {**obj, "profile": p.fragment}
            self._fh.write(dumps_line(obj, newline=True))
        elif self.fmt == "csv":
            self._csv.writerow([obj.get("id"), obj.get("name"), obj.get("lang"), " ".join(obj.get("tags") or []),
                                obj.get("tributes"), ";".join(c["kind"] for c in obj.get("conditions") or []),
                                " ".join(obj.get("registers") or []), "; ".join(obj.get("warnings") or []),
                                obj.get("error") or "", csv_procedures(obj.get("procedures") or []),
                                csv_materials(obj.get("materials") or []),
                                csv_tribute_rules(obj.get("tribute_rules") or [])])
            self._flush_csv()
        else:
            self._rowid += 1
            self._db.execute("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)", (
                self._rowid, obj.get("id"), obj.get("name"), obj.get("lang"), " ".join(obj.get("tags") or []),
                obj.get("tributes"), orjson.dumps(obj.get("conditions") or []).decode(),
                orjson.dumps(obj.get("profile")).decode(), " ".join(obj.get("registers") or []),
                orjson.dumps(obj.get("warnings") or []).decode(), obj.get("error")))
            self._db.executemany("INSERT INTO card_tags VALUES (?,?,?)",
                                 [(obj.get("id"), obj.get("lang"), t) for t in obj.get("tags") or []])
            _insert_structure(self._db, self._rowid, obj, self._names)

    def __exit__(self, et, ev, tb) -> None:
        try:
            if self.fmt == "sqlite":
                try:
                    if et is None:
                        _resolve_material_names(self._db, self._names)
                        self._db.commit()
                finally:
                    self._db.close()
            elif self._own_fh:
                if self._sha is not None and et is None:
                    self._drain()
                self._fh.close()
            else:
                self._fh.flush()
        except BaseException as e:  # e.g. disk full on the last flush: still remove the temp file
            if self._ctx is not None:
                try:
                    self._ctx.__exit__(type(e), e, e.__traceback__)
                except BaseException:  # noqa: BLE001 - the cleanup's own failure must not hide e
                    pass
            if et is not None:
                return  # an exception is already on its way out: it wins over the failure to close
            if isinstance(e, Exception) and not isinstance(e, (OutputError, BrokenPipeError)):
                raise self._fail(e) from e
            raise
        if self._ctx is not None:
            try:
                self._ctx.__exit__(et, ev, tb)
            except OSError as e:  # the final rename failed: atomic_path removed the temp file
                if et is not None:
                    return
                raise self._fail(e) from e
            if et is None and self.meta is not None and self.fmt != "sqlite":
                from .meta import sidecar_path, write_sidecar
                try:
                    write_sidecar(self.output, self.meta, self._sha and (self._sha.hexdigest(), self._size))  # issue 12 §3
                except OSError as e:
                    raise OutputError(f"the output {self.output!r} is written, but not its "
                                      f"{sidecar_path(self.output).name}: {_describe(e)}") from e
