"""Two real crawls of the same threads (growth case A) through the desktop parser into the store.

Between the crawls Discuz saw new replies, two author edits, a silent admin edit, a deletion that
renumbered every later floor and a block (``fixtures/discuz/growth/README.md``). The expectations
come from the fixture's ground truth (``scenario.json``), not from this test.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tracker.clock import SHANGHAI
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.mobile import parse_viewthread
from tracker.store.db import Store
from tracker.store.posts import (
    UpsertResult,
    mark_deleted,
    needs_desktop,
    post_versions,
    posts_for_threads,
    save_thread,
    thread_state,
    upsert_posts,
)

EPOCH1 = datetime(2025, 4, 12, 13, 0, tzinfo=SHANGHAI)
EPOCH2 = datetime(2025, 4, 12, 17, 0, tzinfo=SHANGHAI)
_PAGE = re.compile(r"(discussion|vote)-p(\d+)\.html")


def crawl_epoch(store: Store, epoch_dir: Path, seen_at: datetime) -> UpsertResult:
    """Every desktop page of the epoch (p999 repeats the last page: included, it must change nothing)."""
    total = UpsertResult()
    listing: dict[int, set[int]] = {}
    index = json.loads((epoch_dir / "index.json").read_text(encoding="utf-8"))
    for entry in index["files"]:
        if not _PAGE.fullmatch(entry["file"]) or entry["status"] != 200:
            continue
        page = parse_thread_page((epoch_dir / entry["file"]).read_bytes(), page_url=entry["url"],
                                 content_type=entry["content_type"])
        with store.session() as s:
            r = upsert_posts(s, page.posts, seen_at=seen_at)
            save_thread(s, page.tid, page.subject, None, None, page.pages, fid=page.fid, seen_at=seen_at)
        listing.setdefault(page.tid, set()).update(p.pid for p in page.posts)
        total.new_pids += r.new_pids
        total.changed_pids += r.changed_pids
        total.refloored_pids += [p for p in r.refloored_pids if p not in total.refloored_pids]
        total.blocked_pids += r.blocked_pids
    with store.session() as s:
        for tid, pids in listing.items():
            mark_deleted(s, tid, pids, seen_at=seen_at)
    return total


@pytest.fixture
def scenario(growth_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((growth_dir / "scenario.json").read_text(encoding="utf-8"))
    return data


def test_two_crawls_keep_history_and_flag_every_change(store: Store, growth_dir: Path,
                                                       scenario: dict[str, Any]) -> None:
    first = crawl_epoch(store, growth_dir / "epoch1", EPOCH1)
    second = crawl_epoch(store, growth_dir / "epoch2", EPOCH2)
    again = crawl_epoch(store, growth_dir / "epoch2", EPOCH2)

    truth = {p["pid"]: p for p in scenario["posts"]}
    changes = scenario["changes_between_epochs"]
    in_epoch1 = sorted(pid for pid, p in truth.items() if p["floor_epoch1"] is not None)
    edited = sorted(changes["edited_by_author_with_marker"] + changes["edited_by_admin_without_marker"])

    assert sorted(first.new_pids) == in_epoch1
    assert sorted(second.new_pids) == sorted(changes["new_posts"])
    assert sorted(set(second.changed_pids)) == sorted(edited + changes["blocked"])
    assert sorted(second.blocked_pids) == changes["blocked"]
    assert again.new_pids == [] and again.changed_pids == []

    with store.session() as s:
        stored = {p.pid: p for p in posts_for_threads(s, [14, 15])}
        versions = {pid: post_versions(s, pid) for pid in stored}
        state = thread_state(s, 14)

    assert sorted(stored) == sorted(truth)  # nothing removed, the deleted post included
    for pid, p in truth.items():
        post = stored[pid]
        assert post.deleted == p["expect"]["deleted_in_epoch2"], pid
        assert post.blocked == p["expect"]["blocked_in_epoch2"], pid
        if p["floor_epoch2"] is not None:
            assert post.floor == p["floor_epoch2"], pid
        else:
            assert post.floor == p["floor_epoch1"], pid  # the last floor it was seen at
        content_versions = [v for v in versions[pid] if v.kind in ("first", "edit")]
        assert len(content_versions) == (2 if pid in edited else 1), pid
        assert post.versions == len(content_versions), pid

    refloored = sorted(pid for pid, p in truth.items() if p["floor_epoch1"] is not None
                       and p["floor_epoch2"] is not None and p["floor_epoch1"] != p["floor_epoch2"])
    assert sorted(second.refloored_pids) == refloored

    for pid in changes["edited_by_author_with_marker"]:
        who = truth[pid]["expect"]["edited_by"]
        assert stored[pid].edited_by == who and versions[pid][-1].edited_by == who
        assert versions[pid][0].edited_by is None
    for pid in changes["edited_by_admin_without_marker"]:
        assert stored[pid].edited_by is None and versions[pid][0].text != versions[pid][1].text

    [blocked] = changes["blocked"]
    assert [v.kind for v in versions[blocked]] == ["first", "blocked"]
    assert stored[blocked].text == versions[blocked][0].text != ""  # the insult is kept as evidence

    [deleted] = changes["deleted_to_recycle_bin"]
    assert stored[deleted].deleted_seen_at == EPOCH2 and state.known[deleted].deleted
    assert state.pages == 4 and state.subject


def test_mobile_listing_then_only_the_desktop_pages_that_changed(store: Store, growth_dir: Path,
                                                                  scenario: dict[str, Any]) -> None:
    """The incremental crawl the growth README describes: one mobile listing per thread, then desktop pages
    only for posts whose content the store has not seen on desktop (for sizes and edit markers)."""
    crawl_epoch(store, growth_dir / "epoch1", EPOCH1)
    changes = scenario["changes_between_epochs"]
    edited = sorted(changes["edited_by_author_with_marker"] + changes["edited_by_admin_without_marker"])
    epoch2 = growth_dir / "epoch2"

    needed: set[int] = set()
    new: list[int] = []
    changed: list[int] = []
    for name in ("discussion", "vote"):
        listing = parse_viewthread((epoch2 / f"{name}.mobile-ppp200.json").read_bytes())
        with store.session() as s:
            known = thread_state(s, listing.tid).known
            needed |= {p.pid for p in listing.posts if needs_desktop(known.get(p.pid), p)}
            r = upsert_posts(s, listing.posts, seen_at=EPOCH2)
            save_thread(s, listing.tid, listing.subject, listing.replies, listing.maxposition, listing.pages,
                        seen_at=EPOCH2)
            mark_deleted(s, listing.tid, [p.pid for p in listing.posts], seen_at=EPOCH2)
        new += r.new_pids
        changed += r.changed_pids
    assert sorted(new) == sorted(changes["new_posts"])
    assert sorted(changed) == sorted(edited + changes["blocked"])
    assert needed == set(changes["new_posts"]) | set(edited)

    index = json.loads((epoch2 / "index.json").read_text(encoding="utf-8"))
    for entry in index["files"]:
        if not _PAGE.fullmatch(entry["file"]) or entry["status"] != 200 or "999" in entry["file"]:
            continue
        page = parse_thread_page((epoch2 / entry["file"]).read_bytes(), page_url=entry["url"])
        if not needed & {p.pid for p in page.posts}:
            continue
        with store.session() as s:
            r = upsert_posts(s, page.posts, seen_at=EPOCH2)
        assert r.changed_pids == [] and r.new_pids == []  # the listing already recorded every change

    with store.session() as s:
        stored = {p.pid: p for p in posts_for_threads(s, [14, 15])}
        versions = {pid: post_versions(s, pid) for pid in stored}
    for pid in changes["edited_by_author_with_marker"]:
        assert stored[pid].edited_by == scenario_edit(scenario, pid) and stored[pid].has_desktop
    for pid in edited:
        assert stored[pid].versions == 2 and [v.kind for v in versions[pid]] == ["first", "edit"]
    assert all(p.has_desktop for p in stored.values() if not p.blocked)
    assert [p.pid for p in stored.values() if p.deleted] == changes["deleted_to_recycle_bin"]
    assert stored[changes["blocked"][0]].blocked


def scenario_edit(scenario: dict[str, Any], pid: int) -> str:
    return str(next(p for p in scenario["posts"] if p["pid"] == pid)["expect"]["edited_by"])
