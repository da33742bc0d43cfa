"""`tracker flags / lurkers / cards / card` end to end: a game file in tmp_path, posts put in the
store through the store's own API, the commands run through `tracker.cli.main`, JSON checked."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.records import FontUse, Post
from tracker.store.db import Store
from tracker.store.posts import upsert_posts

DISCUSSION, VOTE = 4, 5
OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)

GAME = """
[game]
name = "测试局"
ruleset = "{ruleset}"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]

[[players]]
name = "泡泡"
faction = "狼人"
[[players]]
name = "栗子"
faction = "狼人"
[[players]]
name = "包子"
faction = "村民"

[[days]]
day = 1
discussion = 4
vote = 5
opens = 2025-03-01T10:00:00+08:00
closes = 2025-03-02T22:00:00+08:00
"""


def write_game(tmp_path: Path, ruleset: str = "luoluo-m19") -> Path:
    p = tmp_path / "game.toml"
    p.write_text(GAME.format(ruleset=ruleset), encoding="utf-8")
    return p


def post(pid: int, floor: int, author: str, text: str, *, html: str | None = None, tid: int = DISCUSSION,
         fonts: tuple[FontUse, ...] = (), colors: tuple[str, ...] = (), minutes: int = 0) -> Post:
    return Post(pid=pid, tid=tid, floor=floor, author=author, uid=None,
                posted_at=OPENS + timedelta(minutes=minutes or floor), html=html if html is not None else text,
                text=text, fonts=fonts, colors=colors)


RED = post(101, 2, "泡泡", "我是预言家",
           html='<font color="#FF0000">我是预言家</font>', fonts=(FontUse("#FF0000", None, "我是预言家"),),
           colors=("#FF0000",))
PLAIN = post(102, 3, "栗子", "今天天气不错，我们先聊聊昨天的发言")


def put(game: Path, posts: list[Post]) -> None:
    store = Store.open(f"sqlite:///{game.with_suffix('.db')}")
    try:
        with store.session() as s:
            upsert_posts(s, posts, seen_at=datetime.now(SHANGHAI))
    finally:
        store.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, (json.loads(out) if "--json" in args and out.strip() else out)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Path]:
    yield write_game(tmp_path)


# --------------------------------------------------------------------------------------- flags


def test_flags_json_shape_and_no_duplicates_on_rerun(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(game, [RED, PLAIN])
    code, flags = run(capsys, "flags", str(game), "--json")
    assert code == 0 and isinstance(flags, list)
    red = [f for f in flags if f["kind"] == "red_text"]
    assert len(red) == 1
    assert set(red[0]) == {"id", "pid", "floor", "tid", "author", "kind", "category", "clause", "excerpt", "status"}
    assert (red[0]["pid"], red[0]["floor"], red[0]["tid"], red[0]["author"], red[0]["status"]) == \
        (101, 2, DISCUSSION, "泡泡", "open")
    _, again = run(capsys, "flags", str(game), "--json")
    assert again == flags


def test_dismiss_needs_a_reason_and_only_once(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(game, [RED])
    _, flags = run(capsys, "flags", str(game), "--json")
    fid = str(flags[0]["id"])  # type: ignore[index]
    code, f = run(capsys, "flags", str(game), "dismiss", fid, "--reason", "引用规则原文", "--json")
    assert code == 0 and f["status"] == "dismissed" and f["id"] == int(fid)  # type: ignore[index]
    assert f["decision_reason"] == "引用规则原文" and f["decided_by"] == "导演A"  # type: ignore[index]
    assert main(["flags", str(game), "dismiss", fid, "--reason", "再来"]) == 7
    assert "已处理" in capsys.readouterr().err
    _, flags = run(capsys, "flags", str(game), "--json")
    assert flags[0]["status"] == "dismissed"  # type: ignore[index]


def test_edited_post_keeps_its_original_evidence(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(game, [RED])
    run(capsys, "flags", str(game), "--json")
    edited = Post(**{**{f: getattr(RED, f) for f in RED.__slots__},  # type: ignore[attr-defined]
                     "text": "我是预言家（已改）", "html": '<font color="#FF0000">我是预言家（已改）</font>',
                     "fonts": (FontUse("#FF0000", None, "我是预言家（已改）"),)})
    put(game, [edited])
    _, flags = run(capsys, "flags", str(game), "--json")
    assert len(flags) == 1  # type: ignore[arg-type]
    store = Store.open(f"sqlite:///{game.with_suffix('.db')}")
    try:
        from tracker.store.penalties import list_flags

        with store.session() as s:
            (f,) = list_flags(session=s)
        assert f.html == RED.html and "已改" not in f.excerpt
        import hashlib

        assert f.html_hash == hashlib.sha256(RED.html.encode()).hexdigest()
    finally:
        store.close()


def test_rerun_on_an_unchanged_store_scans_nothing(game: Path) -> None:
    from tracker.service import Service

    put(game, [RED, PLAIN])
    svc = Service.open(game)
    try:
        first = svc.flag_review.detect_flags()
        assert first.scanned == 2 and len(first.new_flags) >= 1
        assert svc.flag_review.detect_flags().scanned == 0
        put(game, [post(103, 4, "包子", "新的一楼")])
        assert svc.flag_review.detect_flags().scanned == 1
    finally:
        svc.close()


# --------------------------------------------------------------------------------------- cards


def test_issue_three_blue_json_and_standing(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(3):
        code, e = run(capsys, "card", str(game), "issue", "泡泡", "--color", "blue", "--clause", "2-(1)",
                      "--reason", f"情绪发言 {i}", "--json")
        assert code == 0
    assert e["action"] == "issue" and e["color"] == "blue" and e["issuer"] == "导演A"  # type: ignore[index]
    assert [w["action"] for w in e["written"]] == ["issue", "convert"]  # type: ignore[index]
    code, doc = run(capsys, "cards", str(game), "--json")
    assert set(doc) == {"ledger", "standing", "verified"}  # type: ignore[arg-type]
    assert len(doc["ledger"]) == 4  # type: ignore[index]
    assert doc["standing"]["泡泡"] == {"blue": 0, "yellow": 1, "red": 0, "status": "alive"}  # type: ignore[index]
    assert doc["standing"]["包子"] == {"blue": 0, "yellow": 0, "red": 0, "status": "alive"}  # type: ignore[index]


def test_revoke_prints_the_new_entry_and_undoes_the_conversion(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        run(capsys, "card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "x", "--json")
    code, e = run(capsys, "card", str(game), "revoke", "1", "--reason", "误判", "--json")
    assert code == 0 and e["action"] == "revoke" and e["ref"] == 1  # type: ignore[index]
    assert [w["action"] for w in e["written"]] == ["revert", "revoke"]  # type: ignore[index]
    _, doc = run(capsys, "cards", str(game), "--json")
    assert doc["standing"]["泡泡"]["blue"] == 2  # type: ignore[index]


def test_unknown_player_and_bad_card_are_director_errors(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", str(game), "issue", "泡泡泡", "--color", "blue", "--reason", "x"]) == 7
    assert "泡泡" in capsys.readouterr().err
    assert main(["card", str(game), "revoke", "9", "--reason", "x"]) == 2  # no such card: a usage error
    assert main(["card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "x", "--post", "999"]) == 2


def test_verify_ok_then_broken_by_an_edit_and_by_a_deletion(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for p in ("泡泡", "栗子", "包子"):
        run(capsys, "card", str(game), "issue", p, "--color", "blue", "--reason", "x")
    code, v = run(capsys, "cards", str(game), "verify", "--json")
    assert code == 0 and v == {"ok": True, "entries": 3, "broken_at": None}
    db = game.with_suffix(".db")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE card_ledger SET reason = '改过' WHERE id = 2")
    code, v = run(capsys, "cards", str(game), "verify", "--json")
    assert code == 1 and v == {"ok": False, "entries": 3, "broken_at": 2}
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE card_ledger SET reason = 'x' WHERE id = 2")
    assert main(["cards", str(game), "verify"]) == 0
    assert "完好" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM card_ledger WHERE id = 3")
    code, v = run(capsys, "cards", str(game), "verify", "--json")
    assert code == 1 and v == {"ok": False, "entries": 2, "broken_at": 3}
    # a broken ledger refuses new decisions instead of chaining onto a forgery
    assert main(["card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "x"]) == 1


def test_card_from_flag_prefills_and_closes_the_flag(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.service import Service

    put(game, [RED])
    _, flags = run(capsys, "flags", str(game), "--json")
    fid = flags[0]["id"]  # type: ignore[index]
    svc = Service.open(game)
    try:
        sug = svc.flag_review.suggest_card(fid)
        assert (sug.player, sug.color, sug.clause, sug.post) == ("泡泡", "blue", "6-(1)", 101)
        d = svc.flag_review.card_from_flag(fid)
        assert d.entry.flag == fid and d.entry.post == 101 and d.entry.evidence == svc.flag_review.flag(fid).html_hash
        assert svc.flag_review.flag(fid).status == "carded" and svc.flag_review.flag(fid).card == d.entry.id
    finally:
        svc.close()
    assert main(["card", str(game), "from-flag", str(fid)]) == 7


# ------------------------------------------------------------------------ red cards in the game


def test_a_red_card_changes_the_game_state_and_revoking_restores_it(game: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, e = run(capsys, "card", str(game), "issue", "栗子", "--color", "red", "--clause", "4-(1)",
                  "--reason", "场外通马甲", "--json")
    assert code == 0 and e["events"] and "出局" in e["events"][0]  # type: ignore[index]
    _, doc = run(capsys, "cards", str(game), "--json")
    assert doc["standing"]["栗子"] == {"blue": 0, "yellow": 0, "red": 1, "status": "out"}  # type: ignore[index]
    run(capsys, "card", str(game), "revoke", "1", "--reason", "误判", "--json")
    _, doc = run(capsys, "cards", str(game), "--json")
    assert doc["standing"]["栗子"]["status"] == "alive"  # type: ignore[index]


def test_benched_under_107(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = write_game(tmp_path, "dnf-107")
    for _ in range(3):
        run(capsys, "card", str(game), "issue", "泡泡", "--color", "yellow", "--reason", "x")
    _, doc = run(capsys, "cards", str(game), "--json")
    assert doc["standing"]["泡泡"] == {"blue": 0, "yellow": 0, "red": 1, "status": "benched"}  # type: ignore[index]


def test_a_substitute_inherits_the_accounts_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = write_game(tmp_path)
    game.write_text(game.read_text(encoding="utf-8") + """
