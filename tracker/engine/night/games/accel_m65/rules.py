"""M65 加速世界: the post's words the settlement needs — clauses, skill classes, who holds what.

Everything here is read from the rule post (004_757e71c89bc341d0.txt) and cited beside it; the
skills themselves (holders, phases, targets, uses) are data in ``rulesets/night/accel-m65.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Catalog, Skill, load_catalog
from tracker.engine.night.checks import holds
from tracker.engine.night.effects import immunity
from tracker.engine.night.model import Seat, Table

RULESET = "accel-m65"
CUT = "绝对切割"

ROLES = ("黑王", "银鸦", "青铃", "骑士", "风行", "劫火", "白王", "红王", "蓝王", "绿王", "黄王", "紫王",
         "预知者", "掠夺者")
FACTIONS = ("黑暗星云", "六色联军", "加速研究社")

C_PRIORITY = "减益技能和部分强制技能因为发动具有冲突性，所以需要有优先级判定。"
C_BUFF = "由于增益技能判定不和减益技能冲突，所以增益技能生效时间按照私聊导演的具体时间先后为准。"
C_OUT = "角色出局时将收到通知。"
C_NO_PRIVILEGE = "角色出局后，不能继续参与讨论、投票、行使特权。"
C_LOST = "阵营被判负后，不予公示，且属于该阵营的角色并不会出局。"
C_X = "X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中。"
C_TIMEOUT = "劫火、黄王接到通知后，一小时内给出答复，否则视为放弃发动技能。"

#: The skills of the 优先级判定 list other than 绝对防御 (a 强制 skill): the post calls them 减益
#: ("减益技能和部分强制技能因为发动具有冲突性"), with 深青之桩 marked （减益） itself; 票权掠夺
#: takes a player's vote away, a 减益 too. 黄王 持续 perceives only these.
DEBUFFS = frozenset({"绝对切割", "天璇紫后", "飞行头槌", "最后一枪", "天枢剑圣", "深青之桩", "票权掠夺"})
MARKS = ("天枢剑圣", "深青之桩")       # 5、蓝王天枢剑圣、深桩深青之桩
CHOICE_SKILLS = {"空之瞭望": "风行", "净化之焰": "劫火", "辐射炫惑": "黄王"}   # the （抉择） skills
REACTIONS = ("净化之焰", "辐射炫惑")   # 枯竭: declared the night before, reacting the next 游戏日
SETUP_CHOICE = "抉择"   # the setup entry of the （抉择） skills, not a numbered skill


@cache
def catalog() -> Catalog:
    return load_catalog(RULESET)


def role_skills(cat: Catalog, role: str) -> list[Skill]:
    """A role's skills in the post's order (the "几号技能" of <时间回溯>), without its 抉择."""
    return [s for s in cat.skills_of(role) if s.name != SETUP_CHOICE]


def stealable(cat: Catalog, role: str) -> tuple[str, ...]:
    """<技能掠夺>: "下一夜晚你可以使用该角色的任一非强制技能" — its 强制 and triggered ones excluded."""
    return tuple(s.name for s in role_skills(cat, role) if s.kind not in ("强制", "触发"))


def options(seat: Seat, skill: str) -> frozenset[str]:
    """Which options of a （抉择） skill the seat holds: its own 抉择, or both through <缥缈永恒>
    ("拥有该身份模板的全部技能（即抉择中的两种选项技能都将拥有）")."""
    owner = CHOICE_SKILLS.get(skill)
    if owner is not None and seat.role == owner:
        choice = str(seat.fields.get("choice") or "")
        return frozenset(o for o in ("持续", "枯竭") if choice.startswith(o))
    if skill in seat.uses:
        return frozenset({"持续", "枯竭"})
    return frozenset()


def shield(board: Board, seat: Seat, skill: str) -> str | None:
    """The skill that voids ``skill`` on ``seat`` — <绝对防御>（强制）, held by the 绿王 or a 白王 who took his
    template: the night file's ``immune_to``, which the generic engine reads for the skills it settles."""
    found = immunity(board, seat, skill) if seat.alive else None
    return found.name if found is not None else None


def excepted(board: Board, seat: Seat, skill: str) -> str | None:
    """The <绝对防御> of a living ``seat`` that ``skill`` passes through (its ``immune_except``), or None."""
    if not seat.alive:
        return None
    found = next((s for s in board.catalog.skills.values() if "*" in s.immune_to and skill in s.immune_except
                  and holds(seat, s)), None)
    return found.name if found is not None else None


def holds_gun_skill(seat: Seat) -> bool:
    return seat.role == "红王" or "最后一枪" in seat.uses


def parse_role(text: str | None) -> str | None:
    """The role a <技能掠夺> guess names ("猜测身份：黄王"); the last one named wins."""
    if not text:
        return None
    found = [(text.rfind(r), r) for r in ROLES if r in text]
    return max(found)[1] if found else None


def rewound_skill(cat: Catalog, seat: Seat, last: Mapping[str, Any]) -> str | None:
    """The skill a standing <时间回溯> gives one more use of: ``时间回溯上次.技能``, which the shared
    vocabulary makes optional ("needed only when the target had two active skills"); without it, the
    target's one active skill (neither 强制 nor 被动/触发), if he has exactly one."""
    named = last.get("技能")
    if isinstance(named, str):
        return named
    active = [s.name for s in role_skills(cat, seat.role) if s.kind not in ("强制", "被动", "触发")]
    return active[0] if len(active) == 1 else None


def named_skill(cat: Catalog, seat: Seat, text: str | None) -> str | None:
    """The skill a <时间回溯> names: "2号技能" (the post's numbering) or the skill's name."""
    if not text:
        return None
    own = role_skills(cat, seat.role)
    for s in own:
        if s.name in text:
            return s.name
    digits = "".join(ch for ch in text if ch.isdigit())
    numerals = {"一": 1, "二": 2, "两": 2, "三": 3}
    n = int(digits) if digits else next((v for k, v in numerals.items() if k in text), 0)
    return own[n - 1].name if 1 <= n <= len(own) else None


def game_day(table: Table) -> int:
    """The 游戏日 being settled: night N follows day N ("每天白天……每天晚上……")."""
    return table.night if table.night is not None else (table.day or 1)


def exhaust_active(state: dict[str, Any], player: str, day: int) -> bool:
    """枯竭 <净化之焰>/<辐射炫惑> declared "提前一天夜晚" and in effect on this 游戏日."""
    on = state.get("枯竭生效")
    return isinstance(on, dict) and on.get(player) == day
