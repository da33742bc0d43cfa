"""What a director types and reads at the command line (issue 21, "What a director saw wrong"):
the rule posts' Chinese accepted where an option takes a word, click's own messages in Chinese,
and every typed player name that is no player answered with the nearest names (是不是…？), as the
crawl's roster check answers a name no post carries.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from night_toy_hooks import toy_game

from tests.captured_pages import PAGES
from tests.test_cli_penalties import PLAIN, RED, put, write_game
from tracker.cli import main
from tracker.engine.night.games import MODULES


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = write_game(tmp_path)
    put(g, [RED, PLAIN])
    return g


@pytest.mark.parametrize(("word", "color"), [("蓝", "blue"), ("黄牌", "yellow"), ("红", "red"), ("blue", "blue")])
def test_a_card_colour_in_the_posts_words(game: Path, capsys: pytest.CaptureFixture[str], word: str,
                                          color: str) -> None:
    code, out, err = run(capsys, "card", str(game), "issue", "泡泡", "--color", word, "--reason", "红字", "--json")
    assert code == 0, err
    assert json.loads(out)["color"] == color


def test_a_flag_status_in_the_queues_words(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "flags", str(game), "--json")
    assert code == 0 and json.loads(out)
    flag = json.loads(out)[0]["id"]
    assert run(capsys, "flags", str(game), "dismiss", str(flag), "--reason", "引用")[0] == 0
    code, out, err = run(capsys, "flags", str(game), "--status", "已驳回", "--no-detect", "--json")
    assert code == 0, err
    assert [f["id"] for f in json.loads(out)] == [flag]
    code, out, _ = run(capsys, "flags", str(game), "--status", "待审", "--no-detect", "--json")
    assert code == 0 and flag not in [f["id"] for f in json.loads(out)]


def test_a_word_that_is_no_choice_lists_both_languages(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "card", str(game), "issue", "泡泡", "--color", "紫", "--reason", "x")
    assert code == 2 and out == ""
    assert "--color 只能是" in err and "蓝" in err and "blue" in err and "'紫'" in err


@pytest.mark.parametrize(("args", "words"), [
    (["card", "{g}"], ("缺少子命令", "issue", "revoke", "amend")),
    (["tally", "{g}", "--day", "1", "--json=yes"], ("选项 --json 不带值",)),
    (["tally", "{g}", "--day"], ("选项 --day 后面需要一个值",)),
])
def test_clicks_messages_a_director_meets_are_chinese(game: Path, capsys: pytest.CaptureFixture[str],
                                                      args: list[str], words: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *[a.format(g=game) for a in args])
    assert code == 2 and out == ""
    assert err.startswith("错误：") and "Missing" not in err and "does not" not in err
    for w in words:
        assert w in err, err


def test_tracker_alone_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and "用法:" in out and "命令:" in out and "错误" not in err


def test_a_typed_card_name_gets_the_nearest_players(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 栗孑 for 栗子: the crawl's roster check offers 栗子 for it, so must the card desk
    code, _, err = run(capsys, "card", str(game), "issue", "栗孑", "--color", "蓝", "--reason", "x")
    assert code == 7 and "是不是：栗子？" in err
    code, _, err = run(capsys, "card", str(game), "from-lurker", "--day", "1", "栗孑")
    assert code == 7 and "是不是：栗子？" in err


def test_a_typed_night_name_gets_the_nearest_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(MODULES, "toy-night", "night_toy_hooks")
    g = str(toy_game(tmp_path))
    for words in (["饺孑", "守护", "包子"], ["饺子", "守护", "包孑"]):
        code, _, err = run(capsys, "night", g, "--night", "2", "add", *words)
        assert code == 7 and "是不是：" in err, err
        assert ("饺子" if "饺孑" in words else "包子") in err.split("是不是：")[1]


def test_a_section_the_forum_does_not_have_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.demo.server import ReplayForum

    demo = (Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml").read_text(encoding="utf-8")
    with ReplayForum(PAGES) as forum:
        game = tmp_path / "game.toml"
        game.write_text(demo.replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum.base_url}"'),
                        encoding="utf-8")
        code, out, err = run(capsys, "threads", str(game), "--forum", "999")
    assert code == 4 and out == ""
    assert "没有版块 fid 999" in err and "--forum" in err and "JSON" not in err


def test_known_spectators_are_not_named_by_the_roster_check(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.demo.server import ReplayForum

    demo = (Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml").read_text(encoding="utf-8")
    with ReplayForum(PAGES) as forum:
        game = tmp_path / "game.toml"
        text = demo.replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum.base_url}"')
        game.write_text(text, encoding="utf-8")
        code, _, err = run(capsys, "crawl", str(game))
        assert code == 0 and "名单核对：账号 路人甲" in err  # an onlooker nobody listed is named
        game.write_text(text.replace("[game]\n", '[game]\nspectators = ["路人甲"]\n', 1), encoding="utf-8")
        code, _, err = run(capsys, "crawl", str(game))
    assert code == 0 and "路人甲" not in err


def test_a_spectator_who_is_also_a_player_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = (Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml").read_text(encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(demo.replace("[game]\n", '[game]\nspectators = ["泡泡"]\n', 1), encoding="utf-8")
    code, out, err = run(capsys, "state", str(game))
    assert code == 2 and out == "" and "spectators" in err and "泡泡" in err
