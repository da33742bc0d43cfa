"""Vote forgery by a look-alike account: an author is a player by uid (or exact name), never by a
name that only looks the same. The forged ballot is listed as invalid, with the reason, and the
real player is still a non-voter."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.config import PlayerConfig
from tracker.engine.identity import Authors, skeleton
from tracker.records import Post
from tracker.store.db import Store
from tracker.store.posts import upsert_posts

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
GAME = """
[game]
name = "测试局"
ruleset = "luoluo-m19"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]

[[players]]
name = "银鸦"
uid = 5
[[players]]
name = "栗子"
uid = 6
[[players]]
name = "包子"

[[days]]
day = 1
discussion = 4
vote = 5
opens = 2025-03-01T10:00:00+08:00
closes = 2025-03-02T22:00:00+08:00
"""


def _post(pid: int, author: str, uid: int | None, text: str, *, tid: int = 5) -> Post:
    return Post(pid=pid, tid=tid, floor=pid, author=author, uid=uid, posted_at=OPENS + timedelta(minutes=pid),
                html=text, text=text)


POSTS = [
    _post(1, "导演A", 1, "第一日投票"),
    _post(2, "银鸦\u200b", 99, "投票对象：栗子\n投票理由：伪造"),   # look-alike account
    _post(3, "栗子", 6, "投票对象：包子\n投票理由：正常"),
    _post(4, "包子", 7, "投票对象：栗子\n投票理由：无 uid 的玩家按原名"),
    _post(5, "银鸦", 42, "投票对象：包子\n投票理由：同名另一账号"),     # exact name, another uid
    _post(6, "ＢＡＯＺＩ", 8, "改票对象：栗子\n改票理由：全角"),          # not a player, not alike
]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{path.with_suffix('.db')}")
    with store.session() as s:
        upsert_posts(s, POSTS, seen_at=datetime.now(SHANGHAI))
    store.close()
    return path


def test_a_look_alike_account_cannot_vote_as_the_player(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tally", str(game), "--day", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    day = doc[0] if isinstance(doc, list) else doc
    by_pid = {b["pid"]: b for b in day["ballots"]}
    assert not by_pid[2]["valid"] and "voter_lookalike" in json.dumps(by_pid[2], ensure_ascii=False)
    assert "银鸦<U+200B>（uid 99）" in json.dumps(by_pid[2], ensure_ascii=False)
    assert not by_pid[5]["valid"] and "uid 是 5" in json.dumps(by_pid[5], ensure_ascii=False)
    assert by_pid[3]["valid"] and by_pid[4]["valid"]
    assert "银鸦" in day["no_vote"]  # the real one did not vote: no escape from the yellow card


def test_the_human_tally_shows_the_invisible_character(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tally", str(game), "--day", "1"]) == 0
    out = capsys.readouterr().out
    assert "\u200b" not in out and "银鸦<U+200B>" in out and "形近" in out


def test_identification_rules() -> None:
    a = Authors([PlayerConfig("银鸦", uid=5), PlayerConfig("Alice"), PlayerConfig("口口")])
    assert a.identify("银鸦", 5).player == "银鸦"
    assert a.identify("改了名的银鸦", 5).player == "银鸦"  # renamed on the forum, same uid
    assert a.identify("Alice", 77).player == "Alice"  # no uid in the game file: the exact name
    for alike in ("银鸦\u200b", "银\u202e鸦", "銀鴉" if skeleton("銀鴉") == skeleton("银鸦") else "银鸦\u3164",
                  "Аlice", "ALICE", "A l i c e", "ロ口"):
        got = a.identify(alike, 9)
        assert got.player is None and got.lookalike is not None, alike
    assert a.identify("路人甲", 9) == a.identify("路人甲", None)  # neither player nor look-alike
    assert a.identify("路人甲", 9).lookalike is None


def test_players_from_thread_fills_uids_from_the_forum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tracker players GAME.toml --from-thread TID` takes each uid from the posts with the exact name."""
    from tracker.config import load_game
    from tracker.demo.server import ReplayForum

    pages = PAGES
    with ReplayForum(pages) as forum:
        game = tmp_path / "game.toml"
        game.write_text(
            f'# 导演的注释\n[game]\nname = "演示局"\nruleset = "luoluo-m19"\nforum = "{forum.base_url}"\n'
            'directors = ["导演A"]\n\n[crawl]\ndelay = 0\n\n'
            '[[players]]\nname = "银鸦"  # 注释保留\nrole = "平民"\n\n[[players]]\nname = "泡泡"\nuid = 2\n\n'
            '[[players]]\nname = "不在帖里"\n\n'
            "[[days]]\nday = 1\nvote = 4\nopens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T22:00:00+08:00\n",
            encoding="utf-8")
        assert main(["players", str(game), "--from-thread", "4"]) == 0
    out = capsys.readouterr()
    assert "已填写 银鸦 的 uid = 13" in out.out and "未找到：不在帖里" in out.err
    text = game.read_text(encoding="utf-8")
    assert '# 导演的注释' in text and 'name = "银鸦"  # 注释保留\nuid = 13\nrole = "平民"' in text
    players = {p.name: p.uid for p in load_game(game).players}
    assert players == {"银鸦": 13, "泡泡": 2, "不在帖里": None}


def test_lurk_counts_go_by_uid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A look-alike's posts do not keep the player off the lurker list; a renamed player's still count."""
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{path.with_suffix('.db')}")
    chatter = [_post(100 + i, "银鸦\u200b", 99, f"冒名发言 {i}", tid=4) for i in range(12)]
    chatter += [_post(200 + i, "栗子改名后", 6, f"改名发言 {i}", tid=4) for i in range(12)]
    with store.session() as s:
        upsert_posts(s, POSTS + chatter, seen_at=datetime.now(SHANGHAI))
    store.close()
    main(["lurkers", str(path), "--day", "1", "--json"])
    doc = json.loads(capsys.readouterr().out)
    text = json.dumps(doc, ensure_ascii=False)
    assert doc["posts"]["银鸦"] == 0 and doc["posts"]["栗子"] == 12, text[:300]
    # 银鸦 did not vote: the forged ballots are not 银鸦's invalid ones
    assert "银鸦" not in doc["invalid_only"] and not doc["voted"]["银鸦"]
    assert any(p["player"] == "银鸦" and p["rule"] == "no_vote" and p["detail"] == "未投票" for p in doc["penalties"])


def test_init_from_a_sign_up_thread_fills_players_and_uids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.config import load_game
    from tracker.demo.server import ReplayForum

    pages = PAGES
    out = tmp_path / "game.toml"
    with ReplayForum(pages) as forum:
        code = main(["init", "--ruleset", "luoluo-m19", "--out", str(out), "--forum", forum.base_url,
                     "--from-thread", "4"])
    err = capsys.readouterr().err
    assert code == 0, err
    players = {p.name: p.uid for p in load_game(out).players}
    assert players["银鸦"] == 13 and players["泡泡"] == 2 and "导演A" not in players
    assert all(uid is not None for uid in players.values())
    assert "取得" in err
