"""A skill the day's tally settles is data: the night file's ``tally`` names the ``[voting]`` key.

带队 "计算投票数量时警长投出的票计为1.5票" (213, M19), 107's 首领技能 and M19's 竞岗 are settled by the
day's count, never at night. ``tally = "weights"`` says so; where the night meets its ruleset the key
must be set there (a ``tally`` whose key the ruleset leaves at its default is a ruleset error, with the
key and line when the night is inline), a submission of the skill is refused, and the coverage counts
it as settled from data, with that reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_ruleset_format import MINIMAL

from tracker.cli import main
from tracker.engine.night import settle
from tracker.engine.night.catalog import NIGHT_DIR, catalog_of, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Table
from tracker.engine.ruleset import load_ruleset
from tracker.engine.ruleset_schema import VotingRules, WeightRule
from tracker.errors import RulesetError

LEAD = {"name": "带队", "roles": ["村民", "狼人"], "phase": "passive", "kind": "强制", "tally": "weights",
        "clause": "带队<强制> ——计算投票数量时警长投出的票计为1.5票。"}
NIGHT = {"ruleset": "tally-toy", "skills": [
    {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
    LEAD]}
WEIGHTED = VotingRules(weights=(WeightRule(weight=1.5, tag="警长"),))


def test_a_tallied_skill_counts_as_data_with_its_voting_key() -> None:
    cov = coverage(parse_catalog(NIGHT, "toy.toml", voting=WEIGHTED), None)
    assert cov.by_data == ("杀人", "带队") and cov.unsettled == ()
    assert cov.tallied == {"带队": "白天的计票结算（[voting] weights）"}


def test_without_tally_the_same_skill_is_unsettled() -> None:
    plain = {**NIGHT, "skills": [NIGHT["skills"][0], {k: v for k, v in LEAD.items() if k != "tally"}]}
    cov = coverage(parse_catalog(plain, "toy.toml"), None)
    assert cov.unsettled == ("带队",) and cov.tallied == {}


def test_a_tally_key_the_ruleset_leaves_unset_is_a_ruleset_error() -> None:
    with pytest.raises(RulesetError, match=r"skills\[2\]\.tally.*带队.*weights"):
        parse_catalog(NIGHT, "toy.toml", voting=VotingRules())
    bonus = {**NIGHT, "skills": [NIGHT["skills"][0], {**LEAD, "tally": "per_dead_bonus"}]}
    with pytest.raises(RulesetError, match="per_dead_bonus"):
        parse_catalog(bonus, "toy.toml", voting=WEIGHTED)


def test_a_tally_that_names_no_voting_key_is_refused_with_the_nearest() -> None:
    typo = {**NIGHT, "skills": [NIGHT["skills"][0], {**LEAD, "tally": "weight"}]}
    with pytest.raises(RulesetError, match="是不是想写 `weights`"):
        parse_catalog(typo, "toy.toml")


def test_a_submission_of_a_tallied_skill_is_refused() -> None:
    cat = parse_catalog({**NIGHT, "steps": [{"n": "1", "skills": ["杀人"]}, {"n": "2", "resolve": True}]},
                        "toy.toml", voting=WEIGHTED)
    table = Table(players={"P01": Seat("P01", "村民", "村民"), "P02": Seat("P02", "狼人", "狼人")}, state={}, night=1)
    res = settle(cat, table, [Action("P01", "带队", index=0)])
    assert [(r.actor, r.skill, r.reason) for r in res.rejected] == [
        ("P01", "带队", "<带队>由白天的计票结算（[voting] weights），无需提交")]


INLINE_RULESET = MINIMAL  # the smallest ruleset the format accepts, shared with test_ruleset_format
WEIGHTS = '''
[[voting.weights]]
tag = "警长"
weight = 1.5
'''
INLINE_NIGHT = '''
[night]
[[night.skills]]
name = "带队"
roles = ["村民", "狼人"]
phase = "passive"
tally = "weights"
clause = "带队<强制> ——计算投票数量时警长投出的票计为1.5票。"
'''


def test_an_inline_night_is_checked_against_its_own_voting_with_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "sixth.toml"
    path.write_text(INLINE_RULESET + INLINE_NIGHT, encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(path))
    line = (INLINE_RULESET + INLINE_NIGHT).splitlines().index('tally = "weights"') + 1
    assert "night.skills[1].tally" in str(e.value) and f"第 {line} 行" in str(e.value)
    path.write_text(INLINE_RULESET + WEIGHTS + INLINE_NIGHT, encoding="utf-8")
    assert catalog_of(load_ruleset(str(path))).skill("带队").tally == "weights"


def test_a_night_file_a_ruleset_names_is_checked_against_that_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    night = 'ruleset = "sixth"\n' + INLINE_NIGHT.replace("[night]\n", "").replace("night.skills", "skills")
    (tmp_path / "sixth-night.toml").write_text(night, encoding="utf-8")
    ruleset = tmp_path / "sixth.toml"
    ruleset.write_text(INLINE_RULESET.replace("players = 3", 'players = 3\nnight = "sixth-night.toml"'),
                       encoding="utf-8")
    with pytest.raises(RulesetError, match=r"sixth-night\.toml.*带队.*weights"):
        catalog_of(load_ruleset(str(ruleset)))
    assert main(["ruleset", "check", str(ruleset), "--json"]) == 2
    assert any("weights" in p["message"] for p in json.loads(capsys.readouterr().out)["problems"])


@pytest.mark.parametrize("rid", sorted(p.stem for p in NIGHT_DIR.glob("*.toml")))
def test_every_bundled_tally_key_is_set_in_its_ruleset(rid: str) -> None:
    cat = catalog_of(load_ruleset(rid))
    for skill in cat.skills.values():
        if skill.tally is not None:
            assert getattr(load_ruleset(rid).voting, skill.tally)


def test_213_lead_is_the_tallys_weight_of_the_sheriff() -> None:
    """213 带队: "警长投出的票计为1.5票" — the ruleset's [[voting.weights]] tag 警长, 1.5."""
    rs = load_ruleset("sanguo-213")
    assert catalog_of(rs).skill("带队").tally == "weights"
    assert [(w.tag, w.weight) for w in rs.voting.weights] == [("警长", 1.5)]
