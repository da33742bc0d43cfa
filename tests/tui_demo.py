"""The demo game for the TUI tests and benchmark: a game file beside a store filled from the real pages.

Until a crawl runs, the store is filled the way a crawl would fill it: every saved desktop page of
the game's threads parsed (tracker.scraper.desktop) and upserted (tracker.store.posts). Night 1 is
settled as the demo settles it (tracker.demo.nights: submitted through the night desk and confirmed),
so 阿狸 and 老王 are out on day 2. The clock is frozen on day 2, 18:47:20, so countdowns and
snapshots are the same on every run.
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path

from tests.captured_pages import PAGES
from tracker.clock import SHANGHAI, FrozenClock
from tracker.demo.nights import play_nights
from tracker.service import Service

ROOT = Path(__file__).resolve().parent.parent
DEMO_GAME = ROOT / "tracker" / "demo" / "data" / "game.toml"
FROZEN_AT = datetime(2025, 3, 4, 18, 47, 20, tzinfo=SHANGHAI)
_PAGE = re.compile(r"^(rules|process|day\d-discussion|day\d-vote)-p\d+\.html$")


def demo_pages() -> list[Path]:
    return sorted(p for p in PAGES.iterdir() if _PAGE.match(p.name))


def fill_store(service: Service) -> int:
    from tracker.scraper.desktop import parse_thread_page
    from tracker.store.posts import upsert_posts

    n = 0
    for path in demo_pages():
        page = parse_thread_page(path.read_bytes(), content_type="text/html; charset=utf-8")
        with service.store.session() as s:
            upsert_posts(s, page.posts, seen_at=FROZEN_AT)
        n += len(page.posts)
    return n


def open_demo(tmp: Path, *, filled: bool = True, at: datetime = FROZEN_AT) -> Service:
    game = tmp / "game.toml"
    shutil.copy(DEMO_GAME, game)
    service = Service.open(game, db_url=f"sqlite:///{tmp / 'game.db'}", clock=FrozenClock(at))
    play_nights(service)  # night 1: 阿狸 and 老王 out
    if filled:
        fill_store(service)
        service.flag_review.detect_flags()  # as `tracker crawl --detect` (the TUI's crawl) does after storing
    return service
