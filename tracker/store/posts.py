"""The queries of the posts area: idempotent upserts with versions, deletions, threads, crawls, raw pages.

Every write function but :func:`touch_as_stored` (part of a page batch's upsert) ends with
``session.commit()``: one call is one transaction, so a process killed
between calls leaves the store consistent (a page either fully ingested or not at all). Writes are
bulk statements (executemany), never one ORM ``add`` per row. What the crawl writes and reads runs
the statements of :mod:`tracker.store.crawl_statements` (through ``sqlite3`` on SQLite, without loading
SQLAlchemy); the readers for the other commands are SQLAlchemy Core queries over :mod:`tracker.store.tables`.

Merge rules for a post seen again (pid is the identity; floors renumber after deletions):

- its content is :func:`content_key` (normalised plain text + quoted pids), identical whether the post
  came from a desktop page or the mobile API. A different key is an edit: a :class:`StoredVersion` row
  keeps the new state with the time it was seen, the post row takes the new content;
- with the same key, a source only updates what it knows: mobile the position, floor and block state;
  desktop also html, sizes, colours, fonts, images, smilies, the edit marker and ``from_mobile``.
  A mobile observation never erases desktop-only fields;
- a desktop page that shows a different edit marker or formatting for the same text is an edit too
  (a player shrinking a big font away);
- a blocked post shows a placeholder, not its text: the block is recorded as a version, the text
  that was seen before is kept. Unblocking and reappearing after a deletion are recorded as well.
"""

from __future__ import annotations

import gzip
import hashlib
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from tracker.records import FontUse, ListedPost, Post, Quote, SeenAsStored, Source, html_digest
from tracker.store import crawl_statements as cs
from tracker.store.db import UnitOfWork  # an ORM session, a Core unit or the crawl's sqlite3 unit
from tracker.store.sql import Statements, statements

_CHUNK = 500

# Fields only a desktop page knows; a mobile observation leaves them as they are.
_DESKTOP_FIELDS = ("html", "html_hash", "colors", "sizes", "fonts", "images", "smilies", "edited_by",
                   "edited_at", "from_mobile")


# --- content identity ------------------------------------------------------------------------------

def normalise_text(text: str) -> str:
    """NFC without any whitespace: line breaks, indents and non-breaking spaces differ between the desktop
    page and the mobile API (and between Discuz versions), never what a post says in Chinese."""
    return "".join(unicodedata.normalize("NFC", text).split())


def content_key(post: Post) -> str:
    """sha256 of what the post says (normalised text + quoted pids), the same for desktop and mobile."""
    quoted = ",".join("" if q.pid is None else str(q.pid) for q in post.quotes)
    return _content_key(post.text, quoted)


@lru_cache(maxsize=8192)
def _content_key(text: str, quoted: str) -> str:
    """Memoised: a crawl asks a post's key several times (plan, upsert, the listing's key kept with
    its desktop page); NFC, whitespace removal and sha256 were a tenth of a first crawl's CPU."""
    return hashlib.sha256(f"{normalise_text(text)}\x00{quoted}".encode()).hexdigest()


html_hash = html_digest  # the stored post.html_hash: the digest a desktop parse compares with


# --- results ---------------------------------------------------------------------------------------

@dataclass
class UpsertResult:
    """What one :func:`upsert_posts` call found. ``changed_pids``: content edits, blocks, unblocks, restores."""

    new_pids: list[int] = field(default_factory=list)
    changed_pids: list[int] = field(default_factory=list)
    unchanged: int = 0
    refloored_pids: list[int] = field(default_factory=list)
    blocked_pids: list[int] = field(default_factory=list)
    restored_pids: list[int] = field(default_factory=list)


class KnownPost(NamedTuple):
    """What the store knows of a post, for the crawler's comparison with a fresh listing."""

    content_key: str
    floor: int
    position: int | None
    has_desktop: bool
    blocked: bool = False
    deleted: bool = False
    listing_key: str | None = None
    listing_digest: str | None = None
    desktop_digest: str | None = None
    """``html_hash`` when the stored message came from a desktop page (``source`` desktop)."""

    def as_stored_if(self) -> str | None:
        """The digest a desktop page's message must have for the post to be taken as stored without
        extracting it (:class:`~tracker.records.SeenAsStored`): the stored HTML's, while the stored
        content is the desktop's and the post is neither deleted nor blocked."""
        if self.deleted or self.blocked or not self.has_desktop:
            return None
        return self.desktop_digest

    def unchanged_if(self) -> str | None:
        """The digest a listing's message must have for the post to be taken as unchanged without
        extracting it: the one stored with its listing key, while it is neither deleted nor blocked
        (a restore, a block, an unblock is a change the listing's item alone does not show)."""
        if self.deleted or self.blocked or self.listing_key is None:
            return None
        return self.listing_digest

    def listed_as(self, key: str) -> bool:
        """Whether a listing's (mobile) content key says what this post said when last listed.

        Compared with the last listing's key when known, never across renderings: for BBCode Discuz
        renders badly, the desktop and the mobile text may differ, and comparing one with the other
        would see an edit on every crawl. Posts stored before the key was kept fall back to the
        stored content's key.
        """
        return key == (self.listing_key if self.listing_key is not None else self.content_key)


class ListingSeen(NamedTuple):
    """What a listing showed of a post: its content key and the digest of its message. The two are
    always written together, so a stored digest vouches for the stored listing key."""

    key: str
    digest: str | None


@dataclass(frozen=True)
class ThreadState:
    tid: int
    subject: str | None
    replies: int | None
    maxposition: int | None
    pages: int | None
    listed_at: datetime | None
    known: dict[int, KnownPost]


