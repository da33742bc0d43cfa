"""Nesting capped before any HTML is parsed: one post must not cost the crawl minutes.

Lexbor's tree builder is quadratic in nesting depth: a post of 10^5 nested ``<div>`` took 65 s to
parse (30 s again on every re-crawl) and, parsed on the watcher's event loop, stopped its heartbeat.
No page Discuz renders nests deeper than a few dozen elements (the desktop template ~30, a post's
quotes and BBCode a few more), so tags opened deeper than MAX_DEPTH are dropped, with their closing
tags, before parsing: the text between them is kept, in order, and the scan is linear.
"""

from __future__ import annotations

import re

MAX_DEPTH = 256
#: Fewer tags than this cannot nest deep enough to cost much (4,096 nested elements parse in ~0.15 s),
#: so an ordinary page (~2,500 tags) is not scanned at all.
QUICK = 4096
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*>")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                   "source", "track", "wbr"})
_FAR = 16  # how far down the open elements a stray closing tag is looked for


def cap_depth(html: str, limit: int = MAX_DEPTH) -> str:
    """``html`` with every element opened deeper than ``limit`` unwrapped (its tags dropped, its
    content kept). A page with at most QUICK tags is returned as is without a scan.

    Memory stays bounded whatever the input: only the ``limit`` kept elements are remembered; those
    opened deeper are counted, and each closing tag met while some are open closes one of them.
    """
    if html.count("<") <= QUICK:
        return html
    stack: list[str] = []  # the kept open elements, innermost last
    excess = 0  # elements opened past the limit and not yet closed
    out: list[str] = []
    pos = 0
    for m in _TAG.finditer(html):
        name = m.group(2).lower()
        if name in _VOID or m.group(0).endswith("/>"):
            continue
        if not m.group(1):
            if len(stack) < limit:
                stack.append(name)
                continue
            excess += 1
        elif excess:
            excess -= 1
        else:
            for back in range(len(stack) - 1, max(-1, len(stack) - 1 - _FAR), -1):
                if stack[back] == name:
                    del stack[back:]
                    break
            continue
        start, end = m.span()  # a tag past the limit: dropped
        if start > pos:
            out.append(html[pos:start])
        pos = end
    if not out and pos == 0:
        return html
    out.append(html[pos:])
    return "".join(out)
