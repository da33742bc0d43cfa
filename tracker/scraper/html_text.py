"""A rendered Discuz message body -> plain text, quotes, fonts, images and smilies.

Shared by the desktop and the mobile parsers on purpose: the store compares the mobile text across
crawls to detect edits and must find the desktop text equal to it, so both go through the same
walk and the same normalisation. What differs between the two renderings is absorbed here:

- quotes: desktop ``div.quote > blockquote`` with a ``<font size="2">`` header, mobile
  ``div.reply_wrap`` with a double-escaped findpost link; both are cut out of ``text``;
- the edit marker ``<i class="pstatus">`` (desktop only) is cut out and reported separately;
- ``[size]`` (desktop only) changes no text; images sit in ``div.img`` on mobile only, so that
  wrapper is inline; smilies (relative src + ``smilieid`` on desktop, absolute src on mobile) are
  reported by their path under ``smiley/`` and add no text.

Text rules: ``<br>`` is a newline and swallows the source newline after it (Discuz writes
``<br />\\n``), block elements start and end a line, entities and ``&nbsp;`` are decoded
(``&nbsp;`` to a plain space), trailing spaces of each line and blank lines at both ends are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import NamedTuple

from selectolax.lexbor import LexborNode

from tracker.records import FontUse, Quote
from tracker.scraper.times import parse_forum_time

_BLOCK_TAGS = frozenset({
    "div", "p", "blockquote", "li", "ul", "ol", "table", "tbody", "thead", "tr", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "center", "pre", "dl", "dt", "dd", "section", "article", "header",
    "footer", "form", "fieldset", "address", "caption",
})
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "textarea",
                        "select", "button", "input", "iframe", "object", "embed", "audio", "video"})
_QUOTE_CLASSES = frozenset({"quote", "reply_wrap"})

_STYLE_COLOR = re.compile(r"(?:^|[;\s\"'])color\s*:\s*([^;\"']+)", re.I)
_STYLE_SIZE = re.compile(r"font-size\s*:\s*([^;\"']+)", re.I)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none", re.I)
_FINDPOST_PID = re.compile(r"(?:^|[?&;])pid=([0-9]{1,15})")
_QUOTE_HEADER = re.compile(r"^\s*(.*?)\s*(?:发表于|發表於|posted on)\s*(.+?)\s*$", re.I | re.S)
_EDIT_MARKER = re.compile(
    r"本帖最后由\s*(.+?)\s*于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{1,2}(?::\d{1,2})?)\s*编辑"
    r"|本帖最後由\s*(.+?)\s*於\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{1,2}(?::\d{1,2})?)\s*編輯", re.A)
_SMILEY_PATH = re.compile(r"smiley/(.+)$")
# A message with nothing but text and <br />: the common case, done without walking a tree.
_BR = re.compile(r"<br\s*/?>\n?")
_NOT_SIMPLE = re.compile(r"[<&\r\x00]")


@dataclass(frozen=True, slots=True)
class Body:
    text: str
    quotes: tuple[Quote, ...] = ()
    colors: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    fonts: tuple[FontUse, ...] = ()
    images: tuple[str, ...] = ()
    smilies: tuple[str, ...] = ()
    edit_marker: str | None = None


class _Open(NamedTuple):
    """An element being walked: what to do when its children are done."""

    block: bool
    cell: bool
    color: str | None
    size: str | None
    start: int  # index in the output where its text begins
    slot: int  # index in ``fonts`` where its FontUse goes


@dataclass(slots=True)
class _Walk:
    tz: tzinfo
    collect: bool  # False inside a quote: quoted formatting is not the quoter's
    out: list[str] = field(default_factory=list)
    after_br: bool = False
    quotes: list[Quote] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    sizes: list[str] = field(default_factory=list)
    fonts: list[FontUse] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    smilies: list[str] = field(default_factory=list)
    edit_marker: str | None = None
    skip_findpost_header: bool = False

    def newline(self) -> None:
        out = self.out
        if out and not out[-1].endswith("\n"):
            out.append("\n")
        self.after_br = False

    def children(self, root: LexborNode) -> None:
        """Walk the subtree with an explicit stack: bodies can nest deeper than Python recursion."""
        stack: list[tuple[Iterator[LexborNode], _Open | None]] = [(root.iter(include_text=True), None)]
        out = self.out
        while stack:
            iterator, opened = stack[-1]
            child = next(iterator, None)
            if child is None:
                stack.pop()
                if opened is not None:
                    self.close(opened)
                continue
            tag = child.tag
            if tag == "-text":
                text = child.text_content
                if not text:
                    continue
                if self.after_br and text[0] == "\n":
                    text = text[1:]
                self.after_br = False
                if text:
                    out.append(text.replace("\xa0", " "))
            elif tag == "br":
                out.append("\n")
                self.after_br = True
            elif tag and tag[0] != "-":
                entered = self.open(child, tag)
                if entered is not None:
                    stack.append((child.iter(include_text=True), entered))

    def open(self, node: LexborNode, tag: str) -> _Open | None:
        """Handle an element's start; ``None`` when it is fully handled and its children are skipped."""
        if tag in _SKIP_TAGS:
            return None
        attrs = node.attributes  # one dict: most elements here are read for several attributes
        cls = attrs.get("class") or ""
        style = attrs.get("style") or ""
        if tag == "img":
            self.image(attrs)
            return None
        if tag == "i" and "pstatus" in cls.split():
            if self.edit_marker is None:
                self.edit_marker = node.text(deep=True)
            return None
        if tag == "div" and cls and not _QUOTE_CLASSES.isdisjoint(cls.split()):
            self.newline()
            self.quote(node)
            self.newline()
            return None
        if (tag == "font" and "jammer" in cls) or (style and _HIDDEN_STYLE.search(style)):
            return None  # Discuz's anti-copy jammer and hidden spans are not what readers see
        if tag == "em" and "copycode" in (attrs.get("onclick") or ""):
            return None  # the 复制代码 button under a [code] block
        if tag == "a" and self.skip_findpost_header and "findpost" in (attrs.get("href") or ""):
            self.skip_findpost_header = False
            return None
        block = tag in _BLOCK_TAGS and not (tag == "div" and cls == "img")
        if block:
            self.newline()
        color = size = None
        if self.collect:
            if tag == "font":
                color = attrs.get("color") or None
                size = attrs.get("size") or None
            if style:
                m = _STYLE_COLOR.search(style)
                if m:
                    color = m.group(1).strip()
                m = _STYLE_SIZE.search(style)
                if m:
                    size = m.group(1).strip()
            if color is not None and color not in self.colors:
                self.colors.append(color)
            if size is not None and size not in self.sizes:
                self.sizes.append(size)
        return _Open(block, tag in ("td", "th"), color, size, len(self.out), len(self.fonts))

    def close(self, opened: _Open) -> None:
        if opened.color is not None or opened.size is not None:  # inserted at its opening: document order
            text = normalise("".join(self.out[opened.start:]))
            self.fonts.insert(opened.slot, FontUse(color=opened.color, size=opened.size, text=text))
        if opened.block:
            self.newline()
        elif opened.cell:
            self.out.append(" ")

    def image(self, attrs: dict[str, str | None]) -> None:
        src = attrs.get("zoomfile") or attrs.get("file") or attrs.get("src") or ""
        smiley = _SMILEY_PATH.search(src)
        if attrs.get("smilieid") is not None or smiley:
            if self.collect:
                self.smilies.append(smiley.group(1) if smiley else f"smilieid:{attrs.get('smilieid')}")
        elif self.collect and src:
            self.images.append(src)

    def quote(self, node: LexborNode) -> None:
        if not self.collect:
            return  # Discuz strips nested quotes; a stray one inside a quote is part of its text
        header = None
        for a in node.css("a"):
            if "findpost" in (a.attributes.get("href") or ""):
                header = a
                break
        pid = author = None
        posted_at: datetime | None = None
        if header is not None:
            m = _FINDPOST_PID.search(header.attributes.get("href") or "")
            pid = int(m.group(1)) if m else None
            hm = _QUOTE_HEADER.match(header.text(deep=True).replace("\xa0", " "))
            if hm:
                author = hm.group(1) or None
                posted_at = parse_forum_time(hm.group(2), self.tz)
        inner = _Walk(tz=self.tz, collect=False, skip_findpost_header=header is not None)
        inner.children(node)
        text = normalise("".join(inner.out))
        if header is None:
            # A mobile client's reply-with-quote has no findpost link: only "NAME 发表于 TIME" as the
            # quote's first line. Read it as the header, so the quote can be matched by time and text.
            first, _, rest = text.partition("\n")
            hm = _QUOTE_HEADER.match(first)
            when = parse_forum_time(hm.group(2), self.tz) if hm else None
            if hm and when is not None:
                author, posted_at, text = hm.group(1) or None, when, normalise(rest)
        self.quotes.append(Quote(pid=pid, author=author, posted_at=posted_at, text=text))