def observation_changed(known: KnownPost | None, post: Post) -> bool:
    """True when upserting ``post`` would change the store (new, edited, refloored, (un)blocked, restored)."""
    if known is None or known.deleted or known.blocked != post.blocked or known.floor != post.floor:
        return True
    if post.position is not None and known.position != post.position:
        return True
    if post.blocked:
        return False
    if post.source == "mobile":
        return not known.listed_as(content_key(post)) or known.listing_key is None
    return known.content_key != content_key(post)


def needs_desktop(known: KnownPost | None, post: Post) -> bool:
    """True when the desktop page holding ``post`` should be fetched (sizes, fonts, edit marker unknown).

    A blocked post shows nothing on desktop either; a post whose current content was seen on desktop
    needs nothing more.
    """
    if post.blocked:
        return False
    if known is None:
        return post.source != "desktop"
    if post.source == "mobile":
        return not known.listed_as(content_key(post)) or not known.has_desktop
    return known.content_key != content_key(post) or not known.has_desktop


@dataclass(frozen=True)
class StoredPost:
    """A post as stored: the :class:`Post` fields plus what the store knows about its history."""

    pid: int
    tid: int
    floor: int
    author: str
    uid: int | None
    posted_at: datetime
    html: str
    text: str
    position: int | None
    edited_by: str | None
    edited_at: datetime | None
    blocked: bool
    from_mobile: bool
    quotes: tuple[Quote, ...]
    colors: tuple[str, ...]
    sizes: tuple[str, ...]
    fonts: tuple[FontUse, ...]
    images: tuple[str, ...]
    smilies: tuple[str, ...]
    source: Source
    deleted: bool
    deleted_seen_at: datetime | None
    versions: int
    first_seen: datetime
    last_seen: datetime
    content_key: str
    html_hash: str
    has_desktop: bool

    def to_post(self) -> Post:
        return Post(pid=self.pid, tid=self.tid, floor=self.floor, author=self.author, uid=self.uid,
                    posted_at=self.posted_at, html=self.html, text=self.text, position=self.position,
                    edited_by=self.edited_by, edited_at=self.edited_at, blocked=self.blocked,
                    from_mobile=self.from_mobile, quotes=self.quotes, colors=self.colors, sizes=self.sizes,
                    fonts=self.fonts, images=self.images, smilies=self.smilies, source="store")


# --- JSON <-> records ------------------------------------------------------------------------------

def _quotes_json(quotes: Iterable[Quote]) -> list[dict[str, Any]]:
    return [{"pid": q.pid, "author": q.author, "text": q.text,
             "posted_at": q.posted_at.isoformat() if q.posted_at else None} for q in quotes]


def _quotes_from(data: Iterable[dict[str, Any]]) -> tuple[Quote, ...]:
    return tuple(Quote(pid=d.get("pid"), author=d.get("author"), text=d.get("text", ""),
                       posted_at=datetime.fromisoformat(d["posted_at"]) if d.get("posted_at") else None)
                 for d in data)


def _fonts_json(fonts: Iterable[FontUse]) -> list[dict[str, Any]]:
    return [{"color": f.color, "size": f.size, "text": f.text} for f in fonts]


def _fonts_from(data: Iterable[dict[str, Any]]) -> tuple[FontUse, ...]:
    return tuple(FontUse(color=d.get("color"), size=d.get("size"), text=d.get("text", "")) for d in data)


def _aware(value: datetime, name: str) -> datetime:
    if value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware")
    return value


def _now() -> datetime:
    return datetime.now(UTC)


def _chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


# --- upserts ---------------------------------------------------------------------------------------

def _desktop_values(post: Post) -> dict[str, Any]:
    return {"html": post.html, "html_hash": html_hash(post.html), "colors": list(post.colors),
            "sizes": list(post.sizes), "fonts": _fonts_json(post.fonts), "images": list(post.images),
            "smilies": list(post.smilies), "edited_by": post.edited_by, "edited_at": post.edited_at,
            "from_mobile": post.from_mobile}


def _new_row(post: Post, key: str, seen_at: datetime, seen: ListingSeen | None = None) -> dict[str, Any]:
    return {
        "pid": post.pid, "tid": post.tid, "floor": post.floor, "position": post.position,
        "author": post.author, "uid": post.uid, "posted_at": _aware(post.posted_at, "posted_at"),
        "text": post.text, "blocked": post.blocked, "quotes": _quotes_json(post.quotes),
        "source": post.source, "content_key": key,
        "has_desktop": post.source == "desktop" and not post.blocked,
        "deleted": False, "deleted_seen_at": None, "first_seen": seen_at, "last_seen": seen_at, "versions": 1,
        "listing_key": seen.key if seen is not None else (key if post.source == "mobile" else None),
        "listing_digest": seen.digest if seen is not None else None,
        **_desktop_values(post),
    }


def _version_row(post: Post, key: str, kind: str, seen_at: datetime, crawl_id: int | None) -> dict[str, Any]:
    return {"pid": post.pid, "seen_at": seen_at, "kind": kind, "source": post.source, "content_key": key,
            "text": post.text, "html": post.html, "quotes": _quotes_json(post.quotes),
            "colors": list(post.colors), "sizes": list(post.sizes), "edited_by": post.edited_by,
            "edited_at": post.edited_at, "blocked": post.blocked, "crawl_id": crawl_id}


def _formatting_changed(row: Mapping[str, Any], post: Post) -> bool:
    return (row["edited_at"] != post.edited_at or row["edited_by"] != post.edited_by
            or list(row["colors"]) != list(post.colors) or list(row["sizes"]) != list(post.sizes)
            or list(row["fonts"]) != _fonts_json(post.fonts))


