"""The scenario file of ``tracker night simulate``: checked against its model, then read.

The model (:mod:`tracker.engine.night.scenario_model`, the shared vocabulary of state keys and player
fields; ``scenario.schema.json`` is written from it) is the contract: a file that does not validate is
refused with the path of its first error, before any settlement, so the engine never guesses at a
misspelt key.

Bounded before anything is settled: a file of at most MAX_BYTES, nesting at most MAX_DEPTH deep,
at most MAX_PLAYERS seats and MAX_ACTIONS submissions (a night of the largest game, 24 players,
is a few dozen), each player listed once, at most MAX_VALUES values in all (so the model finds at
most that many errors, of which the first is shown). A hostile file ends with a clear exit 2, in
little memory and time.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracker.engine.night.catalog import Catalog
from tracker.engine.night.model import CORE_FIELDS, Action, Seat, Table
from tracker.engine.night.scenario_model import ScenarioT, seed_context
from tracker.engine.ruleset_errors import clean
from tracker.errors import ConfigError

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from tracker.engine.ruleset import Ruleset

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
MAX_BYTES = 1024 * 1024  # the worked examples' largest scenario is ~6 KB
MAX_DEPTH = 32  # the format's deepest value (a player's fields) is 6 levels down
MAX_PLAYERS = 64  # the posts' games have at most 24
MAX_ACTIONS = 1000
MAX_VALUES = 20_000  # 64 players' fields and 1,000 actions of a few keys each hold under 10,000


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "（顶层）"


_WANT = {"int": "整数", "bool": "true 或 false", "string": "文字（加引号）", "list": "数组", "dict": "对象",
         "model": "对象", "float": "数字"}


def _words(err: ErrorDetails) -> str:
    """One error of the model in the director's words."""
    kind, ctx = err["type"], err.get("ctx") or {}
    value = err.get("input")
    shown = json.dumps(value, ensure_ascii=False) if len(repr(value)) < 60 else "（对象或数组）"
    if kind == "missing":
        return "缺少这个键"
    if kind == "extra_forbidden":
        return "不是可识别的键"
    if kind in ("literal_error", "enum"):
        return f"取值 {shown} 不可用，可选：{ctx.get('expected', '')}"
    if kind == "string_pattern_mismatch":
        return f"取值 {shown} 格式不对（应符合 {ctx.get('pattern', '')}，玩家写 P01…）"
    if kind in ("greater_than_equal", "less_than_equal"):
        limit = ctx.get("ge", ctx.get("le"))
        return f"取值 {shown} {'不能小于' if kind == 'greater_than_equal' else '不能大于'} {limit}"
    if kind in ("string_too_short", "too_short"):
        return "不能为空"
    if kind == "value_error":
        return str(ctx.get("error", err["msg"]))
    want = next((v for k, v in _WANT.items() if kind.startswith(k)), None)
    return f"取值 {shown} 类型不对，应为{want}" if want else f"取值 {shown} 不对（{err['msg']}）"


def validate(data: Any, where: Sequence[Any] = ()) -> ScenarioT:
    """The scenario as its model, or ConfigError (exit 2) naming the path of the first error. ``where``:
    the scenario's place in a ``{"scenarios": [...]}`` file, prefixed to the path."""
    if not isinstance(data, dict):
        raise ConfigError(f"情景文件{_path(list(where)) if where else '的顶层'}应是一个 JSON 对象（含 setup 和 actions）")
    _bounded(data)
    try:
        return ScenarioT.model_validate(data, context=seed_context(data))
    except ValidationError as exc:
        e = exc.errors(include_url=False)[0]  # in the format's order: game, setup (its players, state), actions
        raise ConfigError(f"情景文件不符合格式：{_path([*where, *clean(e['loc'])])}：{_words(e)}",
                          hint="键和取值见 scenario.schema.json（状态键的词汇表）") from None


def _depth(data: Any) -> int:
    """How deep ``data`` nests (iteratively: a deep value must not exhaust the stack here); ConfigError
    past MAX_VALUES values."""
    deepest, stack, values = 0, [(data, 1)], 0
    while stack:
        value, d = stack.pop()
        values += 1
        if values > MAX_VALUES:
            raise ConfigError(f"情景文件的值超过 {MAX_VALUES} 个", hint="情景文件只含 setup、actions 和期望结果")
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            break
        if isinstance(value, dict):
            stack.extend((v, d + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, d + 1) for v in value)
    return deepest


def _bounded(data: Mapping[str, Any]) -> None:
    """The sizes no night has: refused before the model reads them."""
    setup = data.get("setup")
    players = setup.get("players") if isinstance(setup, dict) else None
    if isinstance(players, list):
        if len(players) > MAX_PLAYERS:
            raise ConfigError(f"情景文件有 {len(players)} 名玩家，超过上限 {MAX_PLAYERS}")
        names: list[str] = [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"情景文件 setup.players 里 {'、'.join(twice)} 出现了不止一次",
                              hint="每名玩家只写一次（后一个不会悄悄替换前一个）")
    actions = data.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise ConfigError(f"情景文件有 {len(actions)} 条行动，超过上限 {MAX_ACTIONS}")
    if _depth(data) > MAX_DEPTH:
        raise ConfigError(f"情景文件嵌套超过 {MAX_DEPTH} 层", hint="情景文件只含 setup、actions 和期望结果")


