"""Hostile post content through the command line, without a terminal: markup-looking text, ANSI
escapes, a carriage return, bidi overrides and very long lines.

JSON must stay one valid document that round-trips the text exactly (control characters escaped);
human output must print every character literally: no escape byte reaches the terminal, markup is
shown as typed, a post stays on its own line.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.cli.common import printable
from tracker.clock import SHANGHAI
from tracker.records import FontUse, Post
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
name = "泡泡"
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

ANSI = "\x1b[31m红\x1b[0m\x1b[2J\x1b]0;标题\x07"
MARKUP = "[bold]加粗[/bold] [red]红[/red] [link=http://x]链接[/link]"
BIDI = "abc\u202edcba"
LONG = "长" * 20_000


def _post(pid: int, floor: int, author: str, text: str, *, tid: int = 4, red: bool = False) -> Post:
    html = f'<font color="#FF0000">{text}</font>' if red else text
    return Post(pid=pid, tid=tid, floor=floor, author=author, uid=None, posted_at=OPENS + timedelta(minutes=floor),
                html=html, text=text, fonts=(FontUse("#FF0000", None, text),) if red else (),
                colors=("#FF0000",) if red else ())


POSTS = [
    _post(1, 1, "导演A", "第一日讨论开始"),
    _post(2, 2, "泡泡", f"注意 {ANSI} 这里", red=True),
    _post(3, 3, "栗子", MARKUP),
    _post(4, 4, "包子", f"第一行\r覆盖\n第二行 {BIDI}"),
    _post(5, 5, "泡泡", LONG),
    _post(11, 1, "导演A", "投票帖", tid=5),
    _post(12, 2, "泡泡", f"投票对象：栗子\x1b[2J\n投票理由：{ANSI}", tid=5),
    _post(13, 3, "包子", "投票对象：\x1b[31m栗子\x1b[0m\n投票理由：[bold]乱写[/bold]", tid=5),
]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{path.with_suffix('.db')}")
    try:
        with store.session() as s:
            upsert_posts(s, POSTS, seen_at=datetime.now(SHANGHAI))
    finally:
        store.close()
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_inert(text: str) -> None:
    """Nothing in ``text`` can act on a terminal."""
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0
           or 0x202A <= ord(c) <= 0x202E]
    assert not bad, bad


def test_posts_json_round_trips_hostile_text_exactly(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "posts", str(game), "--thread", "4", "--json")
    assert code == 0
    assert_inert(out)  # JSON escapes control characters (\u001b), so stdout itself is inert
    rows = {r["pid"]: r for r in json.loads(out)}
    assert rows[2]["text"] == f"注意 {ANSI} 这里"
    assert rows[3]["text"] == MARKUP
    assert rows[4]["text"] == f"第一行\r覆盖\n第二行 {BIDI}"
    assert rows[5]["text"] == LONG


def test_posts_human_output_shows_escapes_and_markup_literally(game: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "posts", str(game), "--thread", "4")
    assert code == 0
    assert_inert(out)
    lines = out.splitlines()
    assert len(lines) == 5  # one line per post: a \r or a 20,000-character post cannot break the listing
    assert "␛[31m红␛[0m" in lines[1]  # the TUI's notation: one function for both
    assert "[bold]加粗[/bold]" in lines[2] and "[red]红[/red]" in lines[2]
    assert "第一行 覆盖 第二行" in lines[3] and "<U+202E>" in lines[3]  # whitespace folded, bidi shown
    assert len(lines[4]) < 200


def test_flags_human_and_json_with_an_ansi_excerpt(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "flags", str(game), "--json")
    assert code == 0
    assert_inert(out)
    flags = json.loads(out)
    red = next(f for f in flags if f["pid"] == 2 and f["kind"] == "red_text")
    assert "\x1b[31m" in red["excerpt"]

    code, out, _ = run(capsys, "flags", str(game), "--no-detect")
    assert code == 0
    assert_inert(out)
    line = next(x for x in out.splitlines() if "第 2 楼" in x)
    assert "␛[31m" in line and "红字" in line and "red_text" not in line


def test_tally_human_bbcode_and_json_with_hostile_ballots(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--bbcode"]):
        code, out, _ = run(capsys, "tally", str(game), "--day", "1", *extra)
        assert code == 0
        assert_inert(out)
    code, out, _ = run(capsys, "tally", str(game), "--day", "1", "--json")
    assert code == 0
    doc = json.loads(out)
    assert {b["pid"] for b in doc["ballots"]} == {12, 13}  # listed, never dropped


def test_card_reason_from_a_hostile_flag_prints_inert(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "flags", str(game), "--json")
    red = next(f for f in json.loads(out) if f["pid"] == 2 and f["kind"] == "red_text")
    code, out, _ = run(capsys, "card", str(game), "from-flag", str(red["id"]))
    assert code == 0
    assert_inert(out)
    code, out, _ = run(capsys, "cards", str(game))
    assert code == 0
    assert_inert(out)
    for fmt in ("md", "bbcode", "html"):
        code, out, err = run(capsys, "report", "cards", str(game), "--day", "1", "--format", fmt)
        assert code == 10 and "需处理：潜水待判罚" in err, err  # day 1's 潜水 penalties are not carded
        assert_inert(out)


def test_printable_keeps_text_and_newlines_and_shows_controls() -> None:
    assert printable("投票对象：栗子\n\t理由") == "投票对象：栗子\n\t理由"
    assert printable("\x1b[2J\r\x07\x9b\u202e") == "␛[2J␍␇<U+009B><U+202E>"
    assert printable("银鸦\u200b") == "银鸦<U+200B>"  # a look-alike name shows what makes it different


def test_a_hostile_player_name_prints_inert_in_state_and_lurkers(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The director copied a player's forum name, escapes and all, into the game file."""
    path = tmp_path / "game.toml"
    path.write_text(GAME.replace('name = "包子"', 'name = "包\\u001b[2J子\\u200b\\u202e"'), encoding="utf-8")
    for args, codes in ((("state", str(path)), (2,)), (("lurkers", str(path), "--day", "1"), (0, 10))):
        code, out, err = run(capsys, *args)
        assert code in codes, err  # state: 3 players for a 14-player ruleset, no win check (exit 2)
        assert_inert(out + err)
        assert "包␛[2J子<U+200B><U+202E>" in out, args


def test_a_hostile_thread_subject_and_error_page_print_inert(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A forum (or a proxy) writes escapes into a thread's subject and into its error page."""
    from tests.hostile_forum import PAGES, Answer, HostileForum, game_file

    def handler(path: str) -> Answer:
        if "tid=5" in path:
            return Answer(['<html><body><div id="messagetext" class="alert_info"><p>\x1b]0;pwned\x07无权限'
                           '\x1b[2J</p></div></body></html>'.encode()])
        page = (PAGES / "day1-vote-p1.html").read_text(encoding="utf-8")
        page = page.replace('<span id="thread_subject">', '<span id="thread_subject">\x1b[2J\u202e')
        return Answer([page.encode()])

    with HostileForum(handler) as forum:
        game = game_file(tmp_path, forum.base_url, tids=(4, 5), crawl="mobile_api = false")
        code, out, err = run(capsys, "crawl", str(game))
    assert code == 4
    assert_inert(out + err)
    assert "《␛[2J<U+202E>" in out and "错误：" in err and "␛]0;pwned␇" in err
