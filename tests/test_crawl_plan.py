"""The request plan, as a pure function: a listing and what the store knows in, pages out."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from tracker.clock import SHANGHAI
from tracker.records import Post
from tracker.scraper.mobile import parse_viewthread
from tracker.scraper.plan import Listing, follow_up_pages, listing_complete, page_of, plan_thread
from tracker.store.posts import KnownPost, ThreadState, content_key

GROWTH = Path(__file__).parent / "fixtures" / "discuz" / "growth"


def post(pid: int, floor: int, text: str = "", *, blocked: bool = False, source: str = "mobile") -> Post:
    return Post(pid=pid, tid=9, floor=floor, author="泡泡", uid=2, posted_at=datetime(2025, 4, 12, tzinfo=SHANGHAI),
                html=text, text=text or f"帖子 {pid}", position=floor, blocked=blocked, source=source)  # type: ignore[arg-type]


def known(p: Post, *, has_desktop: bool = True, **kw: object) -> KnownPost:
    k = KnownPost(content_key(p), p.floor, p.position, has_desktop, p.blocked, False)
    return k._replace(**kw)  # type: ignore[arg-type]


def state(*items: tuple[Post, KnownPost]) -> ThreadState:
    return ThreadState(9, "t", None, None, None, None, {p.pid: k for p, k in items})


def listing(*posts: Post, complete: bool = True) -> Listing:
    return Listing(tid=9, subject="t", posts=posts, replies=len(posts) - 1, maxposition=None, complete=complete)


def test_pages_follow_floors() -> None:
    assert [page_of(f) for f in (1, 10, 11, 20, 21, 95)] == [1, 1, 2, 2, 3, 10]
    assert page_of(11, per_page=20) == 1


def test_a_new_thread_needs_every_page_holding_posts() -> None:
    posts = [post(100 + i, i) for i in range(1, 24)]
    plan = plan_thread(listing(*posts), state())
    assert plan.desktop_pages == (1, 2, 3) and len(plan.new) == 23 and not plan.changed


def test_an_unchanged_thread_needs_nothing() -> None:
    posts = [post(100 + i, i) for i in range(1, 24)]
    plan = plan_thread(listing(*posts), state(*((p, known(p)) for p in posts)))
    assert plan.quiet and plan.desktop_pages == ()


def test_an_edit_on_an_early_page_fetches_that_page_only() -> None:
    posts = [post(100 + i, i) for i in range(1, 31)]
    st = state(*((p, known(p)) for p in posts))
    edited = replace(posts[4], text="改过的内容")
    plan = plan_thread(listing(*posts[:4], edited, *posts[5:]), st)
    assert plan.changed == (105,) and plan.desktop_pages == (1,)


def test_a_deletion_renumbers_without_refetching_and_is_marked() -> None:
    posts = [post(100 + i, i) for i in range(1, 23)]
    st = state(*((p, known(p)) for p in posts))
    after = [replace(p, floor=p.floor - 1 if p.floor > 3 else p.floor) for p in posts if p.pid != 103]
    plan = plan_thread(listing(*after), st)
    assert plan.deleted == (103,) and plan.desktop_pages == ()
    assert set(plan.refloored) == {p.pid for p in after if p.floor >= 3}


def test_an_incomplete_listing_marks_no_deletion() -> None:
    posts = [post(100 + i, i) for i in range(1, 23)]
    st = state(*((p, known(p)) for p in posts))
    plan = plan_thread(listing(*posts[:10], complete=False), st)
    assert plan.deleted == ()


def test_a_block_is_a_change_that_needs_no_desktop_page() -> None:
    posts = [post(100 + i, i) for i in range(1, 5)]
    st = state(*((p, known(p)) for p in posts))
    blocked = replace(posts[1], blocked=True, text="")
    plan = plan_thread(listing(posts[0], blocked, *posts[2:]), st)
    assert plan.changed == (102,) and plan.desktop_pages == ()


def test_posts_seen_only_on_mobile_are_pending_until_a_desktop_page_shows_them() -> None:
    posts = [post(100 + i, i) for i in range(1, 16)]
    st = state(*((p, known(p, has_desktop=p.floor <= 10)) for p in posts))
    plan = plan_thread(listing(*posts), st)
    assert plan.desktop_pages == (2,) and plan.pending == tuple(range(111, 116)) and not plan.new


def test_new_posts_are_placed_by_their_new_floors() -> None:
    posts = [post(100 + i, i) for i in range(1, 21)]
    st = state(*((p, known(p)) for p in posts))
    # floor 3 deleted, so the new post lands on floor 20 (page 2), not 21 (page 3)
    after = [replace(p, floor=p.floor - 1 if p.floor > 3 else p.floor) for p in posts if p.pid != 103]
    plan = plan_thread(listing(*after, post(200, 20)), st)
    assert plan.new == (200,) and plan.desktop_pages == (2,)


def test_the_real_growth_listing_against_the_first_epoch() -> None:
    """epoch1's listing as the store, epoch2's listing as fresh: the README's minimum pages."""
    old = parse_viewthread((GROWTH / "epoch1" / "discussion.mobile-ppp200.json").read_bytes())
    new = parse_viewthread((GROWTH / "epoch2" / "discussion.mobile-ppp200.json").read_bytes())
    st = state(*((p, known(p)) for p in old.posts))
    fresh = Listing(tid=14, subject=new.subject, posts=new.posts, replies=new.replies,
                    maxposition=new.maxposition, complete=listing_complete(new.posts))
    plan = plan_thread(fresh, st)
    assert fresh.complete
    assert plan.deleted == (588,)
    assert set(plan.changed) == {580, 581, 591}
    assert len(plan.new) == 14 and plan.desktop_pages == (1, 2, 3, 4)


def test_listing_completeness_is_floors_one_to_n() -> None:
    assert listing_complete([post(1, 1), post(2, 2), post(3, 3)])
    assert not listing_complete([post(1, 1), post(3, 3)])
    assert not listing_complete([])


def test_follow_up_looks_next_door() -> None:
    missing = [post(150, 21)]
    assert follow_up_pages(missing, {}, 10) == (3,)
    assert follow_up_pages(missing, {3: []}, 10) == (2,)  # a deletion moved it back a page
    assert follow_up_pages(missing, {2: [], 3: []}, 10) == (4,)
    assert follow_up_pages(missing, {1: []}, 20) == (2,)  # the forum shows 20 a page
