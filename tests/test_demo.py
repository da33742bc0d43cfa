"""`tracker demo`: the whole job, offline, from the package's own data (no tests/fixtures involved)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tracker.cli import main

SCENARIO = Path(__file__).parent / "fixtures" / "discuz" / "scenario.json"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    workdir = tmp_path_factory.mktemp("demo")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["demo", "--json", "--dir", str(workdir)])
    assert code == 0
    return dict(json.loads(out.getvalue()), workdir=str(workdir))


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
