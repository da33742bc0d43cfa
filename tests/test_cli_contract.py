"""docs/cli.md's command-line contract on the demo game, as a director and a script meet it.

Each `--json` command prints one JSON document and nothing else, with the contract's keys; the
same commands without `--json` print Chinese with the rule posts' words and none of the English
codes the JSON carries (red_text, alive, revoke …).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.demo_game import copy_demo
from tracker.cli import main

CODES = re.compile(r"\b(red_text|large_font|keyword|posted_while_out|posted_while_benched|chat_log_evidence|"
                   r"kidnapped_speech|spam|alive|dead_not_out|benched|revoke|amend|convert|ladder|top_votes|"
                   r"exiled|elected|min_posts|no_vote|open|dismissed|carded)\b")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory, demo_crawled: Path) -> Path:
    # the demo crawled and night 1 settled as the demo does (阿狸 and 老王 out), a copy of its own
    return copy_demo(demo_crawled, tmp_path_factory.mktemp("contract"))


def as_json(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> Any:
    capsys.readouterr()
    assert main([*args, "--json"]) == code
    out = capsys.readouterr().out
    return json.loads(out)  # the whole of stdout is one document


def human(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> str:
    capsys.readouterr()
    assert main(list(args)) == code
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "Traceback" not in text
    assert not CODES.search(text), CODES.search(text)
    return text


def test_json_keys_follow_the_contract(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    crawl = as_json(capsys, "crawl", g)
    assert list(crawl)[:5] == ["threads", "requests", "pages_fetched", "posts_new", "posts_changed"]

    posts = as_json(capsys, "posts", g, "--thread", "5")
    assert posts and all(list(p) == ["pid", "tid", "floor", "position", "author", "uid", "posted_at", "edited_at",
                                     "blocked", "deleted", "versions", "text", "quotes", "colors", "sizes"]
                         for p in posts)

    for day in (1, 2):
        tally = as_json(capsys, "tally", g, "--day", str(day))
        assert {"day", "ballots", "final", "totals", "public_totals", "outcome"} <= set(tally)
        assert tally["day"] == day
        assert all({"pid", "floor", "voter", "target", "kind", "valid", "reason"} <= set(b) for b in tally["ballots"])
        assert {b["kind"] for b in tally["ballots"]} <= {"vote", "change", "proxy"}
        assert all((b["reason"] is None) == b["valid"] for b in tally["ballots"])
        assert all(re.match(r"^[a-z_]+: \S", b["reason"]) for b in tally["ballots"] if b["reason"])
        # a ballot's time reads as the same post's time in `tracker posts` (the forum's zone)
        vote_posts = {p["pid"]: p for p in as_json(capsys, "posts", g, "--thread", str(tally["tid"]))}
        assert all(b["posted_at"] == vote_posts[b["pid"]]["posted_at"] for b in tally["ballots"])

    flags = as_json(capsys, "flags", g)
    assert flags and all(list(f) == ["id", "pid", "floor", "tid", "author", "kind", "category", "clause", "excerpt",
                                     "status"] for f in flags)
    dismissed = as_json(capsys, "flags", g, "dismiss", str(flags[0]["id"]), "--reason", "颜色不算红")
    assert {"id", "pid", "floor", "tid", "author", "kind", "category", "clause", "excerpt", "status"} <= set(dismissed)
    assert dismissed["status"] == "dismissed"

    lurkers = as_json(capsys, "lurkers", g, "--day", "2")
    assert {"day", "posts", "voted", "penalties"} <= set(lurkers)
    assert all({"player", "rule", "clause"} <= set(p) for p in lurkers["penalties"])

    entry = as_json(capsys, "card", g, "issue", "碎碎", "--color", "yellow", "--clause", "5-(1)", "--reason", "发言不足")
    assert {"id", "action", "player", "color", "clause", "reason"} <= set(entry) and entry["action"] == "issue"
    revoked = as_json(capsys, "card", g, "revoke", str(entry["id"]), "--reason", "发错了")
    assert revoked["action"] == "revoke" and revoked["ref"] == entry["id"]

    cards = as_json(capsys, "cards", g)
    assert set(cards) == {"ledger", "standing", "verified"}
    assert all(set(s) == {"blue", "yellow", "red", "status"} for s in cards["standing"].values())
    assert as_json(capsys, "cards", g, "verify") == {"ok": True, "entries": 2, "broken_at": None}

    state = as_json(capsys, "state", g)
    assert {"players", "days", "outcome"} <= set(state)
    rulesets = as_json(capsys, "rulesets")
    assert len(rulesets) == 6 and all(set(r) == {"id", "name", "source", "players", "factions", "code"} for r in rulesets)


def test_human_output_is_chinese_without_codes(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    assert "红字" in human(capsys, "flags", g)
    out = human(capsys, "card", g, "issue", "包子", "--color", "blue", "--reason", "测试")
    entry = int(re.search(r"#(\d+)", out).group(1))  # type: ignore[union-attr]
    assert "撤销" in human(capsys, "card", g, "revoke", str(entry), "--reason", "发错了")
    assert "存活" in human(capsys, "cards", g)
    for fmt in ("md", "bbcode", "html"):
        text = human(capsys, "report", "cards", g, "--day", "2", "--format", fmt, code=10)
        assert "撤销" in text
    assert "存活" in human(capsys, "report", "cards", g, "--day", "2", code=10)
    plain = human(capsys, "tally", g, "--day", "2")
    assert "票数统计" in plain and "[b]" not in plain  # terminal text, not the post to paste
    assert "[b]票数统计[/b]" in human(capsys, "tally", g, "--day", "2", "--bbcode")
    human(capsys, "lurkers", g, "--day", "2")
    # the event's key is the one the director typed, said back beside its Chinese word
    capsys.readouterr()
    assert main(["event", g, "benched", "--player", "风行", "--day", "2"]) == 0
    assert "挂机（benched） 风行" in capsys.readouterr().out


def test_demo_summary_names_flag_kinds_in_chinese() -> None:
    from tracker.demo.run import summary_text

    text = summary_text({
        "game": "演示局", "ruleset": "luoluo-m19", "forum": "http://127.0.0.1:1/",
        "crawl": {"threads": [], "requests": 0, "posts_new": 0, "posts_changed": 0}, "days": [],
        "flags": {"open": 3, "by_kind": {"keyword": 2, "posted_while_out": 1}}, "reports": [],
        "database": "sqlite://", "seconds": 0.1})
    assert "待审违规：3 条（违禁词 2，出局发言 1）" in text and not CODES.search(text)
