"""What every phase of 213 shares: the strength ladder, taking a player out and its cascades, the win.

The post compares every harm with every defence on one ladder (用语定义·出局)::

    红牌罚下 > [不死] > [致死伤害] > [坚韧] > [穿透] > [守护] > [指杀]

so a harm is cancelled only by a defence ranked above it: [守护] stops [指杀] and nothing else,
[不死] (恶魔's <主宰黑夜>) stops everything but a red card. Deaths keep the skills that caused
them (:attr:`Ctx.causes`), because later effects read them: <报复> only after 投票/<杀人>/<报复>,
<殉道> effect 2 only after a 狼人阵营 skill, <村镇之殇> only after 投票 or a 村民阵营 skill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tracker.engine.night import effects, win, words
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.model import Action, Seat

#: The generic engine settling one submission of a data skill at a hook step (:meth:`.flow.Flow.settle`):
#: 投降, settled where the post takes it, among the red cards.
Settle = Callable[[Action, str], None]

LADDER = ("指杀", "守护", "穿透", "坚韧", "致死伤害", "不死", "红牌罚下")
#: The step of [win_policy] checks_at: "每次进行出局结算时，进行胜负判定".
OUT_SETTLED = "出局结算"
PURIFIED = "净化"
PACK_ROLES = frozenset({"狼人", "觉醒狼王", "恶魔"})

CLAUSE_LADDER = "伤害强度与防御状态的比较：红牌罚下>[不死]>[致死伤害]>[坚韧]>[穿透]>[守护]>[指杀]。"


@dataclass(frozen=True, slots=True)
class Hit:
    """One harm aimed at a player: its strength on the ladder, the skill, who used it, their side.

    ``faction`` is the user's 实际阵营 (what <主宰黑夜> and <殉道> read); ``judged`` is the side
    a 以实际阵营判断 skill of the 村民 takes them for (隐狼 with <伪装>（4） counts as 村民).
    """

    strength: str
    skill: str
    actor: str
    faction: str
    judged: str

    @property
    def text(self) -> str:
        if self.strength in LADDER:
            return f"{self.skill}（{self.actor}），[{self.strength}]"
        return self.skill


@dataclass(slots=True)
class Ctx:
    """What one settlement has learnt so far (who went out of what), beside the board itself."""

    phase: str                                   # night | 晨曦 | 正午 | 黄昏
    causes: dict[str, list[Hit]] = field(default_factory=dict)
    died: list[str] = field(default_factory=list)
    noon_out: list[str] = field(default_factory=list)
    voted: list[str] = field(default_factory=list)
    red: set[str] = field(default_factory=set)
    guards: dict[str, str] = field(default_factory=dict)
    last_words: list[str] = field(default_factory=list)
    vote_void: bool = False
    offered: set[str] = field(default_factory=set)


# -- reading a seat ------------------------------------------------------------------------------
def purified(seat: Seat) -> bool:
    """[净化]: "该状态下不能发动任何技能，[强制]技能也会失效"."""
    return PURIFIED in seat.status


def disguises(seat: Seat) -> list[dict[str, Any]]:
    raw = seat.fields.get("伪装")
    return [d for d in raw if isinstance(d, dict)] if isinstance(raw, list) else []


def chose(seat: Seat, option: int) -> bool:
    return any(d.get("option") == option for d in disguises(seat))


def surface_faction(seat: Seat) -> str:
    """[表面阵营]: the actual one unless <伪装>（2） set another."""
    for d in reversed(disguises(seat)):
        if d.get("option") == 2 and d.get("表面阵营"):
            return str(d["表面阵营"]).removesuffix("阵营")
    return seat.faction


def surface_role(seat: Seat) -> str:
    """[表面身份]: the actual role unless <伪装>（2） set another."""
    for d in reversed(disguises(seat)):
        if d.get("option") == 2 and d.get("表面身份"):
            return str(d["表面身份"])
    return seat.role


def surface(seat: Seat) -> tuple[str, str]:
    """What 预言 (表面阵营), 通灵 and 恶魔之眼 (表面身份) see: the generic ``inspect`` reads it here."""
    return surface_faction(seat), surface_role(seat)


def in_pack(seat: Seat) -> bool:
    """[群内]: marked on the role (狼人、觉醒狼王、恶魔[群内]), so a table that lists no tags still knows it."""
    return "群内" in seat.tags or seat.role in PACK_ROLES


def knife_heir_mark(seat: Seat) -> bool:
    """[接刀]: 石像鬼 by role, 隐狼 once <伪装>（1） gave the tag."""
    return "接刀" in seat.tags or seat.role == "石像鬼"


def pack_alive(players: Iterable[Seat]) -> bool:
    return any(p.alive and in_pack(p) for p in players)


def heirs_in_order(players: Sequence[Seat]) -> list[Seat]:
    """The living [接刀] players in 接刀 order: 石像鬼 first, then 隐狼 (接刀顺序为石像鬼出局后)."""
    found = [(i, p) for i, p in enumerate(players) if p.alive and knife_heir_mark(p)]
    return [p for _, p in sorted(found, key=lambda ip: (ip[1].role != "石像鬼", ip[0]))]


def judged_faction(seat: Seat) -> str:
    """The side a 村民 skill that judges by [实际阵营] sees: <伪装>（4） makes 隐狼 村民 there."""
    return "村民" if seat.role == "隐狼" and chose(seat, 4) else seat.faction


def judged(board: Board, seat: Seat, skill: Skill) -> str:
    """伪装（4） for the generic engine (``GameHooks.judged``): a skill of the 村民阵营 (its roles', as the ruleset has
    them) judging by 实际阵营 takes 隐狼 for 村民 — <村镇之殇>'s "因……[实际阵营]为村民阵营的角色的技能出局" and "所有
    [实际阵营]为村民阵营的角色"."""
    roles = [board.ruleset.role(r) if board.ruleset is not None else None for r in skill.roles]
    villagers = bool(roles) and all(r is not None and r.faction == "村民" for r in roles)
    return judged_faction(seat) if villagers else seat.faction


