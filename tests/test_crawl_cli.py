"""`tracker crawl` and `tracker posts`: the JSON contract of docs/cli.md, stdout clean, exit codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tracker.cli import main
from tracker.cli.crawl import ProgressLine
from tracker.demo.server import ReplayForum
from tracker.scraper.crawl import CrawlProgress

DISCUZ = Path(__file__).parent / "fixtures" / "discuz"
SCENARIO = json.loads((DISCUZ / "scenario.json").read_text(encoding="utf-8"))
POST_KEYS = ["pid", "tid", "floor", "position", "author", "uid", "posted_at", "edited_at", "blocked", "deleted",
             "versions", "text", "quotes", "colors", "sizes"]


@pytest.fixture
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(PAGES) as f:
        yield f


def game_file(tmp_path: Path, base: str, vote: int = 4) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(
        f'[game]\nname = "演示局"\nruleset = "luoluo-m19"\nforum = "{base}"\nprocess_thread = 2\n'
        "[crawl]\ndelay = 0\n"
        f"[[days]]\nday = 1\ndiscussion = 3\nvote = {vote}\n"
        "opens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T22:00:00+08:00\n", encoding="utf-8")
    return path


def test_crawl_json_then_posts_json(tmp_path: Path, forum: ReplayForum, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_file(tmp_path, forum.base_url)
    assert main(["crawl", str(game), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # stdout is one JSON document and nothing else
    assert list(out)[:5] == ["threads", "requests", "pages_fetched", "posts_new", "posts_changed"]
    assert [t["tid"] for t in out["threads"]] == [2, 3, 4]
    assert out["posts_new"] == 8 + 89 + 21 and out["posts_changed"] == 0

    assert main(["posts", str(game), "--thread", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 89 and all(list(r) == POST_KEYS for r in rows)
    truth = {p["pid"]: p for p in SCENARIO["posts"] if p["tid"] == 3}
    first = rows[0]
    assert first["floor"] == 1 and first["posted_at"] == truth[first["pid"]]["dateline"]
    quoting = [r for r in rows if r["quotes"]]
    assert quoting and all(set(q) == {"pid", "author", "text"} for r in quoting for q in r["quotes"])
    size5 = next(p for p in SCENARIO["posts"] if p["key"] == "d1_size5")
    assert next(r for r in rows if r["pid"] == size5["pid"])["sizes"]


def test_a_failed_thread_still_prints_the_summary_and_exits_non_zero(tmp_path: Path, forum: ReplayForum,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    game = game_file(tmp_path, forum.base_url, vote=4242)
    assert main(["crawl", str(game), "--json"]) == 4
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert {t["tid"]: t["status"] for t in out["threads"]} == {2: "ok", 3: "ok", 4242: "missing"}
    assert "错误：" in captured.err and "不存在" in captured.err


def test_an_unreachable_forum_exits_5_with_a_chinese_message(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    game = game_file(tmp_path, "http://127.0.0.1:9/")
    (tmp_path / "game.toml").write_text((tmp_path / "game.toml").read_text(encoding="utf-8")
                                        .replace("delay = 0", "delay = 0\nretries = 0"), encoding="utf-8")
    assert main(["crawl", str(game), "--json"]) == 5
    captured = capsys.readouterr()
    assert captured.out == "" and "无法连接论坛" in captured.err and "Traceback" not in captured.err


def test_detect_scans_what_was_stored_once_even_when_a_thread_failed(tmp_path: Path, forum: ReplayForum,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`--detect` is how the TUI's child process keeps the detectors out of the screen's process."""
    game = game_file(tmp_path, forum.base_url, vote=4242)
    assert main(["crawl", str(game), "--json", "--detect"]) == 4  # the missing thread still fails the run
    first = json.loads(capsys.readouterr().out)
    assert first["detection"]["scanned"] == 8 + 89  # the two threads that were stored
    assert first["detection"]["new_flags"] > 0
    assert main(["crawl", str(game), "--json", "--detect"]) == 4
    again = json.loads(capsys.readouterr().out)
    assert again["detection"] == {"scanned": 0, "new_flags": 0}  # nothing new: nothing rescanned
    assert main(["crawl", str(game), "--json"]) == 4
    assert "detection" not in json.loads(capsys.readouterr().out)


def test_human_output_names_threads_and_totals(tmp_path: Path, forum: ReplayForum,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    game = game_file(tmp_path, forum.base_url)
    assert main(["crawl", str(game)]) == 0
    out = capsys.readouterr().out
    assert "帖 3《【演示局】第一日讨论帖》：89 帖，新 89" in out and "共请求" in out
    assert main(["posts", str(game), "--thread", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 89 and lines[0].strip().startswith("1 楼")


def test_the_progress_line_goes_to_stderr_only_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    event = CrawlProgress(event="document", tid=3, threads_done=1, threads_total=5, requests=7, pages_fetched=6,
                          detail="第 2 页")
    ProgressLine(enabled=False)(event)
    assert capsys.readouterr() == ("", "")
    line = ProgressLine(enabled=True)
    line(event)
    line.close()
    captured = capsys.readouterr()
    assert captured.out == "" and "1/5 帖" in captured.err and "请求 7" in captured.err


def test_detection_after_the_crawl_gets_its_own_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = ProgressLine(enabled=True)
    line(CrawlProgress(event="document", tid=3, threads_done=1, threads_total=5, requests=7, pages_fetched=6))
    line(CrawlProgress(event="step", tid=None, threads_done=0, threads_total=0, requests=0, pages_fetched=0,
                       detail="检测违规"))
    err = capsys.readouterr().err
    assert err.endswith("\n检测违规…\n") and "0/0 帖" not in err
