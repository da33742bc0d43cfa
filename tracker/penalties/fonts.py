"""Red and enlarged fonts: the director's own formatting (账号回帖（1）).

Every rule post reserves "放大字体、红色字体（或导演认为与 #FF0000 相近的颜色）" for the director.
"Close to #FF0000" is a judgement about what a reader sees, so colours are compared in CIELAB with
CIEDE2000 (ΔE00): #EE0000 or Crimson read as red, Purple or OrangeRed do not. Sizes are turned into
CSS pixels (``<font size=4>`` is 18px, "large") and compared with one threshold.

Values come from the parser's ``Post.colors``/``sizes``/``fonts`` and, as a safety net, from the
post's HTML with every quote block cut out first — Discuz's quote header always carries
``<font size="2">`` and ``<font color="#999999">``, and a quoted red post is not the quoter's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

RED_CLAUSE = "账号回帖（1）使用导演专用的红色字体（或与 #FF0000 相近的颜色）"
LARGE_CLAUSE = "账号回帖（1）使用导演专用的放大字体"

# CSS Color Module 4 named colours (the HTML legacy names Discuz passes through as <font color=Name>).
_CSS_NAMES = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b darkcyan 008b8b
darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b
darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000
darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f
darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969
dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0 forestgreen 228b22
fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080
green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 hotpink ff69b4 indianred cd5c5c
indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00
lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2
lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 lightsalmon ffa07a
lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899
lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff
maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db
mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc
mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5
navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500
orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee
palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd
powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1
saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d
silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347
turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00
yellowgreen 9acd32
"""
NAMED_COLORS: dict[str, str] = dict(zip(_CSS_NAMES.split()[::2], _CSS_NAMES.split()[1::2], strict=True))

RGB = tuple[float, float, float]
LAB = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class FontThresholds:
    """How close to red is red, and how large is large (the director can tune both).

    The default ΔE00 of 10 takes #F00 written any way, #EE0000 (3.6), #E60012 (5.9), #FF3333 (6.1),
    OrangeRed (6.4) and #DD0000 (7.4); it leaves Tomato (10.2), #CC0000 (11.0), Crimson (13.8),
    FireBrick (16.3), DarkRed (23.8), the quote grey #999999 (32.5) and Purple (44) alone.
    18px is ``size=4`` ("large"); ``size=3`` (16px) is the body size.
    """

    red_delta_e: float = 10.0
    large_px: float = 18.0


# ---------------------------------------------------------------- colours


def parse_color(value: str) -> RGB | None:
    """A colour as Discuz or a browser accepts it, as 0–255 floats; ``None`` when not a colour."""
    v = value.strip().strip("'\"").lower().rstrip(";").strip()
    v = v.replace("!important", "").strip()
    if not v:
        return None
    if v in NAMED_COLORS:
        return _hex(NAMED_COLORS[v])
    if v.startswith("#"):
        return _hex(v[1:])
    if re.fullmatch(r"[0-9a-f]{6}|[0-9a-f]{3}", v):  # Discuz keeps [color=ff0000] bare; browsers read it as hex
        return _hex(v)
    m = re.fullmatch(r"rgba?\(\s*([^)]*)\)", v)
    if m:
        parts = [p for p in re.split(r"[\s,/]+", m.group(1)) if p]
        if len(parts) < 3:
            return None
        try:
            chans = [float(p[:-1]) * 2.55 if p.endswith("%") else float(p) for p in parts[:3]]
        except ValueError:
            return None
        r, g, b = (min(255.0, max(0.0, c)) for c in chans)
        return (r, g, b)
    m = re.fullmatch(r"hsla?\(\s*([^)]*)\)", v)
    if m:
        parts = [p for p in re.split(r"[\s,/]+", m.group(1)) if p]
        if len(parts) < 3:
            return None
        try:
            h = float(parts[0].removesuffix("deg")) % 360
            s = float(parts[1].rstrip("%")) / 100
            lum = float(parts[2].rstrip("%")) / 100
        except ValueError:
            return None
        return _hsl(h, s, lum)
    return None


def _hex(h: str) -> RGB | None:
    if len(h) in (3, 4) and re.fullmatch(r"[0-9a-fA-F]+", h):
        h = "".join(c * 2 for c in h[:3])
    if len(h) == 8:
        h = h[:6]
    if len(h) != 6 or not re.fullmatch(r"[0-9a-fA-F]{6}", h):
        return None
    return (float(int(h[0:2], 16)), float(int(h[2:4], 16)), float(int(h[4:6], 16)))


