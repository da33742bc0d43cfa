"""A night of 107, in the post's order "2、进入夜晚，所有身份选择发动技能。（1）……（17）".

Each step is one method, named by the post's step number, reading the submissions that reached
it. Voiding (失效 / 无效) is decided in one place, :meth:`Night.live`, from the sentences that void
a player's skills (翻转身份, 牵制, 潜行, 超度, 拓印, 蓄力斩's 剑痕), so no step forgets one.
"""

from __future__ import annotations

from dataclasses import replace
from weakref import WeakKeyDictionary

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.effects import Pool, Use, immunity
from tracker.engine.night.games.dnf_107.common import (
    NEUTRAL_NEED,
    RELIC,
    UNDEAD,
    counts_in,
    exit_effects,
    flip,
    is_undead,
    joins,
    relic,
    relic_holder,
)
from tracker.engine.night.games.dnf_107.flow import Flow, Guards, Hit
from tracker.engine.night.games.dnf_107.skills import deliver, mastery, morning, revelation, rubbing
from tracker.engine.night.model import Action, Seat

#: A private flag in the working state: prepare() has settled (1) already.
CURSED = "_诅咒已结算"
#: Skills whose effect falls on the next day, not "当晚": 潜行 does not shield against them.
NEXT_DAY = {"流言", "诡辩"}
#: Submissions that void the actor's other skills that night, with the post's sentence.
SOLO = {"潜行": "发动<潜行>的夜晚游荡者发动其他技能失效",
        "超度": "此技能发动的当晚，慰魂师发动其他技能失效",
        "拓印": "<拓印>发动的当晚学者发动其他技能失效"}
#: How a skill voided by a ``block`` (<牵制>, data) is logged (and then refused in the block's words).
RESTRAINED = "无效（<牵制>"


