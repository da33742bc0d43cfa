"""Issue 21, "The timeline": a confirmed phase is history. What it showed when the director confirmed
it is what it shows afterwards (read back, never settled again on today's table); it takes no more
submissions; changing it is an explicit reopen that names the later phases built on it; and a phase
settled again settles on the table of its own time, not on the one later phases left.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from night_toy_hooks import toy_game

from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.engine.night.desk import phase_key
from tracker.engine.night.games import MODULES


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(MODULES, "toy-night", "night_toy_hooks")
    return toy_game(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def night(capsys: pytest.CaptureFixture[str], g: str, n: int, *words: str) -> tuple[int, str, str]:
    return run(capsys, "night", g, "--night", str(n), *words)


def test_the_demo_night_one_keeps_its_feedback_after_night_two(tmp_path: Path) -> None:
    """Issue 21 item 1: "in `tracker demo`, once night 2 is confirmed, night 1 no longer shows the
    女巫's 通灵 feedback" — a confirmed night shows the settlement recorded at confirm."""
    from tui_demo import open_demo

    from tracker.demo.nights import play_nights

    svc = open_demo(tmp_path, filled=False, at=datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI))
    try:
        desk = svc.night_desk
        before = desk.preview(phase_key(night=1))
        assert "通灵：被指杀的角色是阿狸" in [f.content for f in before.result.feedback]
        for day in (1, 2):
            svc.votes.tally_day(day)
            svc.votes.confirm_day(day, recorded_by="演示")
        play_nights(svc, (2,))
        after = desk.preview(phase_key(night=1))
        assert after.confirmed is not None
        assert after.result.to_json() == before.result.to_json()
        assert [e.seq for e in after.submitted] == [e.seq for e in before.submitted]
    finally:
        svc.close()


