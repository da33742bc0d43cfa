"""Who wrote a post: a player by uid (or by their exact name), never by a look-alike name.

Hand-typed *targets* are compared loosely (:func:`tracker.engine.normalize.name_key`: width,
case and invisible characters ignored), because a player typing a name on a phone should not lose
their vote. The *author* of a post is another matter: the forum says exactly who it is, and an
account named ``银鸦`` + U+200B (another uid) must not vote, or escape a yellow card, as ``银鸦``.

So an author is a player when the post's uid is the player's ``uid`` in the game file, or, for a
player without a uid, when the author's name is exactly the player's. An author whose name only
*looks* like a player's (NFKC, case, invisible and bidi characters, Latin/Cyrillic/Greek and
CJK/kana look-alikes — its :func:`skeleton` is the same), or who has a player's exact name but
another uid, is a look-alike: their ballots are invalid with that reason, for the director to see.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from tracker.config import PlayerConfig
from tracker.engine.normalize import name_key
from tracker.visible import visible_name

# Characters that pass for others in a name (after NFKC and case folding). Not the whole of Unicode
# TR39's confusables.txt: the scripts a Chinese forum's names mix — Latin with Cyrillic/Greek, and
# hanzi with kana, fullwidth forms NFKC leaves alone, and the hanzi radicals/strokes that look alike.
_LOOKALIKE = str.maketrans({
    # Cyrillic → Latin
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "һ": "h", "ӏ": "l", "ɡ": "g",
    # Greek → Latin
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    # digits and letters that read alike
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s",
    # kana / CJK strokes that pass for hanzi
    "ロ": "口", "エ": "工", "カ": "力", "タ": "夕", "ニ": "二", "ハ": "八", "ト": "卜", "ー": "一",
    "ㅡ": "一", "―": "一", "—": "一", "〇": "○", "⼝": "口", "⼀": "一", "⼈": "人", "⼊": "入",
    "入": "人", "未": "末", "己": "已", "巳": "已", "戊": "戌", "曰": "日", "冫": "氵",
})
def _closed(table: dict[int, str]) -> dict[int, str]:
    """The map applied until nothing changes: Cyrillic і → i → l in one step, as Latin i → l is, so
    "yіnya" and "yinya" share a skeleton whichever script each letter came from."""
    out = dict(table)
    for k, v in out.items():
        seen = {k}
        while len(v) == 1 and ord(v) in table and ord(v) not in seen:
            seen.add(ord(v))
            v = table[ord(v)]
        out[k] = v
    return out


_LOOKALIKE = _closed(_LOOKALIKE)


@cache
def _unseen() -> dict[int, None]:
    """Characters that are never seen: dropped. name_key() already drops the common ones (ZWSP, bidi …).

    Built on first use, not at import: walking the BMP costs ~40 ms, which every read-only command
    (that never compares a name) would otherwise pay at start-up."""
    out: dict[int, None] = dict.fromkeys(c for c in range(0x10000)
                                         if unicodedata.category(chr(c)) in ("Cf", "Mn", "Me") or chr(c).isspace())
    out.update(dict.fromkeys((0x115F, 0x1160, 0x3164, 0xFFA0)))  # Hangul fillers: look blank
    return out


def skeleton(name: str) -> str:
    """The form two names share when a reader could take one for the other."""
    key = name_key(name).translate(_unseen())
    return unicodedata.normalize("NFKC", key).casefold().translate(_unseen()).translate(_LOOKALIKE)


@dataclass(frozen=True, slots=True)
class Author:
    """What an author is to the game: a ``player`` (their name as the game file writes it), or a
    ``lookalike`` of one (with the ``reason`` in Chinese), or neither."""

    player: str | None = None
    lookalike: str | None = None
    reason: str = ""


class Authors:
    """The game's players, to identify post authors by uid or exact name (see the module doc)."""

    def __init__(self, players: Sequence[PlayerConfig]) -> None:
        self.by_uid = {p.uid: p.name for p in players if p.uid is not None}
        self.by_name = {p.name: p for p in players}
        self.by_skeleton: dict[str, str] = {}
        for p in players:
            self.by_skeleton.setdefault(skeleton(p.name), p.name)

    def identify(self, author: str, uid: int | None) -> Author:
        if uid is not None and uid in self.by_uid:
            return Author(player=self.by_uid[uid])
        shown = f"{visible_name(author)}（uid {uid}）" if uid is not None else visible_name(author)
        same = self.by_name.get(author)
        if same is not None:
            if same.uid is None or uid is None:
                return Author(player=same.name)
            return Author(lookalike=same.name,
                          reason=f"发帖账号 {shown} 与玩家 {same.name} 同名，但游戏文件中 {same.name} 的 uid 是 {same.uid}")
        like = self.by_skeleton.get(skeleton(author))
        if like is not None:
            fix = f"；若确是本人，在游戏文件里给 {like} 写上 uid = {uid}" if uid is not None else ""
            return Author(lookalike=like, reason=f"发帖账号 {shown} 不是玩家，但名字与玩家 {like} 形近{fix}")
        return Author()

    def count_by_player(self, counts: Mapping[tuple[str, int | None], int]) -> dict[str, int]:
        """Post counts per (author, uid) summed per player; a look-alike's posts stay under its own name."""
        out: dict[str, int] = {}
        for (author, uid), n in counts.items():
            key = self.identify(author, uid).player or author
            out[key] = out.get(key, 0) + n
        return out
