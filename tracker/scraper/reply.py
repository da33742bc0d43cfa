"""Posting a reply as the director: the form Discuz expects and what each of its answers means.

Pure: builds the quick-reply request and interprets the answer; the request itself goes through
the fetcher (the only network code). Every refusal the forum can give becomes a
:class:`PostRefusedError` with a ``code`` and a Chinese message, and nothing here retries: a
refused post is reported to the director, never hammered (the flood answer says how long to wait).

Discuz's ajax answers put their real data (the new pid, the flood interval) only inside
``<script>``; the text before it is the human message. A wrong formhash is an HTTP 503 "System
Error" page; a full-form success is a bare relative 301.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from tracker.config import GameConfig
from tracker.errors import PostRefusedError

if TYPE_CHECKING:
    import httpx

_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S | re.I)
_PID = re.compile(r"['\"]pid['\"]\s*:\s*['\"](\d+)['\"]|[?&]pid=(\d+)")
_FLOOD = re.compile(r"floodctrl['\"]\s*:\s*['\"](\d+)|间隔少于\s*(\d+)\s*秒")
_ALERT_P = re.compile(r'<div id="messagetext"[^>]*>\s*<p>(.*?)</p>', re.S)


@dataclass(frozen=True, slots=True)
class ReplyRequest:
    path: str
    form: dict[str, str]


@dataclass(frozen=True, slots=True)
class ReplyResult:
    pid: int | None
    message: str


class ReplyRefused(PostRefusedError):
    """A refusal with a machine-readable code: captcha, flood, stale_formhash, invalid_submit,
    not_logged_in, unknown."""

    def __init__(self, code: str, message: str, *, hint: str | None = None, wait_seconds: int | None = None) -> None:
        super().__init__(message, hint=hint)
        self.code = code
        self.wait_seconds = wait_seconds


def fastpost_request(*, fid: int, tid: int, message: str, formhash: str, posttime: int) -> ReplyRequest:
    """The quick-reply POST as the browser's ajaxpost sends it (BBCode message, member formhash)."""
    query = urlencode({"mod": "post", "action": "reply", "fid": fid, "tid": tid, "extra": "page=1",
                       "replysubmit": "yes", "infloat": "yes", "handlekey": "fastpost", "inajax": 1})
    form = {"message": message, "posttime": str(posttime), "formhash": formhash, "usesig": "1", "subject": "  "}
    return ReplyRequest(f"forum.php?{query}", form)


def _human_text(body: str) -> str:
    m = _CDATA.search(body)
    inner = m.group(1) if m else body
    alert = _ALERT_P.search(inner)
    if alert:
        inner = alert.group(1)
    text = _SCRIPT.sub("", inner)
    return re.sub(r"<[^>]+>", "", text).strip()


def interpret_reply(status: int, body: str, location: str | None = None) -> ReplyResult:
    """What a reply POST's answer means; raises ReplyRefused for every refusal."""
    if status in (301, 302) and location:
        m = _PID.search(location)
        return ReplyResult(int(next(g for g in m.groups() if g)) if m else None, "回复发布成功")
    if status == 503:
        raise ReplyRefused("stale_formhash", "论坛拒绝了请求：表单验证串（formhash）已过期或与登录不符",
                           hint="重新登录后再发（tracker 会先重新取 formhash）")
    if status != 200:
        raise ReplyRefused("unknown", f"论坛返回 HTTP {status}，回复未发布")
    text = _human_text(body)
    if "succeedhandle_" in body or "回复发布成功" in body:
        m = _PID.search(body)
        return ReplyResult(int(next(g for g in m.groups() if g)) if m else None, "回复发布成功")
    if "验证码" in text:
        raise ReplyRefused("captcha", "论坛要求发帖验证码，工具无法代填",
                           hint="请在论坛后台为导演账号所在用户组关闭发帖验证码，或手动粘贴报告")
    flood = _FLOOD.search(body)
    if flood or "两次发表间隔" in text:
        wait = int(next((g for g in flood.groups() if g), "15")) if flood else 15
        raise ReplyRefused("flood", f"论坛灌水限制：两次发表间隔少于 {wait} 秒", wait_seconds=wait,
                           hint=f"至少等待 {wait} 秒后再发")
    if "尚未登录" in text:
        raise ReplyRefused("not_logged_in", "未登录或登录已过期，没有回帖权限",
                           hint="用 [login] username 和 TRACKER_PASSWORD 重新登录，或更新 cookie 文件")
    if "来路不正确" in text or "表单验证串不符" in text:
        raise ReplyRefused("invalid_submit", "论坛认为请求来路不正确或表单验证串不符",
                           hint="不要设置外站 Referer；重新取 formhash 后再发")
    raise ReplyRefused("unknown", f"论坛未确认回复发布：{text[:80] or '（空白回答）'}")


async def post_reply(game: GameConfig, tid: int, message: str, *, now: int,
                     transport: httpx.AsyncBaseTransport | None = None,
                     password: Callable[[], str] | None = None, session_file: Path | None = None) -> ReplyResult:
    """Post ``message`` (BBCode) to thread ``tid`` as the director's account: one attempt, never retried.

    The member formhash is read from the thread page fetched with the same cookies (a formhash from
    another session is stale: HTTP 503). A thread page rendered for a guest means the login expired:
    with a username configured we log in again once, otherwise we refuse before posting.
    """
    from tracker.scraper.auth import fresh_login, open_session
    from tracker.scraper.desktop import parse_thread_page
    from tracker.scraper.fetch import Fetcher, FetchPolicy

    async with Fetcher(game.forum, FetchPolicy.from_config(game.crawl), transport=transport) as fetcher:
        await open_session(fetcher, game, password=password, store_path=session_file)
        page = None
        for attempt in range(2):
            got = await fetcher.get(f"forum.php?mod=viewthread&tid={tid}")
            page = parse_thread_page(got.body, page_url=got.url, tz=game.tz, content_type=got.content_type)
            if page.member_name:
                break
            if attempt == 0 and game.crawl.username:
                await fresh_login(fetcher, game, password=password, store_path=session_file)
                continue
            raise ReplyRefused("not_logged_in", "未登录或登录已过期：论坛把导演账号当作游客",
                               hint="在 game.toml 的 [login] 写 username 并设置 TRACKER_PASSWORD，或更新 cookie 文件")
        assert page is not None
        if not page.formhash or page.fid is None:
            raise ReplyRefused("unknown", f"帖子 {tid} 的页面上没有回复表单（formhash/fid），无法回帖",
                               hint="确认导演账号在该版块有回帖权限")
        req = fastpost_request(fid=page.fid, tid=tid, message=message, formhash=page.formhash, posttime=now)
        answer = await fetcher.post_form(req.path, req.form)
        return interpret_reply(answer.status, answer.text, answer.header("location"))