def _merge(row: dict[str, Any], post: Post, key: str, seen_at: datetime,
           seen: ListingSeen | None = None) -> tuple[str | None, bool]:
    """Apply one observation to a stored row in place; return (version kind or None, refloored).

    A mobile observation is compared with the post's last listing (:meth:`KnownPost.listed_as`), a
    desktop one with the stored content. ``seen``: what the listing just showed of this post (its key
    and message digest, stored together); for a desktop page fetched because of it, when the stored content came from that very listing, the
    desktop page shows the same content in the fuller rendering, which replaces it without counting as
    an edit.
    """
    kind: str | None = None
    refloored = row["floor"] != post.floor
    row["floor"] = post.floor
    if post.position is not None:
        row["position"] = post.position
    desktop = post.source == "desktop"
    if post.blocked:
        if not row["blocked"]:
            kind = "blocked"
        row["blocked"] = True
    else:
        if row["blocked"]:
            kind = "unblocked"
        row["blocked"] = False
        known_listing = row.get("listing_key")
        if post.source == "mobile":
            same = key == (known_listing if known_listing is not None else row["content_key"])
            row["listing_key"] = key
            row["listing_digest"] = seen.digest if seen is not None and seen.key == key else None
            if same:
                key = row["content_key"]  # unchanged since the last listing, whatever the desktop said
        elif seen is not None:
            if key != row["content_key"] and not row["has_desktop"] and known_listing == seen.key:
                row.update(text=post.text, quotes=_quotes_json(post.quotes), content_key=key,
                           source=post.source)  # the same content, now seen on its desktop page
            row["listing_key"], row["listing_digest"] = seen
        if key != row["content_key"]:
            kind = kind or "edit"
            row.update(text=post.text, quotes=_quotes_json(post.quotes), content_key=key, source=post.source,
                       versions=row["versions"] + 1, has_desktop=desktop)
            if desktop:
                row.update(_desktop_values(post))
            else:
                # The mobile body replaces the old content's html; sizes and fonts stay until a desktop page.
                row.update(html=post.html, html_hash=html_hash(post.html))
        elif desktop:
            if row["has_desktop"] and _formatting_changed(row, post):
                kind = kind or "edit"
                row["versions"] += 1
            row.update(_desktop_values(post), has_desktop=True, source="desktop")
    if row["deleted"]:
        kind = kind or "restored"
        row.update(deleted=False, deleted_seen_at=None)
    row["last_seen"] = seen_at
    return kind, refloored


# Threads known to exist, per database: a thread row is never deleted, so once committed it stays.
_known_threads: WeakKeyDictionary[object, set[int]] = WeakKeyDictionary()


def _ensure_threads(db: Statements, tids: Collection[int], seen_at: datetime) -> list[int]:
    """Insert a placeholder row for threads seen first through their posts; return the tids now known."""
    known = _known_threads.get(db.owner, set())
    wanted = [t for t in tids if t not in known]
    if not wanted:
        return []
    have = {r[0] for r in db.rows(cs.SELECT_TIDS, {"in_tids": wanted})}
    missing = [{"tid": t, "subject": "", "first_seen": seen_at, "updated_at": seen_at}
               for t in sorted(set(wanted) - have)]
    if missing:
        db.many(cs.insert_into("thread", tuple(missing[0])), missing)
    return wanted


def _remember_threads(owner: object, tids: Iterable[int]) -> None:
    _known_threads.setdefault(owner, set()).update(tids)


def moved_only(known: KnownPost | None, post: Post) -> bool:
    """True when a listing's ``post`` differs from what is stored at most in its floor and position.

    The listing says the same as last time (or, blocked, still nothing), the post is neither deleted
    nor newly (un)blocked: upserting it would change only ``floor``, ``position`` and ``last_seen``.
    A deletion renumbers every later floor, so after one this is most of a thread's listing.
    """
    if known is None or known.deleted or known.blocked != post.blocked or post.source != "mobile":
        return False
    return post.blocked or (known.listing_key is not None and known.listed_as(content_key(post)))


