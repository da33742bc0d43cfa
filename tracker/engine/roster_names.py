"""The game file's player names against the accounts that actually post in the game's threads.

A typo in a name (饺子 written 饺孑) matches no post: that player seems to lurk, every ballot naming
them is thrown out, and nothing says why. After a crawl the director is told which listed players
have no post at all and which accounts post without being listed, each with the nearest names, so
the typo shows the first time the threads are read. Pure: names and counts in, findings out.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from tracker.visible import visible_name

#: How alike two names must be to be offered for each other: 饺孑 for 饺子 (ratio 0.5) is offered;
#: the crawl's roster check and every name a director types share it.
NEAR_CUTOFF = 0.4


def nearest_names(name: str, names: Iterable[str], n: int = 3) -> tuple[str, ...]:
    """The names most like ``name`` (a typo's likely meaning), best first."""
    return tuple(difflib.get_close_matches(name, list(names), n=n, cutoff=NEAR_CUTOFF))


def did_you_mean(name: str, names: Iterable[str]) -> str | None:
    """``是不是：饺子？`` for a typed name that is no player, or None when nothing is near."""
    near = nearest_names(name, names)
    return f"是不是：{'、'.join(near)}？" if near else None


@dataclass(frozen=True, slots=True)
class Unlisted:
    """An account posting in the game's threads that is no player, director or substitute."""

    author: str
    posts: int
    nearest: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RosterCheck:
    silent: tuple[tuple[str, tuple[str, ...]], ...]
    """Listed players with no post in any game thread, with the nearest posting accounts."""
    unlisted: tuple[Unlisted, ...]

    @property
    def ok(self) -> bool:
        return not self.silent and not self.unlisted

    def lines(self) -> list[str]:
        """What the director reads after a crawl (Chinese)."""
        out: list[str] = []
        for name, near in self.silent:  # names as one-line tokens: a \r or \n in a name cannot split the line
            hint = f"（是不是：{'、'.join(map(visible_name, near))}？）" if near else ""
            out.append(f"名单核对：玩家 {visible_name(name)} 在游戏帖里没有发言{hint}")
        for u in self.unlisted:
            hint = f"（最接近的玩家：{'、'.join(map(visible_name, u.nearest))}）" if u.nearest else ""
            out.append(f"名单核对：账号 {visible_name(u.author)} 在游戏帖里发了 {u.posts} 帖，却不在 [[players]] 中{hint}")
        return out


def check_names(players: Collection[str], others: Collection[str], posts_by_author: Mapping[str, int]) -> RosterCheck:
    """``players``: the game file's names; ``others``: directors and substitutes (they post, unlisted
    as players); ``posts_by_author``: posts per account in the game's threads."""
    known = set(players) | set(others)
    unlisted_names = [a for a in posts_by_author if a not in known]
    silent_names = [p for p in players if posts_by_author.get(p, 0) == 0]
    silent = tuple((p, nearest_names(p, unlisted_names)) for p in silent_names)
    unlisted = tuple(Unlisted(a, posts_by_author[a], nearest_names(a, players))
                     for a in sorted(unlisted_names, key=lambda a: (-posts_by_author[a], a)))
    return RosterCheck(silent, unlisted)