def normalise(text: str) -> str:
    """Trailing spaces off every line, blank lines and spaces off both ends."""
    if "\n" not in text:
        return text.strip()
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def extract_body(node: LexborNode, tz: tzinfo) -> Body:
    """Walk a message body element (desktop ``td.t_f`` or a parsed mobile ``message``)."""
    walk = _Walk(tz=tz, collect=True)
    walk.children(node)
    return Body(
        text=normalise("".join(walk.out)), quotes=tuple(walk.quotes), colors=tuple(walk.colors),
        sizes=tuple(walk.sizes), fonts=tuple(walk.fonts), images=tuple(walk.images),
        smilies=tuple(walk.smilies), edit_marker=walk.edit_marker)


def extract_simple(message: str) -> Body | None:
    """The same result as :func:`extract_body` for text-and-``<br>`` HTML, without a tree walk.

    Works on a raw mobile ``message`` and on a serialised desktop body alike; ``None`` when the HTML
    has any other markup or an entity, which the full walk must handle.
    """
    text = _BR.sub("\n", message) if "<br" in message else message
    if _NOT_SIMPLE.search(text) is not None:
        return None
    return Body(text=normalise(text.replace("\xa0", " ")))


def parse_edit_marker(marker: str | None, tz: tzinfo) -> tuple[str | None, datetime | None]:
    """``本帖最后由 X 于 2025-3-1 14:32 编辑`` -> (X, time); (None, None) when absent or unreadable."""
    if not marker:
        return None, None
    m = _EDIT_MARKER.search(marker.replace("\xa0", " "))
    if m is None:
        return None, None
    by = m.group(1) or m.group(3)
    at = parse_forum_time(m.group(2) or m.group(4), tz)
    return by, at