class Night:
    def __init__(self, board: Board, actions: list[Action]) -> None:
        self.b = board
        self.n = board.night or 0
        self.actions = actions
        self.g = Guards()
        self.void: set[int] = set()
        self.role_at_start = {s.name: s.role for s in board.table.players.values()}
        #: The night's pool (its ``block``s: <牵制>, settled from data before the hook steps), from :meth:`take`.
        self.pool: Pool | None = None
        self.taught: str | None = None
        self.hits: list[Hit] = []
        #: The 公示 lines the night's data skills announced (剑痕, 夜之语) begin here: the morning puts
        #: the post's own first lines (出局名单, 神眷者) before them.
        self.lines_from = len(board.result.lines)
        self.deaths_from = len(board.result.deaths)

    # -- helpers -------------------------------------------------------------------------------
    def of(self, skill: str) -> list[Action]:
        """Legal submissions of a skill, the original holders first where the night file says so
        (``originals_first``: "学者拓印的技能在原版之后结算")."""
        sk = self.b.skill(skill)
        found = [a for a in self.actions if a.skill == skill and (a.phase in (None, "night"))]
        first = self.b.catalog.originals_first
        return sorted(found, key=lambda a: (first and self.role_at_start.get(a.members[0] if a.members else "", "")
                                            not in sk.roles, a.index))

    def actor(self, a: Action) -> Seat:
        return self.b.seat(a.members[0])

    def submitted(self, actor: str, skill: str) -> bool:
        return any(a.skill == skill and a.members == (actor,) and a.phase in (None, "night") for a in self.actions)

    def live(self, a: Action, step: str) -> bool:
        """Whether the submission still takes effect when its step comes; why not, logged once."""
        if a.index in self.void or a.index in self.b.refused:  # refused by the generic walk (a data skill blocked)
            return False
        why = self._why_void(a, self.b.skill(a.skill))
        if why is None:
            return True
        self.void.add(a.index)
        target = f"{'、'.join(a.targets)}" if a.targets else ""
        self.b.note(f"{step} {a.actor}<{a.skill}>{target}：{why}")
        if why.startswith(RESTRAINED) and self.pool is not None:
            # blocked before he acts: listed as refused in the block's words, the blocker named (the use is still
            # spent, ``spends``: "该角色当晚发动的……技能无效")
            name = a.members[0]
            reason, clause = self.pool.refusal(name, a.skill) or (f"{name}被封锁，<{a.skill}>无效", "")
            self.b.reject(a, reason, clause)
        return False

    def _why_void(self, a: Action, skill: Skill) -> str | None:
        if skill.team is not None:
            return None
        name = a.members[0]
        seat = self.b.seat(name)
        if seat.role != self.role_at_start.get(name) and not holds(seat, skill):
            return f"失效（{name}已翻转身份，失去<{skill.name}>：失去的技能效果全部终止）"
        if skill.tag is not None and not holds(seat, skill):  # 灾厄: the relic went on (馈赠, 权术) before (15)
            return f"失效（{name}已不持有[{skill.tag}]，没有<{skill.name}>）"
        if self.pool is not None and self.pool.blocks(name, skill.name, skill.kind):
            return RESTRAINED + "：该角色当晚发动的非团队的<普通>和<限定>技能无效）"
        for solo, sentence in SOLO.items():
            if (skill.name != solo and self.submitted(name, solo) and self.b.seat(name).role in self.b.skill(solo).roles
                    and (solo != "潜行" or self.g.stealth == name)):
                return f"失效（{sentence}）"
        if skill.name == "剑痕" and self.submitted(name, "蓄力斩"):
            return "失效（发动此技能的当夜，剑士发动的<剑痕>失效），次日不公告"
        if (self.g.stealth is not None and self.g.stealth in a.targets and name != self.g.stealth
                and not skill.lethal and skill.name not in NEXT_DAY and len(a.targets) == 1):
            return f"对{self.g.stealth}无效（<潜行>：当晚游荡者不受任何其他角色的技能效果影响）"
        return None

    def reach(self, targets: tuple[str, ...], who: str, step: str) -> list[str]:
        """Targets of a multi-target skill the effect may touch (not the 游荡者 under 潜行)."""
        out = []
        for t in targets:
            if t == self.g.stealth and t != who:
                self.b.note(f"{step} 对{t}无效（<潜行>）")
            else:
                out.append(t)
        return out

    def voided(self, a: Action, step: str) -> bool:
        """A skill the generic engine settles from its ``effects`` meets the same voids as the rest
        (:meth:`live`); void, it is still 发动: a 限定 use is spent (N02: 偷袭 on 潜行), a cooldown
        counts from tonight ("发动此技能的当夜")."""
        if self.live(a, step):
            return False
        self.spend(a)
        sk = self.b.skill(a.skill)
        if sk.cooldown_key is not None:
            self.b.set_state(sk.cooldown_key, {"target": a.targets[0], "night": self.n} if a.targets else {"night": self.n})
        return True

    def take(self, pool: Pool) -> None:
        """The protections, covers and [致死伤害] of the data steps ((5) 突击, (6) 蓄力斩, (7) 偷袭, (9) 啃咬) joins the hits the
        致死伤害结算流程 settles at (13), with the cause its effect names (a team's: 啃咬（活尸）, which 神恩's ``by_factions`` reads
        as the 活尸's). The pool's blocks (<牵制>) are read by :meth:`live`."""
        self.pool = pool
        for t, guards in pool.guards.items():  # 祝福 (data): a protection spent by one hit
            self.g.shields.setdefault(t, []).extend(guards)
        pool.guards.clear()
        self.g.counter.update(pool.covers)  # 防反 (data): the 剑士's next hit passes on
        pool.covers.clear()
        hits, pool.hits = pool.hits, []
        for h in hits:
            self.hits.append(Hit(h.target, h.skill, h.by, "(13)", said=None if h.cause == h.skill else h.cause,
                                 flips_instead=h.flips_instead, reason=h.reason))

    def spend(self, a: Action) -> None:
        """A 限定 skill is spent when it is 发动, even if its effect then fails (N02: 偷袭 on 潜行)."""
        sk = self.b.skill(a.skill)
        if any(e.kind == "cover" for e in sk.effects):  # 防反 "生效后，剑士失去此技能": not on submission
            return
        if sk.uses and a.members and self.b.has(a.members[0]):
            seat = self.actor(a)
            if sk.uses in seat.uses or (sk.kind == "限定" and seat.role in sk.roles):
                seat.uses.setdefault(sk.uses, 1)
                self.b.use(seat, sk)

    # -- the day actions that belong to this night ------------------------------------------------
    def day_actions(self) -> None:
        for a in self.actions:
            if a.skill == "牵制" and a.index not in self.b.refused:  # its block is data (the night's first step)
                self.b.set_state("牵制上次", {"target": a.targets[0], "day": self.n})
            elif a.skill == "教化":
                t = a.targets[0]
                self.b.set_state("教化上次", {"target": t, "day": self.n})
                if self.b.seat(t).faction == "圣殿":
                    self.taught = t
                    self.b.note(f"第{self.n}天 教化：{t}属于圣殿阵营 → 当夜免疫诅咒")
                else:
                    self.b.note(f"第{self.n}天 教化：{t}不属于圣殿阵营 → 无效果")

    # -- (1) ---------------------------------------------------------------------------------------
    def step1_curse(self) -> None:
        if self.b.state.pop(CURSED, False):
            return  # settled by prepare() before the submissions were checked
        curse(self.b, self.taught)

    # -- (2)(3) ------------------------------------------------------------------------------------
    def step2_stealth(self) -> None:
        for a in self.of("潜行"):
            self.spend(a)
            if self.live(a, "(2)"):
                self.g.stealth = a.members[0]
                self.b.note(f"(2) {a.actor}发动<潜行>（限定，用掉）：当晚{a.actor}不受任何其他角色的技能效果影响；"
                            "当晚其发动的其他技能失效")

    def step3(self) -> None:
        """(3) after <安葬> (data): 神启 (answered at night's end), 拓印; <探查> follows (data)."""
        for a in self.of("神启"):
            self.live(a, "(3)")  # its answer comes once the night is settled
        for a in self.of("拓印"):
            self.spend(a)
            if self.live(a, "(3)"):
                rubbing(self, a)

    # -- (4) ---------------------------------------------------------------------------------------
    def step4(self) -> None:
        """(4) after <祝福> (and 恩典, its ``on_use``) and <防反> (data: the pool's protection and cover, taken for (13)):
        陷阱, 超度."""
        b = self.b
        for a in self.of("陷阱"):
            if self.live(a, "(4)"):
                self.g.traps[a.members[0]] = a.targets[0]
                b.note(f"(4) 陷阱：{a.actor}选择{a.targets[0]}")
                b.later("陷阱", a.targets[0], f"第{self.n + 1}天白天：若{a.actor}被投票出局，对{a.targets[0]}造成一次致死伤害",
                        b.skill("陷阱").clause)
        for a in self.of("超度"):
            self.spend(a)
            if self.live(a, "(4)"):
                deliver(self, a)

    # -- (5)–(10): lethal damage, settled at (13) ----------------------------------------------------
    def lethal(self, step: str, skill: str) -> None:
        """(8) 夜之牙: its hit kept for the 致死伤害结算流程 at (13) — only when the player out it names is 亡灵."""
        b = self.b
        for a in self.of(skill):
            self.spend(a)
            if not self.live(a, step):
                continue
            gone, victim = a.targets
            if not is_undead(b.seat(gone)):
                b.note(f"{step} 夜之牙：已出局的{gone}不属于亡灵阵营 → 无效果")
                continue
            b.note(f"{step} 夜之牙：已出局的{gone}属于亡灵阵营 → {victim}受到一次致死伤害")
            self.hits.append(Hit(victim, skill, a.actor, step))

    # -- (11), (13) ----------------------------------------------------------------------------------
    def preview(self) -> list[str]:
        """(11) 初步结算: the 致死伤害结算流程 as a dry run on copies, up to check (4) — who is about to go out."""
        return Flow(self.b, self.g.copy(), dry=True).dry_run(self.hits)

    def step13(self) -> None:
        """(13) 按顺序结算致死伤害以及出局效应, then 天谴 "于当夜结束时出局"."""
        b = self.b
        if not self.hits:
            b.note("(11)-(13) 没有有效的致死伤害 → 无人出局")
        flow = Flow(b, self.g)
        for h in self.hits:
            flow.hit(replace(h, step="(13)"))
        self.doom(flow)

    def doom(self, flow: Flow) -> None:
        """天谴: a 天谴者 who joined tonight names a faction; one of its living players goes out at night's end."""
        b = self.b
        for name in list(b.state.pop("_天谴待定", [])):
            act = next((a for a in self.actions if a.skill == "天谴" and a.members == (name,)), None)
            factions = [f for f in ("莱恩", "圣殿", "环蛇", "中立", UNDEAD) if any(counts_in(s, f) for s in b.living())]
            chosen = act.choice.strip() if act is not None and act.choice else None
            if chosen not in factions:
                chosen = b.ask(f"天谴.{name}", f"天谴：{name}选定的阵营（未提交）", factions)
            members = [s.name for s in b.living() if counts_in(s, chosen)]
            if not members:
                continue
            victim = b.ask(f"天谴.{name}.出局", f"天谴：随机一名当前存活的{chosen}阵营角色于当夜结束时出局", members)
            b.note(f"(13) 天谴：{name}选定{chosen}阵营 → {victim}于当夜结束时出局")
            flow.g.out.add(victim)
            b.kill(victim, f"天谴（{name}）")
            trap = flow.g.traps.pop(victim, None)
            if trap is not None:
                flow.hit(Hit(trap, "陷阱", victim, "(13)"))

    # -- (14)–(17) ---------------------------------------------------------------------------------
    def step14(self) -> None:
        b = self.b
        for d in list(b.result.deaths[self.deaths_from:]):
            seat = b.seat(d.player)
            exit_effects(b, seat, d.cause)
            b.note(f"(14) {d.player}得到出局通知，可以遗言")
            if d.cause.startswith("夜之牙") and is_undead(seat):
                need = int(b.state.get(NEUTRAL_NEED, 7)) + 2
                b.set_state(NEUTRAL_NEED, need)
                b.note(f"夜之牙使亡灵阵营角色{d.player}出局 → 中立阵营判胜所需人数+2（现为{need}）")


