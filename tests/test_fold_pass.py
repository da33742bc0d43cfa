"""A pass over the log answers every state exactly as a fold of the same events would.

The service folds each request's log once (``tracker.engine.fold_pass.FoldPass``) and takes every
state it needs from that pass: cuts in time (a day's opening: strictly before; its close: at or
before), the log plus a provisional election, the log minus a day's confirmation. Random logs with
batches of simultaneous events, undos (also of undos, and undos after the cut of what precedes it),
events that cannot be applied, and day events, under a ruleset that checks wins per batch and one
that checks per event: the pass's state must equal the fold's, field by field.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from engine_log import START, roster
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.engine.events import Event, make_draft
from tracker.engine.fold_pass import FoldPass
from tracker.engine.ruleset import load_ruleset
from tracker.engine.state import GameState, fold

GAMES = {
    "luoluo-m19": roster([("甲", "公狼"), ("乙", "老狼"), ("丙", "幼狼"), ("丁", "绑匪"), ("戊", "预言家"),
                          ("己", "女巫"), ("庚", "医生"), ("辛", "人质"), ("壬", "村民"), ("癸", "村民")]),
    "gourmet-m160": roster([("甲", "护士长"), ("乙", "心理学家"), ("丙", "阴谋论者"), ("丁", "化梦师"),
                            ("戊", "告死天使"), ("己", "狂煞"), ("庚", "丑角")]),
}
KINDS = ["eliminated", "died", "benched", "unbenched", "revived", "tag_given", "card_consequence", "undo",
         "accelerated", "delayed", "eliminated_unknown"]


def _log(rnd: random.Random, names: list[str]) -> list[Event]:
    events: list[Event] = []
    for seq in range(1, rnd.randint(0, 25) + 1):
        at = START + timedelta(hours=rnd.randint(0, 8))  # few distinct times: batches, and out of seq order
        kind = rnd.choice(KINDS)
        player: str | None = rnd.choice(names)
        data: dict[str, object] = {}
        if kind == "tag_given":
            data = {"tag": "警长"}
        elif kind == "card_consequence":
            data = {"color": "red"}
        elif kind in ("accelerated", "delayed"):
            player, data = None, {"day": rnd.randint(1, 2)}
        elif kind == "eliminated_unknown":  # cannot be applied: a warning, the batch's check skipped
            kind, player = "eliminated", "无名氏"
        elif kind == "undo":
            if not events:
                continue
            player, data = None, {"seq": rnd.choice(events).seq}
            at = max(at, START + timedelta(hours=rnd.randint(0, 10)))
        events.append(make_draft(kind, at=at, player=player, data=data, recorded_by="导演A").to_event(seq=seq))
    return events


def _variants(rnd: random.Random, log: list[Event], names: list[str]) -> list[list[Event]]:
    times = sorted({e.at for e in log} | {START - timedelta(hours=1), START + timedelta(hours=20)})
    out = [log, []]
    for t in times:
        out.append([e for e in log if e.at < t])    # a day's opening
        out.append([e for e in log if e.at <= t])   # its close
    at = rnd.choice(times) + timedelta(seconds=rnd.choice([0, 1]))  # 1 s after a close, or within a batch
    kind, data = rnd.choice([("tag_given", {"tag": "警长", "provisional": True}), ("died", {}), ("eliminated", {})])
    extra = make_draft(kind, at=at, player=rnd.choice(names), data=data, recorded_by="tracker").to_event(seq=10**9)
    out.append([*log, extra])                                           # a provisional election, or more
    out.append([e for e in log if rnd.random() < 0.7])                # the log without a few
    return out


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(GAMES)))
def test_the_pass_gives_the_folds_state_for_every_set_of_events(seed: int, rid: str) -> None:
    rnd = random.Random(seed)
    rs, players = load_ruleset(rid), GAMES[rid]
    names = [p.name for p in players]
    log = _log(rnd, names)
    rnd.shuffle(log)  # the pass, like the fold, must not depend on the list's order
    p = FoldPass(rs, players, log)
    for events in _variants(rnd, log, names):
        got, want = p.state(events), fold(rs, players, events)
        assert _fields(got) == _fields(want)


def _fields(s: GameState) -> tuple[object, ...]:
    return (s.players, s.days, dict(s.lost), s.outcome, s.declared, s.actions, s.gone_tags, s.applied, s.undone,
            s.seqs, s.warnings, dict(s.faction_reds), s.modifiers(), s._vote_rights)


def test_a_state_from_the_pass_replays_only_what_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cut of the log is a mark: nothing replayed. The log plus one event replays from its time."""
    rs, players = load_ruleset("luoluo-m19"), GAMES["luoluo-m19"]
    log = [make_draft("eliminated", at=START + timedelta(hours=i), player=players[i].name, data={},
                      recorded_by="导演A").to_event(seq=i + 1) for i in range(6)]
    extra = make_draft("tag_given", at=START + timedelta(hours=4, seconds=1), player=players[0].name,
                       data={"tag": "警长"}, recorded_by="tracker").to_event(seq=10**9)
    cut, plus = fold(rs, players, log[:3]), fold(rs, players, [*log, extra])
    p = FoldPass(rs, players, log)
    applied: list[int] = []
    real = type(p._fold).apply

    def counting(self: Any, e: Event) -> None:
        applied.append(e.seq)
        real(self, e)

    monkeypatch.setattr(type(p._fold), "apply", counting)
    assert p.state([e for e in log if e.at < START + timedelta(hours=3)]) == cut
    assert applied == []
    assert p.state([*log, extra]) == plus
    assert applied == [10**9, 6]


def test_an_event_added_within_a_batch_is_checked_with_it() -> None:
    """M160 checks a win once per batch of simultaneous events: with an event added at the time of
    the demon's exile, the win is decided at the added event (its seq), not at the exile, so the
    pass may not resume from the mark it took after the exile's batch."""
    rs, players = load_ruleset("gourmet-m160"), GAMES["gourmet-m160"]
    exile = make_draft("eliminated", at=START, player="己", data={}, recorded_by="导演A").to_event(seq=1)
    added = make_draft("tag_given", at=START, player="甲", data={"tag": "警长"}, recorded_by="tracker").to_event(seq=10**9)
    p = FoldPass(rs, players, [exile])
    got, want = p.state([exile, added]), fold(rs, players, [exile, added])
    assert want.outcome is not None and want.outcome.seq == 10**9
    assert got == want