def upsert_posts(session: UnitOfWork, posts: Sequence[Post], *, seen_at: datetime,
                 crawl_id: int | None = None, listed: Mapping[int, ListingSeen] | None = None,
                 known: Mapping[int, KnownPost] | None = None) -> UpsertResult:
    """Store one page (or listing) of observed posts in one transaction; idempotent.

    ``listed``: what the listing showed of each post (its content key and message digest): for desktop
    pages fetched because of a listing, remembered so the next listing is compared with the listing
    (see :class:`KnownPost`); for the listing's own posts, the digest stored with their key.

    ``known``: what the caller read of these posts (:func:`thread_state`). Listed posts that only
    moved (:func:`moved_only`) then take one light UPDATE of their floor and position, guarded in SQL
    by the state the caller saw, instead of having their whole row read, merged and written back:
    after a deletion that was most of a re-crawl's store time. Should the guard not hold for every
    one of them (the store changed meanwhile), they go through the full merge like any other post.
    """
    listed = listed or {}
    _aware(seen_at, "seen_at")
    result = UpsertResult()
    if not posts:
        return result
    db = statements(session)
    if known:
        light = [p for p in posts if moved_only(known.get(p.pid), p)]
        if light and _refloor(db, light, known, listed, seen_at):
            done = {p.pid for p in light}
            rest = [p for p in posts if p.pid not in done]
            if rest:  # the others in the same transaction, merged
                result = upsert_posts(session, rest, seen_at=seen_at, crawl_id=crawl_id, listed=listed)
            else:
                session.commit()
            result.refloored_pids = [*(p.pid for p in light), *result.refloored_pids]
            return result
    pids = list(dict.fromkeys(p.pid for p in posts))
    stored: Collection[int] = pids
    as_stored = 0
    if any(p.source == "desktop" for p in posts):
        # A desktop page re-fetched for one post holds nine others exactly as stored: a probe of
        # a few columns finds them, and they only get last_seen, not a read, merge and write-back
        # of their whole row. The probe also says which pids exist at all (none, on a first crawl).
        probe: dict[int, Any] = {}
        for chunk in _chunks(pids):
            probe.update((r["pid"], r) for r in db.dicts(cs.PROBE_POSTS, {"in_pids": list(chunk)}))
        stored = probe.keys()
        same = _as_stored(posts, probe)
        if same and _touch(db, same, listed, seen_at):
            as_stored = len(same)
            done = {p.pid for p, _ in same}
            posts = [p for p in posts if p.pid not in done]
            stored = probe.keys() - done
            if not posts:
                session.commit()
                result.unchanged = as_stored
                return result
    existing: dict[int, dict[str, Any]] = {}
    wanted = [pid for pid in pids if pid in stored]
    for chunk in _chunks(wanted):
        for m in db.dicts(cs.SELECT_POSTS, {"in_pids": list(chunk)}):
            existing[m["pid"]] = m
    threads = _ensure_threads(db, {p.tid for p in posts}, seen_at)

    inserts: dict[int, dict[str, Any]] = {}
    updates: dict[int, dict[str, Any]] = {}
    touched: set[int] = set()
    versions: list[dict[str, Any]] = []
    changed: dict[int, None] = {}
    refloored: dict[int, None] = {}
    for post in posts:
        key = content_key(post)
        pid = post.pid
        if pid not in inserts and pid not in existing:
            inserts[pid] = _new_row(post, key, seen_at, listed.get(pid))
            versions.append(_version_row(post, key, "first", seen_at, crawl_id))
            result.new_pids.append(pid)
            continue
        target = inserts if pid in inserts else updates
        row = target.get(pid) or dict(existing[pid])
        before = dict(row)
        kind, moved = _merge(row, post, key, seen_at, listed.get(pid))
        if kind is not None:
            versions.append(_version_row(post, key, kind, seen_at, crawl_id))
            if pid not in inserts:
                changed[pid] = None
            if kind == "blocked":
                result.blocked_pids.append(pid)
            elif kind == "restored":
                result.restored_pids.append(pid)
        if moved and pid not in inserts:
            refloored[pid] = None
        if {k: v for k, v in row.items() if k != "last_seen"} != {k: v for k, v in before.items()
                                                                    if k != "last_seen"}:
            target[pid] = row
            touched.discard(pid)
        elif pid not in inserts and pid not in updates:
            touched.add(pid)

    if inserts:
        _many(db, cs.insert_into, "post", list(inserts.values()))
    if updates:
        rows = [{**{k: v for k, v in r.items() if k != "pid"}, "b_pid": pid} for pid, r in updates.items()]
        _many(db, cs.update_where, "post", rows)
    if touched:
        _many(db, cs.update_where, "post", [{"last_seen": seen_at, "b_pid": pid} for pid in touched])
    if versions:
        _many(db, cs.insert_into, "post_version", versions)
    session.commit()
    _remember_threads(db.owner, threads)

    result.changed_pids = list(changed)
    result.refloored_pids = list(refloored)
    result.unchanged = (len({p.pid for p in posts}) - len(result.new_pids) - len(changed)
                        - len(refloored.keys() - changed.keys()) + as_stored)
    return result


def _many(db: Statements, sql: Any, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Rows of one table in one executemany per set of columns (``sql``: :func:`cs.insert_into` or
    :func:`cs.update_where`, whose key is the last column, ``b_pid``)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r), []).append(r)
    for cols, group in groups.items():
        db.many(sql(table, cols) if sql is cs.insert_into else sql(table, cols[:-1], "pid"), group)


def _as_stored(posts: Sequence[Post], probe: Mapping[int, Any]) -> list[tuple[Post, str]]:
    """Desktop observations that would change nothing but ``last_seen`` (and what the listing just
    said: position, listing key): already seen on the desktop, neither blocked nor deleted, at the
    same floor, with the same content key, HTML digest and every desktop-only field :func:`_merge`
    would write (formatting, edit marker, images, smilies), so it would find no edit. Each comes with
    its HTML digest, so :func:`_touch` does not hash the page's HTML a second time."""
    seen = Counter(p.pid for p in posts)
    out: list[tuple[Post, str]] = []
    for post in posts:
        r = probe.get(post.pid)
        if (r is None or seen[post.pid] > 1 or post.source != "desktop" or post.blocked or r["deleted"]
                or r["blocked"] or not r["has_desktop"] or r["source"] != "desktop" or r["floor"] != post.floor
                or r["from_mobile"] != post.from_mobile):
            continue
        digest = html_hash(post.html)
        if (r["html_hash"] != digest or r["content_key"] != content_key(post) or _formatting_changed(r, post)
                or list(r["images"]) != list(post.images) or list(r["smilies"]) != list(post.smilies)):
            continue
        out.append((post, digest))
    return out


def _touch(db: Statements, same: Sequence[tuple[Post, str]], listed: Mapping[int, ListingSeen],
           seen_at: datetime) -> bool:
    """last_seen (and the listing's position and key) for posts :func:`_as_stored` found unchanged,
    guarded in SQL by what the probe read; False unless every row still matched. A row the guard
    skipped is left as it was, one it matched holds what the merge would write too: falling back
    to the merge for all of them gives the same store."""
    rows = []
    for p, digest in same:
        seen = listed.get(p.pid)
        rows.append({"b_pid": p.pid, "b_hash": digest, "b_key": content_key(p), "b_floor": p.floor,
                     "b_mobile": p.from_mobile, "b_position": p.position, "b_seen": seen_at,
                     "b_listed": seen.key if seen else None, "b_digest": seen.digest if seen else None})
    return db.many(cs.TOUCH, rows) == len(rows)


