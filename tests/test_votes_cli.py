"""`tracker tally` end to end: the demo game's real vote pages in a store, the JSON contract, rulesets."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.captured_pages import PAGES as CAPTURED
from tracker.cli import main
from tracker.demo.nights import play_demo_nights
from tracker.scraper.desktop import parse_thread_page
from tracker.store.db import Store
from tracker.store.posts import upsert_posts

FIXTURES = Path(__file__).parent / "fixtures" / "discuz"
DEMO_GAME = Path(__file__).parent.parent / "tracker" / "demo" / "data" / "game.toml"
PAGES = {"day1-vote": 3, "day2-vote": 2}


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    shutil.copy(DEMO_GAME, path)
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    try:
        for name, pages in PAGES.items():
            for n in range(1, pages + 1):
                page = parse_thread_page((CAPTURED / f"{name}-p{n}.html").read_bytes())
                with store.session() as s:
                    upsert_posts(s, page.posts, seen_at=datetime(2025, 3, 5, tzinfo=UTC))
    finally:
        store.close()
    play_demo_nights(path, db_url=f"sqlite:///{tmp_path / 'game.db'}")  # night 1: 阿狸 and 老王 out
    return path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_tally_json_contract_day1(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "tally", str(game), "--day", "1", "--json")
    assert {"day", "ballots", "final", "totals", "public_totals", "outcome"} <= set(doc)
    assert doc["day"] == 1
    for b in doc["ballots"]:
        assert {"pid", "floor", "voter", "target", "kind", "valid", "reason"} <= set(b)
        assert b["kind"] in ("vote", "change", "proxy")
        assert (b["reason"] is None) == b["valid"]
    assert doc["totals"] == {"饺子": 5, "包子": 3, "泡泡": 2}
    assert doc["outcome"]["kind"] == "elected" and doc["outcome"]["player"] == "饺子"
    reasons = {b["pid"]: b["reason"] for b in doc["ballots"]}
    assert reasons[104] == "change_without_quote: 改票未引用原投票楼层（原投票在 11 楼）"


def test_tally_day2_under_m19_weighs_the_elected_sheriff(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo game is luoluo-m19: 饺子, elected 警长 on day 1 (not yet confirmed), weighs 1.5."""
    doc = run_json(capsys, "tally", str(game), "--day", "2", "--json")
    assert doc["totals"] == {"栗子": 6, "包子": 3.5}
    assert doc["outcome"]["player"] == "栗子" and doc["outcome"]["kind"] == "exiled"
    assert doc["provisional"], "an unconfirmed election is said to be provisional"
    assert doc["final"]["饺子"] == "包子"
    assert "阿狸" not in doc["final"]


def test_recount_under_another_ruleset(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--ruleset: the same ballots under 107 (unlimited changes, no freeze; only some roles vote)."""
    doc = run_json(capsys, "tally", str(game), "--day", "2", "--ruleset", "dnf-107", "--json")
    by_pid = {b["pid"]: b for b in doc["ballots"]}
    assert by_pid[195]["valid"] is True  # 碎碎's change inside the last hour: 107 has no freeze
    assert doc["final"]["碎碎"] == "包子"


def test_bbcode_announcement(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tally", str(game), "--day", "2", "--bbcode"]) == 0
    out = capsys.readouterr().out
    assert "[b]无效票[/b]" in out and "栗子 票数最高" in out and "包子：3.5 票" in out
    # times from the store are UTC; the director reads the forum's zone
    assert "发帖 03-04 22:05:00，关门 03-04 22:00" in out


def test_unknown_day_is_a_chinese_error(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tally", str(game), "--day", "9", "--json"]) == 2
    assert "第 9 日" in capsys.readouterr().err


def test_confirm_records_the_election_then_day2_is_no_longer_provisional(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "confirm", str(game), "--day", "1", "--json")
    (vote,) = doc["votes"]
    assert vote["chosen"] == "饺子"
    assert [(e["kind"], e["player"], e["data"]["tag"]) for e in vote["events"]] == [("tag_given", "饺子", "警长")]
    day2 = run_json(capsys, "tally", str(game), "--day", "2", "--json")
    assert day2["provisional"] == [] and day2["totals"] == {"栗子": 6, "包子": 3.5}
    # a second confirmation would record the election twice
    assert main(["confirm", str(game), "--day", "1", "--json"]) == 7
    assert "已经确认过" in capsys.readouterr().err


def test_confirm_day2_exiles_and_the_state_follows(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_json(capsys, "confirm", str(game), "--day", "1", "--json")
    doc = run_json(capsys, "confirm", str(game), "--day", "2", "--json")
    (vote,) = doc["votes"]
    assert vote["chosen"] == "栗子"
    # the exile is submitted to the night desk and settled with what it sets off (nothing, here)
    assert [(e["kind"], e["player"]) for e in vote["events"]] == [
        ("night_action", None), ("eliminated", "栗子"), ("night_settled", None)]
    assert vote["settlement"]["phase"] == "day:2"
    assert vote["settlement"]["deaths"] == [{"player": "栗子", "cause": "投票出局"}]
