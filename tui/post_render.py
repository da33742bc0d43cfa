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


def _walk(node: LexborNode, ctx: _Ctx, out: Text) -> None:
    child = node.child
    after_quote = False
    while child is not None:
        # Discuz puts a <br /> after the quote block; the block already ends its line.
        if not (after_quote and child.tag == "br"):
            _emit(child, ctx, out)
        if child.tag != "-text" or (child.text_content or "").strip():
            after_quote = _is_quote(child)
        child = child.next


def _newline(out: Text, ctx: _Ctx) -> None:
    out.append("\n")
    if ctx.quote:
        out.append(QUOTE_BAR, "dim")


def _emit(node: LexborNode, ctx: _Ctx, out: Text) -> None:
    tag = node.tag
    if tag == "-text":
        raw = (node.text_content or "").replace("\r", "").replace("\n", "")
        if raw:
            append_literal(out, raw, ctx.style)
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
    if tag == "i" and "pstatus" in (node.attributes.get("class") or ""):
        append_literal(out, node.text().strip(), ctx.style + Style(italic=True, dim=True))
        return
    if _is_quote(node):
        qctx = _Ctx(ctx.style + Style(dim=True, italic=True), quote=True)
        if out.plain and not out.plain.endswith("\n"):
            out.append("\n")
        out.append(QUOTE_BAR, "dim")
        _walk(node, qctx, out)
        out.append("\n")
        return
    if tag == "font" or (tag == "span" and node.attributes.get("style")):
        style, large = _font_style(node, ctx)
        if large:
            out.append(LARGE_MARK, "bold magenta")
        _walk(node, _Ctx(style, ctx.quote), out)
        return
    if tag in ("strong", "b"):
        _walk(node, _Ctx(ctx.style + Style(bold=True), ctx.quote), out)
        return
    if tag in ("em", "i"):
        _walk(node, _Ctx(ctx.style + Style(italic=True), ctx.quote), out)
        return
    if tag == "u":
        _walk(node, _Ctx(ctx.style + Style(underline=True), ctx.quote), out)
        return
    if tag in ("strike", "s", "del"):
        _walk(node, _Ctx(ctx.style + Style(strike=True), ctx.quote), out)
        return
    if tag in ("p", "div", "li", "tr") and out.plain and not out.plain.endswith("\n"):
        _newline(out, ctx)
    _walk(node, ctx, out)


def render_post_html(html: str, highlight: Iterable[str] = ()) -> Text:
    """The post body as a Text; ``highlight`` words (a flag's matched phrases) marked everywhere."""
    out = Text()
    body = LexborHTMLParser(f"<div>{html}</div>").body
    if body is not None:
        _walk(body, _Ctx(Style()), out)
    out.rstrip()
    words = [w for w in highlight if w]
    if words:
        out.highlight_words(words, style=Style(bgcolor="yellow", color="black", bold=True))
    return out
