"""`tracker night GAME.toml …`: the director submits, previews, confirms once, and the next night
starts from what the last one left — walked through the command line on a toy ruleset.

The toy game (tests/fixtures/night/toy) has a wolf pack and a guard; its hooks are the night
engine's own test hooks. What is proved here is the desk, not a rule post: submissions are events
(removing one is an undo), the preview is the engine's settlement of what stands, confirming writes
the ordinary day events (出局 …) so the state and the win check see the night, and the guard's
"not the same player two nights running" is enforced on the next night from the settled table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from night_toy_hooks import toy_game

from tracker.cli import main
from tracker.engine.night.games import MODULES


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(MODULES, "toy-night", "night_toy_hooks")
    return toy_game(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_submit_preview_confirm_once_and_carry_to_the_next_night(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    assert run(capsys, "night", g, "--night", "2", "add", "饺子", "守护", "包子")[0] == 0
    code, out, err = run(capsys, "night", g, "--night", "2", "add", "狼群(银鸦)", "杀人", "栗子")
    assert code == 0, err
    assert run(capsys, "night", g, "--night", "2", "add", "狼群(银鸦)", "杀人", "包子")[0] == 0
    # the director withdraws the pack's second submission: the first one stands again
    code, out, _ = run(capsys, "night", g, "--night", "2", "remove", "狼群(银鸦)", "杀人")
    assert code == 0 and "已撤回" in out
    code, out, _ = run(capsys, "night", g, "--night", "2", "--json")
    doc = json.loads(out)
    assert doc["confirmed"] is False
    assert [(s["actor"], s["skill"]) for s in doc["submitted"]] == [("饺子", "守护"), ("狼群(银鸦)", "杀人")]
    assert doc["deaths"] == [{"player": "栗子", "cause": "杀人（狼群）"}]
    code, out, _ = run(capsys, "night", g, "--night", "2")
    assert "第2夜结算（预览，未确认）" in out and "栗子出局（杀人（狼群））" in out and "出局：栗子" in out
    code, out, _ = run(capsys, "night", g, "--night", "2", "confirm")
    assert code == 0 and "已确认第2夜的结算" in out
    code, out, err = run(capsys, "night", g, "--night", "2", "confirm")
    assert code == 7 and "已经确认过" in err
    code, out, _ = run(capsys, "state", g, "--json")
    players = {p["name"]: p for p in json.loads(out)["players"]}
    assert players["栗子"]["status"] == "out" and players["包子"]["status"] == "alive"
    # night 3: guarding 包子 again is refused from the settled table's 守护上次
    run(capsys, "night", g, "--night", "3", "add", "饺子", "守护", "包子")
    code, out, _ = run(capsys, "night", g, "--night", "3", "--json")
    doc = json.loads(out)
    assert [r["reason"] for r in doc["rejected"]] == ["<守护>不能连续两晚选择同一名玩家（第2夜已选包子）"]
    assert doc["table"]["state"]["守护上次"] == {"target": "包子", "night": 2}


def test_director_typos_get_the_nearest_names(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    code, _, err = run(capsys, "night", g, "--night", "2", "add", "饺子", "守卫", "包子")
    assert code == 2 and "守护" in err
    code, _, err = run(capsys, "night", g, "--night", "2", "add", "饺孑", "守护", "包子")
    assert code == 7 and "饺子" in err
    code, _, err = run(capsys, "night", g, "--night", "2", "remove", "饺子", "守护")
    assert code == 7 and "没有 饺子 提交的<守护>" in err
    code, _, err = run(capsys, "night", g, "add", "饺子", "守护", "包子")
    assert code == 7 and "--night" in err
    code, _, err = run(capsys, "night", g, "--night", "2", "dance")
    assert code == 2 and "add" in err


def test_setup_facts_reach_the_table(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    assert run(capsys, "night", g, "setup", "座次", "3", "--player", "包子")[0] == 0
    assert run(capsys, "night", g, "setup", "座次环形", "true")[0] == 0
    code, out, _ = run(capsys, "night", g, "--night", "1", "--json")
    assert code == 0
    table = json.loads(out)["table"]
    seats = {p["name"]: p for p in table["players"]}
    assert seats["包子"]["seat"] == 3 and table["state"]["座次环形"] is True  # 座次 is the vocabulary's seat


def test_a_post_that_plays_the_first_night_before_day_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """213: "若此时为游戏的第一天，则进入竞选阶段" comes after the first night, so night 1's deaths
    happen before day 1 opens (night_precedes_day in its night file), not after day 1's close."""
    game = tmp_path / "g.toml"
    assert run(capsys, "init", "--ruleset", "sanguo-213", "--out", str(game),
               "--opens", "2025-03-03T10:00:00+08:00")[0] == 0
    g = str(game)
    wolves = [p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"] if p["role"] == "狼人"]
    seer = next(p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"] if p["role"] == "预言家")
    assert run(capsys, "night", g, "--night", "1", "add", f"狼群({','.join(wolves[:2])})", "杀人", seer)[0] == 0
    assert run(capsys, "night", g, "--night", "1", "confirm")[0] == 0
    events = json.loads(run(capsys, "state", g, "--json", "--events")[1])["events"]
    out = next(e for e in events if e["kind"] == "eliminated")
    assert out["player"] == seer and out["at"] < "2025-03-03T02:00:00+00:00"  # day 1 opens 10:00 +08:00


def test_the_announcement_draft_names_the_outs_once() -> None:
    """Where a post's hooks write the out list in its own words (M19 "第N夜出局：…"), the draft does
    not repeat it; where they do not (213's night lines are 遗言/警长/牧首), the draft leads with it."""
    from tracker.engine.night.model import Settlement
    from tracker.reports.night_settlement import announcement_lines

    own = Settlement(out_order=["甲"], lines=["第2夜出局：甲", "遗言：甲（若提交）"], outs_in_lines=True)
    assert announcement_lines(own) == ["第2夜出局：甲", "遗言：甲（若提交）"]
    bare = Settlement(out_order=["甲", "乙"], lines=["警长：丙"])
    assert announcement_lines(bare) == ["出局：甲、乙", "警长：丙"]
    assert announcement_lines(Settlement(lines=["警长：丙"])) == ["平安夜", "警长：丙"]
