"""Structure (procedures, materials, tribute_rules) in every output: the JSON Schema, CSV, SQLite
and explain (issue 10 §6)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from extractor.cli import main
from extractor.structure_models import StructureView, output_schema

SAMPLE = Path(__file__).resolve().parent.parent / "corpora" / "sample" / "cards.jsonl"
KEYS = ("procedures", "materials", "tribute_rules")


@pytest.fixture(scope="module")
def sample_jsonl(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("ws") / "out.jsonl"
    r = CliRunner().invoke(main, ["tag", str(SAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------- JSON Schema

def test_schema_describes_structure_items():
    r = CliRunner().invoke(main, ["schema"])
    assert r.exit_code == 0
    schema = json.loads(r.stdout)
    props, defs = schema["properties"], schema["$defs"]
    assert props["procedures"]["items"] == {"$ref": "#/$defs/ProcedureItem"}
    assert props["tribute_rules"]["items"] == {"$ref": "#/$defs/TributeRuleItem"}
    assert props["materials"]["items"]["discriminator"]["propertyName"] == "summon"
    proc = defs["ProcedureItem"]
    assert proc["additionalProperties"] is False
    assert {"range", "once_per_turn", "cost_actions", "requires_condition", "requirement", "cost"} <= set(proc["properties"])
    assert "from" in defs["CostActionItem"]["properties"]  # the alias, as written in the output
    assert defs["SynchroMaterial"]["properties"]["summon"]["const"] == "synchro"
    assert schema == output_schema()


def test_real_output_fits_the_models_exactly(sample_jsonl):
    items = 0
    for rec in sample_jsonl:
        view = StructureView.model_validate({k: rec.get(k, []) for k in KEYS})
        # a round trip through the models gives the written items back: no key is unknown or lost
        assert view.model_dump(mode="json", by_alias=True, exclude_unset=True) == {k: rec.get(k, []) for k in KEYS}
        items += sum(len(rec.get(k, [])) for k in KEYS)
    assert items >= 15


def test_models_refuse_an_unknown_key():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        StructureView.model_validate({"tribute_rules": [{"mode": "required", "tributes": 3, "span": [0, 1],
                                                         "pattern_id": "x", "colour": "red"}]})
