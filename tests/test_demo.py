"""`tracker demo`: the whole job, offline, from the package's own data (no tests/fixtures involved)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tracker.cli import main

SCENARIO = Path(__file__).parent / "fixtures" / "discuz" / "scenario.json"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, demo_job: dict[str, object]) -> dict[str, object]:
    # the session's `tracker demo --json` summary; this module's commands run on a copy of its directory
    workdir = tmp_path_factory.mktemp("demo") / "job"
    shutil.copytree(str(demo_job["workdir"]), workdir)
    return dict(demo_job, workdir=str(workdir))


def test_the_demo_crawls_every_game_thread(demo: dict) -> None:
    crawl = demo["crawl"]
    assert sorted(t["tid"] for t in crawl["threads"]) == [2, 3, 4, 5, 6]
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    visible = sum(1 for p in scenario["posts"] if p["tid"] in (2, 3, 4, 5, 6) and p["visible_to_guest"])
    assert crawl["posts_new"] == visible


def test_the_demo_elects_the_sheriff_then_weighs_his_vote(demo: dict) -> None:
    day1, day2 = demo["days"]
    assert day1["votes"][0]["public_totals"] == {"饺子": 5, "包子": 3, "泡泡": 2}
    assert any("饺子" in c and "警长" in c for c in day1["confirmed"])
    # luoluo-m19: 警长 1.5 票 — 饺子 votes 包子 on day 2.
    assert day2["votes"][0]["totals"] == {"栗子": 6, "包子": 3.5}
    assert any("栗子" in c for c in day2["confirmed"])


def test_the_demo_finds_the_expected_flags_and_lurkers(demo: dict) -> None:
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    expected: dict[str, int] = {}
    for p in scenario["posts"]:
        if p["tid"] in (2, 3, 4, 5, 6):
            for f in p["expect"].get("flags", []):
                kind = str(f if isinstance(f, str) else f.get("kind", f.get("flag"))).split(":")[0]
                kind = {"dead_player_post": "posted_while_out"}.get(kind, kind)
                expected[kind] = expected.get(kind, 0) + 1
    assert demo["flags"]["by_kind"] == expected
    for day in demo["days"]:
        short = {p["player"] for p in day["lurkers"] if p["rule"] == "min_posts"}
        assert short == set(scenario["expected"][f"day{day['day']}"]["yellow_cards"])


def test_the_demo_writes_reports_that_open_offline(demo: dict) -> None:
    paths = [Path(p) for p in demo["reports"]]
    assert all(p.exists() for p in paths)
    html = next(p for p in paths if p.name == "day2-tally.html").read_text(encoding="utf-8")
    assert "<svg" in html
    assert not re.search(r"(src|href)=\"?https?:", html)  # nothing to fetch: opens offline
    # Written after both days were confirmed: the recount must not see its own exile.
    assert "栗子 票数最高（6 票）" in html


def _cli(*args: str) -> tuple[int, str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


def test_the_elevator_links_every_player_still_in_to_their_posts_of_the_day(demo: dict) -> None:
    game = str(Path(str(demo["workdir"])) / "demo.toml")
    code, text = _cli("elevator", game, "--day", "2")
    assert code == 0
    links = re.findall(r"\[url=[^\]]*tid=5&page=1&authorid=(\d+)\]([^\[]+)\[/url\]", text)
    names = [n for _, n in links]
    assert "阿狸" not in names and "老王" not in names  # out after night 1
    assert len(names) == 12 and ("2", "泡泡") in links


def test_the_day_two_announcement_lists_night_one_and_the_sheriff(demo: dict) -> None:
    game = str(Path(str(demo["workdir"])) / "demo.toml")
    code, text = _cli("announce", game, "--day", "2")
    assert code == 0
    assert "第1日夜晚出局：阿狸、老王" in text and "当日警长：饺子" in text and "第1日白天出局：无" in text


def test_cron_report_exit_code_says_the_director_is_needed(demo: dict) -> None:
    game = str(Path(str(demo["workdir"])) / "demo.toml")
    code, text = _cli("report", "lurkers", game, "--day", "2", "--json")
    doc = json.loads(text)
    assert code == 10 and doc["needs_director"] and any("银鸦" in i for i in doc["items"])


def test_the_demo_settles_night_one_into_the_recorded_deaths(demo: dict) -> None:
    """Night 1 is settled by the engine from the submitted actions (data/nights.toml), not typed in:
    the pack strikes 阿狸, who is 受 — "不论受到任何防卫性技能的保护（如<救药>、<救治>等）都将立即出局" —
    so 青铃's 救治 does not save her, and her lover 老王 follows by 殉情. The process thread's 公示 order."""
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    night1, _ = demo["nights"]
    assert night1["night"] == 1 and night1["confirmed"] and night1["rejected"] == []
    assert [d["player"] for d in night1["deaths"]] == scenario["deaths"]["night1"] == ["阿狸", "老王"]
    assert night1["deaths"] == [{"player": "阿狸", "cause": "杀人（狼群指杀）"},
                                {"player": "老王", "cause": "殉情（阿狸出局）"}]
    assert night1["out_order"] == ["阿狸", "老王"]
    assert night1["announcement"] == ["第1夜出局：阿狸、老王", "当日警长：饺子", "遗言：阿狸、老王（若提交）"]
    # 通灵 to the witch, 预言 to the seer, an exit notice to each of the two
    assert night1["feedback"] == 4


def test_the_demo_settles_night_two_after_the_exile_without_ending_the_game(demo: dict) -> None:
    """Night 2 follows day 2's confirmed exile of 栗子: the witch's 救药 saves the seer from the
    pack (after 通灵 told her), the doctor's 救治 on an unstruck 饺子 is one 空救, 小白 is kidnapped."""
    night2 = demo["nights"][1]
    assert night2["night"] == 2 and night2["confirmed"] and night2["rejected"] == []
    assert night2["deaths"] == [] and night2["out_order"] == []
    assert night2["survivals"] == [{"player": "泡泡", "reason": "女巫<救药>：有效指杀不导致出局"}]
    assert night2["announcement"] == [
        "第2天因投票出局：栗子", "第2夜无人出局", "当日警长：饺子", "遗言：栗子（若提交）",
        "小白被绑架（第3天只能用动物叫声或小镇表情回答提问）"]
    assert night2["feedback"] == 4 and night2["outcome"] is None
    assert demo["outcome"] is None


