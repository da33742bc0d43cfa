"""`tracker rulesets / init / event / state` end to end on a temporary game file and database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rulesets_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rulesets", "--json")
    doc = json.loads(out)
    assert code == 0 and {d["id"] for d in doc} >= {"dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"}
    assert set(doc[0]) == {"id", "name", "source", "players", "factions", "code"}


@pytest.mark.parametrize("rid", ["dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65", "werewolf-12"])
def test_init_writes_a_game_file_whose_roles_check(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   rid: str) -> None:
    game = tmp_path / "g.toml"
    code, _, err = run(capsys, "init", "--ruleset", rid, "--out", str(game), "--opens", "2025-03-03T10:00:00+08:00")
    assert code == 0, err
    code, out, err = run(capsys, "state", str(game), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["outcome"] is None and doc["roster_problems"] == []
    assert all(p["status"] == "alive" for p in doc["players"])
    code, _, err = run(capsys, "init", "--ruleset", rid, "--out", str(game))
    assert code == 2 and "已存在" in err


@pytest.mark.parametrize(("rid", "numbered"), [("werewolf-12", True), ("luoluo-m19", False)])
def test_init_numbers_the_players_where_the_post_calls_them_by_number(tmp_path: Path, rid: str,
                                                                      numbered: bool) -> None:
    """werewolf-12 一、"玩家按报名顺序编号 1—12 号，全程以号码称呼": the game file gives each player
    his seat (so 投票对象：7 names 7号); a post that calls players by name gets no seats."""
    from tracker.config import load_game

    game = tmp_path / "g.toml"
    assert main(["init", "--ruleset", rid, "--out", str(game)]) == 0
    seats = [p.seat for p in load_game(game).players]
    assert seats == (list(range(1, len(seats) + 1)) if numbered else [None] * len(seats))


def test_event_state_undo_and_outcome(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.toml"
    run(capsys, "init", "--ruleset", "sanguo-213", "--out", str(game), "--opens", "2025-03-03T10:00:00+08:00")
    code, out, _ = run(capsys, "event", str(game), "sheriff", "--player", "玩家20", "--json")
    assert code == 0 and json.loads(out)["event"]["kind"] == "tag_given"
    code, out, _ = run(capsys, "event", str(game), "card_consequence", "--player", "玩家01", "--data", "color=red",
                       "--json")
    first_red = json.loads(out)["event"]["seq"]
    code, out, _ = run(capsys, "event", str(game), "red_card", "--player", "玩家02", "--json")
    # 同一阵营的角色累计获得两张或以上红牌时，阵营判负 → 村民
    assert json.loads(out)["outcome"]["winner"] == "村民"
    code, out, _ = run(capsys, "state", str(game), "--json", "--events")
    doc = json.loads(out)
    by_name = {p["name"]: p for p in doc["players"]}
    assert by_name["玩家01"]["status"] == "out" and "警长" in by_name["玩家20"]["tags"]
    assert len(doc["events"]) == 3
    code, out, _ = run(capsys, "event", str(game), "undo", "--seq", str(first_red), "--reason", "误判", "--json")
    assert code == 0 and json.loads(out)["outcome"] is None
    code, out, _ = run(capsys, "state", str(game))
    assert "尚未分出" in out and "玩家20" in out
    # errors a director can meet: Chinese message, exit code, no traceback
    code, _, err = run(capsys, "event", str(game), "eliminated", "--player", "无名氏")
    assert code == 7 and "没有名为" in err
    code, _, err = run(capsys, "event", str(game), "promoted", "--player", "玩家03")
    assert code == 2 and "不认识的事件类型" in err  # a typo in the command, not a game rule (7)
