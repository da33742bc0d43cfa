"""`tracker crawl` and `tracker posts`.

With ``--json`` stdout carries the JSON document and nothing else; the progress line goes to stderr,
and only when stderr is a terminal. A crawl with a failed thread still prints its summary (the
other threads were stored), then exits non-zero with the first thread's error.
"""

from __future__ import annotations

import sys
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import db_option, echo, emit_json, game_argument, json_option, service
from tracker.cli.json_docs import posts_json
from tracker.visible import visible_line

if TYPE_CHECKING:
    from tracker.scraper.crawl import CrawlProgress, CrawlReport
    from tracker.store.posts import StoredPost

_STATUS_WORDS = {"ok": "完成", "missing": "帖子不存在", "no_permission": "无权限", "not_a_thread": "不是主题帖",
                 "parse_error": "无法解析", "forum_error": "论坛错误"}



class JsonProgress:
    """One JSON object per progress event on stderr: how the TUI follows a crawl it runs as a child
    process (its own interpreter, so parsing and writing never compete with the screen for the GIL)."""

    def __call__(self, p: CrawlProgress) -> None:
        from tracker.cli.json_docs import progress_line

        sys.stderr.write(progress_line(p) + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        return None


class ProgressLine:
    """One self-rewriting line on stderr; silent when stderr is not a terminal."""

    def __init__(self, enabled: bool | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.width = 0

    def __call__(self, p: CrawlProgress) -> None:
        if not self.enabled:
            return
        if p.event == "step":  # work after the crawl (detection): its own line
            self.close()
            click.echo(f"{p.detail}…", err=True)
            return
        where = f" · 帖 {p.tid}" if p.tid is not None else ""
        detail = f" {visible_line(p.detail)}" if p.detail and p.event == "document" else ""
        line = (f"抓取中 {p.threads_done}/{p.threads_total} 帖 · 请求 {p.requests} · "
                f"页面 {p.pages_fetched}{where}{detail}")
        pad = max(0, self.width - len(line))
        self.width = len(line)
        click.echo("\r" + line + " " * pad, err=True, nl=False)
        if p.event == "done":
            click.echo("", err=True)

    def close(self) -> None:
        if self.enabled and self.width:
            click.echo("", err=True)
            self.width = 0


def _summary(report: CrawlReport) -> None:
    for t in report.threads:
        title = f"《{visible_line(t.subject)}》" if t.subject else ""  # a forum's subject may carry escapes
        status = _STATUS_WORDS.get(t.status, t.status)
        if t.status != "ok":
            echo(f"帖 {t.tid}{title}：{status}（{t.error}）")
            continue
        pages = ",".join(str(n) for n in t.desktop_pages) or "无"
        pending = f"，待补桌面版 {len(t.pending_desktop)} 帖" if t.pending_desktop else ""
        echo(f"帖 {t.tid}{title}：{t.posts_seen} 帖，新 {t.posts_new}，改动 {t.posts_changed}，"
                   f"删除 {t.posts_deleted}；请求 {t.requests} 次，桌面页 {pages}{pending}")
    echo(f"共请求 {report.requests} 次，取得 {report.pages_fetched} 页；"
               f"新帖 {report.posts_new}，改动 {report.posts_changed}，删除 {report.posts_deleted}")


def _post_line(p: StoredPost, tz: tzinfo) -> str:
    """One stored post as a line of `tracker posts`, from the post itself (the JSON is built apart)."""
    marks = "".join(m for m, on in (("［已删除］", p.deleted), ("［已屏蔽］", p.blocked),
                                    (f"［{p.versions} 个版本］", p.versions > 1)) if on)
    text = " ".join(p.text.split())
    text = text[:60] + "…" if len(text) > 60 else text
    return f"{p.floor:>4} 楼 {p.posted_at.astimezone(tz).strftime('%Y-%m-%d %H:%M')} {p.author}{marks}：{text}"


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""

    @group.command("crawl")
    @game_argument
    @click.option("--thread", "threads", type=int, multiple=True, metavar="TID",
                  help="只抓这些帖子（可重复；默认：游戏文件里的全部帖子）")
    @db_option
    @json_option
    @click.option("--detect", is_flag=True,
                  help="抓取后检测违规（新帖和改动的帖子），即使有帖子抓取失败，已存的帖子也会检测")
    @click.option("--progress-jsonl", is_flag=True, hidden=True,
                  help="进度以每行一个 JSON 写到 stderr（终端界面在子进程中抓取时使用）")
    def crawl(game_path: Path, threads: tuple[int, ...], db_url: str | None, as_json: bool, detect: bool,
              progress_jsonl: bool) -> None:
        """抓取游戏帖：每帖一次移动版列表，只取有新帖或改动的桌面版页面。"""
        progress: JsonProgress | ProgressLine = JsonProgress() if progress_jsonl else ProgressLine()
        detection = None
        # a crawl reads no rule: the ruleset loads only for --detect or a log with a substitution
        with service(game_path, db_url, check_ruleset=detect) as svc:
            try:
                if detect:  # the TUI crawls through this command, so the detectors run in its child
                    report, detection = svc.crawl_and_detect(progress=progress, tids=list(threads) or None)
                else:
                    report = svc.crawling.crawl(progress=progress, tids=list(threads) or None)
            finally:
                progress.close()
            from tracker.service.roster_check import roster_check, substitutes_for_check

            # a typo in a player's name shows the first time the threads are read (a failed crawl
            # says its error alone: the names are checked when the threads were read in full)
            names = (roster_check(svc.ctx, substitutes_for_check(svc.ctx, lambda: svc.log.substitutes()))
                     if not report.errors else None)
        if as_json:
            from tracker.cli.json_docs import crawl_json

            emit_json(crawl_json(report, detection, names))
        else:
            _summary(report)
            if detection is not None:
                click.echo(f"违规检测：检查 {detection.scanned} 帖，新违规记录 {len(detection.new_flags)} 条")
            for line in names.lines() if names is not None else ():
                echo(line, err=True)
        if report.errors:
            raise report.errors[0]

    @group.command("posts")
    @game_argument
    @click.option("--thread", "tid", type=int, required=True, metavar="TID", help="帖子编号 tid")
    @db_option
    @json_option
    def posts(game_path: Path, tid: int, db_url: str | None, as_json: bool) -> None:
        """列出数据库里某帖的全部帖子（含已删除、已屏蔽的，并标出）。"""
        with service(game_path, db_url) as svc:
            tz = svc.game.tz
            rows = svc.browsing.posts(tid)
        if as_json:
            emit_json(posts_json(rows, tz))
            return
        if not rows:
            echo(f"数据库里没有帖 {tid} 的帖子；先运行 tracker crawl {game_path}", err=True)
            return
        for row in rows:
            echo(_post_line(row, tz))  # a post's ANSI escapes or bidi marks are shown, not obeyed
