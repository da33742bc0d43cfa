"""Discuz! mobile API documents (``api/mobile/index.php?version=4``) -> records. Pure.

One request with a large ``ppp`` lists every visible post of a thread with its pid, floor
(``number``), database position, status bits and epoch time, which is what incremental crawling
needs. The ``message`` lacks ``[size]`` and the edit marker, so formatting checks still need the
desktop page; text and quotes go through the same extraction as the desktop so they compare equal.
The display ``dateline`` is relative for recent posts and is never used when ``dbdateline`` exists.

A re-crawl lists every post again, nearly all of them as they were: given the digest of each
post's message as last stored, the parser reads only the place of a post whose message is byte for
byte the same (a :class:`~tracker.records.ListedPost`) and extracts the others. An edit changes
the message (Discuz rewrites it, with or without its edit marker), so an edit is always extracted.
"""

from __future__ import annotations

import hashlib
import html as htmllib
import json
import math
import re
from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from tracker.clock import SHANGHAI
from tracker.errors import NoPermissionError, NotAThreadError, ParseError, ThreadMissingError
from tracker.records import ListedPost, Post, ThreadPage, ThreadSummary
from tracker.scraper.charset import decode_body
from tracker.scraper.html_depth import cap_depth
from tracker.scraper.html_text import Body, extract_body, extract_simple
from tracker.scraper.times import from_epoch, parse_forum_time

_LOCKED = re.compile(r"^\s*提示:\s*<em>[^<]*屏蔽[^<]*</em>\s*$")
_PAGE = re.compile(r"(?:^|[?&;])page=([0-9]{1,9})")
_KNOWN_MESSAGES = {
    "thread_nonexistence": "指定的主题不存在或已被删除或正在被审核",
    "thread_nopermission": "阅读权限不足，无法浏览本帖",
    "forum_nonexistence": "指定的版块不存在",
    "forum_nopermission": "没有浏览该版块的权限",
    "to_login": "需要登录后才能浏览",
}
_STATUS_BLOCKED = 1
_STATUS_MOBILE = 8

Doc = str | bytes | Mapping[str, Any]


def _load(doc: Doc, page_url: str) -> Mapping[str, Any]:
    where = page_url or "（未知地址）"
    if isinstance(doc, Mapping):
        data: Any = doc
    else:
        try:
            if isinstance(doc, bytes):
                try:
                    data = json.loads(doc)
                except UnicodeDecodeError:
                    data = json.loads(decode_body(doc, "application/json"))
            else:
                data = json.loads(doc)
        except RecursionError:
            raise ParseError("移动版接口返回的 JSON 嵌套过深，无法解析", page=where) from None
        except ValueError as exc:
            raise NotAThreadError("移动版接口返回的不是 JSON（可能是网页、错误页或登录页）", page=where) from exc
    if not isinstance(data, Mapping) or not isinstance(data.get("Variables"), Mapping):
        raise NotAThreadError("移动版接口的回应缺少 Variables", page=where)
    return data


def _raise_for_message(data: Mapping[str, Any], has_posts: bool, page_url: str, what: str) -> None:
    message = data.get("Message")
    if not isinstance(message, Mapping):
        return
    val = str(message.get("messageval") or "")
    text = _KNOWN_MESSAGES.get(val.split("//")[0]) or str(message.get("messagestr") or val)
    where = page_url or "（未知地址）"
    if "nonexistence" in val or "not_exist" in val:
        raise ThreadMissingError(f"{what}不存在或已被删除：{where}（论坛提示：{text}）")
    if "nopermission" in val or "noperm" in val or not has_posts:
        raise NoPermissionError(
            f"论坛拒绝显示该{what}：{where}（论坛提示：{text}）",
            hint="若为阅读权限不足，请在配置中使用有权限的账号登录后重新抓取")


_INT_MAX = 2**63 - 1  # a database BIGINT: a larger number from the forum is a broken answer


