"""``never_believed_by`` on a toy game: a rule of the deal a skill states — players of some roles never believe they
hold its roles (M160 觉醒 "你不可能是恶魔": a 恶魔, who believes he is a 村民 by 【附体】, never believes he is a
护士长) — checked before anything is settled: such a table is refused with the clause, exit 2. M160's own case is
test_awakening_no_demon_believes_he_is_a_nurse in test_night_gourmet_m160.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import ConfigError, RulesetError

CLAUSE = "【觉醒】：你不可能是恶魔。"


def night(never: list[str] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "deal-toy",
        "steps": [{"n": "1", "skills": ["查"]}],
        "skills": [
            {"name": "觉醒", "roles": ["护士"], "phase": "passive", "kind": "被动", "clause": CLAUSE,
             "never_believed_by": ["魔"] if never is None else never},
            {"name": "查", "roles": ["护士", "村民"], "targets": 1,
             "effects": [{"kind": "inspect", "text": "{target}：{answer}"}]},
            {"name": "附体", "roles": ["魔"], "phase": "passive", "kind": "被动"},
        ],
    }


def table(believes: str) -> Table:
    return Table(players={"P1": Seat("P1", "魔", "邪", fields={"believes": believes}), "P2": Seat("P2", "护士", "善")},
                 state={}, night=1)


def test_a_table_the_deal_forbids_is_refused_before_anything_is_settled() -> None:
    cat = parse_catalog(night(), "toy.toml")
    with pytest.raises(ConfigError, match="P1是魔，不能认为自己是护士") as err:
        settle(cat, table("护士"), [Action("P2", "查", ("P1",))])
    assert CLAUSE in err.value.message and err.value.exit_code == 2
    ok = settle(cat, table("村民"), [Action("P1", "查", ("P2",))])  # a belief the rule allows: settled as ever
    assert [f.content for f in ok.feedback] == ["P2：善"]


def test_never_believed_by_counts_as_data_and_names_roles_of_the_file() -> None:
    assert "觉醒" in coverage(parse_catalog(night(), "t"), None).by_data
    with pytest.raises(RulesetError, match="本文件的技能没有身份“鬼”"):
        parse_catalog(night(never=["鬼"]), "t")
