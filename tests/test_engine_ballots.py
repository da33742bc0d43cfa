"""The ballot parser and the normaliser, one case per sentence of the format clauses.

"特别地，投票格式中标点符号不区分全半角。投票对象与投票理由之间可以不换行。" (all five rule posts);
"投弃权票时，须在投票对象中填写“弃权”"; "请严格依照投票格式…投票格式或投票对象有误的票无效。"
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.clock import SHANGHAI
from tracker.engine.ballots import parse_ballot
from tracker.engine.normalize import name_key, normalize
from tracker.records import Post, Quote

NAMES = ["饺子", "包子", "泡泡", "花千树", "Alice"]
DIRECTORS = ["导演A"]


def post(text: str, author: str = "泡泡", *, quotes: tuple[int, ...] = (), pid: int = 10) -> Post:
    return Post(pid=pid, tid=4, floor=2, author=author, uid=None,
                posted_at=datetime(2025, 3, 1, 11, 0, tzinfo=SHANGHAI), html="", text=text,
                quotes=tuple(Quote(pid=q, author=None, posted_at=None, text="") for q in quotes))


def parse(text: str, author: str = "泡泡", **kw: object):  # type: ignore[no-untyped-def]
    return parse_ballot(post(text, author, **kw), directors=DIRECTORS, names=NAMES)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "投票对象：饺子\n投票理由：饺子好吃",
    "投票对象:饺子\n投票理由:饺子好吃",
    "投票对象︰饺子\n投票理由︰饺子好吃",
    "投票对象﹕饺子\n投票理由﹕饺子好吃",
    "投票对象：饺子 投票理由：饺子好吃",           # 可以不换行
    "投票对象：饺子投票理由：饺子好吃",             # not even a blank
    "投票对象：　饺子\u3000\n投票理由：\n饺子好吃",  # full-width blanks; reason on the next line
    "投票对象：饺\u200b子\u200d \n投票理由：饺子好吃",  # zero-width characters inside and after the name
    "[b]投票对象：饺子[/b]\n[color=Red]投票理由：饺子好吃[/color]",  # wrappers that survived as text
    "投票 对象 ：饺子\n投票理由：饺子好吃",
    "\n\n投票对象：饺子   \n投票理由：饺子好吃\n\n",
])
def test_the_format_in_all_its_allowed_spellings(text: str) -> None:
    b = parse(text)
    assert b is not None and b.well_formed, b and b.errors
    assert b.target == "饺子" and b.kind == "vote" and not b.change
    assert b.reason_text == "饺子好吃"


def test_abstain_is_a_target_of_its_own() -> None:
    b = parse("投票对象：弃权\n投票理由：还没想好")
    assert b is not None and b.well_formed and b.abstain


def test_change_format_carries_the_quoted_pids() -> None:
    b = parse("改票对象：包子\n改票理由：包子也好吃", quotes=(9,))
    assert b is not None and b.well_formed and b.change and b.kind == "change"
    assert b.quoted_pids == (9,) and b.target == "包子"


def test_full_width_letters_are_the_same_name() -> None:
    b = parse("投票对象：Ａｌｉｃｅ\n投票理由：x")
    assert b is not None and b.target == "Alice"


@pytest.mark.parametrize("text,code", [
    ("我投饺子，理由是他发言最好", "missing_label"),
    ("投给包子吧", "missing_label"),
    ("我弃权", "missing_label"),
    ("投票：饺子\n理由：好吃", "bad_label"),
    ("对象：饺子", "bad_label"),
    ("投票对象 饺子\n投票理由 好吃", "bad_label"),
    ("投票理由：好吃\n投票对象：饺子", "reason_before_target"),
    ("投票对象：饺子\n投票对象：包子\n投票理由：都行", "multiple_targets"),
    ("投票对象：饺子、包子\n投票理由：都行", "multiple_targets"),
    ("投票对象：饺子", "missing_reason"),
    ("投票对象：饺子\n投票理由：", "missing_reason"),
    ("投票对象：\n投票理由：好吃", "missing_target"),
    ("投票理由：好吃", "missing_label"),
    ("投票对象：饺子\n改票理由：好吃", "label_mismatch"),
])
def test_attempts_that_break_the_format_are_ballots_with_a_verdict(text: str, code: str) -> None:
    b = parse(text)
    assert b is not None, "an attempt is never skipped"
    assert not b.well_formed
    assert b.errors[0].code.value == code, b.errors


@pytest.mark.parametrize("text", ["同意楼上", "顶", "泡泡的票型很怪，大家怎么看", "今天好热", ""])
def test_comments_are_not_ballots(text: str) -> None:
    assert parse(text) is None


def test_quoted_vote_with_a_comment_is_not_a_ballot() -> None:
    # Post.text has the quote removed; the quote is only in Post.quotes.
    assert parse("同意楼上", quotes=(9,)) is None


def test_director_proxy_vote() -> None:
    """"演员可以委托导演代投，代投时需给出明确的投票对象" — form: 代投：<player> then the normal lines."""
    b = parse("代投：包子\n投票对象：泡泡\n投票理由：出差", author="导演A")
    assert b is not None and b.well_formed
    assert (b.kind, b.voter, b.proxy_by, b.target) == ("proxy", "包子", "导演A", "泡泡")


def test_proxy_on_one_line() -> None:
    b = parse("代投:包子 投票对象:泡泡 投票理由:出差", author="导演A")
    assert b is not None and b.well_formed and b.voter == "包子" and b.target == "泡泡"


def test_proxy_by_a_player_is_refused() -> None:
    b = parse("代投：包子\n投票对象：泡泡\n投票理由：帮他投", author="花千树")
    assert b is not None and b.errors[0].code.value == "proxy_not_director"
    assert b.voter == "花千树"


def test_director_posts_without_proxy_are_not_ballots() -> None:
    opening = "第一日投票，格式：\n投票对象：XXX\n投票理由：XXX"
    assert parse(opening, author="导演A") is None


def test_parser_needs_no_names_for_labelled_ballots() -> None:
    b = parse_ballot(post("投票对象：谁都行\n投票理由：x"))
    assert b is not None and b.well_formed and b.target == "谁都行"


# ----------------------------------------------------------------------------- properties


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_parser_never_raises(text: str) -> None:
    parse(text)
    parse(text, author="导演A")
    parse("代投：" + text, author="导演A")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["投票", "改票", "对象", "理由", "：", ":", "︰", "\n", " ", "\u3000",
                                 "\u200b", "饺子", "弃权", "代投", "[b]", "[/b]", "[color=red]", "x", "投"]),
                max_size=30))
def test_parser_never_raises_on_label_soup(parts: list[str]) -> None:
    parse("".join(parts))
    parse("".join(parts), author="导演A")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_normalisation_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert name_key(name_key(text)) == name_key(text)


@given(st.sampled_from(NAMES), st.sampled_from(["", "\u200b", "\u3000", " ", "\ufeff"]))
def test_invisible_and_blank_characters_never_change_a_name(name: str, junk: str) -> None:
    assert name_key(junk + name[:1] + junk + name[1:] + junk) == name_key(name)
