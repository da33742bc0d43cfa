"""game.toml: load, validate, and explain every mistake in the director's words.

The file is validated against a pydantic v2 model in strict mode (types as written, bounds, no
unknown keys; :mod:`tracker.config_model`). A wrong key gets the key's dotted path, what was
expected and the nearest valid key; a missing key gets the line to add. Nothing here raises
anything but :class:`ConfigError`. A valid file is read without building the model: it is checked
against the JSON Schema written from the model (:mod:`tracker.game_schema`), and the model is asked
only when that check is not sure — to accept, or to say what is wrong.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tracker.errors import ConfigError, os_error_words, toml_syntax_words
from tracker.safefile import read_bounded

DEFAULT_USER_AGENT = "forum-game-tracker/0.1 (+director tool)"
MAX_GAME_FILE_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class PlayerConfig:
    name: str
    role: str | None = None
    faction: str | None = None
    uid: int | None = None
    tags: tuple[str, ...] = ()
    seat: int | None = None  # werewolf-12 "玩家按报名顺序编号 1—12 号": ballots may name the seat


@dataclass(frozen=True, slots=True)
class DayConfig:
    day: int
    discussion: int | None
    vote: tuple[int, ...]
    opens: datetime
    closes: datetime
    accelerated: bool = False
    # The votes held this day, by purpose ("exile" and the ruleset's [[voting.day1]] purposes);
    # None = the ruleset's: day 1's elections and the exile, later days the exile.
    purpose: tuple[str, ...] | None = None


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
    timeout: float = 60.0
    retries: int = 4
    mobile_api: bool = True
    user_agent: str = DEFAULT_USER_AGENT
    cookie_file: Path | None = None
    username: str | None = None
    password_env: str = "TRACKER_PASSWORD"
    max_page_mb: int = 128
    crawl_deadline_minutes: float = 60.0


@dataclass(frozen=True, slots=True)
class ScheduleConfig:
    interval_minutes: float = 30.0
    near_close_interval_minutes: float = 5.0
    lurker_report_before_close_hours: float = 3.0
    post_reports: bool = False
    reports_dir: Path | None = None


@dataclass(frozen=True, slots=True)
class LedgerConfig:
    key_file: Path | None = None  # an HMAC key outside the database (tracker.penalties.anchor)


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
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    path: Path | None = None
    ledger: LedgerConfig = field(default_factory=LedgerConfig)
    options: dict[str, Any] = field(default_factory=dict)
    """``[options]``: the ruleset's advertised readings (`tracker rulesets`), checked by the ruleset."""
    spectators: tuple[str, ...] = ()
    """``[game] spectators``: accounts known to post in the game's threads without playing (围观):
    the crawl's roster check stops naming them."""

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def seats(self) -> dict[str, int]:
        """Player name → seat number, for the players the game file gives one."""
        return {p.name: p.seat for p in self.players if p.seat is not None}

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


#: ``[game] timezone`` when the file names none: the forums these games are played on (北京时间).
DEFAULT_TIMEZONE = "Asia/Shanghai"


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


_EVENT_KEYS = frozenset({"at", "kind", "player"})  # an [[events]] entry's own keys; the rest is its data


def _validated(data: dict[str, Any]) -> dict[str, Any]:
    """The document with its defaults, as the model gives it back: from the schema check when it is
    sure (no pydantic loaded), else from the model, which raises the director's ConfigError."""
    from tracker.game_schema import conforming

    doc = conforming(data)
    if doc is not None:
        return doc
    from tracker.config_model import validate

    return validate(data)