[[events]]
at = 2025-03-01T12:00:00+08:00
kind = "substituted"
player = "泡泡"
by = "新人"
""", encoding="utf-8")
    run(capsys, "card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "x")
    code, e = run(capsys, "card", str(game), "issue", "新人", "--color", "blue", "--reason", "y", "--json")
    assert code == 0 and e["player"] == "泡泡"  # type: ignore[index]
    _, doc = run(capsys, "cards", str(game), "--json")
    assert doc["standing"]["泡泡"]["blue"] == 2 and "新人" not in doc["standing"]  # type: ignore[index]


# ------------------------------------------------------------------------------------ lurkers


def _day_one(game: Path) -> None:
    talk = [post(200 + i, i + 2, "泡泡", f"第{i}条分析") for i in range(5)]
    talk += [post(210 + i, i + 7, "栗子", f"栗子发言{i}") for i in range(2)]
    votes = [post(300, 2, "泡泡", "投票对象：栗子\n投票理由：发言太少", tid=VOTE),
             post(301, 3, "栗子", "投票对象：泡泡 投票理由：直觉", tid=VOTE),
             post(302, 4, "包子", "我投栗子", tid=VOTE)]
    put(game, talk + votes)


def test_lurkers_json_shape(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _day_one(game)
    code, rep = run(capsys, "lurkers", str(game), "--day", "1", "--json")
    assert code == 0
    assert rep["day"] == 1  # type: ignore[index]
    assert rep["posts"] == {"泡泡": 5, "栗子": 2, "包子": 0}  # type: ignore[index]
    assert rep["voted"] == {"泡泡": True, "栗子": True, "包子": False}  # type: ignore[index]
    pens = {(p["player"], p["rule"]) for p in rep["penalties"]}  # type: ignore[index]
    assert pens == {("栗子", "min_posts"), ("包子", "min_posts"), ("包子", "no_vote")}
    assert all(set(p) >= {"player", "rule", "clause"} for p in rep["penalties"])  # type: ignore[index]


def test_announcements_use_the_rule_posts_words(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tracker.clock import FrozenClock
    from tracker.service import Service

    _day_one(game)
    svc = Service.open(game, clock=FrozenClock(datetime(2025, 3, 2, 23, 0, tzinfo=SHANGHAI)))
    try:
        svc.cards.issue_card("栗子", "yellow", "5-(1)", "在未执行加速的讨论日发言不足五帖 [b]x[/b]")
        svc.cards.issue_card("泡泡", "blue", "2-(1)", "情绪发言", post=201)
        text = svc.cards.cards_announcement(1)
        assert "黄牌" in text and "蓝牌" in text and "5-(1)" in text and "第 3 楼" in text
        assert "[b]x[/b]" not in text and "［b］x［/b］" in text
        lurk = svc.lurking.lurkers_announcement(1)
        assert "潜水" in lurk and "包子" in lurk and "未投" in lurk
    finally:
        svc.close()
