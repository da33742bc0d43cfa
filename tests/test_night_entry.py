"""A night submission is read once (tracker.service.night_desk.parse_entry): the command line and the
TUI's 夜晚 entry line refuse the same bad entry with the same words (issue 23 item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.cli import main
from tracker.errors import EntryError
from tracker.service import Service
from tracker.service.night_desk import NightEntry, parse_entry, parse_entry_line
from tui.gateway import Gateway


def _game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "game.toml"
    assert main(["init", "--ruleset", "luoluo-m19", "--out", str(out), "--opens", "2025-03-01T10:00:00"]) == 0
    capsys.readouterr()
    return out


def test_the_cli_and_the_tui_refuse_an_entry_without_its_skill_in_the_same_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path, capsys)
    code = main(["night", str(game), "--night", "1", "add", "饺子"])
    err = capsys.readouterr().err
    assert code == 2, err
    svc = Service.open(game)
    try:
        with pytest.raises(EntryError) as refused:
            Gateway(svc).night_add(1, "饺子")
    finally:
        svc.close()
    assert err.startswith("错误：") and refused.value.message in err
    assert refused.value.hint is not None and refused.value.hint in err
    assert "行动者 技能" in refused.value.message


def test_a_line_and_the_words_with_a_choice_read_alike() -> None:
    line = parse_entry_line("掠夺者 技能掠夺 P04 -- 黄王 ")
    assert line == parse_entry(["掠夺者", "技能掠夺", "P04"], "黄王") == NightEntry("掠夺者", "技能掠夺", ("P04",), "黄王")
    assert parse_entry_line("狼群(银鸦,风行) 杀人 泡泡") == NightEntry("狼群(银鸦,风行)", "杀人", ("泡泡",))
    with pytest.raises(EntryError):
        parse_entry_line("饺子 -- 守护 包子")  # the skill after the choice's marker is no skill
