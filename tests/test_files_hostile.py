"""The director's own machine: planted temporaries and symlinks, a readable cookie file, and a
ruleset path pointing at a secret or a device. Each attack is tried and shown to fail."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import httpx
import pytest

from tests.test_author_identity import GAME, POSTS
from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.errors import TrackerWarning
from tracker.safefile import read_bounded, write_atomic
from tracker.scraper.auth import load_cookie_file, save_cookies
from tracker.store.db import Store
from tracker.store.posts import upsert_posts


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_planted_world_readable_session_tmp_cannot_expose_the_session(tmp_path: Path) -> None:
    session = tmp_path / "game.session"
    planted = tmp_path / "game.session.tmp"
    planted.write_text("planted", encoding="utf-8")
    os.chmod(planted, 0o666)
    jar = httpx.Cookies()
    jar.set("dz_auth", "SECRET", domain="127.0.0.1", path="/")
    save_cookies(jar, session)
    assert mode(session) == 0o600 and "SECRET" in session.read_text(encoding="utf-8")
    assert planted.read_text(encoding="utf-8") == "planted"  # not written through, not renamed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.session", "game.session.tmp"]


def test_a_symlinked_report_tmp_does_not_overwrite_its_target(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{game.with_suffix('.db')}")
    with store.session() as s:
        from datetime import datetime

        upsert_posts(s, POSTS, seen_at=datetime.now(SHANGHAI))
    store.close()
    victim = tmp_path / "victim.txt"
    victim.write_text("do not touch", encoding="utf-8")
    reports = tmp_path / "reports"
    reports.mkdir()
    for ext in ("md", "bbcode", "html"):
        (reports / f"day1-tally.{ext}.tmp").symlink_to(victim)
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write")
    assert code == 10 and "需处理：结果待确认" in err, err  # day 1 closed, its vote not confirmed
    assert victim.read_text(encoding="utf-8") == "do not touch"
    assert (reports / "day1-tally.md").read_text(encoding="utf-8").startswith("# ")
    assert not (reports / "day1-tally.md").is_symlink() and mode(reports / "day1-tally.md") == 0o644


def test_write_atomic_leaves_no_temporary_when_it_fails(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "x.md"
    with pytest.raises(FileNotFoundError):
        write_atomic(target, "x")
    assert list(tmp_path.iterdir()) == []


def test_a_cookie_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    cookie = tmp_path / "cookies.txt"
    cookie.write_text("Cookie: dz_auth=1; dz_saltkey=2\n", encoding="utf-8")
    os.chmod(cookie, 0o644)
    with pytest.warns(TrackerWarning, match="其他用户也能读取.*chmod 600"):
        load_cookie_file(cookie, "http://127.0.0.1/")
    os.chmod(cookie, 0o600)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", TrackerWarning)
        assert list(load_cookie_file(cookie, "http://127.0.0.1/").jar)


def test_the_cli_prints_the_cookie_warning_as_a_chinese_note(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from tests.hostile_forum import HostileForum, page

    cookie = tmp_path / "cookies.txt"
    cookie.write_text("Cookie: dz_x=1\n", encoding="utf-8")
    os.chmod(cookie, 0o604)
    with HostileForum(lambda _p: page("day1-vote-p1.html")) as forum:
        from tests.hostile_forum import game_file

        game = game_file(tmp_path, forum.base_url, crawl='mobile_api = false\ncookie_file = "cookies.txt"')
        code, _out, err = run(capsys, "crawl", str(game))
    assert code == 0
    assert "注意：cookie 文件" in err and "chmod 600" in err and "Warning" not in err


def _game_with_ruleset(tmp_path: Path, ruleset: str) -> Path:
    game = tmp_path / "game.toml"
    game.write_text(GAME.replace('ruleset = "luoluo-m19"', f'ruleset = "{ruleset}"'), encoding="utf-8")
    return game


def test_a_ruleset_path_to_a_secret_never_prints_its_content(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$TOPSECRETHASH:19000:0:99999:7:::\nuser:x\n", encoding="utf-8")
    code, out, err = run(capsys, "state", str(_game_with_ruleset(tmp_path, str(secret))))
    assert code == 2 and "TOML 语法错误" in err
    assert "TOPSECRET" not in out + err and "root:" not in out + err


@pytest.mark.parametrize("kind", ["device", "fifo", "directory", "huge"])
def test_a_ruleset_must_be_a_regular_file_of_bounded_size(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          kind: str) -> None:
    if kind == "device":
        target = Path("/dev/zero")
    elif kind == "fifo":
        target = tmp_path / "pipe.toml"
        os.mkfifo(target)
    elif kind == "directory":
        target = tmp_path / "dir.toml"
        target.mkdir()
    else:
        target = tmp_path / "huge.toml"
        target.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    result: list[tuple[int, str, str]] = []
    t = threading.Thread(target=lambda: result.append(run(capsys, "state", str(_game_with_ruleset(tmp_path, str(target))))),
                         daemon=True)
    t.start()
    t.join(20)
    assert result, "hung"
    code, _out, err = result[0]
    assert code == 2
    assert {"huge": "文件太大", "directory": "这是一个目录"}.get(kind, "不是普通文件") in err


def test_a_game_file_that_is_a_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "state", "/dev/zero")
    assert code == 2 and "不是普通文件" in err


def test_read_bounded_reads_a_regular_file(tmp_path: Path) -> None:
    p = tmp_path / "a.toml"
    p.write_bytes(b"x = 1\n")
    assert read_bounded(p, 10) == b"x = 1\n"


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    p = tmp_path / "game.toml"
    p.write_text("x = 1\n", encoding="utf-8")
    os.chmod(p, 0o600)
    write_atomic(p, "x = 2\n")
    assert p.read_text(encoding="utf-8") == "x = 2\n" and mode(p) == 0o600
