"""``block`` by skill kind (``kinds``) and a block whose voided submissions still count as used (``spends``), on a
toy night the generic engine settles alone.

107 牵制: "所有民兵共同选择一名角色，该角色当晚发动的非团队的<普通>和<限定>技能无效" — what is void is said by kind, not by
name (a team's skill, and a 强制 one, still act); "发动的……无效": a 限定 skill so voided is spent, and a cooldown
counts from that night.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

RESTRAIN = "牵制 —— 该角色当晚发动的非团队的<普通>和<限定>技能无效"


def night(spends: bool = True, kinds: tuple[str, ...] = ("普通", "限定")) -> dict[str, Any]:
    block: dict[str, Any] = {"kind": "block", "kinds": list(kinds),
                             "refuses": "{target}被<牵制>（{actor}），当晚非团队的<普通>和<限定>技能无效"}
    if spends:
        block["spends"] = True
    return {
        "ruleset": "kinds-toy",
        "steps": [{"n": "1", "skills": ["牵制"]}, {"n": "2", "skills": ["突击", "斩", "啃咬", "查验"]}],
        "skills": [
            {"name": "牵制", "roles": ["民兵"], "team": "民兵", "kind": "团队", "targets": 1, "clause": RESTRAIN,
             "effects": [block]},
            {"name": "突击", "roles": ["剑士"], "kind": "限定", "targets": 1, "uses": "突击",
             "effects": [{"kind": "kill", "cause": "突击"}]},
            {"name": "斩", "roles": ["剑士"], "kind": "普通", "targets": 1, "cooldown": 2, "cooldown_key": "斩上次",
             "effects": [{"kind": "kill", "cause": "斩"}]},
            {"name": "啃咬", "roles": ["剑士", "活尸"], "team": "活尸", "kind": "团队", "targets": 1,
             "effects": [{"kind": "kill", "cause": "啃咬"}]},
            {"name": "查验", "roles": ["剑士"], "kind": "锁定", "targets": 1,
             "effects": [{"kind": "inspect", "text": "查验：{target} {answer}"}]},
        ],
    }


def run(n: dict[str, Any], *rows: tuple[str, str, str]) -> Settlement:
    table = Table(players={"P1": Seat("P1", "民兵", "村庄"), "P2": Seat("P2", "民兵", "村庄"),
                          "P3": Seat("P3", "剑士", "村庄", uses={"突击": 1}), "P4": Seat("P4", "村民", "村庄"),
                          "P5": Seat("P5", "村民", "村庄")}, state={}, night=2)
    return settle(parse_catalog(n, "toy.toml"), table, [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(rows)])


def test_a_block_by_kind_voids_ordinary_and_limited_skills_but_not_a_teams_or_a_locked_one() -> None:
    res = run(night(), ("P1+P2", "牵制", "P3"), ("P3", "突击", "P4"), ("P3", "斩", "P5"), ("P3", "啃咬", "P5"),
              ("P3", "查验", "P1"))
    assert [(r.actor, r.skill, r.reason, r.clause) for r in res.rejected] == [
        ("P3", "突击", "P3被<牵制>（P1+P2），当晚非团队的<普通>和<限定>技能无效", RESTRAIN),
        ("P3", "斩", "P3被<牵制>（P1+P2），当晚非团队的<普通>和<限定>技能无效", RESTRAIN)]
    assert [d.player for d in res.deaths] == ["P5"] and res.deaths[0].cause == "啃咬"  # the team's skill acts
    assert [f.content for f in res.feedback if f.to == "P3"] == ["查验：P1 村庄"]  # 锁定: not a kind it names


def test_spends_counts_the_voided_use_and_starts_the_cooldown() -> None:
    res = run(night(), ("P1+P2", "牵制", "P3"), ("P3", "突击", "P4"), ("P3", "斩", "P5"))
    assert res.state_after["P3.突击"] == 0 and res.state_after["斩上次"] == {"target": "P5", "night": 2}
    kept = run(night(spends=False), ("P1+P2", "牵制", "P3"), ("P3", "突击", "P4"), ("P3", "斩", "P5"))
    assert "P3.突击" not in kept.state_after and "斩上次" not in kept.state_after
    assert len(kept.rejected) == 2


def test_without_kinds_nothing_is_blocked_and_others_are_untouched() -> None:
    res = run(night(kinds=()), ("P1+P2", "牵制", "P3"), ("P3", "突击", "P4"))
    assert res.rejected == [] and [d.player for d in res.deaths] == ["P4"]
    res = run(night(), ("P1+P2", "牵制", "P5"), ("P3", "突击", "P4"))
    assert res.rejected == [] and [d.player for d in res.deaths] == ["P4"]
