"""The published JSON Schema stays in step with the loader."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from pnp.designer.scaffold import CONTENT_SCHEMA, GAME_SCHEMA, schema_data

from helpers import REPO


def _editor_view(obj):
    """What an editor's YAML plugin validates: keys as strings, dates as text."""
    if isinstance(obj, dict):
        return {str(k): _editor_view(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_editor_view(v) for v in obj]
    if isinstance(obj, datetime.date):
        return obj.isoformat()
    return obj


def test_committed_schemas_are_current() -> None:
    for name, data in schema_data().items():
        committed = json.loads((REPO / "cards" / name).read_text("utf-8"))
        assert committed == data, f"cards/{name} is stale: run `pnp schema`"


YAML_FILES = sorted((REPO / "cards").rglob("*.yaml"))


@pytest.mark.parametrize("path", YAML_FILES, ids=[str(p.relative_to(REPO)) for p in YAML_FILES])
def test_every_bundled_file_validates(path: Path) -> None:
    schemas = schema_data()
    schema = schemas[GAME_SCHEMA if path.name == "game.yaml" else CONTENT_SCHEMA]
    data = _editor_view(YAML(typ="safe").load(path.read_text("utf-8")))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:3]]


def test_schema_rejects_what_the_loader_rejects() -> None:
    schema = schema_data()[CONTENT_SCHEMA]
    validator = jsonschema.Draft202012Validator(schema)
    typo = {"decks": {"d": {"cards": [{"id": "x", "titel": "X"}]}}}
    assert list(validator.iter_errors(typo))
    wrong = {"decks": {"d": {"cards": [{"id": "x", "copies": "many"}]}}}
    assert list(validator.iter_errors(wrong))
    ok = {
        "decks": {"d": {"size": "poker", "cards": [{"id": "x", "copies": 2, "title": {"en": "X"}}]}}
    }
    assert not list(validator.iter_errors(ok))
