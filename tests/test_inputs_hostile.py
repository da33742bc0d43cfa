"""Hostile files the director's tool reads, each performed: a device, a FIFO, a huge file, nesting
hundreds or a hundred thousand deep, a 5,000-digit number, a million actions, the same player twice.
Each ends at once with its documented code (2: a file the director named), a Chinese line, no
traceback, and in bounded memory (the peak RSS of the worst ones is measured in a child process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli_penalties import GAME
from tracker.cli import main

TOY = Path(__file__).parent / "fixtures" / "night" / "toy" / "toy.toml"
CLI = [sys.executable, "-c", "import sys; from tracker.cli import main; sys.exit(main())"]
PEAK_LIMIT_MB = 512


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def within(seconds: float, call: Callable[[], tuple[int, str, str]]) -> tuple[int, str, str]:
    """``call`` in a thread: a hang is a failure, not a stuck test run."""
    result: list[tuple[int, str, str]] = []
    t = threading.Thread(target=lambda: result.append(call()), daemon=True)
    t.start()
    t.join(seconds)
    assert result, f"did not end within {seconds} s"
    return result[0]


def peak_rss_mb(args: list[str], cwd: Path) -> tuple[int, float, str]:
    """Run the CLI in a child process: (exit code, its peak RSS in MB, stderr)."""
    proc = subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss / 1024, err


def scenario(players: int = 3) -> dict[str, object]:
    return {"setup": {"night": 2, "state": {}, "players": [
        {"name": f"P{i:02d}", "role": "村民", "faction": "村民", "alive": True} for i in range(1, players + 1)]},
        "actions": []}


def simulate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    return run(capsys, "night", "simulate", "--ruleset", str(TOY), str(path))


# -- the night scenario ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["device", "fifo", "huge"])
def test_a_scenario_must_be_a_regular_file_of_bounded_size(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           kind: str) -> None:
    if kind == "device":
        target = Path("/dev/zero")
    elif kind == "fifo":
        target = tmp_path / "s.json"
        os.mkfifo(target)
    else:
        target = tmp_path / "s.json"
        target.write_text(json.dumps(scenario()) + " " * (2 << 20), encoding="utf-8")
    code, _out, err = within(20, lambda: simulate(capsys, target))
    assert code == 2 and ("文件太大" if kind == "huge" else "不是普通文件") in err
    assert "Traceback" not in err


def test_expected_nested_a_hundred_thousand_deep_is_refused(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario())[:-1] + ', "expected": ' + "[" * 100_000 + "]" * 100_000 + "}",
                 encoding="utf-8")
    code, _out, err = simulate(capsys, f)
    assert code == 2 and "嵌套" in err and "Traceback" not in err
    f.write_text(json.dumps(scenario())[:-1] + ', "expected": ' + "[" * 200 + "]" * 200 + "}", encoding="utf-8")
    code, _out, err = simulate(capsys, f)  # deep enough to hurt a recursive walk, within the parser's reach
    assert code == 2 and "嵌套超过" in err


def test_a_five_thousand_digit_integer_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario()).replace('"night": 2', '"night": ' + "7" * 5000), encoding="utf-8")
    code, _out, err = simulate(capsys, f)
    assert code == 2 and "位数过多" in err and "Traceback" not in err


def test_the_same_player_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = scenario()
    players = sc["setup"]["players"]  # type: ignore[index]
    players.append({**players[0], "role": "狼人", "faction": "狼人"})
    f = tmp_path / "s.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), encoding="utf-8")
    code, _out, err = simulate(capsys, f)
    assert code == 2 and "P01 出现了不止一次" in err


def test_fifteen_thousand_actions_are_refused_before_any_settlement(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    sc = scenario()
    sc["actions"] = [{"actor": "P01", "skill": "杀人", "targets": ["P02"]}] * 15_000
    f = tmp_path / "s.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), encoding="utf-8")  # ~0.8 MB: under the size cap
    start = time.monotonic()
    code, _out, err = simulate(capsys, f)
    assert code == 2 and "超过上限 1000" in err
    assert time.monotonic() - start < 10


def test_a_scenario_of_many_schema_errors_stops_early_in_little_memory(tmp_path: Path) -> None:
    sc = scenario(2)
    sc["actions"] = [{"actor": 1, "skill": 2, "targets": 3, "x": 4}] * 25_000  # 100,000 schema errors
    f = tmp_path / "s.json"
    f.write_text(json.dumps(sc), encoding="utf-8")
    code, peak, err = peak_rss_mb(["night", "simulate", "--ruleset", str(TOY), str(f)], tmp_path)
    print(f"peak RSS, scenario of many errors: {peak:.0f} MB")
    assert code == 2 and "Traceback" not in err
    assert peak < PEAK_LIMIT_MB


# -- game and ruleset files nested hundreds deep ---------------------------------------------------

def test_a_game_file_with_an_array_nested_five_hundred_deep(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    g = tmp_path / "game.toml"
    g.write_text(GAME.format(ruleset="luoluo-m19") + "\n[options]\nx = " + "[" * 500 + "]" * 500 + "\n",
                 encoding="utf-8")
    code, _out, err = run(capsys, "state", str(g))
    assert code == 2 and "嵌套太深" in err and "Traceback" not in err


def test_a_ruleset_file_with_an_array_nested_five_hundred_deep(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    r = tmp_path / "deep.toml"
    r.write_text("id = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    g = tmp_path / "game.toml"
    g.write_text(GAME.format(ruleset=str(r)), encoding="utf-8")
    code, _out, err = run(capsys, "state", str(g))
    assert code == 2 and "嵌套太深" in err and "Traceback" not in err


# -- post --file and cookie_file -------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_post_file_must_be_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    g = tmp_path / "game.toml"
    g.write_text(GAME.format(ruleset="luoluo-m19"), encoding="utf-8")
    target = Path("/dev/zero")
    if kind == "fifo":
        target = tmp_path / "reply.bbcode"
        os.mkfifo(target)
    code, _out, err = within(20, lambda: run(capsys, "post", str(g), "--thread", "4", "--file", str(target), "--yes"))
    assert code == 2 and "不是普通文件" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_cookie_file_must_be_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    target = Path("/dev/zero")
    if kind == "fifo":
        target = tmp_path / "cookies.txt"
        os.mkfifo(target)
    g = tmp_path / "game.toml"
    g.write_text(GAME.format(ruleset="luoluo-m19") + f'\n[crawl]\nretries = 0\ncookie_file = "{target}"\n',
                 encoding="utf-8")
    code, _out, err = within(20, lambda: run(capsys, "crawl", str(g)))
    assert code == 2 and "cookie 文件" in err and "不是普通文件" in err and "Traceback" not in err


