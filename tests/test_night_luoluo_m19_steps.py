"""M19's settlement order is data: the night file's ``[[steps]]`` are the post's 总体流程, walked by the
generic engine, with the post's own step numbers (4（1）–（7） by night, 6 by day); a step the game's
code settles is a named hook step, never the whole phase."""

from __future__ import annotations

from tracker.engine.night.catalog import load_catalog
from tracker.engine.night.games import hooks_for


def test_m19_is_walked_by_the_generic_engine_not_a_whole_phase_hook() -> None:
    hooks = hooks_for("luoluo-m19")
    assert hooks is not None
    named = {s.hook for s in load_catalog("luoluo-m19").steps if s.hook is not None}
    assert named <= set(hooks.steps), f"hook steps the package does not settle: {named - set(hooks.steps)}"
    assert set(hooks.steps) <= named, "a hook step no [[steps]] entry names is dead code"


def test_the_nights_steps_carry_the_posts_numbers_in_its_order() -> None:
    night = list(dict.fromkeys(s.n for s in load_catalog("luoluo-m19").steps if s.phase == "night" and s.n.isdigit()))
    assert night == ["1", "2", "3", "4", "5", "6", "7"]


def test_the_day_settles_the_red_card_before_the_vote() -> None:
    """白天红牌罚下在被投票出局之前。"""
    day = [s for s in load_catalog("luoluo-m19").steps if s.phase == "day"]
    skills = [name for s in day for name in s.skills]
    assert skills.index("红牌罚下") < skills.index("投票出局")
