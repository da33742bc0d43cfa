"""The command line's output on the demo game, byte for byte, as it was before the service redesign.

Scripts parse the JSON and directors paste the BBCode, so a refactor of the layers underneath must
not move a byte. The golden files in ``tests/fixtures/cli_golden/`` were first written by the code
before issue #11's redesign, and rewritten once when the demo game gained roles and two nights
played through ``tracker night`` (``TRACKER_WRITE_GOLDEN=1 pytest tests/test_cli_golden.py``
rewrites them — only when a change of output is intended).

The wall clock is frozen (``SystemClock.now``) at an instant after the demo game ends, so what a
command stamps (a card's ``at`` and with it the ledger's hashes, a flag's detection time) is the
same on every run and compared as is. Only two genuinely volatile values are masked: the temporary
directory the game lives in (paths of written reports, the database URL) and the loopback port of
the replay server.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.clock import SystemClock
from tracker.demo.run import prepare
from tracker.demo.server import DEMO_PAGES, ReplayForum

GOLDEN = Path(__file__).parent / "fixtures" / "cli_golden"
WRITE = os.environ.get("TRACKER_WRITE_GOLDEN") == "1"

# (name, argv after the game path is substituted for {g}); run in this order, each on the state the
# ones before it left (a crawl, then reading, then confirming and carding, then reading again).
STEPS: list[tuple[str, list[str]]] = [
    ("crawl", ["crawl", "{g}", "--json"]),
    # night 1 (the demo's nights.toml), through the director's desk, so day 2 is read as the forum had it
    *[(f"night-1-add-{i}", ["night", "{g}", "--night", "1", "add", *act]) for i, act in enumerate(
        (["狼群(银鸦,栗子,风行)", "杀人", "阿狸"], ["青铃", "救治", "阿狸"], ["泡泡", "预言", "栗子"]), 1)],
    ("night-1-preview", ["night", "{g}", "--night", "1", "--json"]),
    ("night-1-confirm", ["night", "{g}", "--night", "1", "confirm"]),
    *[(f"posts-{tid}", ["posts", "{g}", "--thread", str(tid), "--json"]) for tid in (2, 3, 4, 5, 6)],
    ("state-before", ["state", "{g}", "--json"]),
    ("tally-1", ["tally", "{g}", "--day", "1", "--json"]),
    ("tally-2", ["tally", "{g}", "--day", "2", "--json"]),
    ("tally-2-text", ["tally", "{g}", "--day", "2"]),
    ("tally-1-bbcode", ["tally", "{g}", "--day", "1", "--bbcode"]),
    ("tally-2-bbcode-no-voters", ["tally", "{g}", "--day", "2", "--bbcode", "--no-voters"]),
    ("lurkers-1", ["lurkers", "{g}", "--day", "1", "--json"]),
    ("lurkers-2", ["lurkers", "{g}", "--day", "2", "--json"]),
    ("lurkers-2-bbcode", ["lurkers", "{g}", "--day", "2", "--bbcode"]),
    ("flags", ["flags", "{g}", "--json"]),
    ("flags-open", ["flags", "{g}", "--status", "open", "--no-detect", "--json"]),
    ("flags-text", ["flags", "{g}", "--no-detect"]),
    ("flags-dismiss", ["flags", "{g}", "dismiss", "1", "--reason", "颜色不算红", "--json"]),
    *[(f"report-{kind}-{day}", ["report", kind, "{g}", "--day", str(day), "--json"])
      for kind in ("lurkers", "tally", "cards") for day in (1, 2)],
    *[(f"report-{kind}-2-{fmt}", ["report", kind, "{g}", "--day", "2", "--format", fmt])
      for kind in ("lurkers", "tally", "cards") for fmt in ("md", "bbcode", "html")],
    ("elevator-1", ["elevator", "{g}", "--day", "1", "--json"]),
    ("elevator-2", ["elevator", "{g}", "--day", "2", "--json"]),
    ("announce-2", ["announce", "{g}", "--day", "2", "--json"]),
    ("confirm-1", ["confirm", "{g}", "--day", "1", "--by", "导演A", "--json"]),
    ("confirm-2", ["confirm", "{g}", "--day", "2", "--by", "导演A", "--json"]),
    *[(f"night-2-add-{i}", ["night", "{g}", "--night", "2", "add", *act]) for i, act in enumerate(
        (["狼群(银鸦,风行)", "杀人", "泡泡"], ["银鸦", "觅食", "碎碎"], ["青铃", "救治", "饺子"],
         ["花千树", "救药", "泡泡"], ["泡泡", "预言", "银鸦"], ["取酒", "绑架", "小白"]), 1)],
    ("night-2-confirm", ["night", "{g}", "--night", "2", "confirm", "--json"]),
    ("night-2-text", ["night", "{g}", "--night", "2"]),
    ("state-confirmed", ["state", "{g}", "--json"]),
    ("state-events", ["state", "{g}", "--events", "--json"]),
    ("state-text", ["state", "{g}", "--events"]),
    ("card-issue", ["card", "{g}", "issue", "碎碎", "--color", "yellow", "--clause", "5-(1)", "--reason", "发言不足",
                    "--json"]),
    ("card-issue-2", ["card", "{g}", "issue", "包子", "--color", "blue", "--reason", "测试", "--json"]),
    ("card-amend", ["card", "{g}", "amend", "2", "--reason", "应为黄牌", "--color", "yellow", "--json"]),
    ("card-revoke", ["card", "{g}", "revoke", "1", "--reason", "发错了", "--json"]),
    ("card-from-flag", ["card", "{g}", "from-flag", "2", "--json"]),
    ("card-red", ["card", "{g}", "issue", "取酒", "--color", "red", "--reason", "严重违规", "--json"]),
    ("cards", ["cards", "{g}", "--json"]),
    ("cards-text", ["cards", "{g}"]),
    ("cards-verify", ["cards", "{g}", "verify", "--json"]),
    ("cards-history", ["cards", "{g}", "history", "2", "--json"]),
    ("cards-announce-2", ["cards", "{g}", "announce", "--day", "2"]),
    ("event-benched", ["event", "{g}", "benched", "--player", "风行", "--day", "2", "--at", "2025-03-04T12:00:00+08:00",
                       "--json"]),
    ("state-after", ["state", "{g}", "--json"]),
    ("lurkers-2-after", ["lurkers", "{g}", "--day", "2", "--json"]),
    ("report-cards-2-after", ["report", "cards", "{g}", "--day", "2", "--json"]),
    ("rulesets", ["rulesets", "--json"]),
]

FROZEN = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _mask(text: str, root: Path, port: int) -> str:
    return text.replace(str(root), "<TMP>").replace(f"127.0.0.1:{port}", "127.0.0.1:<PORT>")


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return f"exit {code}\n--- stdout\n{captured.out}--- stderr\n{captured.err}"


@pytest.fixture(scope="module")
def demo_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    root = tmp_path_factory.mktemp("golden")
    with ReplayForum(DEMO_PAGES) as forum:
        prepare(root, forum.base_url)
        yield root, int(forum.base_url.rstrip("/").rsplit(":", 1)[1])


def test_cli_output_is_byte_identical_to_the_golden_files(demo_root: tuple[Path, int],
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SystemClock, "now", lambda self: FROZEN)
    for name in ("TRACKER_LOG_LEVEL", "TRACKER_LOG_FILE"):  # the diagnostics log is not the contract
        monkeypatch.delenv(name, raising=False)
    root, port = demo_root
    game = str(root / "demo.toml")
    if WRITE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
    mismatches = []
    for i, (name, argv) in enumerate(STEPS):
        out = _mask(_run(capsys, [a.replace("{g}", game) for a in argv]), root, port)
        path = GOLDEN / f"{i:02d}-{name}.txt"
        if WRITE:
            path.write_text(out, encoding="utf-8")
            continue
        if path.read_text(encoding="utf-8") != out:
            mismatches.append(path.name)
    assert not mismatches, f"output changed: {mismatches}"
