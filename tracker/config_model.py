"""The game file's pydantic model: every rule of what a game file may say, and each mistake in the
director's words. The one home of those rules: ``game.schema.json`` is written from it
(``python -m tracker.config_model``) for the fast read of a valid file (:mod:`tracker.game_schema`);
this model is asked whenever that read is not sure, and says what is wrong.
"""

from __future__ import annotations

import difflib
import json
from datetime import date, datetime, time
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tracker.config import DEFAULT_TIMEZONE, DEFAULT_USER_AGENT
from tracker.errors import ConfigError

# -- the schema ----------------------------------------------------------------------------------
#
# pydantic v2, strict: a TOML value must already have the type the key needs (``accelerated = "no"``
# is a string, not false; ``vote = 4.0`` is not a tid), numbers have bounds (an interval of at least
# one minute), and unknown keys are refused. Every error is turned into the director's words: the
# key's dotted path, what was wrong, and a line to write instead (:func:`_config_error`).

_Strict = ConfigDict(strict=True, extra="forbid")
Tid = Annotated[int, Field(ge=1, le=2**31 - 1)]
When = datetime | str  # TOML's offset datetime, or the same written as a string


class _GameT(BaseModel):
    model_config = _Strict
    name: Annotated[str, Field(min_length=1)]
    ruleset: Annotated[str, Field(min_length=1)]
    forum: str
    timezone: str = DEFAULT_TIMEZONE
    directors: list[str] | str = []
    spectators: list[Annotated[str, Field(min_length=1)]] = []
    process_thread: Tid | None = None


class _PlayerT(BaseModel):
    model_config = _Strict
    name: Annotated[str, Field(min_length=1)]
    role: str | None = None
    faction: str | None = None
    uid: Annotated[int, Field(ge=1, le=2**63 - 1)] | None = None
    tags: list[str] = []
    seat: Annotated[int, Field(ge=1, le=1000)] | None = None


class _DayT(BaseModel):
    model_config = _Strict
    day: Annotated[int, Field(ge=1, le=1000)]
    discussion: Tid | None = None
    vote: Tid | list[Tid] = []
    opens: When
    closes: When
    accelerated: bool = False
    purpose: list[Annotated[str, Field(min_length=1)]] | None = None


