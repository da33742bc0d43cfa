"""The ledger against someone who can write its database, once ``[ledger] key_file`` is set: each
attack that passed verify (exit 0) is performed here and must now fail it (exit 1), and no card is
committed before its seal can be written. Anchors from the forum are read live from a loopback
forum, not from the database's copy of the process thread."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from datetime import datetime
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tests.hostile_forum import Answer, HostileForum, page
from tests.test_cli_penalties import GAME, post, put
from tests.test_ledger_anchor import forge_rewrite_and_rehash
from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.penalties.ledger import Draft, chain
from tracker.store.db import Store
from tracker.store.penalties import append_entries, load_entries

PROCESS = 4  # the captured vote thread (3 desktop pages; 导演A's post 122 on page 3) serves as the process thread


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def keyed_game(tmp_path: Path, forum: str = "http://127.0.0.1:9/") -> Path:
    p = tmp_path / "game.toml"
    text = GAME.format(ruleset="luoluo-m19").replace("directors = [", f"process_thread = {PROCESS}\ndirectors = [", 1)
    text = text.replace('forum = "http://127.0.0.1:9/"', f'forum = "{forum}"')
    p.write_text(text + f'\n[ledger]\nkey_file = "{tmp_path / "keys" / "ledger.key"}"\n', encoding="utf-8")
    return p


def issue(capsys: pytest.CaptureFixture[str], game: Path, who: str, color: str = "blue") -> tuple[int, str, str]:
    return run(capsys, "card", str(game), "issue", who, "--color", color, "--reason", "违规")


def entries_in(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT count(*) FROM card_ledger").fetchone()[0])


def forge_red_card(db: Path) -> None:
    """A red card written straight into the database with a correct chain and head."""
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.session() as s:
            before = load_entries(session=s)
            d = Draft(action="issue", player="包子", color="red", reason="伪造", issuer="导演A",
                      at=datetime(2025, 3, 1, 12, 0, tzinfo=SHANGHAI), day=1)
            append_entries(chain([d], after=before[-1] if before else None), session=s)
    finally:
        store.close()


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    g = keyed_game(tmp_path)
    for who in ("泡泡", "栗子"):
        assert issue(capsys, g, who)[0] == 0
    return g


def test_a_card_written_into_the_database_is_unsealed_and_fails_everything(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", str(game), "verify")
    assert code == 0 and "第 1–2 条都有封印" in out
    forge_red_card(game.with_suffix(".db"))
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "第 3–3 条没有本地封印" in out + err
    # the 判罚公示 is not published quietly
    code, _out, err = run(capsys, "cards", str(game), "announce", "--day", "1")
    assert code == 1 and "没有本地封印" in err
    # and the next real card does not seal over the forgery
    code, _out, err = issue(capsys, game, "栗子")
    assert code == 1 and "没有本地封印" in err
    assert entries_in(game.with_suffix(".db")) == 3


def test_a_deleted_or_unreadable_seal_fails_verify(game: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    seal = tmp_path / "keys" / "ledger.key.seal"
    kept = seal.read_bytes()
    seal.unlink()
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "不存在" in out + err and "2 条记录" in out + err
    seal.mkdir()
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "不可读" in out + err
    seal.rmdir()
    elsewhere = tmp_path / "elsewhere.seal"
    elsewhere.write_bytes(kept)
    seal.symlink_to(elsewhere)  # a symlinked seal: refused, not followed
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "符号链接" in out + err
    code, _out, err = issue(capsys, game, "包子")  # and no card is committed through it
    assert code == 2 and "符号链接" in err and "Traceback" not in err
    assert entries_in(game.with_suffix(".db")) == 2


def test_a_seal_that_does_not_cover_the_head_fails(game: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    seal = tmp_path / "keys" / "ledger.key.seal"
    first = seal.read_text(encoding="ascii").splitlines()[0]
    seal.write_text(first + "\n", encoding="ascii")  # the newest line cut off: entry 2 unsealed
    code, out, _ = run(capsys, "cards", str(game), "verify", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["sealed_through"] == 1
    assert any("第 2–2 条没有本地封印" in p for p in doc["problems"])


def test_a_fifo_key_is_refused_at_once_and_nothing_is_committed(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    g = keyed_game(tmp_path)
    (tmp_path / "keys").mkdir()
    os.mkfifo(tmp_path / "keys" / "ledger.key")
    result: list[tuple[int, str, str]] = []
    t = threading.Thread(target=lambda: result.append(issue(capsys, g, "泡泡")), daemon=True)
    t.start()
    t.join(20)
    assert result, "hung on the FIFO key"
    code, _out, err = result[0]
    assert code == 2 and "不是普通文件" in err
    db = g.with_suffix(".db")
    assert entries_in(db) == 0  # the store was opened before the key was read: no entry in it


def test_a_dangling_key_symlink_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = keyed_game(tmp_path)
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "ledger.key").symlink_to(tmp_path / "nowhere" / "key")
    code, _out, err = issue(capsys, g, "泡泡")
    assert code == 2 and "符号链接" in err and "Traceback" not in err
    assert not (tmp_path / "nowhere").exists()
    code, _out, err = run(capsys, "cards", str(g), "verify")
    assert code == 2 and "符号链接" in err  # the key named in the game file is wrong: the file's code


def test_anchors_from_the_forum_catch_a_rewritten_chain_and_process_thread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    posted: dict[str, bytes] = {}

    def forum(path: str) -> Answer:
        n = int(m.group(1)) if (m := re.search(r"[?&]page=(\d+)", path)) else 1
        if n == 3 and "p3" in posted:
            return Answer([posted["p3"]])
        return page({1: "day1-vote-p1.html", 2: "day1-vote-p2.html"}.get(n, "day1-vote-p3.html"))

    with HostileForum(forum) as server:
        g = keyed_game(tmp_path, server.base_url)
        g.write_text(g.read_text(encoding="utf-8").replace("\n[ledger]", "\n[crawl]\ndelay = 0\n\n[ledger]"),
                     encoding="utf-8")
        for who in ("泡泡", "栗子", "包子"):
            assert issue(capsys, g, who)[0] == 0
        code, out, _ = run(capsys, "cards", str(g), "announce", "--day", "1")
        line = re.search(r"账本锚点：第 3 条 [0-9a-f]{16}", out)
        assert line is not None
        # the director posts the announcement as post 122 (导演A) of the process thread
        p3 = (PAGES / "day1-vote-p3.html").read_bytes()
        posted["p3"] = p3.replace("投票截止。统计：饺子 5 票".encode(), line.group(0).encode())
        put(g, [post(122, 21, "导演A", line.group(0), tid=PROCESS)])
        code, out, _ = run(capsys, "cards", str(g), "verify", "--anchors-from-forum")
        assert code == 0 and "论坛上的进程帖" in out and "锚点 1 个" in out
        # the forger rewrites the chain and the database's copy of the anchor post alike
        db = g.with_suffix(".db")
        forge_rewrite_and_rehash(db)
        store = Store.open(f"sqlite:///{db}")
        with store.session() as s:
            new_head = load_entries(session=s)[-1].hash[:16]
        store.close()
        forged_line = f"账本锚点：第 3 条 {new_head}"
        with sqlite3.connect(db) as c:
            for table in ("post", "post_version"):
                cols = [r[1] for r in c.execute(f"PRAGMA table_info({table})")]
                if "text" in cols:
                    c.execute(f"UPDATE {table} SET text = ? WHERE pid = 122", (forged_line,))
        (tmp_path / "keys" / "ledger.key").unlink()  # and no local key (as for a director without one)
        (tmp_path / "keys" / "ledger.key.seal").unlink()
        g.write_text(g.read_text(encoding="utf-8").split("\n[ledger]")[0] + "\n", encoding="utf-8")
        code, out, _ = run(capsys, "cards", str(g), "verify")
        assert code == 0 and "数据库里进程帖" in out  # the database's copy agrees with the forgery
        code, out, err = run(capsys, "cards", str(g), "verify", "--anchors-from-forum")
        assert code == 1 and "进程帖 21 楼" in out + err and "论坛上的进程帖" in out


def test_verify_from_forum_needs_a_process_thread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = tmp_path / "game.toml"
    g.write_text(GAME.format(ruleset="luoluo-m19"), encoding="utf-8")
    code, _out, err = run(capsys, "cards", str(g), "verify", "--anchors-from-forum")
    assert code == 2 and "process_thread" in err