def test_the_desk_shows_the_demo_nights_confirmed_with_their_feedback(demo: dict) -> None:
    game = str(Path(str(demo["workdir"])) / "demo.toml")
    code, text = _cli("night", game, "--night", "1")
    assert code == 0
    assert "第1夜结算（已确认）" in text and "已提交 3 个行动" in text
    assert "狼群(银鸦,栗子,风行)<杀人> → 阿狸" in text and "弱受" in text
    code, text = _cli("night", game, "--night", "2", "--json")
    doc = json.loads(text)
    assert code == 0 and doc["confirmed"] is True
    assert {"to": "花千树", "content": "通灵：被指杀的角色是泡泡"} in doc["feedback"]
    assert {"to": "泡泡", "content": "预言：银鸦 <非村民阵营>"} in doc["feedback"]
    assert doc["state_after"]["空救"] == {"饺子": 1}
    # confirmed once: the desk refuses a second confirmation of a demo night
    code, _ = _cli("night", game, "--night", "1", "confirm")
    assert code == 7


def test_the_demo_summary_shows_each_night_after_its_day(demo: dict) -> None:
    from tracker.demo.run import summary_text

    text = summary_text(demo)
    day2 = text.index("第2日 投票帖")
    night1 = text.index("第1夜（3 个行动，已确认）：出局 阿狸（杀人（狼群指杀））、老王（殉情（阿狸出局））")
    night2 = text.index("第2夜（6 个行动，已确认）：无人出局")
    assert night1 < day2 < night2
    assert "公示草稿：第1夜出局：阿狸、老王；当日警长：饺子" in text
    assert "存活：泡泡（女巫<救药>：有效指杀不导致出局）" in text


def test_the_demo_roster_is_a_legal_m19_assignment(demo: dict) -> None:
    """14 roles as the post deals them, 丘比特 变民 by his lovers; the fold sees night 1's exits."""
    game = str(Path(str(demo["workdir"])) / "demo.toml")
    code, text = _cli("state", game, "--json")
    doc = json.loads(text)
    assert code == 0 and doc["roster_problems"] == [] and doc["warnings"] == []
    players = {p["name"]: p for p in doc["players"]}
    assert sorted(p["role"] for p in players.values() if p["faction"] == "狼人") == ["公狼", "幼狼", "绑匪", "老狼"]
    assert players["劫火"]["faction"] == "村民"
    assert [n for n, p in players.items() if p["status"] == "out"] == ["栗子", "阿狸", "老王"]