def parse_game(data: dict[str, Any], path: Path | None = None) -> GameConfig:
    """Validate a decoded game.toml; every problem is a ConfigError naming the key and the fix."""
    doc = _validated(data)
    game = doc["game"]
    forum: str = game["forum"]
    if not forum.startswith(("http://", "https://")):
        raise ConfigError(f"game.forum 应是论坛地址（http:// 或 https:// 开头），实际是 {forum!r}",
                          hint='例如：forum = "http://bbs.example.com/"')
    if not forum.endswith("/"):
        forum += "/"
    tzname: str = game["timezone"]
    try:
        tz = ZoneInfo(tzname)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"game.timezone 的时区 {tzname!r} 不存在", hint='例如："Asia/Shanghai"') from None
    directors = [game["directors"]] if isinstance(game["directors"], str) else list(game["directors"])

    players = [PlayerConfig(name=p["name"].strip(), role=p["role"], faction=p["faction"], uid=p["uid"],
                            tags=tuple(p["tags"]), seat=p["seat"])
               for p in doc["players"]]
    names = [p.name for p in players]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"玩家名重复：{', '.join(dupes)}", hint="每个 [[players]] 的 name 必须唯一")
    playing = sorted(set(names) & {s.strip() for s in game["spectators"]})
    if playing:
        raise ConfigError(f"game.spectators 里的 {', '.join(playing)} 也是 [[players]] 中的玩家",
                          hint="围观者不参加游戏：从 spectators 或 [[players]] 中删去一处")
    uids = [p.uid for p in players if p.uid is not None]
    dupe_uids = sorted({u for u in uids if uids.count(u) > 1})
    if dupe_uids:
        raise ConfigError(f"玩家 uid 重复：{', '.join(map(str, dupe_uids))}", hint="每个玩家的论坛 uid 不同")
    seats = [p.seat for p in players if p.seat is not None]
    dupe_seats = sorted({s for s in seats if seats.count(s) > 1})
    if dupe_seats:
        raise ConfigError(f"玩家号码重复：{', '.join(f'{s} 号' for s in dupe_seats)}", hint="每个 [[players]] 的 seat 不同")
    clash = sorted(p.name for p in players if p.name.removesuffix("号").isdigit()) if seats else []
    if clash:
        raise ConfigError(f"玩家名 {', '.join(clash)} 与号码相同，“投票对象：{clash[0]}”无法分辨是名字还是号码",
                          hint="有 seat 时玩家名不要写成纯数字")

    days: list[DayConfig] = []
    for i, d in enumerate(doc["days"], 1):
        where = f"days[{i}]"
        opens = _aware(d["opens"], f"{where}.opens", tz)
        closes = _aware(d["closes"], f"{where}.closes", tz)
        if closes <= opens:
            raise ConfigError(f"{where}: closes 必须晚于 opens", hint=f"检查第 {d['day']} 日的开门和关门时间")
        vote = (d["vote"],) if isinstance(d["vote"], int) else tuple(d["vote"])
        purpose = d["purpose"]
        days.append(DayConfig(day=d["day"], discussion=d["discussion"], vote=vote, opens=opens, closes=closes,
                              accelerated=d["accelerated"], purpose=tuple(purpose) if purpose is not None else None))
    if len({d.day for d in days}) != len(days):
        raise ConfigError("[[days]] 中有重复的 day", hint="每一日只写一个 [[days]]")
    _refuse_shared_threads(days)
    both = sorted(set(directors) & set(names))
    if both:
        raise ConfigError(f"{'、'.join(both)} 既是导演（game.directors）又在 [[players]] 中",
                          hint="导演的帖子不计票、不计潜水：从 [[players]] 删去，或从 directors 删去")

    events = [EventConfig(at=_aware(e["at"], f"events[{i}].at", tz), kind=e["kind"], player=e["player"],
                          data={k: v for k, v in e.items() if k not in _EVENT_KEYS})  # the event's own fields
              for i, e in enumerate(doc["events"], 1)]
    known_days = sorted(d.day for d in days)
    for i, e in enumerate(events, 1):
        day = e.data.get("day")
        if isinstance(day, int) and not isinstance(day, bool) and day not in known_days:
            raise ConfigError(f"events[{i}] 写的是第 {day} 日，游戏文件没有这一日",
                              hint=f"已配置的日子：{'、'.join(map(str, known_days)) or '无'}；"
                                   f"改正 day，或先加上 [[days]] day = {day}")

    base = path.parent if path is not None else Path(".")
    c, lg, sc, key_file = doc["crawl"], doc["login"], doc["schedule"], doc["ledger"]["key_file"]
    cookie = lg["cookie_file"] or c["cookie_file"]
    crawl = CrawlConfig(
        concurrency=c["concurrency"], delay=float(c["delay"]), timeout=float(c["timeout"]), retries=c["retries"],
        mobile_api=c["mobile_api"], user_agent=c["user_agent"], cookie_file=(base / cookie) if cookie else None,
        username=lg["username"], password_env=lg["password_env"], max_page_mb=c["max_page_mb"],
        crawl_deadline_minutes=float(c["crawl_deadline_minutes"]),
    )
    schedule = ScheduleConfig(
        interval_minutes=float(sc["interval_minutes"]),
        near_close_interval_minutes=float(sc["near_close_interval_minutes"]),
        lurker_report_before_close_hours=float(sc["lurker_report_before_close_hours"]),
        post_reports=sc["post_reports"], reports_dir=(base / sc["reports_dir"]) if sc["reports_dir"] else None,
    )
    return GameConfig(
        name=game["name"], ruleset=game["ruleset"], forum=forum, timezone=tzname, directors=tuple(directors),
        players=tuple(players), days=tuple(sorted(days, key=lambda d: d.day)), events=tuple(events),
        process_thread=game["process_thread"], crawl=crawl, schedule=schedule, path=path,
        ledger=LedgerConfig(key_file=(base / Path(key_file).expanduser()) if key_file else None),
        options=dict(doc["options"]), spectators=tuple(s.strip() for s in game["spectators"]),
    )


def _refuse_shared_threads(days: list[DayConfig]) -> None:
    """Each day has its own threads: a day copied without changing its tids would count one vote
    twice and propose 潜水 cards for a day nobody played."""
    seen: dict[int, int] = {}
    for d in sorted(days, key=lambda x: x.day):
        for tid in {t for t in (d.discussion, *d.vote) if t is not None}:
            if tid in seen:
                raise ConfigError(f"第 {seen[tid]} 日和第 {d.day} 日写了同一个帖子 tid {tid}",
                                  hint=f"每一日有自己的讨论帖和投票帖：改正第 {d.day} 日的 discussion / vote"
                                       "（还没开帖就先不写）")
            seen[tid] = d.day


def load_game(path: str | Path) -> GameConfig:
    """Read and validate a game file; a missing file or a TOML syntax error is a ConfigError too."""
    p = Path(path)
    try:
        raw = read_bounded(p, MAX_GAME_FILE_BYTES)  # a regular file of bounded size: /dev/zero cannot hang us
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
    except RecursionError:  # an array nested hundreds deep: no game file needs more than two levels
        raise ConfigError(f"游戏文件 {p} 的数组或表嵌套太深", hint="检查方括号是否成对") from None
    return parse_game(data, p.resolve())
