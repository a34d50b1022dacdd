"""Tests of the summoning rules core (extractor/rules/ (a package: vocabulary, scenario, facts, judging)) and the `judge` command.

- the public examples of ../shared/rules/examples (skipped when ../shared is absent);
- the project's own scenarios in corpora/scenarios (always run);
- malformed scenarios raise ScenarioError naming the field;
- judge reads neither expect/source/note nor card.name;
- the CLI: one JSON line per scenario, --check exit codes, an error line for a bad file.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.pipeline import analyze_text
from extractor.rules import ScenarioError, Verdict, card_facts, frame_of, judge, normal_summon_limit

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT.parent / "shared" / "rules" / "examples"
SCENARIOS = ROOT / "corpora" / "scenarios"
KEYS = {"legal", "reason", "tributes_required", "counts_as_normal_summon", "considered_summoned",
        "normal_summon_limit"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _blind(scenario: dict) -> dict:
    """The scenario without the answer: judge must not need expect, source or note."""
    return {k: v for k, v in scenario.items() if k not in ("expect", "source", "note")}


def _check(scenario: dict) -> None:
    verdict = judge(_blind(scenario)).as_dict()
    assert set(verdict) == KEYS
    diffs = {k: (v, verdict[k]) for k, v in scenario["expect"].items() if verdict[k] != v}
    assert not diffs, f"{scenario['id']}: expected/got {diffs}"


EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []


@pytest.mark.parametrize("path", EXAMPLE_FILES or [None], ids=lambda p: p.stem if p else "absent")
def test_public_example(path, shared):
    if path is None:
        pytest.skip("../shared/rules/examples is not present")
    _check(_load(path))


SCENARIO_FILES = sorted(SCENARIOS.glob("*.json"))


def test_own_scenarios_exist():
    assert len(SCENARIO_FILES) >= 60


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_own_scenario(path):
    _check(_load(path))


def test_own_scenarios_cover_every_reason_and_kind():
    objs = [_load(p) for p in SCENARIO_FILES]
    kinds = {o["action"]["kind"] for o in objs}
    reasons = {o["expect"].get("reason") for o in objs} - {None}
    langs = {o["card"]["lang"] for o in objs}
    assert kinds == {"normal-summon", "normal-set", "tribute-summon", "tribute-set", "flip-summon",
                     "gemini-summon", "special-summon", "negate-summon"}
    assert len(reasons) == 16, sorted(reasons)
    assert langs == {"en", "zh-Hans", "zh-Hant"}


# --- a base scenario to vary ----------------------------------------------------------------------

BASE = {
    "id": "t-base",
    "card": {"name": "Blue-Eyes White Dragon", "lang": "en", "frame": "normal", "level": 8,
             "text": "This legendary dragon is a powerful engine of destruction."},
    "state": {"location": "hand"},
    "action": {"kind": "tribute-summon", "tributes": 2},
}


def _vary(**parts) -> dict:
    s = copy.deepcopy(BASE)
    for dotted, value in parts.items():
        obj = s
        keys = dotted.split("__")
        for k in keys[:-1]:
            obj = obj[k]
        if value is _DELETE:
            del obj[keys[-1]]
        else:
            obj[keys[-1]] = value
    return s


_DELETE = object()


def test_base_is_legal():
    v = judge(_vary())
    assert isinstance(v, Verdict)
    assert (v.legal, v.reason, v.tributes_required, v.counts_as_normal_summon, v.considered_summoned,
            v.normal_summon_limit) == (True, None, 2, True, True, 1)
    assert v["legal"] is True and v.get("reason") is None


@pytest.mark.parametrize("parts, field", [
    ({"card__lang": "fr"}, "card.lang"),
    ({"card__lang": _DELETE}, "card.lang"),
    ({"card__frame": "spell"}, "card.frame"),
    ({"card__level": 14}, "card.level"),
    ({"card__text": _DELETE}, "card.text"),
    ({"action__kind": "pendulum-summon"}, "action.kind"),
    ({"action__tributes": _DELETE}, "action.tributes"),
    ({"action__by": "own-procedure"}, "action.by"),
    ({"action__extra": 1}, "action.extra"),
    ({"state__location": "graveyard"}, "state.location"),
    ({"state": _DELETE}, "state"),
    ({"state__location": "field"}, "state.position"),
    ({"state__summoned_correctly": True}, "state.summoned_correctly"),
    ({"state__returned_to_deck_since": True}, "state.returned_to_deck_since"),
    ({"state__summon_effects": [{"kind": "set-limit", "value": 1}]}, "state.summon_effects[0].value"),
    ({"state__additional_used": True}, "state.additional_used"),
    ({"card__frame": "fusion"}, "state.location"),
    ({"surprise": 1}, "surprise"),
])
def test_malformed_scenario_names_the_field(parts, field):
    with pytest.raises(ScenarioError) as ei:
        judge(_vary(**parts))
    assert ei.value.field == field
    assert str(ei.value).startswith(field)


def test_not_a_dict_and_reserved_negation_pair():
    with pytest.raises(ScenarioError):
        judge([BASE])  # type: ignore[arg-type]
    neg = {"card": BASE["card"], "action": {"kind": "negate-summon", "negator": "Divine Wrath",
                                            "summon": "normal-summon"}}
    with pytest.raises(ScenarioError, match="reserved"):
        judge(neg)


def test_answer_fields_and_name_are_not_read():
    s = _vary()
    s["expect"] = {"legal": False, "reason": "needs-tributes"}
    s["source"] = "nonsense"
    s["note"] = "nonsense"
    s["card"]["name"] = "Cannot be Normal Summoned/Set."
    assert judge(s) == judge(_vary())


def test_text_decides_not_the_name():
    s = _vary(card__text="Cannot be Normal Summoned/Set. Must be Special Summoned by a card effect.")
    v = judge(s)
    assert (v.legal, v.reason) == (False, "cannot-normal-summon")


def test_empty_text_is_no_condition_not_an_error():
    v = judge(_vary(card__text=""))
    assert v.legal is True


@pytest.mark.parametrize("effects, used, add_used, limit, left", [
    ([], 0, False, 1, True),
    ([], 1, False, 1, False),
    ([{"kind": "set-limit", "value": 2}, {"kind": "set-limit", "value": 3}], 2, False, 3, True),
    ([{"kind": "set-limit", "value": 2}, {"kind": "additional", "applies": True}], 2, False, 3, True),
    ([{"kind": "additional", "applies": True}, {"kind": "additional", "applies": True}], 1, True, 2, False),
    ([{"kind": "additional", "applies": False}], 1, False, 2, False),
])
def test_normal_summon_count(effects, used, add_used, limit, left):
    state = {"location": "hand", "normal_summons_used": used, "summon_effects": effects, "additional_used": add_used}
    assert normal_summon_limit(state) == limit
    v = judge(_vary(state=state, action={"kind": "normal-set"}, card__level=4))
    assert v.legal is left
    assert v.normal_summon_limit == limit
    if not left:
        assert v.reason == "normal-summon-limit-reached"


def test_immediate_effect_does_not_count():
    v = judge(_vary(state__normal_summons_used=1, action__by="immediate-effect"))
    assert (v.legal, v.counts_as_normal_summon, v.considered_summoned) == (True, False, True)


def test_mausoleum_three_tributes():
    v = judge(_vary(action={"kind": "tribute-summon", "tributes": 3, "by": "mausoleum-of-the-emperor"}))
    assert (v.legal, v.reason, v.tributes_required) == (False, "condition-forbids-method", 2)


def test_chinese_summon_only_vs_normal_summon():
    summon_only = _vary(card__lang="zh-Hans", card__level=5, card__text="这张卡可以不用解放作召唤。",
                        action={"kind": "normal-set"})
    v = judge(summon_only)
    assert (v.legal, v.reason, v.tributes_required) == (False, "needs-tributes", 1)
    both = _vary(card__lang="zh-Hans", card__level=5, card__text="这张卡可以不用祭品作通常召唤。",
                 action={"kind": "normal-set"})
    v = judge(both)
    assert (v.legal, v.tributes_required, v.considered_summoned) == (True, 0, False)


# --- judge reads the card's profile (the one reading shared with `tag`) --------------------------

def test_judge_reads_the_same_profile_as_tag():
    card = {"text": "Cannot be Normal Summoned/Set. Must first be Special Summoned (from your hand) by banishing "
                    "1 LIGHT and 1 DARK monster from your GY.", "lang": "en", "frame": "effect", "level": 6}
    facts = card_facts(card)
    assert facts.profile == analyze_text(card["text"], "en", frame_of(card))[1]
    assert facts.profile.special_summon.semi_nomi and facts.procedure_locations == ("hand",)


MYUTANT = ('Cannot be Special Summoned, except with the effect of a "Myutant" card. Your opponent cannot target '
           'this card with Trap effects.')


@pytest.mark.parametrize("lang, text", [("en", MYUTANT), ("zh-Hans", "这张卡不用「突变体」卡的效果不能特殊召唤。")])
def test_normal_summonable_card_limited_to_a_named_method(lang, text):
    # seed 000: "Must be Special Summoned by [...] and cannot be Special Summoned by other ways ...
    # preventing it from being Special Summoned by cards such as "Monster Reborn"" -- also on a
    # card that can be Normal Summoned (before: Monster Reborn was allowed)
    reborn = _vary(card__lang=lang, card__text=text, card__frame="effect",
                   state={"location": "gy", "summoned_correctly": True},
                   action={"kind": "special-summon", "by": "effect"})
    v = judge(reborn)
    assert (v.legal, v.reason) == (False, "condition-forbids-method")
    named = "Myutant" if lang == "en" else "突变体"
    assert judge(_vary(card__lang=lang, card__text=text, card__frame="effect",
                       state={"location": "gy", "summoned_correctly": True},
                       action={"kind": "special-summon", "by": f"named-card:{named}"})).legal
    assert judge(_vary(card__lang=lang, card__text=text, card__frame="effect")).legal  # its Tribute Summon


def test_pendulum_only_card_has_no_revive_limit():
    # the profile's reading (engine scripts; TAGS.md revive-limit): a Pendulum Summon is not a
    # proper Summon that a revival needs, so an effect that ignores the Summoning conditions may
    # Special Summon it from the GY (before: not-summoned-correctly)
    text = "Cannot be Special Summoned, except by Pendulum Summon. If this card is Normal or Special Summoned: " \
           "You can target 1 card your opponent controls; return it to the hand."
    s = _vary(card__text=text, card__frame="pendulum", card__level=5, state={"location": "gy"},
              action={"kind": "special-summon", "by": "effect", "ignoring_conditions": True})
    assert judge(s).legal
    s["action"] = {"kind": "special-summon", "by": "effect"}
    assert judge(s).reason == "condition-forbids-method"


def test_summon_set_without_tributes_counts_for_the_set():
    text = "You can Normal Summon/Set this card without Tributing, but its original ATK becomes 1900."
    v = judge(_vary(card__text=text, card__frame="effect", action={"kind": "normal-set"}))
    assert (v.legal, v.tributes_required) == (True, 0)
    v = judge(_vary(card__text="You can Normal Summon this card without Tributing.", card__frame="effect",
                    action={"kind": "normal-set"}))
    assert (v.legal, v.reason, v.tributes_required) == (False, "needs-tributes", 2)


# --- CLI ----------------------------------------------------------------------------------------

def _write(folder: Path, scenario: dict) -> Path:
    p = folder / f"{scenario['id']}.json"
    p.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    return p


def _scenario(sid: str, expect: dict) -> dict:
    s = _vary()
    s["id"] = sid
    s["source"] = "000_2cce58483c21c2ec.txt: Level 7 or higher monsters can be Tribute Summoned by Tributing 2 monsters"
    s["expect"] = expect
    return s


def test_cli_judge_prints_one_line_per_scenario(tmp_path):
    _write(tmp_path, _scenario("t-a", {"legal": True}))
    _write(tmp_path, _scenario("t-b", {"legal": True, "tributes_required": 2}))
    res = CliRunner().invoke(main, ["judge", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert [x["id"] for x in lines] == ["t-a", "t-b"]
    assert set(lines[0]) == KEYS | {"id"}
    assert lines[0]["legal"] is True and lines[0]["tributes_required"] == 2


def test_cli_check_exit_codes(tmp_path):
    good = _write(tmp_path, _scenario("t-good", {"legal": True, "normal_summon_limit": 1}))
    res = CliRunner().invoke(main, ["judge", "--check", str(good)])
    assert res.exit_code == 0, res.output
    _write(tmp_path, _scenario("t-bad", {"legal": False, "reason": "needs-tributes"}))
    res = CliRunner().invoke(main, ["judge", "--check", str(tmp_path)])
    assert res.exit_code == 1
    assert "FAIL t-bad" in res.stderr
    assert "t-good" not in res.stderr


def test_cli_malformed_scenario_gives_error_line_and_goes_on(tmp_path):
    bad = _scenario("t-1-broken", {"legal": True})
    bad["action"]["kind"] = "summon-everything"
    _write(tmp_path, bad)
    (tmp_path / "t-2-notjson.json").write_text("{", encoding="utf-8")
    _write(tmp_path, _scenario("t-3-fine", {"legal": True}))
    res = CliRunner().invoke(main, ["judge", "--check", str(tmp_path)])
    assert res.exit_code == 1
    lines = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert [x["id"] for x in lines] == ["t-1-broken", "t-2-notjson", "t-3-fine"]
    assert "action.kind" in lines[0]["error"]
    assert "error" in lines[1]
    assert lines[2]["legal"] is True
    res = CliRunner().invoke(main, ["judge", str(tmp_path)])
    assert res.exit_code == 0  # without --check an error line is output, not a failure


def test_cli_missing_path(tmp_path):
    res = CliRunner().invoke(main, ["judge", str(tmp_path / "nope")])
    assert res.exit_code != 0
