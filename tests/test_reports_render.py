"""Report renderers: Markdown and HTML carry the same facts, the HTML is self-contained, the 电梯楼 is stable."""

from __future__ import annotations

import re
from datetime import datetime

from tracker.clock import SHANGHAI
from tracker.reports.announce_day import OutEntry, announce_day_bbcode
from tracker.reports.elevator import ElevatorEntry, elevator_bbcode, elevator_order
from tracker.reports.html import render_html
from tracker.reports.markdown import render_markdown
from tracker.reports.model import (
    BallotRow,
    CardRow,
    CardsSection,
    DayReport,
    LurkRow,
    LurkSection,
    PenaltyRow,
    StandingRow,
    TallySection,
)

T = datetime(2025, 3, 4, 22, 0, tzinfo=SHANGHAI)


def sample() -> DayReport:
    lurk = LurkSection(rows=(LurkRow("泡泡", 7, 5, True), LurkRow("风行", 2, 5, False),
                             LurkRow("<script>", 0, 5, False, invalid_only=True)),
                       penalties=(PenaltyRow("风行", "发言不足 5 帖", "5-(1)"),))
    tally = TallySection(public_totals=(("栗子", 6.0), ("包子", 3.0)), true_totals=(("栗子", 6.0), ("包子", 3.5)),
                         ballots=(BallotRow(2, 128, "泡泡", "vote", "栗子", True, None),
                                  BallotRow(15, 196, "风行", "vote", "包子", False, "关门后投票")),
                         outcome="栗子 6 票，放逐出局")
    cards = CardsSection(entries=(CardRow(1, T, "风行", "yellow", "5-(1)", "潜水", "导演A"),),
                         standing=(StandingRow("风行", 0, 1, 0, "存活"),))
    return DayReport(game="演示局", ruleset="luoluo-m19", day=2, closes_at=T, generated_at=T, final=True,
                     lurk=lurk, tally=tally, cards=cards)


def test_markdown_names_lurkers_invalid_ballots_and_cards_in_rule_words() -> None:
    md = render_markdown(sample())
    assert "风行 | 2 | 5" in md and "⚠ 不足" in md
    assert "无效：关门后投票" in md
    assert "黄牌" in md and "结果：栗子 6 票，放逐出局" in md
    assert "| 包子 | 3 | 3.5 |" in md


def test_html_is_self_contained_and_escapes_player_text() -> None:
    page = render_html(sample())
    assert "<script>" not in page.replace("&lt;script&gt;", "")
    assert not re.search(r"(src|href)=\"https?://", page)
    assert page.count("<svg") == 2 and "最低 5" in page


def test_elevator_order_is_random_but_stable_per_thread() -> None:
    entries = [ElevatorEntry(n, i) for i, n in enumerate("甲乙丙丁戊己庚辛壬癸", start=2)]
    a = elevator_order(entries, shuffle=True, tid=3)
    assert a == elevator_order(entries, shuffle=True, tid=3)
    assert a != entries
    assert elevator_order(entries, shuffle=False, tid=3) == entries
    text = elevator_bbcode(forum="http://f/", tid=3, day=1, entries=entries, style="author", shuffle=True)
    assert "[url=http://f/forum.php?mod=viewthread&tid=3&page=1&authorid=2]甲[/url]" in text


def test_elevator_post_links_for_a_link_per_post_ruleset() -> None:
    text = elevator_bbcode(forum="http://f/", tid=5, day=2, entries=[ElevatorEntry("泡泡", 2, (128, 131))],
                           style="posts", shuffle=False)
    assert "goto=findpost&ptid=5&pid=131]2[/url]" in text


def test_announcement_orders_the_out_list_by_the_elevator_when_the_rule_says_so() -> None:
    out = [OutEntry("老王", "night", 2), OutEntry("阿狸", "night", 1), OutEntry("栗子", "day", 0)]
    text = announce_day_bbcode(day=3, out=out, order="elevator", elevator=["老王", "栗子", "阿狸"],
                               titles=[("警长", "饺子")])
    assert "第2日夜晚出局：老王、阿狸" in text and "第2日白天出局：栗子" in text and "当日警长：饺子" in text
    settle = announce_day_bbcode(day=3, out=out, order="settlement")
    assert "第2日夜晚出局：阿狸、老王" in settle
