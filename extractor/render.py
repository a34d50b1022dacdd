"""Canonical rendering of condition objects: parse, then print back (issue 10 §7).

``render(condition, lang, name=None) -> str`` prints one condition object (any class of
:mod:`extractor.conditions`) as canonical card text: current English (PSCT) for ``lang="en"``,
Simplified Chinese in the official register for ``lang="zh"`` (``zh-CN`` / ``zh-TW`` are accepted
and give Simplified), current official OCG Japanese for ``lang="ja"`` (full-width digits and
letters, as the printed text writes them).  Every wording is data: ``patterns/terms/render-en.yaml``,
``render-zh.yaml`` and ``render-ja.yaml`` hold the templates (Python format strings) and the word tables (places, Summon
kinds, Attributes, Types, cost verbs); this module only picks the template and fills in the slot
values.  ``name`` is the card's own name for the once-per-turn sentence (``"this card"``'s name);
when absent a placeholder (:data:`NAME_PLACEHOLDER`) is printed.

What is printed comes only from the object's fields: the filters of costs and material parts print
their kept ``phrase`` (the filter as written, count removed) when it is in the target language,
else their typed parts (Attribute, Type, quoted names, archetypes); a requirement of kind ``other``
prints its kept phrase.  So the round trip (``bench/roundtrip.py``) shows exactly what an object
failed to keep: whatever of the original sentence is not in the rendering.

Raises :class:`RenderError` (a ``ValueError``) for an object this module has no template for (a
condition class added later), naming the kind.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex

from .normalize.common import lang_family, load_terms
from .slots import CardFilter, CostAction, MaterialLine

#: printed for the card's own name when the caller gives none
NAME_PLACEHOLDER = "this card"

_HAN = regex.compile(r"\p{Han}")


class RenderError(ValueError):
    """A condition object that has no rendering (its kind is not in the template table)."""


@lru_cache(maxsize=None)
def table(lang: str) -> dict[str, Any]:
    """The rendering table of language family ``lang`` (``en`` / ``zh`` / ``ja``): the parsed
    ``patterns/terms/render-<lang>.yaml``.  Raises :class:`RenderError` for another language."""
    return load_terms(f"render-{_fam(lang)}")


#: the language families that have a rendering table
FAMILIES = ("en", "zh", "ja")


def _fam(lang: str) -> str:
    try:
        fam = lang_family(lang)
    except ValueError as e:
        raise RenderError(f"no rendering for language {lang!r} ({', '.join(FAMILIES)} only)") from e
    if fam not in FAMILIES:
        raise RenderError(f"no rendering for language {lang!r} ({', '.join(FAMILIES)} only)")
    return fam


@lru_cache(maxsize=None)
def _script(fam: str) -> "regex.Pattern[str] | None":
    """The characters that mark a phrase as written in ``fam`` (the table's ``script``; Han for zh)."""
    src = table(fam).get("script")
    return regex.compile(src) if src else None


_FULLWIDTH = {c: c + 0xFEE0 for c in range(0x21, 0x7F)}


def _finish(text: str, fam: str) -> str:
    """The table's last pass: with ``fullwidth: true`` every ASCII character but the space becomes its
    full-width form (U+FF01-FF5E), as the official Japanese text prints digits and letters (１体, ＥＸ)."""
    return text.translate(_FULLWIDTH) if table(fam).get("fullwidth") else text


# -- slot values ---------------------------------------------------------------------------------

def render_count(count: tuple[int, int | None] | None, lang: str) -> str:
    """A count ``(min, max)`` as text: ``(2, 2)`` -> "2" / "2只", ``(1, None)`` -> "1+" / "1只以上",
    ``(1, 3)`` -> "1-3" / "1～3只"; ``None`` (not stated: "the above cards") -> ""."""
    if count is None:
        return ""
    t = table(lang)["count"]
    lo, hi = count
    if hi is None:
        return t["or_more"].format(n=lo)
    if hi == lo:
        return t["exact"].format(n=lo)
    return t["range"].format(n=lo, m=hi)


def _strip_count(phrase: str, fam: str) -> str:
    """``phrase`` without the count words it was read with (the last ``mat_count`` fragment match,
    as :func:`extractor.slots.read_count` reads it), so the object's own count is printed instead."""
    from .slots import _frag

    last = None
    for last in _frag(fam, "mat_count").finditer(phrase):
        pass
    if last is None:
        return phrase.strip()
    out = phrase[: last.start()] + " " + phrase[last.end():] if fam == "en" else phrase[: last.start()] + phrase[last.end():]
    if fam == "ja":
        out = out.rstrip("を ")  # a count read after the particle: "モンスターを1体" -> "モンスター"
    out = regex.sub(r"\s+", " ", out).strip()
    return out.strip("×x ").strip() if fam != "en" else out


def _same_lang(phrase: str, fam: str) -> bool:
    """Whether a kept phrase is written in the target language (Han characters for zh, the table's
    ``script`` for ja (kana or Han), no Han for en)."""
    script = _script(fam)
    if script is not None:
        return bool(script.search(phrase))
    has_han = bool(_HAN.search(phrase))
    return has_han if fam == "zh" else not has_han


def render_filter(f: CardFilter | None, lang: str, *, strip_count: bool = False) -> str:
    """What the cards must be, as text: the kept ``phrase`` when it is in the target language
    (its count words removed when ``strip_count``), else built from the typed parts (Attributes,
    Types, quoted names, archetypes) with the table's words; ``filter_default`` ("monster" / 怪兽)
    when nothing was kept."""
    fam = _fam(lang)
    t = table(fam)
    if f is None:
        return t["filter_default"]
    phrase = f.phrase.strip()
    if fam == "zh":
        phrase = regex.sub(r"^的\s*", "", phrase)  # a capture that starts at the particle: "的 「秘旋谍」卡"
    elif t.get("filter_strip"):
        phrase = regex.sub(t["filter_strip"], "", phrase)  # the table's particles a capture may start with
    if phrase and _same_lang(phrase, fam):
        return _strip_count(phrase, fam) if strip_count else phrase
    if fam == "en":
        return phrase or t["filter_default"]
    # a filter of another language: its typed parts
    if f.names and not f.archetypes:
        return t["or"].join(t["name"].format(name=n) for n in f.names)
    words = t["and"].join(t["attributes"].get(a, a) for a in f.attributes)
    words += "".join(t["types"].get(x, x) for x in f.types)
    if len(f.attributes) > 1:
        words += t["of"]  # 光属性和暗属性的怪兽
    noun = t["filter_default"]
    tail = _strip_count(phrase, "en") if phrase else ""
    for k in sorted(t["nouns"], key=len, reverse=True):
        if tail.endswith(k):
            noun = t["nouns"][k]
            break
    if f.archetypes:
        return words + t["archetype"].format(name=f.archetypes[0], noun=noun)
    return words + noun


def _places_text(places: list[str], fam: str) -> str:
    t = table(fam)
    return t["or"].join(t["places"].get(p, p) for p in places)


def render_cost(a: CostAction, lang: str, to_opponent_field: bool = False, form: str = "past", style: str = "") -> str:
    """One cost action as text ("banishing 1 LIGHT and 1 DARK monster from your GY" /
    "从自己墓地把光属性和暗属性的怪兽各1只除外" / "自分の墓地の光属性と闇属性のモンスターを1体ずつ除外した").
    A filter of several "and"-joined kinds whose number equals the count is printed one of each
    ("1 LIGHT and 1 DARK monster").  ``form`` picks the Japanese verb form (``past`` "除外した",
    ``conj`` "除外し", ``te`` "除外して"; the other languages have one) and ``style`` the table's
    ``cost_from_<style>`` wording of the places (Japanese ``semi_nomi``)."""
    fam = _fam(lang)
    t = table(fam)
    if fam == "ja":
        return _cost_ja(a, t, form, style, to_opponent_field)
    if a.action == "pay-lp":
        return t["cost"]["pay-lp"].format(amount=a.amount) if a.amount else t["cost"]["pay-lp-half"]
    filt = render_filter(a.filter, fam)
    count = render_count(a.count, fam)
    own = [p for p in a.places if not p.startswith("opp-")]
    opp = [p[4:] for p in a.places if p.startswith("opp-")]
    if fam == "en":
        each = _one_of_each(filt, a.count)
        if each:
            count, filt = "", each
        elif count:
            count += " "
        cf = t["cost_from"]
        other = [p for p in own if p != "field"]
        if a.action in ("discard",):
            frm = ""
        elif own == ["field"] and opp == ["field"]:
            frm = cf["field+opp-field"]
        elif opp == ["field"] and not own:
            frm = cf["opp-field-to-opp"] if to_opponent_field else cf["opp-field"]
        elif own == ["field"]:
            # "by Tributing 2 monsters" (Tributes are yours), but "Tributing all monsters you control"
            frm = "" if a.action == "tribute" and a.count is not None else cf["field"]
        elif "field" in own and other:
            frm = cf["field+other"].format(places=_places_text(other, fam))
        elif other:
            frm = cf["other"].format(places=_places_text(other, fam))
        else:
            frm = ""
        return t["cost"][a.action].format(count=count, filter=filt, **{"from": frm}, amount=a.amount or 1)
    # zh: "自己墓地的", "自己场上的"
    parts = []
    if own:
        parts.append(t["owner"]["you"] + _places_text(own, fam))
    if opp:
        parts.append(t["owner"]["opp"] + _places_text(opp, fam))
    place = t["or"].join(parts)
    frm = place
    if _zh_each(a.filter, a.count):
        counted = t["counted_each"].format(filter=filt, count=t["count"]["each"].format(n=1))
    else:
        if count and filt.endswith(tuple(t["card_nouns"])):
            count = count.replace(t["count"]["unit"], t["count"]["card_unit"])
        counted = t["counted"].format(filter=filt, count=count)
    if not count and frm:
        frm += "的"
    return t["cost"][a.action].format(**{"from": frm}, from_place=place, counted=counted, filter=filt,
                                      amount=a.amount or 1)


def _cost_ja(a: CostAction, t: dict[str, Any], form: str, style: str = "", to_opp: bool = False) -> str:
    """A Japanese cost action in verb form ``form`` from the table's ``cost`` templates: where the
    cards are (``cost_from``, with ``cost_from_<style>`` over it), the filter with its count and
    particle (``counted``), the verb."""
    forms = t["cost"]
    if f"{form}_to_opp" in forms.get(a.action, {}) and to_opp:
        form = f"{form}_to_opp"
    if a.action == "pay-lp":
        return forms["pay-lp" if a.amount else "pay-lp-half"][form].format(amount=a.amount)
    if f"{a.action}-any" in forms and (a.filter is None or not a.filter.phrase.strip()) and \
            (a.count is None or a.count[0] == a.count[1]):
        return forms[f"{a.action}-any"][form].format(n=a.count[0] if a.count else 1, amount=a.amount or 1)
    filt = render_filter(a.filter, "ja")
    own = [p for p in a.places if not p.startswith("opp-")]
    opp = [p[4:] for p in a.places if p.startswith("opp-")]
    cf = {**t["cost_from"], **(t.get(f"cost_from_{style}") or {})} if style else t["cost_from"]
    if not own and not opp:
        frm = ""
    elif own == ["field"] and opp == ["field"]:
        frm = cf["field+opp-field"]
    elif opp and not own:
        frm = cf["opp-field"]
    elif len(own) == 1 and own[0] in cf and not opp:
        frm = cf[own[0]]
    elif not opp and set(own) <= set(t["plain_places"]):
        frm = cf["plain"].format(places=_places_text(own, "ja"))
    else:
        key = "other+opp-field" if opp else "other+field" if "field" in own else "other"
        frm = cf[key].format(places=_places_text(own, "ja"))
    m = regex.match(t["filter_leads"], filt)
    lead = m.group(0) if m else ""
    filt = filt[len(lead):]
    if frm and filt.startswith(tuple(t["filter_particles"])):
        end = next((x for x in t["from_particles"] if frm.endswith(x)), "")
        frm = frm[: len(frm) - len(end)]
    elif frm and t.get("filter_at") and regex.match(t["filter_at"], filt):
        end = next((x for x in t["from_particles"] if frm.endswith(x)), "")
        frm = frm[: len(frm) - len(end)] + t["at_particle"]
    frm = lead + frm
    pieces = filt.split(t["and"])
    names_each = bool(a.filter and a.count and a.count[0] == a.count[1] == len(a.filter.names) > 1
                      and _only_names(filt, a.filter, "ja") and not _ending(filt, t["each_words"]))
    if names_each:
        counted = t["counted_each"].format(filter=filt, count=t["count"]["each"].format(n=1))
    elif _zh_each(a.filter, a.count) or (a.count and a.count[0] == a.count[1] == len(pieces) > 1):
        one = t["count"]["each"].format(n=1)
        if all(x.strip().endswith(tuple(t["each_nouns"])) for x in pieces[:-1]):
            counted = t["counted_pieces"].format(pieces=t["and"].join(
                t["each_piece"].format(filter=x.strip(), count=one) for x in pieces))
        else:
            counted = t["counted_each"].format(filter=filt, count=one)
    elif a.count is None and (word := _ending(filt, t["all_words"])):
        counted = t["counted_all"].format(filter=filt[: -len(word)], word=word)
    elif a.count and a.count[0] == a.count[1] and (word := _ending(filt, t["each_words"])):
        counted = t["counted_each_word"].format(filter=filt[: -len(word)], word=word,
                                                count=t["count"]["each"].format(n=1))
    else:
        count = render_count(a.count, "ja")
        if count and filt.endswith(tuple(t["card_nouns"])):
            count = count.replace(t["count"]["unit"], t["count"]["card_unit"])
        counted = t["counted"].format(filter=filt, count=count)
    return forms[a.action][form].format(**{"from": frm}, counted=counted, filter=filt, amount=a.amount or 1)


def _ending(text: str, words: list[str]) -> str:
    """The word of ``words`` that ``text`` ends with (and is more than), else ""."""
    return next((w for w in words if text.endswith(w) and len(text) > len(w)), "")


def _one_of_each(filt: str, count) -> str:
    """"LIGHT and DARK monster" with count 2 -> "1 LIGHT and 1 DARK monster"; "" when it does not
    apply (the number of "and"-joined kinds differs from the count)."""
    if not count or count[0] != count[1] or count[0] < 2:
        return ""
    pieces = regex.split(r",? and |, ", filt)
    if len(pieces) != count[0]:
        return ""
    return (", ".join("1 " + p for p in pieces[:-1]) + " and 1 " + pieces[-1]) if len(pieces) > 2 else \
        f"1 {pieces[0]} and 1 {pieces[1]}"


def _zh_each(f: CardFilter | None, count) -> bool:
    return bool(f and count and count[0] == count[1] and len(f.attributes) >= 2 and len(f.attributes) == count[0])


# -- condition kinds -----------------------------------------------------------------------------

def _costs_ja(c: Any, form: str, style: str = "") -> str:
    """The cost actions of ``c`` in Japanese: all but the last in the te form ("…を相手に見せて"),
    the last in ``form``; ``style`` as :func:`render_cost`."""
    n = len(c.cost)
    return "".join(render_cost(a, "ja", c.to_opponent_field, "te" if i < n - 1 else form, style)
                   for i, a in enumerate(c.cost))


def _count_form(count: tuple[int, int | None] | None) -> str | None:
    """The form of a requirement's count: ``none`` (0, 0), ``exact`` (n, n), ``or_more`` (n, None)."""
    if count is None:
        return None
    lo, hi = count
    return "none" if hi == 0 else "exact" if hi == lo else "or_more" if hi is None else None


_KANA = regex.compile(r"[\p{Hiragana}\p{Katakana}]")


def _written_in(phrase: str, fam: str) -> bool:
    """Whether a requirement's words are written in ``fam``: Japanese has kana, Chinese Han and no
    kana, English neither (stricter than :func:`_same_lang`: Chinese and Japanese share Han)."""
    kana, han = bool(_KANA.search(phrase)), bool(_HAN.search(phrase))
    return kana if fam == "ja" else (han and not kana) if fam == "zh" else not (han or kana)


def _requirement_filter(f: CardFilter, fam: str) -> str | None:
    """The cards a requirement counts, as text: the kept phrase in the target language, else (a
    filter read from another language) its typed parts -- in English the Attributes and Types before
    the card kinds, the archetype or the table's ``requirement_noun`` ("DARK monsters"), elsewhere
    :func:`render_filter`'s; ``None`` when those cannot say it (a Level; card kinds outside English)."""
    phrase = f.phrase.strip()
    if phrase and _written_in(phrase, fam):
        return phrase
    if f.levels is not None or (f.card_kinds and fam != "en"):
        return None
    t = table(fam)
    # the noun the other language's words end with (卡 / カード: cards), else the default
    mapped = next((v for k, v in (t.get("requirement_nouns") or {}).items() if phrase.endswith(k)), None)
    if fam != "en":
        if not _written_in(phrase, "zh") and not _written_in(phrase, "ja"):
            return render_filter(f, fam)  # an English filter: its noun is read from its words
        words = render_filter(f.model_copy(update={"phrase": ""}), fam)
        default = t["filter_default"]
        return words[: -len(default)] + mapped if mapped and words.endswith(default) else words
    if f.archetypes:
        noun = f'"{f.archetypes[0]}" monsters'
    elif f.card_kinds:
        kinds = list(f.card_kinds)
        noun = "/".join(kinds) + (" Cards" if set(kinds) <= {"Spell", "Trap"} else "s")
    else:
        noun = mapped or t["requirement_noun"]
    return " ".join([*f.attributes, *f.types, noun])


def render_requirement(r: Any, lang: str) -> str:
    """A procedure's requirement (:class:`extractor.slots.Requirement`) as text: its kept phrase
    when written in the target language (so the round trip compares the words read); else, for a
    requirement of one typed kind (no second part) whose count and filter were read, the table's
    ``requirement_counted`` sentence of that kind and count form ("exactly 3 DARK monsters in your
    GY" -> 自己墓地的暗属性怪兽是3只的场合; ``cards-in-gy`` only for your own GY); else the kind's
    sentence (``requirement``), else the phrase.  Seed: issue 10 §1 ("exactly 3 DARK monsters in
    your GY") and §7 (every object renders to canonical text).  Raises :class:`RenderError` for a
    language without a table."""
    fam = _fam(lang)
    t = table(fam)
    if r.phrase and _same_lang(r.phrase, fam) and (_written_in(r.phrase, fam) or r.count is None or r.filter is None):
        return r.phrase.strip() if fam == "ja" else r.phrase
    form = _count_form(r.count)
    forms = (t.get("requirement_counted") or {}).get(r.kind) or {}
    filt = _requirement_filter(r.filter, fam) if r.filter is not None else None
    if form in forms and filt and not r.parts and (r.kind != "cards-in-gy" or tuple(r.whose) == ("you",)):
        return forms[form].format(n=r.count[0], filter=filt)
    if r.phrase and _same_lang(r.phrase, fam):
        return r.phrase.strip() if fam == "ja" else r.phrase
    return t["requirement"].get(r.kind, t["requirement"]["other"]).format(phrase=r.phrase)


def _procedure_ja(c: Any, t: dict[str, Any], name: str | None) -> str:
    """A Japanese procedure (seed 002 built-in Special Summon): Nomi "…した場合のみ特殊召喚できる。"
    (``exclusive`` and not ``first``), Semi-Nomi "…した場合に特殊召喚できる。" (``first`` or the older
    ``either``), else optional "…場合、このカードは手札から特殊召喚できる。"; the limit of a Nomi /
    Semi-Nomi procedure at its head ("「X」は１ターンに１度、"), of an optional one in a sentence after it."""
    p = t["procedure"]
    name = t["name"].format(name=name) if name else t["name_placeholder"]
    slots = {"from": p["from"].format(places=_places_text(list(c.locations), "ja")) if c.locations else "",
             "to_opp": p["to_opp"] if c.to_opponent_field else "",
             "position": p["position"][c.position] if c.position else "", "limit": ""}
    req = ""
    if c.requirement is not None:
        req = render_requirement(c.requirement, "ja")
        # a kept phrase that ends with a time word takes its particle (…デュエル中に、)
        req += next((pt for end, pt in (p.get("requirement_particles") or {}).items() if req.endswith(end)), "")
    after = ""
    if c.exclusive or c.first or c.either:
        nomi = c.exclusive and (not c.first or list(c.locations) in p["nomi_from"])
        key = "nomi" if nomi else "semi_nomi"
        if c.limit:
            slots["limit"] = p["limit_inline"][c.limit].format(name=name)
        if c.cost:
            slots["cost"] = _costs_ja(c, "past", key)
            slots["requirement"] = p["requirement_lead"].format(requirement=req) if req else ""
        elif req:
            key += "_requirement_only"
            slots["requirement"], slots["cost"] = req, ""
        else:
            slots["requirement"] = slots["cost"] = ""
    else:
        key = "optional"
        slots["cost"] = p["cost_lead"].format(cost=_costs_ja(c, "conj")) if c.cost else ""
        slots["requirement"] = p["requirement_lead"].format(requirement=req) if req else ""
        if c.limit:
            after = p["limit"][c.limit].format(name=name)
    return p[key].format(**slots) + after


def _procedure(c: Any, fam: str, name: str | None) -> str:
    t = table(fam)
    if fam == "ja":
        return _procedure_ja(c, t, name)
    p = t["procedure"]
    actions = t["cost_join"].join(render_cost(a, fam, c.to_opponent_field) for a in c.cost)
    cost = p["cost"].format(actions=actions) if actions else ""
    locs = [x for x in c.locations]
    frm = p["from"].format(places=_places_text(locs, fam)) if locs else ""
    to_opp = p["to_opp"] if c.to_opponent_field else ""
    position = p["position"][c.position] if c.position else ""
    first = p["first"] if c.first else ""
    req = render_requirement(c.requirement, fam) if c.requirement is not None else ""
    after = ""
    if req and fam == "en" and not req.lower().startswith(tuple(p["requirement_front"])):
        # "by having 3 DARK monsters in your GY", "while "Pandemonium" is on the field": after the cost
        glue = " " if req.lower().startswith(tuple(p["requirement_after_bare"])) else ", "
        after, req = glue + req, ""
    if req:
        key = "exclusive_with_requirement" if c.exclusive else "with_requirement"
        if not cost and f"{key}_no_cost" in p:
            key += "_no_cost"
    elif c.either:
        key = "either"
    elif not cost and not c.exclusive and "optional_no_cost" in p:
        key = "optional_no_cost"
    else:
        key = "exclusive" if c.exclusive else "optional"
    out = p[key].format(first=first, cost=cost + after, requirement=req, only=p.get("only", ""), to_opp=to_opp,
                        position=position, **{"from": frm})
    if c.limit:
        out += p["limit"][c.limit].format(name=name or NAME_PLACEHOLDER)
    return out


def _self_summon(c: Any, fam: str) -> str:
    """An effect that Special Summons the card itself, with its trigger (the kept words before the
    colon, printed as kept; in brackets when kept in another language) and its cost (the cost actions, as a command in English: "You can
    Tribute 1 DARK monster; Special Summon this card from your hand"; 把…解放才能发动 in Chinese)."""
    t = table(fam)
    s = t["self_summon"]
    if fam == "ja":
        key = "trigger_foreign" if c.trigger and not _same_lang(c.trigger, fam) else \
            "trigger_with_cost" if c.cost else "trigger"
        frm = s["from"].format(places=_places_text(list(c.locations), fam)) if c.locations else ""
        trigger = s[key].format(trigger=c.trigger) if c.trigger else ""
        if not c.cost:
            return s["no_cost"].format(trigger=trigger, **{"from": frm})
        return s["with_cost"].format(trigger=trigger, cost=_costs_ja(c, "te"), **{"from": frm})
    trigger = "" if not c.trigger else \
        s["trigger" if _same_lang(c.trigger, fam) else "trigger_foreign"].format(trigger=c.trigger)
    frm = s["from"].format(places=_places_text(list(c.locations), fam)) if c.locations else ""
    if not c.cost:
        return s["no_cost"].format(trigger=trigger, **{"from": frm})
    actions = [render_cost(a, fam) for a in c.cost]
    if fam == "en":
        verbs = s["imperative"]
        actions = [verbs.get(a.split(" ", 1)[0], a.split(" ", 1)[0]) + (" " + a.split(" ", 1)[1] if " " in a else "")
                   for a in actions]
    elif trigger:
        trigger += s["trigger_then_cost"]
    return s["with_cost"].format(trigger=trigger, cost=t["cost_join"].join(actions), **{"from": frm})


def _only_names(filt: str, f: CardFilter, fam: str) -> bool:
    """Whether a material filter is only quoted card names joined with "or" ("\"X\" or \"Y\""), or starts
    with a card name (""X" or 1 Fusion Monster that mentions it"): such a part prints no count."""
    if any(filt.startswith((f'"{n}"', f"「{n}」")) for n in f.names):
        return True
    rest = filt
    for n in f.names:
        rest = rest.replace(f'"{n}"', " ").replace(f"「{n}」", " ")
    return not regex.sub(r"\bor\b|或|[\s,，、]", "", rest)


def render_material_line(line: MaterialLine, lang: str, name: str | None = None) -> str:
    """A material line ("1 Tuner + 1+ non-Tuner monsters" / "调整＋调整以外的怪兽1只以上"): each part
    is its count and its filter (a part that is one named card prints the name alone), joined with
    "+" / "＋"; Xyz parts in Chinese are "filter×n"."""
    fam = _fam(lang)
    t = table(fam)
    m = t["material"]
    if fam == "ja":
        return _material_line_ja(line, t, name)
    out = []
    for count, f in line.parts:
        filt = render_filter(f, fam, strip_count=True)
        named = bool(f.names) and count == (1, 1) and _only_names(filt, f, fam)
        tuner_only = fam == "zh" and f.card_kinds == ("Tuner",) and count == (1, 1)
        if named or tuner_only or (count == (1, 1) and fam == "zh" and line.summon != "link"):
            out.append(m["named"].format(filter=filt))
        elif fam == "zh" and line.summon in ("xyz", "fusion") and count and count[0] == count[1]:
            out.append(m["xyz_part"].format(filter=filt, n=count[0]))
        else:
            out.append(m["part"].format(count=render_count(count, fam), filter=filt).strip())
    text = m["plus"].join(out)
    if line.alternative and not out:
        return m["alternative_named" if name else "alternative_bare"].format(name=name)
    if line.alternative:
        text = m["alternative"].format(line=text)
    return text


def _material_line_ja(line: MaterialLine, t: dict[str, Any], name: str | None) -> str:
    """A Japanese material line: a part of one card prints no count in the table's ``bare_one_kinds``
    (a name; the Tuner, the first part, of a Synchro line); Xyz and Fusion parts count "×n" (or more:
    "×n体以上"), the others "n体" / "n体以上" ("チューナー＋チューナー以外のモンスター１体以上")."""
    m = t["material"]
    out = []
    for i, (count, f) in enumerate(line.parts):
        filt = render_filter(f, "ja", strip_count=True)
        named = bool(f.names) and count == (1, 1) and _only_names(filt, f, "ja") and not any(
            filt.startswith(f"{t['name'].format(name=n)}{w}") for n in f.names for w in m["not_named_after"])
        bare = line.summon in m["bare_one_kinds"] and (line.summon != "synchro" or i == 0)
        if count == (1, 1) and (named or bare):
            out.append(m["named"].format(filter=filt))
        elif count and line.summon in m["times_kinds"] and count[0] >= 2:
            lo, hi = count
            key = "times_part" if hi == lo else "times_or_more" if hi is None else "times_range"
            out.append(m[key].format(filter=filt, n=lo, m=hi))
        else:
            out.append(m["part"].format(count=render_count(count, "ja"), filter=filt))
    if line.alternative and not out:
        return m["alternative_named" if name else "alternative_bare"].format(name=name)
    text = m["plus"].join(out)
    return m["alternative"].format(line=text) if line.alternative else text


def _player_lock(lk: Any, fam: str, t: dict[str, Any]) -> str:
    """A player lock (issue 10 §5) from the table's ``player_lock`` templates: who, what (a Summon
    kind when one is locked), the locked monsters or "monsters", from where, how long, except what
    (the exception and locked phrases are printed as read, in the language they were read in)."""
    pl = t["player_lock"]
    what = (pl["kind_what"].format(summon=t["summons"].get(lk.summon_kind, lk.summon_kind)) if lk.summon_kind
            else pl["what"][lk.what])
    if lk.locked is not None and lk.locked.phrase:
        obj = pl["locked"].format(phrase=lk.locked.phrase) if "locked" in pl else lk.locked.phrase
    else:
        obj = pl["object"]
    sentence = pl["sentence_exception"] if lk.exception is not None and "sentence_exception" in pl else pl["sentence"]
    return sentence.format(
        who=pl["who"][lk.who], cannot=pl.get("cannot", {}).get(lk.who, ""), what=what, object=obj,
        **{"from": pl["from"].format(places=_places_text(list(lk.from_places), fam)) if lk.from_places else ""},
        duration=pl["duration"][lk.duration] if lk.duration else "",
        exception=pl["exception"].format(phrase=lk.exception.phrase) if lk.exception is not None else "")


def render(c: Any, lang: str = "en", name: str | None = None) -> str:
    """Canonical text of one condition object.

    Input: ``c``, a condition object of :mod:`extractor.conditions` (or its ``model_dump``-ed dict:
    it is validated back into its class); ``lang``: ``en``, ``zh`` (``zh-CN`` / ``zh-TW``) or ``ja``;
    ``name``: the card's name for the once-per-turn sentence (placeholder when absent).  Output: the
    text (one or more sentences; a material line is a line without a full stop).  Seed 002: a
    procedure "must be Special Summoned by its own method (e.g. Tributing, banishing)"; seed 000:
    "1 Tuner + 1 or more non-Tuner monsters".  Raises :class:`RenderError` for a kind without a
    template or a language other than en / zh / ja."""
    fam = _fam(lang)
    return _finish(_render(c, fam, name), fam)


def _render(c: Any, fam: str, name: str | None) -> str:
    if isinstance(c, dict):
        from .conditions import CONDITION_CLASSES

        if c.get("kind") not in CONDITION_CLASSES:
            raise RenderError(f"no rendering for condition kind {c.get('kind')!r}")
        c = CONDITION_CLASSES[c["kind"]].model_validate(c)
    t = table(fam)
    kind = c.kind
    if kind == "builtin-special-summon":
        return _procedure(c, fam, name)
    if kind == "material-line":
        return render_material_line(c.line, fam, name)
    if kind == "special-summons-itself" and (c.trigger or c.cost):
        return _self_summon(c, fam)
    if kind == "player-lock":
        return _player_lock(c.lock, fam, t)
    if kind == "summon-limit":  # "You can only Special Summon "X" once per turn" (the name as written)
        sl = t["summon_limit"]
        return sl["sentence"].format(summon=sl["special"] if c.summon == "special" else t["summons"][c.summon],
                                     name=c.name or name or NAME_PLACEHOLDER, per=sl["per"][c.limit])
    if kind == "tribute-rule":
        tr = t["tribute_rule"]
        filt = render_filter(c.filter, fam) if c.filter and c.filter.phrase else t["filter_default"]
        mode = c.mode if c.count is not None else f"{c.mode}-any-number"
        if c.filter is None or not c.filter.phrase:
            mode += "-no-filter" if f"{mode}-no-filter" in tr else ""
        return tr[mode].format(count=c.count, filter=filt)
    k = t["kinds"]
    vals: dict[str, Any] = {}
    key = kind
    if kind in ("cannot-normal-summon", "tributes-required", "normal-summon-without-tributes") and getattr(c, "set_allowed", False):
        key = f"{kind}-set-allowed"
    elif kind == "must-be-special-summoned":
        key = f"must-be-special-summoned-{c.method}"
        if c.method in t["summons"]:
            key = "must-be-special-summoned-summon"
            vals["summon"] = t["summons"][c.method]
        if c.first and f"{key}-first" in k:
            key += "-first"
        vals["first"] = table(fam)["procedure"].get("first", "") if c.first else ""
        vals["names"] = t["or"].join(t["name"].format(name=n) for n in c.named_cards) or \
            t.get("names_placeholder", NAME_PLACEHOLDER)
    if hasattr(c, "summon"):
        vals["summon"] = t["summons"].get(c.summon, c.summon)
    if hasattr(c, "locations"):
        vals["locations"] = _places_text(list(c.locations), fam)
        if not c.locations:
            key += "-anywhere" if key + "-anywhere" in k else ""
    if hasattr(c, "count"):
        vals["count"] = c.count
    if hasattr(c, "ritual_spell"):
        vals["ritual_spell"] = t["name"].format(name=c.ritual_spell) if c.ritual_spell else NAME_PLACEHOLDER
    vals.setdefault("first", "")
    if key not in k:
        raise RenderError(f"no {fam} rendering for condition kind {kind!r} ({key})")
    return k[key].format(**vals)
