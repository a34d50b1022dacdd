"""Build the planted-difference corpus of ``validate`` from real en / zh-CN card pairs, WITHOUT running
the tool (this script imports nothing from ``extractor``; it reads the shared files with ``json`` and
``sqlite3`` and edits texts with plain keyword rules).

    .venv/bin/python corpora/validate/build_planted.py [--shared ../shared] [--check]

``--check`` rebuilds in memory and exits 1 when the files on disk differ (a test runs it).

Pairs (the rule, stated so that anyone can redo it):

- Sources: ``yaml-yugi/cards.jsonl`` (the ``en`` and ``zh-CN`` texts of one record) and the goat
  pair ``cdb/goat-en-US.cdb`` / ``cdb/goat-zh-CN.cdb`` (the same ``datas.id`` in both files).
- A pair qualifies when the card is a monster with a passcode, has both texts, is not a Pendulum
  Monster (its Pendulum Effect is a separate text) and its English text holds a Summoning Condition
  sentence by keyword: a match of ``SC_KEYWORDS`` below ("Cannot be Normal Summoned", "Cannot be
  Special Summoned", "Must (first) be ... Summoned", "can only be Special Summoned", "Special Summon
  this card (from", "Tribute 3", "without Tributing", ...).  Nothing the tool reads is consulted.
- Each passcode is used once over the whole corpus (a yaml-yugi and a goat pair never share an id).

Alterations: one class per Summoning Condition of seed 000 / 002 (``CLASSES``, ``structure: false``)
and, for issue 10, classes of procedure structure (``structure: true``: cost action, cost count,
cost location, requirement, once-per-turn limit, material count, requirement count).  Each class is a keyword-level
rule per language (a regex substitution written here by hand) plus a keyword the OTHER side must
contain (so that the pair really states the thing on both sides before the edit).  Instances of a
class alternate sides: the 1st, 3rd, ... edit the English (source) text, the 2nd, 4th, ... the
Chinese (target) text; when a side has too few candidates the other side is used and that is
recorded (``side``).  Candidates are drawn with ``random.Random(f"{SEED}:{class}:{side}")`` from
the qualifying pairs sorted by (source, id).  ``UNALTERED`` pairs (40 yaml-yugi, 10 goat) are drawn
the same way from the qualifying pairs FIRST (so they do not depend on the alteration rules); the
alterations are drawn from the rest.

Outputs (in this folder): ``planted-en.jsonl`` and ``planted-zh-CN.jsonl`` (``{id, name, lang, type,
level, text}``, read by ``validate``), and ``planted-expected.jsonl``: per pair ``{id, source,
alteration, structure, side, edit: {before, after, at}, seed, expected: [{kind: [...], condition,
slot}]}`` (``kind`` and ``condition``: the accepted values) where ``expected`` is what a correct ``validate`` must report (empty for an unaltered
pair).  For structure classes ``slot`` is the slot named by issue 10 (``cost.action``,
``cost.count``, ``cost.from``, ``requirement``, ``limit``, ``materials.count``,
``requirement.count``); today's tool has none of these slots.  Deterministic: same shared files -> same bytes.
"""
from __future__ import annotations

import argparse
import json
import random
import regex as re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

OUT = Path(__file__).resolve().parent
ROOT = OUT.parents[1]
SEED = 20261201
UNALTERED = {"yaml-yugi": 40, "goat-cdb": 10}

# A Summoning Condition sentence, by keyword (English text; older wording included).
SC_KEYWORDS = re.compile(
    r"Cannot be (?:Normal|Special) Summoned|This card cannot be (?:Normal|Special) Summoned"
    r"|Must (?:first )?be (?:either )?(?:Normal |Special |Fusion |Ritual |Synchro |Xyz |Link )?Summoned"
    r"|[Cc]an(?:not)? only be Special Summoned|Special Summon this card \(from"
    r"|Tribut(?:e|ing) 3|Requires 3 Tributes|without Tributing|Cannot be Normal Summoned or Set")

EXTRA_KINDS = ("Fusion", "Synchro", "Xyz", "Link")
FW = str.maketrans("０１２３４５６７８９", "0123456789")
ZH_DIGIT = r"[0-9０-９]"


