"""Discuz! desktop pages (``forum.php?mod=viewthread`` / ``forumdisplay``) -> records. Pure.

The desktop page is the only source of font sizes and edit markers (the mobile API drops both).
Speed comes from doing little: Lexbor builds only the part of the page that is read (see
:mod:`tracker.scraper.desktop_trim`), one selector run finds every post's landmarks, and text-only bodies skip the
tree walk. Mandatory fields (pid, floor, author, time) raise :class:`ParseError` naming the pid and
the page; optional ones degrade to ``None``. A page that is not a thread raises the error that
says what it is instead (missing thread, no permission, not a thread page).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from tracker.clock import SHANGHAI
from tracker.errors import NoPermissionError, NotAThreadError, ParseError, ThreadMissingError
from tracker.records import Post, SeenAsStored, ThreadPage, ThreadSummary, html_digest
from tracker.scraper.charset import decode_body
from tracker.scraper.desktop_trim import PageHead, trim_page
from tracker.scraper.html_depth import cap_depth
from tracker.scraper.html_text import Body, extract_body, extract_simple, parse_edit_marker
from tracker.scraper.times import parse_forum_time

_POST_ID = re.compile(r"post_([0-9]{1,15})")
_UID = re.compile(r"(?:^|[?&;])uid=([0-9]{1,15})")
_AUTHORID = re.compile(r"(?:^|[?&;])authorid=([0-9]{1,15})")
_TID = re.compile(r"(?:^|[?&;])p?tid=([0-9]{1,15})|thread-([0-9]{1,15})-")
_FID = re.compile(r"(?:^|[?&;])fid=([0-9]{1,15})|forum-([0-9]{1,15})-")
_PAGES = re.compile(r"共\s*([0-9]{1,15})\s*页")
# The thread's header cell: <span class="xg1">回复:</span> <span class="xi1">20</span>
_REPLIES = re.compile(r"回复:\s*</span>\s*<span[^>]*>\s*([0-9]{1,9})\s*<")
_DIGITS = re.compile(r"[0-9]{1,15}")
_FLOOR_LABELS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_MISSING_MARKERS = ("不存在", "已被删除", "nonexistence", "not exist")
_FROM_MOBILE = "来自手机"
_SHOW_ALL = "显示全部楼层"  # replaces 只看该作者 under each post of an author-filtered view
# an image address resolved against the page's own query (see _absolute): "?…", "#…" or empty
_PAGE_RELATIVE_SRC = re.compile(r"""\b(?:src|file|zoomfile)=["']?(?:[?#]|["'\s>])""")

Doc = str | bytes


MAX_PAGE_POSTS = 200  # Discuz's posts-per-page setting is 10 by default and rarely above 50


def _text(doc: Doc, content_type: str | None) -> str:
    return decode_body(doc, content_type) if isinstance(doc, bytes) else doc


def _tree(doc: Doc, content_type: str | None) -> LexborHTMLParser:
    return LexborHTMLParser(cap_depth(_text(doc, content_type)))  # nesting capped before the parser sees it


def _first_int(pattern: re.Pattern[str], text: str | None) -> int | None:
    if not text:
        return None
    m = pattern.search(text)
    if m is None:
        return None
    if m.lastindex is None:
        return int(m.group(0))
    value = m.group(m.lastindex)  # the alternative that matched (patterns have one group each)
    return int(value) if value else None


def is_logged_in(doc: Doc | LexborHTMLParser, *, content_type: str | None = None) -> str | None:
    """The member name shown in the header (``strong.vwmy a``), or ``None`` for a guest page."""
    tree = doc if isinstance(doc, LexborHTMLParser) else _tree(doc, content_type)
    node = _member_link(tree)
    if node is None:
        return None
    name = node.text(deep=True).strip()
    return name or None


def _member_link(tree: LexborHTMLParser) -> LexborNode | None:
    header = tree.css_first("#hd")  # the member bar lives in the header; scanning only it is 10x cheaper
    return (header or tree).css_first("strong.vwmy a")


def _raise_for_non_thread(tree: LexborHTMLParser, page_url: str) -> None:
    where = page_url or "（未知地址）"
    alert = tree.css_first("#messagetext")
    if alert is not None:
        message = " ".join((alert.css_first("p") or alert).text(deep=True).split())
        classes = (alert.attributes.get("class") or "").split()
        if "alert_error" in classes and any(k in message for k in _MISSING_MARKERS):
            raise ThreadMissingError(f"主题不存在或已被删除：{where}（论坛提示：{message}）")
        raise NoPermissionError(
            f"论坛拒绝显示该主题：{where}（论坛提示：{message or '无'}）",
            hint="若为阅读权限不足，请在配置中使用有权限的账号登录后重新抓取")
    raise NotAThreadError("返回的不是 Discuz 主题帖页面（没有帖子列表）", page=where,
                          hint="检查 game.toml 里 [game] forum 是否为论坛首页地址（forum.php 所在的目录）、帖子 tid 是否正确")


def _floor(node: LexborNode | None, previous: int | None, first_on_page: bool, page: int) -> int | None:
    if node is None:
        return None
    label = node.text(deep=True).strip()  # "楼主" … or "5#" from <em>5</em><sup>#</sup>
    if label in _FLOOR_LABELS:
        return _FLOOR_LABELS[label]
    digits = _DIGITS.search(label)
    if digits:
        return int(digits.group(0))
    # A custom label (the forum's own 楼主/沙发 names): floors are consecutive on a page.
    if previous is not None:
        return previous + 1
    return 1 if first_on_page and page == 1 else None


def _page_numbers(tree: LexborHTMLParser) -> tuple[int, int]:
    pg = tree.css_first("div.pg")
    if pg is None:
        return 1, 1
    strong = pg.css_first("strong")
    page = (_first_int(_DIGITS, strong.text()) if strong is not None else None) or 1
    total = None
    for span in pg.css("span[title]"):
        total = _first_int(_PAGES, span.attributes.get("title"))
        if total:
            break
    if total is None:
        numbers = [int(a.text().strip()) for a in pg.css("a") if _DIGITS.fullmatch(a.text().strip())]
        total = max([page, *numbers])
    return page, max(total, page)


def _page_tid(tree: LexborHTMLParser, posts: list[LexborNode], page_url: str) -> int | None:
    canonical = tree.css_first('link[rel="canonical"]')
    if canonical is not None:
        tid = _first_int(_TID, canonical.attributes.get("href"))
        if tid:
            return tid
    for post in posts[:3]:
        link = post.css_first('a[id^="postnum"]')
        tid = _first_int(_TID, link.attributes.get("href") if link else None)
        if tid:
            return tid
    for selector in ("#pt a[href*='tid=']", "td.vwthd a[href*='tid=']", "input[name='tid']"):
        node = tree.css_first(selector)
        if node is not None:
            tid = _first_int(_TID, node.attributes.get("href")) or _first_int(
                _DIGITS, node.attributes.get("value"))
            if tid:
                return tid
    return _first_int(_TID, page_url)


def _page_fid(tree: LexborHTMLParser) -> int | None:
    fid = None
    crumbs = tree.css_first("#pt")
    for a in crumbs.css("a") if crumbs is not None else ():
        fid = _first_int(_FID, a.attributes.get("href")) or fid
    if fid is None:
        node = tree.css_first("input[name='fid']")
        fid = _first_int(_DIGITS, node.attributes.get("value")) if node is not None else None
    return fid


_POST_PARTS = ("a[id^='postnum'], div.authi a.xw1, em[id^='authorposton'], td[id^='postmessage_'], "
               "div.locked")


_PAGE_PARTS = "div[id^='post_'], " + _POST_PARTS


def _posts_with_parts(postlist: LexborNode) -> list[tuple[int, LexborNode, dict[str, LexborNode]]]:
    """Every post (``div#post_<pid>``) with its landmarks, from one selector run over the list.

    Results come in document order, so each landmark belongs to the post opened last; ids that
    carry a pid must carry this post's pid. One run per page is cheaper than one per post.
    """
    posts: list[tuple[int, LexborNode, dict[str, LexborNode]]] = []
    wanted: dict[str, str] = {}
    parts: dict[str, LexborNode] = {}
    for node in postlist.css(_PAGE_PARTS):
        ident = node.id or ""
        tag = node.tag
        if tag == "div" and ident.startswith("post_"):
            m = _POST_ID.fullmatch(ident)
            if m:
                pid = int(m.group(1))
                wanted = {f"postnum{pid}": "floor", f"authorposton{pid}": "time", f"postmessage_{pid}": "message"}
                parts = {}
                posts.append((pid, node, parts))
            continue
        if not posts:
            continue
        key = wanted.get(ident)
        if key is None:
            if tag == "a" and not ident:
                key = "author"
            elif tag == "div":
                key = "locked"
            else:
                continue  # an id of another pid: not this post's
        if key not in parts:
            parts[key] = node
    return posts


def _uid(post: LexborNode, author_link: LexborNode | None) -> int | None:
    uid = _first_int(_UID, author_link.attrs.get("href")) if author_link is not None else None
    if uid is None:
        only_author = post.css_first("a[href*='authorid=']")
        uid = _first_int(_AUTHORID, only_author.attributes.get("href") if only_author else None)
    return uid


def _from_mobile(time_node: LexborNode | None, mobile_marks: bool) -> bool:
    authi = time_node.parent if time_node is not None else None
    return mobile_marks and authi is not None and _FROM_MOBILE in authi.text(deep=True)


def _seen_as_stored(post: LexborNode, pid: int, parts: dict[str, LexborNode], tid: int, html: str, digest: str, *,
                    previous_floor: int | None, first_on_page: bool, page: int,
                    mobile_marks: bool) -> SeenAsStored | None:
    """The post as a :class:`SeenAsStored` when its message HTML is the stored one's, else None (it
    is then extracted). Not when an image's address depends on the page's own URL (``src="?…"``):
    a post that moved to another page would show it elsewhere."""
    if html_digest(html) != digest or _PAGE_RELATIVE_SRC.search(html):
        return None
    floor = _floor(parts.get("floor"), previous_floor, first_on_page, page)
    if floor is None:
        return None  # the extraction says what is wrong
    return SeenAsStored(pid=pid, tid=tid, floor=floor, uid=_uid(post, parts.get("author")),
                        from_mobile=_from_mobile(parts.get("time"), mobile_marks), html_digest=digest)


def _parse_post(post: LexborNode, pid: int, parts: dict[str, LexborNode], tid: int, *,
                previous_floor: int | None, first_on_page: bool, page: int, page_url: str, tz: tzinfo,
                mobile_marks: bool, message_html: str | None = None) -> Post:
    floor = _floor(parts.get("floor"), previous_floor, first_on_page, page)
    if floor is None:
        raise ParseError("找不到楼层号", page=page_url, pid=pid)

    author_link = parts.get("author")
    if author_link is not None:
        # exactly as the forum shows it: "银鸦 " or "银鸦\u3000" is another account, never trimmed into 银鸦
        author = author_link.text(deep=True)
    else:  # anonymous posts show a bare name
        authi = post.css_first("td.pls div.authi")
        author = authi.text(deep=True).strip() if authi is not None else ""
    uid = _uid(post, author_link)
    if not author.strip():
        raise ParseError("找不到作者", page=page_url, pid=pid)

    time_node = parts.get("time")
    if time_node is None:
        raise ParseError("找不到发帖时间", page=page_url, pid=pid)
    first = time_node.child  # plain "发表于 2025-3-1 10:20:00" is one text node: no span to look for
    has_markup = first is not None and (first.tag != "-text" or first.next is not None)
    span = time_node.css_first("span[title]") if has_markup else None
    posted_at = parse_forum_time(span.attrs.get("title") or "", tz) if span is not None else None
    if posted_at is None:
        posted_at = parse_forum_time(time_node.text(deep=True), tz)
    if posted_at is None:
        raise ParseError(f"无法识别发帖时间“{time_node.text(deep=True).strip()}”", page=page_url, pid=pid)
    from_mobile = _from_mobile(time_node, mobile_marks)

    message = parts.get("message")
    blocked = False
    if message is not None:
        html = (message.inner_html or "") if message_html is None else message_html
        body = extract_simple(html) or extract_body(message, tz)
    else:
        # 屏蔽 by a moderator, or 作者被禁止或删除 内容自动屏蔽: either way the body is withheld
        locked = parts.get("locked")
        blocked = locked is not None
        html = (locked.inner_html or "") if locked is not None else ""
        body = Body(text="")
    edited_by, edited_at = parse_edit_marker(body.edit_marker, tz)
    return Post(
        pid=pid, tid=tid, floor=floor, author=author, uid=uid, posted_at=posted_at, html=html,
        text=body.text, edited_by=edited_by, edited_at=edited_at, blocked=blocked,
        from_mobile=from_mobile, quotes=body.quotes, colors=body.colors, sizes=body.sizes,
        fonts=body.fonts, images=_absolute(body.images, page_url), smilies=body.smilies, source="desktop")


def _absolute(sources: tuple[str, ...], page_url: str) -> tuple[str, ...]:
    """Image links as the mobile API gives them (absolute), when the page's own URL is known."""
    if not sources or "://" not in page_url:
        return sources
    return tuple(urljoin(page_url, src) for src in sources)


def parse_thread_page(doc: Doc, *, page_url: str = "", tz: tzinfo = SHANGHAI,
                      content_type: str | None = None, stored: Mapping[int, str] | None = None) -> ThreadPage:
    """One ``forum.php?mod=viewthread`` page -> its posts, in page order.

    ``stored``: pid → the digest of the message HTML the store holds from a desktop page
    (``post.html_hash``). A post shown with that very HTML is returned in ``as_stored``, its message
    not extracted (nine of ten posts on a page a re-crawl fetches for one edit); the others in ``posts``.
    """
    text = _text(doc, content_type)
    claimed = text.count('id="postmessage_')
    if claimed > MAX_PAGE_POSTS:  # refused before the tree is built
        raise ParseError(f"页面含有 {claimed} 个帖子，Discuz 的一页帖子最多约一百个：不像论坛的页面", page=page_url)
    text = cap_depth(text)  # a post nested 10^5 deep costs milliseconds, not a minute
    html, head = trim_page(text)
    tree = LexborHTMLParser(html)
    postlist = tree.css_first("#postlist")
    if postlist is None:
        _raise_for_non_thread(LexborHTMLParser(text) if html is not text else tree, page_url)
        raise AssertionError("unreachable")
    if head is None:
        head = _head_from_tree(tree)
    nodes = _posts_with_parts(postlist)
    page, pages = _page_numbers(tree)
    tid = _first_int(_TID, head.canonical) or _page_tid(tree, [n for _, n, _ in nodes], page_url)
    if tid is None:
        raise ParseError("找不到主题编号 tid", page=page_url or None)
    posts: list[Post] = []
    same: list[SeenAsStored] = []
    uids: list[int | None] = []
    previous: int | None = None
    mobile_marks = _FROM_MOBILE in text
    for index, (pid, node, parts) in enumerate(nodes):
        digest = stored.get(pid) if stored else None
        message = parts.get("message") if digest is not None else None
        shown = (message.inner_html or "") if message is not None else None
        if digest is not None and shown is not None:
            seen = _seen_as_stored(node, pid, parts, tid, shown, digest, previous_floor=previous,
                                   first_on_page=index == 0, page=page, mobile_marks=mobile_marks)
            if seen is not None:
                previous = seen.floor
                same.append(seen)
                uids.append(seen.uid)
                continue
        post = _parse_post(node, pid, parts, tid, previous_floor=previous, first_on_page=index == 0,
                           page=page, page_url=page_url, tz=tz, mobile_marks=mobile_marks, message_html=shown)
        previous = post.floor
        posts.append(post)
        uids.append(post.uid)
    subject_node = tree.css_first("#thread_subject")
    return ThreadPage(
        tid=tid,
        subject=subject_node.text(deep=True).strip() if subject_node is not None else "",
        page=page, pages=pages, posts=tuple(posts), fid=_page_fid(tree), formhash=head.formhash,
        member_name=head.member_name, member_uid=_first_int(_UID, head.member_href),
        replies=_replies(postlist),
        source="desktop", author_filter=_author_filter(tree, text, page_url, uids), as_stored=tuple(same))


def _replies(postlist: LexborNode) -> int | None:
    """The reply count the thread's header cell shows (page 1 and every later page), or ``None``."""
    head = postlist.css_first("td.pls div.hm, div.hm")
    m = _REPLIES.search(head.html or "") if head is not None else None
    return int(m.group(1)) if m else None


def _head_from_tree(tree: LexborHTMLParser) -> PageHead:
    canonical = tree.css_first('link[rel="canonical"]')
    formhash = tree.css_first("input[name='formhash']")
    member = _member_link(tree)
    return PageHead(
        canonical=canonical.attributes.get("href") if canonical is not None else None,
        formhash=(formhash.attributes.get("value") or None) if formhash is not None else None,
        member_name=(member.text(deep=True).strip() or None) if member is not None else None,
        member_href=member.attributes.get("href") if member is not None else None)


def _author_filter(tree: LexborHTMLParser, text: str, page_url: str, uids: list[int | None]) -> int | None:
    """The uid of a 只看该作者 view: its URL, its page links, or its per-post 显示全部楼层 links say so."""
    uid = _first_int(_AUTHORID, page_url)
    if uid:
        return uid
    pg = tree.css_first("div.pg")
    for a in pg.css("a[href*='authorid=']") if pg is not None else ():
        uid = _first_int(_AUTHORID, a.attributes.get("href"))
        if uid:
            return uid
    if uids and len(set(uids)) == 1 and _SHOW_ALL in text:
        return uids[0]
    return None


def parse_forumdisplay(doc: Doc, *, tz: tzinfo = SHANGHAI, content_type: str | None = None,
                       page_url: str = "") -> list[ThreadSummary]:
    """A section's thread list (sticky threads first, as shown) -> summaries to discover a day's threads."""
    tree = _tree(doc, content_type)
    rows = tree.css("tbody[id^='stickthread_'], tbody[id^='normalthread_']")
    if not rows and tree.css_first("#threadlisttableid, #threadlist") is None:
        _raise_for_non_thread_list(tree, page_url)
    summaries: list[ThreadSummary] = []
    for row in rows:
        row_id = row.attributes.get("id") or ""
        link = row.css_first("a.s.xst") or row.css_first("a.xst")
        tid = _first_int(_DIGITS, row_id) or _first_int(_TID, link.attributes.get("href") if link else None)
        if tid is None or link is None:
            continue
        by = row.css("td.by")
        author = None
        if by:
            cite = by[0].css_first("cite")
            author = (cite.text(deep=True).strip() or None) if cite is not None else None
        last_post_at = None
        if len(by) > 1:
            em = by[-1].css_first("em")
            if em is not None:
                span = em.css_first("span[title]")
                last_post_at = parse_forum_time(
                    span.attributes.get("title") or "" if span is not None else em.text(deep=True), tz)
        replies_node = row.css_first("td.num a")
        replies = _first_int(_DIGITS, replies_node.text()) if replies_node is not None else None
        summaries.append(ThreadSummary(
            tid=tid, subject=link.text(deep=True).strip(), author=author, replies=replies,
            last_post_at=last_post_at, sticky=row_id.startswith("stickthread_")))
    return summaries


def _raise_for_non_thread_list(tree: LexborHTMLParser, page_url: str) -> None:
    where = page_url or "（未知地址）"
    alert = tree.css_first("#messagetext")
    if alert is not None:
        message = " ".join((alert.css_first("p") or alert).text(deep=True).split())
        if "不存在" in message:  # Discuz's forum_nonexistence: 指定的版块不存在
            raise ThreadMissingError(f"论坛上没有这个版块：{where}（论坛提示：{message}）",
                                     hint="检查 --forum 的编号：版块地址 forum.php?mod=forumdisplay&fid=… 里的数字")
        raise NoPermissionError(f"论坛拒绝显示该版块：{where}（论坛提示：{message or '无'}）")
    raise NotAThreadError("返回的不是 Discuz 版块主题列表页面", page=where)
