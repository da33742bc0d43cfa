"""`tracker rulesets`, `tracker init`, `tracker event`, `tracker state`: the game's rules and state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import db_option, echo, emit_json, game_argument, json_option, open_service
from tracker.cli.json_docs import event_json, rulesets_json, state_command_json
from tracker.config import DEFAULT_TIMEZONE
from tracker.engine.state import STATUS_WORDS
from tracker.errors import ConfigError, GameRuleError, os_error_words

if TYPE_CHECKING:
    from tracker.engine.days import DayStatus
    from tracker.engine.roster import RosterProblem
    from tracker.engine.state import DayState
    from tracker.jsonvalue import JSON


@click.command("rulesets")
@json_option
def rulesets_cmd(as_json: bool) -> None:
    """列出内置规则（每场规则帖一份）。"""
    from tracker.engine.night.games import code_for
    from tracker.engine.ruleset import list_rulesets

    rs = list_rulesets()
    if as_json:
        emit_json(rulesets_json(rs, {r.id: code_for(r.id, r.hooks) for r in rs}))
        return
    for r in rs:
        echo(f"{r.id:<14} {r.players:>2} 人  {r.name}（{' / '.join(r.faction_names)}）  {r.source}")
        for o in r.options:
            echo(f"{'':16}选项 {o.key} = {r.option(o.key)!r}：{o.description}")


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pad(text: str, width: int) -> str:
    """Left-justify by display width: a CJK character takes two columns, so three-character names
    line up with two-character ones (str.ljust counts characters)."""
    import unicodedata

    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - used)


def _toml_value(v: object) -> str:
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return str(v)


def render_game_file(ruleset_id: str, *, name: str | None, forum: str, director: str, opens: datetime,
                     players: Sequence[tuple[str, int | None]] | None = None, out: Path | None = None,
                     timezone: str | None = None) -> str:
    """A game file for a ruleset: an example role assignment that passes the check, day 1's times.

    ``players`` (name, uid) — the posters of a sign-up thread — replace the example names; the example
    roles are given to the first of them, in order, for the director to change. A ruleset file's
    path is written relative to ``out``'s folder, where the game file reads it from (as given when
    the file goes to the screen)."""
    import os

    from tracker.engine.days import planned_close
    from tracker.engine.roster import example_assignment
    from tracker.engine.ruleset import BUNDLED_DIR, load_ruleset

    rs = load_ruleset(ruleset_id)
    close = planned_close(opens, rs.days, first_day=True)
    ref = ruleset_id
    if rs.path is not None and rs.path.parent.resolve() != BUNDLED_DIR.resolve():
        ref = str(rs.path) if out is None else os.path.relpath(rs.path.resolve(), out.resolve().parent)
    lines = [f"# 由 `tracker init --ruleset {ruleset_id}` 生成：{rs.source}",
             "# 填好论坛地址、帖子 tid、玩家名和身份后使用；身份配置用 `tracker state GAME.toml` 检查。",
             "# 玩家名填好后运行 `tracker players GAME.toml --from-thread 报名帖tid` 从论坛补全 uid：",
             "# 按 uid 认人，名字形近的账号（如多一个不可见字符）就不能冒充玩家投票。",
             "[game]", f"name = {_toml_str(name or rs.name)}", f"ruleset = {_toml_str(ref)}",
             f"forum = {_toml_str(forum)}", f"timezone = {_toml_str(timezone or DEFAULT_TIMEZONE)}",
             f"directors = [{_toml_str(director)}]",
             "# process_thread = 3", ""]
    if rs.options:  # the readings the rule post leaves open, ready to uncomment under [options]
        lines.append("# [options]")
        for o in rs.options:
            lines.append(f"# {o.key} = {_toml_value(o.default)}  # 可选 {' / '.join(_toml_value(c) for c in o.choices)}："
                         f"{o.description}")
        lines.append("")
    roles = example_assignment(rs)
    people = list(players) if players is not None else [(f"玩家{i:02d}", None) for i in range(1, len(roles) + 1)]
    for i, (pname, uid) in enumerate(people):
        lines += ["[[players]]", f"name = {_toml_str(pname)}"]
        if uid is not None:
            lines.append(f"uid = {uid}")
        if rs.numbered_players:  # the post calls players by their sign-up number
            lines.append(f"seat = {i + 1}")
        if i < len(roles):
            r = rs.role(roles[i])
            lines.append(f"role = {_toml_str(roles[i])}")
            if r is not None and r.couple_sets:  # M19 变异丘比特: its side is its couple's, none before
                lines.append(f"# faction 随{r.couple_tag}而定（不写）：tracker night GAME.toml setup {r.couple_tag} … "
                             "记下后由结算写入")
            else:
                lines.append(f"faction = {_toml_str(r.faction if r else '')}")
        lines.append("")
    lines += ["[[days]]", "day = 1", "# discussion = 4", "# vote = 5" if len(rs.voting.day1) < 2 else "# vote = [5, 6]",
              f"opens = {opens.isoformat()}", f"closes = {close.isoformat()}", ""]
    return "\n".join(lines)


@click.command("init")
@click.option("--ruleset", "ruleset_id", required=True, metavar="ID", help="内置规则 id 或规则文件路径")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="写入的游戏文件（默认输出到屏幕）")
@click.option("--name", default=None, help="游戏名")
@click.option("--forum", default="http://127.0.0.1:8080/", show_default=True, help="论坛地址")
@click.option("--director", default="导演A", show_default=True, help="导演的论坛用户名")
@click.option("--opens", "opens", default=None, metavar="ISO", help="第一日开门时间（默认明天 10:00）")
@click.option("--timezone", "timezone", default=DEFAULT_TIMEZONE, show_default=True, metavar="ZONE",
              help="游戏的时区（写入 [game] timezone；--opens 不带时区时按它读）")
@click.option("--force", is_flag=True, help="覆盖已有文件")
@click.option("--from-thread", "from_thread", type=int, default=None, metavar="TID",
              help="从报名帖抓取玩家：发帖人（导演除外）按首帖顺序成为玩家，并填好论坛 uid（需要 --out）")
def init_cmd(ruleset_id: str, out: Path | None, name: str | None, forum: str, director: str,
             opens: str | None, timezone: str, force: bool, from_thread: int | None) -> None:
    """按规则生成游戏文件（身份配置示例已通过检查）；--from-thread 从报名帖填入玩家和 uid。"""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from tracker.config import load_game
    from tracker.engine.roster import check_assignment
    from tracker.engine.ruleset import load_ruleset

    try:  # the game's zone, the one every time of the game is read in (the game file checks it the same way)
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"--timezone {timezone!r} 不是时区", hint=f"例如：{DEFAULT_TIMEZONE}") from None
    if opens:
        try:
            start = datetime.fromisoformat(opens)
        except ValueError as exc:
            raise ConfigError(f"--opens {opens!r} 不是时间", hint="例如：2025-03-01T10:00:00+08:00") from exc
        start = start if start.tzinfo else start.replace(tzinfo=zone)
    else:
        tomorrow = (datetime.now(zone) + timedelta(days=1)).date()
        start = datetime(tomorrow.year, tomorrow.month, tomorrow.day, 10, 0, tzinfo=zone)
    text = render_game_file(ruleset_id, name=name, forum=forum, director=director, opens=start, out=out,
                            timezone=timezone)
    if out is None:
        if from_thread is not None:
            raise click.UsageError("--from-thread 需要 --out（抓到的帖子存在游戏文件旁的数据库里）")
        echo(text)
        return
    if out.exists() and not force:
        raise ConfigError(f"{out} 已存在", hint="换一个 --out，或加 --force 覆盖")
    if from_thread is not None:
        text = render_game_file(ruleset_id, name=name, forum=forum, director=director, opens=start,
                                players=_posters(text, out, from_thread, director), out=out, timezone=timezone)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"无法写入 {out}：{os_error_words(exc)}", hint="检查 --out 的目录是否存在、可写") from exc
    game = load_game(out)
    problems = [p for p in check_assignment(load_ruleset(game.ruleset, base_dir=out.parent), game.players)
                if p.level == "error"]
    if from_thread is None:
        assert not problems, problems
    for p in problems:  # the sign-up thread's posters are rarely exactly the ruleset's count
        echo(f"注意：{p.message}", err=True)
    echo(f"已生成 {out}（{len(game.players)} 名玩家，规则 {ruleset_id}）", err=True)


def _posters(text: str, out: Path, tid: int, director: str) -> list[tuple[str, int | None]]:
    """Crawl the sign-up thread into the new game's database; its posters, in order, with their uids."""
    import tomllib

    from tracker.config import parse_game
    from tracker.scraper.crawl import crawl_game_sync
    from tracker.store.db import Store
    from tracker.store.posts import posts_for_thread

    game = parse_game(tomllib.loads(text), out.resolve())
    store = Store.open(f"sqlite:///{out.with_suffix('.db')}")
    try:
        report = crawl_game_sync(game, store, tids=[tid])
        if report.errors:
            raise report.errors[0]
        with store.session() as s:
            posts = posts_for_thread(s, tid)
    finally:
        store.close()
    seen: dict[str, int | None] = {}
    for p in sorted(posts, key=lambda p: (p.floor, p.pid)):
        if p.author != director and p.author not in seen and not p.deleted:
            seen[p.author] = p.uid
    if not seen:
        raise ConfigError(f"帖 {tid} 里没有导演以外的发帖人", hint="--from-thread 应是玩家报名的帖子")
    echo(f"从帖 {tid} 取得 {len(seen)} 名玩家（含 uid）", err=True)
    return list(seen.items())


