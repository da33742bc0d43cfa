"""Parsed-ballot memo, the cheap non-ballot skip and the tally scope: faster, never a different answer."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tui_demo import FROZEN_AT, open_demo

import tracker.service.votes as votes_mod
from tracker.cli.json_docs import tally_to_json
from tracker.engine.ballots import cannot_be_ballot, parse_ballot
from tracker.records import Post
from tracker.service import Service
from tracker.store.posts import posts_for_thread, upsert_posts


def _demo(where: Path, *, memo: int | None = None) -> Service:
    where.mkdir()
    svc = open_demo(where)
    if memo is not None:
        svc.votes.ballot_memo_size = memo
    return svc


def _answers(svc: Service) -> str:
    days = [d.day for d in svc.game.days if d.vote]
    out: dict[str, Any] = {
        "tally": {d: [tally_to_json(dt) for dt in svc.votes.tally_day(d)] for d in days},
        "lurk": {d: svc.lurking.lurkers(d).to_json() for d in days},
    }
    return json.dumps(out, ensure_ascii=False, sort_keys=True, default=str)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """pids handed to parse_ballot by the service."""
    seen: list[int] = []

    def counting(post: Post, **kw: Any) -> Any:
        seen.append(post.pid)
        return parse_ballot(post, **kw)

    monkeypatch.setattr(votes_mod, "parse_ballot", counting)
    return seen


def test_same_answers_with_and_without_memo(tmp_path: Path, parses: list[int]) -> None:
    plain = _demo(tmp_path / "plain", memo=0)
    memo = _demo(tmp_path / "memo")
    expected = _answers(plain)
    assert '"ballots": [{' in expected  # the demo days do have ballots to compare
    assert _answers(memo) == expected
    parses.clear()
    assert _answers(memo) == expected  # answered from the memo ...
    assert parses == []  # ... without parsing any post again


def test_memo_bounded_still_same(tmp_path: Path) -> None:
    plain = _demo(tmp_path / "plain", memo=0)
    tiny = _demo(tmp_path / "tiny")
    tiny.votes.ballot_memo_size = 3  # evicts all the time
    assert _answers(tiny) == _answers(plain)
    assert tiny.votes._ballot_memo is not None and len(tiny.votes._ballot_memo[1]) <= 3


def _edit_a_ballot(svc: Service) -> tuple[int, str]:
    dt = svc.votes.tally_day(2)[0]
    cb = dt.tally.ballots[0]
    other = next(n for n in svc.game.player_names if n not in (cb.target, cb.voter))
    with svc.store.session() as s:
        sp = next(p for p in posts_for_thread(s, dt.tid) if p.pid == cb.ballot.pid)
        edited = replace(sp.to_post(), text=f"投票对象：{other}\n投票理由：想了想还是投{other}", source="desktop",
                         edited_at=sp.posted_at + timedelta(minutes=1), edited_by=sp.author)
        upsert_posts(s, [edited], seen_at=FROZEN_AT + timedelta(minutes=1))
    return cb.ballot.pid, other


def test_edited_post_is_parsed_again(tmp_path: Path, parses: list[int]) -> None:
    memo = _demo(tmp_path / "memo")
    before = _answers(memo)
    pid, other = _edit_a_ballot(memo)
    parses.clear()
    after = _answers(memo)
    assert parses == [pid]  # only the edited post (new content_key) is read again
    assert after != before
    ballot = next(b for b in json.loads(after)["tally"]["2"][0]["ballots"] if b["pid"] == pid)
    # the demo game is M19: "修改错别字不算做改票" — an edit to another target is read (and shown to
    # the director) but not counted
    assert ballot["target"] != other and any(other in f for f in ballot["flags"])

    plain = _demo(tmp_path / "plain", memo=0)
    _edit_a_ballot(plain)
    assert _answers(plain) == after


def test_lurkers_counts_each_vote_once(tmp_path: Path, parses: list[int]) -> None:
    """Day 2's 潜水 needs day 1's tally and day 2's (whose provisional election is day 1's count again):
    inside one lurkers() call each vote thread is counted once, even with the memo off."""
    svc = _demo(tmp_path / "g", memo=0)
    last = max(d.day for d in svc.game.days if d.vote)
    svc.lurking.lurkers(last)
    assert len(parses) == len(set(parses))
    parses.clear()
    svc.lurking.lurkers(last)  # a new call reads the store afresh
    assert parses


def test_skip_is_sound_on_the_demo_posts(tmp_path: Path) -> None:
    svc = _demo(tmp_path / "g")
    names, directors = svc.game.player_names, svc.game.directors
    skipped = 0
    with svc.store.session() as s:
        for d in svc.game.days:
            for tid in [*d.vote, *([d.discussion] if d.discussion else [])]:
                for sp in posts_for_thread(s, tid):
                    if cannot_be_ballot(sp.text):
                        skipped += 1
                        assert parse_ballot(sp.to_post(), directors=directors, names=names) is None
    assert skipped > 0


@pytest.mark.parametrize("text", [
    "\uf9e4由：饺子",  # a compatibility 理 (U+F9E4): the near-label 理由
    "⽬标：饺子",  # Kangxi radical ⽬ is 目 after NFKC: a near-label attempt
    "我⽀持饺子 投\u200b给包子",
    "弃\u200b权",
    "［b］投［/b］票对象：饺子",
    "改票對象：饺子",
    "代投：饺子",
    "選饺子",
])
def test_skip_never_drops_an_attempt(text: str) -> None:
    b = parse_ballot(Post(pid=1, tid=1, floor=2, author="包子", uid=None, posted_at=FROZEN_AT, html="", text=text),
                     names=["饺子", "包子"])
    if b is not None:
        assert not cannot_be_ballot(text)


_ALPHABET = st.sampled_from([*"投票选象像目理弃代改对标由权我给向饺子包子：:，, \n\u200b\u3000[]b/",
                             # compatibility forms NFKC turns into ballot characters (⽬ -> 目, 理 -> 理)
                             "⽬", "\uf9e4", "⽀", "\u2f00", "ｂ", "［", "］", "投票对象：", "弃权", "投票理由："])


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=14).map("".join), st.booleans())
def test_skip_is_sound(text: str, director: bool) -> None:
    post = Post(pid=1, tid=1, floor=2, author="导演" if director else "包子", uid=None, posted_at=FROZEN_AT,
                html="", text=text)
    if cannot_be_ballot(text):
        assert parse_ballot(post, directors=["导演"], names=["饺子", "包子"]) is None