@dataclass(frozen=True)
class Pair:
    """One real card pair: ``source`` (``yaml-yugi`` / ``goat-cdb``), passcode, type line, level."""
    source: str
    id: int
    type: str
    level: Optional[int]
    name_en: str
    name_zh: str
    en: str
    zh: str

    @property
    def extra_deck(self) -> bool:
        return any(k in self.type.split(" / ") for k in EXTRA_KINDS)

    @property
    def main_deck_non_ritual(self) -> bool:
        return not self.extra_deck and "Ritual" not in self.type.split(" / ")


# ---------------------------------------------------------------- reading the shared files

def read_yaml_yugi(path: Path) -> list[Pair]:
    """Monster records of yaml-yugi with a passcode and both en / zh-CN texts, no Pendulum Effect."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("card_type") != "Monster" or not d.get("password"):
                continue
            en, zh = (d.get("text") or {}).get("en"), (d.get("text") or {}).get("zh-CN")
            if not en or not zh or (d.get("pendulum_effect") or {}).get("en"):
                continue
            typ = d.get("monster_type_line") or "Monster"
            if "Pendulum" in typ.split(" / "):
                continue
            level = d.get("level") or d.get("rank") or (len(d["link_arrows"]) if d.get("link_arrows") else None)
            out.append(Pair("yaml-yugi", int(d["password"]), typ, level, d["name"].get("en") or "",
                            d["name"].get("zh-CN") or "", en, zh))
    return out


_BITS = ((0x40, "Fusion"), (0x80, "Ritual"), (0x2000, "Synchro"), (0x800000, "Xyz"), (0x4000000, "Link"),
         (0x1000000, "Pendulum"), (0x1000, "Tuner"), (0x800, "Gemini"), (0x20, "Effect"), (0x10, "Normal"))


def _type_line(bits: int) -> str:
    """A type line from ygopro ``datas.type`` bits (``data/README.md``); the monster Type is not needed."""
    return " / ".join(["Monster"] + [w for b, w in _BITS if bits & b])


def read_goat(en_path: Path, zh_path: Path) -> list[Pair]:
    """Monster rows present in both goat cdbs (read-only) with both texts, not Pendulum, not an
    alternate artwork (``alias`` != 0)."""
    def rows(p: Path) -> dict[int, tuple]:
        con = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            return {r[0]: r[1:] for r in con.execute(
                'SELECT d.id, d.type, d.level, t.name, t."desc", d.alias FROM datas d JOIN texts t ON t.id = d.id')}
        finally:
            con.close()
    en, zh = rows(en_path), rows(zh_path)
    out = []
    for cid in sorted(set(en) & set(zh)):
        bits, level, name_en, text_en, alias = en[cid]
        _, _, name_zh, text_zh, _ = zh[cid]
        if not bits & 0x1 or bits & 0x1000000 or alias or not text_en or not text_zh:  # alias: alternate artwork
            continue
        out.append(Pair("goat-cdb", cid, _type_line(bits), (level or 0) & 0xFF or None, name_en or "",
                        name_zh or "", text_en, text_zh))
    return out


# ---------------------------------------------------------------- edits

@dataclass(frozen=True)
class Edit:
    """One text edit: ``before`` at offset ``at`` of the original text becomes ``after``."""
    at: int
    before: str
    after: str

    def apply(self, text: str) -> str:
        assert text[self.at:self.at + len(self.before)] == self.before
        return text[:self.at] + self.after + text[self.at + len(self.before):]


Rule = Callable[[str], Optional[Edit]]


def sub(pattern: str, repl: Callable[[re.Match], str] | str = "", group: int = 0, flags: int = 0) -> Rule:
    """A rule that replaces ``group`` of the first match of ``pattern`` (by ``repl``)."""
    rx = re.compile(pattern, flags)

    def rule(text: str) -> Optional[Edit]:
        m = rx.search(text)
        if not m:
            return None
        after = repl(m) if callable(repl) else m.expand(repl)
        return Edit(m.start(group), m.group(group), after)
    return rule


Span = Callable[[str], Optional[tuple[int, int]]]


def zh_condition_part(text: str) -> Optional[tuple[int, int]]:
    """The Chinese text before its first numbered effect (①): where a Summoning Condition is
    written (the condition comes first on the card)."""
    i = text.find("①")
    return (0, len(text) if i < 0 else i)


def within(rule: Rule, span: Span) -> Rule:
    """``rule`` applied to the part ``span(text)`` of the text only (offsets into the whole text)."""
    def r(text: str) -> Optional[Edit]:
        se = span(text)
        if se is None:
            return None
        e = rule(text[se[0]:se[1]])
        return None if e is None else Edit(e.at + se[0], e.before, e.after)
    return r


def unless(rule: Rule, word: str) -> Rule:
    """``rule``, but no edit when the text (the part it is given) contains ``word``."""
    def r(text: str) -> Optional[Edit]:
        return None if word in text else rule(text)
    return r


def en_sentence_with(words: str) -> Span:
    """The first English sentence (up to . or a line end) matching ``words``."""
    rx = re.compile(r"[^.\n]*(?:" + words + r")[^.\n]*\.?")

    def span(text: str) -> Optional[tuple[int, int]]:
        m = rx.search(text)
        return m.span() if m else None
    return span


def zh_sentence_with(words: str) -> Span:
    """The first Chinese 。-sentence of the condition part (before ①) matching ``words``."""
    rx = re.compile(r"[^。\n]*(?:" + words + r")[^。\n]*。?")

    def span(text: str) -> Optional[tuple[int, int]]:
        _, end = zh_condition_part(text)
        m = rx.search(text, 0, end)
        return m.span() if m else None
    return span


def first_line(text: str) -> Optional[tuple[int, int]]:
    """The first line (the material line of an Extra Deck monster)."""
    i = text.find("\n")
    return (0, len(text) if i < 0 else i)


def bump(m: re.Match) -> str:
    """A count one higher (full-width digits stay full-width)."""
    s = m.group(0)
    n = int(s.translate(FW)) + 1
    return str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９")) if s != s.translate(FW) else str(n)


# ---------------------------------------------------------------- classes

@dataclass(frozen=True)
class Alteration:
    """One class of planted difference.

    ``en`` / ``zh``: the rule editing that side (None: this class has no keyword-level edit on
    that side).  ``en_other`` / ``zh_other``: a regex the UNEDITED other side must contain when the
    English / Chinese side is edited.  ``eligible``: a test on the pair's card type.  ``expected``:
    ``(kinds, condition, slot)`` a correct validate reports when the English side is edited (the
    source) and when the Chinese side is edited (the target).  ``seed``: the seed sentence.
    """
    name: str
    structure: bool
    n: int
    seed: str
    en: Optional[Rule]
    zh: Optional[Rule]
    en_other: str
    zh_other: str
    expected_en: tuple
    expected_zh: tuple
    eligible: Callable[[Pair], bool] = lambda p: True
    needs_sc: bool = True


ZH_CNS = r"(?:这张卡|此卡)?(?:不能|不可)通常召唤"
ZH_PROC_END = r"(?:特殊召唤)"  # a procedure / condition sentence ends in 特殊召唤

CLASSES: list[Alteration] = [
    Alteration(
        "drop-cannot-normal-summon", False, 8,
        "000: 'Cannot be Normal Summoned or Set. ... In no circumstances can the card either be Set "
        "face-down, or Normal Summoned/Tribute Summoned.'",
        en=sub(r"(?:This card cannot|Cannot) be Normal Summoned(?:/| or )Set\.[ \t]*"),
        zh=sub(ZH_CNS + r"(?:[。，,][ \t]*)"),
        en_other=ZH_CNS, zh_other=r"Cannot be Normal Summoned(?:/| or )Set",
        expected_en=(["extra-in-target"], "cannot-normal-summon", None),
        expected_zh=(["missing-in-target"], "cannot-normal-summon", None),
        # on a Ritual or Extra Deck monster the rules already forbid it (seed 002): Main Deck only
        eligible=lambda p: p.main_deck_non_ritual),
    Alteration(
        "nomi-to-semi-nomi", False, 6,
        "000: 'Must be (first) Special Summoned by...' (Semi-Nomi: first) vs 'Must be Special Summoned "
        "by [...] and cannot be Special Summoned by other ways' (Nomi: only)",
        # English "Must be Special Summoned" (only) -> "Must first be"; Chinese official 仅可在…特殊召唤 -> 可在…
        en=sub(r"Must be Special Summoned", "Must first be Special Summoned"),
        zh=within(sub(r"(仅)可(?:在|通过|以)", "", group=1), zh_sentence_with(r"仅可(?:在|通过|以)[^。]*特殊召唤")),
        en_other=r"仅可(?:在|通过|以)[^。]*特殊召唤", zh_other=r"Must be Special Summoned",
        expected_en=(["slot-differs"], "special-summon-method", "first_only"),
        expected_zh=(["slot-differs"], "special-summon-method", "first_only"),
        eligible=lambda p: p.main_deck_non_ritual),
    Alteration(
        "semi-nomi-to-nomi", False, 6,
        "000: 'Must be (first) Special Summoned by...' vs 'Must be Special Summoned by [...] and cannot "
        "be Special Summoned by other ways'",
        # English "Must first be Special Summoned" -> "Must be"; Chinese official 可在…特殊召唤 -> 仅可在…
        en=sub(r"Must first be Special Summoned", "Must be Special Summoned"),
        zh=within(sub(r"(?<![仅只])可在(?=[^。]*情况下特殊召唤)", "仅可在"), zh_condition_part),
        en_other=r"(?<![仅只])可在[^。]*情况下特殊召唤|的场合可以特殊召唤", zh_other=r"Must first be Special Summoned",
        expected_en=(["slot-differs"], "special-summon-method", "first_only"),
        expected_zh=(["slot-differs"], "special-summon-method", "first_only"),
        eligible=lambda p: p.main_deck_non_ritual),
    Alteration(
        "location-hand-to-gy", False, 6,
        "002: 'The card effect will specify from where the monster can be Special Summoned (from the "
        "hand, deck, Graveyard, or banished zone). If no location is specified, then ... from the hand.'",
        en=sub(r"Special Summon(?:ed)?(?: this card)? \(from your (hand)\)", "GY", group=1),
        zh=within(sub(r"从(手卡|手牌)(?:[^。，,]{0,6})特殊召唤", "墓地", group=1), zh_condition_part),
        en_other=r"从(?:手卡|手牌)(?:[^。，,]{0,6})特殊召唤", zh_other=r"\(from your hand\)",
        expected_en=(["slot-differs"], "special-summon-method", "locations"),
        expected_zh=(["slot-differs"], "special-summon-method", "locations"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "summon-kind-fusion-to-synchro", False, 6,
        "000: 'This card cannot be Special Summoned except by Fusion Summon.' (a Fusion Summoning condition)",
        en=sub(r"(?:Must (?:first )?be|except by) (Fusion) Summon", "Synchro", group=1),
        zh=within(sub(r"(融合)召唤", "同调", group=1), zh_sentence_with(r"融合召唤[^。]*特殊召唤")),
        en_other=r"融合召唤[^。]*特殊召唤", zh_other=r"(?:Must (?:first )?be|except by) Fusion Summon",
        expected_en=(["slot-differs"], "special-summon-method", "method"),
        expected_zh=(["slot-differs"], "special-summon-method", "method"),
        eligible=lambda p: "Fusion" in p.type.split(" / ")),
    Alteration(
        "tribute-count-3-to-2", False, 4,
        "000: 'To Tribute Summon this card, you must Tribute 3 monsters ... It prevents you from Normal "
        "Summoning or Setting this card except by Tributing 3 monsters.'",
        en=within(sub(r"(3) (?:monsters|Tributes)", "2", group=1),
                   en_sentence_with(r"Normal Summon(?:ed)?(?:/Set)? by Tributing 3|Requires 3 Tributes|"
                                    r"Tribute Summon this card by Tributing 3|Tribute 3 monsters to Tribute Summon")),
        zh=within(sub(r"(3|３)只怪兽", "2", group=1),
                  zh_sentence_with(r"(?:(?:3|３)只怪兽(?:解放|作为祭品)|解放(?:自己场上的?)?(?:3|３)只怪兽)"
                                   r"[^。]*(?:通常召唤|上级召唤)")),
        en_other=r"(?:(?:3|３)只怪兽(?:解放|作为祭品)|解放(?:自己场上的?)?(?:3|３)只怪兽)[^。]*(?:通常召唤|上级召唤)",
        zh_other=r"Normal Summon(?:ed)?(?:/Set)? by Tributing 3|Requires 3 Tributes|Tribute 3 monsters",
        # "You can Tribute 3 monsters to Tribute Summon" is the optional 3-Tribute Summon (seed 000)
        expected_en=(["slot-differs", "missing-in-target", "extra-in-target"],
                     ["tributes-required", "tribute-summon-optional"], "count"),
        expected_zh=(["slot-differs", "missing-in-target", "extra-in-target"],
                     ["tributes-required", "tribute-summon-optional"], "count")),
    Alteration(
        "drop-not-from-gy", False, 6,
        "000: 'Cannot be Special Summoned from the Graveyard. A less limiting restriction ...'",
        en=sub(r"(?:This card cannot|Cannot) be Special Summoned from the (?:GY|Graveyard)\.[ \t]*"),
        zh=sub(r"(?:这张卡|此卡)(?:不能|不可)(?:作)?从墓地的?特殊召唤[。][ \t]*"),
        en_other=r"(?:不能|不可)(?:作)?从墓地的?特殊召唤", zh_other=r"Cannot be Special Summoned from the (?:GY|Graveyard)\.",
        expected_en=(["extra-in-target"], "cannot-special-summon-from", None),
        expected_zh=(["missing-in-target"], "cannot-special-summon-from", None)),
    Alteration(
        "scope-card-to-player", False, 6,
        "000: 'Cannot be Special Summoned. This is a blanket Summon Condition that forbids the card from "
        "being Special Summoned by any means' (the card), not a lock on the player",
        en=sub(r"(?:This card cannot|Cannot) be Special Summoned\.", "You cannot Special Summon monsters."),
        zh=sub(r"(?:这张卡|此卡)(不能|不可)特殊召唤。",
               lambda m: "自己不能把怪兽特殊召唤。" if m.group(1) == "不能" else "自己不可特殊召唤怪兽。"),
        en_other=r"(?:这张卡|此卡)(?:不能|不可)特殊召唤。", zh_other=r"(?:This card cannot|Cannot) be Special Summoned\.",
        expected_en=(["extra-in-target", "slot-differs"], "cannot-special-summon", "scope"),
        expected_zh=(["missing-in-target", "slot-differs"], "cannot-special-summon", "scope")),
    # ---- issue 10: procedure structure (structure: true)
    Alteration(
        "cost-banish-to-shuffle", True, 4,
        "002: built-in Special Summons (the procedure); issue 10 §1: the cost as a list of actions",
        # the banished cards: a counted object ("1 FIRE monster from your GY"), not one from the Deck
        en=sub(r"by banishing ((?:[1-9]|one|two|three|all|the)\b(?:(?!Deck)[^.;,])*?)(?=[.;,]| while| during)",
               lambda m: f"by shuffling {m.group(1)} into the Deck"),
        zh=within(sub(r"(?:把|将)([^。，]*?)(?:从游戏中)?除外(?=的(?:场合|情况下))",
                       lambda m: ("让" if m.group(0).startswith("把") else "将") + m.group(1)
                       + ("回到卡组" if m.group(0).startswith("把") else "放回牌组")),
                   zh_sentence_with(r"除外的(?:场合|情况下)[^。]*特殊召唤")),
        en_other=r"除外的(?:场合|情况下)[^。]*特殊召唤",
        zh_other=r"Special Summoned \([^)]*\) by banishing",
        expected_en=(["slot-differs"], "special-summon-method", "cost.action"),
        expected_zh=(["slot-differs"], "special-summon-method", "cost.action"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "cost-discard-to-pay-lp", True, 4,
        "002: built-in Special Summons; issue 10 §1: cost actions (discard, pay LP)",
        en=within(sub(r"by discarding [^.;,]*?(?=[.;,]| while| during|$)", "by paying 1000 LP"),
                  en_sentence_with(r"Special Summon(?:ed)?(?: this card)? \([^)]*\) by discarding")),
        # "把手卡1只X丢弃" / "将手牌1只X舍弃", or "从手卡丢弃1只X" / "丢弃1张手卡" (up to the clause end)
        zh=within(unless(sub(r"(?:把|将)(?:自己)?(?:的)?(?:手卡|手牌)[^。，]*?(?:丢弃|舍弃)"
                             r"|(?:从(?:手卡|手牌))?(?:丢弃|舍弃)[^。，]*?(?=的(?:场合|情况下)|，|。)",
                             "支付1000基本分"), "发动"),
                  zh_sentence_with(r"(?:丢弃|舍弃)[^。]*特殊召唤")),
        en_other=r"(?:丢弃|舍弃)[^。]*特殊召唤", zh_other=r"Special Summon(?:ed)?(?: this card)? \([^)]*\) by discarding",
        expected_en=(["slot-differs"], "special-summon-method", "cost.action"),
        expected_zh=(["slot-differs"], "special-summon-method", "cost.action"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "cost-count", True, 4,
        "002: built-in Special Summons; issue 10 §1: each cost action with its count",
        en=within(sub(r"(?<=by (?:banishing|Tributing|sending|discarding|shuffling|returning) )([1-9])\b", bump),
                   en_sentence_with(r"Special Summoned \([^)]*\) by (?:banishing|Tributing|sending|discarding)")),
        zh=within(sub(ZH_DIGIT + r"(?=只|张)", bump),
                   zh_sentence_with(r"(?:除外|解放|送去墓地|送至墓地|丢弃|舍弃)的(?:场合|情况下)[^。]*特殊召唤")),
        en_other=r"(?:除外|解放|送去墓地|送至墓地|丢弃|舍弃)的(?:场合|情况下)[^。]*特殊召唤",
        zh_other=r"Special Summoned \([^)]*\) by (?:banishing|Tributing|sending|discarding) [1-9]",
        expected_en=(["slot-differs"], "special-summon-method", "cost.count"),
        expected_zh=(["slot-differs"], "special-summon-method", "cost.count"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "cost-location-gy-to-hand", True, 4,
        "002: built-in Special Summons; issue 10 §1: where the paid cards come from",
        en=within(sub(r"by banishing [^.;]*? from your (GY)\b", "hand", group=1),
                   en_sentence_with(r"Special Summoned \(from your hand\) by banishing")),
        zh=within(sub(r"(?:从)?(?:自己)?的?(墓地)[^。]*?除外",
                       lambda m: "手牌" if "此卡" in m.string or "情况下" in m.string else "手卡", group=1),
                   zh_sentence_with(r"墓地[^。]*除外的(?:场合|情况下)[^。]*特殊召唤")),
        en_other=r"墓地[^。]*除外的(?:场合|情况下)[^。]*特殊召唤",
        zh_other=r"Special Summoned \(from your hand\) by banishing [^.;]*? from your GY",
        expected_en=(["slot-differs"], "special-summon-method", "cost.from"),
        expected_zh=(["slot-differs"], "special-summon-method", "cost.from"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "requirement-you-to-opponent", True, 4,
        "002: built-in Special Summons; issue 10 §1: the requirement ('If you control no monsters')",
        # only a requirement about your own field, with no opponent in it, is turned into the opponent's
        en=within(unless(sub(r"\b(you control)\b", "your opponent controls", group=1), "opponent"),
                  en_sentence_with(r"If you control [^.,]*, you can Special Summon this card \(from")),
        zh=within(unless(sub(r"(自己)场上", "对方", group=1), "对方"),
                  zh_sentence_with(r"自己场上[^。，]*的(?:场合|情况下)，(?:这张卡|此卡)?可以?从(?:手卡|手牌)特殊召唤")),
        en_other=r"自己场上[^。]*(?:可以|可)从(?:手卡|手牌)特殊召唤",
        zh_other=r"If you control [^.]*, you can Special Summon this card \(from",
        expected_en=(["slot-differs"], "special-summon-method", "requirement"),
        expected_zh=(["slot-differs"], "special-summon-method", "requirement"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "drop-once-per-turn", True, 4,
        "002: built-in Special Summons; issue 10 §1: the limit (once per turn 'this way')",
        en=sub(r"[ \t]?You can only Special Summon \"[^\"]+\" once per turn this way\."),
        zh=sub(r"[^。\n①②③]*(?:这个方法|以此方法)[^。\n①②③效]*特殊召唤[^。\n效]*(?:1|１)回合[^。\n效]*(?:1|１)次。"),
        en_other=r"(?:这个方法|以此方法)[^。\n效]*特殊召唤[^。\n效]*(?:1|１)回合",
        zh_other=r"You can only Special Summon \"[^\"]+\" once per turn this way\.",
        expected_en=(["slot-differs"], "special-summon-method", "limit"),
        expected_zh=(["slot-differs"], "special-summon-method", "limit"),
        eligible=lambda p: not p.extra_deck),
    Alteration(
        "material-count", True, 4,
        "000 / 002: Fusion / Synchro / Xyz / Link Monsters are Special Summoned with the materials of "
        "their first line; issue 10 §2: material lines (count)",
        # the first count of the material line (not a Level / Rank): N -> N + 1
        en=within(sub(r"(?<!Level )(?<!Rank )\b([1-9])(?=\+? (?:Level|Tuner|non-Tuner|monsters|[A-Z\"]))", bump),
                   first_line),
        zh=within(sub(r"(?<=×)" + ZH_DIGIT + r"|" + ZH_DIGIT + r"(?=只以上)", bump), first_line),
        en_other=r"^[^\n]*(?:×|只以上)", zh_other=r"^[^\n]*\b[1-9]\+? ",
        expected_en=(["slot-differs"], "materials", "materials.count"),
        expected_zh=(["slot-differs"], "materials", "materials.count"),
        eligible=lambda p: any(k in p.type.split(" / ") for k in ("Synchro", "Xyz", "Link")),
        needs_sc=False),
    Alteration(
        "requirement-count", True, 4,
        "002: built-in Special Summons; issue 10 §1: the requirement typed, with its count "
        "('by having exactly 3 DARK monsters in your GY')",
        # the exact count of the cards in your GY the requirement counts: N -> N + 1
        en=sub(r"(?<=\b(?:by having|you have) exactly )[1-9](?= [^.;,]*? in your GY)", bump),
        zh=sub(r"(?<=自己墓地的[^。，,]{1,12}?(?:是|为|仅有))" + ZH_DIGIT + r"(?=只的(?:场合|情况下))", bump),
        en_other=r"自己墓地的[^。，,]{1,12}?(?:是|为|仅有)" + ZH_DIGIT + r"只的(?:场合|情况下)",
        zh_other=r"\b(?:by having|you have) exactly [1-9] [^.;,]*? in your GY",
        expected_en=(["slot-differs"], "special-summon-method", "requirement.count"),
        expected_zh=(["slot-differs"], "special-summon-method", "requirement.count"),
        eligible=lambda p: not p.extra_deck),
]


# ---------------------------------------------------------------- building

def qualifies(p: Pair) -> bool:
    """The pair's English text has a Summoning Condition sentence by keyword (``SC_KEYWORDS``)."""
    return bool(SC_KEYWORDS.search(p.en))