def touch_as_stored(session: UnitOfWork, seen: Sequence[SeenAsStored], *, seen_at: datetime,
                    positions: Mapping[int, int | None], listed: Mapping[int, ListingSeen]) -> bool:
    """Mark desktop posts shown exactly as stored as seen: ``last_seen``, and what the listing just
    said of them (position, listing key and digest), in one executemany, without the read, the
    merge and the write-back :func:`upsert_posts` gives a post.

    Guarded in SQL by what makes the message the stored one: the same HTML digest on a row whose
    content is a desktop page's, at the same floor, with the same 来自手机 mark, neither deleted
    nor blocked. That is when :func:`_merge` would change nothing else (everything it compares is
    read from that HTML), so a row the guard matched holds what the merge would write. False
    unless every row matched: the caller then extracts those posts and upserts them, which gives
    the same store (a row the guard skipped was left as it was).

    Does not commit: it is part of the caller's transaction for the page batch, which the batch's
    :func:`upsert_posts` (or the unit of work's end) commits.
    """
    _aware(seen_at, "seen_at")
    if not seen:
        return True
    rows = []
    for p in seen:
        said = listed.get(p.pid)
        rows.append({"b_pid": p.pid, "b_hash": p.html_digest, "b_floor": p.floor, "b_mobile": p.from_mobile,
                     "b_position": positions.get(p.pid), "b_seen": seen_at,
                     "b_listed": said.key if said else None, "b_digest": said.digest if said else None})
    return statements(session).many(cs.TOUCH_AS_STORED, rows) == len(rows)


def _refloor(db: Statements, moved: Sequence[Post], known: Mapping[int, KnownPost],
             listed: Mapping[int, ListingSeen], seen_at: datetime) -> bool:
    """Set floor and position of posts that only moved (and the digest of the message listed, which
    says what their listing key says), in one executemany; False unless every row was still as
    ``known`` said (same listing key and block state, not deleted)."""
    rows = []
    for p in moved:
        seen = listed.get(p.pid)
        rows.append({"b_pid": p.pid, "b_floor": p.floor, "b_position": p.position, "b_seen": seen_at,
                     "b_blocked": p.blocked, "b_listed": known[p.pid].listing_key,
                     "b_digest": seen.digest if seen is not None and not p.blocked else None})
    # A row the guard skipped is left as it was; one it matched holds what the full merge would
    # write too, so falling back to the merge for all of them gives the same store.
    return db.many(cs.REFLOOR, rows) == len(rows)


def move_listed(session: UnitOfWork, moved: Sequence[ListedPost], *, seen_at: datetime) -> None:
    """Set the floor and position of posts listed with their stored message (one executemany, one
    transaction).

    Each is guarded in SQL by the digest it was listed with: a row another writer changed meanwhile
    (deleted, blocked, listed with another message) is left as it is, and the next crawl, reading it
    as then stored, extracts its message again.
    """
    _aware(seen_at, "seen_at")
    if not moved:
        return
    rows = [{"b_pid": p.pid, "b_digest": p.digest, "b_floor": p.floor, "b_position": p.position, "b_seen": seen_at}
            for p in moved]
    statements(session).many(cs.MOVE_LISTED, rows)
    session.commit()


def note_listing_digests(session: UnitOfWork, notes: Sequence[tuple[int, ListingSeen]]) -> None:
    """Store the digest of messages listed as saying what their stored listing key says, so the next
    listing of the same message is not extracted (guarded by that key; one executemany)."""
    if notes:
        statements(session).many(cs.NOTE_DIGEST, [{"b_pid": pid, "b_listed": seen.key, "b_digest": seen.digest}
                                                    for pid, seen in notes])
        session.commit()


def mark_deleted(session: UnitOfWork, tid: int, present_pids: Collection[int], *, seen_at: datetime) -> list[int]:
    """Flag the thread's posts absent from a COMPLETE listing as deleted (never removed); return their pids."""
    _aware(seen_at, "seen_at")
    if not present_pids:
        raise ValueError("mark_deleted needs the complete, non-empty listing of the thread")
    db = statements(session)
    live = {r[0] for r in db.rows(cs.LIVE_PIDS, {"tid": tid})}
    gone = sorted(live - set(present_pids))
    for chunk in _chunks(gone):
        db.run(cs.MARK_DELETED, {"in_pids": list(chunk), "seen_at": seen_at})
    db.run(cs.THREAD_LISTED, {"tid": tid, "seen_at": seen_at})
    session.commit()
    return gone


# --- threads ---------------------------------------------------------------------------------------

def save_thread(session: UnitOfWork, tid: int, subject: str | None, replies: int | None, maxposition: int | None,
                pages: int | None, *, fid: int | None = None, seen_at: datetime | None = None,
                listed_at: datetime | None = None) -> None:
    """Record a thread's counters as last seen; ``None`` means "not known by this source", keeping the old value."""
    seen_at = _aware(seen_at or _now(), "seen_at")
    db = statements(session)
    values: dict[str, Any] = {"subject": subject, "replies": replies, "maxposition": maxposition,
                              "pages": pages, "fid": fid, "listed_at": listed_at}
    values = {k: v for k, v in values.items() if v is not None}
    values["updated_at"] = seen_at
    if db.rows(cs.THREAD_EXISTS, {"tid": tid}):
        db.run(cs.update_where("thread", tuple(values), "tid"), {**values, "b_tid": tid})
    else:
        row = {"tid": tid, "first_seen": seen_at, "subject": "", **values}
        db.run(cs.insert_into("thread", tuple(row)), row)
    session.commit()


