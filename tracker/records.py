"""Plain records that cross layers: what the parsers produce and what the engine and detectors read.

They live at the top of the package, not in ``tracker.scraper``, because the engine and the
detectors consume them and must not import the scraper (see the import-linter contracts).
Frozen and slotted: a post is a fact as observed at one moment; a later observation is a new
record, and the store keeps the versions.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

Source = Literal["desktop", "mobile", "store"]


@dataclass(frozen=True, slots=True)
class Quote:
    """A reply-with-quote block (``div.quote > blockquote`` or mobile ``div.reply_wrap``).

    ``pid`` comes from the findpost link; Discuz never records the floor. ``posted_at`` is the
    header's minute-precision time as the forum shows it (no seconds, forum zone).
    """

    pid: int | None
    author: str | None
    posted_at: datetime | None
    text: str


@dataclass(frozen=True, slots=True)
class FontUse:
    """One ``<font>`` (or style) outside quotes: the colour or size as written plus the text it wraps."""

    color: str | None
    size: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Post:
    """One post as the forum showed it.

    ``floor`` is the displayed floor (ordinal among visible posts, renumbered after deletions);
    ``position`` is the database position (mobile API only; ``None`` from desktop pages).
    ``html`` is the message body as rendered; ``text`` is its plain text without quotes and without
    the edit marker. ``colors``/``sizes`` are the raw attribute values used outside quotes.
    """

    pid: int
    tid: int
    floor: int
    author: str
    uid: int | None
    posted_at: datetime
    html: str
    text: str
    position: int | None = None
    edited_by: str | None = None
    edited_at: datetime | None = None
    blocked: bool = False
    from_mobile: bool = False
    quotes: tuple[Quote, ...] = ()
    colors: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    fonts: tuple[FontUse, ...] = ()
    images: tuple[str, ...] = ()
    smilies: tuple[str, ...] = ()
    source: Source = "desktop"


@dataclass(frozen=True, slots=True)
class ListedPost:
    """A post a mobile listing shows with the very message the store last listed for it.

    Only its place is read (``floor``, ``position``): what it says is what the store holds, so its
    message is not extracted again (on a re-crawl that was most of the listing's parse). ``digest``
    is the message's (:func:`tracker.scraper.mobile.message_digest`).
    """

    pid: int
    tid: int
    floor: int
    position: int | None
    digest: str


def html_digest(html: str) -> str:
    """sha256 of a message's HTML as stored (``post.html_hash``): the parser compares a desktop
    message with the stored one by it, the store keeps it beside the HTML."""
    return hashlib.sha256(html.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeenAsStored:
    """A post a desktop page shows with the very message HTML the store holds from a desktop page.

    Everything read from the message (text, quotes, colours, sizes, fonts, images, smilies, the
    本帖最后由 … 编辑 marker) is a function of that HTML, so it is not extracted again; only what
    lies outside the message is read: its floor, the poster's uid and the 来自手机 mark. On a
    re-crawl a page is fetched for one changed post and holds nine of these. ``html_digest`` is
    the message's (:func:`html_digest`), which the store's guard compares with the stored one.
    """

    pid: int
    tid: int
    floor: int
    uid: int | None
    from_mobile: bool
    html_digest: str


@dataclass(frozen=True, slots=True)
class ThreadPage:
    """One fetched page (desktop) or document (mobile) of a thread, parsed."""

    tid: int
    subject: str
    page: int
    pages: int
    posts: tuple[Post, ...]
    fid: int | None = None
    replies: int | None = None
    maxposition: int | None = None
    ppp: int | None = None
    formhash: str | None = None
    member_name: str | None = None
    member_uid: int | None = None
    source: Source = "desktop"
    # 只看该作者 (``&authorid=N``): only that author's posts, and ``floor`` is the ordinal within this
    # view, not the thread's floor. None on a normal page.
    author_filter: int | None = None
    # A mobile document only: the posts listed as stored (not extracted, see ListedPost), and the
    # digest of every listed post's message by pid, extracted or not.
    unchanged: tuple[ListedPost, ...] = ()
    digests: dict[int, str] = field(default_factory=dict)
    # A desktop page parsed with the stored messages' digests: the posts shown exactly as stored (not
    # extracted, not in ``posts``). ``posts`` and ``as_stored`` together are every post of the page.
    as_stored: tuple[SeenAsStored, ...] = ()

    @property
    def pids(self) -> list[int]:
        """Every post's pid on the page, extracted or seen as stored."""
        return [p.pid for p in self.posts] + [p.pid for p in self.as_stored]


@dataclass(frozen=True, slots=True)
class ThreadSummary:
    """A thread as a forum's thread list (forumdisplay) shows it."""

    tid: int
    subject: str
    author: str | None = None
    replies: int | None = None
    last_post_at: datetime | None = None
    sticky: bool = False
    extra: dict[str, str] = field(default_factory=dict)
