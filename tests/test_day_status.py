"""Day rules through the service: the 进程帖's 申请加速 count, 213's automatic 加速 at ≤16 未出局,
a 延时 moving the close, and the tally, the 潜水 count and the watcher reading the same day.

Posts go into a real store: the demo game's saved pages through the real page parser, plus
hand-built replies where a scenario needs more than the demo holds.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tracker.cli import main
from tracker.cli.state import render_game_file
from tracker.clock import SHANGHAI, FrozenClock
from tracker.demo.nights import play_nights
from tracker.engine.verdicts import Code
from tracker.records import Post, Quote
from tracker.schedule import FINAL_GRACE, Slot
from tracker.scraper.desktop import parse_thread_page
from tracker.service import Service
from tracker.store.posts import upsert_posts
from tracker.watch import Watcher

DEMO_GAME = Path(__file__).parent.parent / "tracker" / "demo" / "data" / "game.toml"
SEEN = datetime(2025, 3, 6, tzinfo=UTC)


def at(day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2025, 3, day, hh, mm, tzinfo=SHANGHAI)


def store_posts(svc: Service, posts: list[Post]) -> None:
    with svc.store.session() as s:
        upsert_posts(s, posts, seen_at=SEEN)


def reply(pid: int, tid: int, author: str, text: str, when: datetime, quotes: tuple[Quote, ...] = ()) -> Post:
    return Post(pid=pid, tid=tid, floor=pid % 1000, author=author, uid=None, posted_at=when, html=text, text=text,
                quotes=quotes)


# --------------------------------------------------------------------------- the demo game (M19)

@pytest.fixture()
def demo(tmp_path: Path) -> Iterator[Service]:
    """The demo game (luoluo-m19, 进程帖 tid 2) with its saved 进程帖 and vote pages stored."""
    path = tmp_path / "game.toml"
    shutil.copy(DEMO_GAME, path)
    svc = Service.open(path, clock=FrozenClock(at(4, 12)))
    for name in ("process-p1", "day1-vote-p1", "day1-vote-p2", "day1-vote-p3", "day2-vote-p1", "day2-vote-p2"):
        store_posts(svc, parse_thread_page((PAGES / f"{name}.html").read_bytes()).posts)
    play_nights(svc)  # night 1, as the demo settles it: 阿狸 and 老王 out
    try:
        yield svc
    finally:
        svc.close()


def test_requests_counted_from_the_stored_process_thread(demo: Service) -> None:
    d1 = demo.log.day_status(1)
    assert d1.requests is not None
    # 申请加速 / 申请加速+1 / 申请加速 by living players; "不申请加速，我还想再看看" is not one, and the
    # director's own "请在本帖回复“申请加速”" is no player's request
    assert [x.player for x in d1.requests.accelerate] == ["泡泡", "饺子", "花千树"]
    # M19: 超过所有存活玩家的二分之一 → 14 living need 8
    assert d1.requests.living == 14 and d1.requests.needed == 8 and not d1.requests.accelerate_ok
    assert not d1.accelerated and d1.suggestions == ()
    d2 = demo.log.day_status(2)
    assert d2.requests is not None
    assert [x.player for x in d2.requests.accelerate] == ["包子", "小白"]
    assert d2.requests.living == 12 and d2.requests.needed == 7     # 阿狸 and 老王 out on night 1


def test_a_passed_request_is_a_suggestion_until_recorded(demo: Service) -> None:
    more = ["泡泡", "饺子", "花千树", "栗子", "碎碎"]
    store_posts(demo, [reply(9000 + i, 2, name, "申请加速", at(4, 9, i)) for i, name in enumerate(more)])
    store_posts(demo, [reply(9100, 2, "取酒", "不申请加速", at(4, 9, 30)),
                       reply(9101, 2, "阿狸", "申请加速", at(4, 9, 31)),              # out since night 1
                       reply(9102, 2, "青铃", "申请加速", at(4, 22, 30))])            # after the close
    status = demo.log.day_status(2)
    assert status.requests is not None and status.requests.accelerate_ok
    assert len(status.requests.accelerate) == 7
    ignored = dict(status.requests.ignored)
    assert ignored[9101].startswith("not_living") and ignored[9102].startswith("after_cutoff")
    # not in force: the tally still allows 改票, the 潜水 count still applies
    assert not status.accelerated
    assert [s.kind for s in status.suggestions] == ["accelerate"]
    assert "accelerated --day 2 --cause request" in status.suggestions[0].command
    assert not demo.votes.tally_day(2)[0].tally.window.accelerated
    assert not demo.lurking.lurkers(2).accelerated

    demo.log.record_event("accelerated", data={"day": 2, "cause": "request"}, at=at(4, 12))
    status = demo.log.day_status(2)
    assert status.accelerated and status.accelerated_at == at(4, 12) and status.accelerated_cause == "request"
    assert status.suggestions == ()
    window = demo.votes.tally_day(2)[0].tally.window
    assert window.accelerated and window.accelerated_at == at(4, 12)
    assert demo.lurking.lurkers(2).accelerated and demo.lurking.lurkers(2).penalties == []


def test_a_delay_moves_the_close_for_the_tally_the_lurk_count_and_the_state(demo: Service,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    before = demo.votes.tally_day(2)[0].tally
    late_voter = before.no_vote[0]
    target = next(n for n in before.final if n != late_voter and n in before.final)
    store_posts(demo, [reply(9200, 6, late_voter, f"投票对象：{target}\n投票理由：晚到", at(5, 10))])
    late = next(cb for cb in demo.votes.tally_day(2)[0].tally.ballots if cb.ballot.pid == 9200)
    assert late.reason is not None and late.reason.startswith(Code.POSTED_AFTER_CLOSE.value)

    demo.log.record_event("delayed", data={"day": 2}, at=at(4, 18))
    status = demo.log.day_status(2)
    # 延时: a day more ("逢周末延时一天" is the unit), the freeze follows the close
    assert status.closes == at(5, 22) and status.planned_closes == at(4, 22) and status.extended
    assert status.freeze_starts == at(5, 21) and status.delayed and not status.accelerated
    t = demo.votes.tally_day(2)[0].tally
    assert t.window.closes == at(5, 22)
    late = next(cb for cb in t.ballots if cb.ballot.pid == 9200)
    assert late.valid and t.final[late_voter] == target
    assert demo.lurking.lurk_input(2).window.closes == at(5, 22)
    assert [d.closes for d in demo.log.effective_days()] == [at(2, 22), at(5, 22)]

    assert main(["state", str(demo.game.path), "--json"]) == 0
    days = json.loads(capsys.readouterr().out)["days"]
    assert {"day", "opens", "closes", "accelerated", "accelerated_cause", "delayed", "closed"} <= set(days[1])
    assert days[1]["closes"] == at(5, 22).isoformat() and days[1]["planned_closes"] == at(4, 22).isoformat()
    assert days[1]["freeze_starts"] == at(5, 21).isoformat()
    assert [x["player"] for x in days[1]["requests"]["accelerate"]] == ["包子", "小白"]


async def test_the_watcher_schedules_on_the_effective_close(demo: Service) -> None:
    written: list[str] = []

    async def crawl() -> None:
        return None

    def write(slot: Slot) -> list[str]:
        written.append(slot.key)
        return []

    clock = FrozenClock(at(4, 23))
    watcher = Watcher(days=demo.log.effective_days(), schedule=demo.game.schedule, store=demo.store, clock=clock,
                      crawl=crawl, write=write, name="demo", refresh_days=demo.log.effective_days)
    final2 = next(s for s in watcher.slots if s.key == "day2:final")
    assert final2.due == at(4, 22) + FINAL_GRACE
    from tracker.store.schedule import acquire_lock

    with demo.store.session() as s:  # step() writes only while holding the game's lock (run() takes it)
        acquire_lock(s, name="demo", holder=watcher.holder, host=watcher.host, pid=watcher.pid, now=clock.now())
    # the director records the 延时 while the watcher runs: its next pass moves day 2's final report
    demo.log.record_event("delayed", data={"day": 2}, at=at(4, 18))
    await watcher.step()
    assert "day2:final" not in written and "day1:final" in written
    assert next(s for s in watcher.slots if s.key == "day2:final").due == at(5, 22) + FINAL_GRACE
    assert any("关门时间改为" in line for line in watcher.log.lines)


# --------------------------------------------------------------------------- 213: 24 players


def game_213(tmp_path: Path, *, process: bool = True) -> Service:
    """A 24-player sanguo-213 game: day 1 Monday, day 2 Wednesday (vote thread 8), 进程帖 3."""
    text = render_game_file("sanguo-213", name="三国", forum="http://127.0.0.1:9/", director="导演A", opens=at(3, 10))
    if process:
        text = text.replace("# process_thread = 3", "process_thread = 3")
    text = text.replace("# discussion = 4", "discussion = 4")
    text = text.replace("# vote = [5, 6]", "vote = [5, 6]")
    text += "\n[[days]]\nday = 2\ndiscussion = 7\nvote = 8\nopens = 2025-03-05T10:00:00+08:00\n" \
            "closes = 2025-03-06T22:00:00+08:00\n"
    path = tmp_path / "g213.toml"
    path.write_text(text, encoding="utf-8")
    return Service.open(path, clock=FrozenClock(at(6, 23)))


def eliminate_villagers(svc: Service, n: int) -> list[str]:
    """n 村民阵营 players out on night 1 (no faction loses: the game goes on)."""
    names = [p.name for p in svc.game.players if svc.log.state().players[p.name].faction == "村民"][-n:]
    for name in names:
        svc.log.record_event("eliminated", name, {"cause": "night"}, at=at(5, 9))
    return names


def vote_and_change(svc: Service, voter: str, first: str, second: str) -> None:
    store_posts(svc, [
        reply(8001, 8, voter, f"投票对象：{first}\n投票理由：先投", at(5, 12)),
        reply(8002, 8, voter, f"改票对象：{second}\n改票理由：改主意", at(5, 13),
              quotes=(Quote(pid=8001, author=voter, posted_at=at(5, 12), text="投票对象"),)),
    ])


@pytest.mark.parametrize(("out", "automatic"), [(8, True), (7, False)])
def test_213_accelerates_by_itself_at_16_not_out(tmp_path: Path, out: int, automatic: bool) -> None:
    svc = game_213(tmp_path)
    try:
        assert len(svc.game.players) == 24
        gone = eliminate_villagers(svc, out)
        alive = [p.name for p in svc.game.players if p.name not in gone]
        status = svc.log.day_status(2)
        # 未出局角色≤16人时，导演将自动执行加速: in force with no record, from the opening
        assert status.not_out_at_open == 24 - out and status.auto_accelerate is automatic
        assert status.accelerated is automatic and status.accelerated_at is None
        assert status.accelerated_cause == ("auto" if automatic else None)
        assert status.suggestions == ()
        assert not svc.log.day_status(1).accelerated          # 24 at day 1's opening

        vote_and_change(svc, alive[0], alive[1], alive[2])
        t = svc.votes.tally_day(2)[0].tally
        change = next(cb for cb in t.ballots if cb.ballot.pid == 8002)
        # 执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚 — the tally and the 潜水 count agree
        assert (change.reason is not None and change.reason.startswith(Code.CHANGE_ACCELERATED.value)) is automatic
        lurk_window = svc.lurking.lurk_input(2).window
        assert t.window.accelerated == lurk_window.accelerated == status.accelerated
        assert t.window.closes == lurk_window.closes == status.closes
        report = svc.lurking.lurkers(2)
        assert report.accelerated is automatic
        assert (report.penalties == []) is automatic          # nobody posted: penalties unless accelerated
    finally:
        svc.close()


def test_213_a_recorded_delay_lifts_the_automatic_acceleration(tmp_path: Path) -> None:
    svc = game_213(tmp_path)
    try:
        eliminate_villagers(svc, 8)
        svc.log.record_event("delayed", data={"day": 2, "days": 0}, at=at(6, 18))   # 延时成功: no longer 加速
        status = svc.log.day_status(2)
        assert status.auto_accelerate and not status.accelerated and status.delayed
        assert status.closes == at(6, 22)                                        # days=0: the close stays
        assert not svc.votes.tally_day(2)[0].tally.window.accelerated and not svc.lurking.lurkers(2).accelerated
    finally:
        svc.close()


def test_213_requests_and_delay_suggestion_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svc = game_213(tmp_path)
    try:
        names = [p.name for p in svc.game.players]
        # 大于等于存活人数的一半: 24 living need 12; the last one asks after close − 3 h
        store_posts(svc, [reply(3000 + i, 3, n, "申请延时", at(6, 9, i)) for i, n in enumerate(names[:12])])
        store_posts(svc, [reply(3100, 3, names[12], "申请延时", at(6, 19, 30))])
        path = svc.game.path
    finally:
        svc.close()
    assert main(["state", str(path), "--json"]) == 0
    day2 = json.loads(capsys.readouterr().out)["days"][1]
    assert day2["requests"]["needed"] == 12 and len(day2["requests"]["delay"]) == 12
    assert day2["requests"]["cutoff"] == at(6, 19).isoformat()
    assert [s["kind"] for s in day2["suggestions"]] == ["delay"] and not day2["delayed"]
    assert main(["state", str(path)]) == 0
    text = capsys.readouterr().out
    assert "申请延时 12/12" in text and "建议：" in text and "delayed --day 2" in text


def test_requests_need_a_process_thread(tmp_path: Path) -> None:
    svc = game_213(tmp_path, process=False)
    try:
        assert svc.log.day_status(2).requests is None
        assert svc.log.day_status(2, requests=False).requests is None
    finally:
        svc.close()


def test_day_status_for_an_unknown_day_is_a_config_error(tmp_path: Path) -> None:
    from tracker.errors import ConfigError

    svc = game_213(tmp_path)
    try:
        with pytest.raises(ConfigError):
            svc.log.day_status(9)
    finally:
        svc.close()


def test_effective_days_without_events_are_the_game_files(tmp_path: Path) -> None:
    svc = game_213(tmp_path)
    try:
        assert [(d.opens, d.closes) for d in svc.log.effective_days()] == [(d.opens, d.closes) for d in svc.game.days]
        assert svc.log.day_status(2).closes - svc.log.day_status(2).opens == timedelta(hours=36)
    finally:
        svc.close()