def scenarios_of(data: Any) -> list[dict[str, Any]] | None:
    """The scenarios of a ``{"scenarios": [...]}`` file (the shared examples' shape), each validated;
    None for a file holding one scenario."""
    if not isinstance(data, dict) or "scenarios" not in data or "setup" in data:
        return None
    found = data["scenarios"]
    if not isinstance(found, list) or not found:
        raise ConfigError("情景文件的 scenarios 应是非空的情景列表", hint='写成 {"scenarios": [{"setup": …, "actions": […]}, …]}')
    for i, one in enumerate(found):
        validate(one, ("scenarios", i))
    return found


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
    """A scenario file, validated: one scenario, or ``{"scenarios": [...]}`` (:func:`scenarios_of`)."""
    from tracker.safefile import read_text_input

    text = read_text_input(path, MAX_BYTES, "情景文件")
    try:
        data: dict[str, Any] = json.loads(text)  # checked below: one scenario or {"scenarios": [...]}
    except json.JSONDecodeError as exc:
        raise ConfigError(f"情景文件 {path} 不是合法的 JSON：第 {exc.lineno} 行第 {exc.colno} 列，{exc.msg}") from None
    except RecursionError:
        raise ConfigError(f"情景文件 {path} 嵌套太深，无法读取", hint=f"最多 {MAX_DEPTH} 层") from None
    except ValueError:  # a number of thousands of digits (Python refuses to convert it)
        raise ConfigError(f"情景文件 {path} 里有一个位数过多的数字", hint="数字最多 4300 位；情景文件里的数字是夜晚、日数和次数") from None
    if scenarios_of(data) is None:
        validate(data)
    return data


#: State keys every game may hold (the shared vocabulary's "all" rows).
COMMON_STATE = ("存活", "判负阵营")
#: Statuses every game may hold: 挂机 is the cards' bench, not a skill's.
COMMON_STATUS = ("挂机",)


def vocabulary(ruleset: Ruleset, catalog: Catalog) -> dict[str, set[str]]:
    """The names a scenario of a game outside the five seed posts may use, from its own files:
    roles and factions (with aliases) of the ruleset; tags of ``[[tags]]``, the roles' tags and the
    skills' marks; statuses the night file declares or its effects give; ``uses`` keys of the
    skills; state keys the skills read or write (``no_repeat``, ``cooldown_key``, marks) and those
    the night file declares."""
    skills = list(catalog.skills.values())
    marks = {e.tag for s in skills for e in s.effects if e.tag} | {s.tag for s in skills if s.tag}
    tags = {t.name for t in ruleset.tags} | {t for r in ruleset.roles for t in r.tags} | marks
    return {
        "role": {r.name for r in ruleset.roles},
        "faction": set(ruleset.faction_names) | {a for f in ruleset.factions for a in f.aliases},
        "tag": tags,
        "status": set(COMMON_STATUS) | set(catalog.statuses) | {e.status for s in skills for e in s.effects if e.status},
        "uses": {s.uses or s.name for s in skills if s.uses} | {s.name for s in skills},
        "state": (set(COMMON_STATE) | set(catalog.state_keys) | tags
                  | {k for s in skills for k in (s.no_repeat, s.cooldown_key, s.once_per_target) if k}),
    }


_WORDS = {"role": "身份", "faction": "阵营", "tag": "标记", "status": "状态", "uses": "技能次数", "state": "状态键"}


def check_names(table: Table, ruleset: Ruleset, catalog: Catalog) -> None:
    """ConfigError (exit 2) for the first name the game's own files do not declare (a typo in a
    scenario of a game outside the five seed posts would otherwise settle silently wrong)."""
    names = vocabulary(ruleset, catalog)

    def known(kind: str, name: str, where: str) -> None:
        if name not in names[kind]:
            near = difflib.get_close_matches(name, sorted(names[kind]), n=3, cutoff=0.3)
            raise ConfigError(f"{where} 的{_WORDS[kind]} {name!r} 不在规则 {ruleset.id} 中",
                              hint=f"最接近的：{'、'.join(near)}" if near
                              else f"可用的{_WORDS[kind]}：{'、'.join(sorted(names[kind])) or '无'}")

    for seat in table.players.values():
        known("role", seat.role, seat.name)
        known("faction", seat.faction, seat.name)
        for tag in seat.tags:
            known("tag", tag, f"{seat.name}.tags")
        for status in seat.status:
            known("status", status, f"{seat.name}.status")
        for key in seat.uses:
            known("uses", key, f"{seat.name}.uses")
    for key in table.state:
        known("state", key, "state")
