"""The director's workflow (issue #15), walked as a director walks it: the demo game built once, then
the commands a director types, asserting what the director reads.

Each test works on its own copy of the demo's game file and database, so the ledger one test
writes is not another's.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tests.demo_game import copy_demo
from tracker.cli import main


@pytest.fixture
def game(demo_job: dict[str, object], tmp_path: Path) -> Path:
    """A fresh copy of the session's demo game (days 1 and 2 crawled and confirmed, 18 flags open, no
    cards)."""
    return copy_demo(Path(str(demo_job["workdir"])), tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# ----------------------------------------------------------------------- 1. 潜水 penalties → cards


def test_lurk_penalties_are_reviewed_and_carded_once_for_the_day(game: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lurkers", str(game), "--day", "2")
    assert code == 0
    assert "应判黄牌：碎碎" in out and out.count("｜待判罚") == 6
    assert f"tracker card {game} from-lurker --day 2" in out

    # one player first (the director checked 碎碎's posts by hand)
    code, out, _ = run(capsys, "card", str(game), "from-lurker", "--day", "2", "碎碎")
    assert code == 0
    assert "#1 第2日" in out and "碎碎 黄牌 [5-(1)]：潜水（发言不足）：第 2 日，3 帖" in out
    assert "发牌 1 张" in out

    # then the rest of the day in bulk: 碎碎 is not carded twice
    code, out, _ = run(capsys, "card", str(game), "from-lurker", "--day", "2")
    assert code == 0 and "发牌 5 张" in out and "碎碎" not in out
    code, out, _ = run(capsys, "card", str(game), "from-lurker", "--day", "2")
    assert code == 0 and "第 2 日没有待判罚的潜水" in out

    code, out, _ = run(capsys, "lurkers", str(game), "--day", "2")
    assert "待判罚" not in out and "｜已判罚（第 1 条）" in out

    # the ledger and the 公示 agree with the lurker list
    code, out, _ = run(capsys, "cards", str(game))
    assert "银鸦：蓝牌 0，黄牌 2，红牌 0" in out and "劫火：蓝牌 0，黄牌 1，红牌 0" in out
    code, out, _ = run(capsys, "cards", str(game), "announce", "--day", "2")
    assert out.count("潜水（") == 6 and "本日无判罚" not in out


def test_a_lurk_card_for_a_player_without_a_penalty_is_refused(game: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "card", str(game), "from-lurker", "--day", "2", "泡泡")
    assert code == 7 and "第 2 日没有 泡泡 的潜水判罚" in err


# --------------------------------------------------------------------- 2. a card's day and place


def test_a_flag_of_day_1_carded_on_day_2_is_day_1s_card_with_its_thread_and_floor(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "card", str(game), "from-flag", "1")
    assert code == 0
    assert out.startswith("#1 第1日 ") and "（帖 3 第 2 楼）" in out

    code, out, _ = run(capsys, "cards", str(game), "announce", "--day", "1")
    assert "本日无判罚" not in out
    line = next(x for x in out.splitlines() if "泡泡" in x and "[*]" in x and "蓝牌" in x)
    # the post's time (day 1, 03-01), not the time the card was issued; 楼 named once
    assert line.startswith("[*][size=2]03-01 ") and line.count("楼") == 1 and "帖 3 第 2 楼" in line

    code, out, _ = run(capsys, "cards", str(game), "announce", "--day", "2")
    assert "本日无判罚" in out


def test_card_issue_takes_a_thread_and_floor_and_a_day(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "card", str(game), "issue", "包子", "--color", "blue", "--reason", "情绪发言",
                       "--post", "5#3")
    assert code == 0 and out.startswith("#1 第2日 ") and "（帖 5 第 3 楼）" in out
    code, out, _ = run(capsys, "card", str(game), "issue", "饺子", "--color", "blue", "--reason", "场外",
                       "--day", "1")
    assert code == 0 and out.startswith("#2 第1日 ")
    code, out, _ = run(capsys, "cards", str(game), "announce", "--day", "1")
    assert "饺子" in out.split("累计判罚")[0] and "包子" not in out.split("累计判罚")[0]

    code, _, err = run(capsys, "card", str(game), "issue", "包子", "--color", "blue", "--reason", "x",
                       "--post", "5#999")
    assert code == 2 and "数据库里没有帖 5 第 999 楼" in err
    code, _, err = run(capsys, "card", str(game), "issue", "包子", "--color", "blue", "--reason", "x",
                       "--post", "第三楼")
    assert code == 7 and "3#17" in err
    code, _, err = run(capsys, "card", str(game), "issue", "包子", "--color", "blue", "--reason", "x",
                       "--day", "9")
    assert code == 2 and "没有第 9 日" in err


# ------------------------------------------------------------------------ 3. a tampered ledger


def _forge_red(game: Path) -> None:
    con = sqlite3.connect(game.with_suffix(".db"))
    with con:
        con.execute("UPDATE card_ledger SET color = 'red' WHERE id = 1")
    con.close()


@pytest.mark.parametrize("command", [
    ("cards",), ("cards", "announce", "--day", "2"), ("cards", "history", "1"), ("state",),
    ("report", "cards", "--day", "2"), ("announce", "--day", "2"), ("lurkers", "--day", "2"), ("flags",),
])
def test_every_command_that_reads_the_ledger_says_a_forged_card_loudly(
        game: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]) -> None:
    run(capsys, "card", str(game), "from-lurker", "--day", "2", "碎碎")
    _forge_red(game)
    args = [command[0], *([str(game)] if command[0] != "report" else [command[1], str(game)]),
            *(command[1:] if command[0] != "report" else command[2:])]
    code, _, err = run(capsys, *args)
    assert code == 1
    assert err.startswith("！！！记牌账本已损坏：第 1 条记录在记牌工具之外被改动")
    assert "错误：记牌账本校验失败" in err


def test_an_intact_ledger_reads_quietly_and_json_says_it_was_checked(game: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import json

    run(capsys, "card", str(game), "from-lurker", "--day", "2", "碎碎")
    code, out, err = run(capsys, "cards", str(game), "--json")
    assert code == 0 and "账本" not in err
    assert json.loads(out)["verified"] == {"ok": True, "entries": 1, "broken_at": None, "problem": None}
    _forge_red(game)
    code, out, _ = run(capsys, "cards", str(game), "--json")
    assert code == 1 and json.loads(out)["verified"]["ok"] is False


# ------------------------------------------------------------------- 4. names and the roster




def test_a_typo_in_a_players_name_is_named_after_the_crawl(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.demo.server import ReplayForum

    with ReplayForum(PAGES) as forum:
        text = (Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml").read_text(encoding="utf-8")
        game = tmp_path / "game.toml"
        game.write_text(text.replace('name = "饺子"', 'name = "饺孑"')
                        .replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum.base_url}"'), encoding="utf-8")
        assert forum.base_url in game.read_text(encoding="utf-8")
        code, _, err = run(capsys, "crawl", str(game))
        assert code == 0
        assert "名单核对：玩家 饺孑 在游戏帖里没有发言（是不是：饺子？）" in err
        assert "名单核对：账号 饺子 在游戏帖里发了" in err and "却不在 [[players]] 中（最接近的玩家：饺孑" in err
        # the name corrected, the next crawl has nothing to say about names
        game.write_text(game.read_text(encoding="utf-8").replace("饺孑", "饺子"), encoding="utf-8")
        code, _, err = run(capsys, "crawl", str(game))
        assert code == 0 and "名单核对：玩家" not in err and "账号 饺子" not in err
        assert "名单核对：账号 路人甲 在游戏帖里发了 2 帖" in err  # a spectator is still named, once per crawl


def test_a_roster_that_contradicts_the_ruleset_stops_confirm_and_the_win_check(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('[[players]]\nname = "劫火"\nuid = 15\nrole = "变异丘比特"\n', ""), encoding="utf-8")
    code, out, err = run(capsys, "state", str(game))
    assert code == 2
    assert "胜负：不判定" in out and "配置错误：玩家人数为 13，规则 luoluo-m19 为 14 人局" in err
    code, _, err = run(capsys, "confirm", str(game), "--day", "2")
    assert code == 2 and "不能确认结果：玩家人数为 13" in err
    # the refusal is the service's own: any caller (the TUI's gateway, a script) meets it, nothing is recorded
    from tracker.errors import ConfigError
    from tracker.service import Service

    svc = Service.open(game)
    try:
        before = len(svc.log.events())
        with pytest.raises(ConfigError, match="不能确认结果：玩家人数为 13"):
            svc.votes.confirm_day(2)
        assert len(svc.log.events()) == before
    finally:
        svc.close()


# --------------------------------------------------------------- 5. thread ids and players


def _game_on(forum_url: str, tmp_path: Path) -> Path:
    text = (Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml").read_text(encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(text.replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum_url}"'), encoding="utf-8")
    return game


def test_threads_lists_the_section_and_players_proposes_the_block_with_uids(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    from tracker.demo.server import ReplayForum

    with ReplayForum(PAGES) as forum:
        game = _game_on(forum.base_url, tmp_path)
        # the section of the game's process thread (fid 2), found without --forum
        code, out, _ = run(capsys, "threads", str(game))
        assert code == 0 and out.startswith("版块 fid 2：8 个帖子")
        line = next(x for x in out.splitlines() if "第一日投票帖" in x)
        assert line.split()[:2] == ["4", "20"] and "导演A／【演示局】第一日投票帖（警长竞选）" in line
        code, out2, _ = run(capsys, "threads", str(game), "--forum", "2")
        assert code == 0 and out2 == out

        code, out, _ = run(capsys, "players", str(game), "--from-thread", "3", "--block")
    assert code == 0
    assert out.startswith("# 报名帖 tid 3《【演示局】第一日讨论帖》：15 个账号（不含导演）")
    block = tomllib.loads(out)["players"]
    assert block[0] == {"name": "泡泡", "uid": 2} and {"name": "饺子", "uid": 4} in block
    assert all(p["name"] != "导演A" for p in block) and len(block) == 15


def test_players_from_a_thread_that_does_not_exist_says_so(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.demo.server import ReplayForum

    with ReplayForum(PAGES) as forum:
        game = _game_on(forum.base_url, tmp_path)
        code, _, err = run(capsys, "players", str(game), "--from-thread", "99999", "--block")
    assert code == 4 and "不存在" in err


# --------------------------------------------------------------------------- 6. [options]


def test_options_in_the_game_file_set_the_rulesets_readings_and_state_and_tally_say_so(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = run(capsys, "state", str(game))
    assert code == 0 and '规则读法：village_gods = "all"（默认）' in out
    game.write_text(game.read_text(encoding="utf-8") + '\n[options]\nvillage_gods = "any"\n', encoding="utf-8")
    code, out, _ = run(capsys, "state", str(game))
    assert code == 0 and '规则读法：village_gods = "any"（游戏文件 [options]）' in out
    code, out, _ = run(capsys, "tally", str(game), "--day", "2")
    assert code == 0 and out.startswith('规则读法：village_gods = "any"（游戏文件 [options]）')
    code, out, _ = run(capsys, "state", str(game), "--json")
    assert json.loads(out)["readings"] == [{"key": "village_gods", "value": "any", "default": "all",
                                            "from_game_file": True},
                                           {"key": "gay_bonus_needs_votes", "value": False, "default": False,
                                            "from_game_file": False}]

    game.write_text(game.read_text(encoding="utf-8").replace('village_gods = "any"', 'village_gods = "some"'),
                    encoding="utf-8")
    code, _, err = run(capsys, "state", str(game))
    assert code == 2 and "选项 village_gods 的值 'some' 不可用" in err and "'all' / 'any'" in err
    game.write_text(game.read_text(encoding="utf-8").replace('village_gods = "some"', 'village_god = "any"'),
                    encoding="utf-8")
    code, _, err = run(capsys, "state", str(game))
    assert code == 2 and "没有选项 'village_god'" in err and "village_gods" in err


def test_init_writes_the_options_ready_to_uncomment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    out = tmp_path / "g.toml"
    assert run(capsys, "init", "--ruleset", "dnf-107", "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert '# [options]\n# exile_tie = "first_to_top"  # 可选 "first_to_top" / "nobody"：' in text
    uncommented = text.replace("# [options]", "[options]").replace('# exile_tie = "first_to_top"', 'exile_tie = "nobody"')
    assert tomllib.loads(uncommented)["options"] == {"exile_tie": "nobody"}
    out.write_text(uncommented, encoding="utf-8")
    code, text_out, _ = run(capsys, "state", str(out))
    assert code == 0 and '规则读法：exile_tie = "nobody"（游戏文件 [options]）' in text_out


# ------------------------------------------------------------------------ 7. scheduled runs

DAY3 = "\n[[days]]\nday = 3\nopens = 2025-03-05T10:00:00+08:00\ncloses = 2025-03-06T22:00:00+08:00\n"


def test_a_day_without_threads_yet_is_waiting_and_nobody_lurks_in_it(game: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    game.write_text(game.read_text(encoding="utf-8") + DAY3, encoding="utf-8")
    code, out, _ = run(capsys, "lurkers", str(game), "--day", "3")
    assert code == 0 and "应判" not in out
    code, out, _ = run(capsys, "card", str(game), "from-lurker", "--day", "3")
    assert code == 0 and "第 3 日没有待判罚的潜水" in out


def test_watch_waits_on_a_half_filled_day_keeps_watching_and_logs_each_crawl(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio
    from datetime import datetime, timedelta
    from types import SimpleNamespace

    from tracker.cli.reports import build_watcher
    from tracker.clock import SHANGHAI, FrozenClock
    from tracker.service import Service

    game.write_text(game.read_text(encoding="utf-8") + DAY3, encoding="utf-8")
    clock = FrozenClock(datetime(2025, 3, 5, 12, 0, tzinfo=SHANGHAI))
    stop_at = datetime(2025, 3, 8, 12, 0, tzinfo=SHANGHAI)
    filled_at = datetime(2025, 3, 7, 9, 0, tzinfo=SHANGHAI)  # after day 3's close: all done, then a new day
    crawls: list[datetime] = []

    async def crawl() -> object:
        crawls.append(clock.now())
        return SimpleNamespace(posts_new=3, posts_changed=1, posts_deleted=0)

    async def sleep(seconds: float, stop: asyncio.Event) -> None:
        await asyncio.sleep(0)
        target = clock.now() + timedelta(seconds=max(seconds, 0))
        if target >= stop_at:
            clock.at = stop_at
            stop.set()
        else:
            clock.at = target
        if clock.now() >= filled_at and "discussion = 7" not in game.read_text(encoding="utf-8"):
            # the director opens day 3's threads and fills them in while the watcher runs
            game.write_text(game.read_text(encoding="utf-8").replace("day = 3\n", "day = 3\ndiscussion = 7\nvote = 8\n"),
                            encoding="utf-8")

    svc = Service.open(game, clock=clock)
    try:
        watcher = build_watcher(svc, game, crawl=crawl, sleep=sleep, host="test", pid=1)
        asyncio.run(watcher.run(asyncio.Event()))
    finally:
        svc.close()
    log = watcher.log.lines
    assert "第 3 日尚未配置帖子：等待（不写报告、不判潜水）" in log
    assert "抓取完成 2025-03-05 12:00：新帖 3，改动 1，删除 0" in log  # the game's zone, not UTC
    assert "所有日程已完成；继续监视，游戏文件中新增的日子会被接上（Ctrl-C 停止）" in log
    assert "所有日程已完成，退出监视" not in log and clock.now() == stop_at  # ran until stopped
    assert "第 3 日的帖子已配置（讨论帖 7），开始跟进" in log
    reports = sorted(p.name for p in (game.parent / "reports").iterdir())
    assert "day2-lurkers.md" in reports and "day3-tally.md" in reports
    capsys.readouterr()


def test_a_deleted_reports_folder_is_recreated(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = game.parent / "reports"
    assert not reports.exists()
    code, _, err = run(capsys, "report", "lurkers", str(game), "--day", "2", "--write")
    assert (reports / "day2-lurkers.md").is_file() and "已写入" in err
    assert code == 10 and "需处理：潜水待判罚" in err  # day 2's 潜水 penalties are not carded yet


# ------------------------------------------------------------------- 8.–11. reading the results


def test_tally_without_voters_names_nobody_in_the_invalid_ballots(game: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, full, _ = run(capsys, "tally", str(game), "--day", "1", "--bbcode")
    assert code == 0 and full.startswith("[b]第1日警长竞选结果[/b]")
    invalid_full = full.split("[b]无效票[/b]")[1].split("[b]结果[/b]")[0]
    assert "投票对象" in invalid_full and "#" in invalid_full  # who, where, for whom: shown by default
    code, secret, _ = run(capsys, "tally", str(game), "--day", "1", "--bbcode", "--no-voters")
    assert code == 0
    invalid = secret.split("[b]无效票[/b]")[1].split("[b]结果[/b]")[0]
    assert invalid.strip().startswith("共 5 张：") and "#" not in invalid
    players = [line.split('"')[1] for line in game.read_text(encoding="utf-8").splitlines()
               if line.startswith("name = ") and "演示局" not in line]
    assert not [p for p in players if p in invalid]
    assert "改票未引用原投票楼层 1 张" in invalid


def test_announce_leaves_an_unrecorded_night_to_the_director_until_it_is_settled(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import datetime

    from tracker.clock import SHANGHAI
    from tracker.engine.events import make_draft
    from tracker.service import Service
    from tracker.store.events import append_event

    game.write_text(game.read_text(encoding="utf-8") + DAY3.replace("day = 3\n", "day = 3\ndiscussion = 7\n"),
                    encoding="utf-8")
    # the demo settled night 2 at the desk: take that back, so night 2 is not recorded yet
    events = json.loads(run(capsys, "state", str(game), "--events", "--json")[1])["events"]
    settled = next(e["seq"] for e in events if e["kind"] == "night_settled" and e["data"]["phase"] == "night:2")
    assert run(capsys, "event", str(game), "undo", "--seq", str(settled), "--reason", "重新结算")[0] == 0
    code, out, _ = run(capsys, "announce", str(game), "--day", "3")
    assert code == 0 and "第2日夜晚出局：（导演补充）" in out and "平安夜" not in out
    # a night recorded by hand (the demo's night 1) is stated as recorded
    code, out, _ = run(capsys, "announce", str(game), "--day", "2")
    assert "第1日夜晚出局：阿狸、老王" in out

    # the night desk confirms night 2 with nobody out: now it is a 平安夜
    svc = Service.open(game)
    try:
        with svc.store.session() as s:
            append_event(s, make_draft("night_settled", at=datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI),
                                       data={"phase": "night:2", "table": {}, "result": {"deaths": []}}))
    finally:
        svc.close()
    code, out, _ = run(capsys, "announce", str(game), "--day", "3")
    assert code == 0 and "第2日夜晚出局：平安夜" in out


def test_the_elevator_links_players_by_their_stored_uid(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No uid in the game file, day 3's thread still empty: the uid comes from the players' stored posts."""
    import re

    text = re.sub(r"(?m)^uid = \d+\n", "", game.read_text(encoding="utf-8"))
    game.write_text(text + DAY3.replace("day = 3\n", "day = 3\ndiscussion = 7\n"), encoding="utf-8")
    code, out, _ = run(capsys, "elevator", str(game), "--day", "3")
    assert code == 0
    assert "未知 uid" not in out
    assert "tid=7&page=1&authorid=4]饺子[/url]" in out


