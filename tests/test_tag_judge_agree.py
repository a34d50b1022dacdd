"""`tag` and `judge` read every card of yaml-yugi the same way (issue 9, section 4).

Each monster of ``../shared/data/yaml-yugi/cards.jsonl`` (English and Simplified Chinese) goes
through both entry points on their own:

- ``tag``: the yaml-yugi reader and :func:`extractor.pipeline.analyze` give the card's tags,
  ``tributes`` and ``profile`` (one ``tag`` output line);
- ``judge``: the same card as a SCENARIOS.md scenario card (text, lang, frame, Level, Gemini; a
  Pendulum card's Pendulum Effect written into the text as a database does) answers probe
  questions (a Normal Summon from the hand, a Monster Reborn from the GY, its own procedure from
  each location, ...).

From each side the test reads the same facts: Normal Summon allowed, Set allowed, the Tributes a
Summon / a Set needs, 3 Tributes allowed, cannot be Special Summoned, Nomi (only by its stated
method), Semi-Nomi / Ritual (must first be Summoned correctly, even from the hand or Extra Deck),
revive limit, the procedure's locations and the locations it cannot be Special Summoned from; and
it requires them to be equal on every card.  The ``judge`` side reads only verdicts; the ``tag``
side reads the tags, and the profile of the tag line for facts no tag carries (Set counts, and
the play facts whose tag TAGS.md scopes to Main Deck monsters: Nomi / Semi-Nomi of Extra Deck
monsters, "Cannot be Special Summoned" on a Special Summon Monster or a frame-locked monster).

Runs in well under 30 s (about 28,000 cards).  Skipped when ../shared is absent.
"""
from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from extractor.pipeline import analyze
from extractor.readers import read_yaml_yugi
from extractor.rules import judge

#: (yaml-yugi language, SCENARIOS.md card.lang, how a card database writes a Pendulum card's text)
LANGS = (("en", "en", "[ Pendulum Effect ]\n{pend}\n[ Monster Effect ]\n{text}"),
         ("zh-CN", "zh-Hans", "【灵摆效果】\n{pend}\n【怪兽效果】\n{text}"))
EXTRA = ("fusion", "synchro", "xyz", "link")
FRAME_LOCKED = ("ritual", *EXTRA)
#: no reading of a fact: the probe was stopped by an earlier check of SCENARIOS.md 4.6
BLOCKED = None


def _scenario_card(card, jlang: str, pend_fmt: str) -> dict:
    fr = card.frame
    if fr.kind in FRAME_LOCKED:
        frame = fr.kind
    else:
        frame = "pendulum" if fr.pendulum else "normal" if fr.normal else "effect"
    text = pend_fmt.format(pend=card.pendulum_effect, text=card.text) if card.pendulum_effect else card.text
    return {"name": card.name, "lang": jlang, "text": text, "frame": frame, "level": min(fr.level, 13),
            "gemini": fr.gemini and frame == "effect"}


def _ask(card: dict, action: dict, location: str = "hand", **state):
    return judge({"card": card, "state": {"location": location, **state}, "action": action})


def judge_facts(card: dict) -> dict:
    """The shared facts as ``judge`` answers them (SCENARIOS.md 4.6 check order)."""
    extra = card["frame"] in EXTRA
    home = "extra" if extra else "hand"      # where the card starts
    locs = ("extra", "gy", "banished") if extra else ("hand", "deck", "gy", "banished")
    f: dict = {}
    if not extra:
        ns = _ask(card, {"kind": "normal-summon"})
        st = _ask(card, {"kind": "normal-set"})
        f["normal_summon"] = ns.reason != "cannot-normal-summon"
        f["normal_set"] = st.reason != "cannot-normal-set"
        f["summon_tributes"] = ns.tributes_required
        f["set_tributes"] = st.tributes_required
        f["three_tributes"] = _ask(card, {"kind": "tribute-summon", "tributes": 3}).legal
    # another effect from each location (Monster Reborn from the GY after a correct Summon)
    effect = {loc: _ask(card, {"kind": "special-summon", "by": "effect"}, loc,
                        summoned_correctly=loc in ("gy", "banished")).reason for loc in locs}
    reborn = effect["gy"]
    f["cannot_special_summon"] = reborn == "cannot-special-summon"
    blocked = f["cannot_special_summon"]
    f["cannot_from"] = sorted(loc for loc, r in effect.items() if r == "cannot-special-summon-from-location")
    # only a Nomi (or "only by <Summon>") card refuses Monster Reborn after a correct Summon
    f["nomi"] = BLOCKED if blocked or "gy" in f["cannot_from"] else reborn == "condition-forbids-method"
    # an effect that ignores Summoning conditions, from the GY before a correct Summon: the revive limit
    gy = next((loc for loc in ("gy", "banished") if loc not in f["cannot_from"]), None)
    f["revive_limit"] = BLOCKED if blocked or gy is None else _ask(
        card, {"kind": "special-summon", "by": "effect", "ignoring_conditions": True}, gy).reason == "not-summoned-correctly"
    # another effect from the hand / Extra Deck before a correct Summon: Semi-Nomi and Ritual conditions
    f["first_correctly"] = (BLOCKED if blocked or f["nomi"] or home in f["cannot_from"] else
                            effect[home] == "not-summoned-correctly")
    # its own procedure from each location ("not-applicable" anywhere: it has none)
    proc = {home: _ask(card, {"kind": "special-summon", "by": "own-procedure"}, home).reason}
    f["builtin"] = proc[home] != "not-applicable"
    if f["builtin"]:
        proc.update((loc, _ask(card, {"kind": "special-summon", "by": "own-procedure"}, loc).reason)
                    for loc in locs if loc != home)
    f["procedure_from"] = sorted(loc for loc, r in proc.items()
                                 if r not in ("not-applicable", "cannot-special-summon-from-location"))
    return f