def curse(b: Board, taught: str | None) -> None:
    """(1) 诅咒, at "游戏日夜晚开始时": before anyone chooses, so a flipped holder chooses as his new identity."""
    r = relic(b)
    holder = relic_holder(b)
    if r is None or holder is None:
        b.note("(1) 诅咒：场上尚无[亡灵圣物]")
        return
    seat = b.seat(holder)
    left = int(r.get("诅咒剩余次数", 0))
    if is_undead(seat):
        b.note(f"(1) 诅咒：持有者{holder}属于亡灵阵营 → 不生效，剩余次数仍为{left}")
        return
    if left <= 0:
        b.note(f"(1) 诅咒：次数为0，不再生效（持有者{holder}）")
        return
    shield = immunity(b, seat, "诅咒")  # 神恩、虔诚、神眷者·神恩: their immune_to
    immune = None
    if shield is not None:
        immune = f"<{shield.name}>：{seat.role if seat.role in shield.roles else shield.tag}免疫<诅咒>"
    elif taught == holder:
        immune = "<教化>：当夜免疫诅咒"
    if immune:
        b.note(f"(1) 诅咒：持有者{holder}免疫（{immune}）→ 不生效，剩余次数仍为{left}")
        return
    b.note(f"(1) 诅咒：持有者{holder}不属于亡灵阵营 → 翻转其身份，剩余次数{left}→{left - 1}")
    r = dict(r)
    r["诅咒剩余次数"] = left - 1
    b.set_state(RELIC, r)
    flip(b, holder, "诅咒")