def _int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        n = int(str(value).strip())
    except ValueError:
        return None
    return n if -_INT_MAX <= n <= _INT_MAX else None


def _whole(value: Any, what: str, page_url: str, pid: int | None = None) -> int:
    """A mandatory number: present, and one the database can hold."""
    n = _int(value)
    if n is None:
        shown = str(value)[:40]
        raise ParseError(f"{what} 不是可用的数字（{shown}）" if value is not None else f"帖子缺少 {what}",
                         page=page_url or "（未知地址）", pid=pid)
    return n


def _unicode(text: str, what: str, page_url: str, pid: int | None = None) -> str:
    """Text the database and the terminal can take: a lone surrogate (``\\ud800``) is a broken answer."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ParseError(f"{what}含有无效的 Unicode 字符（孤立的代理项）",
                         page=page_url or "（未知地址）", pid=pid) from None
    return text


def _str(value: Any) -> str:
    text = "" if value is None else str(value)
    return htmllib.unescape(text) if "&" in text else text


def message_digest(message: object) -> str:
    """What identifies a listed message: a post listed again with the same digest says what it said."""
    raw = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else b"\x00" + repr(message).encode()
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _floor(item: Mapping[str, Any], pid: int, page_url: str) -> int:
    floor = _int(item.get("number"))
    if floor is None:
        raise ParseError("找不到楼层号（number）", page=page_url or None, pid=pid)
    return floor


def _unchanged(item: Mapping[str, Any], pid: int, tid: int, digest: str, *, page_url: str) -> ListedPost | None:
    """The item as a :class:`ListedPost` when its message is not blocked (a block shows a
    placeholder, which is a change to record even if the message were the same)."""
    status = _int(item.get("status")) or 0
    message = item.get("message")
    if status & _STATUS_BLOCKED or not isinstance(message, str) or _LOCKED.match(message):
        return None
    return ListedPost(pid=pid, tid=_int(item.get("tid")) or tid, floor=_floor(item, pid, page_url),
                      position=_int(item.get("position")), digest=digest)


def _parse_post(item: Mapping[str, Any], tid: int | None, *, page_url: str, tz: tzinfo) -> Post:
    pid = _whole(item.get("pid"), "pid", page_url)
    floor = _floor(item, pid, page_url)
    # exactly as the forum sends it (never trimmed: "银鸦 " is another account than 银鸦)
    author = _unicode(_str(item.get("author") or item.get("username")), "作者名", page_url, pid)
    if not author.strip() and str(item.get("anonymous") or "0") != "0":
        author = "匿名"
    if not author.strip():
        raise ParseError("找不到作者", page=page_url or None, pid=pid)
    posted_at = from_epoch(item.get("dbdateline"), tz) or parse_forum_time(_str(item.get("dateline")), tz)
    if posted_at is None:
        raise ParseError(f"无法识别发帖时间“{item.get('dateline')}”", page=page_url or None, pid=pid)
    status = _int(item.get("status")) or 0
    message = item.get("message")
    html = _unicode(message, "帖子内容", page_url, pid) if isinstance(message, str) else ""
    blocked = bool(status & _STATUS_BLOCKED) or _LOCKED.match(html) is not None
    body = Body(text="") if blocked else (extract_simple(html) or _extract(html, tz))
    uid = _int(item.get("authorid"))
    return Post(
        pid=pid, tid=_int(item.get("tid")) or tid or 0, floor=floor, author=author,
        uid=uid if uid else None, posted_at=posted_at, html=html, text=body.text,
        position=_int(item.get("position")), blocked=blocked, from_mobile=bool(status & _STATUS_MOBILE),
        quotes=body.quotes, colors=body.colors, sizes=body.sizes, fonts=body.fonts, images=body.images,
        smilies=body.smilies, source="mobile")


def _extract(message: str, tz: tzinfo) -> Body:
    body = LexborHTMLParser(cap_depth(message)).body
    return extract_body(body, tz) if body is not None else Body(text="")


def parse_viewthread(doc: Doc, *, page_url: str = "", tz: tzinfo = SHANGHAI,
                     stored: Mapping[int, str] | None = None) -> ThreadPage:
    """``module=viewthread`` -> the posts of the requested page (or every post with a large ``ppp``).

    ``stored``: pid → the digest of the message the store last listed for the post. A post listed
    with that very message is returned in ``unchanged``, not extracted, not in ``posts``.
    """
    data = _load(doc, page_url)
    variables: Mapping[str, Any] = data["Variables"]
    postlist = variables.get("postlist")
    items = [p for p in postlist if isinstance(p, Mapping)] if isinstance(postlist, list) else []
    _raise_for_message(data, bool(items), page_url, "主题")
    thread = variables.get("thread")
    thread = thread if isinstance(thread, Mapping) else {}
    tid = _int(thread.get("tid")) or (_int(items[0].get("tid")) if items else None)
    if tid is None:
        raise NotAThreadError("移动版接口的回应里没有主题（thread.tid）", page=page_url or "（未知地址）")
    digests: dict[int, str] = {}
    parsed: list[Post] = []
    unchanged: list[ListedPost] = []
    first: int | None = None  # the floor of the document's first post
    for item in items:
        pid = _whole(item.get("pid"), "pid", page_url)
        digest = digests[pid] = message_digest(item.get("message"))
        same = (_unchanged(item, pid, tid, digest, page_url=page_url)
                if stored is not None and stored.get(pid) == digest else None)
        if same is not None:
            unchanged.append(same)
        else:
            parsed.append(_parse_post(item, tid, page_url=page_url, tz=tz))
        if first is None:
            first = (same or parsed[-1]).floor
    posts = tuple(parsed)
    ppp = _int(variables.get("ppp"))
    replies = _int(thread.get("replies"))
    pages = max(1, math.ceil((replies + 1) / ppp)) if replies is not None and ppp else 1
    # The API does not echo the page; a page past the end answers with the last one, so the
    # first post's floor says which page this really is.
    if first is not None and ppp:
        page = max(1, (first - 1) // ppp + 1)
    else:
        requested = _PAGE.search(page_url)
        page = (_int(requested.group(1)) if requested else None) or 1
    member_uid = _int(variables.get("member_uid"))
    subject = _unicode(_str(thread.get("subject")).strip(), "主题标题", page_url)
    return ThreadPage(
        tid=tid, subject=subject, page=page, pages=max(pages, page), posts=posts,
        fid=_int(thread.get("fid")) or _int(variables.get("fid")) or None, replies=replies,
        maxposition=_int(thread.get("maxposition")), ppp=ppp,
        formhash=_str(variables.get("formhash")) or None,
        member_name=_str(variables.get("member_username")) or None,
        member_uid=member_uid if member_uid else None, source="mobile", unchanged=tuple(unchanged),
        digests=digests)


def parse_forumdisplay_mobile(doc: Doc, *, page_url: str = "", tz: tzinfo = SHANGHAI) -> list[ThreadSummary]:
    """``module=forumdisplay`` -> the section's threads (``displayorder`` > 0 is sticky)."""
    data = _load(doc, page_url)
    threads = data["Variables"].get("forum_threadlist")
    items = [t for t in threads if isinstance(t, Mapping)] if isinstance(threads, list) else []
    if not items:
        _raise_for_message(data, False, page_url, "版块")
    out: list[ThreadSummary] = []
    for item in items:
        tid = _int(item.get("tid"))
        if tid is None:
            continue
        out.append(ThreadSummary(
            tid=tid, subject=_str(item.get("subject")).strip(), author=_str(item.get("author")) or None,
            replies=_int(item.get("replies")),
            last_post_at=from_epoch(item.get("dblastpost"), tz) or parse_forum_time(_str(item.get("lastpost")), tz),
            sticky=(_int(item.get("displayorder")) or 0) > 0))
    return out
