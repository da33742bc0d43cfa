"""Who is what at M160's table tonight: 实际 vs 表面 identity, 醉酒/中毒/清醒, seats, lethal damage.

The post separates what a player is (【实际阵营】, 【实际角色】) from what skills see
(【表面阵营】, 【表面角色】), and what he believes (附体, 迷失: ``believes``). Statuses change in
the post's order, so every question ("is P drunk?", "does P look like a 恶魔?") is asked of this
object at the step being settled, never of the input table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tracker.engine.night import tonight
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Step
from tracker.engine.night.effects import Pool
from tracker.engine.night.model import Action, Seat

DEMONS = ("缚魂灵", "附魂灵", "狂煞", "厉鬼", "双生暗影")
MINIONS = ("煤气灯人", "告死天使", "告死邪魔", "幕后黑手")
OUTSIDERS = ("无政府主义者", "虚无主义者", "漫步者", "丑角")
VILLAGERS = ("护士长", "心理学家", "阴谋论者", "化梦师", "药师", "安保人员", "末日传道士", "通灵师",
             "模仿者", "说谎者", "懦夫", "冰恋者", "审讯官")
#: "信息类技能则大概率（90%）获取错误信息"; every other skill is 无效 while 醉酒.
INFO = frozenset({"诊断", "访谈", "占卜", "游历", "守墓", "拷问", "洞悉", "寻觅"})
WRONG = 0.9
#: The statuses of tonight the post's steps read (given by the night file's effects or by 药剂/寻觅).
MASK, CLEAR, SOBER_, DRUNK_ = "面具", "明晰", "清醒", "醉酒"
#: 寻觅 at 晨曦: "你的【表面身份】变为【煤气灯人】，天亮后恢复" (a status of tonight).
GASLIT = "表面煤气灯人"

DRUNK = "2、【醉酒】：【醉酒】的玩家失去技能，但他们仍然以为自己拥有技能，并且能够发动技能。【醉酒】期间发动的其他类型技能无效（一次性技能如果被触发则被消耗），信息类技能则大概率（90%）获取错误信息。"
SOBER = "4、【清醒】：免疫【醉酒】与【中毒】，并免受恶魔侵害，优先级高于【醉酒】与【中毒】。"
LETHAL = "某些技能的效应会使角色受到致死伤害，如果没有特殊说明，该角色在夜晚或白天结束时【死亡】。"
DEAD = "当一名玩家被【杀害】、【处决】或【投票】导致【死亡】后，其依旧可以在场上发言并投票，但其失去技能（被【附魂灵】刀死的【爪牙】除外），且再不能成为被选择的目标（【阴谋论者】和【煤气灯人】除外）。"


def kind(seat: Seat) -> str:
    """村民 / 外来者 / 爪牙 / 恶魔: the scenario's ``type``, else the role's group in the post."""
    t = seat.fields.get("type")
    return t if isinstance(t, str) else group_of(seat.role)


def group_of(role: str) -> str:
    """The post's group of a role: 恶魔 / 爪牙 / 外来者 / 村民."""
    for group, names_ in (("恶魔", DEMONS), ("爪牙", MINIONS), ("外来者", OUTSIDERS)):
        if role in names_:
            return group
    return "村民"


def kept_skills(seat: Seat) -> bool:
    """A 死亡 爪牙 the 缚魂灵 killed keeps his skills (【夺魂】); every other dead player loses them."""
    if seat.alive:
        return True
    died = seat.fields.get("死亡")
    cause = died.get("cause", "") if isinstance(died, dict) else ""
    return seat.life == "死亡" and kind(seat) == "爪牙" and any(w in cause for w in ("夺魂", "缚魂灵", "附魂灵"))


def surface_now(board: Board, pool: Pool, seat: Seat) -> tuple[str, str]:
    """The 【表面阵营】 and 【表面身份】 a check sees at this step (``GameHooks.surface_now``): the
    阵营 is the player's type (恶魔 / 爪牙 / 村民 / 外来者) — 恶魔 under tonight's 面具, unless 明晰 —
    and the 身份 the role he believes — 实际 under 明晰, 煤气灯人 after his 寻觅 at 晨曦."""
    tonight_ = pool.tonight.get(seat.name, set())
    clear = CLEAR in tonight_
    side = "恶魔" if MASK in tonight_ and not clear else kind(seat)
    believes = seat.fields.get("believes")
    role = "煤气灯人" if GASLIT in tonight_ else seat.role if clear else (
        believes if isinstance(believes, str) else seat.role)
    return side, role


@dataclass
class Lethal:
    target: str
    cause: str
    by_demon: bool
    clause: str
    skill: str = ""  # the skill dealing it: a protection's ``stops`` reads it (彷徨's stand-in, :func:`.effects.take_cover`)


