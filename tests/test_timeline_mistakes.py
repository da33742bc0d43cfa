"""Issue 21 item 7: "Mistakes refused with the fix (exit 2)" — each was accepted (or ignored in
silence) and led the director somewhere wrong: a copied day counted twice, a director's vote that
vanished, an event for a day the game does not have, a ``--decide`` that changed nothing, a phase
word nobody defined, a team naming one player twice."""

from __future__ import annotations

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


def edit(game: Path, old: str, new: str) -> None:
    text = game.read_text("utf-8")
    assert old in text
    game.write_text(text.replace(old, new, 1), "utf-8")


def test_two_days_with_the_same_thread_ids(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"two days with the same thread ids (today a copied day 3 "已确认", 16 潜水 cards proposed)"."""
    edit(game, "discussion = 14\nvote = [15]", "discussion = 12\nvote = [13]")
    code, _, err = run(capsys, "state", str(game))
    assert code == 2 and "第 2 日和第 3 日写了同一个帖子 tid" in err and "改正第 3 日" in err


def test_a_director_who_is_also_a_player(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"a director who is also a listed player (today his vote vanishes and a 未投票 card is suggested)"."""
    edit(game, 'directors = ["导演A"]', 'directors = ["导演A", "包子"]')
    code, _, err = run(capsys, "state", str(game))
    assert code == 2 and "包子 既是导演" in err and "[[players]]" in err


def test_an_event_for_a_day_the_file_does_not_have(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"an event for a day the file does not have"."""
    code, _, err = run(capsys, "event", str(game), "benched", "--player", "包子", "--day", "9")
    assert code == 2 and "第 9 日" in err and "1, 2, 3" in err
    edit(game, "[[days]]\nday = 1", '[[events]]\nat = 2025-03-03T12:00:00+08:00\nkind = "benched"\n'
                                      'player = "包子"\nday = 7\n\n[[days]]\nday = 1')
    code, _, err = run(capsys, "state", str(game))
    assert code == 2 and "events[1] 写的是第 7 日" in err


def test_a_decide_key_or_value_that_does_not_exist(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"a `--decide` key or value that does not exist (today ignored silently)"."""
    g = str(game)
    assert run(capsys, "night", g, "--night", "2", "add", "狼群(银鸦)", "杀人", "包子", "--choice", "选择")[0] == 0
    code, out, _ = run(capsys, "night", g, "--night", "2", "--decide", "toy.choice=栗子")
    assert code == 0 and "toy.choice：随机选择一名存活的村民告知 → 栗子（导演指定" in out
    code, _, err = run(capsys, "night", g, "--night", "2", "--decide", "toy.choise=栗子")
    assert code == 2 and "没有待定事项 'toy.choise'" in err and "toy.choice" in err
    code, _, err = run(capsys, "night", g, "--night", "2", "confirm", "--decide", "toy.choice=银鸦")
    assert code == 2 and "没有选项 '银鸦'" in err and "栗子" in err
    assert '"confirmed": false' in run(capsys, "night", g, "--night", "2", "--json")[1]  # nothing recorded


def test_a_phase_word_outside_the_vocabulary(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"a desk phase word outside the vocabulary" (白天/夜晚/晨曦/正午/黄昏/关门/游戏开始前)."""
    g = str(game)
    code, _, err = run(capsys, "night", g, "--day", "2", "--phase", "中午")
    assert code == 2 and "不认识的阶段 '中午'" in err and "正午" in err
    code, out, _ = run(capsys, "night", g, "--day", "2", "--phase", "白天", "--json")
    assert code == 0 and '"phase": "day:2"' in out  # 白天 is the day itself
    code, out, _ = run(capsys, "night", g, "--night", "2", "--phase", "夜晚", "--json")
    assert code == 0 and '"phase": "night:2"' in out
    code, _, err = run(capsys, "night", g, "--night", "2", "--phase", "黄昏")
    assert code == 2 and "--day N --phase 黄昏" in err


def test_a_team_listing_one_player_twice(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"a team listing one player twice"."""
    code, _, err = run(capsys, "night", str(game), "--night", "2", "add", "狼群(银鸦,银鸦)", "杀人", "包子")
    assert code == 2 and "银鸦 写了两次" in err
