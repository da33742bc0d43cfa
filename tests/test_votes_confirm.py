"""Confirming a day with two vote threads (213 day 1: 警长 and 牧首) never writes half a day twice."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tracker.cli.state import render_game_file
from tracker.clock import SHANGHAI, FrozenClock
from tracker.engine.events import EventDraft
from tracker.errors import GameRuleError
from tracker.records import Post
from tracker.service import Service
from tracker.store.events import append_event
from tracker.store.posts import upsert_posts


def at(day: int, hh: int) -> datetime:
    return datetime(2025, 3, day, hh, tzinfo=SHANGHAI)


@pytest.fixture
def svc(tmp_path: Path) -> Service:
    text = render_game_file("sanguo-213", name="三国", forum="http://127.0.0.1:9/", director="导演A", opens=at(3, 10))
    text = text.replace("# discussion = 4", "discussion = 4").replace("# vote = [5, 6]", "vote = [5, 6]")
    (tmp_path / "g.toml").write_text(text, encoding="utf-8")
    service = Service.open(tmp_path / "g.toml", db_url=f"sqlite:///{tmp_path / 'g.db'}", clock=FrozenClock(at(4, 23)))
    names = service.game.player_names
    posts = [Post(pid=500 + i, tid=5, floor=2 + i, author=names[i], uid=None, posted_at=at(3, 12), html="",
                  text=f"投票对象：{names[0]}\n投票理由：稳") for i in range(3)]
    posts += [Post(pid=600 + i, tid=6, floor=2 + i, author=names[i], uid=None, posted_at=at(3, 12), html="",
                   text=f"投票对象：{names[1]}\n投票理由：看好") for i in range(3)]
    with service.store.session() as s:
        upsert_posts(s, posts, seen_at=at(4, 23))
    return service


def _events(svc: Service) -> list[tuple[str, str | None, object]]:
    return [(e.kind, e.player, e.get("vote_tid")) for e in svc.log.events() if e.get("vote_tid") is not None]


def test_a_second_confirmation_of_the_whole_day_is_refused_before_writing(svc: Service) -> None:
    first = svc.votes.confirm_day(1)
    assert [r.tid for r in first] == [5, 6]
    recorded = _events(svc)
    with pytest.raises(GameRuleError, match="已经确认过"):
        svc.votes.confirm_day(1)
    assert _events(svc) == recorded


def test_a_thread_confirmed_earlier_is_skipped_and_the_other_recorded(svc: Service) -> None:
    with svc.store.session() as s:
        append_event(s, EventDraft(at=at(4, 22), kind="note", data={"vote_tid": 6, "day": 1, "text": "已确认"}))
    results = svc.votes.confirm_day(1)
    assert [(r.tid, r.already_confirmed) for r in results] == [(5, False), (6, True)]
    tids = [tid for _, _, tid in _events(svc)]
    assert tids.count(6) == 1 and 5 in tids
