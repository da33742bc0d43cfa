"""A red card's exit as the desk's table sees it (issue 21): "a red card recorded before its day
opens; a later desk shot … sees the hunter" as if he had not been carded off, because the table's
``出局`` record was built from the vote's and the nights' exits only, never from the red card's.

The rule posts: "玩家受到红牌判罚时出局（称为“红牌罚下”）" (213, M19): the exit happens when the card is
given, i.e. when the director records it; its day is the game day in force then (the day the desk
settles what the red card sets off). M65: "<最后一枪>（条件）：当你因非红牌的情况出局时，你可以立即选择
一名玩家带走" — a red-carded 红王 does not shoot.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_red_card_recorded_before_its_day_opens_stops_the_carded_players_shot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "m65.toml"
    opens = (datetime.now().astimezone() + timedelta(days=2)).replace(microsecond=0)
    assert run(capsys, "init", "--ruleset", "accel-m65", "--out", str(game), "--opens", opens.isoformat())[0] == 0
    g = str(game)
    players = {p["role"]: p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    red_king, victim = players["红王"], players["黑王"]
    # the director cards 红王 off for day 1 before day 1 opens
    code, out, err = run(capsys, "card", g, "issue", red_king, "--color", "红", "--reason", "场外通马甲", "--day", "1")
    assert code == 0, err
    # then 红王's <最后一枪> is submitted for that day
    assert run(capsys, "night", g, "--day", "1", "add", red_king, "最后一枪", victim)[0] == 0
    code, out, err = run(capsys, "night", g, "--day", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    seat = next(p for p in doc["table"]["players"] if p["name"] == red_king)
    assert seat["alive"] is False and seat["出局"] == {"day": 1, "cause": "红牌"}
    assert doc["deaths"] == []
    assert any(f"{red_king}因红牌出局，<最后一枪>不触发" in line for line in doc["log"]), doc["log"]