#: The night each board settles, for the hook the generic engine asks with the board only (:func:`aim`).
NIGHTS: WeakKeyDictionary[Board, Night] = WeakKeyDictionary()


def aim(board: Board, use: Use, target: str) -> str | None:
    """<潜行> "当晚游荡者不受任何其他角色的技能效果影响" on one target of a data skill with several (诈骗, 暗日):
    that target takes nothing, the others do (a skill with one target is void, :meth:`Night.live`; a lethal
    damage meets <潜行> in the 致死伤害结算流程; 流言's effect falls on the next day)."""
    night = NIGHTS.get(board)
    stealth = night.g.stealth if night is not None else None
    if (stealth is not None and target == stealth and use.actor != stealth and not use.skill.lethal
            and use.skill.name not in NEXT_DAY):
        board.note(f"{use.step} 对{target}无效（<潜行>）")
        return None
    return target


def open_night(board: Board, actions: list[Action]) -> Night:
    """The night's own table of what its steps share, with the day's 牵制 and 教化 that act on it."""
    night = Night(board, actions)
    NIGHTS[board] = night
    night.day_actions()
    return night


def close_night(night: Night) -> None:
    """(17) 认主, then 神启's answer (the target's whole night), the morning 公示 and 夜之躯's joining
    before the win check that follows (17)."""
    mastery(night)
    revelation(night)
    morning(night)
    joins(night.b)


def prepare_night(board: Board, actions: list[Action]) -> None:
    """(1) before the refusals: the curse is known at night start, so a new 血族 may 初拥 that night."""
    taught = None
    for a in actions:
        if a.skill == "教化" and a.targets and board.has(a.targets[0]) and a.members and board.has(a.members[0]):
            teacher = board.seat(a.members[0])
            if teacher.alive and teacher.role == "慰魂师" and board.seat(a.targets[0]).faction == "圣殿":
                taught = a.targets[0]
    curse(board, taught)
    board.state[CURSED] = True