def _value(raw: str) -> bool | int | float | str:
    low = raw.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw


#: Words the help uses that name an alias rather than a kind.
_MORE_WORDS = {"警长": "sheriff", "牧首": "patriarch", "神眷者": "god_chosen", "处决": "executed",
               "翻转身份": "role_set", "修正": "declared"}

#: `--cause` in the rule posts' words as well as the engine's codes (the 公示 reads the codes).
CAUSES = {"vote": "vote", "投票": "vote", "白天": "vote", "放逐": "vote", "night": "night", "夜晚": "night",
          "夜间": "night", "skill": "skill", "技能": "skill", "red_card": "red_card", "红牌": "red_card"}


def _event_kind(word: str) -> str:
    """The kind the director typed, in English or in the Chinese `event --help` lists (出局, 挂机 …)."""
    from tracker.engine.events import ALIASES, EventKind
    from tracker.reports.event_lines import EVENT_WORDS

    by_word = {**{w: k for k, w in EVENT_WORDS.items()}, **_MORE_WORDS}
    kind = by_word.get(word.strip(), word.strip())
    if kind not in {k.value for k in EventKind} and kind not in ALIASES:
        import difflib

        near = difflib.get_close_matches(kind, [*EVENT_WORDS, *by_word], n=3, cutoff=0.5)
        raise click.UsageError(f"不认识的事件类型 {word!r}" + (f"，是不是：{'、'.join(near)}？" if near else ""))
    return kind


