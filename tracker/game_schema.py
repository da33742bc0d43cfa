"""The game file checked against its JSON Schema without pydantic: the fast read of a valid file.

`tracker crawl` runs from cron every few minutes, a fresh process each time, and reads the game file
every time; building the pydantic models that validate it (``tracker.config_model``) cost ~0.17 s of
CPU, a tenth of a re-crawl of a big game. The rules stay in one place, that model:
``game.schema.json`` is written from it (``python -m tracker.config_model``; a test fails when they
drift), and :func:`conforming` only checks a document against that schema. It knows the few schema
keywords the model produces and reads them as pydantic's strict mode does (an int is not a bool, a
float field takes an int as a float, a date-time is a TOML datetime); anything else — an unknown
keyword, a value it does not accept — answers None, and the caller asks the model, which either
accepts or says what is wrong in the director's words. So the fast read can only be faster, never
more lenient (tests/test_game_schema.py compares both on thousands of altered game files).
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).with_name("game.schema.json")
_IGNORED = frozenset({"title", "description", "default"})


class _Unsure(Exception):
    """The value does not conform, or the schema says something this check does not read."""


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def conforming(data: dict[str, Any]) -> dict[str, Any] | None:
    """The document as the model would give it back (defaults filled in, numbers of a float field as
    floats, an event's own keys kept), or None when only the model can say."""
    root = schema()
    try:
        out = _check(data, root, root)
    except (_Unsure, RecursionError):
        return None
    return out if isinstance(out, dict) else None


def _check(value: Any, node: dict[str, Any], root: dict[str, Any]) -> Any:
    if "$ref" in node:
        if set(node) - _IGNORED - {"$ref"}:
            raise _Unsure
        return _check(value, _resolve(node["$ref"], root), root)
    if "anyOf" in node:
        if set(node) - _IGNORED - {"anyOf"}:
            raise _Unsure
        for option in node["anyOf"]:
            try:
                return _check(value, option, root)
            except _Unsure:
                continue
        raise _Unsure
    kind = node.get("type")
    check = _TYPES.get(kind) if isinstance(kind, str) else None
    if check is None:
        raise _Unsure
    return check(value, node, root)


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    prefix = "#/$defs/"
    if not ref.startswith(prefix) or ref[len(prefix):] not in root.get("$defs", {}):
        raise _Unsure
    found: dict[str, Any] = root["$defs"][ref[len(prefix):]]
    return found


def _only(node: dict[str, Any], *keys: str) -> None:
    if set(node) - _IGNORED - {"type", *keys}:
        raise _Unsure


def _bounded(value: float, node: dict[str, Any]) -> None:
    # written "not (a <= b)" so that a NaN, which compares false with everything, is refused
    if "minimum" in node and not value >= node["minimum"]:
        raise _Unsure
    if "maximum" in node and not value <= node["maximum"]:
        raise _Unsure
    if "exclusiveMinimum" in node and not value > node["exclusiveMinimum"]:
        raise _Unsure
    if "exclusiveMaximum" in node and not value < node["exclusiveMaximum"]:
        raise _Unsure


def _integer(value: Any, node: dict[str, Any], root: dict[str, Any]) -> int:
    _only(node, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Unsure
    _bounded(value, node)
    return value


def _number(value: Any, node: dict[str, Any], root: dict[str, Any]) -> float:
    _only(node, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _Unsure
    _bounded(value, node)
    return float(value)


def _string(value: Any, node: dict[str, Any], root: dict[str, Any]) -> str | datetime:
    _only(node, "minLength", "maxLength", "format")
    if "format" in node:  # a TOML datetime, which pydantic's strict datetime takes; never a string
        if node["format"] != "date-time" or set(node) - _IGNORED - {"type", "format"}:
            raise _Unsure
        if not isinstance(value, datetime):
            raise _Unsure
        return value
    if not isinstance(value, str):
        raise _Unsure
    if "minLength" in node and len(value) < node["minLength"]:
        raise _Unsure
    if "maxLength" in node and len(value) > node["maxLength"]:
        raise _Unsure
    return value


def _boolean(value: Any, node: dict[str, Any], root: dict[str, Any]) -> bool:
    _only(node)
    if not isinstance(value, bool):
        raise _Unsure
    return value


def _null(value: Any, node: dict[str, Any], root: dict[str, Any]) -> None:
    _only(node)
    if value is not None:
        raise _Unsure


def _array(value: Any, node: dict[str, Any], root: dict[str, Any]) -> list[Any]:
    _only(node, "items")
    if not isinstance(value, list):
        raise _Unsure
    items = node.get("items")
    if items is None:
        raise _Unsure
    return [_check(v, items, root) for v in value]


def _object(value: Any, node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    _only(node, "properties", "required", "additionalProperties", "$defs")
    if not isinstance(value, dict):
        raise _Unsure
    props: dict[str, Any] = node.get("properties", {})
    extra = node.get("additionalProperties", True)
    if extra not in (True, False):
        raise _Unsure
    if any(k not in value for k in node.get("required", ())):
        raise _Unsure
    out: dict[str, Any] = {}
    for key, sub in props.items():
        if key in value:
            out[key] = _check(value[key], sub, root)
        elif "default" in sub:
            out[key] = copy.deepcopy(sub["default"])
        else:
            raise _Unsure
    rest = [k for k in value if k not in props]
    if rest and extra is False:
        raise _Unsure
    for key in rest:
        if not isinstance(key, str):
            raise _Unsure
        out[key] = value[key]  # an event's own data, or [options]: any value, as the model keeps it
    return out


_TYPES = {"integer": _integer, "number": _number, "string": _string, "boolean": _boolean, "null": _null,
          "array": _array, "object": _object}