def test_a_confirmed_night_takes_no_add_or_remove(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 2: "A confirmed phase takes no `add` / `remove` (today accepted, "已提交（事件 14）")"."""
    g = str(game)
    assert night(capsys, g, 2, "add", "狼群(银鸦)", "杀人", "栗子")[0] == 0
    assert night(capsys, g, 2, "confirm")[0] == 0
    code, _, err = night(capsys, g, 2, "add", "饺子", "守护", "包子")
    assert code == 7 and "第2夜已经确认结算" in err and "不能再添加" in err and "reopen" in err
    code, _, err = night(capsys, g, 2, "remove", "狼群(银鸦)", "杀人")
    assert code == 7 and "不能再撤回" in err and "reopen" in err
    doc = json.loads(night(capsys, g, 2, "--json")[1])
    assert doc["confirmed"] is True and [s["skill"] for s in doc["submitted"]] == ["杀人"]


def test_reopen_undoes_the_confirmation_and_what_it_recorded(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 1: "Changing a confirmed phase is an explicit reopen/undo that names the later
    phases built on it"."""
    g = str(game)
    night(capsys, g, 2, "add", "狼群(银鸦)", "杀人", "栗子")
    night(capsys, g, 2, "confirm")
    night(capsys, g, 3, "add", "狼群(银鸦)", "杀人", "包子")
    night(capsys, g, 3, "confirm")
    code, _, err = night(capsys, g, 2, "reopen")
    assert code == 7 and "第3夜" in err and "--night 3 reopen" in err
    code, out, _ = night(capsys, g, 3, "reopen")
    assert code == 0 and "已重新打开第3夜" in out
    players = {p["name"]: p for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    assert players["包子"]["status"] == "alive" and players["栗子"]["status"] == "out"
    code, out, _ = night(capsys, g, 2, "reopen")
    assert code == 0
    players = {p["name"]: p for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    assert players["栗子"]["status"] == "alive"
    # reopened: submissions change, and it is confirmed again
    assert night(capsys, g, 2, "remove", "狼群(银鸦)", "杀人")[0] == 0
    assert night(capsys, g, 2, "add", "狼群(银鸦)", "杀人", "饺子")[0] == 0
    code, out, _ = night(capsys, g, 2, "confirm")
    assert code == 0 and "饺子出局" in out
    code, _, err = night(capsys, g, 4, "reopen")
    assert code == 7 and "还没有确认结算" in err


def test_a_phase_confirmed_late_names_what_was_settled_without_it(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 6: a confirm does not "silently settle": night 2 confirmed after night 3 says
    that night 3 was settled without it."""
    g = str(game)
    night(capsys, g, 3, "add", "狼群(银鸦)", "杀人", "包子")
    assert night(capsys, g, 3, "confirm")[0] == 0
    night(capsys, g, 2, "add", "狼群(银鸦)", "杀人", "栗子")
    code, _, err = night(capsys, g, 2, "confirm")
    assert code == 0 and "其后已确认的结果没有包含第2夜的结算：第3夜的结算" in err


def test_a_phase_settled_again_starts_from_the_table_of_its_time(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 6: "a re-confirm does not silently settle on the final table"; and undoing a
    past event "says which later results depend on it"."""
    g = str(game)
    night(capsys, g, 2, "add", "饺子", "守护", "包子")
    night(capsys, g, 2, "confirm")
    night(capsys, g, 3, "add", "饺子", "守护", "栗子")
    night(capsys, g, 3, "confirm")
    events = json.loads(run(capsys, "state", g, "--json", "--events")[1])["events"]
    settled2 = next(e["seq"] for e in events if e["kind"] == "night_settled" and e["data"]["phase"] == "night:2")
    code, _, err = run(capsys, "event", g, "undo", "--seq", str(settled2))
    assert code == 0 and "第3夜" in err
    doc = json.loads(night(capsys, g, 2, "--json")[1])
    assert doc["confirmed"] is False
    assert "守护上次" not in doc["table"]["state"]  # not night 3's {栗子, 3}: nothing was settled before night 2


def test_state_events_are_readable_lines(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 5: "`state --events` is readable (today Python dicts with English keys, one
    screenful per event)"."""
    g = str(game)
    night(capsys, g, 2, "add", "饺子", "守护", "包子")
    night(capsys, g, 2, "add", "狼群(银鸦)", "杀人", "栗子")
    night(capsys, g, 2, "confirm")
    code, out, _ = run(capsys, "state", g, "--events")
    assert code == 0
    lines = [line for line in out.splitlines() if line.lstrip().startswith("#")]
    assert len(lines) == 4
    for line in lines:
        assert "{'" not in line and "phase=" not in line and "table=" not in line and len(line) < 160, line
    assert any("第2夜，饺子<守护> → 包子" in line for line in lines)
    assert any("结算确认（night_settled） 第2夜，出局：栗子（杀人（狼群））" in line for line in lines)
    assert any("出局（eliminated） 栗子 第2夜，原因 杀人（狼群）" in line for line in lines)


def test_setup_facts_use_the_vocabulary_and_act(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 4: "An unknown field is refused with the nearest names (today anything is
    recorded). Documented fields act: M160 `座次` (today only `seat` works, and 毒害's neighbour is
    lost silently), M160 `tags` into the player's tags (群内 never seen …), M19 `警长` (recorded,
    then erased)"."""
    g = str(game)
    code, _, err = run(capsys, "night", g, "setup", "英熊", "饺子", "--player", "包子")
    assert code == 2 and "不认识的设定 '英熊'" in err and "英雄" in err
    code, _, err = run(capsys, "night", g, "setup", "座次环型", "false")
    assert code == 2 and "座次环形" in err
    code, _, err = run(capsys, "night", g, "setup", "英雄", "饺子")
    assert code == 2 and "--player" in err
    code, out, _ = run(capsys, "night", g, "setup", "座次", "2", "--player", "包子")
    assert code == 0 and "座次（seat） = 2" in out
    assert run(capsys, "night", g, "setup", "tags", '["群内"]', "--player", "栗子")[0] == 0
    code, out, _ = run(capsys, "night", g, "setup", "警长", "饺子")
    assert code == 0 and "饺子 开局持有警长" in out
    table = json.loads(night(capsys, g, 2, "--json")[1])["table"]
    seats = {p["name"]: p for p in table["players"]}
    assert seats["包子"]["seat"] == 2  # the M160 hooks' neighbours read `seat`
    assert "群内" in seats["栗子"]["tags"]
    assert table["state"]["警长"] == "饺子" and "警长" in seats["饺子"]["tags"]
    players = {p["name"]: p for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    assert "警长" in players["饺子"]["tags"]


def test_state_shows_the_statuses_and_marks_the_nights_left(tmp_path: Path) -> None:
    """Issue 21 item 5: "`tracker state` (text, JSON, TUI) shows statuses and marks: 净化, 守护,
    中毒, 绑架, 丑角, 英雄, 情侣, 枯竭 …"."""
    from tui_demo import open_demo

    from tracker.cli.json_docs import state_json
    from tracker.demo.nights import play_nights
    from tui.gateway import Gateway

    svc = open_demo(tmp_path, filled=False, at=datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI))
    try:
        for day in (1, 2):
            svc.votes.tally_day(day)
            svc.votes.confirm_day(day, recorded_by="演示")
        play_nights(svc, (2,))  # 取酒 <绑架> 小白
        players = {p["name"]: p for p in state_json(svc.summary())["players"]}
        assert "绑架" in players["小白"]["marks"]
        assert "英雄：泡泡" in players["包子"]["marks"] and "设计目标：小白" in players["取酒"]["marks"]
        assert players["阿狸"]["tags"] == ["情侣:受"] and players["阿狸"]["marks"] == []  # a tag is not repeated
        rows = {r.name: r for r in Gateway(svc).players()}
        assert "绑架" in rows["小白"].marks
    finally:
        svc.close()


def test_a_day_skill_reaches_that_night(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 3: "A day skill confirmed at the desk reaches that night (107 牵制/教化 …: today
    the night ignores them, and re-submitting them at night is refused "本次为夜晚")". 107 牵制:
    "该角色当晚发动的非团队的<普通>和<限定>技能无效"."""
    game = tmp_path / "g.toml"
    assert run(capsys, "init", "--ruleset", "dnf-107", "--out", str(game), "--opens", "2025-03-03T10:00:00+08:00")[0] == 0
    g = str(game)
    roles = {p["role"]: p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    militia = [p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"] if p["role"] == "民兵"]
    swordsman, victim = roles["剑士"], roles["恶徒"]
    team = f"民兵({','.join(militia)})"
    assert run(capsys, "night", g, "--day", "1", "add", team, "牵制", swordsman)[0] == 0
    assert run(capsys, "night", g, "--day", "1", "confirm")[0] == 0
    assert night(capsys, g, 1, "add", swordsman, "蓄力斩", victim)[0] == 0
    doc = json.loads(night(capsys, g, 1, "--json")[1])
    assert doc["deaths"] == [] and any("牵制" in line for line in doc["log"])
    # recorded at the night desk instead (the director typed it late): the day's use, not refused
    day_submission = next(e["seq"] for e in json.loads(run(capsys, "state", g, "--json", "--events")[1])["events"]
                          if e["kind"] == "night_action" and e["data"]["skill"] == "牵制")
    assert run(capsys, "night", g, "--day", "1", "reopen")[0] == 0
    assert run(capsys, "event", g, "undo", "--seq", str(day_submission))[0] == 0
    assert json.loads(night(capsys, g, 1, "--json")[1])["deaths"] != []  # no 牵制: the 蓄力斩 kills
    assert night(capsys, g, 1, "add", team, "牵制", swordsman)[0] == 0
    doc = json.loads(night(capsys, g, 1, "--json")[1])
    # the 牵制 itself is taken; the restrained 剑士 is listed as refused (a blocked actor, issue 21)
    assert [(r["actor"], r["skill"]) for r in doc["rejected"]] == [(swordsman, "蓄力斩")] and doc["deaths"] == []


def test_m65_day_skill_and_night_vote_marks_hand_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21 item 3, M65: <飞行头槌> "游戏日白天任意时刻……使得该玩家当晚无法使用任何技能" reaches
    the night; and "A night effect on votes reaches the next tally (M65 深青之桩 / 天枢剑圣 doubling:
    today written nowhere, `state` shows `modifiers: []`)" — 深青之桩 "使其第二天被投票数加倍（暗记）"."""
    game = tmp_path / "g.toml"
    assert run(capsys, "init", "--ruleset", "accel-m65", "--out", str(game), "--opens", "2025-03-03T10:00:00+08:00")[0] == 0
    g = str(game)
    roles = {p["role"]: p["name"] for p in json.loads(run(capsys, "state", g, "--json")[1])["players"]}
    crow, knight, target = roles["银鸦"], roles["骑士"], roles["掠夺者"]
    assert night(capsys, g, 1, "add", knight, "深青之桩", target)[0] == 0
    assert run(capsys, "night", g, "--day", "1", "add", crow, "飞行头槌", knight)[0] == 0
    assert run(capsys, "night", g, "--day", "1", "confirm")[0] == 0
    doc = json.loads(night(capsys, g, 1, "--json")[1])
    assert any("飞行头槌" in line and knight in line for line in doc["log"]) and "vote_marks" not in doc
    # without the 飞行头槌 the mark lands, and confirming writes it where the tally reads it
    assert run(capsys, "night", g, "--day", "1", "reopen")[0] == 0
    assert run(capsys, "night", g, "--day", "1", "remove", crow, "飞行头槌")[0] == 0
    assert night(capsys, g, 1, "confirm")[0] == 0
    modifiers = json.loads(run(capsys, "state", g, "--json")[1])["modifiers"]
    assert [(m["kind"], m["player"], m["day"], m["effect"], m["value"]) for m in modifiers] == [
        ("深青之桩", target, 2, "received_multiply", 2.0)]
    out = run(capsys, "state", g, "--events")[1]
    assert f"暗记（modifier） {target} 第1夜，作用于第2日，名称 深青之桩" in out


def test_reopening_a_vote_day_lets_the_vote_be_confirmed_again(tmp_path: Path) -> None:
    """Issue 21 items 1 and 6 on a day: the vote's exile settled at `tracker confirm` is a confirmed
    phase too; reopening it (after the night built on it) undoes the vote's confirmation whole, and
    confirming the day again settles on the table of its time (栗子 out again, nobody wins)."""
    from tui_demo import open_demo

    from tracker.demo.nights import play_nights

    svc = open_demo(tmp_path, at=datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI))
    try:
        for day in (1, 2):
            svc.votes.tally_day(day)
            svc.votes.confirm_day(day, recorded_by="演示")
        play_nights(svc, (2,))
        desk = svc.night_desk
        with pytest.raises(Exception, match="第2夜"):
            desk.reopen(phase_key(day=2))
        desk.reopen(phase_key(night=2))
        desk.reopen(phase_key(day=2))
        assert svc.summary().state.players["栗子"].life == "alive"
        [again] = svc.votes.confirm_day(2, recorded_by="演示")
        assert again.chosen == "栗子" and again.settlement is not None and again.settlement.outcome is None
        assert svc.summary().state.players["栗子"].life == "out"
    finally:
        svc.close()
