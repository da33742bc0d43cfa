"""What the tally tells a director about one ballot (issue 21, "What a director saw wrong"): an
edited ballot gets one note saying which text counts, never a second one contradicting it, and a
change written with the first vote's label is told exactly that.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tracker.clock import SHANGHAI
from tracker.engine.ballots import parse_ballot
from tracker.engine.ruleset import load_ruleset
from tracker.engine.tally import PlayerView, Roster, TallyRules, VoteWindow, rules_for_vote, tally
from tracker.records import Post, Quote

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
NAMES = ("泡泡", "栗子", "包子")
WINDOW = VoteWindow(day=2, opens=OPENS, closes=OPENS + timedelta(hours=35))
ROSTER = Roster(players=tuple(PlayerView(n) for n in NAMES))


def _post(pid: int, floor: int, text: str, hours: float, *, edited: float | None = None,
          quotes: tuple[int, ...] = ()) -> Post:
    return Post(pid=pid, tid=5, floor=floor, author="泡泡", uid=None, posted_at=OPENS + timedelta(hours=hours),
                html="", text=text, edited_at=OPENS + timedelta(hours=edited) if edited is not None else None,
                quotes=tuple(Quote(pid=q, author="泡泡", posted_at=None, text="") for q in quotes))


def _rules(ruleset: str) -> TallyRules:
    return rules_for_vote(load_ruleset(ruleset).voting)


@pytest.mark.parametrize(("ruleset", "first", "now", "code", "counts"), [
    ("luoluo-m19", "投票对象：包子\n投票理由：太可依", "投票对象：包子\n投票理由：太可疑", "edit_typo", "包子"),
    ("luoluo-m19", "投票对象：包子\n投票理由：可疑", "投票对象：栗子\n投票理由：可疑", "edit_not_counted", "包子"),
    ("sanguo-213", "投票对象：包子\n投票理由：可疑", "投票对象：栗子\n投票理由：可疑", "edit_not_counted", "包子"),
])
def test_an_edited_ballot_gets_one_note(ruleset: str, first: str, now: str, code: str, counts: str) -> None:
    ballot = parse_ballot(_post(100, 2, now, 1, edited=2), names=NAMES)
    assert ballot is not None
    result = tally([ballot], rules=_rules(ruleset), roster=ROSTER, window=WINDOW, earlier_versions={100: first})
    (cb,) = result.ballots
    assert result.final["泡泡"] == counts
    assert [f.code.value for f in cb.flags] == [code]
    assert "编辑于 03-01 12:00" in cb.flags[0].message
    assert "按论坛现在显示的内容计" not in " ".join(f.message for f in cb.flags)


def test_an_edit_after_the_close_says_so_in_its_one_note() -> None:
    ballot = parse_ballot(_post(100, 2, "投票对象：栗子\n投票理由：可疑", 1, edited=40), names=NAMES)
    assert ballot is not None
    result = tally([ballot], rules=_rules("luoluo-m19"), roster=ROSTER, window=WINDOW,
                   earlier_versions={100: "投票对象：包子\n投票理由：可疑"})
    (cb,) = result.ballots
    assert [f.code.value for f in cb.flags] == ["edit_not_counted"]
    assert "（关门之后）" in cb.flags[0].message and result.final["泡泡"] == "包子"


def test_a_change_written_as_a_vote_is_told_so() -> None:
    first = parse_ballot(_post(100, 2, "投票对象：包子\n投票理由：可疑", 1), names=NAMES)
    # quotes the own vote, as a change must, but writes 投票对象 instead of 改票对象
    again = parse_ballot(_post(101, 5, "投票对象：栗子\n投票理由：更可疑", 3, quotes=(100,)), names=NAMES)
    assert first is not None and again is not None
    result = tally([first, again], rules=_rules("luoluo-m19"), roster=ROSTER, window=WINDOW)
    cb = result.ballots[1]
    assert not cb.valid and cb.verdict is not None
    assert cb.verdict.code.value == "change_written_as_vote"
    assert "改票须写“改票对象：”，这一帖写的是“投票对象：”" in cb.verdict.message and "2 楼" in cb.verdict.message
    assert result.final["泡泡"] == "包子"


def test_a_second_vote_that_quotes_nothing_is_still_a_second_vote() -> None:
    first = parse_ballot(_post(100, 2, "投票对象：包子\n投票理由：可疑", 1), names=NAMES)
    again = parse_ballot(_post(101, 5, "投票对象：栗子\n投票理由：更可疑", 3), names=NAMES)
    assert first is not None and again is not None
    result = tally([first, again], rules=_rules("luoluo-m19"), roster=ROSTER, window=WINDOW)
    assert result.ballots[1].verdict is not None and result.ballots[1].verdict.code.value == "second_vote"