def elevator(board: Board, name: str) -> int:
    """The 电梯楼 rank (公示出局名单时按出局角色的电梯楼顺序排序); roster order if not given."""
    value = board.seat(name).fields.get("elevator")
    if isinstance(value, int):
        return value
    return 1000 + list(board.table.players).index(name)


def names(players: Iterable[str]) -> str:
    return "、".join(players) or "无"


def hit_by(board: Board, action: Action, strength: str, actor_text: str | None = None) -> Hit:
    """The harm of an action, with its users' side (a team's side is its members')."""
    return harm(board, action.members, strength, action.skill, actor_text or (action.team or action.actor))


def harm(board: Board, members: Sequence[str], strength: str, skill: str, actor: str) -> Hit:
    """A harm by ``members`` (``actor`` as the cause names them), with their side."""
    seats = [board.seat(m) for m in members if board.has(m)]
    faction = seats[0].faction if seats else "狼人"
    judged = "村民" if seats and all(judged_faction(s) == "村民" for s in seats) else faction
    return Hit(strength, skill, actor, faction, judged)


# -- harm against defence -------------------------------------------------------------------------
def _defence(board: Board, ctx: Ctx, seat: Seat, hit: Hit) -> str | None:
    """The defence that cancels ``hit`` on ``seat`` (and is spent, for 长寿之命), or None: first what the
    player holds by himself (a ``standing`` protect of the night file: 主宰黑夜's [不死]), then [守护], then
    a standing protect spent by use (``once``: 长寿之命's [守护], "抵消一次指杀后即失效")."""
    strength = LADDER.index(hit.strength)
    held = effects.standing(board, seat, hit.skill, strength, hit.faction, ctx.phase)
    guard = ctx.guards.get(seat.name) if held is None and hit.strength == "指杀" else None
    if guard is not None:
        return f"{guard}：[守护]>[指杀]"
    held = held or effects.standing(board, seat, hit.skill, strength, hit.faction, ctx.phase, once=True)
    if held is None:
        return None
    effects.spend(board, seat, held[1])
    spent = f"（{held[1].clause}）" if held[1].once else ""
    return f"{seat.role}<{held[0].name}>：[{LADDER[held[1].strength]}]>[{hit.strength}]{spent}"


def strike(board: Board, ctx: Ctx, target: str, hits: Sequence[Hit], step: str) -> bool:
    """Settle every harm aimed at ``target`` at once; True if the target went out.

    A target dies when any harm is left uncancelled. A 中箭勇者 whom only harms other than
    [指杀] and 投票 would take out stays in (<坚强>: a ``delays`` standing protect of the night file),
    and goes out at the next discussion day.
    """
    seat = board.seat(target)
    if not seat.alive:
        board.note(f"{step} {target}已出局，{names(h.text for h in hits)}不再生效")
        return False
    saved: list[str] = []
    passed: list[Hit] = []
    for h in hits:
        why = _defence(board, ctx, seat, h)
        if why is None:
            passed.append(h)
        elif why not in saved:
            saved.append(why)
    if not passed:
        board.survive(target, "；".join(saved))
        return False
    put_off = [effects.standing(board, seat, h.skill, LADDER.index(h.strength), h.faction, ctx.phase, delays=True)
               if h.strength in LADDER else None for h in passed]
    first = put_off[0]
    if first is not None and all(put_off):  # every harm left is one 坚强 puts off (因指杀、投票之外的方式)
        effects.delay(board, seat, *first, f"{seat.role}<{first[0].name}>：因{names(h.text for h in passed)}即将出局，"
                                           f"改为{first[1].when}出局")
        return False
    out(board, ctx, target, passed, step)
    return True