class _EventT(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")  # an event's own fields are its data
    at: When
    kind: Annotated[str, Field(min_length=1)]
    player: str | None = None


class _CrawlT(BaseModel):
    model_config = _Strict
    concurrency: Annotated[int, Field(ge=1, le=16)] = 2
    delay: Annotated[float, Field(ge=0, le=600)] = 0.5
    timeout: Annotated[float, Field(gt=0, le=600)] = 60.0  # one whole answer, first byte sent to last received
    retries: Annotated[int, Field(ge=0, le=20)] = 4
    mobile_api: bool = True
    user_agent: Annotated[str, Field(min_length=1)] = DEFAULT_USER_AGENT
    cookie_file: str | None = None
    max_page_mb: Annotated[int, Field(ge=1, le=4096)] = 128
    crawl_deadline_minutes: Annotated[float, Field(ge=1, le=24 * 60)] = 60.0


class _LoginT(BaseModel):
    model_config = _Strict
    username: str | None = None
    password_env: Annotated[str, Field(min_length=1)] = "TRACKER_PASSWORD"
    cookie_file: str | None = None


class _ScheduleT(BaseModel):
    model_config = _Strict
    interval_minutes: Annotated[float, Field(ge=1, le=24 * 60)] = 30.0
    near_close_interval_minutes: Annotated[float, Field(ge=1, le=24 * 60)] = 5.0
    lurker_report_before_close_hours: Annotated[float, Field(ge=0, le=240)] = 3.0
    post_reports: bool = False
    reports_dir: str | None = None


class _LedgerT(BaseModel):
    model_config = _Strict
    key_file: Annotated[str, Field(min_length=1)] | None = None


class _GameFileT(BaseModel):
    model_config = _Strict
    game: _GameT
    players: list[_PlayerT] = []
    days: list[_DayT] = []
    events: list[_EventT] = []
    crawl: _CrawlT = _CrawlT()
    login: _LoginT = _LoginT()
    schedule: _ScheduleT = _ScheduleT()
    ledger: _LedgerT = _LedgerT()
    options: dict[str, Any] = {}  # checked by the ruleset, which names its options and their values


# What to write instead, per key (the last part of the path).
_EXAMPLES = {
    "game": '[game]\nname = "演示局"', "name": '"演示局"', "ruleset": '"luoluo-m19"',
    "forum": '"http://bbs.example.com/"', "timezone": '"Asia/Shanghai"', "directors": '["导演A"]', "spectators": '["路人甲"]',
    "process_thread": "3", "role": '"预言家"', "faction": '"好人"', "uid": "12345", "tags": '["警长"]',
    "day": "1", "discussion": "4", "vote": "5 或 [5, 6]", "opens": "2025-03-01T10:00:00+08:00",
    "closes": "2025-03-02T22:00:00+08:00", "accelerated": "true 或 false（不加引号）",
    "seat": "7", "purpose": '["sheriff", "exile"]',
    "at": "2025-03-03T09:00:00+08:00", "kind": '"eliminated"', "player": '"泡泡"', "concurrency": "2",
    "delay": "0.5", "timeout": "60", "retries": "4", "mobile_api": "true 或 false（不加引号）",
    "user_agent": '"forum-game-tracker"', "cookie_file": '"cookies.txt"', "max_page_mb": "128",
    "crawl_deadline_minutes": "60", "username": '"导演A"',
    "password_env": '"TRACKER_PASSWORD"', "interval_minutes": "30（至少 1 分钟）",
    "near_close_interval_minutes": "5（至少 1 分钟）", "lurker_report_before_close_hours": "3",
    "post_reports": "true 或 false（不加引号）", "reports_dir": '"reports"',
    "players": '[[players]]\nname = "泡泡"', "days": "[[days]]\nday = 1", "events": '[[events]]\nkind = "eliminated"',
    "crawl": "[crawl]\nconcurrency = 2", "login": '[login]\nusername = "导演A"',
    "schedule": "[schedule]\ninterval_minutes = 30", "key_file": '"~/.tracker/ledger.key"',
    "ledger": '[ledger]\nkey_file = "~/.tracker/ledger.key"',
}
#: Keys merged into another, with what to write instead: an old file is refused with the fix, not
#: read with a key that no longer does what it says.
_MERGED = {"request_deadline": "[crawl] timeout 现在就是一次回应的总时限（从发出请求到收完最后一个字节），"
                               "不再另有 request_deadline"}
_TABLES: dict[str, type[BaseModel]] = {
    "game": _GameT, "players": _PlayerT, "days": _DayT, "events": _EventT, "crawl": _CrawlT, "login": _LoginT,
    "schedule": _ScheduleT, "ledger": _LedgerT,
}
_KIND_WORDS = {
    "int": "整数（不加引号、不带小数点）", "float": "数字（不加引号）", "bool": "true 或 false（不加引号）",
    "str": "字符串（加引号）", "list": "数组（方括号）", "dict": "表", "model": "表", "datetime": "日期和时间",
}


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        elif part in ("int", "str", "float", "bool", "list[int]", "list[str]", "datetime", "constrained-int",
                      "list[constrained-int]") or part.startswith(("function-", "list[", "constrained")):
            continue  # a union member's name, not a key
        else:
            out += f".{part}" if out else part
    return out


def _key(loc: tuple[int | str, ...]) -> str:
    keys = [p for p in loc if isinstance(p, str) and p in _EXAMPLES]
    return keys[-1] if keys else ""


def _config_error(exc: ValidationError) -> ConfigError:
    """The first schema error, as the director reads it: the key, what was wrong, what to write."""
    err = exc.errors(include_url=False)[0]
    loc = tuple(err["loc"])
    where, key, kind, value = _where(loc), _key(loc), err["type"], err.get("input")
    example = _EXAMPLES.get(key, "")
    if kind == "extra_forbidden" and loc == ("login", "password"):
        return ConfigError("不要把密码写进游戏文件", hint="用环境变量 TRACKER_PASSWORD，或 [login] password_env 指定变量名")
    if isinstance(value, date | time) and not isinstance(value, datetime):  # a bare TOML date or time
        return ConfigError(f"{where} 需要日期和时间", hint="例如：2025-03-02T22:00:00+08:00")
    hint = f"例如：{key} = {example}" if example and "\n" not in example else (
        f"例如：\n{example}" if example else None)
    if kind == "extra_forbidden" and loc[-1] in _MERGED:
        return ConfigError(f"游戏文件中 {where} 已不再使用：{_MERGED[str(loc[-1])]}",
                           hint=f"删去 {loc[-1]}；需要时写 timeout = 秒数（默认 60）")
    if kind == "extra_forbidden":
        parent, _, bad = where.rpartition(".")
        table = next((t for t in reversed(loc[:-1]) if isinstance(t, str) and t in _TABLES), None)
        allowed = sorted(_TABLES[table].model_fields) if table else sorted(_GameFileT.model_fields)
        near = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        shown = f"{parent}.{bad}" if parent else f"game.toml 的 {bad}"
        return ConfigError(f"游戏文件中 {shown} 不是可识别的键",
                           hint=f"是不是想写 `{near[0]}`？" if near else f"可用的键：{', '.join(allowed)}")
    if kind == "missing":
        parent = where.rpartition(".")[0] or where
        return ConfigError(f"游戏文件缺少 {where}",
                           hint=f"在 [{parent}] 下加一行：{key} = {example}" if example and parent != where
                           else hint)
    shown = repr(value) if not isinstance(value, dict | list) or len(repr(value)) < 60 else "（表或数组）"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        limit = next(iter((err.get("ctx") or {}).values()), "")
        limit = f"{limit:g}" if isinstance(limit, int | float) else limit
        words = {"greater_than_equal": f"不能小于 {limit}", "greater_than": f"必须大于 {limit}",
                 "less_than_equal": f"不能大于 {limit}", "less_than": f"必须小于 {limit}"}[kind]
        return ConfigError(f"{where} 的值 {shown} {words}", hint=hint)
    if kind in ("string_too_short", "too_short"):
        return ConfigError(f"{where} 不能为空", hint=hint)
    want = next((w for t, w in _KIND_WORDS.items() if kind.startswith(t)), None)
    if kind == "model_type" or kind == "model_attributes_type" or kind == "dict_type":
        want = "表"
    if kind.startswith("datetime"):
        want = "日期和时间"
    what = (f"应为 {want}" if want[:1].isascii() else f"应为{want}") if want else f"（{err['msg']}）"
    return ConfigError(f"{where} 的值 {shown} 类型不对，{what}", hint=hint)


def validate(data: dict[str, Any]) -> dict[str, Any]:
    """The document as the model gives it back (defaults filled in), or the first mistake as a ConfigError."""
    try:
        return _GameFileT.model_validate(data).model_dump()
    except ValidationError as exc:
        raise _config_error(exc) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the model, as ``game.schema.json`` holds it."""
    return _GameFileT.model_json_schema()


if __name__ == "__main__":
    from tracker.game_schema import SCHEMA_PATH

    SCHEMA_PATH.write_text(json.dumps(json_schema(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(SCHEMA_PATH)
