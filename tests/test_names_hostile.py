"""Players without a uid, attacked by accounts whose names differ by a space only a reader cannot see:
"银鸦 ", "银鸦\\u00a0", "银鸦\\u3000" must not vote as 银鸦, and `players --from-thread` must not
write an impostor's uid into the game file. Mixed scripts map consistently ("yіnya" with a Cyrillic
і is a look-alike of "yinya"). A carriage return in a name is shown as a token, never a line break."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.hostile_forum import PAGES
from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.config import PlayerConfig, load_game
from tracker.engine.identity import Authors, skeleton
from tracker.engine.roster_names import check_names
from tracker.records import Post
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.mobile import parse_viewthread
from tracker.store.db import Store
from tracker.store.posts import upsert_posts

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
SPACES = ["银鸦 ", "银鸦\u00a0", "银鸦\u3000", " 银鸦", "银鸦\t"]
GAME = """
[game]
name = "测试局"
ruleset = "luoluo-m19"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]

[[players]]
name = "银鸦"
[[players]]
name = "栗子"
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


def game_with(tmp_path: Path, posts: list[Post]) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{path.with_suffix('.db')}")
    with store.session() as s:
        upsert_posts(s, posts, seen_at=datetime.now(SHANGHAI))
    store.close()
    return path


@pytest.mark.parametrize("name", SPACES)
def test_the_parsers_keep_an_author_name_exactly(name: str) -> None:
    html = (PAGES / "day1-vote-p1.html").read_text(encoding="utf-8")
    assert 'class="xw1">泡泡<' in html
    page = parse_thread_page(html.replace('class="xw1">泡泡<', f'class="xw1">{name}<').encode("utf-8"),
                             page_url="forum.php?mod=viewthread&tid=4")
    assert name in {p.author for p in page.posts}
    doc = json.loads((PAGES / "day1-vote-p1.mobile.json").read_text(encoding="utf-8"))
    first = doc["Variables"]["postlist"][1]
    first["author"] = name
    listing = parse_viewthread(doc, page_url="api/mobile")
    assert name in {p.author for p in listing.posts}


@pytest.mark.parametrize("name", SPACES)
def test_a_space_only_a_reader_cannot_see_does_not_vote_as_the_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    game = game_with(tmp_path, [_post(1, "导演A", 1, "第一日投票"),
                                _post(2, name, 99, "投票对象：栗子\n投票理由：冒名")])
    assert main(["tally", str(game), "--day", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    day = doc[0] if isinstance(doc, list) else doc
    forged = next(b for b in day["ballots"] if b["pid"] == 2)
    assert not forged["valid"] and "voter_lookalike" in forged["reason"]
    assert "银鸦" in day["no_vote"]
    assert Authors([PlayerConfig("银鸦")]).identify(name, 99).player is None


def test_mixed_scripts_map_to_one_skeleton() -> None:
    assert skeleton("yіnya") == skeleton("yinya")  # Cyrillic і
    assert skeleton("yіnya") == skeleton("ylnya") == skeleton("y1nya")  # i, l and 1 read alike
    assert skeleton("Аlice") == skeleton("alice")  # Cyrillic А
    a = Authors([PlayerConfig("yinya")])
    got = a.identify("yіnya", 9)
    assert got.player is None and got.lookalike == "yinya"


def test_players_from_thread_does_not_fill_an_impostors_uid(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # the real 银鸦 has not posted yet; "银鸦\u3000" has
    game = game_with(tmp_path, [_post(1, "导演A", 1, "报名", tid=3), _post(2, "银鸦\u3000", 99, "报名", tid=3),
                                _post(3, "栗子", 6, "报名", tid=3)])
    assert main(["players", str(game), "--from-thread", "3", "--no-crawl"]) == 0
    out = capsys.readouterr()
    assert "已填写 栗子 的 uid = 6" in out.out and "银鸦" not in out.out
    assert "银鸦<U+3000>（uid 99）" in out.err
    players = {p.name: p.uid for p in load_game(game).players}
    assert players["银鸦"] is None and players["栗子"] == 6


def test_players_from_thread_asks_when_a_look_alike_posted_beside_the_real_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_with(tmp_path, [_post(2, "银鸦 ", 99, "报名", tid=3), _post(3, "银鸦", 13, "报名", tid=3)])
    assert main(["players", str(game), "--from-thread", "3", "--no-crawl"]) == 0
    out = capsys.readouterr()
    assert "uid = 13" not in game.read_text(encoding="utf-8")
    assert "没有填写" in out.err and "银鸦<U+0020>（uid 99）" in out.err and "uid 13" in out.err
    assert "uid = 13" in out.err  # what to write, once the director has checked


def test_a_carriage_return_in_a_name_is_a_token_in_the_roster_check() -> None:
    check = check_names(["银鸦"], ["导演A"], {"银\r鸦": 3, "路\n人": 1})
    lines = check.lines()
    assert all("\r" not in line and "\n" not in line for line in lines)
    assert any("银␍鸦" in line for line in lines) and any("路␤人" in line for line in lines)


def test_a_carriage_return_or_newline_in_a_name_is_a_token_in_the_tui_headers() -> None:
    from tui.widgets.post_view import post_header

    for name, shown in (("银\r鸦", "银␍鸦"), ("银\n鸦", "银␤鸦")):
        head = post_header(_post(7, name, 9, "正文"))
        assert "\r" not in head.plain and "\n" not in head.plain
        assert shown in head.plain
