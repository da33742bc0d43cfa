"""Cut a viewthread page down to what the desktop parser reads, before Lexbor builds a tree.

Building the tree is most of the cost of parsing a page, and most of a Discuz page is never read:
the header's menus, each post's author sidebar (avatar, credits, user card: nearly half of every
post) and the rows under its body (signature, rating, buttons), the footer and the reply editor. The few header facts we need (canonical link, formhash,
member name) are read with regexes instead. Every cut is guarded: when the page does not have the
expected shape, that part is kept and the parser reads it from the tree as before, so a different
template costs speed, never correctness (tests compare trimmed and untrimmed parses page by page).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_POSTLIST = 'id="postlist"'
_POSTLIST_END = '<div id="postlistreply"'
_BREADCRUMB = '<div id="pt"'
_SIDEBAR = '<td class="pls"'
_AUTHI = '<div class="authi">'
_BODY_CELL = '<td class="plc"'
_TAIL = '<tr><td class="plc plm">'
_NEXT_POST = re.compile(r'<div id="post_[0-9]')

_CANONICAL = re.compile(r'<link\b[^>]*\brel="canonical"[^>]*>')
_FORMHASH = re.compile(r'<input\b[^>]*\bname="formhash"[^>]*>')
_MEMBER = re.compile(r'<strong class="vwmy[^"]*">\s*<a\b([^>]*)>([^<]*)</a>')
_HREF = re.compile(r'\bhref="([^"]*)"')
_VALUE = re.compile(r'\bvalue="([^"]*)"')


@dataclass(frozen=True, slots=True)
class PageHead:
    """Header facts of a thread page: the canonical link, the form hash, the logged-in member."""

    canonical: str | None = None
    formhash: str | None = None
    member_name: str | None = None
    member_href: str | None = None


def trim_page(text: str) -> tuple[str, PageHead | None]:
    """(HTML to parse, header facts) — ``None`` for the header when it is left in the HTML."""
    start = text.find(_POSTLIST)
    if start < 0:
        return text, None  # not a thread page: keep everything for the error page's message
    end = text.rfind(_POSTLIST_END)
    if end < start:
        end = len(text)
    cut = text.rfind(_BREADCRUMB, 0, start)
    if cut < 0:
        cut = text.rfind("<div", 0, start)
    head = _read_head(text[:cut]) if cut > 0 else None
    keep_from = cut if head is not None else 0
    return text[keep_from:start] + _without_tails(_without_sidebars(text, start, end)), head


def _read_head(prefix: str) -> PageHead | None:
    """The header facts by regex, or ``None`` if one is present but not in the expected form."""
    canonical = _attr(_CANONICAL, _HREF, prefix)
    formhash = _attr(_FORMHASH, _VALUE, prefix)
    member = _MEMBER.search(prefix)
    if (canonical is None and 'rel="canonical"' in prefix) or (formhash is None and "formhash" in prefix) \
            or (member is None and "vwmy" in prefix):
        return None
    name = href = None
    if member is not None:
        name = html.unescape(member.group(2)).strip() or None
        found = _HREF.search(member.group(1))
        href = html.unescape(found.group(1)) if found else None
    return PageHead(canonical=canonical, formhash=formhash or None, member_name=name, member_href=href)


def _attr(tag: re.Pattern[str], attribute: re.Pattern[str], text: str) -> str | None:
    element = tag.search(text)
    if element is None:
        return None
    value = attribute.search(element.group(0))
    return html.unescape(value.group(1)) if value else None


def _without_sidebars(text: str, start: int, end: int) -> str:
    """``text[start:end]`` with each post's sidebar cut after the author's name link.

    A sidebar is cut only when it has the expected shape: the ``div.authi`` holding the ``a.xw1``
    name link closes before the post's ``td.plc``. Otherwise it is left whole.
    """
    find = text.find
    pieces: list[str] = []
    pos = cursor = start
    while True:
        sidebar = find(_SIDEBAR, cursor, end)
        if sidebar < 0:
            break
        body = find(_BODY_CELL, sidebar, end)
        if body < 0:
            break
        cursor = body  # every search below stays inside this sidebar
        authi = find(_AUTHI, sidebar, body)
        closing = find("</div>", authi, body) if authi >= 0 else -1
        if closing < 0 or find('class="xw1"', authi, closing) < 0:
            continue
        pieces.append(text[pos:closing + 6])
        pos = body
    pieces.append(text[pos:end])
    return "".join(pieces)


def _without_tails(text: str) -> str:
    """Each post without the rows after its body (signature, rating, 回复/举报 buttons, ad row).

    Cut from the second row (``td.plc.plm``) to the post table's own ``</table>``, the last one
    before the next post, so the markup left stays well formed. Nothing read lives there.
    """
    find = text.find
    pieces: list[str] = []
    pos = 0
    while True:
        tail = find(_TAIL, pos)
        if tail < 0:
            break
        following = _NEXT_POST.search(text, tail)
        limit = following.start() if following else len(text)
        table_end = text.rfind("</table>", tail, limit)
        if table_end < 0:
            pieces.append(text[pos:tail + len(_TAIL)])
            pos = tail + len(_TAIL)
            continue
        pieces.append(text[pos:tail])
        pos = table_end
    pieces.append(text[pos:])
    return "".join(pieces)
