"""game.toml: load, validate, and explain every mistake in the director's words.

A wrong key gets the key's dotted path, what was expected and the nearest valid key; a missing
key gets the line to add. Nothing here raises anything but :class:`ConfigError`.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tracker.errors import ConfigError, os_error_words, toml_syntax_words

DEFAULT_USER_AGENT = "forum-game-tracker/0.1 (+director tool)"


@dataclass(frozen=True, slots=True)
class PlayerConfig:
    name: str
    role: str | None = None
    faction: str | None = None
    uid: int | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DayConfig:
    day: int
    discussion: int | None
    vote: tuple[int, ...]
    opens: datetime
    closes: datetime
    accelerated: bool = False


@dataclass(frozen=True, slots=True)
class EventConfig:
    at: datetime
    kind: str
    player: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    concurrency: int = 2
    delay: float = 0.5
    timeout: float = 20.0
    retries: int = 4
    mobile_api: bool = True
    user_agent: str = DEFAULT_USER_AGENT
    cookie_file: Path | None = None
    username: str | None = None
    password_env: str = "TRACKER_PASSWORD"
    max_page_mb: int = 128
    request_deadline: float = 120.0
    crawl_deadline_minutes: float = 60.0


@dataclass(frozen=True, slots=True)
class ScheduleConfig:
    interval_minutes: float = 30.0
    near_close_interval_minutes: float = 5.0
    lurker_report_before_close_hours: float = 3.0
    post_reports: bool = False
    reports_dir: Path | None = None


@dataclass(frozen=True, slots=True)
class GameConfig:
    name: str
    ruleset: str
    forum: str
    timezone: str
    directors: tuple[str, ...]
    players: tuple[PlayerConfig, ...]
    days: tuple[DayConfig, ...]
    events: tuple[EventConfig, ...] = ()
    process_thread: int | None = None
    crawl: CrawlConfig = field(default_factory=CrawlConfig)
    # The ruleset's [[options]] the director chose (key → value): where a rule post reads two ways.
    options: Mapping[str, Any] = field(default_factory=dict)
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    path: Path | None = None

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def day(self, n: int) -> DayConfig:
        for d in self.days:
            if d.day == n:
                return d
        known = ", ".join(str(d.day) for d in self.days) or "无"
        raise ConfigError(f"游戏文件里没有第 {n} 日（[[days]] day = {n}）", hint=f"已配置的日子：{known}")

    def default_db_path(self) -> Path:
        base = self.path if self.path is not None else Path("game.toml")
        return base.with_suffix(".db")

    def thread_ids(self) -> tuple[int, ...]:
        """Every game thread the crawler should follow, in a stable order."""
        tids: list[int] = []
        if self.process_thread is not None:
            tids.append(self.process_thread)
        for d in self.days:
            if d.discussion is not None:
                tids.append(d.discussion)
            tids.extend(d.vote)
        return tuple(dict.fromkeys(tids))


_TOP = {"game", "crawl", "schedule", "players", "days", "events", "login"}
_GAME = {"name", "ruleset", "forum", "timezone", "directors", "process_thread", "options"}
_PLAYER = {"name", "role", "faction", "uid", "tags"}
_DAY = {"day", "discussion", "vote", "opens", "closes", "accelerated"}
_EVENT_FIXED = {"at", "kind", "player"}
_CRAWL = {"concurrency", "delay", "timeout", "retries", "mobile_api", "user_agent", "cookie_file",
          "max_page_mb", "request_deadline", "crawl_deadline_minutes"}
_LOGIN = {"username", "password_env", "cookie_file"}
_SCHEDULE = {"interval_minutes", "near_close_interval_minutes", "lurker_report_before_close_hours",
             "post_reports", "reports_dir"}


def _unknown(keys: set[str], allowed: set[str], where: str) -> None:
    for k in sorted(keys - allowed):
        near = difflib.get_close_matches(k, sorted(allowed), n=1)
        hint = f"是不是想写 `{near[0]}`？" if near else f"{where} 可用的键：{', '.join(sorted(allowed))}"
        raise ConfigError(f"游戏文件中 {where}.{k} 不是可识别的键", hint=hint)


def _need(tbl: dict[str, Any], key: str, where: str, example: str) -> Any:
    if key not in tbl:
        raise ConfigError(f"游戏文件缺少 {where}.{key}", hint=f"在 [{where}] 下加一行：{example}")
    return tbl[key]


def _typed(value: Any, kind: type | tuple[type, ...], where: str, example: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise ConfigError(f"{where} 应为数字，实际是 {value!r}", hint=f"例如：{example}")
    if not isinstance(value, kind):
        raise ConfigError(f"{where} 的值 {value!r} 类型不对", hint=f"例如：{example}")
    return value


def _aware(value: Any, where: str, tz: ZoneInfo) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=tz)
    if isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return dt if dt.tzinfo is not None else dt.replace(tzinfo=tz)
    if isinstance(value, date | time):
        raise ConfigError(f"{where} 需要日期和时间", hint="例如：2025-03-02T22:00:00+08:00")
    raise ConfigError(f"{where} 的值 {value!r} 不是时间", hint="例如：2025-03-02T22:00:00+08:00")


def parse_game(data: dict[str, Any], path: Path | None = None) -> GameConfig:
    """Validate a decoded game.toml; every problem is a ConfigError naming the key and the fix."""
    _unknown(set(data), _TOP, "game.toml")
    game = _need(data, "game", "game", "[game] 表")
    _typed(game, dict, "[game]", '[game]\nname = "演示局"')
    _unknown(set(game), _GAME, "game")
    name = _typed(_need(game, "name", "game", 'name = "演示局"'), str, "game.name", '"演示局"')
    ruleset = _typed(_need(game, "ruleset", "game", 'ruleset = "luoluo-m19"'), str, "game.ruleset",
                     '"luoluo-m19"')
    forum = _typed(_need(game, "forum", "game", 'forum = "http://bbs.example.com/"'), str, "game.forum",
                   '"http://bbs.example.com/"')
    if not forum.startswith(("http://", "https://")):
        raise ConfigError(f"game.forum 应是论坛地址（http:// 或 https:// 开头），实际是 {forum!r}",
                          hint='例如：forum = "http://bbs.example.com/"')
    if not forum.endswith("/"):
        forum += "/"
    tzname = _typed(game.get("timezone", "Asia/Shanghai"), str, "game.timezone", '"Asia/Shanghai"')
    try:
        tz = ZoneInfo(tzname)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"game.timezone 的时区 {tzname!r} 不存在", hint='例如："Asia/Shanghai"') from None
    directors = game.get("directors", [])
    if isinstance(directors, str):
        directors = [directors]
    _typed(directors, list, "game.directors", '["导演A"]')
    process = game.get("process_thread")
    if process is not None:
        _typed(process, int, "game.process_thread", "3")
    options = _typed(game.get("options", {}), dict, "game.options", '{ village_gods = "any" }')

    players: list[PlayerConfig] = []
    for i, p in enumerate(data.get("players", []), 1):
        where = f"players[{i}]"
        _typed(p, dict, where, '[[players]]\nname = "泡泡"')
        _unknown(set(p), _PLAYER, where)
        pname = _typed(_need(p, "name", where, 'name = "泡泡"'), str, f"{where}.name", '"泡泡"')
        players.append(PlayerConfig(
            name=pname.strip(), role=p.get("role"), faction=p.get("faction"), uid=p.get("uid"),
            tags=tuple(p.get("tags", ())),
        ))
    names = [p.name for p in players]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"玩家名重复：{', '.join(dupes)}", hint="每个 [[players]] 的 name 必须唯一")

    days: list[DayConfig] = []
    for i, d in enumerate(data.get("days", []), 1):
        where = f"days[{i}]"
        _typed(d, dict, where, "[[days]]\nday = 1")
        _unknown(set(d), _DAY, where)
        n = _typed(_need(d, "day", where, "day = 1"), int, f"{where}.day", "1")
        vote = d.get("vote", [])
        vote_t = (vote,) if isinstance(vote, int) else tuple(vote)
        for v in vote_t:
            _typed(v, int, f"{where}.vote", "5 或 [5, 6]")
        disc = d.get("discussion")
        if disc is not None:
            _typed(disc, int, f"{where}.discussion", "4")
        opens = _aware(_need(d, "opens", where, "opens = 2025-03-01T10:00:00+08:00"), f"{where}.opens", tz)
        closes = _aware(_need(d, "closes", where, "closes = 2025-03-02T22:00:00+08:00"), f"{where}.closes", tz)
        if closes <= opens:
            raise ConfigError(f"{where}: closes 必须晚于 opens", hint=f"检查第 {n} 日的开门和关门时间")
        days.append(DayConfig(day=n, discussion=disc, vote=vote_t, opens=opens, closes=closes,
                              accelerated=bool(d.get("accelerated", False))))
    if len({d.day for d in days}) != len(days):
        raise ConfigError("[[days]] 中有重复的 day", hint="每一日只写一个 [[days]]")

    events: list[EventConfig] = []
    for i, e in enumerate(data.get("events", []), 1):
        where = f"events[{i}]"
        _typed(e, dict, where, '[[events]]\nkind = "eliminated"')
        kind = _typed(_need(e, "kind", where, 'kind = "eliminated"'), str, f"{where}.kind", '"eliminated"')
        at = _aware(_need(e, "at", where, "at = 2025-03-03T09:00:00+08:00"), f"{where}.at", tz)
        extra = {k: v for k, v in e.items() if k not in _EVENT_FIXED}
        events.append(EventConfig(at=at, kind=kind, player=e.get("player"), data=extra))

    crawl_t = data.get("crawl", {})
    _typed(crawl_t, dict, "[crawl]", "[crawl]\nconcurrency = 2")
    _unknown(set(crawl_t), _CRAWL, "crawl")
    login_t = data.get("login", {})
    _typed(login_t, dict, "[login]", '[login]\nusername = "导演A"')
    _unknown(set(login_t), _LOGIN, "login")
    if "password" in login_t:
        raise ConfigError("不要把密码写进游戏文件", hint="用环境变量 TRACKER_PASSWORD，或 [login] password_env 指定变量名")
    base = path.parent if path is not None else Path(".")
    cookie = login_t.get("cookie_file", crawl_t.get("cookie_file"))
    concurrency = _typed(crawl_t.get("concurrency", 2), int, "crawl.concurrency", "2")
    delay = _typed(crawl_t.get("delay", 0.5), (int, float), "crawl.delay", "0.5")
    if concurrency < 1 or delay < 0:
        raise ConfigError("crawl.concurrency 至少为 1，crawl.delay 不能为负", hint="默认 concurrency = 2, delay = 0.5")
    crawl = CrawlConfig(
        concurrency=concurrency, delay=float(delay),
        timeout=float(_typed(crawl_t.get("timeout", 20.0), (int, float), "crawl.timeout", "20")),
        retries=_typed(crawl_t.get("retries", 4), int, "crawl.retries", "4"),
        mobile_api=bool(crawl_t.get("mobile_api", True)),
        user_agent=str(crawl_t.get("user_agent", DEFAULT_USER_AGENT)),
        cookie_file=(base / cookie) if cookie else None,
        username=login_t.get("username"),
        password_env=str(login_t.get("password_env", "TRACKER_PASSWORD")),
        max_page_mb=crawl_t.get("max_page_mb", 128),
        request_deadline=float(crawl_t.get("request_deadline", 120.0)),
        crawl_deadline_minutes=float(crawl_t.get("crawl_deadline_minutes", 60.0)),
    )
    sched_t = data.get("schedule", {})
    _typed(sched_t, dict, "[schedule]", "[schedule]\ninterval_minutes = 30")
    _unknown(set(sched_t), _SCHEDULE, "schedule")
    reports_dir = sched_t.get("reports_dir")
    schedule = ScheduleConfig(
        interval_minutes=float(sched_t.get("interval_minutes", 30.0)),
        near_close_interval_minutes=float(sched_t.get("near_close_interval_minutes", 5.0)),
        lurker_report_before_close_hours=float(sched_t.get("lurker_report_before_close_hours", 3.0)),
        post_reports=bool(sched_t.get("post_reports", False)),
        reports_dir=(base / reports_dir) if reports_dir else None,
    )
    return GameConfig(
        name=name, ruleset=ruleset, forum=forum, timezone=tzname, directors=tuple(directors),
        players=tuple(players), days=tuple(sorted(days, key=lambda d: d.day)), events=tuple(events),
        process_thread=process, crawl=crawl, schedule=schedule, path=path, options=dict(options),
    )


def load_game(path: str | Path) -> GameConfig:
    """Read and validate a game file; a missing file or a TOML syntax error is a ConfigError too."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"找不到游戏文件 {p}", hint="用 `tracker init --ruleset ID` 生成一个") from None
    except OSError as exc:
        raise ConfigError(f"无法读取游戏文件 {p}：{os_error_words(exc)}") from None
    try:
        text = raw.decode("utf-8-sig")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise ConfigError(f"游戏文件 {p} 不是 UTF-8 编码", hint="用 UTF-8 保存游戏文件") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"游戏文件 {p} 的 TOML 语法错误，{toml_syntax_words(exc, text)}",
                          hint="检查引号、方括号和等号") from None
    return parse_game(data, p.resolve())
