"""The crawl's time settings as a director reads them: ``timeout`` bounds one whole answer, from
the request to its last byte, however slowly the forum trickles it. A forum sending one byte a
second, with ``timeout = 5`` and ``retries = 1``, ends the crawl within a minute (it took 242 s
when a separate 120 s ``request_deadline`` applied instead)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.hostile_forum import Answer, HostileForum, game_file
from tracker.cli import main
from tracker.config import load_game
from tracker.scraper.fetch import FetchPolicy


def one_byte_a_second(_path: str) -> Answer:
    return Answer([b"<", *([1.0, b" "] * 600)])


def test_a_server_trickling_a_byte_a_second_meets_the_timeout(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with HostileForum(one_byte_a_second) as forum:
        game = game_file(tmp_path, forum.base_url, crawl="timeout = 5\nmobile_api = false")
        assert "retries = 1" in game.read_text(encoding="utf-8")
        started = time.monotonic()
        code = main(["crawl", str(game)])
        took = time.monotonic() - started
    err = capsys.readouterr().err
    print(f"crawl against a 1 byte/s forum, timeout = 5, retries = 1: {took:.1f} s, exit {code}")
    assert code == 5 and "Traceback" not in err
    assert "5 秒" in err
    assert took < 60
    assert len(forum.requests) == 2  # the first try and one retry


def test_timeout_is_the_whole_answers_bound_and_its_default_is_documented(tmp_path: Path) -> None:
    game = load_game(game_file(tmp_path, "http://127.0.0.1:9/"))
    policy = FetchPolicy.from_config(game.crawl)
    assert policy.whole == policy.timeout == game.crawl.timeout
    docs = (Path(__file__).parent.parent / "docs" / "game-file.md").read_text(encoding="utf-8")
    assert f"| `timeout` | {game.crawl.timeout:g}" in docs


def test_request_deadline_is_refused_with_the_key_to_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_file(tmp_path, "http://127.0.0.1:9/", crawl="request_deadline = 30")
    assert main(["state", str(game)]) == 2
    assert "timeout" in capsys.readouterr().err
