"""An ``extra`` effect held while enough players of some roles live: ``while_alive`` (one notion of "more uses"
with M19 激励's ``extra``, which the engine counts in the same places: ``per_phase`` and the kept submissions).

107 集群<强制> "当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>": nobody submits 集群; the team's second
<啃咬> takes effect only while three 活尸 live. A toy game settled by the generic engine alone; 107's own case is
test_night_dnf_107.py's bite_once_and_twice_with_three_walking_dead.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

SWARM = {"name": "集群", "roles": ["活尸"], "phase": "passive", "kind": "强制",
         "clause": "集群<强制>：当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>。",
         "effects": [{"kind": "extra", "again": "啃咬", "while_alive": {"roles": ["活尸"], "at_least": 3}}]}
NIGHT: dict[str, Any] = {
    "ruleset": "swarm-toy",
    "steps": [{"n": "1", "skills": ["啃咬"]}, {"n": "2", "resolve": True}],
    "skills": [
        {"name": "啃咬", "team": "活尸", "roles": ["活尸"], "kind": "团队", "targets": 1, "per_phase": 1,
         "every_submission": True, "effects": [{"kind": "damage"}]},
        SWARM,
    ],
}


def _run(*actions: Action, walking: int = 3, night: dict[str, Any] | None = None) -> Settlement:
    players = {f"P0{i}": Seat(f"P0{i}", "活尸" if i <= walking else "村民", "亡灵" if i <= walking else "村民")
               for i in range(1, 8)}
    table = Table(players=players, state={}, night=2)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(night or NIGHT, "toy.toml"), table, acts)


def _bites(*targets: str) -> list[Action]:
    return [Action("P01+P02", "啃咬", (t,)) for t in targets]


def test_three_living_allow_one_more() -> None:
    res = _run(*_bites("P05", "P06", "P07"))
    assert [d.player for d in res.deaths] == ["P05", "P06"]
    assert [(r.targets, r.reason, r.clause) for r in res.rejected] == [
        (("P07",), "<啃咬>每晚仅限发动两次（<集群>：存活的活尸3名，不少于3名）", SWARM["clause"])]


def test_fewer_living_keep_the_limit() -> None:
    res = _run(*_bites("P05", "P06"), walking=2)
    assert [d.player for d in res.deaths] == ["P05"]
    assert [r.reason for r in res.rejected] == ["<啃咬>每晚仅限发动一次（<集群>：存活的活尸2名，少于3名）"]


def test_nobody_submits_it() -> None:
    res = _run(Action("P01", "集群"))
    assert [(r.skill, r.reason) for r in res.rejected] == [("集群", "<集群>无需发动：技能效果自动结算")]


def test_without_a_limit_one_more_submission_counts() -> None:
    """The same notion as 激励: with no ``per_phase``, the team's last two submissions count, not its last one."""
    bite = {**NIGHT["skills"][0]}
    del bite["per_phase"], bite["every_submission"]
    toy = {**NIGHT, "skills": [bite, SWARM]}
    assert [d.player for d in _run(*_bites("P05", "P06", "P07"), night=toy).deaths] == ["P06", "P07"]
    assert [d.player for d in _run(*_bites("P05", "P06", "P07"), walking=2, night=toy).deaths] == ["P07"]


def test_it_names_a_skill_of_the_file() -> None:
    swarm = {**SWARM, "effects": [{"kind": "extra", "again": "啃要", "while_alive": {"roles": ["活尸"], "at_least": 3}}]}
    with pytest.raises(RulesetError, match="啃要"):
        parse_catalog({**NIGHT, "skills": [NIGHT["skills"][0], swarm]}, "toy.toml")


@pytest.mark.parametrize("keys", [{}, {"state": "集群", "while_alive": {"roles": ["活尸"], "at_least": 3}},
                                  {"while_alive": {"roles": ["活尸"], "at_least": 3}, "text": "{night}"}])
def test_state_or_while_alive_and_nothing_to_tell(keys: dict[str, Any]) -> None:
    swarm = {**SWARM, "effects": [{"kind": "extra", "again": "啃咬", **keys}]}
    with pytest.raises(RulesetError, match="extra"):
        parse_catalog({**NIGHT, "skills": [NIGHT["skills"][0], swarm]}, "toy.toml")
