"""The one escape for player text inside the director's BBCode posts (电梯楼, 公示, 票型, 判罚, 潜水).

A player controls their name and their posts: a name such as ``泡泡[/url][url=http://evil]`` pasted
into the director's post would close the director's link and open the player's. Every BBCode writer
passes names, quoted text and reasons through :func:`bbcode_text`: square brackets become full-width
(``［/url］`` opens no tag, and reads the same), line breaks and runs of blanks become one space (a
name cannot start a new line of the announcement), and control, bidi and invisible characters are
made visible (a right-to-left override cannot reverse the rest of the director's line).
"""

from __future__ import annotations

from tracker.visible import visible


def bbcode_text(text: str) -> str:
    """Player text made inert inside BBCode."""
    return visible(" ".join(text.replace("[", "［").replace("]", "］").split()))
