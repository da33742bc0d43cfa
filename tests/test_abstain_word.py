"""The tally prints the ruleset's own word for an abstention.

werewolf-12 三、3(2) "弃票请写：投票对象：弃票" and 3(3) "21:00 之前从未有效投票者，视为弃票": the
director reads 弃票 in `tracker tally`, the 公示 the tally drafts and the TUI's totals — the seed
posts' 弃权 only where the ruleset says 弃权 (the golden CLI files hold the seed game's output).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_day_rules_werewolf12_game import TALK_POSTS, VOTE_POSTS, open_game

from tracker.cli import main
from tracker.engine.ruleset import load_ruleset
from tracker.reports.announce_tally import announce_tally_bbcode
from tui.tally_view import sheet_from
from tui.widgets.tally_totals import who_did_not


def test_the_ruleset_names_one_word() -> None:
    assert load_ruleset("werewolf-12").voting.abstain_word == "弃票"
    assert load_ruleset("luoluo-m19").voting.abstain_word == "弃权"


def test_the_exile_tally_says_qipiao(tmp_path: Path) -> None:
    svc = open_game(tmp_path, TALK_POSTS, VOTE_POSTS)
    _, exile = svc.votes.tally_day(1)
    t = exile.tally
    assert t.abstain_word == "弃票" and t.abstained == ("阿五",) and t.final["阿五"] == "弃票"
    post = announce_tally_bbcode(t)
    assert "弃票：阿五" in post and "未投票，视为弃票：阿六" in post and "弃权" not in post
    counted = [cb for cb in t.ballots if cb.voter == "阿五"]
    assert [cb.target for cb in counted] == ["弃票"]
    sheet = sheet_from(exile, confirmed=(), floor_of=lambda _pid: None)
    line = who_did_not(sheet).plain
    assert line.startswith("弃票：阿五 · 未投票，视为弃票：阿六") and "弃权" not in line


def test_the_cli_tally_says_qipiao(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_game(tmp_path, TALK_POSTS, VOTE_POSTS)
    assert main(["tally", str(tmp_path / "ww.toml"), "--day", "1", "--db",
                 f"sqlite:///{tmp_path / 'ww.db'}"]) == 0
    out = capsys.readouterr().out
    exile = out[out.index("第1日放逐投票结果"):]
    assert "弃票：阿五" in exile and "未投票，视为弃票：" in exile and "弃权" not in out
