"""`tracker report`, `tracker watch`, `tracker post`: the scheduled job, its one-shot form for cron, posting.

Exit codes of ``tracker report`` tell a cron job whether to bother the director: 0 nothing to act
on, 10 something needs the director (lurkers to warn, invalid ballots, an outcome to confirm, open
flags); errors keep their usual codes (1–8).
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import db_option, echo, emit_json, game_argument, json_option, open_service
from tracker.errors import ConfigError, PostRefusedError
from tracker.safefile import read_text_input

if TYPE_CHECKING:  # the types only: `tracker --help` must not load the services
    from tracker.config import DayConfig, GameConfig
    from tracker.scraper.reply import ReplyResult
    from tracker.service import Service
    from tracker.watch import Sleeper, Watcher

MAX_POST_FILE_BYTES = 1024 * 1024  # far above any post a forum accepts

NEEDS_DIRECTOR = 10
FORMATS = ("md", "bbcode", "html")


@click.command("report")
@click.argument("kind", type=click.Choice(["lurkers", "tally", "cards"]))
@game_argument
@click.option("--day", type=int, default=None, help="第几日（默认：正在进行的一日，或最近关门的一日）")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", help="输出格式（默认 Markdown）")
@click.option("--write", is_flag=True, help="同时写入报告目录（.md/.bbcode/.html）；不覆盖手动改过的报告")
@click.option("--force", is_flag=True, help="--write：手动改过（或设为只读）的报告也覆盖")
@db_option
@json_option
def report_cmd(kind: str, game_path: Path, day: int | None, fmt: str, write: bool, force: bool, db_url: str | None,
               as_json: bool) -> None:
    """生成一份报告（潜水 / 票型 / 判罚）；退出码 10 表示有需要导演处理的事项。"""
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken

    svc = open_service(game_path, db_url)
    try:
        ledger = check_ledger(svc)
        day = day if day is not None else svc.reports.current_day()
        att = svc.reports.attention(day, kind)
        written = svc.reports.write_reports(day, (kind,), force=force) if write else []
        if as_json:
            from tracker.cli.json_docs import attention_json

            emit_json(attention_json(day, kind, att, svc.reports.report_bbcode(day, kind), written))
        else:
            echo(_render(svc, day, kind, fmt), nl=False)
            for item in att.items:
                echo(f"需处理：{item}", err=True)
            for path in written:
                echo(f"已写入 {path}", err=True)
    finally:
        svc.close()
    fail_if_broken(ledger)
    if att.needed:
        click.get_current_context().exit(NEEDS_DIRECTOR)


def _render(svc: Service, day: int, kind: str, fmt: str) -> str:
    if fmt == "bbcode":
        return str(svc.reports.report_bbcode(day, kind)).rstrip("\n") + "\n"
    report = svc.reports.day_report(day, (kind,))
    if fmt == "html":
        from tracker.reports.html import render_html

        return render_html(report)
    from tracker.reports.markdown import render_markdown

    return render_markdown(report)


@click.command("watch")
@game_argument
@db_option
def watch_cmd(game_path: Path, db_url: str | None) -> None:
    """按日程持续抓取并写报告（关门前潜水预警、关门后结算），Ctrl-C 或 SIGTERM 停止。"""
    from tracker.logs import use_zone

    svc = open_service(game_path, db_url)
    use_zone(svc.game.tz)  # the log's own timestamps in the game's zone, as its messages are
    watcher = build_watcher(svc, game_path)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await watcher.run(stop)

    try:
        asyncio.run(main())
    finally:
        svc.close()


def build_watcher(svc: Service, game_path: Path, *, crawl: Callable[[], Awaitable[object]] | None = None,
                  sleep: Sleeper | None = None, host: str | None = None, pid: int | None = None) -> Watcher:
    """The watcher `tracker watch` runs (tests drive it with a frozen clock, their own crawl and sleep,
    and a fixed host and pid for the lock):
    writes each slot's reports (posting them when asked), re-reads the game file before every pass
    (days and thread ids added while it runs), logs in the game's time zone, keeps watching."""
    from tracker.schedule import Slot
    from tracker.watch import Watcher, WatchLog

    def write(slot: Slot) -> list[str]:
        final = slot.kind == "final"
        # unattended: a report the director edited is kept, the new one written beside it (NAME.new.EXT)
        paths = svc.reports.write_reports(slot.day, slot.reports, final=final, suffix="" if final else "-warning", beside=True)
        if svc.game.schedule.post_reports and svc.game.process_thread is not None:
            text = "\n\n".join(svc.reports.report_bbcode(slot.day, k) for k in slot.reports if k != "tally")
            try:
                _post(svc, svc.game.process_thread, text)
            except PostRefusedError as exc:
                echo(f"自动发帖失败：{exc}", err=True)
        return [p.name for p in paths]

    def refresh() -> Sequence[DayConfig]:
        from tracker.config import load_game

        svc.ctx.game = load_game(game_path)  # every service reads the game through the shared context
        return svc.log.effective_days()

    def game_over() -> str | None:
        from tracker.service.roster_check import roster_errors

        outcome = svc.summary().state.outcome
        if outcome is None or roster_errors(svc.ctx):  # a roster that contradicts the ruleset decides nothing
            return None
        return f"{outcome.reason}（{outcome.clause}）"

    game = svc.game
    tz = game.tz
    watcher = Watcher(
        days=svc.log.effective_days(), schedule=game.schedule, store=svc.store, clock=svc.clock,
        crawl=crawl or svc.crawling.crawl_async, write=write, name=game.name, refresh_days=refresh,
        # the crawl stops itself at its deadline; this is the backstop for the reports
        crawl_deadline=game.crawl.crawl_deadline_minutes * 60 + 60, keep_watching=True, tz=tz,
        game_over=game_over,
        # what the watcher does goes to the `tracker` log: stderr at INFO by default (the systemd
        # journal), or --log-file / --log-level (tracker.logs); its times are in the game's zone
        log=WatchLog())
    if sleep is not None:
        watcher.sleep = sleep
    if host is not None:
        watcher.host = host
    if pid is not None:
        watcher.pid = pid
    return watcher


