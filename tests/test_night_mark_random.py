"""A tag given to a living player the director picks at random, on a toy game: mark ``at_random`` (107 馈赠<强制>
"若[亡灵圣物]的持有者出局，导演将随机一名角色，该角色获得[亡灵圣物]"), set off by the tag's own exit trigger — which acts
only while the player out still bears the tag when its step comes (107 权术 takes the relic first). 107's own cases:
test_gift_passes_the_relic_of_a_fallen_holder_at_random, test_intrigue_* in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import EffectT

NIGHT: dict[str, Any] = {
    "ruleset": "mark-random-toy",
    "steps": [{"n": "1", "skills": ["刀", "夺宝"]}, {"n": "2"}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        # hands the gem, whoever bears it, to its target before step 2 (权术-like: at step 1, after the knife)
        {"name": "夺宝", "roles": ["盗贼"], "targets": 1, "effects": [{"kind": "mark", "tag": "宝石", "act": "give"}]},
        {"name": "遗宝", "tag": "宝石", "phase": "passive",
         "trigger": {"forced": True, "at": ["2"]},
         "effects": [{"kind": "mark", "tag": "宝石", "act": "give", "at_random": "遗宝：{actor}出局，随机一名角色获得宝石",
                      "text": "遗宝：你获得了宝石"}]},
    ],
}


def run(*acts: Action, decisions: dict[str, str] | None = None) -> Settlement:
    players = {"P1": Seat("P1", "村民", "人", tags=["宝石"]), "P2": Seat("P2", "刀客", "人"),
               "P3": Seat("P3", "盗贼", "人"), "P4": Seat("P4", "村民", "人")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1),
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)], decisions=decisions)


def test_the_director_picks_the_new_bearer_among_the_living() -> None:
    res = run(Action("P2", "刀", ("P1",)), decisions={"遗宝": "P4"})
    q = next(q for q in res.questions if q.key == "遗宝")
    assert q.options == ("P2", "P3", "P4") and q.question == "遗宝：P1出局，随机一名角色获得宝石"
    assert [(m.from_player, m.to_player, m.via) for m in res.tags_moved] == [("P1", "P4", "遗宝")]
    assert [f.content for f in res.feedback if f.to == "P4"] == ["遗宝：你获得了宝石"]
    seeded = run(Action("P2", "刀", ("P1",)))
    assert next(q for q in seeded.questions if q.key == "遗宝").by == "seed"


def test_a_bearer_the_tag_has_left_sets_nothing_off() -> None:
    res = run(Action("P2", "刀", ("P1",)), Action("P3", "夺宝", ("P4",)))
    assert [(m.from_player, m.to_player) for m in res.tags_moved] == [("P1", "P4")]
    assert not res.questions and any("P1已不持有[宝石]，<遗宝>不发动" in line for line in res.log)


def test_at_random_is_a_give() -> None:
    with pytest.raises(ValidationError, match="at_random"):
        EffectT.model_validate({"kind": "mark", "tag": "宝石", "act": "take", "at_random": "？"})