def _cause(word: str | None) -> str | None:
    if word is None:
        return None
    code = CAUSES.get(word.strip())
    if code is None:
        raise click.UsageError(f"不认识的出局原因 {word!r}；可用：vote（投票）、night（夜晚）、skill（技能）、"
                               "red_card（红牌）")
    return code


@click.command("event", epilog="KIND 可写英文或中文：" + "、".join(f"{k}（{w}）" for k, w in (
    ("eliminated", "出局"), ("died", "死亡"), ("benched", "挂机"), ("tag_given", "获得标记"), ("undo", "撤销"))) + " …")
@game_argument
@click.argument("kind")
@click.option("--player", default=None, help="玩家（tag_passed 时为原持有者）")
@click.option("--day", type=int, default=None, help="第几日")
@click.option("--tag", default=None, help="标记：警长、牧首、神眷者、绑架 …")
@click.option("--to", "to", default=None, help="tag_passed 的接任者")
@click.option("--role", default=None, help="role_set 的新身份")
@click.option("--faction", default=None, help="faction_set / surrender / faction_lost 的阵营")
@click.option("--cause", default=None, help="出局原因：vote（投票）/ night（夜晚）/ skill（技能）/ red_card（红牌）")
@click.option("--seq", type=int, default=None, help="undo 要撤销的事件序号")
@click.option("--reason", default=None, help="说明")
@click.option("--data", "pairs", multiple=True, metavar="KEY=VALUE", help="其他数据，可重复")
@click.option("--at", "at", default=None, metavar="ISO", help="事件发生的时间（默认现在）")
@click.option("--by", "by", default=None, help="记录人（默认第一位导演）")
@db_option
@json_option
def event_cmd(game_path: Path, kind: str, player: str | None, day: int | None, tag: str | None, to: str | None,
              role: str | None, faction: str | None, cause: str | None, seq: int | None, reason: str | None,
              pairs: tuple[str, ...], at: str | None, by: str | None, db_url: str | None, as_json: bool) -> None:
    """记录一个游戏事件（出局、挂机、警长、翻转身份、修正、加速、投降、撤销 …）。"""
    kind = _event_kind(kind)
    cause = _cause(cause)
    data: dict[str, JSON] = {}
    for k, v in (("day", day), ("tag", tag), ("to", to), ("role", role), ("faction", faction),
                 ("cause", cause), ("seq", seq), ("reason", reason)):
        if v is not None:
            data[k] = v
    for pair in pairs:
        if "=" not in pair:
            raise GameRuleError(f"--data {pair!r} 应写成 KEY=VALUE", hint="例如：--data granted=false")
        k, v = pair.split("=", 1)
        data[k.strip()] = _value(v)
    when = None
    svc = open_service(game_path, db_url)
    try:
        if at:
            try:
                when = datetime.fromisoformat(at)
            except ValueError as exc:
                raise ConfigError(f"--at {at!r} 不是时间", hint="例如：2025-03-03T09:00:00+08:00") from exc
            when = when if when.tzinfo else when.replace(tzinfo=svc.game.tz)
        e = svc.log.record_event(kind, player, data, at=when, recorded_by=by)
        if e.kind == "undo" and e.payload.seq is not None:
            for note in svc.log.undo_notes(int(e.payload.seq)):
                echo(f"注意：{note}", err=True)
        s = svc.log.state()
        if as_json:
            emit_json(event_json(e, s.outcome))
            return
        echo(f"已记录事件 #{e.seq}：{_event_words(e.kind, e.player, dict(e.data))}")
        if e.kind in ("eliminated", "died") and svc.night_desk.has_exit_skill("exile"):
            # typed by hand, the exit is recorded alone: what it sets off is the desk's to settle
            echo("注意：手动记录的出局不触发连锁（殉情、遇难、殉职 …）；投票出局请用 tracker confirm，"
                 "红牌用 tracker card issue，技能出局用 tracker night … add / confirm", err=True)
        if s.outcome is not None:
            echo(f"胜负：{s.outcome.reason}（{s.outcome.clause}）")
    finally:
        svc.close()