def _post(svc: Service, tid: int, text: str) -> ReplyResult:
    """Post once; from inside the watcher's event loop the post runs on its own loop in a worker thread."""
    import concurrent.futures

    from tracker.scraper.reply import post_reply

    coro = post_reply(svc.game, tid, text, now=int(svc.clock.now().timestamp()))
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@click.command("post")
@game_argument
@click.option("--thread", "thread", required=True, help="process（进程帖）、day<N>-discussion / day<N>-vote，或 tid")
@click.option("--file", "file", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help="要发的 BBCode 文件")
@click.option("--yes", is_flag=True, help="不询问，直接发帖（脚本中使用）")
@db_option
@json_option
def post_cmd(game_path: Path, thread: str, file: Path, yes: bool, db_url: str | None, as_json: bool) -> None:
    """以导演账号在论坛回帖（默认先确认）。"""
    svc = open_service(game_path, db_url)
    try:
        tid = resolve_thread(svc.game, thread)
        # a regular file of bounded size (a Discuz post is at most a few tens of thousands of characters)
        text = read_text_input(file, MAX_POST_FILE_BYTES, "要发的文件")
        if not yes:
            if not sys.stdin.isatty():
                raise ConfigError("不在终端上运行，无法确认发帖", hint="确认无误后加 --yes")
            echo(text)
            click.confirm(f"以上内容将发到帖子 {tid}，确认发帖？", abort=True)
        result = _post(svc, tid, text)
        if as_json:
            from tracker.cli.json_docs import reply_json

            emit_json(reply_json(tid, result.pid, result.message))
        else:
            echo(f"已发帖：tid {tid}，pid {result.pid}")
    finally:
        svc.close()


def resolve_thread(game: GameConfig, spec: str) -> int:
    if spec.isdigit():
        return int(spec)
    if spec == "process":
        if game.process_thread is None:
            raise ConfigError("游戏文件没有 process_thread", hint="在 [game] 中写 process_thread = <tid>")
        return int(game.process_thread)
    import re

    m = re.fullmatch(r"day(\d+)-(discussion|vote)", spec)
    if m:
        d = game.day(int(m.group(1)))
        tid = d.discussion if m.group(2) == "discussion" else (d.vote[0] if d.vote else None)
        if tid is not None:
            return int(tid)
    raise ConfigError(f"无法识别的帖子：{spec}", hint="用 process、day2-discussion、day2-vote 或数字 tid")


@click.command("elevator")
@game_argument
@click.option("--day", type=int, required=True, help="第几日")
@db_option
@json_option
def elevator_cmd(game_path: Path, day: int, db_url: str | None, as_json: bool) -> None:
    """生成讨论帖二楼的电梯楼（BBCode）。"""
    svc = open_service(game_path, db_url)
    try:
        text = svc.reports.elevator_bbcode(day)
    finally:
        svc.close()
    from tracker.cli.json_docs import elevator_json

    emit_json(elevator_json(day, text)) if as_json else echo(text, nl=False)


@click.command("announce")
@game_argument
@click.option("--day", type=int, required=True, help="第 N 日开门时发的公示（公示第 N-1 日白天与第 N-1 夜）")
@db_option
@json_option
def announce_cmd(game_path: Path, day: int, db_url: str | None, as_json: bool) -> None:
    """生成第 N 日的开门公示草稿：第 N-1 日白天与第 N-1 夜的出局名单、当日警长等、加速。"""
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken

    svc = open_service(game_path, db_url)
    try:
        ledger = check_ledger(svc)
        text = svc.reports.day_announcement_bbcode(day)
        first = min(d.day for d in svc.game.days)
    finally:
        svc.close()
    # which 公示 this is: the one that opens day N, announcing day N-1 and night N-1 (none before the first day)
    covers = {"day": day - 1, "night": day - 1} if day > first else None
    if as_json:
        from tracker.cli.json_docs import announcement_json

        emit_json(announcement_json(day, covers, text))
    else:
        what = f"公示第 {day - 1} 日白天与第 {day - 1} 夜的结果" if covers else "游戏开始，此前没有白天与夜晚可公示"
        echo(f"第 {day} 日开门公示草稿（第 {day} 日开门时发在进程帖；{what}；遗言等由导演补充）：", err=True)
        echo(text, nl=False)
    fail_if_broken(ledger)


def register(group: click.Group) -> None:
    for cmd in (report_cmd, watch_cmd, post_cmd, elevator_cmd, announce_cmd):
        group.add_command(cmd)
