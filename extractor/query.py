"""A Scryfall-style query language over ``tag`` output (issue 12 §2).

``parse(expr) -> Query``; ``Query.matches(record) -> bool`` where ``record`` is one card as ``tag``
writes it (the JSON form of :class:`extractor.pipeline.CardResult`: ``id``, ``name``, ``lang``,
``tags``, ``conditions``, ``tributes``, ``profile``, ``procedures``, ``materials``).
``iter_records(path, lang=None, input_format=None)`` reads ``tag`` output (JSONL or SQLite) or tags
any card database ``tag`` reads on the fly; ``run(path, expr)`` does both.

Terms (case-insensitive; a value with spaces is quoted, ``name:"great moth"``):

- ``tag:T`` / ``is:T``: the card carries tag ``T`` (the vocabulary of ``../shared/eval/TAGS.md``:
  ``is:nomi``, ``is:semi-nomi``, ``tag:builtin-special-summon-from:gy``); a parametrised tag
  without its value (``tag:special-summon-only-by``) matches any value.
- ``kind:K``: a condition of kind ``K`` (``kind:builtin-special-summon``).
- ``from:LOC``: a built-in Special Summon (seed 002) from ``LOC`` (``hand``, ``deck``, ``gy``,
  ``banished``, ``extra``, ``field``; ``grave``/``graveyard`` mean ``gy``): the
  ``profile.special_summon.procedures[].locations`` of the card (output of ``tag --compact``, which
  has no profile: its ``builtin-special-summon-from:LOC`` tags, made from the same list).
- ``cost:ACTION``: a built-in procedure whose cost has that action (``procedures[].cost_actions[]
  .action``; ``cost:send-to-gy`` = ``cost:send_to_gy``; ``cost:none`` = a procedure with no cost).
- ``tributes:N``: the Tributes its Normal Summon needs (the ``tributes`` field; ``tributes:none``:
  it cannot be Normal Summoned); also ``tributes>=2``, ``>``, ``<``, ``<=``, ``!=``, ``=``.
- ``summon:fusion|synchro|xyz|link|ritual``: a material line of that Summon (``materials[].summon``);
  ``ritual`` is also any Ritual Monster (``profile.card_kind``).
- ``lang:L``: the card's language (``lang:zh`` = any Chinese); ``name:W`` and bare words: ``W`` is
  in the name (case-insensitive).

``-`` before a term or a group negates it; terms side by side all hold; ``or`` between terms
(lower precedence than side by side) and parentheses group.  The syntax is an LALR grammar
(:data:`GRAMMAR`, parsed with lark).  A malformed query raises :class:`QueryError` with the
character position of the fault.
"""
from __future__ import annotations

import difflib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from .conditions import LOCATIONS
from .tags import TAG_NAMES

__all__ = ["GRAMMAR", "FIELDS", "TAG_NAMES", "QueryError", "Query", "parse", "iter_records", "ReadProblem",
           "run"]

#: The query syntax (lark, LALR).  ``or`` is a keyword only between terms; a leading ``-`` negates.
GRAMMAR = r"""
?start: disj
?disj: conj (_OR conj)*
?conj: unary+
?unary: NEG atom -> neg
      | atom
?atom: "(" disj ")"
     | FIELD OP value -> field
     | value -> word
?value: WORD | STRING

FIELD.2: /(tag|is|kind|from|cost|tributes|summon|lang|name)(?=[:<>=!])/i
OP: />=|<=|!=|[:<>=]/
_OR.3: /or(?![^\s()"])/i
NEG: "-"
STRING: /"[^"]*"/
WORD: /[^\s()"\-][^\s()"]*/
%ignore /\s+/
"""

FIELDS = ("tag", "is", "kind", "from", "cost", "tributes", "summon", "lang", "name")

#: The tags ``tag`` writes (TAGS.md); a parametrised tag is listed by its name before ``:``.
_LOC_ALIASES = {"grave": "gy", "graveyard": "gy", "extra-deck": "extra", "extradeck": "extra", "banish": "banished"}
SUMMONS = ("fusion", "synchro", "xyz", "link", "ritual")

_HUMAN = {"FIELD": "a keyword such as tag:", "OP": "':'", "WORD": "a word", "STRING": "a quoted phrase",
          "NEG": "'-'", "LPAR": "'('", "RPAR": "')'", "_OR": "'or'", "$END": "the end of the query"}


