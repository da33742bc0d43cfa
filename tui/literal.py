"""Forum text shown exactly as typed: never markup, never a terminal escape, never reordered.

Rich and Textual parse a plain ``str`` as markup (``[bold red]`` vanishes, ``[/]`` raises) and a
raw ``\\x1b`` would reach the terminal. Everything the TUI shows that came from the forum goes
through :func:`literal` into a ``rich.text.Text``; control and invisible characters become visible
tokens, so a player cannot hide a word from the director with a zero-width space or a bidi override.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

# Characters that would change how the rest of the line looks or hide text: shown as <U+XXXX>.
_INVISIBLE = {
    *range(0x200B, 0x2010),  # zero-width space/joiners, LRM/RLM
    *range(0x202A, 0x202F),  # bidi embeddings and overrides
    *range(0x2060, 0x2065),  # word joiner, invisible operators
    *range(0x2066, 0x206A),  # bidi isolates
    0xFEFF, 0x00AD, 0x061C, 0x180E,
}


def visible_char(ch: str) -> str | None:
    """The visible stand-in for a control/invisible character, or None when it is shown as is."""
    code = ord(ch)
    if ch in "\n\t":
        return None
    if code < 0x20:
        return chr(0x2400 + code)  # ␛ for ESC, ␀ for NUL ...
    if code == 0x7F:
        return "␡"
    if 0x80 <= code < 0xA0 or code in _INVISIBLE:
        return f"<U+{code:04X}>"
    return None


def needs_escaping(s: str) -> bool:
    return any(visible_char(c) is not None for c in s)


def clean(s: str) -> str:
    """The string with every control/invisible character replaced by its visible token."""
    if not needs_escaping(s):
        return s
    return "".join(visible_char(c) or c for c in s)


def literal(s: str | None, style: str | Style = "") -> Text:
    """Forum text as a Text: the escapes themselves dimmed so the director sees they were there."""
    out = Text(style=style)
    append_literal(out, s or "", style)
    return out


_TOKEN = Style(dim=True, reverse=True)


def _as_style(style: str | Style) -> Style:
    if isinstance(style, Style):
        return style
    return Style.parse(style) if style else Style()


def append_literal(out: Text, s: str, style: str | Style = "") -> None:
    if not needs_escaping(s):
        out.append(s, style)
        return
    run: list[str] = []
    for c in s:
        token = visible_char(c)
        if token is None:
            run.append(c)
            continue
        if run:
            out.append("".join(run), style)
            run.clear()
        out.append(token, _as_style(style) + _TOKEN)
    if run:
        out.append("".join(run), style)
