"""The five bundled rulesets load, say what their rule posts say, and bad files are explained."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracker.engine.ruleset import list_rulesets, load_ruleset
from tracker.errors import RulesetError

IDS = ["dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"]


def test_all_bundled() -> None:
    """The five seed posts and the sixth game, werewolf-12, which is data alone."""
    assert sorted(r.id for r in list_rulesets()) == sorted([*IDS, "werewolf-12"])


@pytest.mark.parametrize("rid", [*IDS, "werewolf-12"])
def test_each_loads_with_roles_matching_players(rid: str) -> None:
    rs = load_ruleset(rid)
    assert rs.id == rid
    assert rs.source and rs.name
    lo = sum(r.count for r in rs.roles)
    hi = sum(r.upper for r in rs.roles)
    assert lo <= rs.players <= hi
    assert {r.faction for r in rs.roles} <= set(rs.faction_names)
    assert rs.win, "every game has win/lose rules"


def test_voting_differences_from_the_posts() -> None:
    r107, r213, m19, m160, m65 = (load_ruleset(i) for i in IDS)
    # change limits: 107/M160 unlimited, 213/M19/M65 once
    assert [r.voting.change_limit for r in (r107, r213, m19, m160, m65)] == [None, 1, 1, None, 1]
    assert [r.voting.freeze_minutes for r in (r107, r213, m19, m160, m65)] == [0, 60, 60, 0, 60]
    assert r213.voting.freeze_blocks_proxy and m65.voting.freeze_blocks_proxy and not m19.voting.freeze_blocks_proxy
    assert m65.voting.proxy_deadline_minutes == 30
    assert m19.voting.accelerated_changes == "void_all"
    assert m160.voting.threshold == "half_living" and m160.voting.dead_last_vote
    assert r213.voting.noon_exception and not m19.voting.noon_exception
    assert {(w.tag, w.weight) for w in r213.voting.weights} == {("警长", 1.5)}
    assert {(w.tag, w.weight) for w in r107.voting.weights} == {("神眷者", 1.5)}
    assert r107.voting.per_dead_bonus is not None and r107.voting.per_dead_bonus.per_role == "恶徒"
    assert r107.voting.eligible_voter_roles == ("村民", "学者", "守夜人", "慰魂师")
    assert [e.purpose for e in r213.voting.day1] == ["sheriff", "patriarch"]
    assert all(e.tie == "nobody" for e in r213.voting.day1)
    assert m19.voting.day1[0].tie == "first_to_top"
    assert m65.voting.day1[0].nobody_out_if_top == "预知者"
    assert set(m65.voting.hidden_modifiers) == {"深青之桩", "天枢剑圣", "票权掠夺"}
    assert set(m19.voting.hidden_modifiers) == {"基佬情深·攻", "基佬情深·受"}
    assert "流言" not in r107.voting.hidden_modifiers  # 流言 is announced (公告记有2票)


def test_lurk_cards_days() -> None:
    r107, r213, m19, m160, m65 = (load_ruleset(i) for i in IDS)
    assert [r.lurk.no_vote_penalty for r in (r107, r213, m19, m160, m65)] == [False, True, True, False, True]
    assert m160.lurk.dead_not_out_exempt_from_vote and m19.lurk.kidnapped_exempt_from_min_posts
    assert [r.cards.red_consequence for r in (r107, r213, m19, m160, m65)] == \
        ["benched", "out", "out", "benched", "out"]
    assert m160.cards.red_turns_role == "丑角"
    assert r213.cards.faction_loses_at_reds == 2 and m19.cards.faction_loses_at_reds == 2
    assert m65.cards.faction_loses_at_reds is None and m65.cards.red_settled == "after_vote"
    assert r213.days.auto_accelerate_at_living == 16
    assert not m19.days.first_day_extended and m19.days.request_threshold == "more_than_half_living"
    assert m160.days.length_days == 1 and m160.days.first_day_accelerated
    assert len(m19.speech.kidnap_allowed_words) == 25


def test_options_change_fields() -> None:
    r107 = load_ruleset("dnf-107")
    assert r107.voting.tie == "first_to_top"
    assert r107.with_options({"exile_tie": "nobody"}).voting.tie == "nobody"
    m19 = load_ruleset("luoluo-m19", options={"village_gods": "any"})
    assert m19.option("village_gods") == "any"
    with pytest.raises(RulesetError, match="village_gods"):
        load_ruleset("luoluo-m19", options={"village_gods": "some"})
    with pytest.raises(RulesetError, match="没有选项"):
        load_ruleset("luoluo-m19", options={"nonsense": 1})


def test_unknown_id_suggests() -> None:
    with pytest.raises(RulesetError) as e:
        load_ruleset("luoluo-m91")
    assert "luoluo-m19" in str(e.value)


def _write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "sixth.toml"
    p.write_text(body, encoding="utf-8")
    return p


MINIMAL = '''
id = "sixth"
name = "第六局"
source = "规则帖"
players = 3
[[factions]]
name = "狼人"
[[factions]]
name = "村民"
[[roles]]
name = "狼人"
faction = "狼人"
[[roles]]
name = "村民"
faction = "村民"
count = 2
[[win]]
faction = "村民"
clause = "胜"
when = { all_out = [{ factions = ["狼人"] }] }
'''


def test_a_sixth_game_is_a_file(tmp_path: Path) -> None:
    p = _write(tmp_path, MINIMAL)
    rs = load_ruleset("sixth.toml", base_dir=tmp_path)
    assert rs.id == "sixth" and rs.players == 3 and rs.win[0].id == "村民.1"
    assert load_ruleset(str(p)).id == "sixth"


@pytest.mark.parametrize(("change", "needle"), [
    ('players = 3', 'players = "3"'),
    ('faction = "村民"\ncount = 2', 'faction = "村名"\ncount = 2'),
    ('factions = ["狼人"] }', 'factions = ["狼"] }'),
    ('when = {', 'wen = {'),
    ('count = 2', 'count = 5'),
])
def test_bad_files_name_the_key(tmp_path: Path, change: str, needle: str) -> None:
    p = _write(tmp_path, MINIMAL.replace(change, needle))
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(p))
    msg = str(e.value)
    assert "sixth.toml" in msg
    assert "提示" in msg


def test_typo_in_role_of_win_rule_is_refused(tmp_path: Path) -> None:
    body = MINIMAL.replace('when = { all_out = [{ factions = ["狼人"] }] }',
                           'when = { all_out = [{ roles = ["狼王"] }] }')
    with pytest.raises(RulesetError, match="狼王"):
        load_ruleset(str(_write(tmp_path, body)))