@dataclass
class Night:
    """Tonight's changing facts, read by each step at its place in the order."""

    board: Board
    actions: list[Action]
    step: str = ""
    step_of: dict[int, float] = field(default_factory=dict)    # action index → its place in the order
    here: float = 0.0                                   # the place in the order being settled
    order: list[Step] = field(default_factory=list)    # tonight's steps, in the post's order
    died: list[str] = field(default_factory=list)      # 死亡 at the night's end, in order
    #: The phase's pool the generic engine settles the data skills into: 禁锢's blocks, 抗议's
    #: redirects, 面具/明晰/醉酒/清醒 for tonight (:mod:`tracker.engine.night.tonight`).
    pool: Pool = field(default_factory=Pool)

    # -- identity ---------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.board.night or 0

    def seat(self, name: str) -> Seat:
        return self.board.seat(name)

    def believed(self, name: str) -> str:
        seat = self.seat(name)
        b = seat.fields.get("believes")
        return b if isinstance(b, str) else seat.role

    def side(self, name: str) -> str:
        """【表面阵营】 as the post's skills ask it (恶魔 / 爪牙 / 村民 / 外来者), at this step."""
        return surface_now(self.board, self.pool, self.seat(name))[0]

    def looks_evil(self, name: str) -> bool:
        return self.side(name) in ("恶魔", "爪牙")

    def apparent_role(self, name: str) -> str:
        """【表面身份】/【表面角色】: what the player believes, 实际 under 明晰, 煤气灯人 after 寻觅."""
        return surface_now(self.board, self.pool, self.seat(name))[1]

    def is_demon(self, name: str) -> bool:
        return kind(self.seat(name)) == "恶魔"

    def clown(self, name: str) -> bool:
        seat = self.seat(name)
        return seat.role == "丑角" or "丑角" in seat.status or self.believed(name) == "丑角"

    # -- statuses ---------------------------------------------------------------------------------
    def tonight(self, name: str, status: str) -> bool:
        """A status for tonight only (面具, 明晰, 清醒, 醉酒), held in the phase's pool."""
        return status in self.pool.tonight.get(name, ())

    def give(self, name: str, status: str) -> None:
        tonight.give(self.pool, name, status)

    @property
    def sober(self) -> set[str]:
        """清醒 tonight (药剂, 寻觅)."""
        return {p for p, s in self.pool.tonight.items() if SOBER_ in s}

    @property
    def drunk(self) -> set[str]:
        """醉酒 tonight (药剂)."""
        return {p for p, s in self.pool.tonight.items() if DRUNK_ in s}

    @property
    def coward_safe(self) -> set[str]:
        """Who "在当晚不会死亡" (懦夫【自保】: a protection of the actor against every skill)."""
        return {p for p, guards in self.pool.guards.items() if any("*" in g.stops for g in guards)}

    @property
    def jailed(self) -> set[str]:
        """爪牙 who lost their skills tonight (禁锢, a ``block`` of every skill)."""
        return {p for p, voids in self.pool.blocked.items() if "*" in voids}

    def impaired(self, name: str) -> bool:
        """醉酒 or 中毒, unless 清醒 ("优先级高于【醉酒】与【中毒】")."""
        if name in self.sober:
            return False
        return name in self.drunk or "中毒" in self.seat(name).status

    def disabled(self, action: Action) -> str | None:
        """Why an effect-type skill does nothing at this step (blocked, drunk), or None."""
        actor = action.members[0]
        if actor in self.jailed:
            self.refuse_jailed(action)
            return f"{actor}今晚被禁锢，失去技能"
        if self.impaired(actor):
            return f"{actor}{'醉酒' if actor in self.drunk else '中毒'}，技能无效"
        return None

    def refuse_jailed(self, action: Action) -> None:
        """A 爪牙 jailed before his step is refused, with the blocker in the reason (once per submission)."""
        if any(r.actor == action.actor and r.skill == action.skill and r.targets == tuple(action.targets)
               for r in self.board.result.rejected):
            return
        by, clause = self.pool.blockers.get(action.members[0], ("安保人员<禁锢>", self.board.skill("禁锢").clause))
        self.board.reject(action, f"{action.members[0]}被{by}，今晚失去技能", clause)

    def wrong(self, action: Action) -> bool:
        """An information skill's answer is wrong: 90% while 醉酒/中毒 (seeded, the director may override)."""
        actor = action.members[0]
        if not self.impaired(actor):
            return False
        return self.board.chance(f"醉酒错误.{actor}.{action.skill}",
                                 f"{actor}醉酒/中毒，<{action.skill}>获取错误信息？", WRONG)

    # -- targets ----------------------------------------------------------------------------------
    def targets(self, action: Action) -> tuple[str, ...]:
        """The targets after 【抗议】: each protested target may be replaced by the 无政府主义者."""
        return tonight.targets(self.board, self.pool, action)

    def chosen_by(self, player: str) -> list[str]:
        """Everyone ``player`` chose tonight (after 抗议), first choice first: a 恶魔's "你选择的玩家"."""
        out: list[str] = []
        for a in self.actions:
            if a.members and a.members[0] == player and a.skill != "夺刀":
                out.extend(t for t in self.targets(a) if t not in out)
        return out

    def of(self, skill: str) -> list[Action]:
        return [a for a in self.actions if a.skill == skill]

    def tell(self, to: str, content: str) -> None:
        self.board.tell(to, content)


def names(players: Sequence[str]) -> str:
    return "、".join(players) if players else "无"
