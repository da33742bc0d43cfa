"""票型 and 潜水 screens over the demo store (frozen on day 2, 18:47:20), asserted through the service."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from tui_demo import open_demo

from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.ballot_detail import BallotDetail
from tui.screens.dialogs import ConfirmDialog
from tui.screens.lurkers import LurkersPane
from tui.screens.tally import TallyPane
from tui.widgets.ballot_table import BallotTable
from tui.widgets.post_view import PostView
from tui.widgets.sidebar import Sidebar


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def plain(app: TrackerApp, selector: str) -> str:
    """What the widget shows on screen, as text."""
    w = app.screen.query_one(selector)
    strips = w.render_lines(Region(0, 0, w.size.width, w.size.height))
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def vote_events(service: Service, tid: int) -> list[dict[str, Any]]:
    return [e for e in service.log.events_json() if e["data"].get("vote_tid") == tid and not e["undone"]]


async def test_tally_shows_every_ballot_with_its_verdict(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        pane = app.query_one(TallyPane)
        (expected,) = service.votes.tally_day(2)
        assert pane.day == 2 and pane.view is not None
        table = app.query_one(BallotTable)
        assert [b.pid for b in table.rows_] == [cb.ballot.pid for cb in expected.tally.ballots]
        for b, cb in zip(table.rows_, expected.tally.ballots, strict=True):
            assert b.valid == cb.valid and b.reason == (cb.verdict.message if cb.verdict else None)
        invalid = [cb for cb in expected.tally.ballots if not cb.valid]
        assert invalid and app.query_one(Sidebar).badges.get("tally") == len(invalid)
        totals = plain(app, "#tally-totals")
        for name in expected.tally.public_totals:
            assert name in totals
        outcome = plain(app, "#tally-outcome")
        assert expected.tally.outcome.message in outcome and "确认" in outcome and "已确认" not in outcome
        # a change shows the floor it quoted
        change = next(cb for cb in expected.tally.ballots if cb.ballot.change and cb.valid)
        quoted = next(x.ballot.floor for x in expected.tally.ballots if x.ballot.pid in change.ballot.quoted_pids)
        row = next(b for b in table.rows_ if b.pid == change.ballot.pid)
        assert row.quoted_floors == (quoted,)


async def test_t_hides_and_shows_the_true_count(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        assert "实际票数" in plain(app, "#tally-totals")
        await pilot.press("t")
        await pilot.pause()
        assert not app.query_one(TallyPane).show_true and "实际票数" not in plain(app, "#tally-totals")
        await pilot.press("t")
        await pilot.pause()
        assert "实际票数" in plain(app, "#tally-totals")


async def test_enter_shows_the_post_and_the_voters_history(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        table = app.query_one(BallotTable)
        changer = next(b for b in table.rows_ if b.change)
        table.move_cursor(row=table.rows_.index(changer))
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BallotDetail)
        assert app.screen.query_one(PostView).post.pid == changer.pid
        mine = [b.pid for b in table.rows_ if b.voter == changer.voter]
        assert len(mine) >= 2 and [b.pid for b in app.screen.history] == mine
        history = plain(app, "#ballot-history")
        assert all(f"{b.floor} 楼" in history for b in app.screen.history)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, BallotDetail)


async def test_y_confirms_once_and_a_second_time_is_refused(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    tid = service.game.day(2).vote[0]
    expected = service.votes.tally_day(2)[0].tally.outcome
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # cancelled: nothing written
        await settle(pilot)
        assert vote_events(service, tid) == []
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("enter")  # focus starts on 取消: Enter writes nothing
        await settle(pilot)
        assert vote_events(service, tid) == []
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("y")  # the dialog's own key for 确认
        await settle(pilot)
        recorded = vote_events(service, tid)
        # the exile, settled at the night desk with what it sets off (here nothing more)
        assert [(e["kind"], e["player"]) for e in recorded] == [
            ("night_action", None), ("eliminated", expected.player), ("night_settled", None)]
        assert service.log.state().players[expected.player or ""].status == "out"
        assert "已确认" in plain(app, "#tally-outcome")
        await pilot.press("y")  # confirmed already: no dialog is offered, a notice says so
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        assert len(vote_events(service, tid)) == 3
        notes = [n.message for n in app._notifications]
        assert any("已确认过" in m for m in notes), notes
        assert app.query_one(TallyPane).is_mounted  # no traceback, the app still runs


async def test_b_copies_and_writes_the_bbcode(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2", "b")
        await settle(pilot)
        path = service.reports.reports_dir() / "day2-tally.bbcode"
        text = path.read_text("utf-8")
        assert text == service.reports.report_bbcode(2, "tally") and "[b]" in text
        assert app.clipboard == text
        assert any(str(path) in n.message for n in app._notifications)


async def test_day_keys_move_between_vote_days(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        pane = app.query_one(TallyPane)
        assert pane.day == 1 and pane.view is not None and pane.view.day == 1
        assert [s.tid for s in pane.view.sheets] == list(service.game.day(1).vote)
        assert "竞选" in plain(app, "#tally-totals")


async def test_lurkers_screen_counts_against_the_minimum(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    report = service.lurking.lurkers(2)
    minimum = service.ruleset.lurk.min_posts
    under = [p for p, n in report.posts.items() if n < minimum and p not in report.exempt]
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("5")
        await settle(pilot)
        view = app.query_one(LurkersPane).view
        assert view is not None and view.day == 2
        assert {r.player: r.posts for r in view.rows} == report.posts
        assert app.query_one(Sidebar).badges.get("lurkers") == len(under) > 0
        assert "距关门 3:12:40" in plain(app, "#lurk-countdown")
        assert f"低于最少发言数：{len(under)} 人" in plain(app, "#lurk-status")
        pens = plain(app, "#lurk-penalties")
        assert all(p.player in pens and p.words in pens for p in report.penalties)
        invalid_only = next(r for r in view.rows if r.invalid_only)
        assert invalid_only.voted is False and invalid_only.player in report.invalid_only


async def test_two_vote_threads_on_one_day_show_both(tmp_path: Path) -> None:
    """213's day 1 elects 警长 in one thread and 牧首 in another: both counts, both outcomes."""
    from datetime import datetime

    from tracker.cli.state import render_game_file
    from tracker.clock import SHANGHAI, FrozenClock
    from tracker.records import Post
    from tracker.store.posts import upsert_posts

    def at(day: int, hh: int) -> datetime:
        return datetime(2025, 3, day, hh, tzinfo=SHANGHAI)

    text = render_game_file("sanguo-213", name="三国", forum="http://127.0.0.1:9/", director="导演A", opens=at(3, 10))
    text = text.replace("# discussion = 4", "discussion = 4").replace("# vote = [5, 6]", "vote = [5, 6]")
    (tmp_path / "g.toml").write_text(text, encoding="utf-8")
    svc = Service.open(tmp_path / "g.toml", db_url=f"sqlite:///{tmp_path / 'g.db'}", clock=FrozenClock(at(4, 23)))
    names = svc.game.player_names
    posts = [Post(pid=500 + i, tid=5, floor=2 + i, author=names[i], uid=None, posted_at=at(3, 12),
                  html="", text=f"投票对象：{names[0]}\n投票理由：稳") for i in range(3)]
    posts += [Post(pid=600 + i, tid=6, floor=2 + i, author=names[i], uid=None, posted_at=at(3, 12),
                   html="", text=f"投票对象：{names[1 + i % 2]}\n投票理由：看好") for i in range(3)]
    posts.append(Post(pid=700, tid=6, floor=5, author=names[5], uid=None, posted_at=at(3, 13), html="",
                      text="我投玩家01，理由是发言好"))
    with svc.store.session() as s:
        upsert_posts(s, posts, seen_at=at(4, 23))
    try:
        app = TrackerApp(svc, crawl_interval=0)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("2")
            await settle(pilot)
            view = app.query_one(TallyPane).view
            assert view is not None and [s.tid for s in view.sheets] == [5, 6]
            table = app.query_one(BallotTable)
            assert {b.tid for b in table.rows_} == {5, 6} and len(table.rows_) == 7
            assert str(table.columns[next(iter(table.columns))].label) == "帖"
            outcome = plain(app, "#tally-outcome")
            for dt in svc.votes.tally_day(1):
                assert dt.tally.outcome.message in outcome
            assert outcome.count("待确认") == 2  # the day has closed: both wait for `y`
            assert app.query_one(Sidebar).badges.get("tally") == "!"
    finally:
        svc.close()