def _event_words(kind: str, player: str | None, data: Mapping[str, object]) -> str:
    from tracker.reports.event_lines import event_line

    return event_line(kind, player, data)


@click.command("state")
@game_argument
@click.option("--events", "show_events", is_flag=True, help="同时列出事件记录（含序号，供 undo 使用）")
@db_option
@json_option
def state_cmd(game_path: Path, show_events: bool, db_url: str | None, as_json: bool) -> None:
    """游戏状态：每名玩家的存活/出局/挂机、身份、标记（警长等），各日，胜负。"""
    from tracker.cli.json_docs import readings_json
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken
    from tracker.cli.readings import reading_lines
    from tracker.engine.roster import check_assignment

    svc = open_service(game_path, db_url)
    try:
        ledger = check_ledger(svc)  # the cards column reads the ledger: a forged card must not pass quietly
        summary = svc.summary()
        problems = check_assignment(svc.ruleset, svc.game.players)
        roster_broken = any(p.level == "error" for p in problems)
        if as_json:
            emit_json(state_command_json(summary, outcome_judged=not roster_broken, problems=problems, ledger=ledger,
                                         readings=readings_json(svc.ruleset, svc.game.options),
                                         events=svc.log.events_json() if show_events else None))
            fail_if_broken(ledger)
            _refuse_roster(problems)
            return
        tz = svc.game.tz
        st = summary.state
        echo(f"{svc.game.name}（规则 {svc.ruleset.id}）")
        for line in reading_lines(svc.ruleset, svc.game.options):
            echo(line)
        for pl in st.players.values():
            tags = "、".join(sorted(pl.tags))
            c = summary.cards[pl.name]
            card = "".join(f"{w}{n}" for w, n in (("蓝", c.blue), ("黄", c.yellow), ("红", c.red)) if n)
            marks = "、".join(m for m in summary.marks.get(pl.name, ()) if m not in pl.tags)
            echo(f"  {_pad(pl.name, 10)} {_pad(STATUS_WORDS[pl.status], 6)} {pl.role or '?'}／{pl.faction or '?'}"
                       f"{'  [' + tags + ']' if tags else ''}{'  （' + marks + '）' if marks else ''}{'  ' + card if card else ''}")
        # the game file's days as they stand, then any day known only from events (as `state --json`)
        statuses = {d.day: d for d in summary.days}
        days: list[DayStatus | DayState] = [*statuses.values(), *(x for x in st.days if x.day not in statuses)]
        for d in days:
            for line in _day_lines(d, tz):
                echo(line)
        for x in st.lost.values():
            echo(f"  判负：{x.reason}（{x.clause}）")
        o = st.outcome
        if roster_broken:
            echo("胜负：不判定（游戏文件的玩家配置与规则矛盾，见下方配置错误）")
        else:
            echo(f"胜负：{o.reason}（{o.clause}）" if o else "胜负：尚未分出")
        for tag, holder in st.pending_tags():
            how = st.transfer_of(tag, holder)
            echo(f"待处理：{holder} 的{tag}等待移交{f'（{how}）' if how else ''}")
        for p in problems:
            echo(f"{'配置错误' if p.level == 'error' else '注意'}：{p.message}", err=True)
        for w in st.warnings:
            echo(f"注意：{w}", err=True)
        if show_events:
            from tracker.engine.events import effective

            events = svc.log.events()
            _, undone = effective(events)
            for e in events:
                mark = "（已撤销）" if e.seq in undone else ""
                echo(f"  #{e.seq:>4} {e.at.astimezone(tz):%m-%d %H:%M} {_event_words(e.kind, e.player, dict(e.data))}"
                     f" — {e.recorded_by}{mark}")
        fail_if_broken(ledger)
        _refuse_roster(problems)
    finally:
        svc.close()