def tag_facts(res, extra: bool) -> dict:
    """The same facts as one ``tag`` line states them (tags first; the line's profile for facts
    that no tag carries or that TAGS.md scopes to Main Deck monsters)."""
    tags, ns, ss = set(res.tags), res.profile.normal_summon, res.profile.special_summon
    locs = ("extra", "gy", "banished") if extra else ("hand", "deck", "gy", "banished")
    home = "extra" if extra else "hand"
    f: dict = {}
    if not extra:
        f["normal_summon"] = "cannot-normal-summon" not in tags
        f["normal_set"] = "cannot-normal-set" not in tags
        f["summon_tributes"] = (None if "cannot-normal-summon" in tags else
                                0 if "normal-summon-without-tributes" in tags else res.tributes)
        f["set_tributes"] = min(ns.set_counts) if ns.set_counts else None
        f["three_tributes"] = ("cannot-normal-summon" not in tags
                               and bool(tags & {"tributes-required:3", "tribute-summon-3-optional"}))
    # TAGS.md scope: the tag leaves out Special Summon Monsters and frame-locked monsters
    f["cannot_special_summon"] = "cannot-special-summon" in tags or (
        ss.cannot_special_summon and (ss.special_summon_monster or res.profile.card_kind in FRAME_LOCKED))
    blocked = f["cannot_special_summon"]
    f["cannot_from"] = sorted(loc for loc in locs if f"cannot-special-summon-from:{loc}" in tags)
    only_by = any(t.startswith("special-summon-only-by:") for t in tags)
    # TAGS.md scope: "nomi" is for Main Deck Special Summon Monsters; other frames: the profile
    nomi = "nomi" in tags or only_by or ss.method_limit == "only"
    f["nomi"] = BLOCKED if blocked or "gy" in f["cannot_from"] else nomi
    gy = next((loc for loc in ("gy", "banished") if loc not in f["cannot_from"]), None)
    f["revive_limit"] = BLOCKED if blocked or gy is None else "revive-limit" in tags
    first = ("semi-nomi" in tags or ss.method_limit == "first" or ss.ritual_condition
             or res.profile.card_kind == "ritual")
    f["first_correctly"] = BLOCKED if blocked or f["nomi"] or home in f["cannot_from"] else first
    f["procedure_from"] = sorted(loc for loc in locs if f"builtin-special-summon-from:{loc}" in tags)
    f["builtin"] = "builtin-special-summon" in tags
    return f


@pytest.mark.parametrize("lang,jlang,pend_fmt", LANGS, ids=[x[0] for x in LANGS])
def test_tag_and_judge_agree_on_every_card(shared, lang, jlang, pend_fmt):
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    seen = 0
    counts: Counter = Counter()
    diffs: dict[str, list] = defaultdict(list)
    for item in read_yaml_yugi(path, lang):
        card = item.card
        if card is None or not card.frame.is_monster or card.frame.kind is None or card.frame.level is None:
            continue
        res = analyze(card)
        assert res.error is None, res.error
        scen = _scenario_card(card, jlang, pend_fmt)
        t, j = tag_facts(res, card.frame.extra_deck), judge_facts(scen)
        seen += 1
        for k, v in t.items():
            counts[k, "on" if v else "off"] += 1
            if j[k] != v:
                diffs[k].append((card.id, card.name, f"tag {v!r}, judge {j[k]!r}"))
    assert seen > 9000, f"only {seen} monsters read from {path}"
    # each fact is seen both ways (else the comparison would prove nothing)
    for k in ("normal_summon", "normal_set", "three_tributes", "cannot_special_summon", "nomi",
              "revive_limit", "first_correctly", "builtin"):
        assert counts[k, "on"] and counts[k, "off"], (k, counts[k, "on"], counts[k, "off"])
    report = {k: (len(v), v[:3]) for k, v in diffs.items()}
    assert not diffs, f"{lang}: tag and judge disagree: {report}"