def has_last_words(board: Board, ctx: Ctx, seat: Seat, red: bool) -> bool:
    """首夜出局和白天出局的角色以及非因红牌罚下出局的牧首可以留下遗言 — the 牧首's is <绝笔>, a ``last_words`` skill of
    the night file (:func:`tracker.engine.night.words.last_words`), after the red card's "没有遗言权利"."""
    if red:
        return False
    if words.last_words(board.catalog, seat) is not None:
        return True
    if ctx.phase in ("正午", "黄昏"):
        return True
    if ctx.phase == "晨曦" and board.night is None:
        # day N's 晨曦 follows night N ("直到第二天开门前"): after the first night it is still 首夜,
        # whether it is settled with the night or on its own at the desk
        return board.table.day == 1
    return board.night == 1


def out(board: Board, ctx: Ctx, player: str, causes: Sequence[Hit], step: str, *, red: bool = False) -> None:
    """Take ``player`` out for ``causes``, notify them, then the post's cascades and the record."""
    seat = board.seat(player)
    lw = has_last_words(board, ctx, seat, red)
    board.note(f"{step} {player}（{seat.role}）出局")
    cause = "；".join(h.text for h in causes)
    if seat.alive and board.spared(seat, cause) is None:  # told as he goes out, before what his exit sets off at once
        board.tell(player, notice(lw))  # (村镇之殇's [净化], the night file's trigger)
    if not board.kill(player, cause):
        return
    recorded(board, ctx, player, causes, lw=lw, red=red)


def notice(lw: bool) -> str:
    return f"出局通知（{'有' if lw else '无'}遗言）"


def settle_out(board: Board, ctx: Ctx, settle: Settle, action: Action, step: str) -> None:
    """A data skill that takes players out (213 投票, 坚强出局: a ``kill``; 红牌: a ``send_off``, no 遗言), handed to the generic engine where the post
    settles it (``settle``: :meth:`.flow.Flow.settle`); each exit it makes is told as it happens — before what the exit
    sets off at once (村镇之殇's [净化]), as :func:`out` tells its own — then recorded as :func:`out` records its own,
    so the 遗言 list, <报复>, <殉道> and the next settlements read them alike."""
    before = len(board.result.deaths)
    red = any(e.kind == "send_off" for e in board.skill(action.skill).effects)  # "红牌罚下出局的角色没有遗言权利"

    def told(b: Board, seat: Seat, cause: str) -> None:
        b.tell(seat.name, notice(has_last_words(b, ctx, seat, red)))

    board.on_death.insert(0, told)
    try:
        settle(action, step)
    finally:
        board.on_death.remove(told)
    for d in board.result.deaths[before:]:  # the cause by its skill's name (红牌（导演），[红牌罚下] → 红牌)
        recorded(board, ctx, d.player, [Hit(d.cause, d.cause.split("（", 1)[0], "", "", "")],
                 lw=has_last_words(board, ctx, board.seat(d.player), red), red=red)


def recorded(board: Board, ctx: Ctx, player: str, causes: Sequence[Hit], *, lw: bool, red: bool = False) -> None:
    """What this settlement and the table keep of an exit: its causes, the 出局 field, the 遗言 list, the 接刀 notice."""
    seat = board.seat(player)
    ctx.died.append(player)
    ctx.causes[player] = list(causes)
    if red:
        ctx.red.add(player)
    when: dict[str, Any] = {"night": board.night} if board.night is not None else {"day": board.table.day}
    when["cause"] = causes[0].skill
    seat.fields["出局"] = when
    board.result.state_after[f"{player}.出局"] = when
    if lw:
        ctx.last_words.append(player)
    if in_pack(seat) and not pack_alive(board.table.players.values()):
        heir = knife_heir(board)
        if heir is not None:
            board.later("接刀", heir.name, "下一个<杀人>可以发动的时机通知",
                        "所有[群内]狼出局时，[接刀]的角色获得<杀人>技能并可使用。角色接刀将在<杀人>可以发动的时机得到通知。")
            board.note(f"所有[群内]狼已出局：{heir.name}（{heir.role}）[接刀]，将在<杀人>可以发动的时机得到通知")


def knife_heir(board: Board) -> Seat | None:
    """The [接刀] player who holds <杀人> once no [群内] wolf is left: 石像鬼 first, then 隐狼."""
    heirs = heirs_in_order(list(board.table.players.values()))
    return heirs[0] if heirs else None


def sort_out(board: Board, ctx: Ctx) -> None:
    """公示出局名单时按出局角色的电梯楼顺序排序 — a day lists 投票出局 apart, and noon outs as they came."""
    announced = [p for p in board.result.out_order]
    noon = [p for p in ctx.noon_out if p in announced]
    voted = [p for p in ctx.voted if p in announced and p not in noon]
    rest = sorted((p for p in announced if p not in noon and p not in voted), key=lambda p: elevator(board, p))
    board.result.out_order[:] = noon + voted + rest


def check_win(board: Board, ctx: Ctx) -> None:
    """胜利条件 "每次进行出局结算时，进行胜负判定": the ruleset's ``[[win]]`` by the one win check
    (the step ``出局结算`` of ``[win_policy] checks_at``; a win stops settlement, ``stops``). The out
    list is put in the announced order first, since settlement may end here."""
    sort_out(board, ctx)
    win.check(board, OUT_SETTLED)
