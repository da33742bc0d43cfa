"""Who leaves no 遗言 whatever the count, by the night file: the skills its holders hold (M19 难言<强制>
"忠犬出局时没有遗言，且不消耗遗言数量": ``no_last_words``) and the skill that took him out (M19
"红牌罚下出局的角色没有遗言权利": ``takes_last_words``). Such an exit takes no place among those the count
reaches; the count itself (M19 "遗言数量等于狼人的数量，靠前出局且可以留下遗言的角色会收到可以留下遗言的通知")
is the game's 公示. And who may leave 遗言 however he goes out (213 绝笔 "牧首在任意时机出局都可以留下遗言":
``last_words``), which the game's exit asks after its own exceptions (213 红牌罚下 "没有遗言权利").
"""

from __future__ import annotations

from tracker.engine.night.catalog import Catalog, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Seat


def silenced(catalog: Catalog, seat: Seat, cause: str) -> str | None:
    """Why ``seat``'s exit by ``cause`` leaves no 遗言 (the exit notice's words), or None: the skill that took him
    out first (its name or an alias, written with its detail or not: 红牌, 红牌罚下), then those he holds."""
    head = cause.split("（", 1)[0]
    for skill in catalog.skills.values():
        if skill.takes_last_words is not None and head in (skill.name, *skill.aliases):
            return skill.takes_last_words
    for skill in catalog.skills.values():
        if skill.no_last_words is not None and holds(seat, skill):
            return skill.no_last_words
    return None


def last_words(catalog: Catalog, seat: Seat) -> Skill | None:
    """The skill by which ``seat`` may leave 遗言 however he goes out (``last_words``: 213 绝笔), or None: a skill with a
    ``tag`` is its bearer's (the 牧首 of any role), else its holders'."""
    for skill in catalog.skills.values():
        if skill.last_words and (skill.tag in seat.tags if skill.tag is not None else holds(seat, skill)):
            return skill
    return None
