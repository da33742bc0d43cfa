"""潜水 counts from the store's GROUP BY agree with counting the posts themselves, at the edges too."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tui_demo import open_demo

from tracker.penalties.lurk import LurkWindow, count_posts
from tracker.records import Post
from tracker.store.posts import posts_for_thread, upsert_posts


def test_store_counts_equal_counting_posts_including_a_post_at_the_close(tmp_path: Path) -> None:
    svc = open_demo(tmp_path)
    try:
        d2 = svc.game.day(2)
        assert d2.discussion is not None
        who = svc.game.player_names[0]
        before = svc.lurking.lurkers(2).posts[who]
        edge = [Post(pid=990001, tid=d2.discussion, floor=900, author=who, uid=None, posted_at=d2.closes,
                     html="x", text="关门那一秒"),
                Post(pid=990002, tid=d2.discussion, floor=901, author=who, uid=None,
                     posted_at=d2.closes + timedelta(seconds=1), html="x", text="晚了一秒")]
        with svc.store.session() as s:
            upsert_posts(s, edge, seen_at=d2.closes + timedelta(minutes=5))
        for d in svc.game.days:
            rep = svc.lurking.lurkers(d.day)
            status = svc.log.day_status(d.day, requests=False)
            with svc.store.session() as s:
                posts = [p.to_post() for p in posts_for_thread(s, d.discussion or 0, include_deleted=False)]
            window = LurkWindow(day=d.day, discussion_tid=d.discussion, opens=status.opens, closes=status.closes)
            assert rep.posts == count_posts(posts, window, list(rep.posts))
        # the post at 22:00:00 counts, the one a second later does not
        assert svc.lurking.lurkers(2).posts[who] == before + 1
    finally:
        svc.close()
