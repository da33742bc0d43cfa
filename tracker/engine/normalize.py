"""Text normalisation for ballots: one canonical form so that the rule posts' "full- and half-width
punctuation are the same" holds, and invisible characters never decide a vote.

Players type on phones and PCs, through IMEs that mix ``：`` and ``:``, paste names with zero-width
joiners, and wrap their votes in ``[b]``/``[color]`` tags that sometimes survive as literal text
(a broken tag is not rendered by Discuz). Everything here is idempotent: ``normalize(normalize(s))
== normalize(s)`` (a property test pins it), so it can be applied at any layer without surprises.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Characters that render as nothing (or as a soft hyphen) and must never separate a name.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064"
                                    "\ufeff\u00ad\u180e\u034f\u061c\u202a\u202b\u202c\u202d\u202e"
                                    "\u2066\u2067\u2068\u2069\ufe0e\ufe0f"), None)

# Colon look-alikes. NFKC maps ``：`` and ``﹕`` to ``:`` but turns ``︰`` into ``..``, so these are
# mapped before NFKC runs.
_COLONS = dict.fromkeys(map(ord, "：︰﹕∶꞉˸ː"), ":")

# BBCode formatting tags that may survive as literal text: they wrap a vote, they are not part of it.
_WRAPPER_TAG = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|backcolor|align|p|indent|float|hide|sup|sub)(?:=[^\]\n]{0,40})?\]",
    re.IGNORECASE,
)
_SPACES = re.compile(r"[^\S\n]+")


def strip_wrappers(text: str) -> str:
    """Remove literal formatting tags until none is left (removal can join ``[[b]b]`` into ``[b]``)."""
    while True:
        stripped = _WRAPPER_TAG.sub("", text)
        if stripped == text:
            return text
        text = stripped


def normalize(text: str) -> str:
    """The canonical form ballots are parsed from.

    Invisible characters removed, colons unified to ``:``, NFKC (full-width letters, digits and
    spaces become half-width), literal formatting tags dropped, runs of blanks (incl. the ideographic
    space) collapsed to one space, blanks trimmed around every line, CRLF to LF.
    """
    for _ in range(8):  # converges in one or two rounds; the bound only guards against surprises
        out = _once(text)
        if out == text:
            return out
        text = out
    return text


_INVISIBLE_RE = re.compile("[" + "".join(chr(c) for c in _INVISIBLE) + "]")
_COLON_RE = re.compile("[" + "".join(chr(c) for c in _COLONS) + "]")


def _once(text: str) -> str:
    text = _COLON_RE.sub(":", _INVISIBLE_RE.sub("", text))
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
        text = _COLON_RE.sub(":", _INVISIBLE_RE.sub("", text))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = strip_wrappers(text)
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(lines).strip("\n")


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """How two spellings of a player's name are compared: canonical form, no blanks, case-folded.

    Only differences a reader cannot see (width, invisible characters, blanks, case) are erased;
    a different character (``饺字`` for ``饺子``) stays different: targets are never auto-corrected.
    """
    key = name
    for _ in range(8):  # case-folding can undo NFKC (``R¸``); iterate to the fixed point
        nxt = unicodedata.normalize("NFKC", re.sub(r"\s+", "", normalize(key)).casefold())
        if nxt == key:
            break
        key = nxt
    return key
