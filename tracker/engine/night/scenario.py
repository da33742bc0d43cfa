"""The scenario file of ``tracker night simulate``: checked against its JSON Schema, then read.

The schema (``scenario.schema.json``, the shared vocabulary of state keys and player fields) is
the contract: a file that does not validate is refused with the path of its first error, before
any settlement, so the engine never guesses at a misspelt key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from tracker.engine.night.model import CORE_FIELDS, Action, Seat, Table
from tracker.errors import ConfigError

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text("utf-8")))


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "（顶层）"


def validate(data: Any) -> None:
    """ConfigError (exit 2) naming the path of the first error, or nothing."""
    if not isinstance(data, dict):
        raise ConfigError("情景文件的顶层应是一个 JSON 对象（含 setup 和 actions）")
    errors = sorted(_validator().iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        e = errors[0]
        raise ConfigError(f"情景文件不符合格式：{_path(list(e.absolute_path))}：{e.message}",
                          hint="键和取值见 scenario.schema.json（状态键的词汇表）")


def load(data: Mapping[str, Any]) -> tuple[Table, list[Action]]:
    """A validated scenario as a table and its actions, in submission order."""
    setup = data["setup"]
    players: dict[str, Seat] = {}
    for raw in setup["players"]:
        life = raw.get("state")
        alive = raw.get("alive", True) if life is None else life == "存活"
        players[raw["name"]] = Seat(
            name=raw["name"], role=raw["role"], faction=raw["faction"], alive=bool(alive), life=life,
            tags=list(raw.get("tags", [])), status=list(raw.get("status", [])), uses=dict(raw.get("uses", {})),
            fields={k: v for k, v in raw.items() if k not in CORE_FIELDS})
    table = Table(players=players, state=dict(setup.get("state", {})), night=setup.get("night"),
                  day=setup.get("day"), phase=setup.get("phase"), carried=list(setup.get("carried", [])))
    actions = [Action(actor=a["actor"], skill=a["skill"], targets=tuple(a.get("targets", [])), choice=a.get("choice"),
                      phase=a.get("phase"), note=a.get("note"), index=i)
               for i, a in enumerate(data.get("actions", []))]
    return table, actions


def read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text("utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"找不到情景文件 {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"无法读取情景文件 {path}：{exc.__class__.__name__}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"情景文件 {path} 不是合法的 JSON：第 {exc.lineno} 行第 {exc.colno} 列，{exc.msg}") from None
    validate(data)
    return data  # type: ignore[no-any-return]