def thread_state(session: UnitOfWork, tid: int) -> ThreadState:
    """What the store knows of a thread (deleted posts included, flagged) for an incremental crawl."""
    db = statements(session)
    found = db.dicts(cs.SELECT_THREAD, {"tid": tid})
    t = found[0] if found else None
    # The pid, then KnownPost's fields in its order: every row of the thread fetched at once and
    # built positionally (half the time of iterating the result row by row by attribute name).
    make = KnownPost._make
    known = {r[0]: make(r[1:]) for r in db.rows(cs.KNOWN_POSTS, {"tid": tid})}
    if t is None:
        return ThreadState(tid, None, None, None, None, None, known)
    return ThreadState(tid, t["subject"], t["replies"], t["maxposition"], t["pages"], t["listed_at"], known)


# --- reading posts ---------------------------------------------------------------------------------

def _stored(m: Any) -> StoredPost:
    return StoredPost(
        pid=m["pid"], tid=m["tid"], floor=m["floor"], author=m["author"], uid=m["uid"],
        posted_at=m["posted_at"], html=m["html"], text=m["text"], position=m["position"],
        edited_by=m["edited_by"], edited_at=m["edited_at"], blocked=m["blocked"], from_mobile=m["from_mobile"],
        quotes=_quotes_from(m["quotes"]), colors=tuple(m["colors"]), sizes=tuple(m["sizes"]),
        fonts=_fonts_from(m["fonts"]), images=tuple(m["images"]), smilies=tuple(m["smilies"]),
        source=m["source"], deleted=m["deleted"], deleted_seen_at=m["deleted_seen_at"], versions=m["versions"],
        first_seen=m["first_seen"], last_seen=m["last_seen"], content_key=m["content_key"],
        html_hash=m["html_hash"], has_desktop=m["has_desktop"])


def posts_for_threads(session: UnitOfWork, tids: Collection[int], *,
                      include_deleted: bool = True) -> list[StoredPost]:
    """Posts of several threads in thread then posting order (pid order: floors renumber, pids do not)."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    q = select(post_t).where(post_t.c.tid.in_(list(tids)))
    if not include_deleted:
        q = q.where(post_t.c.deleted.is_(False))
    q = q.order_by(post_t.c.tid, post_t.c.pid)
    return [_stored(m) for m in session.connection().execute(q).mappings()]


class BallotRow(NamedTuple):
    """What parsing a ballot reads from a stored post (no html, fonts or images), plus ``content_key`` to
    memoise the parse and ``versions`` to know when an earlier text is worth looking up."""

    pid: int
    tid: int
    floor: int
    author: str
    posted_at: datetime
    edited_at: datetime | None
    versions: int
    content_key: str
    text: str
    quotes: tuple[Quote, ...]
    uid: int | None = None

    def to_post(self) -> Post:
        return Post(pid=self.pid, tid=self.tid, floor=self.floor, author=self.author, uid=self.uid,
                    posted_at=self.posted_at, html="", text=self.text, edited_at=self.edited_at,
                    quotes=self.quotes, source="store")


def ballot_rows(session: UnitOfWork, tid: int) -> list[BallotRow]:
    """A vote thread's visible posts in pid order, with only the columns a ballot is read from."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    c = post_t.c
    q = (select(c.pid, c.tid, c.floor, c.author, c.posted_at, c.edited_at, c.versions, c.content_key, c.text,
                c.quotes, c.uid)
         .where(c.tid == tid, c.deleted.is_(False)).order_by(c.pid))
    return [BallotRow(*row[:9], _quotes_from(row[9]) if row[9] else (), row[10])
            for row in session.connection().execute(q)]


def posts_for_thread(session: UnitOfWork, tid: int, *, include_deleted: bool = True) -> list[StoredPost]:
    return posts_for_threads(session, [tid], include_deleted=include_deleted)


def all_posts(session: UnitOfWork, *, include_deleted: bool = True) -> list[StoredPost]:
    from sqlalchemy import select

    from tracker.store.tables import post_t

    q = select(post_t)
    if not include_deleted:
        q = q.where(post_t.c.deleted.is_(False))
    return [_stored(m) for m in session.connection().execute(q.order_by(post_t.c.tid, post_t.c.pid)).mappings()]


@dataclass(frozen=True)
class StoredVersion:
    """One recorded state of a post (a ``post_version`` row): ``kind`` is ``first``, ``edit``,
    ``blocked``, ``unblocked`` or ``restored``; ``quotes`` as stored (JSON objects)."""

    id: int
    pid: int
    seen_at: datetime
    kind: str
    source: str
    content_key: str
    text: str
    html: str
    quotes: list[dict[str, Any]]
    colors: list[str]
    sizes: list[str]
    edited_by: str | None
    edited_at: datetime | None
    blocked: bool
    crawl_id: int | None


def post_versions(session: UnitOfWork, pid: int) -> list[StoredVersion]:
    """Every recorded state of a post, oldest first."""
    from sqlalchemy import select

    from tracker.store.tables import version_t

    q = select(version_t).where(version_t.c.pid == pid).order_by(version_t.c.id)
    return [StoredVersion(**m) for m in session.connection().execute(q).mappings()]


def author_post_counts(session: UnitOfWork, tids: int | Collection[int], start: datetime, end: datetime, *,
                       include_deleted: bool = True, include_blocked: bool = True) -> dict[str, int]:
    """Posts per author in ``[start, end)`` in the given thread(s), by ``posted_at`` (for lurking).

    Served by the index on (tid, author, posted_at). Deleted and blocked posts count by default: they
    were posted; the caller decides what its rule says.
    """
    from sqlalchemy import func, select

    from tracker.store.tables import post_t

    tid_list = [tids] if isinstance(tids, int) else list(tids)
    q = (select(post_t.c.author, func.count())
         .where(post_t.c.tid.in_(tid_list), post_t.c.posted_at >= _aware(start, "start"),
                post_t.c.posted_at < _aware(end, "end"))
         .group_by(post_t.c.author))
    if not include_deleted:
        q = q.where(post_t.c.deleted.is_(False))
    if not include_blocked:
        q = q.where(post_t.c.blocked.is_(False))
    return {author: int(n) for author, n in session.connection().execute(q)}