class QueryError(ValueError):
    """A query that cannot be parsed or names an unknown value.

    ``query``: the query text; ``pos``: the 0-based character offset of the fault; ``message``:
    what is wrong.  ``str(e)`` is the message, the query and a caret under the offending
    character (three lines).
    """

    def __init__(self, message: str, query: str, pos: int):
        self.message, self.query, self.pos = message, query, max(0, min(pos, len(query)))
        super().__init__(self.render())

    def render(self) -> str:
        """``message at character N``, the query, and a caret under character N (1-based in the text)."""
        return f"{self.message} (at character {self.pos + 1})\n  {self.query}\n  {' ' * self.pos}^"


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False)


Pred = Callable[[dict], bool]


@dataclass
class Query:
    """A parsed query: ``text`` as given, ``tree`` (lark), and ``matches(record) -> bool``;
    ``needs``: the record fields its terms read (``procedures`` / ``materials`` for ``cost:`` /
    ``summon:``)."""

    text: str
    tree: Any
    matches: Pred
    needs: set[str] = field(default_factory=set)


def parse(expr: str) -> Query:
    """Parse a query.

    Input: the query text.  Output: a :class:`Query`.  Raises :class:`QueryError` (with the
    character position) for a syntax error, an unknown keyword (``foo:bar``), an unknown tag,
    condition kind, location or Summon, a comparison on a field other than ``tributes``, or a
    ``tributes`` value that is not a number.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if not expr.strip():
        raise QueryError("empty query", expr, 0)
    try:
        tree = _parser().parse(expr)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream
        ch = expr[pos] if pos < len(expr) else ""
        msg = "unclosed quote" if ch == '"' else f"unexpected character {ch!r}"
        raise QueryError(msg, expr, pos) from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            exp = ", ".join(sorted(_HUMAN.get(t, t) for t in e.expected if t != "$END"))
            raise QueryError(f"the query ends too early (expected {exp})", expr, len(expr)) from None
        depth = sum(1 if ch == "(" else -1 if ch == ")" else 0 for ch in _unquoted(expr[:tok.start_pos]))
        what = {"RPAR": "')' without '('" if depth <= 0 else "unexpected ')' (a term was expected)",
                "_OR": "'or' without a term before it"}.get(tok.type, f"unexpected {tok.value!r}")
        raise QueryError(what, expr, tok.start_pos) from None
    except UnexpectedEOF:  # pragma: no cover - LALR reports the end as UnexpectedToken
        raise QueryError("the query ends too early", expr, len(expr)) from None
    needs: set[str] = set()
    return Query(expr, tree, _compile(tree, expr, needs), needs)


def _unquoted(s: str) -> str:
    """``s`` without its quoted phrases (parentheses inside quotes are words)."""
    return "".join(s.split('"')[::2])


def _text(tok) -> str:
    s = str(tok)
    return s[1:-1] if tok.type == "STRING" else s


def _unknown(what: str, value: str, choices, expr: str, pos: int) -> QueryError:
    near = difflib.get_close_matches(value, list(choices), n=1)
    hint = f"; did you mean {near[0]!r}?" if near else f" (one of {', '.join(choices)})"
    return QueryError(f"unknown {what} {value!r}{hint}", expr, pos)


def _compile(node, expr: str, needs: set[str]) -> Pred:
    from lark import Token

    if isinstance(node, Token):  # a bare WORD / STRING (a single-term query)
        return _word(node, expr)
    d = node.data
    if d == "disj":
        parts = [_compile(c, expr, needs) for c in node.children]
        return lambda r: any(p(r) for p in parts)
    if d == "conj":
        parts = [_compile(c, expr, needs) for c in node.children]
        return lambda r: all(p(r) for p in parts)
    if d == "neg":
        inner = _compile(node.children[1], expr, needs)
        return lambda r: not inner(r)
    if d == "word":
        return _word(node.children[0], expr)
    if d == "field":
        return _field(*node.children, expr=expr, needs=needs)
    raise AssertionError(f"unknown node {d}")  # pragma: no cover - the grammar has no other


def _word(tok, expr: str) -> Pred:
    w = _text(tok)
    head = w.split(":", 1)[0] if tok.type == "WORD" and ":" in w else None
    if head and head.isalpha():
        raise _unknown("keyword", head.lower(), FIELDS, expr, tok.start_pos)
    w = w.casefold()
    return lambda r: w in (r.get("name") or "").casefold()


def _field(ftok, optok, vtok, *, expr: str, needs: set[str]) -> Pred:
    f, op, raw = str(ftok).lower(), str(optok), _text(vtok)
    v = raw.lower()
    vpos = vtok.start_pos + (1 if vtok.type == "STRING" else 0)
    if op not in (":", "=") and f != "tributes":
        raise QueryError(f"{f}: takes ':' (comparisons like {op} are for tributes only)", expr, optok.start_pos)
    if f in ("tag", "is"):
        base, _, param = v.partition(":")
        if base not in TAG_NAMES:
            raise _unknown("tag", v, TAG_NAMES, expr, vpos)
        if param:
            return lambda r: v in r.get("tags", ())
        pre = base + ":"
        return lambda r: any(t == base or t.startswith(pre) for t in r.get("tags", ()))
    if f == "kind":
        from .conditions import CONDITION_CLASSES

        if v not in CONDITION_CLASSES:
            raise _unknown("condition kind", v, sorted(CONDITION_CLASSES), expr, vpos)
        return lambda r: any(c.get("kind") == v for c in r.get("conditions") or ())
    if f == "from":
        loc = _LOC_ALIASES.get(v, v)
        if loc not in LOCATIONS:
            raise _unknown("location", v, LOCATIONS, expr, vpos)

        tag = f"builtin-special-summon-from:{loc}"

        def from_(r: dict) -> bool:
            prof = r.get("profile")
            if prof is None:  # tag --compact leaves the profile out: its tags say the same (extractor.tags)
                return tag in r.get("tags", ())
            ss = prof.get("special_summon") or {}
            return any(loc in p.get("locations", ()) for p in ss.get("procedures") or ())
        return from_
    if f == "cost":
        act = v.replace("-", "_")
        needs.add("procedures")
        return lambda r: any(a.get("action") == act for p in r.get("procedures") or ()
                             for a in p.get("cost_actions") or ())
    if f == "tributes":
        if v in ("none", "null"):
            if op not in (":", "=", "!="):
                raise QueryError(f"tributes{op}none: only ':' or '!=' go with none", expr, optok.start_pos)
            want_none = op != "!="
            return lambda r: (r.get("tributes") is None) == want_none
        try:
            n = int(v)
        except ValueError:
            raise QueryError(f"tributes needs a number or none, not {raw!r}", expr, vpos) from None
        cmp = {":": int.__eq__, "=": int.__eq__, "!=": int.__ne__, ">": int.__gt__, ">=": int.__ge__,
               "<": int.__lt__, "<=": int.__le__}[op]
        return lambda r: r.get("tributes") is not None and cmp(r["tributes"], n)
    if f == "summon":
        if v not in SUMMONS:
            raise _unknown("Summon", v, SUMMONS, expr, vpos)
        needs.add("materials")
        if v == "ritual":
            return lambda r: ((r.get("profile") or {}).get("card_kind") == "ritual"
                              or any(m.get("summon") == v for m in r.get("materials") or ()))
        return lambda r: any(m.get("summon") == v for m in r.get("materials") or ())
    if f == "lang":
        exact = "-" in v
        return lambda r: ((r.get("lang") or "").lower() == v if exact
                          else (r.get("lang") or "").lower().split("-")[0] == v)
    if f == "name":
        w = raw.casefold()
        return lambda r: w in (r.get("name") or "").casefold()
    raise AssertionError(f"field {f}")  # pragma: no cover - FIELD lists exactly these


# --------------------------------------------------------------------------------------------
# inputs

@dataclass
class ReadProblem:
    """A record of the input that is not a card to query: ``where`` (``line N`` or the card's id
    and name) and ``problem``."""

    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


_SQLITE_MAGIC = b"SQLite format 3\x00"


def input_kind(path: str) -> str:
    """``tagged-jsonl``, ``tagged-sqlite`` or ``cards`` (a card database ``tag`` reads) for ``path``.

    ``tag`` output is told apart by its content: a SQLite file with a ``cards`` table that has a
    ``tags`` column; a JSONL file whose first object has ``tags`` and no ``text``.  ``-``
    (standard input) is ``tag`` JSONL.  Raises OSError when the file cannot be opened.
    """
    if path == "-":
        return "tagged-jsonl"
    with open(path, "rb") as fh:
        head = fh.read(len(_SQLITE_MAGIC))
        if head == _SQLITE_MAGIC:
            con = sqlite3.connect(f"file:{Path(path).resolve().as_posix()}?mode=ro", uri=True)
            try:
                cols = {r[1] for r in con.execute("PRAGMA table_info(cards)")}
            finally:
                con.close()
            return "tagged-sqlite" if "tags" in cols else "cards"
        fh.seek(0)
        for _ in range(50):
            line = fh.readline()
            if not line:
                break
            if not line.strip():
                continue
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError:
                return "cards"
            return "tagged-jsonl" if isinstance(obj, dict) and "tags" in obj and "text" not in obj else "cards"
    return "cards"


def _jsonl(path: str, problems: list[ReadProblem]) -> Iterator[tuple[dict, bytes]]:
    import sys

    fh = sys.stdin.buffer if path == "-" else open(path, "rb")
    try:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError as e:
                problems.append(ReadProblem(f"line {n}", f"not JSON ({e})"))
                continue
            if not isinstance(obj, dict):
                problems.append(ReadProblem(f"line {n}", "not a JSON object"))
                continue
            yield obj, line
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


_JSON_COLS = ("conditions", "profile", "procedures", "materials", "warnings")
_STRUCT_TABLES = ("procedures", "materials", "tribute_rules")


def _places(text: str | None) -> list[str] | None:
    return text.split() if text else None


def _pair(lo, hi) -> list | None:
    return None if lo is None and hi is None else [lo, hi]


def _structure_tables(con: sqlite3.Connection, needs: set[str]) -> dict[str, dict[int, list[dict]]]:
    """The structure of every card from the related tables of the SQLite output
    (:data:`extractor.writers.SQLITE_SCHEMA`), in the record's STRUCTURE.md shape: ``{"procedures":
    {card_rowid: [item, ...]}, "materials": ..., "tribute_rules": ...}``; only the lists in
    ``needs`` are read."""
    out: dict[str, dict[int, list[dict]]] = {k: {} for k in _STRUCT_TABLES}
    if "procedures" in needs:
        costs: dict[int, list[dict]] = {}
        for pid, act, lo, hi, amount, places in con.execute(
                "SELECT procedure_id, action, count_min, count_max, amount, places FROM cost_actions "
                "ORDER BY procedure_id, n"):
            a: dict[str, Any] = {"action": act}
            if act == "pay_lp":
                a["count"] = amount
            elif act in ("detach", "remove_counter"):
                a["count"] = None if amount is None else [amount, amount]
            elif act != "none":
                a["count"], a["from"] = _pair(lo, hi), _places(places)
            costs.setdefault(pid, []).append(a)
        for (pid, card, kind, rng, opt, opd, opp, pos, zone, reqc, reqk, req) in con.execute(
                "SELECT procedure_id, card_rowid, kind, range, once_per_turn, once_per_duel, to_opponent_field, "
                "position, zone_restricted, requires_condition, requirement_kind, requirement FROM procedures "
                "ORDER BY card_rowid, n"):
            out["procedures"].setdefault(card, []).append({
                "kind": kind, "range": (rng or "").split(), "once_per_turn": bool(opt), "once_per_duel": bool(opd),
                "to_opponent_field": bool(opp), "position": pos, "zone_restricted": bool(zone),
                "cost_actions": costs.get(pid, []), "requires_condition": bool(reqc),
                "requirement": None if reqk is None else {"kind": reqk, "phrase": req}})
    if "materials" in needs:
        for card, summon, lo, hi, tlo, thi, nlo, nhi, level, alt in con.execute(
                "SELECT card_rowid, summon, count_min, count_max, tuner_min, tuner_max, non_tuner_min, "
                "non_tuner_max, level, alternative FROM materials ORDER BY card_rowid, n"):
            m: dict[str, Any] = {"summon": summon}
            if summon == "synchro":
                m.update(tuner=_pair(tlo, thi), non_tuner=_pair(nlo, nhi))
            else:
                m["count"] = _pair(lo, hi)
            if summon == "xyz":
                m.update(level=level, alternative=bool(alt))
            out["materials"].setdefault(card, []).append(m)
    if "tribute_rules" in needs:
        for card, mode, tributes in con.execute(
                "SELECT card_rowid, mode, tributes FROM tribute_rules ORDER BY card_rowid, n"):
            out["tribute_rules"].setdefault(card, []).append({"mode": mode, "tributes": tributes})
    return out


def _sqlite(path: str, needs: set[str]) -> Iterator[tuple[dict, None]]:
    con = sqlite3.connect(f"file:{Path(path).resolve().as_posix()}?mode=ro", uri=True)
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(cards)")]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        related = "card_rowid" in cols and set(_STRUCT_TABLES) <= tables
        wanted = needs & set(_STRUCT_TABLES)
        missing = sorted(wanted - set(cols)) if not related else []
        if missing:
            raise ValueError(f"{path}: this SQLite tag output has no {' or '.join(missing)} column or table (written "
                             "by an older version of tag): tag the cards again, or query the JSONL output")
        # every record carries its three lists, as in the JSONL output (query prints records)
        struct = _structure_tables(con, set(_STRUCT_TABLES)) if related else {}
        for row in con.execute(f"SELECT {', '.join(cols)} FROM cards"):
            obj = dict(zip(cols, row))
            rowid = obj.pop("card_rowid", None)
            obj["tags"] = (obj.get("tags") or "").split()
            for k in _JSON_COLS:
                if isinstance(obj.get(k), str):
                    obj[k] = orjson.loads(obj[k])
            for k in _STRUCT_TABLES if related else ():
                obj[k] = struct[k].get(rowid, [])
            if "registers" in obj:
                obj["registers"] = (obj["registers"] or "").split() or None
            if obj.get("error") is None:
                obj.pop("error", None)
            yield obj, None
    finally:
        con.close()


def _on_the_fly(path: str, lang: str | None, input_format: str | None) -> Iterator[tuple[dict, None]]:
    from .patterns import load_catalog
    from .pipeline import analyze
    from .readers import read_cards

    cat = load_catalog()
    for item in read_cards(path, lang, input_format):
        if item.card is None:
            yield {"id": item.id, "name": item.name, "lang": lang or "en", "tags": [], "error": item.error}, None
            continue
        res = analyze(item.card, cat)
        if item.warnings:
            res.warnings[:0] = item.warnings
        obj = res.model_dump(mode="json")
        if obj.get("error") is None:
            obj.pop("error", None)
        yield obj, None


def iter_records(path: str, lang: str | None = None, input_format: str | None = None, *,
                 needs: set[str] | None = None,
                 problems: list[ReadProblem] | None = None) -> Iterator[tuple[dict, bytes | None]]:
    """The cards of ``path`` as ``tag`` output records: ``(record, raw JSONL line or None)``.

    ``path``: ``tag`` output (JSONL, ``-`` for standard input, or SQLite), or any card database
    ``tag`` reads, tagged on the fly with the same pipeline (:func:`extractor.readers.read_cards`
    + :func:`extractor.pipeline.analyze`; ``lang`` and ``input_format`` as for ``tag``; giving
    ``input_format`` always tags on the fly).  ``needs``: the record fields the query reads (an
    old SQLite output without them is refused).  Records with an ``error`` (a card that could not
    be read) and lines that are not JSON objects are not yielded: each is appended to
    ``problems`` (naming the line, or the card's id and name).  From SQLite output the records'
    ``procedures``, ``materials`` and ``tribute_rules`` are rebuilt from its related tables
    (:data:`extractor.writers.SQLITE_SCHEMA`) with STRUCTURE.md's keys and the requirement's kind
    and phrase (spans, pattern ids and cost filters stay in the tables).

    Raises: OSError (the file cannot be opened), ValueError / :class:`extractor.readers.InputError`
    (not a card database, an SQLite output lacking a needed column).
    """
    problems = [] if problems is None else problems
    kind = "cards" if input_format else input_kind(path)
    if kind == "tagged-jsonl":
        src: Iterator = _jsonl(path, problems)
    elif kind == "tagged-sqlite":
        src = _sqlite(path, needs or set())
    else:
        src = _on_the_fly(path, lang, input_format)
    for obj, raw in src:
        if obj.get("error"):
            err = str(obj["error"])  # tag's error already names the card ("card 7 'Name': ...")
            where = f"card {obj.get('id')} {obj.get('name')!r}"
            problems.append(ReadProblem(where, err[len(where) + 2:] if err.startswith(where + ": ") else err))
            continue
        yield obj, raw


def run(path: str, expr: str, lang: str | None = None, input_format: str | None = None,
        problems: list[ReadProblem] | None = None) -> Iterator[tuple[dict, bytes | None]]:
    """The records of ``path`` (see :func:`iter_records`) that match the query ``expr``.

    Raises :class:`QueryError` for a malformed query before reading anything."""
    q = parse(expr)
    return ((o, raw) for o, raw in iter_records(path, lang, input_format, needs=q.needs, problems=problems)
            if q.matches(o))