def _hsl(h: float, s: float, lum: float) -> RGB:
    c = (1 - abs(2 * lum - 1)) * s
    x = c * (1 - abs((h / 60) % 2 - 1))
    m = lum - c / 2
    r, g, b = [(c, x, 0.0), (x, c, 0.0), (0.0, c, x), (0.0, x, c), (x, 0.0, c), (c, 0.0, x)][int(h // 60) % 6]
    return ((r + m) * 255, (g + m) * 255, (b + m) * 255)


def rgb_to_lab(rgb: RGB) -> LAB:
    """sRGB (D65) to CIELAB."""

    def lin(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e_2000(lab1: LAB, lab2: LAB) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1 = math.hypot(a1, b1)
    c2 = math.hypot(a2, b2)
    cbar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(cbar7 / (cbar7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar = (l1 + l2) / 2
    cbarp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbarp = (h1p + h2p + 360) / 2
    else:
        hbarp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbarp - 30))
        + 0.24 * math.cos(math.radians(2 * hbarp))
        + 0.32 * math.cos(math.radians(3 * hbarp + 6))
        - 0.20 * math.cos(math.radians(4 * hbarp - 63))
    )
    d_theta = 30 * math.exp(-(((hbarp - 275) / 25) ** 2))
    cbarp7 = cbarp**7
    rc = 2 * math.sqrt(cbarp7 / (cbarp7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh)
    )


_RED_LAB = rgb_to_lab((255.0, 0.0, 0.0))


def red_distance(value: str) -> float | None:
    """ΔE00 between a colour value and #FF0000; ``None`` when the value is not a colour."""
    rgb = parse_color(value)
    return None if rgb is None else delta_e_2000(rgb_to_lab(rgb), _RED_LAB)


# ---------------------------------------------------------------- sizes

# HTML <font size=N> as browsers render it (CSS "legacy font size" table).
_FONT_SIZE_PX = {1: 10.0, 2: 13.0, 3: 16.0, 4: 18.0, 5: 24.0, 6: 32.0, 7: 48.0}
_KEYWORD_PX = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
    "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0, "larger": 19.2, "smaller": 13.3,
}


def size_px(value: str) -> float | None:
    """A font size in CSS px: ``5``, ``+2``, ``20px``, ``14pt``, ``1.5em``, ``150%``, ``x-large``."""
    v = value.strip().strip("'\"").lower().rstrip(";").replace("!important", "").strip()
    if not v:
        return None
    if v in _KEYWORD_PX:
        return _KEYWORD_PX[v]
    m = re.fullmatch(r"([+-]?)(\d+)", v)
    if m:
        n = int(m.group(2))
        if m.group(1) == "+":
            n = 3 + n
        elif m.group(1) == "-":
            n = 3 - n
        return _FONT_SIZE_PX[min(7, max(1, n))]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(px|pt|em|rem|%|pc|in|cm|mm)", v)
    if not m:
        return None
    amount = float(m.group(1))
    factor = {"px": 1.0, "pt": 4 / 3, "em": 16.0, "rem": 16.0, "%": 0.16, "pc": 16.0,
              "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4}[m.group(2)]
    return amount * factor


# ---------------------------------------------------------------- HTML outside quotes

_QUOTE_OPEN = re.compile(
    r"<(div)\b[^>]*\bclass\s*=\s*[\"']?[^\"'>]*\b(?:quote|reply_wrap)\b[^>]*>|<(blockquote)\b[^>]*>", re.I
)
_TAG = re.compile(r"<(/?)(div|blockquote)\b[^>]*>", re.I)


def strip_quotes(html: str) -> str:
    """The HTML without Discuz quote blocks (``div.quote``, mobile ``div.reply_wrap``, ``blockquote``)."""
    out: list[str] = []
    pos = 0
    while True:
        m = _QUOTE_OPEN.search(html, pos)
        if m is None:
            out.append(html[pos:])
            return "".join(out)
        out.append(html[pos : m.start()])
        tag = (m.group(1) or m.group(2)).lower()
        depth = 1
        scan = m.end()
        end = len(html)
        for t in _TAG.finditer(html, scan):
            if t.group(2).lower() != tag:
                continue
            depth += -1 if t.group(1) else 1
            if depth == 0:
                end = t.end()
                break
        pos = end


_STYLED = re.compile(r"<(?:font|span|div|p|strong|b|em|i|u|h[1-6])\b([^>]*)>", re.I)
_ATTR_COLOR = re.compile(r"\bcolor\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))", re.I)
_ATTR_SIZE = re.compile(r"\bsize\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+))", re.I)
_ATTR_STYLE = re.compile(r"\bstyle\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.I)
_CSS_COLOR = re.compile(r"(?<![-\w])color\s*:\s*([^;]+)", re.I)
_CSS_SIZE = re.compile(r"(?<![-\w])font-size\s*:\s*([^;]+)", re.I)
_CSS_FONT = re.compile(r"(?<![-\w])font\s*:\s*([^;]+)", re.I)
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class StyledRun:
    """A colour or size found in the post (outside quotes), with the text it starts."""

    color: str | None
    size: str | None
    text: str


def styled_runs(post: Post) -> list[StyledRun]:
    """Colours and sizes of the post outside quotes: the parser's fields plus the HTML scan."""
    runs = [StyledRun(f.color, f.size, f.text) for f in post.fonts]
    runs += [StyledRun(c, None, "") for c in post.colors]
    runs += [StyledRun(None, s, "") for s in post.sizes]
    html = post.html
    low = html.lower()
    if "color" not in low and "size" not in low and "font" not in low:
        return runs
    body = strip_quotes(html)
    for m in _STYLED.finditer(body):
        attrs = m.group(1)
        color = size = None
        a = _ATTR_COLOR.search(attrs)
        if a:
            color = next(g for g in a.groups() if g is not None)
        a = _ATTR_SIZE.search(attrs)
        if a:
            size = next(g for g in a.groups() if g is not None)
        st = _ATTR_STYLE.search(attrs)
        if st:
            css = next(g for g in st.groups() if g is not None)
            c = _CSS_COLOR.search(css)
            if c:
                color = c.group(1)
            s = _CSS_SIZE.search(css)
            if s:
                size = s.group(1)
            else:
                f = _CSS_FONT.search(css)  # font shorthand: "bold 20px sans-serif"
                if f:
                    size = next((tok for tok in f.group(1).split() if size_px(tok) is not None
                                 and not tok.isdigit()), None)
        if color is None and size is None:
            continue
        tail = body[m.end() : m.end() + 400]
        text = " ".join(_TAGS.sub("", tail.split("</", 1)[0]).split())
        runs.append(StyledRun(color, size, text))
    return runs


def detect_fonts(post: Post, thresholds: FontThresholds = FontThresholds()) -> list[Finding]:
    """Red-ish and enlarged fonts in one post: at most one ``red_text`` and one ``large_font`` finding."""
    reds: dict[str, tuple[float, str]] = {}
    larges: dict[str, tuple[float, str]] = {}
    for run in styled_runs(post):
        if run.color is not None:
            d = red_distance(run.color)
            key = run.color.strip()
            if d is not None and d <= thresholds.red_delta_e and (key not in reds or not reds[key][1]):
                reds[key] = (d, run.text)
        if run.size is not None:
            px = size_px(run.size)
            key = run.size.strip()
            if px is not None and px >= thresholds.large_px and (key not in larges or not larges[key][1]):
                larges[key] = (px, run.text)
    found: list[Finding] = []
    if reds:
        first = next(iter(reds))
        ev = "；".join(f"颜色 {v} 与 #FF0000 的色差 ΔE00={d:.1f}（阈值 {thresholds.red_delta_e:g}）"
                      for v, (d, _) in reds.items())
        text = reds[first][1]
        found.append(make_finding(post, kind="red_text", category="font", clause=RED_CLAUSE, matched=first,
                                  evidence=ev, excerpt_text=excerpt(text) if text else None))
    if larges:
        first = next(iter(larges))
        ev = "；".join(f"字号 {v} ≈ {px:.0f}px（阈值 {thresholds.large_px:g}px）" for v, (px, _) in larges.items())
        text = larges[first][1]
        found.append(make_finding(post, kind="large_font", category="font", clause=LARGE_CLAUSE, matched=first,
                                  evidence=ev, excerpt_text=excerpt(text) if text else None))
    return found