def test_flags_shows_the_evidence_and_the_suggested_card(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "flags", str(game))
    assert code == 0
    lines = out.splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("[3] 待审 帖 3 第 6 楼 饺子 红字"))
    assert lines[i + 1] == "    证据：颜色 #EE0000 与 #FF0000 的色差 ΔE00=3.6（阈值 10）"
    assert lines[i + 2] == f"    建议蓝牌：该玩家此条款首次违规 [6-(1)]：tracker card {game} from-flag 3"
    assert "    证据：字号 5 ≈ 24px（阈值 18px）" in lines
    assert any(x.startswith("    证据：「我发誓」（词表 oath.txt") for x in lines)
    zombie = next(x for x in lines if "阿狸 自 " in x)
    # the 诈尸 evidence in the rule posts' words and in one time zone (the post came after the night)
    assert zombie == "    证据：阿狸 自 2025-03-02 22:00 起出局（杀人（狼群指杀）），此帖发于 2025-03-03 10:30:00"


# ---------------------------------------------------------------------- 16. help traps


def test_card_subcommand_help_and_db_after_the_game_file(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "card", "issue", "--help")
    assert code == 0 and "给玩家发牌" in out and "--post PID|TID#FLOOR" in out and "--day" in out
    code, out, _ = run(capsys, "card", "from-lurker", "--help")
    assert code == 0 and "潜水判罚转为牌" in out
    other = game.parent / "other.db"
    shutil.copy(game.with_suffix(".db"), other)
    code, out, _ = run(capsys, "card", str(game), "--db", f"sqlite:///{other}", "from-lurker", "--day", "2", "碎碎")
    assert code == 0 and "发牌 1 张" in out
    code, out, _ = run(capsys, "cards", str(game), "--db", f"sqlite:///{other}")
    assert "#1 第2日" in out
    code, out, _ = run(capsys, "cards", str(game))
    assert "账本为空" in out  # the card went to the database named by --db