def author_uid_post_counts(session: UnitOfWork, tids: int | Collection[int], start: datetime, end: datetime, *,
                           include_deleted: bool = True) -> dict[tuple[str, int | None], int]:
    """:func:`author_post_counts` per (author, uid): who posted is decided by uid, not by a name."""
    from sqlalchemy import func, select

    from tracker.store.tables import post_t

    tid_list = [tids] if isinstance(tids, int) else list(tids)
    q = (select(post_t.c.author, post_t.c.uid, func.count())
         .where(post_t.c.tid.in_(tid_list), post_t.c.posted_at >= _aware(start, "start"),
                post_t.c.posted_at < _aware(end, "end"))
         .group_by(post_t.c.author, post_t.c.uid))
    if not include_deleted:
        q = q.where(post_t.c.deleted.is_(False))
    return {(author, uid): int(n) for author, uid, n in session.connection().execute(q)}


def author_uid_short_posts(session: UnitOfWork, tid: int, start: datetime, end: datetime, *, max_chars: int,
                           ) -> list[tuple[str, int | None, str, int]]:
    """(author, uid, text, number of images) of the thread's posts in ``[start, end)`` whose text is at
    most ``max_chars`` long, deleted and blocked ones left out: the only posts that can say nothing
    (werewolf-12's 无实质内容), so a 潜水 count checks these and never reads the long ones."""
    from sqlalchemy import func, select

    from tracker.store.tables import post_t

    q = (select(post_t.c.author, post_t.c.uid, post_t.c.text, post_t.c.images)
         .where(post_t.c.tid == tid, post_t.c.posted_at >= _aware(start, "start"),
                post_t.c.posted_at < _aware(end, "end"), post_t.c.deleted.is_(False),
                post_t.c.blocked.is_(False), func.length(post_t.c.text) <= max_chars))
    return [(a, u, t or "", len(i or ())) for a, u, t, i in session.connection().execute(q)]


# --- crawls ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CrawlRecord:
    id: int
    started_at: datetime
    finished_at: datetime | None
    threads: list[int]
    requests: int
    pages: int
    posts_new: int
    posts_changed: int
    errors: list[str]
    status: str

    @property
    def finished(self) -> bool:
        """False for a crawl still running or killed before it could record its end."""
        return self.finished_at is not None


def _crawl(m: Any) -> CrawlRecord:
    return CrawlRecord(id=m["id"], started_at=m["started_at"], finished_at=m["finished_at"],
                       threads=list(m["threads"]), requests=m["requests"], pages=m["pages"],
                       posts_new=m["posts_new"], posts_changed=m["posts_changed"], errors=list(m["errors"]),
                       status=m["status"])


def start_crawl(session: UnitOfWork, threads: Iterable[int], *, started_at: datetime | None = None) -> int:
    """Record the start of a crawl at once, so a killed crawl stays visible (no end, status ``running``)."""

    started_at = _aware(started_at or _now(), "started_at")
    row = {"started_at": started_at, "threads": list(threads), "requests": 0, "pages": 0, "posts_new": 0,
           "posts_changed": 0, "errors": [], "status": "running"}
    crawl_id = statements(session).insert(cs.insert_into("crawl", tuple(row)), row)
    session.commit()
    return crawl_id


def close_stale_crawls(session: UnitOfWork, *, started_before: datetime, finished_at: datetime) -> int:
    """Mark crawls still 'running' that started before ``started_before`` as failed.

    A crawl stops itself at its deadline, so one still 'running' long after was killed (SIGKILL, the
    kernel's OOM killer, a power cut) before it could record its end; its record says so now.
    """
    n = statements(session).run(cs.CLOSE_STALE_CRAWLS, {
        "started_before": _aware(started_before, "started_before"), "finished_at": _aware(finished_at, "finished_at"),
        "errors": ["抓取进程在记录结束前被终止（被杀死、内存耗尽或断电）"]})
    session.commit()
    return n


def finish_crawl(session: UnitOfWork, crawl_id: int, requests: int, pages: int, posts_new: int, posts_changed: int,
                 errors: list[str], status: str, *, finished_at: datetime | None = None) -> None:
    finished_at = _aware(finished_at or _now(), "finished_at")
    n = statements(session).run(cs.FINISH_CRAWL, {
        "id": crawl_id, "finished_at": finished_at, "requests": requests, "pages": pages, "posts_new": posts_new,
        "posts_changed": posts_changed, "errors": list(errors), "status": status})
    if n != 1:
        raise ValueError(f"no crawl {crawl_id}")
    session.commit()


def last_crawl(session: UnitOfWork) -> CrawlRecord | None:
    from sqlalchemy import select

    from tracker.store.tables import crawl_t

    m = session.connection().execute(select(crawl_t).order_by(crawl_t.c.id.desc()).limit(1)).mappings().first()
    return None if m is None else _crawl(m)


def crawls(session: UnitOfWork, *, limit: int = 50) -> list[CrawlRecord]:
    """The most recent crawls, newest first."""
    from sqlalchemy import select

    from tracker.store.tables import crawl_t

    q = select(crawl_t).order_by(crawl_t.c.id.desc()).limit(limit)
    return [_crawl(m) for m in session.connection().execute(q).mappings()]


# --- raw pages -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RawPage:
    id: int
    url: str
    status: int
    content_type: str | None
    body: bytes
    fetched_at: datetime
    crawl_id: int | None


