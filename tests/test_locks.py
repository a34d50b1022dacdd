"""Player locks as objects (issue 10 §5): the ``player-lock`` condition (who, what, from where, for
how long, except what) in English and Chinese (Simplified and Traditional, both registers), never
read from the card's own "Cannot be Special Summoned"; the profile, the tags and the structure view
do not read it; ``validate`` reports a card condition against a player lock as a ``scope``
difference."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.conditions import ConditionAdapter, PlayerLockCondition
from extractor.frame import Frame
from extractor.pipeline import Card, analyze
from extractor.profile import build_profile
from extractor.structure import structure_of
from extractor.validate import validate

MAIN = Frame(kind="main_monster", level=4)
SPELL = Frame(kind="spell")
YAML_YUGI = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "yaml-yugi" / "cards.jsonl"


def _locks(text: str, lang: str = "en", frame: Frame = MAIN) -> list:
    r = analyze(Card(id=1, name="x", lang=lang, text=text, frame=frame))
    return [c.lock for c in r.conditions if c.kind == "player-lock"]


def _one(text: str, lang: str = "en", frame: Frame = MAIN):
    locks = _locks(text, lang, frame)
    assert len(locks) == 1, (text, locks)
    return locks[0]


# -- reading: who, what, from where, how long, except what ---------------------------------------

@pytest.mark.parametrize("text,lang,want", [
    ('You cannot Special Summon monsters, except "Dragonmaid" monsters.', "en",
     dict(who="you", what="special-summon", from_places=(), duration=None, archetypes=("Dragonmaid",))),
    ("Neither player can Special Summon monsters.", "en", dict(who="both", what="special-summon", duration=None)),
    ("Your opponent cannot Normal Summon monsters.", "en", dict(who="opponent", what="normal-summon")),
    ("If this card is Normal Summoned: You can Special Summon this card from your hand, also you cannot Special "
     "Summon from the Extra Deck for the rest of this turn, except Synchro Monsters.", "en",
     dict(who="you", from_places=("extra",), duration="turn", exception="Synchro Monsters")),
    ("这张卡的效果发动的回合，自己不是「龙女仆」怪兽不能特殊召唤。", "zh-CN",
     dict(who="you", what="special-summon", duration="turn", archetypes=("龙女仆",))),
    ("此卡发动的回合，自己不可从额外牌组特殊召唤怪兽。", "zh-CN", dict(who="you", from_places=("extra",), duration="turn")),
    ("這個回合，自己不能從額外卡組特殊召喚「電子龍」以外的怪獸。", "zh-TW",
     dict(who="you", from_places=("extra",), duration="turn")),
    ("双方不能特殊召唤怪兽。", "zh-CN", dict(who="both", what="special-summon", duration=None)),
    ("此效果发动后，直至回合结束时为止自己从额外牌组仅可特殊召唤同步怪兽。", "zh-CN",
     dict(who="you", from_places=("extra",), duration="turn", exception="同调怪兽")),
])
def test_lock_slots(text, lang, want):
    lk = _one(text, lang)
    for k, v in want.items():
        if k == "archetypes":
            assert lk.exception is not None and lk.exception.archetypes == v, lk
        elif k == "exception":
            assert lk.exception is not None and lk.exception.phrase == v, lk
        else:
            assert getattr(lk, k) == v, (k, lk)


def test_english_and_chinese_give_the_same_lock():
    en = _one('You cannot Special Summon monsters from the Extra Deck the turn you activate this card, '
              'except "Cyber Dragon" monsters.')
    zh = _one("这张卡发动的回合，自己不是「电子龙」怪兽不能从额外卡组特殊召唤。", "zh-CN")
    for f in ("who", "what", "from_places", "duration", "summon_kind", "locked"):
        assert getattr(en, f) == getattr(zh, f), f
    assert en.exception is not None and zh.exception is not None


def test_a_lock_on_a_spell_is_read():
    lk = _one("The turn you activate this card, you cannot Special Summon monsters. Draw 2 cards.", frame=SPELL)
    assert (lk.who, lk.duration) == ("you", "turn")


@pytest.mark.parametrize("text,lang", [
    ("Cannot be Special Summoned.", "en"),
    ("This card cannot be Special Summoned from the GY.", "en"),
    ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK '
     'monster from your GY. You can only Special Summon "Chaos Sorcerer" once per turn this way.', "en"),
    ("这张卡不能特殊召唤。", "zh-CN"),
    ("此卡不可特殊召唤。", "zh-CN"),
    ("這張卡不能從墓地特殊召喚。", "zh-TW"),
])
def test_the_cards_own_condition_is_not_a_lock(text, lang):
    r = analyze(Card(id=1, name="x", lang=lang, text=text, frame=MAIN))
    assert not [c for c in r.conditions if c.kind == "player-lock"]
    assert r.conditions, "the card's own condition is still read"


def test_lock_json_round_trip():
    r = analyze(Card(id=1, name="x", lang="en", text="Neither player can Special Summon monsters.", frame=MAIN))
    c = next(c for c in r.conditions if c.kind == "player-lock")
    back = ConditionAdapter.validate_python(json.loads(c.model_dump_json()))
    assert isinstance(back, PlayerLockCondition) and back == c


# -- locks change nothing the profile, tags or structure read ------------------------------------

_INDEXES = ("basis", "self_summon_effects")


def _by_condition(profile, conds) -> dict:
    """The profile as a dict whose condition indexes (``basis``, ``self_summon_effects``: indexes into
    the card's ``conditions`` list, which a lock before them shifts) are replaced by the conditions'
    ``(kind, span)``."""
    def walk(x):
        if isinstance(x, dict):
            return {k: (sorted((conds[i].kind, conds[i].span) for i in (v if isinstance(v, list) else [v]))
                        if k in _INDEXES else walk(v)) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x
    return walk(profile.model_dump())


def _same_profile(conds, frame, profile) -> bool:
    without = [c for c in conds if c.kind != "player-lock"]
    return _by_condition(build_profile(without, frame), without) == _by_condition(profile, conds)

def test_locks_do_not_change_profile_tags_or_structure():
    text = ('Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK '
            'monster from your GY. You cannot Special Summon monsters the turn you Special Summon this card, '
            'except DARK monsters.')
    r = analyze(Card(id=1, name="x", lang="en", text=text, frame=MAIN))
    without = [c for c in r.conditions if c.kind != "player-lock"]
    assert len(without) < len(r.conditions)
    assert _same_profile(r.conditions, MAIN, r.profile)
    assert r.profile.special_summon.nomi and r.profile.normal_summon.allowed is False
    assert structure_of(without, MAIN) == structure_of(r.conditions, MAIN)


@pytest.mark.skipif(not YAML_YUGI.is_file(), reason="needs ../shared/data")
def test_real_cards_with_locks_keep_their_profile():
    """On the first 300 yaml-yugi monsters with a lock (en and zh-CN), the profile with and without the
    locks is the same (condition indexes compared as the conditions they point at)."""
    from extractor.readers import read_cards
    for lang in ("en", "zh-CN"):
        seen = 0
        for item in read_cards(str(YAML_YUGI), lang=lang):
            card = item.card
            if card is None or not card.text or not card.frame.is_monster:
                continue
            r = analyze(card)
            if not any(c.kind == "player-lock" for c in r.conditions):
                continue
            assert _same_profile(r.conditions, card.frame, r.profile), card.id
            seen += 1
            if seen >= 300:
                break
        assert seen >= 100, (lang, seen)


# -- validate: scope --------------------------------------------------------------------------

def _mismatches(src: str, tgt: str, tgt_lang: str = "zh-CN"):
    rep = validate([Card(id=1, name="x", lang="en", text=src, frame=MAIN)],
                   [Card(id=1, name="x", lang=tgt_lang, text=tgt, frame=MAIN)], source_lang="en", target_lang=tgt_lang)
    return [(m.kind, m.condition, m.slot) for c in rep.cards for m in c.mismatches]


@pytest.mark.parametrize("src,tgt,tgt_lang", [
    ("Cannot be Special Summoned.", "自己不能把怪兽特殊召唤。", "zh-CN"),
    ("Cannot be Special Summoned.", "自己不可特殊召唤怪兽。", "zh-CN"),
    ("You cannot Special Summon monsters.", "这张卡不能特殊召唤。", "zh-CN"),
    ("Cannot be Special Summoned.", "You cannot Special Summon monsters.", "en"),
])
def test_card_condition_against_player_lock_is_a_scope_difference(src, tgt, tgt_lang):
    assert _mismatches(src, tgt, tgt_lang) == [("slot-differs", "cannot-special-summon", "scope")]


@pytest.mark.parametrize("src,tgt", [
    ('You cannot Special Summon monsters, except "Dragonmaid" monsters.', "自己不是「龙女仆」怪兽不能特殊召唤。"),
    ("Cannot be Special Summoned. You cannot Special Summon monsters.", "这张卡不能特殊召唤。自己不能把怪兽特殊召唤。"),
    # a lock on one side only is an effect's difference, not a Summoning Condition's
    ("Draw 1 card, also you cannot Special Summon monsters for the rest of this turn.", "抽1张卡。"),
])
def test_locks_alone_are_not_reported(src, tgt):
    assert _mismatches(src, tgt) == []
