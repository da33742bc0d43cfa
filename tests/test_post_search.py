"""The 帖子 screen's page query: pages taken one after another give every matching post once, in forum order."""

from __future__ import annotations

from pathlib import Path

from tui_demo import open_demo


def test_pages_cover_every_post_in_time_order_with_filters(tmp_path: Path) -> None:
    svc = open_demo(tmp_path)
    try:
        for kw in ({}, {"author": "泡泡"}, {"day": 1}, {"text": "投票对象"}):
            total = svc.browsing.search_posts(**kw, limit=1).total  # type: ignore[arg-type]
            seen = []
            for offset in range(0, total + 7, 7):
                page = svc.browsing.search_posts(**kw, offset=offset, limit=7)  # type: ignore[arg-type]
                assert page.total == total
                seen.extend(page.posts)
            everything = svc.browsing.search_posts(**kw, limit=10_000).posts  # type: ignore[arg-type]
            assert [p.pid for p in seen] == [p.pid for p in everything]
            assert [(p.posted_at, p.pid) for p in seen] == sorted((p.posted_at, p.pid) for p in seen)
            assert total > 0 and len({p.pid for p in seen}) == total
    finally:
        svc.close()