def test_memo_computes_once_until_cleared_or_expired() -> None:
    import threading

    from tui.memo import Memo

    calls: list[int] = []
    gate = threading.Event()

    def slow() -> int:
        gate.wait(2)
        calls.append(1)
        return len(calls)

    memo = Memo(max_age=60)
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(memo.get("k", slow))) for _ in range(3)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert results == [1, 1, 1] and len(calls) == 1  # three askers at once, one computation
    memo.clear()
    assert memo.get("k", slow) == 2
    memo.max_age = 0.0
    assert memo.get("k", slow) == 3  # expired: a write the app was not told about is seen


async def test_only_invalid_ballots_is_not_no_vote(service: Service) -> None:
    """Issue 21: "a player with only invalid ballots is 无效票, not 未投票" — on the 票型 screen as in the
    CLI and the 公示: the same split (``Tally.silent`` / ``Tally.only_invalid``) everywhere."""
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("2")
        await settle(pilot)
        (day,) = service.votes.tally_day(2)
        t = day.tally
        assert t.only_invalid and t.silent  # the demo's day 2 has both kinds
        tried = {cb.voter for cb in t.ballots if not cb.valid}
        assert set(t.only_invalid) <= tried and not set(t.silent) & {cb.voter for cb in t.ballots}
        totals = plain(app, "#tally-totals")
        shown = {line.split("：")[0].strip(): line for line in totals.replace(" · ", "\n").splitlines() if "：" in line}
        assert all(n in shown["仅有无效票"] for n in t.only_invalid)
        assert all(n not in shown["未投票"] for n in t.only_invalid)
        assert all(n in shown["未投票"] for n in t.silent)
