"""Post upserts: idempotent, every content kept as a version, deletions flagged, sources merged.

Hand-built records pin each merge rule on its own; ``test_store_growth.py`` replays the real pages.
Every test runs on SQLite and, with TRACKER_TEST_PG_URL, on PostgreSQL (the ``store`` fixture).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from tracker.clock import SHANGHAI
from tracker.records import FontUse, Post, Quote
from tracker.store.db import Store
from tracker.store.posts import (
    all_posts,
    content_key,
    mark_deleted,
    needs_desktop,
    observation_changed,
    post_versions,
    posts_for_thread,
    posts_for_threads,
    thread_state,
    upsert_posts,
)

T0 = datetime(2025, 4, 12, 10, 0, tzinfo=SHANGHAI)
BLOCKED_TEXT = ""  # what the parsers leave of a blocked post: no body


def desktop(pid: int, floor: int, text: str, *, tid: int = 14, author: str = "泡泡", **kw: object) -> Post:
    return Post(pid=pid, tid=tid, floor=floor, author=author, uid=2, posted_at=T0 + timedelta(minutes=pid),
                html=f"<div>{text}</div>", text=text, source="desktop", **kw)  # type: ignore[arg-type]


def mobile(post: Post, position: int, **kw: object) -> Post:
    """The same post as the mobile API gives it: a position, no sizes, fonts or edit marker."""
    return replace(post, position=position, html=post.text.replace("\n", "<br />"), edited_by=None,
                   edited_at=None, sizes=(), colors=(), fonts=(), source="mobile", **kw)  # type: ignore[arg-type]


def thread(n: int, tid: int = 14) -> list[Post]:
    return [desktop(100 + i, i, f"第{i}楼的发言", tid=tid) for i in range(1, n + 1)]


def test_upsert_is_idempotent(store: Store) -> None:
    posts = thread(5)
    with store.session() as s:
        first = upsert_posts(s, posts, seen_at=T0)
        again = upsert_posts(s, posts, seen_at=T0 + timedelta(hours=1))
    assert first.new_pids == [p.pid for p in posts]
    assert (again.new_pids, again.changed_pids, again.refloored_pids, again.unchanged) == ([], [], [], 5)
    with store.session() as s:
        stored = posts_for_thread(s, 14)
        assert [len(post_versions(s, p.pid)) for p in posts] == [1] * 5
    assert [p.versions for p in stored] == [1] * 5
    assert all(p.last_seen == T0 + timedelta(hours=1) and p.first_seen == T0 for p in stored)
    assert [p.to_post() for p in stored] == [replace(p, source="store") for p in posts]


def test_author_edit_keeps_every_version_with_the_time_seen(store: Store) -> None:
    post = desktop(200, 6, "卧槽 你就是狼")
    edited = replace(post, text="你这发言有点划水，我先记一笔。", html="<i>本帖最后由 泡泡 于 2025-4-12 13:03 编辑</i>...",
                     edited_by="泡泡", edited_at=T0 + timedelta(hours=3))
    again = replace(edited, text="第三个版本")
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [edited], seen_at=T0 + timedelta(hours=4), crawl_id=None)
        upsert_posts(s, [again], seen_at=T0 + timedelta(hours=5))
        versions = post_versions(s, 200)
        [stored] = posts_for_thread(s, 14)
    assert r.changed_pids == [200] and r.new_pids == []
    assert [v.text for v in versions] == [post.text, edited.text, again.text]
    assert [v.kind for v in versions] == ["first", "edit", "edit"]
    assert [v.seen_at for v in versions] == [T0, T0 + timedelta(hours=4), T0 + timedelta(hours=5)]
    assert versions[1].edited_by == "泡泡" and versions[1].edited_at == T0 + timedelta(hours=3)
    assert stored.text == again.text and stored.versions == 3
    assert stored.content_key == content_key(again)


def test_admin_edit_without_marker_is_detected(store: Store) -> None:
    post = desktop(300, 17, "我看到导演私聊说栗子是狼")
    silent = replace(post, text="（内容已被导演删除）", html="<div>（内容已被导演删除）</div>")
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [silent], seen_at=T0 + timedelta(hours=1))
        versions = post_versions(s, 300)
    assert r.changed_pids == [300]
    assert [v.text for v in versions] == [post.text, silent.text]
    assert versions[1].edited_by is None and versions[1].edited_at is None


def test_whitespace_only_differences_are_not_edits(store: Store) -> None:
    post = desktop(310, 1, "投票对象：包子\n理由：划水")
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [mobile(replace(post, text="投票对象：包子\r\n理由：\u00a0划水 "), 1)],
                         seen_at=T0 + timedelta(hours=1))
    assert r.changed_pids == [] and r.unchanged == 1


def test_quoting_another_post_changes_the_content(store: Store) -> None:
    post = desktop(320, 3, "改票：饺子", quotes=(Quote(pid=600, author="花千树", posted_at=None, text="投票对象：包子"),))
    requoted = replace(post, quotes=(Quote(pid=601, author="花千树", posted_at=None, text="投票对象：包子"),))
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [requoted], seen_at=T0 + timedelta(hours=1))
        [stored] = posts_for_thread(s, 14)
    assert r.changed_pids == [320]
    assert stored.quotes == requoted.quotes


def test_deleted_post_is_flagged_never_removed(store: Store) -> None:
    posts = thread(5)
    with store.session() as s:
        upsert_posts(s, posts, seen_at=T0)
        gone = mark_deleted(s, 14, [p.pid for p in posts if p.pid != 103], seen_at=T0 + timedelta(hours=2))
        again = mark_deleted(s, 14, [p.pid for p in posts if p.pid != 103], seen_at=T0 + timedelta(hours=3))
        everything = posts_for_thread(s, 14)
        visible = posts_for_thread(s, 14, include_deleted=False)
        state = thread_state(s, 14)
    assert gone == [103] and again == []
    assert [p.pid for p in everything] == [101, 102, 103, 104, 105]
    deleted = next(p for p in everything if p.pid == 103)
    assert deleted.deleted and deleted.deleted_seen_at == T0 + timedelta(hours=2)
    assert deleted.text == posts[2].text
    assert [p.pid for p in visible] == [101, 102, 104, 105]
    assert state.known[103].deleted and state.listed_at == T0 + timedelta(hours=3)


def test_mark_deleted_refuses_an_empty_listing(store: Store) -> None:
    with store.session() as s:
        upsert_posts(s, thread(2), seen_at=T0)
        with pytest.raises(ValueError):
            mark_deleted(s, 14, [], seen_at=T0)


def test_a_deleted_post_that_reappears_is_restored_and_recorded(store: Store) -> None:
    posts = thread(3)
    with store.session() as s:
        upsert_posts(s, posts, seen_at=T0)
        mark_deleted(s, 14, [101, 103], seen_at=T0 + timedelta(hours=1))
        r = upsert_posts(s, posts, seen_at=T0 + timedelta(hours=2))
        [_, back, _] = posts_for_thread(s, 14)
        kinds = [v.kind for v in post_versions(s, 102)]
    assert r.restored_pids == [102] and r.changed_pids == [102]
    assert not back.deleted and back.deleted_seen_at is None and back.versions == 1
    assert kinds == ["first", "restored"]


def test_renumbered_floors_update_without_versions(store: Store) -> None:
    posts = thread(6)
    renumbered = [replace(p, floor=p.floor - 1) if p.floor > 3 else p for p in posts if p.floor != 3]
    with store.session() as s:
        upsert_posts(s, posts, seen_at=T0)
        r = upsert_posts(s, renumbered, seen_at=T0 + timedelta(hours=1))
        floors = {p.pid: p.floor for p in posts_for_thread(s, 14)}
        version_counts = {p.pid: len(post_versions(s, p.pid)) for p in posts}
    assert r.refloored_pids == [104, 105, 106] and r.changed_pids == [] and r.unchanged == 2
    assert floors == {101: 1, 102: 2, 103: 3, 104: 3, 105: 4, 106: 5}
    assert set(version_counts.values()) == {1}


def test_block_and_unblock_are_recorded_and_the_text_kept(store: Store) -> None:
    post = desktop(400, 7, "你们都是傻子")
    blocked = replace(mobile(post, 7), text=BLOCKED_TEXT, html="提示: <em>该帖被管理员或版主屏蔽</em>", blocked=True)
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [blocked], seen_at=T0 + timedelta(hours=1))
        again = upsert_posts(s, [blocked], seen_at=T0 + timedelta(hours=2))
        [stored] = posts_for_thread(s, 14)
        known = thread_state(s, 14).known[400]
        r2 = upsert_posts(s, [post], seen_at=T0 + timedelta(hours=3))
        [unblocked] = posts_for_thread(s, 14)
        versions = post_versions(s, 400)
    assert r.blocked_pids == [400] and r.changed_pids == [400]
    assert again.changed_pids == [] and again.unchanged == 1
    assert stored.blocked and stored.text == post.text and stored.html == post.html and stored.versions == 1
    assert known.blocked and not observation_changed(known, blocked) and not needs_desktop(known, blocked)
    assert r2.changed_pids == [400] and not unblocked.blocked
    assert [(v.kind, v.blocked) for v in versions] == [("first", False), ("blocked", True), ("unblocked", False)]


def test_mobile_then_desktop_keeps_sizes_and_fills_the_marker(store: Store) -> None:
    full = desktop(500, 9, "大字报", sizes=("7",), colors=("red",), fonts=(FontUse("red", "7", "大字报"),),
                   edited_by="栗子", edited_at=T0 + timedelta(hours=1))
    seen_mobile = mobile(full, 9)
    with store.session() as s:
        upsert_posts(s, [seen_mobile], seen_at=T0)
        before = thread_state(s, 14).known[500]
        r = upsert_posts(s, [full], seen_at=T0 + timedelta(hours=1))
        r2 = upsert_posts(s, [seen_mobile], seen_at=T0 + timedelta(hours=2))
        [stored] = posts_for_thread(s, 14)
        after = thread_state(s, 14).known[500]
        versions = post_versions(s, 500)
    assert not before.has_desktop and needs_desktop(before, full)
    assert r.changed_pids == [] and r2.changed_pids == []
    assert stored.sizes == ("7",) and stored.colors == ("red",) and stored.fonts == full.fonts
    assert stored.edited_by == "栗子" and stored.position == 9 and stored.html == full.html
    assert after.has_desktop and not needs_desktop(after, seen_mobile)
    assert len(versions) == 1 and stored.versions == 1


def test_desktop_then_mobile_keeps_the_edit_marker(store: Store) -> None:
    full = desktop(510, 4, "投票对象：栗子", edited_by="饺子", edited_at=T0 + timedelta(hours=4), sizes=("2",))
    with store.session() as s:
        upsert_posts(s, [full], seen_at=T0)
        r = upsert_posts(s, [mobile(full, 4)], seen_at=T0 + timedelta(hours=1))
        [stored] = posts_for_thread(s, 14)
    assert r.changed_pids == [] and r.unchanged == 1
    assert stored.edited_by == "饺子" and stored.edited_at == T0 + timedelta(hours=4)
    assert stored.sizes == ("2",) and stored.html == full.html and stored.position == 4


def test_edit_seen_first_on_mobile_asks_for_the_desktop_page(store: Store) -> None:
    post = desktop(520, 5, "投票对象：包子")
    edited = replace(post, text="投票对象：栗子", edited_by="饺子", edited_at=T0 + timedelta(hours=1),
                     html="<i>本帖最后由 饺子 于 2025-4-12 11:00 编辑</i>投票对象：栗子")
    with store.session() as s:
        upsert_posts(s, [post], seen_at=T0)
        r = upsert_posts(s, [mobile(edited, 5)], seen_at=T0 + timedelta(hours=2))
        known = thread_state(s, 14).known[520]
        r2 = upsert_posts(s, [edited], seen_at=T0 + timedelta(hours=2, minutes=1))
        [stored] = posts_for_thread(s, 14)
        versions = post_versions(s, 520)
    assert r.changed_pids == [520] and not known.has_desktop and needs_desktop(known, edited)
    assert r2.changed_pids == []
    assert stored.edited_by == "饺子" and stored.has_desktop and stored.versions == 2
    assert [(v.kind, v.source) for v in versions] == [("first", "desktop"), ("edit", "mobile")]


def test_formatting_edit_on_desktop_is_a_version(store: Store) -> None:
    big = desktop(530, 8, "大家看这里", sizes=("7",), fonts=(FontUse(None, "7", "大家看这里"),))
    shrunk = replace(big, sizes=(), fonts=(), edited_by="包子", edited_at=T0 + timedelta(hours=1))
    with store.session() as s:
        upsert_posts(s, [big], seen_at=T0)
        r = upsert_posts(s, [shrunk], seen_at=T0 + timedelta(hours=2))
        versions = post_versions(s, 530)
    assert r.changed_pids == [530]
    assert [v.sizes for v in versions] == [["7"], []]


def test_duplicates_in_one_call_are_merged(store: Store) -> None:
    post = desktop(540, 38, "最后一页")
    with store.session() as s:  # page=999 answers the last page again
        r = upsert_posts(s, [post, post, mobile(post, 39)], seen_at=T0)
        [stored] = posts_for_thread(s, 14)
    assert r.new_pids == [540] and r.changed_pids == [] and stored.position == 39


def test_a_failing_batch_writes_nothing(store: Store) -> None:
    good = thread(3)
    naive = replace(good[2], posted_at=datetime(2025, 4, 12, 10, 0))
    with pytest.raises(ValueError), store.session() as s:
        upsert_posts(s, [*good[:2], naive], seen_at=T0)
    with store.session() as s:
        assert all_posts(s) == []


def test_seen_at_must_be_aware(store: Store) -> None:
    with pytest.raises(ValueError), store.session() as s:
        upsert_posts(s, thread(1), seen_at=datetime(2025, 4, 12))


def test_posts_of_several_threads_in_thread_then_post_order(store: Store) -> None:
    with store.session() as s:
        upsert_posts(s, [*thread(2, tid=15)[::-1], *thread(0), desktop(90, 1, "a", tid=14)], seen_at=T0)
        upsert_posts(s, [desktop(1, 1, "b", tid=3)], seen_at=T0)
        got = [(p.tid, p.pid) for p in posts_for_threads(s, [15, 14])]
        every = [(p.tid, p.pid) for p in all_posts(s)]
    assert got == [(14, 90), (15, 101), (15, 102)]
    assert every == [(3, 1), *got]
