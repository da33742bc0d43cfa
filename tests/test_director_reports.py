"""What the day's reports tell a director after the fact (issue 21, "What a director saw wrong"): a
report's exit 10 only while something still waits for the director, each flag with its thread, the
tally's BBCode naming nobody under ``--no-voters`` and telling an invalid ballot from no ballot, and
a revocation announced on the day of the card it takes back, with standings that match the ledger.

The demo game is crawled once from its replay forum (night 1 settled as the demo settles it); each
test works on a copy.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from tests.demo_game import copy_demo
from tracker.cli import main


@pytest.fixture
def game(demo_crawled: Path, tmp_path: Path) -> Path:
    return copy_demo(demo_crawled, tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_confirmed_tally_needs_the_director_no_more(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "report", "tally", str(game), "--day", "2", "--json")
    doc = json.loads(out)
    assert code == 10 and doc["needs_director"]
    assert any(i.startswith("结果待确认") for i in doc["items"])
    assert all(i.startswith("帖 6 第 ") for i in doc["items"] if not i.startswith("结果待确认"))
    assert run(capsys, "confirm", str(game), "--day", "2")[0] == 0
    code, out, _ = run(capsys, "report", "tally", str(game), "--day", "2", "--json")
    doc = json.loads(out)
    assert code == 0 and not doc["needs_director"] and doc["items"] == []


def test_the_cards_report_names_each_flags_thread(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "flags", str(game), "--json")[0] == 0
    code, out, _ = run(capsys, "flags", str(game), "--status", "open", "--no-detect", "--json")
    flags = json.loads(out)
    assert flags
    code, out, _ = run(capsys, "report", "cards", str(game), "--day", "2", "--json")
    items = [i for i in json.loads(out)["items"] if i.startswith("待审违规")]
    assert code == 10 and len(items) == len(flags)
    for f, line in zip(flags, items, strict=True):
        assert f"#{f['id']} 帖 {f['tid']} 第 {f['floor']} 楼 {f['author']}" in line


def test_no_voters_names_nobody_and_an_invalid_ballot_is_not_no_ballot(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tally", str(game), "--day", "2", "--json")
    doc = json.loads(out)
    invalid_voters = {b["voter"] for b in doc["ballots"] if not b["valid"]}
    valid_voters = {b["voter"] for b in doc["ballots"] if b["valid"]}
    only_invalid = [n for n in doc["no_vote"] if n in invalid_voters - valid_voters]
    silent = [n for n in doc["no_vote"] if n not in invalid_voters]
    assert only_invalid and silent  # the demo's day 2 has both
    code, out, _ = run(capsys, "tally", str(game), "--day", "2", "--bbcode")
    assert code == 0
    lines = out.splitlines()
    assert f"未投票：{'、'.join(silent)}" in lines
    assert f"仅有无效票：{'、'.join(only_invalid)}" in lines
    code, out, _ = run(capsys, "tally", str(game), "--day", "2", "--bbcode", "--no-voters")
    counted = out.split("[b]结果[/b]")[0]
    names = [p["name"] for p in json.loads(run(capsys, "state", str(game), "--json")[1])["players"]]
    assert [n for n in names if n in counted and n not in doc["public_totals"]] == []
    assert f"未投票：{len(silent)} 人" in counted and f"仅有无效票：{len(only_invalid)} 人" in counted


def test_the_lurker_list_tells_an_invalid_ballot_from_no_ballot(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lurkers", str(game), "--day", "2", "--json")
    doc = json.loads(out)
    assert doc["invalid_only"]
    code, text, _ = run(capsys, "lurkers", str(game), "--day", "2")
    for name in doc["invalid_only"]:
        assert f"  {name}：{doc['posts'][name]} 帖，仅有无效票" in text.splitlines()
    silent = [n for n, v in doc["voted"].items() if not v and n not in doc["invalid_only"]]
    assert silent and all(f"  {n}：{doc['posts'][n]} 帖，未投票" in text.splitlines() for n in silent)
    assert run(capsys, "lurkers", str(game), "--day", "2")[0] == 0
    code, bb, _ = run(capsys, "lurkers", str(game), "--day", "2", "--bbcode")
    assert code == 0
    for name in doc["invalid_only"]:
        row = next(r for r in bb.splitlines() if r.startswith(f"[tr][td]{name}[/td]"))
        assert row.endswith("[td]仅有无效票[/td][/tr]")


def _standing_words(bbcode: str, player: str) -> str:
    block = bbcode.split("[b]累计判罚[/b]")[1]
    return next(line for line in block.splitlines() if line.startswith(f"[*]{player}："))[len(f"[*]{player}："):]


def test_a_revocation_is_announced_on_the_day_of_the_card_it_takes_back(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    ids = []
    for i in range(3):  # three blues on day 1: the ladder merges them into a yellow
        code, out, err = run(capsys, "card", g, "issue", "泡泡", "--color", "蓝", "--reason", f"第{i + 1}次",
                             "--day", "1", "--json")
        assert code == 0, err
        ids.append(json.loads(out)["id"])
    standing = json.loads(run(capsys, "cards", g, "--json")[1])["standing"]["泡泡"]
    assert (standing["blue"], standing["yellow"]) == (0, 1)
    # decided now (the game's days are long past, so on the last day's clock), of a day-1 card
    code, out, err = run(capsys, "card", g, "revoke", str(ids[1]), "--reason", "误判", "--json")
    assert code == 0, err
    assert {e["day"] for e in json.loads(out)["written"]} == {1}
    standing = json.loads(run(capsys, "cards", g, "--json")[1])["standing"]["泡泡"]
    assert (standing["blue"], standing["yellow"]) == (2, 0)
    day1 = run(capsys, "cards", g, "announce", "--day", "1")[1]
    assert "撤销 泡泡 的" in day1 and f"（第 {ids[1]} 条）：误判" in day1
    assert _standing_words(day1, "泡泡") == "蓝牌 2 张"
    day2 = run(capsys, "cards", g, "announce", "--day", "2")[1]
    assert "撤销" not in day2 and _standing_words(day2, "泡泡") == "蓝牌 2 张"


def test_announce_says_which_announcement_it_drafts(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "announce", str(game), "--day", "2")
    assert code == 0 and out.startswith("[b]第2日 公示[/b]")
    assert "第 2 日开门公示草稿" in err and "第 1 日白天与第 1 夜" in err
    code, out, _ = run(capsys, "announce", str(game), "--day", "2", "--json")
    assert json.loads(out)["covers"] == {"day": 1, "night": 1}
    code, out, err = run(capsys, "announce", str(game), "--day", "1", "--json")
    assert code == 0 and json.loads(out)["covers"] is None
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert "the 开门公示 posted when day N opens: day N−1's 白天 and night N−1's" in readme


def test_watch_stops_with_the_final_reports_once_the_game_is_over(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio
    from datetime import datetime, timedelta

    from tracker.cli.reports import build_watcher
    from tracker.clock import SHANGHAI, FrozenClock
    from tracker.service import Service

    # day 2, noon: the wolves are all out (recorded by hand here), so the village has won
    for wolf in ("栗子", "银鸦", "风行"):
        assert run(capsys, "event", str(game), "出局", "--player", wolf, "--at", "2025-03-04T11:00:00+08:00")[0] == 0
    assert json.loads(run(capsys, "state", str(game), "--json")[1])["outcome"] is not None
    clock = FrozenClock(datetime(2025, 3, 4, 12, 0, tzinfo=SHANGHAI))
    stop_at = datetime(2025, 3, 9, 12, 0, tzinfo=SHANGHAI)

    async def crawl() -> None:
        return None

    async def sleep(seconds: float, stop: asyncio.Event) -> None:
        await asyncio.sleep(0)
        clock.at = min(clock.now() + timedelta(seconds=max(seconds, 0)), stop_at)
        if clock.now() >= stop_at:
            stop.set()

    svc = Service.open(game, clock=clock)
    try:
        watcher = build_watcher(svc, game, crawl=crawl, sleep=sleep, host="test", pid=1)
        asyncio.run(watcher.run(asyncio.Event()))
    finally:
        svc.close()
    log = watcher.log.lines
    assert clock.now() < stop_at  # it stopped by itself, on the first pass
    assert any(line.startswith("游戏已结束：") and "村民阵营胜利" in line for line in log), log
    assert any(line.startswith("第 2 日 关门后结算报告 已写出") for line in log), log
    assert (game.parent / "reports" / "day2-tally.md").exists()
    assert (game.parent / "reports" / "day2-cards.md").exists()


def test_the_watch_log_is_stamped_in_the_games_zone(capsys: pytest.CaptureFixture[str]) -> None:
    import logging
    from zoneinfo import ZoneInfo

    from tracker.logs import configure, use_zone

    configure("INFO")
    try:
        use_zone(ZoneInfo("America/New_York"))
        logging.getLogger("tracker.watch").info("抓取完成")
        line = capsys.readouterr().err.strip().splitlines()[-1]
        assert line.endswith("INFO tracker.watch: 抓取完成")
        stamp = line.split(" INFO ")[0]
        assert stamp[-5:] == datetime.now(ZoneInfo("America/New_York")).strftime("%z")  # whatever the machine's zone
    finally:
        configure("WARNING")


def test_each_output_keeps_one_time_basis_and_says_which(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    post = next(p for p in json.loads(run(capsys, "posts", g, "--thread", "3", "--json")[1]) if p["floor"] == 4)
    code, out, err = run(capsys, "card", g, "issue", post["author"], "--color", "蓝", "--reason", "红字",
                         "--post", "3#4", "--json")
    assert code == 0, err
    card = json.loads(out)["id"]
    assert run(capsys, "card", g, "revoke", str(card), "--reason", "颜色不算红")[0] == 0
    # the 判罚公示: the violation's time on every line that has one, said once above the list
    day1 = run(capsys, "cards", g, "announce", "--day", "1")[1]
    items = [line for line in day1.splitlines() if line.startswith("[*]") and "[size=2]" in line]
    posted = datetime.fromisoformat(post["posted_at"]).strftime("%m-%d %H:%M")
    assert len(items) == 2 and all(f"[size=2]{posted}[/size]" in line for line in items), day1
    assert "[size=2]时间为违规帖子的发帖时间[/size]" in day1
    # the ledger at the command line: the time the director recorded each entry, labelled so
    lines = [x for x in run(capsys, "cards", g)[1].splitlines() if x.startswith("#")]
    assert len(lines) == 2 and all(" 记于 " in x for x in lines)
