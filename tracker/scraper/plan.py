"""What to request: the fewest pages that make every post's text, quotes, colours, sizes and edit
marker known. Pure: a listing and what the store knows in, a plan out.

Why this shape (see README, "What a crawl costs"):

- The mobile API (``module=viewthread`` with a large ``ppp``) lists a whole thread in one answer:
  every visible post's pid, floor (``number``), position, block status and text. That is enough to
  notice new posts, edits (including an administrator's, which leave no marker: the text differs),
  blocks and deletions anywhere in the thread, not only on its last page.
- It drops ``[size]`` and the edit marker, so a post whose content we have not yet seen on a desktop
  page still needs the desktop page that holds it. That page is computed from the post's *new*
  floor: a deletion renumbers every later floor and shifts page boundaries.
- Identity is the pid, never the floor. A known pid missing from a *complete* listing was deleted
  (marked, never removed). An incomplete listing marks nothing.
- A post seen on mobile but whose desktop page was never fetched (a crawl killed in between) stays
  "pending desktop" in the store and is planned again next run.
- A post listed with the very message last stored (a :class:`~tracker.records.ListedPost`) is
  unchanged by construction: only its floor may have moved, and its page is wanted only while it
  was never seen on the desktop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tracker.records import ListedPost, Post
from tracker.store.posts import KnownPost, ThreadState, content_key, needs_desktop

DESKTOP_PER_PAGE = 10  # Discuz's default postperpage; the desktop ignores &ppp=
LISTING_PPP = 1000


@dataclass(frozen=True, slots=True)
class Listing:
    """Every post the mobile API listed for one thread, merged over its pages: ``posts`` extracted,
    ``unchanged`` listed with the message last stored (not extracted); ``digests``: every listed
    post's message digest by pid."""

    tid: int
    subject: str
    posts: tuple[Post, ...]
    replies: int | None
    maxposition: int | None
    complete: bool
    requests: int = 1
    unchanged: tuple[ListedPost, ...] = ()
    digests: dict[int, str] = field(default_factory=dict)

    @property
    def placed(self) -> tuple[Post | ListedPost, ...]:
        """Every listed post, extracted or not, in floor order."""
        if not self.unchanged:
            return self.posts
        return tuple(sorted((*self.posts, *self.unchanged), key=lambda p: (p.floor, p.pid)))


@dataclass(frozen=True, slots=True)
class CrawlPlan:
    """The desktop pages to fetch for one thread and why.

    ``new``: pids never stored; ``changed``: stored pids whose content or block state differs (or
    that came back after a deletion); ``refloored``: only their floor/position moved; ``pending``:
    unchanged pids never seen on a desktop page; ``deleted``: stored pids absent from a complete
    listing.
    """

    tid: int
    desktop_pages: tuple[int, ...]
    new: tuple[int, ...] = ()
    changed: tuple[int, ...] = ()
    deleted: tuple[int, ...] = ()
    refloored: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()
    wanted: tuple[int, ...] = ()

    @property
    def quiet(self) -> bool:
        """Nothing to do beyond the listing: the thread is as stored."""
        return not (self.desktop_pages or self.new or self.changed or self.deleted or self.refloored)


def page_of(floor: int, per_page: int = DESKTOP_PER_PAGE) -> int:
    """The desktop page holding a floor (floors are ordinals of visible posts, from 1)."""
    return (max(floor, 1) - 1) // per_page + 1


def listing_complete(posts: Sequence[Post | ListedPost]) -> bool:
    """A listing whose floors run 1..n without a gap or a repeat: nothing visible is missing."""
    floors = sorted(p.floor for p in posts)
    return bool(floors) and floors == list(range(1, len(floors) + 1))


def _content_changed(known: KnownPost, post: Post) -> bool:
    if known.deleted or known.blocked != post.blocked:
        return True
    return not post.blocked and known.content_key != content_key(post)


def plan_thread(listing: Listing, state: ThreadState, *, per_page: int = DESKTOP_PER_PAGE) -> CrawlPlan:
    """Compare a fresh listing with the store; return the desktop pages that hold what is unknown."""
    new: list[int] = []
    changed: list[int] = []
    refloored: list[int] = []
    pending: list[int] = []
    wanted: list[int] = []
    pages: set[int] = set()
    for post in listing.posts:
        known = state.known.get(post.pid)
        if known is None:
            new.append(post.pid)
        elif _content_changed(known, post):
            changed.append(post.pid)
        elif known.floor != post.floor or (post.position is not None and known.position != post.position):
            refloored.append(post.pid)
        if needs_desktop(known, post):
            pages.add(page_of(post.floor, per_page))
            wanted.append(post.pid)
            if known is not None and not _content_changed(known, post):
                pending.append(post.pid)
    for same in listing.unchanged:
        known = state.known.get(same.pid)
        if known is None:  # not as the store holds it after all: cannot happen from the crawl's own reading
            new.append(same.pid)
            pages.add(page_of(same.floor, per_page))
            wanted.append(same.pid)
            continue
        if known.floor != same.floor or (same.position is not None and known.position != same.position):
            refloored.append(same.pid)
        if not known.has_desktop:
            pages.add(page_of(same.floor, per_page))
            wanted.append(same.pid)
            pending.append(same.pid)
    deleted: list[int] = []
    if listing.complete:
        present = {p.pid for p in listing.placed}
        deleted = sorted(pid for pid, k in state.known.items() if not k.deleted and pid not in present)
    return CrawlPlan(tid=listing.tid, desktop_pages=tuple(sorted(pages)), new=tuple(new), changed=tuple(changed),
                     deleted=tuple(deleted), refloored=tuple(refloored), pending=tuple(pending),
                     wanted=tuple(wanted))


def follow_up_pages(missing: Iterable[Post | ListedPost], fetched: dict[int, Sequence[Post]], per_page: int) -> tuple[int, ...]:
    """Pages to try for wanted posts that were not where their floor said.

    Either the forum shows another number of posts a page (``per_page`` is then what the fetched
    pages showed) or the thread moved meanwhile: a deletion moves posts to an earlier page, new
    posts never move old ones later. So: the page by floor if not fetched yet, else the one before,
    else the one after.
    """
    out: set[int] = set()
    for post in missing:
        guess = page_of(post.floor, per_page)
        candidates = [guess, guess - 1, guess + 1]
        for page in candidates:
            if page >= 1 and page not in fetched:
                out.add(page)
                break
    return tuple(sorted(out))
