"""One authority for a vote's result: the events ``confirm_vote`` records follow the tally's Outcome.

For each of the five rule posts and each vote it holds (day 1's elections, day 1's special exile,
an ordinary exile), synthetic ballots make unique tops, ties (who reached the top first both
ways), threshold misses and abstentions. The tally decides; the confirmation must record exactly
that — never a second opinion from the totals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta

import pytest
from vote_rights import can_vote

from tracker.clock import SHANGHAI
from tracker.config import PlayerConfig
from tracker.engine.ballots import Ballot
from tracker.engine.days import VoteResult, confirm_vote
from tracker.engine.events import EventKind
from tracker.engine.roster import example_assignment
from tracker.engine.ruleset import Election, Ruleset, load_ruleset
from tracker.engine.state import GameState, fold
from tracker.engine.tally import Tally, VoteWindow, election_window, roster_from_states, rules_for_vote, tally

RULESETS = ["dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"]
OPENS = datetime(2025, 3, 5, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 6, 22, 0, tzinfo=SHANGHAI)
TAKES = (EventKind.TAG_GIVEN, EventKind.ELIMINATED, EventKind.DIED)


def players(rs: Ruleset) -> list[PlayerConfig]:
    out = []
    for i, role in enumerate(example_assignment(rs), 1):
        r = rs.role(role)
        out.append(PlayerConfig(name=f"玩家{i:02d}", role=role, faction=r.faction if r else None))
    return out


def votes(rs: Ruleset) -> list[tuple[int, str, Election | None]]:
    """(day, purpose, election) for every kind of vote the rule post holds."""
    out: list[tuple[int, str, Election | None]] = [(1, e.purpose, e) for e in rs.voting.day1]
    out.append((2, "exile", None))
    return out


def ballot(i: int, voter: str, target: str) -> Ballot:
    return Ballot(pid=1000 + i, tid=9, floor=i + 2, author=voter, posted_at=OPENS + timedelta(minutes=10 * i),
                  voter=voter, kind="vote", change=False, target=target, reason_text="理由")


def scenarios(voters: Sequence[str], a: str, b: str) -> dict[str, list[tuple[str, str]]]:
    """Ballots in time order, as (voter, target)."""
    v = list(voters)
    return {
        "unique_top": [(v[0], a), (v[1], a), (v[2], a), (v[3], b), (v[4], b)],
        "tie_a_first": [(v[0], a), (v[1], b), (v[2], a), (v[3], b)],
        "tie_b_first": [(v[0], b), (v[1], a), (v[2], b), (v[3], a)],
        "few_votes": [(v[0], a), (v[1], a), (v[2], b)] + [(x, "弃权") for x in v[3:]],
        "all_abstain": [(x, "弃权") for x in v[:5]],
        "many_votes": [(x, a) for x in v[: len(v) * 2 // 3]] + [(x, b) for x in v[len(v) * 2 // 3:]],
    }


def count(rs: Ruleset, state: GameState, day: int, election: Election | None,
          pairs: Sequence[tuple[str, str]]) -> Tally:
    purpose, office = election_window(election)
    window = VoteWindow(day=day, opens=OPENS, closes=CLOSES, purpose=purpose, office=office)
    ballots = [ballot(i, voter, target) for i, (voter, target) in enumerate(pairs)]
    return tally(ballots, rules=rules_for_vote(rs.voting, election), roster=roster_from_states(state, state, day),
                 window=window)


def cases() -> list[tuple[str, int, str, str]]:
    out = []
    for rid in RULESETS:
        rs = load_ruleset(rid)
        for day, purpose, _ in votes(rs):
            for name in ("unique_top", "tie_a_first", "tie_b_first", "few_votes", "all_abstain", "many_votes"):
                out.append((rid, day, purpose, name))
    return out


def run_case(rid: str, day: int, purpose: str, scenario: str) -> tuple[Ruleset, list[PlayerConfig], Tally]:
    rs = load_ruleset(rid)
    roster = players(rs)
    state = fold(rs, roster, [])
    election = next(e for d, p, e in votes(rs) if (d, p) == (day, purpose))
    voters = [p.name for p in roster if can_vote(state, p.name, day, purpose)]
    assert len(voters) >= 5, voters
    # M65: 预知者 top-voted on day 1 is 天罡护体 — put them first among the targets
    immune = election.nobody_out_if_top if election is not None else None
    targets = [p.name for p in roster if p.role == immune] + [p.name for p in roster if p.role != immune]
    return rs, roster, count(rs, state, day, election, scenarios(voters, targets[0], targets[1])[scenario])


@pytest.mark.parametrize(("rid", "day", "purpose", "scenario"), cases())
def test_recorded_events_follow_the_tallys_outcome(rid: str, day: int, purpose: str, scenario: str) -> None:
    rs, roster, t = run_case(rid, day, purpose, scenario)
    o = t.outcome
    state = fold(rs, roster, [])
    conf = confirm_vote(rs, state, VoteResult.of(t, purpose), at=CLOSES, recorded_by="导演A")
    taken = [(d.kind, d.player) for d in conf.drafts if d.kind in TAKES]
    assert conf.explanation == o.message
    if o.kind == "elected":
        assert taken == [(EventKind.TAG_GIVEN, o.player)]
        assert next(d for d in conf.drafts if d.kind in TAKES).data["tag"] == o.office
    elif o.kind == "exiled":
        kind = EventKind.DIED if rs.voting.dead_last_vote else EventKind.ELIMINATED
        assert taken == [(kind, o.player)]
    else:
        assert taken == [] and o.player is None
    # and the state after recording is what the outcome says
    after = fold(rs, roster, [d.to_event(seq=i + 1) for i, d in enumerate(conf.drafts)])
    if o.kind == "exiled":
        assert o.player is not None
        assert after.players[o.player].life == ("dead" if rs.voting.dead_last_vote else "out")
    elif o.kind == "elected":
        assert o.player is not None and o.office is not None
        rule = rs.tag_rule(o.office)
        if rule is not None and after.players[o.player].role in rule.vanishes_for:
            # 107 神恩 "当神启者成为神眷者时，神眷者消失"
            assert o.office in after.gone_tags and after.holder(o.office) is None
        else:
            assert o.office in after.players[o.player].tags
    else:
        assert [n for n, p in after.players.items() if p.life != "alive"] == []


def test_the_cases_reach_every_kind_of_decision() -> None:
    """The synthetic ballots above are not all the easy case: each rule post's own branches occur."""
    seen: dict[str, Counter[str]] = {}
    for rid, day, purpose, scenario in cases():
        o = run_case(rid, day, purpose, scenario)[2].outcome
        seen.setdefault(rid, Counter())[f"{o.kind}:{o.reason}"] += 1
    assert "elected:first_to_top" in seen["luoluo-m19"]         # 竞岗：最先获得投票数最多的角色当选警长
    assert "elected:first_to_top" in seen["dnf-107"]            # 最先高票者当选神眷者
    assert "exiled:first_to_top" in seen["dnf-107"]
    assert "nobody:tie" in seen["sanguo-213"] and "elected:top_votes" in seen["sanguo-213"]
    assert "nobody:threshold" in seen["gourmet-m160"] and "exiled:top_votes" in seen["gourmet-m160"]
    assert "nobody:day1_immunity" in seen["accel-m65"] and "exiled:top_votes" in seen["accel-m65"]
    assert all("nobody:no_votes" in kinds for kinds in seen.values())


def test_confirm_refuses_an_outcome_that_does_not_fit_the_vote() -> None:
    from tracker.errors import GameRuleError

    rs = load_ruleset("sanguo-213")
    roster = players(rs)
    state = fold(rs, roster, [])
    election = rs.voting.day1[0]
    voters = [p.name for p in roster][:5]
    t = count(rs, state, 1, election, scenarios(voters, voters[0], voters[1])["unique_top"])
    assert t.outcome.kind == "elected"
    with pytest.raises(GameRuleError):
        confirm_vote(rs, state, VoteResult.of(t, "exile"), at=CLOSES, recorded_by="导演A")