def _candidates(pairs: list[Pair], a: Alteration, side: str, used: set[int]) -> list[tuple[Pair, Edit]]:
    rule = a.en if side == "en" else a.zh
    if rule is None:
        return []
    other = re.compile(a.en_other if side == "en" else a.zh_other, re.M)
    out = []
    for p in pairs:
        if p.id in used or not a.eligible(p) or (a.needs_sc and not qualifies(p)):
            continue
        text, other_text = (p.en, p.zh) if side == "en" else (p.zh, p.en)
        if not other.search(other_text):
            continue
        e = rule(text)
        if e is None or e.before == e.after:
            continue
        out.append((p, e))
    return out


def build(shared: Path) -> dict[str, bytes]:
    """The three corpus files (name -> bytes) built from the shared data under ``shared``."""
    pairs = read_yaml_yugi(shared / "data" / "yaml-yugi" / "cards.jsonl")
    pairs += read_goat(shared / "data" / "cdb" / "goat-en-US.cdb", shared / "data" / "cdb" / "goat-zh-CN.cdb")
    pairs.sort(key=lambda p: (p.source, p.id))
    used: set[int] = set()
    rows: list[tuple[Pair, str, str, dict]] = []
    for source, n in UNALTERED.items():
        pool = [p for p in pairs if p.source == source and p.id not in used and qualifies(p)]
        random.Random(f"{SEED}:unaltered:{source}").shuffle(pool)
        for p in pool[:n]:
            used.add(p.id)
            rows.append((p, p.en, p.zh, {"id": p.id, "source": p.source, "alteration": None, "structure": False,
                                         "side": None, "lang": None, "edit": None, "seed": None, "expected": []}))
    for a in CLASSES:
        pools: dict[str, list[tuple[Pair, Edit]]] = {}
        for side in ("en", "zh"):
            c = _candidates(pairs, a, side, used)
            random.Random(f"{SEED}:{a.name}:{side}").shuffle(c)
            pools[side] = c
        got = 0
        while got < a.n:
            want = "en" if got % 2 == 0 else "zh"
            side = want if any(p.id not in used for p, _ in pools[want]) else ("zh" if want == "en" else "en")
            nxt = next(((p, e) for p, e in pools[side] if p.id not in used), None)
            if nxt is None:
                print(f"warning: {a.name}: only {got} of {a.n} pairs", file=sys.stderr)
                break
            p, e = nxt
            used.add(p.id)
            got += 1
            en_text, zh_text = (e.apply(p.en), p.zh) if side == "en" else (p.en, e.apply(p.zh))
            kinds, cond, slot = a.expected_en if side == "en" else a.expected_zh
            rows.append((p, en_text, zh_text, {
                "id": p.id, "source": p.source, "alteration": a.name, "structure": a.structure,
                "side": "source" if side == "en" else "target", "lang": "en" if side == "en" else "zh-CN",
                "edit": {"at": e.at, "before": e.before, "after": e.after}, "seed": a.seed,
                "expected": [{"kind": kinds, "condition": cond if isinstance(cond, list) else [cond],
                              "slot": slot}]}))
    rows.sort(key=lambda r: r[0].id)

    def rec(p: Pair, text: str, lang: str) -> bytes:
        return json.dumps({"id": p.id, "name": p.name_en if lang == "en" else p.name_zh, "lang": lang,
                           "type": p.type, "level": p.level, "text": text}, ensure_ascii=False).encode() + b"\n"

    return {
        "planted-en.jsonl": b"".join(rec(p, et, "en") for p, et, _, _ in rows),
        "planted-zh-CN.jsonl": b"".join(rec(p, zt, "zh-CN") for p, _, zt, _ in rows),
        "planted-expected.jsonl": b"".join(json.dumps(x, ensure_ascii=False).encode() + b"\n" for *_, x in rows),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--check", action="store_true", help="exit 1 when the files on disk differ from a rebuild")
    args = ap.parse_args(argv)
    files = build(args.shared)
    if args.check:
        stale = [n for n, b in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != b]
        for n in stale:
            print(f"stale: {n}", file=sys.stderr)
        return 1 if stale else 0
    for n, b in files.items():
        (OUT / n).write_bytes(b)
    exp = [json.loads(x) for x in files["planted-expected.jsonl"].splitlines()]
    by = {}
    for x in exp:
        by[x["alteration"]] = by.get(x["alteration"], 0) + 1
    print(f"{len(exp)} pairs: " + ", ".join(f"{k or 'unaltered'} {v}" for k, v in by.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