def _refuse_roster(problems: Sequence[RosterProblem]) -> None:
    from tracker.service.roster_check import refuse_on_roster_errors

    refuse_on_roster_errors([p.message for p in problems if p.level == "error"], "不判定胜负")


_CAUSES = {"auto": "自动", "ruleset": "规则：首日", "game.toml": "游戏文件", "request": "申请", "director": "导演"}


def _day_lines(d: DayStatus | DayState, tz: tzinfo) -> list[str]:
    """One day of `tracker state`: effective close, 加速 and why, the 进程帖's requests, suggestions
    (a day known only from events, a DayState, has its close and 加速 only)."""
    from tracker.engine.days import DayStatus, RequestEvidence

    def hm(x: datetime | None) -> str:
        return x.astimezone(tz).strftime("%m-%d %H:%M") if x else "?"
    status = d if isinstance(d, DayStatus) else None
    line = f"  第{d.day}日 关门 {hm(d.closes)}"
    if status is not None and status.extended:
        line += f"（原定 {hm(status.planned_closes)}）"
    if d.accelerated:
        cause = _CAUSES.get(str(d.accelerated_cause), str(d.accelerated_cause or ""))
        if status is not None and d.accelerated_cause == "auto":
            cause += f"：开门时未出局 {status.not_out_at_open} 人"
        since = f"，{hm(status.accelerated_at)} 起" if status is not None and status.accelerated_at else ""
        line += f"  加速（{cause}{since}）"
    if d.delayed:
        line += "  延时"
    lines = [line]
    req = status.requests if status is not None else None
    if req:
        def who(xs: Sequence[RequestEvidence]) -> str:
            return "、".join(x.player for x in xs)
        parts = [f"申请加速 {len(req.accelerate)}/{req.needed}" + (f"（{who(req.accelerate)}）" if req.accelerate else "")]
        if req.delay:
            parts.append(f"申请延时 {len(req.delay)}/{req.needed}（{who(req.delay)}）")
        lines.append(f"      {'；'.join(parts)}，截止 {hm(req.cutoff)}")
    for sug in status.suggestions if status is not None else ():
        lines.append(f"      建议：{sug.message} → {sug.command}")
    return lines


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
    for cmd in (rulesets_cmd, init_cmd, event_cmd, state_cmd):
        group.add_command(cmd)
