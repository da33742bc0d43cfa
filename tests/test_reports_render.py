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


HOSTILE_NAME = "泡泡[/url][url=http://evil.example/]点我\n[b]\u202e"


def test_a_player_name_cannot_open_a_tag_in_any_bbcode_writer() -> None:
    """A name with [/url][url=…] became a live link in the 电梯楼 and the 公示."""
    from tracker.penalties.ledger import Entry, Standing
    from tracker.reports.announce_cards import LurkLine, cards_bbcode, lurkers_bbcode
    from tracker.reports.bbcode import bbcode_text

    posts = [
        elevator_bbcode(forum="http://bbs/", tid=3, day=1, entries=[ElevatorEntry(HOSTILE_NAME, 7)], style="author",
                        shuffle=False),
        elevator_bbcode(forum="http://bbs/", tid=3, day=1, entries=[ElevatorEntry(HOSTILE_NAME, None, (9,))],
                        style="posts", shuffle=False),
        announce_day_bbcode(day=2, out=[OutEntry(HOSTILE_NAME, "day", 1), OutEntry(HOSTILE_NAME, "night", 2)],
                            order="settlement", titles=[("警长", HOSTILE_NAME)]),
        cards_bbcode(1, [Entry(id=1, action="issue", player=HOSTILE_NAME, color="yellow", clause="5-(1)",
                               reason=HOSTILE_NAME, issuer="导演A", at=T)],
                     {HOSTILE_NAME: Standing(player=HOSTILE_NAME, yellow=1)}),
        lurkers_bbcode(1, [LurkLine(HOSTILE_NAME, 0, False, (("5-(1)", "发言不足"),), note=HOSTILE_NAME)], min_posts=5),
    ]
    for post in posts:
        assert "evil.example/]" not in post.replace("［url=http://evil.example/］", "")
        assert "[url=http://evil" not in post and "\u202e" not in post
        # every tag left is the writer's own: the name's brackets are full-width and it stays on its line
        assert bbcode_text(HOSTILE_NAME) in post
    assert bbcode_text(HOSTILE_NAME) == "泡泡［/url］［url=http://evil.example/］点我 ［b］<U+202E>"


def test_markdown_escapes_player_html_and_markdown() -> None:
    """Markdown viewers render raw HTML: a name like <img src=x onerror=…> must arrive as text."""
    evil = "<img src=x onerror=alert(1)>![](http://evil.example/p.png)|"
    lurk = LurkSection(rows=(LurkRow(evil, 0, 5, False),), penalties=(PenaltyRow(evil, evil, evil),))
    tally = TallySection(public_totals=((evil, 1.0),), true_totals=((evil, 1.0),),
                         ballots=(BallotRow(2, 128, evil, "vote", evil, False, evil),), outcome=evil)
    cards = CardsSection(entries=(CardRow(1, T, evil, "yellow", evil, evil, evil, note=evil),),
                         standing=(StandingRow(evil, 0, 1, 0, evil),))
    md = render_markdown(DayReport(game=evil, ruleset="luoluo-m19", day=2, closes_at=T, generated_at=T, final=True,
                                   lurk=lurk, tally=tally, cards=cards, notes=(evil,)))
    assert "<img" not in md and "&lt;img src=x onerror=alert(1)&gt;" in md
    assert "![](" not in md and "!\\[\\](http://evil.example/p.png)\\|" in md


def test_html_and_markdown_show_a_look_alike_name_visibly() -> None:
    alike = "银鸦\u200b"
    lurk = LurkSection(rows=(LurkRow(alike, 0, 5, False),), penalties=())
    report = DayReport(game="演示局", ruleset="luoluo-m19", day=2, closes_at=T, generated_at=T, final=True,
                       lurk=lurk)
    for text in (render_html(report), render_markdown(report)):
        assert "\u200b" not in text and "U+200B" in text