def test_event_takes_the_chinese_words_its_help_lists_and_refuses_typos_as_usage(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "event", "--help")
    assert "eliminated（出局）" in out and "--seq" in out
    code, out, _ = run(capsys, "event", str(game), "出局", "--player", "包子", "--cause", "夜晚",
                       "--at", "2025-03-04T23:00:00+08:00")
    assert code == 0 and "出局（eliminated） 包子 原因 夜晚" in out
    code, _, err = run(capsys, "event", str(game), "出菊", "--player", "包子")
    assert code == 2 and "不认识的事件类型 '出菊'，是不是：出局？" in err
    code, _, err = run(capsys, "event", str(game), "eliminated", "--player", "包子", "--cause", "夜里")
    assert code == 2 and "不认识的出局原因 '夜里'" in err
    code, _, err = run(capsys, "event", str(game), "undo")
    assert code == 7 and "--seq 12" in err and "--data" not in err
    code, out, _ = run(capsys, "state", str(game), "--events")
    assert "=None" not in out
    code, _, err = run(capsys, "flags", str(game), "dismiss", "999", "--reason", "x")
    assert code == 2 and "没有编号为 999 的违规记录" in err


# --------------------------------------------------------------- 17. an unreachable forum


def test_an_unreachable_forum_fails_at_once_and_says_how_many_tries(game: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import time

    with socket.socket() as s:  # a port with nothing listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('forum = "http://127.0.0.1:8080/"', f'forum = "http://127.0.0.1:{port}/"'),
                    encoding="utf-8")
    started = time.monotonic()
    code, _, err = run(capsys, "crawl", str(game))
    assert code == 5 and time.monotonic() - started < 5
    assert "连接被拒绝（该地址和端口上没有论坛在运行），共尝试 1 次" in err


