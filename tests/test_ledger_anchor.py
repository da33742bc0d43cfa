"""The ledger's promise against anyone who can write its database: the three forgeries that verified
as intact (delete the newest card and move the summary; delete everything; rewrite a card and
recompute every hash) are caught by an anchor kept outside the database — the head hash printed in
the 判罚公示, given with --anchor or found in the crawled process thread — or by the keyed local seal."""

from __future__ import annotations

import json
import re
import sqlite3
import stat
from pathlib import Path

import pytest

from tests.test_cli_penalties import GAME, post, put
from tracker.cli import main
from tracker.penalties.ledger import entry_hash
from tracker.store.db import Store
from tracker.store.penalties import load_entries

PROCESS = 3


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    p = tmp_path / "game.toml"
    p.write_text(GAME.format(ruleset="luoluo-m19").replace("directors = [", f"process_thread = {PROCESS}\n"
                                                            "directors = [", 1), encoding="utf-8")
    for who in ("泡泡", "栗子", "包子"):
        assert run(capsys, "card", str(p), "issue", who, "--color", "blue", "--reason", "违规")[0] == 0
    return p


def announced_anchor(game: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    code, out, _ = run(capsys, "cards", str(game), "announce", "--day", "1")
    assert code == 0
    m = re.search(r"账本锚点：第 (\d+) 条 ([0-9a-f]{16})", out)
    assert m is not None, out
    return f"{m.group(1)}:{m.group(2)}", out


def forge_delete_newest(db: Path) -> None:
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM card_ledger WHERE id = 3")
        h2 = c.execute("SELECT hash FROM card_ledger WHERE id = 2").fetchone()[0]
        c.execute("UPDATE card_ledger_head SET entries = 2, hash = ?", (h2,))


def forge_delete_everything(db: Path) -> None:
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM card_ledger")
        c.execute("DELETE FROM card_ledger_head")


def forge_rewrite_and_rehash(db: Path) -> None:
    from dataclasses import replace

    store = Store.open(f"sqlite:///{db}")
    with store.session() as s:
        entries = load_entries(session=s)
    store.close()
    prev = entries[0].hash
    with sqlite3.connect(db) as c:
        for e in entries[1:]:
            e2 = replace(e, reason="改写过" if e.id == 2 else e.reason, prev_hash=prev)
            h = entry_hash(prev, e2)
            c.execute("UPDATE card_ledger SET reason = ?, prev_hash = ?, hash = ? WHERE id = ?",
                      (e2.reason, prev, h, e.id))
            prev = h
        c.execute("UPDATE card_ledger_head SET hash = ?", (prev,))


FORGERIES = {"delete-newest": forge_delete_newest, "delete-everything": forge_delete_everything,
             "rewrite-and-rehash": forge_rewrite_and_rehash}


@pytest.mark.parametrize("forge", FORGERIES, ids=list(FORGERIES))
def test_a_forgery_that_fools_the_chain_is_caught_by_the_announced_anchor(
        game: Path, capsys: pytest.CaptureFixture[str], forge: str) -> None:
    anchor, _ = announced_anchor(game, capsys)
    assert run(capsys, "cards", str(game), "verify", "--anchor", anchor)[0] == 0
    FORGERIES[forge](game.with_suffix(".db"))
    # the hole this closes: the chain alone still says intact (and says what it cannot prove)
    code, out, _ = run(capsys, "cards", str(game), "verify")
    assert code == 0 and "没有核对任何锚点" in out
    code, out, err = run(capsys, "cards", str(game), "verify", "--anchor", anchor)
    assert code == 1, out + err
    assert "账本已损坏" in out and "锚点" in err
    code, out, _ = run(capsys, "cards", str(game), "verify", "--anchor", anchor, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["anchors_checked"] == 1 and doc["problems"]


def test_anchors_posted_by_a_director_in_the_process_thread_are_checked(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, announcement = announced_anchor(game, capsys)
    put(game, [post(901, 5, "导演A", announcement, tid=PROCESS),
               # a player cannot make verify fail (or pass) with an anchor of their own
               post(902, 6, "泡泡", "账本锚点：第 3 条 0123456789abcdef", tid=PROCESS)])
    code, out, _ = run(capsys, "cards", str(game), "verify")
    assert code == 0 and "进程帖中 1 个" in out
    forge_rewrite_and_rehash(game.with_suffix(".db"))
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "进程帖 5 楼" in out + err
    # the TUI's 判罚 screen asks the same audit (svc.cards.audit): the chain alone is intact,
    # the posted anchor is not
    from tracker.service import Service

    svc = Service.open(game)
    try:
        assert svc.cards.verify_ledger().ok
        check = svc.cards.audit()
        assert not check.ok and check.posted == 1 and any("进程帖 5 楼" in p for p in check.problems)
    finally:
        svc.close()


def test_the_keyed_local_seal_catches_a_forgery_without_any_anchor(
        game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "keys" / "ledger.key"
    game.write_text(game.read_text(encoding="utf-8") + f'\n[ledger]\nkey_file = "{key}"\n', encoding="utf-8")
    assert run(capsys, "card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "再犯")[0] == 0
    seal = key.with_name("ledger.key.seal")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(seal.stat().st_mode) == 0o600
    code, out, _ = run(capsys, "cards", str(game), "verify")
    assert code == 0 and "本地密钥封印 1 条" in out
    with sqlite3.connect(game.with_suffix(".db")) as c:  # delete the newest card and move the summary back
        c.execute("DELETE FROM card_ledger WHERE id = 4")
        h3 = c.execute("SELECT hash FROM card_ledger WHERE id = 3").fetchone()[0]
        c.execute("UPDATE card_ledger_head SET entries = 3, hash = ?", (h3,))
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "本地封印记录的第 4 条" in out + err
    # and a seal line forged without the key does not pass either
    assert len(seal.read_text(encoding="ascii").split()) == 3  # one line: N HASH HMAC
    seal.write_text(f"3 {h3} {'0' * 64}\n", encoding="ascii")
    code, out, err = run(capsys, "cards", str(game), "verify")
    assert code == 1 and "HMAC 不对" in out + err


def test_a_malformed_anchor_is_a_usage_mistake(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cards", str(game), "verify", "--anchor", "xyz")
    assert code == 2 and "锚点" in err
