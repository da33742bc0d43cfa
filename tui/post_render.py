"""A post's HTML as the forum showed it, turned into a ``rich.text.Text`` for the terminal.

Why from HTML and not the plain text: the director judges red text (director-only colour),
enlarged text and quoted material, which only the rendered markup keeps. Every piece of text goes
through :mod:`tui.literal`, so nothing a player typed is ever interpreted as markup or escapes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.color import Color, ColorParseError
from rich.style import Style
from rich.text import Text
from selectolax.lexbor import LexborHTMLParser, LexborNode

from tracker.scraper.html_depth import cap_depth
from tui.literal import append_literal

_NAMED_RED = {"red", "darkred", "crimson", "firebrick", "orangered", "tomato"}
_HEX = re.compile(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_RGB = re.compile(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", re.I)
_PX = re.compile(r"font-size\s*:\s*(\d+(?:\.\d+)?)\s*(px|pt)", re.I)
_STYLE_COLOR = re.compile(r"(?:^|;)\s*color\s*:\s*([^;]+)", re.I)

QUOTE_BAR = "│ "
LARGE_MARK = "⇑"


@dataclass(frozen=True, slots=True)
class _Ctx:
    style: Style
    quote: bool = False


def rgb_of(color: str) -> tuple[int, int, int] | None:
    c = color.strip()
    m = _HEX.match(c)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    m = _RGB.search(c)
    if m:
        r, g, b = (min(255, int(x)) for x in m.groups())
        return r, g, b
    try:
        t = Color.parse(c.lower()).get_truecolor()
    except ColorParseError:
        return None
    return t.red, t.green, t.blue


def is_reddish(color: str) -> bool:
    """The director-only red or close to it (#EE0000, Red, rgb(250,10,10)): what rule 6 is about."""
    if color.strip().lower() in _NAMED_RED:
        return True
    rgb = rgb_of(color)
    if rgb is None:
        return False
    r, g, b = rgb
    return r >= 0xB0 and g <= 0x50 and b <= 0x50


def is_large(size: str | None, style_attr: str | None) -> bool:
    """Discuz [size=4..7] or a CSS font size above the body's (≈14px / 10.5pt)."""
    if size:
        s = size.strip().lstrip("+")
        if s.isdigit():
            return int(s) >= 4
        m = _PX.search(f"font-size:{s}")
        if m:
            return float(m.group(1)) > (14 if m.group(2).lower() == "px" else 10.5)
    if style_attr:
        m = _PX.search(style_attr)
        if m:
            return float(m.group(1)) > (14 if m.group(2).lower() == "px" else 10.5)
    return False


def _font_style(node: LexborNode, ctx: _Ctx) -> tuple[Style, bool]:
    attrs = node.attributes
    color = attrs.get("color")
    css = attrs.get("style") or ""
    if not color:
        m = _STYLE_COLOR.search(css)
        color = m.group(1).strip() if m else None
    style = ctx.style
    if color and not ctx.quote:
        rgb = rgb_of(color)
        if is_reddish(color):
            style = style + Style(color="red", bold=True)
        elif rgb is not None:
            style = style + Style(color=Color.from_rgb(*rgb))
    large = not ctx.quote and is_large(attrs.get("size"), css)
    if large:
        style = style + Style(bold=True, underline=True)
    return style, large


def _is_quote(node: LexborNode) -> bool:
    return node.tag == "div" and "quote" in (node.attributes.get("class") or "").split()


MAX_DEPTH = 48        # nesting beyond this is shown flat (its text, not its styles): no post can crash the app
MAX_CHARS = 20_000    # a 1.5 MB post is shown up to here, then "…(余下 N 字)"


class _Walk:
    """The post's tree rendered with an explicit stack, never Python recursion: 500 nested ``[b]``
    or 250 nested quotes (a few KB of post) used to end the app with RecursionError."""

    def __init__(self, out: Text) -> None:
        self.out = out
        self.chars = 0
        self.full = False
        # work items, last first: a node to render, or a string to append (closing a quote)
        self.stack: list[tuple[LexborNode, _Ctx, int] | tuple[str, _Ctx]] = []

    def run(self, root: LexborNode, ctx: _Ctx) -> None:
        self.children(root, ctx, 0)
        while self.stack and not self.full:
            item = self.stack.pop()
            if isinstance(item[0], str):
                self.out.append(item[0])
                continue
            node, nctx, depth = item
            self.emit(node, nctx, depth)

    def children(self, node: LexborNode, ctx: _Ctx, depth: int) -> None:
        kids: list[LexborNode] = []
        child = node.child
        after_quote = False
        while child is not None:
            # Discuz puts a <br /> after the quote block; the block already ends its line.
            if not (after_quote and child.tag == "br"):
                kids.append(child)
            if child.tag != "-text" or (child.text_content or "").strip():
                after_quote = _is_quote(child)
            child = child.next
        self.stack.extend((k, ctx, depth + 1) for k in reversed(kids))

    def text(self, raw: str, style: Style) -> None:
        room = MAX_CHARS - self.chars
        if len(raw) > room:
            raw = raw[:room]
            self.full = True
        self.chars += len(raw)
        append_literal(self.out, raw, style)

    def emit(self, node: LexborNode, ctx: _Ctx, depth: int) -> None:
        out = self.out
        tag = node.tag
        if tag == "-text":
            raw = (node.text_content or "").replace("\r", "").replace("\n", "")
            if raw:
                self.text(raw, ctx.style)
            return
        if tag in ("script", "style", "-comment"):
            return
        if tag == "br":
            _newline(out, ctx)
            return
        if tag == "img":
            smilie = node.attributes.get("smilieid")
            out.append("〔表情〕" if smilie is not None else "〔图片〕", "dim")
            return
        if depth > MAX_DEPTH:
            self.children(node, ctx, depth)  # too deep to style: its text, flat
            return
        if tag == "i" and "pstatus" in (node.attributes.get("class") or ""):
            self.text(node.text().strip(), ctx.style + Style(italic=True, dim=True))
            return
        if _is_quote(node):
            qctx = _Ctx(ctx.style + Style(dim=True, italic=True), quote=True)
            if out.plain and not out.plain.endswith("\n"):
                out.append("\n")
            out.append(QUOTE_BAR, "dim")
            self.stack.append(("\n", ctx))
            self.children(node, qctx, depth)
            return
        if tag == "font" or (tag == "span" and node.attributes.get("style")):
            style, large = _font_style(node, ctx)
            if large:
                out.append(LARGE_MARK, "bold magenta")
            self.children(node, _Ctx(style, ctx.quote), depth)
            return
        extra = _TAG_STYLES.get(tag) if tag is not None else None
        if extra is not None:
            self.children(node, _Ctx(ctx.style + extra, ctx.quote), depth)
            return
        if tag in ("p", "div", "li", "tr") and out.plain and not out.plain.endswith("\n"):
            _newline(out, ctx)
        self.children(node, ctx, depth)


_TAG_STYLES = {"strong": Style(bold=True), "b": Style(bold=True), "em": Style(italic=True),
               "i": Style(italic=True), "u": Style(underline=True), "strike": Style(strike=True),
               "s": Style(strike=True), "del": Style(strike=True)}


def _newline(out: Text, ctx: _Ctx) -> None:
    out.append("\n")
    if ctx.quote:
        out.append(QUOTE_BAR, "dim")


def render_post_html(html: str, highlight: Iterable[str] = ()) -> Text:
    """The post body as a Text; ``highlight`` words (a flag's matched phrases) marked everywhere."""
    out = Text()
    body = LexborHTMLParser(f"<div>{cap_depth(html)}</div>").body  # a post nested 10^5 deep renders at once
    if body is not None:
        walk = _Walk(out)
        walk.run(body, _Ctx(Style()))
        if walk.full:
            rest = len((body.text(deep=True) or "").replace("\r", "").replace("\n", "")) - walk.chars
            out.rstrip()
            out.append(f"\n…(余下 {max(rest, 0)} 字)", "dim")
    out.rstrip()
    words = [w for w in highlight if w]
    if words:
        out.highlight_words(words, style=Style(bgcolor="yellow", color="black", bold=True))
    return out