def test_the_demo_says_it_confirms_and_leaves_no_dead_port_behind(demo_job: dict[str, object],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    demo_dir = Path(str(demo_job["workdir"]))
    text = (demo_dir / "demo.toml").read_text(encoding="utf-8")
    assert 'forum = "http://127.0.0.1:8080/"' in text
    assert text.startswith("# 回放服务器随 `tracker demo` 退出而停止") and f"tracker demo --dir {demo_dir}" in text
    from tracker.demo.run import summary_text

    summary = {"game": "演示局", "ruleset": "luoluo-m19", "forum": "http://127.0.0.1:1/",
               "crawl": {"threads": [], "requests": 0, "posts_new": 0, "posts_changed": 0},
               "days": [{"day": 1, "votes": [], "confirmed": [], "lurkers": []},
                        {"day": 2, "votes": [], "confirmed": [], "lurkers": []}],
               "flags": {"open": 0, "by_kind": {}}, "reports": [], "database": "x", "seconds": 0}
    assert "演示会替导演确认第 1–2 日的投票结果（写入游戏事件）" in summary_text(summary)


# ------------------------------------------------------------------------- 15. one term per thing


def test_the_words_a_director_reads_are_one_term_per_thing(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tally", str(game), "--day", "1")
    assert code == 0 and "（原文：我投饺子，理由是他发言最好）" in out  # the post's own full-width comma
    code, out, _ = run(capsys, "flags", str(game))
    assert "标记" not in out and "[1] 待审 " in out and "新增违规记录 0 条" in out
    code, out, _ = run(capsys, "flags", "--help")
    assert "标记" not in out
    code, out, _ = run(capsys, "state", str(game))
    assert code == 0
    rows = [x for x in out.splitlines() if x.startswith("  ") and ("存活" in x or "出局" in x)]
    import unicodedata

    def col(line: str, word: str) -> int:  # display column where the status word starts
        head = line[: line.index(word)]
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in head)

    花 = next(r for r in rows if "花千树" in r)
    泡 = next(r for r in rows if "泡泡" in r)
    assert col(花, "存活") == col(泡, "存活")  # three-character names line up with two-character ones


def test_report_needs_the_director_until_the_lurk_penalties_are_cards(game: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "report", "lurkers", str(game), "--day", "2")
    assert code == 10 and "需处理：潜水待判罚：碎碎 发言不足（5-(1)）——tracker card GAME.toml from-lurker --day 2" in err
    code, _, err = run(capsys, "report", "cards", str(game), "--day", "2")
    assert code == 10 and "潜水待判罚：碎碎" in err
    run(capsys, "card", str(game), "from-lurker", "--day", "2")
    code, _, err = run(capsys, "report", "lurkers", str(game), "--day", "2")
    assert code == 0 and "潜水待判罚" not in err
    code, out, err = run(capsys, "report", "cards", str(game), "--day", "2", "--format", "bbcode")
    assert "潜水待判罚" not in err and out.count("潜水（") == 6  # the 公示 carries what the lurker list ruled