# gzip level 1: on the captured pages 2-3x faster than level 6 for 18% more bytes (0.197 against
# 0.167 of the page); at level 6 compressing the raw pages was the largest single CPU cost of a crawl.
RAW_GZIP_LEVEL = 1


def pack_raw(body: bytes) -> bytes:
    """A response body as :func:`save_raws` stores it (gzip, ``RAW_GZIP_LEVEL``, no timestamp)."""
    return gzip.compress(body, compresslevel=RAW_GZIP_LEVEL, mtime=0)


class RawAnswer(NamedTuple):
    """One response to keep: what :func:`save_raws` stores.

    ``body_gz``: the body already packed (:meth:`packed`), or None to pack it when stored. The crawl
    packs its answers in a worker thread (zlib lets go of the GIL while it compresses), so the event
    loop, which runs the crawl's fetching and storing, does not spend its time compressing pages."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    fetched_at: datetime
    body_gz: bytes | None = None

    def packed(self) -> RawAnswer:
        return self if self.body_gz is not None else self._replace(body_gz=pack_raw(self.body))


def _raw_row(raw: RawAnswer, crawl_id: int | None) -> dict[str, Any]:
    return {"url": raw.url, "status": raw.status, "content_type": raw.content_type, "size": len(raw.body),
            "body_gz": raw.body_gz if raw.body_gz is not None else pack_raw(raw.body),
            "fetched_at": _aware(raw.fetched_at, "fetched_at"), "crawl_id": crawl_id}


def save_raw(session: UnitOfWork, url: str, status: int, content_type: str | None, body: bytes,
             fetched_at: datetime, crawl_id: int | None = None) -> int:
    """Keep a response body (gzip) for offline re-parsing; return its id."""
    from sqlalchemy import insert

    from tracker.store.tables import raw_t

    res = session.connection().execute(
        insert(raw_t).values(**_raw_row(RawAnswer(url, status, content_type, body, fetched_at), crawl_id)))
    session.commit()
    pk = res.inserted_primary_key
    assert pk is not None
    return int(pk[0])


def save_raws(session: UnitOfWork, raws: Sequence[RawAnswer], crawl_id: int | None = None) -> None:
    """Keep several response bodies in one statement and one transaction (a crawl's batch of pages:
    one commit, not one per page), in the order given."""
    if raws:
        rows = [_raw_row(r, crawl_id) for r in raws]
        statements(session).many(cs.insert_into("raw_page", tuple(rows[0])), rows)
        session.commit()


def iter_raw(session: UnitOfWork, *, crawl_id: int | None = None, batch: int = 100) -> Iterator[RawPage]:
    """Stored responses in fetch order, decompressed, streamed ``batch`` rows at a time."""
    from sqlalchemy import select

    from tracker.store.tables import raw_t

    q = select(raw_t).order_by(raw_t.c.id)
    if crawl_id is not None:
        q = q.where(raw_t.c.crawl_id == crawl_id)
    for m in session.connection().execute(q.execution_options(yield_per=batch)).mappings():
        yield RawPage(id=m["id"], url=m["url"], status=m["status"], content_type=m["content_type"],
                      body=gzip.decompress(m["body_gz"]), fetched_at=m["fetched_at"], crawl_id=m["crawl_id"])


# -- lookups for cards and the roster check (the service asks; only the store reads the tables) -----

def post_by_pid(session: UnitOfWork, pid: int) -> tuple[int, int, datetime, str] | None:
    """(pid, tid, posted_at, html hash) of a stored post, or None."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    row = session.connection().execute(
        select(post_t.c.pid, post_t.c.tid, post_t.c.posted_at, post_t.c.html_hash).where(post_t.c.pid == pid)).first()
    return None if row is None else (int(row[0]), int(row[1]), _utc(row[2]), str(row[3]))


def post_at_floor(session: UnitOfWork, tid: int, floor: int) -> tuple[int, int, datetime, str] | None:
    """The post a page shows at ``tid#floor`` (a visible one before a deleted one), or None."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    rows = session.connection().execute(
        select(post_t.c.pid, post_t.c.tid, post_t.c.posted_at, post_t.c.html_hash)
        .where(post_t.c.tid == tid, post_t.c.floor == floor).order_by(post_t.c.deleted)).all()
    if not rows:
        return None
    r = rows[0]
    return int(r[0]), int(r[1]), _utc(r[2]), str(r[3])


def places_of(session: UnitOfWork, pids: Sequence[int]) -> dict[int, tuple[int, int, datetime]]:
    """pid → (tid, floor, posted_at), in one query: a card's 帖 and 楼."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    rows = session.connection().execute(select(post_t.c.pid, post_t.c.tid, post_t.c.floor, post_t.c.posted_at)
                                        .where(post_t.c.pid.in_(list(pids))))
    return {int(r[0]): (int(r[1]), int(r[2]), _utc(r[3])) for r in rows}


def uids_by_author(session: UnitOfWork, names: Sequence[str]) -> dict[str, int]:
    """name → uid from any stored post of that account (any thread)."""
    from sqlalchemy import select

    from tracker.store.tables import post_t

    rows = session.connection().execute(
        select(post_t.c.author, post_t.c.uid).where(post_t.c.author.in_(list(names)), post_t.c.uid.is_not(None))
        .group_by(post_t.c.author, post_t.c.uid))
    return {str(r[0]): int(r[1]) for r in rows}


def posts_per_author(session: UnitOfWork, tids: Sequence[int]) -> dict[str, int]:
    """author → visible posts in ``tids`` (one GROUP BY): who posts in the game's threads."""
    rows = statements(session).rows(cs.POSTS_PER_AUTHOR, {"in_tids": list(tids)})
    return {str(r[0]): int(r[1]) for r in rows}


def _utc(at: datetime) -> datetime:
    """SQLite gives back naive datetimes for what was stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
