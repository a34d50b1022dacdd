"""Pydantic models of the STRUCTURE.md view (issue 10 §3 and §6): one model per item of the
``procedures``, ``materials`` and ``tribute_rules`` lists that :func:`extractor.structure.structure_of`
returns and ``tag`` writes.

They describe the view, they do not build it: ``structure_of`` returns plain dicts (no validation
cost per card), and these models give the JSON Schema of ``ygo-extractor schema``
(:func:`output_schema`) and let a test check every written item against it
(``ProcedureItem.model_validate(d)``).  The models forbid unknown keys, so the schema is exact: a
key added to the view must be added here too (tests/test_writers_structure.py checks real output).

Shapes (``../shared/eval/STRUCTURE.md``, "Row schema"): counts are ``[min, max]`` with ``max``
``null`` for "or more"; places are STRUCTURE.md's (``hand``, ``grave``, ``deck``, ``banished``,
``extra``, ``field`` and ``opp_`` versions); ``span`` and ``pattern_id`` name the words an item came
from; ``requirement`` and ``cost`` are the project's own slot objects (:mod:`extractor.slots`,
project place names: ``gy``, ``opp-field``), dumped without their default values.
"""

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from . import slots

__all__ = ["StructPlace", "CostActionItem", "ProcedureItem", "SynchroMaterial", "XyzMaterial", "LinkMaterial",
           "FusionMaterial", "MaterialItem", "TributeRuleItem", "StructureView", "output_schema"]

#: a place in STRUCTURE.md's spelling (:func:`extractor.structure.place_name`)
StructPlace = Literal["hand", "grave", "deck", "banished", "extra", "field",
                      "opp_hand", "opp_grave", "opp_deck", "opp_banished", "opp_extra", "opp_field"]
#: ``[min, max]``; ``max`` ``None`` = "or more" ("1+": ``[1, None]``)
CountPair = tuple[int, Union[int, None]]
Span = tuple[int, int]


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class CostActionItem(_Item):
    """One ``cost_actions`` entry: ``action`` (STRUCTURE.md's names; ``none`` = nothing is paid, then
    the only entry); ``count``: ``[min, max]`` cards, for ``pay_lp`` the LP amount (an int, ``None``
    = "half your LP"), for ``detach`` / ``remove_counter`` ``[n, n]`` materials or counters, ``None``
    = not read; ``from``: where the paid cards come from (absent for ``pay_lp``, ``detach``,
    ``remove_counter``, ``none``; ``None`` = not read)."""

    action: Literal["tribute", "banish", "send_to_gy", "discard", "return_to_deck", "return_to_hand", "reveal",
                    "pay_lp", "detach", "remove_counter", "none"]
    count: Union[CountPair, int, None] = None
    from_: Union[list[StructPlace], None] = Field(None, alias="from")


class ProcedureItem(_Item):
    """A built-in Special Summon procedure (seed 002: it starts no Chain).  STRUCTURE.md keys:
    ``kind``, ``range`` (where the card is Special Summoned from, sorted), ``once_per_turn``,
    ``once_per_duel``, ``to_opponent_field``, ``position`` (forced position or ``None``),
    ``zone_restricted``, ``cost_actions``, ``requires_condition``.  Extra keys: ``requirement``
    (the precondition, :class:`extractor.slots.Requirement`, or ``None``), ``cost`` (the cost
    actions as read, with filters: :class:`extractor.slots.CostAction`), ``span``, ``pattern_id``."""

    kind: Literal["builtin", "fusion_contact"]
    range: list[StructPlace]
    once_per_turn: bool
    once_per_duel: bool
    to_opponent_field: bool
    position: Union[Literal["attack", "defense"], None]
    zone_restricted: bool
    cost_actions: list[CostActionItem]
    requires_condition: bool
    requirement: Union[slots.Requirement, None] = None
    cost: list[slots.CostAction] = Field(default_factory=list)
    span: Span
    pattern_id: str


class _Material(_Item):
    span: Span
    pattern_id: str


class SynchroMaterial(_Material):
    """A Synchro material line: ``tuner`` and ``non_tuner`` counts ("1 Tuner + 1+ non-Tuner
    monsters": ``[1, 1]``, ``[1, None]``)."""

    summon: Literal["synchro"]
    tuner: Union[CountPair, None]
    non_tuner: Union[CountPair, None]


class XyzMaterial(_Material):
    """An Xyz material line: ``level`` (``None`` = no Level given), ``count``, ``alternative``
    ("You can also Xyz Summon this card by using ...")."""

    summon: Literal["xyz"]
    level: Union[int, None]
    count: Union[CountPair, None]
    alternative: bool


class LinkMaterial(_Material):
    """A Link material line: ``count`` ("2+ Effect Monsters": ``[2, None]``)."""

    summon: Literal["link"]
    count: Union[CountPair, None]


class FusionMaterial(_Material):
    """A Fusion material line: ``count`` (all materials), ``named_materials`` (passcodes of the
    materials named by card name that the input database holds), ``named_names`` (those names as
    written, resolved or not)."""

    summon: Literal["fusion"]
    count: Union[CountPair, None]
    named_materials: list[int]
    named_names: list[str]


#: one ``materials`` entry, told apart by ``summon``
MaterialItem = Annotated[Union[SynchroMaterial, XyzMaterial, LinkMaterial, FusionMaterial],
                         Field(discriminator="summon")]


class TributeRuleItem(_Item):
    """An alternative Normal / Tribute Summon rule (seed 000, Normal Summoning Conditions):
    ``mode`` ``optional`` (an extra way) or ``required`` (the only way), ``tributes`` (``None`` =
    not read); ``filter``: what must be Tributed, as written (only rules read with one)."""

    mode: Literal["optional", "required"]
    tributes: Union[int, None]
    filter: Union[str, None] = None
    span: Span
    pattern_id: str


class StructureView(_Item):
    """The three lists of one card (the output of :func:`extractor.structure.structure_of`)."""

    procedures: list[ProcedureItem] = Field(default_factory=list)
    materials: list[MaterialItem] = Field(default_factory=list)
    tribute_rules: list[TributeRuleItem] = Field(default_factory=list)


def output_schema() -> dict[str, Any]:
    """The JSON Schema of one ``tag`` output line: :class:`extractor.pipeline.CardResult`'s, with
    ``procedures``, ``materials`` and ``tribute_rules`` described item by item by the models of this
    module (``CardResult`` types them as plain dicts so that no card pays for a validation).
    Output: a JSON-ready dict (``$defs`` merged).  Raises nothing."""
    from .pipeline import CardResult

    schema = CardResult.model_json_schema(by_alias=True)
    view = StructureView.model_json_schema(by_alias=True)
    defs = schema.setdefault("$defs", {})
    for name, d in view.get("$defs", {}).items():
        defs.setdefault(name, d)
    props = schema["properties"]
    for key in ("procedures", "materials", "tribute_rules"):
        item = view["properties"][key]
        item.pop("title", None)
        props[key] = {**item, "title": props.get(key, {}).get("title", key.replace("_", " ").title()),
                      "description": f"STRUCTURE.md `{key}` (extractor.structure_models)"}
    return schema
