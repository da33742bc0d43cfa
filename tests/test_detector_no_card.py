"""A detector whose clause names no card: werewolf-12 三、2 "死者（遗言除外）、旁观者不得发言".

The post forbids it and says nothing of a card, so the ruleset writes ``card = "none"``: the flag is
raised, no colour is suggested as if the post gave one, and `card from-flag` needs the director's
own ``--color``. A ``[[detectors]]`` entry without ``card`` is the generic suggestion (蓝牌 first,
黄牌 again), which `tracker ruleset check` names as a default to write out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_day_rules_werewolf12_game import TALK_POSTS, VOTE_POSTS, at, by, open_game

from tracker.engine.ruleset import BUNDLED_DIR, load_ruleset
from tracker.engine.ruleset_check import check_ruleset
from tracker.errors import GameRuleError


def test_werewolf12_flags_a_dead_players_post_without_a_card() -> None:
    rule = load_ruleset("werewolf-12").detector_rule("posted_while_out", "account")
    assert rule is not None and rule.card == "none" and rule.clause.startswith("三、2")


def test_the_flag_suggests_no_card_and_from_flag_needs_a_colour(tmp_path: Path) -> None:
    svc = open_game(tmp_path, [*TALK_POSTS, by(10, at(13), "我死得冤，10 号是好人")], VOTE_POSTS)
    svc.log.record_event("eliminated", "阿十", {"cause": "night"}, at=at(10))
    [flag] = [f for f in svc.flag_review.flags(detect=True) if f.kind == "posted_while_out"]
    sug = svc.flag_review.suggest_card(flag.id)
    assert not sug.written and "规则帖没写此条的牌" in sug.why and "三、2" in sug.why
    with pytest.raises(GameRuleError, match="--color"):
        svc.flag_review.card_from_flag(flag.id)
    card = svc.flag_review.card_from_flag(flag.id, color="yellow")
    assert card.entry.player == "阿十" and card.entry.color == "yellow"


def test_ruleset_check_names_a_detector_without_a_card(tmp_path: Path) -> None:
    bundled = BUNDLED_DIR / "werewolf-12.toml"
    assert check_ruleset(bundled) == []
    mine = tmp_path / "mine.toml"
    mine.write_text(bundled.read_text("utf-8").replace('card = "none"', ""), encoding="utf-8")
    [warning] = [p for p in check_ruleset(mine) if p.where.endswith(".card")]
    assert warning.level == "warning" and 'card = "none"' in (warning.hint or "")
