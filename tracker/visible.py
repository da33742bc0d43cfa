"""Text from the forum made safe to show on a terminal: the one function every output goes through.

A player controls their name, a post and (with a hostile forum) a thread's subject and an error
page; any of them may carry an ANSI escape (``\\x1b[2J``), a carriage return, a bidi override that
reverses the rest of the line, or a zero-width space that makes ``银鸦\\u200b`` look like ``银鸦``.
:func:`visible` replaces each such character by a visible token (``␛`` for a C0 control,
``<U+200B>`` for the others), so the director sees that it was there and it acts on nothing.
The CLI (:func:`tracker.cli.common.printable`) and the TUI (:mod:`tui.literal`) both use it.
"""

from __future__ import annotations

# Characters that render as nothing, reorder the line, or act as line breaks: shown as <U+XXXX>.
INVISIBLE = frozenset({
    *range(0x200B, 0x2010),  # zero-width space/joiners, LRM/RLM
    0x2028, 0x2029,          # line / paragraph separators
    *range(0x202A, 0x202F),  # bidi embeddings and overrides
    *range(0x2060, 0x2065),  # word joiner, invisible operators
    *range(0x2066, 0x206A),  # bidi isolates
    0xFEFF, 0x00AD, 0x061C, 0x180E, 0x034F,
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers: "blank" names
})


def visible_char(ch: str) -> str | None:
    """The visible stand-in for a control/invisible character, or None when it is shown as is."""
    code = ord(ch)
    if ch in "\n\t":
        return None
    if code < 0x20:
        return chr(0x2400 + code)  # ␛ for ESC, ␀ for NUL, ␍ for CR ...
    if code == 0x7F:
        return "␡"
    if 0x80 <= code < 0xA0 or code in INVISIBLE or 0xD800 <= code < 0xE000:
        return f"<U+{code:04X}>"
    return None


def needs_escaping(s: str) -> bool:
    return any(visible_char(c) is not None for c in s)


def visible(s: str) -> str:
    """``s`` with every control, escape, bidi and invisible character replaced by its visible token."""
    if not needs_escaping(s):
        return s
    return "".join(visible_char(c) or c for c in s)


def visible_line(s: str) -> str:
    """:func:`visible` for one line of output: newlines and tabs become tokens too (a name, a subject)."""
    return visible(s).replace("\n", "␤").replace("\t", "␉")


def visible_name(s: str) -> str:
    """An account name as one line in which every space shows: :func:`visible_line`, then any space
    other than an inner ASCII one (U+3000, U+00A0, a leading or trailing space) as ``<U+XXXX>``.
    "银鸦 " and "银鸦\\u3000" are other accounts than 银鸦, and the director must see why."""
    line = visible_line(s)
    inner = line.strip(" ")
    lead = len(line) - len(line.lstrip(" "))
    trail = len(line) - len(line.rstrip(" ")) if inner else 0
    body = "".join(f"<U+{ord(c):04X}>" if c.isspace() and c != " " else c for c in inner)
    return "<U+0020>" * lead + body + "<U+0020>" * trail
