"""``docs/ruleset.md`` and the JSON Schemas, written from the one model of each input format.

Run ``python -m tracker.engine.ruleset_docs`` after changing :mod:`tracker.engine.ruleset_model` or
:mod:`tracker.engine.night.scenario_model` (the night scenario's ``scenario.schema.json``);
``tests/test_ruleset_format.py`` fails while the committed files differ from what this writes, so a
key cannot be added, renamed or given a new default without its documentation following.
"""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from tracker.engine.night.scenario_model import scenario_schema
from tracker.engine.ruleset_copy import default_words
from tracker.engine.ruleset_errors import toml_value
from tracker.engine.ruleset_model import TABLES, NightT, RulesetT

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "ruleset.md"
SCHEMA_PATH = Path(__file__).with_name("ruleset.schema.json")
NIGHT_SCHEMA_PATH = Path(__file__).with_name("night.schema.json")
SCENARIO_SCHEMA_PATH = Path(__file__).with_name("night") / "scenario.schema.json"

_HEADERS: dict[type[BaseModel], str] = {model: header for header, model in TABLES}

INTRO = """\
# The ruleset file

<!-- Written by `python -m tracker.engine.ruleset_docs` from tracker/engine/ruleset_model.py; edit the
model, not this file (tests/test_ruleset_format.py holds them equal). -->

A game's rules are one TOML file: the bundled ones are `tracker/engine/rulesets/<id>.toml` (their
nights in `rulesets/night/<id>.toml`); a game of your own is any `.toml` file, named in the game
file's `ruleset` by its path. Start from a bundled one with `tracker ruleset new --from ID --out
my-game.toml` (a copy with every key explained, its night inline) and check it with
`tracker ruleset check my-game.toml`: every error with its key and line, and a warning for each
key left out whose default switches a rule on (marked **on by default** below). Write the rule
post's sentence beside each key (a `clause`, or a `#` comment).

Types are strict: `"3"` is not a number, `1` is not `true`. An unknown key is an error (with the
nearest valid one). "—" as a default means the key may be left out and then nothing applies.
The same format as JSON Schema: `tracker/engine/ruleset.schema.json` (the ruleset) and
`tracker/engine/night.schema.json` (a separate night file).
"""


def _bounds(meta: list[Any]) -> str:
    words = []
    for m in meta:
        for attr, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            v = getattr(m, attr, None)
            if v is not None and v != 1_000_000:
                words.append(f"{sign} {v:g}" if isinstance(v, float) else f"{sign} {v}")
        if getattr(m, "min_length", None):
            words.append("not empty")
        if getattr(m, "pattern", None):
            words.append("HH:MM")
    return ", ".join(words)


def type_words(annotation: Any, meta: list[Any] | None = None) -> str:
    """A field's type as the documentation says it."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_words(args[0], [*(meta or []), *(x for a in args[1:] for x in getattr(a, "metadata", [a]))])
    if origin is typing.Literal:
        return " / ".join(f"`{toml_value(a)}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        parts = [type_words(a) for a in args if a is not type(None)]
        return " or ".join(parts)
    if origin is list:
        inner = args[0] if args else Any
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return f"array of {_ref(inner)}"
        return f"list of {type_words(inner)}"
    if origin is dict:
        return f"table of {type_words(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _ref(annotation)
    name = {str: "string", int: "integer", float: "number", bool: "boolean"}.get(annotation, "any value")
    b = _bounds(meta or [])
    return f"{name} ({b})" if b else name


def _ref(model: type[BaseModel]) -> str:
    return f"`{_HEADERS.get(model, model.__name__)}`"


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    if field.default is None or isinstance(field.default, BaseModel):
        return "—"
    words = default_words(field)[4:-1]  # （默认 X） → X
    return f"`{words}`"


def _meaning(field: FieldInfo) -> str:
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    on = f" **On by default:** {extra['switches_on']}." if extra.get("switches_on") else ""
    return (field.description or "").replace("|", "\\|") + on


def markdown() -> str:
    out = [INTRO]
    for header, model in TABLES:
        out += ["", f"## {header if header.startswith('(') else f'`{header}`'}", ""]
        doc = (model.__doc__ or "").strip().removeprefix(f"`{header}` — ")
        if doc:
            out += [" ".join(doc.split()), ""]
        out += ["| key | type | default | meaning |", "|---|---|---|---|"]
        for name, field in model.model_fields.items():
            t = type_words(field.annotation, list(field.metadata)).replace("|", "\\|")
            out.append(f"| `{name}` | {t} | {_default(field)} | {_meaning(field)} |")
    return "\n".join(out) + "\n"


def schema(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def scenario_schema_text() -> str:
    return json.dumps(scenario_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def write() -> None:
    DOC_PATH.write_text(markdown(), encoding="utf-8")
    SCHEMA_PATH.write_text(schema(RulesetT), encoding="utf-8")
    NIGHT_SCHEMA_PATH.write_text(schema(NightT), encoding="utf-8")
    SCENARIO_SCHEMA_PATH.write_text(scenario_schema_text(), encoding="utf-8")


if __name__ == "__main__":
    write()
