"""The night file's ``red_card_skill`` settles every card: each 红牌 is the director's own decision.

A data skill keeps only a player's (or team's) last submission ("以最后一条私信为准"); for the director's
red cards that rule would let a second card the same day replace the first, so the player sent off first
stayed in the game (werewolf-12 and M65 did so). A ``red_card_skill`` settled from data must therefore set
``every_submission``, else the night file is refused when it loads.
"""

from __future__ import annotations

import pytest

from tracker.engine.night.catalog import parse_catalog
from tracker.errors import RulesetError

RED = {"name": "红牌罚下", "team": "导演", "phase": "passive", "targets": 1, "effects": [{"kind": "kill"}]}


def night(red: dict[str, object]) -> dict[str, object]:
    return {"ruleset": "red-toy", "red_card_skill": "红牌罚下", "skills": [
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]}, red]}


def test_a_red_card_skill_that_keeps_only_the_last_card_is_refused() -> None:
    with pytest.raises(RulesetError, match="红牌罚下须每一张都结算") as err:
        parse_catalog(night(RED), "toy.toml")
    assert "every_submission = true" in str(err.value)


def test_a_red_card_skill_that_settles_every_card_loads() -> None:
    cat = parse_catalog(night({**RED, "every_submission": True}), "toy.toml")
    assert cat.red_card_skill == "红牌罚下" and cat.skill("红牌罚下").every_submission


def test_a_hooked_red_card_skill_is_the_hooks_to_settle() -> None:
    """No effects: a game's hook settles it (213, M19) and says how it treats a second card."""
    cat = parse_catalog(night({k: v for k, v in RED.items() if k != "effects"}), "toy.toml")
    assert cat.skill("红牌罚下").effects == ()
