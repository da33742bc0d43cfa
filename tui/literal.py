"""Forum text shown exactly as typed: never markup, never a terminal escape, never reordered.

Rich and Textual parse a plain ``str`` as markup (``[bold red]`` vanishes, ``[/]`` raises) and a
raw ``\\x1b`` would reach the terminal. Everything the TUI shows that came from the forum goes
through :func:`literal` into a ``rich.text.Text``; control and invisible characters become visible
tokens, so a player cannot hide a word from the director with a zero-width space or a bidi override.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from tracker.visible import needs_escaping, visible, visible_char

__all__ = ["append_literal", "clean", "literal", "needs_escaping", "visible_char"]


def clean(s: str) -> str:
    """The string with every control/invisible character replaced by its visible token."""
    return visible(s)


def literal(s: str | None, style: str | Style = "", *, line: bool = False) -> Text:
    """Forum text as a Text: the escapes themselves dimmed so the director sees they were there.
    ``line``: a name or a title on one line, where a newline or a tab is a token too (␤, ␉)."""
    out = Text(style=style)
    append_literal(out, s or "", style, line=line)
    return out


_TOKEN = Style(dim=True, reverse=True)


def _as_style(style: str | Style) -> Style:
    if isinstance(style, Style):
        return style
    return Style.parse(style) if style else Style()


_LINE_TOKENS = {"\n": "␤", "\t": "␉"}


def append_literal(out: Text, s: str, style: str | Style = "", *, line: bool = False) -> None:
    if not needs_escaping(s) and not (line and ("\n" in s or "\t" in s)):
        out.append(s, style)
        return
    run: list[str] = []
    for c in s:
        token = _LINE_TOKENS.get(c) if line and c in _LINE_TOKENS else visible_char(c)
        if token is None:
            run.append(c)
            continue
        if run:
            out.append("".join(run), style)
            run.clear()
        out.append(token, _as_style(style) + _TOKEN)
    if run:
        out.append("".join(run), style)
