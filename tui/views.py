"""Plain values the screens draw: what the gateway makes of the service's answers.

Screens receive these (attributes down) and never see store rows or engine objects, so a change in
the service's types is absorbed in :mod:`tui.gateway` alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.widgets.post_view import PostLike


@dataclass(frozen=True, slots=True)
class PlayerRow:
    name: str
    status: str = "alive"
    role: str | None = None
    faction: str | None = None
    tags: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()  # statuses and marks the nights put on the player (净化, 绑架, 英雄：X …)
    blue: int = 0
    yellow: int = 0
    red: int = 0


@dataclass(frozen=True, slots=True)
class Overview:
    players: tuple[PlayerRow, ...]
    open_flags: int | None = None
    lurkers: int | None = None
    outcome: str | None = None
    posts: int | None = None
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FlagRow:
    id: int
    pid: int
    tid: int
    floor: int
    author: str
    kind: str
    category: str | None
    clause: str | None
    excerpt: str
    status: str
    color: str | None = None
    matched: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardRow:
    id: int
    action: str
    player: str
    color: str | None
    clause: str | None
    reason: str
    issuer: str
    at: datetime
    post: int | None = None
    active: bool = True


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: str
    blue: int
    yellow: int
    red: int
    status: str


@dataclass(frozen=True, slots=True)
class PostQuery:
    author: str | None = None
    tid: int | None = None
    day: int | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class PostPage:
    query: PostQuery
    offset: int
    limit: int
    total: int
    posts: tuple[PostLike, ...]
