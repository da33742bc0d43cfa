"""A re-crawl extracts only the listed messages that changed (issue 22, item 9).

Each post keeps the digest of the message its last listing showed (``post.listing_digest``); a
listing that shows the same message again gives only the post's place, and its HTML is not parsed
again. Whatever it saves, the store must end exactly as if every message had been extracted: edits
(Discuz rewrites the message, with or without its 本帖最后由 … 编辑 marker), blocks, deletions,
restores. Served from the growth fixtures (``growth/epoch1`` → ``epoch2``: posts new, edited by
their author and by the administrator, deleted, blocked).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import test_crawl_growth
from sqlalchemy import func, select, update

import tracker.scraper.mobile as mobile
from tracker.config import GameConfig
from tracker.demo.server import ReplayForum
from tracker.records import Post
from tracker.scraper.crawl import crawl_game_sync
from tracker.scraper.mobile import message_digest, parse_viewthread
from tracker.store.db import Store
from tracker.store.posts import all_posts, post_versions
from tracker.store.tables import post_t

GROWTH = Path(__file__).parent / "fixtures" / "discuz" / "growth"
#: The growth forum and game, defined once in test_crawl_growth (pytest collects fixtures by name).
forum = test_crawl_growth.forum
game = test_crawl_growth.game
SCENARIO = json.loads((GROWTH / "scenario.json").read_text(encoding="utf-8"))
CHANGES = SCENARIO["changes_between_epochs"]
EDITED = CHANGES["edited_by_author_with_marker"] + CHANGES["edited_by_admin_without_marker"]
LISTINGS = ("discussion.mobile-ppp200.json", "vote.mobile-ppp200.json")


def messages(epoch: str) -> dict[int, Any]:
    """pid → the message each listing of the epoch shows."""
    out: dict[int, Any] = {}
    for name in LISTINGS:
        for item in json.loads((GROWTH / epoch / name).read_bytes())["Variables"]["postlist"]:
            out[int(item["pid"])] = item.get("message")
    return out


@pytest.fixture
def extracted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids whose listed message the mobile parser extracts, in order."""
    pids: list[int] = []
    parse = mobile._parse_post

    def counting(item: Any, tid: int | None, **kw: Any) -> Post:
        post = parse(item, tid, **kw)
        pids.append(post.pid)
        return post

    monkeypatch.setattr(mobile, "_parse_post", counting)
    return pids


def test_the_second_crawl_extracts_only_the_messages_that_changed(tmp_path: Path, game: GameConfig,
                                                                  forum: ReplayForum, extracted: list[int]) -> None:
    store = test_crawl_growth.open_store(tmp_path, "g.db")
    try:
        assert crawl_game_sync(game, store).status == "ok"
        first = set(extracted)
        assert first == set(messages("epoch1"))  # nothing stored yet: every message read
        extracted.clear()
        forum.switch(GROWTH / "epoch2")
        report = crawl_game_sync(game, store)
        assert report.status == "ok"
        old, new = messages("epoch1"), messages("epoch2")
        differ = {pid for pid, m in new.items() if pid not in old or old[pid] != m}
        # what Discuz changed in a message: new posts, edits with and without the marker, the block
        assert set(CHANGES["new_posts"]) | set(EDITED) | set(CHANGES["blocked"]) <= differ
        assert sorted(extracted) == sorted(differ)
        assert len(differ) < len(new) / 2
        with store.session() as s:
            stored = {p.pid: p for p in all_posts(s)}
            for pid in EDITED:  # each edit still recorded: a second version with the new text
                versions = post_versions(s, pid)
                assert stored[pid].versions == 2 and len({v.text for v in versions}) == 2
                assert versions[-1].text == stored[pid].text
        for p in SCENARIO["posts"]:
            if not p["expect"]["deleted_in_epoch2"]:
                assert stored[p["pid"]].floor == p["floor_epoch2"], p["pid"]  # the unchanged ones moved too
        assert report.posts_changed == len(EDITED) + len(CHANGES["blocked"])
        assert report.posts_deleted == len(CHANGES["deleted_to_recycle_bin"])
    finally:
        store.close()


def _state(store: Store) -> tuple[dict[int, tuple[Any, ...]], dict[int, list[tuple[Any, ...]]]]:
    """Every post and version as stored, without the times a crawl stamps."""
    with store.session() as s:
        posts = {p.pid: (p.floor, p.position, p.text, p.html, p.quotes, p.sizes, p.edited_by, p.blocked,
                         p.deleted, p.versions, p.content_key, p.has_desktop, p.source) for p in all_posts(s)}
        versions = {pid: [(v.kind, v.source, v.text, v.content_key, v.blocked, v.edited_by)
                          for v in post_versions(s, pid)] for pid in posts}
    return posts, versions


def _crawl_through(game: GameConfig, store: Store, forum: ReplayForum) -> list[Any]:
    states = []
    for epoch in ("epoch1", "epoch2", "epoch1", "epoch2"):  # then back: restores, unblocks, reverts
        forum.switch(GROWTH / epoch)
        assert crawl_game_sync(game, store).status == "ok"
        states.append(_state(store))
    return states


def test_the_store_ends_as_if_every_message_had_been_extracted(tmp_path: Path, game: GameConfig, forum: ReplayForum,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with_skip, without = test_crawl_growth.with_and_without_skip(
        tmp_path, lambda store: _crawl_through(game, store, forum), monkeypatch, "unchanged_if")
    assert with_skip == without


def _digests(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(post_t)
                                .where(post_t.c.listing_digest.is_not(None))).scalar_one())


def test_a_store_without_digests_notes_them_once_then_skips(tmp_path: Path, game: GameConfig, forum: ReplayForum,
                                                            extracted: list[int]) -> None:
    """A store from before the digest (the migration leaves it empty) is read in full once, writing
    nothing but the digests, and skipped from then on."""
    store = test_crawl_growth.open_store(tmp_path, "g.db")
    try:
        crawl_game_sync(game, store)
        listed = len(messages("epoch1"))
        assert _digests(store) == listed
        with store.engine.begin() as conn:
            conn.execute(update(post_t).values(listing_digest=None))
        before = _state(store)
        extracted.clear()
        again = crawl_game_sync(game, store)
        assert len(extracted) == listed and again.posts_changed == again.posts_new == 0
        assert _digests(store) == listed and _state(store) == before
        extracted.clear()
        crawl_game_sync(game, store)
        assert extracted == []
    finally:
        store.close()


def test_the_parser_reads_only_the_place_of_a_message_it_was_given() -> None:
    body = (GROWTH / "epoch2" / "discussion.mobile-ppp200.json").read_bytes()
    items = json.loads(body)["Variables"]["postlist"]
    whole = parse_viewthread(body)
    everything: dict[int, str] = {int(i["pid"]): message_digest(i.get("message")) for i in items}
    assert whole.digests == everything and whole.unchanged == ()
    edited = [pid for pid in EDITED if pid in everything]
    stored = {pid: d for pid, d in everything.items() if pid not in edited}
    page = parse_viewthread(body, stored=stored)
    blocked = {int(i["pid"]) for i in items if int(i.get("status") or 0) & 1}
    assert blocked and edited
    # the edited messages (digest not given) and the blocked one (its placeholder is a change) are read
    assert {p.pid for p in page.posts} == set(edited) | blocked
    by_pid = {p.pid: p for p in whole.posts}
    assert {(u.pid, u.floor, u.position) for u in page.unchanged} == {
        (pid, by_pid[pid].floor, by_pid[pid].position) for pid in stored if pid not in blocked}
    assert (page.page, page.pages, page.replies) == (whole.page, whole.pages, whole.replies)

