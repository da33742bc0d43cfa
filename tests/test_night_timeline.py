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
        desk = svc.night_desk()
        before = desk.preview(phase_key(night=1))
        assert "通灵：被指杀的角色是阿狸" in [f.content for f in before.result.feedback]
        for day in (1, 2):
            svc.tally_day(day)
            svc.confirm_day(day, recorded_by="演示")
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
