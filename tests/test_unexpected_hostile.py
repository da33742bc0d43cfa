"""No traceback, and exit 1 only for the ledger: each input that printed a traceback (exit 1) is
performed and gets its documented code; a bug gets a code of its own (9), one Chinese line and the
path of the log holding the traceback. And a hand-edited report is never silently replaced."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

import pytest

from tests.hostile_forum import PAGES, Answer, HostileForum, game_file
from tests.test_author_identity import GAME, POSTS
from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.store.db import Store
from tracker.store.posts import upsert_posts


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("charset", ["undefined", "base64", "rot13"])
def test_a_page_declaring_an_unusable_charset(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              charset: str) -> None:
    def forum(path: str) -> Answer:
        n = int(m.group(1)) if (m := re.search(r"[?&]page=(\d+)", path)) else 1
        name = {1: "day1-vote-p1.html", 2: "day1-vote-p2.html"}.get(n, "day1-vote-p3.html")
        return Answer([(PAGES / name).read_bytes()], headers={"Content-Type": f"text/html; charset={charset}"})

    with HostileForum(forum) as server:
        game = game_file(tmp_path, server.base_url, crawl="mobile_api = false")
        code, _out, err = run(capsys, "crawl", str(game))
    assert "Traceback" not in err
    assert code == 0, err  # the declared name is ignored: the page's own <meta> or UTF-8 decides


def test_a_database_address_with_a_port_that_is_not_a_number(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    code, _out, err = run(capsys, "state", str(game), "--db", "postgresql+psycopg://u:p@127.0.0.1:notaport/db")
    assert code == 6 and "数据库地址无效" in err and "Traceback" not in err
    assert ":p@" not in err  # the password is never printed


def test_an_unexpected_error_has_its_own_code_one_line_and_the_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tracker.service import Service

    def broken(*_a: object, **_k: object) -> object:
        raise KeyError("a bug")

    monkeypatch.setattr(Service, "summary", broken)
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("TRACKER_LOG_FILE", raising=False)
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    code, out, err = run(capsys, "state", str(game))
    assert code == 9 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("错误：") and "Traceback" not in err
    m = re.search(r"(/\S+\.log)", lines[0])
    assert m is not None, err
    log = Path(m.group(1))
    assert "Traceback" in log.read_text(encoding="utf-8") and "KeyError" in log.read_text(encoding="utf-8")
    assert (os.stat(log).st_mode & 0o077) == 0


# -- a hand-edited report -----------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "game.toml"
    g.write_text(GAME, encoding="utf-8")
    store = Store.open(f"sqlite:///{g.with_suffix('.db')}")
    with store.session() as s:
        upsert_posts(s, POSTS, seen_at=datetime.now(SHANGHAI))
    store.close()
    return g


def test_report_write_never_silently_replaces_a_hand_edited_report(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = game.parent / "reports"
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write")
    assert code == 10 and "需处理：结果待确认" in err, err
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write")
    assert code == 10 and "需处理：结果待确认" in err, err  # its own report, unchanged by hand: replaced as before
    md = reports / "day1-tally.md"
    md.write_text(md.read_text(encoding="utf-8") + "\n导演补充：第 3 楼另议。\n", encoding="utf-8")
    os.chmod(md, 0o444)  # and made read-only, which a rename does not respect
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write")
    assert code == 2 and "day1-tally.md" in err and "--force" in err and "Traceback" not in err
    assert "导演补充" in md.read_text(encoding="utf-8")
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write", "--force")
    assert code == 10 and "需处理：结果待确认" in err, err
    assert "导演补充" not in md.read_text(encoding="utf-8")


def test_a_report_file_the_tool_did_not_write_is_not_replaced(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = game.parent / "reports"
    reports.mkdir()
    (reports / "day1-tally.md").write_text("导演自己写的票型\n", encoding="utf-8")
    code, _out, err = run(capsys, "report", "tally", str(game), "--day", "1", "--write")
    assert code == 2 and "day1-tally.md" in err
    assert (reports / "day1-tally.md").read_text(encoding="utf-8") == "导演自己写的票型\n"


