"""M160 孤独的美食家 (血染钟楼——邪灵附身): the lines of the post's "游戏流程（行动顺序分前后）" data cannot say.

The generic engine (:mod:`tracker.engine.night.flow`) walks the night file's ``[[steps]]``: the first
night "1.首夜行动顺序", every other night "4.其他夜", the day "3.投票结算"; each log line carries the
post's place, "(4.5) 药剂：…". A step written ``hook`` is settled here, on one :class:`~.table.Night`
the opening step builds (``flow.game``): players act on the role they believe they have (恶魔【附体】,
【迷失】), statuses change along the order (药剂 → 醉酒/清醒, 面具 → 表面阵营, 禁锢 → 爪牙 without
skills), lethal damage becomes 死亡 — not 出局 — at the step "夜晚结束", then 神游, the night file's
哥谭 (whoever had to act and did not becomes a 丑角), and at "天亮" the 公示. The win check is the
ruleset's ``[[win]]`` (:mod:`tracker.engine.night.win`), at the night's start (a win the day left —
the 恶魔 voted out, settled at (4.1) — stops the night: "以上流程持续进行，直到一个阵营达成胜利条件"),
at 密谋, and at its end. ``HOOKED`` says per skill which clause keeps it in code and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board
from tracker.engine.night.games import GameHooks, StepHook
from tracker.engine.night.games.gourmet_m160 import info, kills, skills
from tracker.engine.night.games.gourmet_m160.order import VOTES, steps
from tracker.engine.night.games.gourmet_m160.table import DEAD, Night, kept_skills, kind, names, surface_now
from tracker.engine.night.model import Action, Table

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Step
    from tracker.engine.night.flow import Flow

CLOWN_NIGHT = "【愚者】：你在夜晚不能进行任何操作，但每个夜晚*，你可以尝试操作两个玩家。"


def refuse(table: Table, action: Action) -> str | None:
    """Refusals only this post states: a 丑角 acts only through 愚者, the 迷失 村民 cannot use his own
    skill, the dead lose their skills (a 爪牙 killed by 缚魂灵 keeps them), 凶杀 is the 恶魔's."""
    actor = action.members[0] if action.members else ""
    seat = table.players.get(actor)
    if seat is None:
        return None
    clown = seat.role == "丑角" or "丑角" in seat.status or seat.fields.get("believes") == "丑角"
    if action.skill == "愚者" and not clown:
        return f"{actor}不是丑角，没有<愚者>"
    if clown and action.skill not in ("愚者",) and table.night is not None:
        return f"丑角在夜晚不能进行任何操作（{CLOWN_NIGHT}）"
    lost = table.state.get("迷失")
    if isinstance(lost, dict) and lost.get("村民") == actor and not lost.get("寻回") \
            and action.skill != "寻觅" and action.skill != "愚者":
        return "迷失：这名村民不能使用他的技能"
    if not seat.alive and not kept_skills(seat):
        return f"{actor}已{seat.life or '出局'}，失去技能（{DEAD[:40]}…）"
    if action.skill == "凶杀":
        if kind(seat) != "恶魔":
            return f"{actor}不是恶魔，没有<凶杀>（幕后黑手须先<夺刀>）"
        if seat.role == "幕后黑手" and len(action.targets) > 1:  # none: the generic refusal
            return "夺刀后的幕后黑手发动凶杀时改为主动选择一人"
    if action.skill == "夺刀" and action.choice not in (None, "夺刀", "不夺刀"):
        return "<夺刀>的 choice 写“夺刀”或“不夺刀”"
    return None


def _as_cloned(board: Board, night: Night, actions: list[Action]) -> list[Action]:
    """② a successful 模仿者 hands in 1–4 指向: the first X settle as the cloned role's skill."""
    out: list[Action] = []
    for a in actions:
        seat = board.seat(a.members[0]) if a.members and board.has(a.members[0]) else None
        if a.skill != "指向" or seat is None or seat.role == "模仿者" or night.is_demon(seat.name):
            out.append(a)
            continue
        own = [s for s in board.catalog.skills_of(seat.role)
               if s.phase in ("night", "晨曦") and s.name not in ("愚者", "凶杀")]
        if not own:
            board.note(f"模仿者{a.actor}：克隆的{seat.role}没有需要指向的夜晚技能")
            continue
        sk = own[0]
        if len(a.targets) < max(sk.min_targets, 1):
            board.note(f"模仿者{a.actor}：提供的指向少于{sk.min_targets} → 技能发动失效")
            continue
        x = min(len(a.targets), sk.max_targets)
        board.note(f"模仿者{a.actor}：按克隆的{seat.role}<{sk.name}>结算前{x}个指向")
        out.append(Action(a.actor, sk.name, a.targets[:x], a.choice, a.phase, a.note, a.index))
    return out


KEY = "gourmet-m160"


def _night(flow: Flow) -> Night:
    night = flow.game[KEY]
    assert isinstance(night, Night)
    return night


def _open(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """The night's start (a red card has benched at the step before): the players act on the role they believe, a cloned
    模仿者's 指向 become the cloned role's skill; every submission of a hook step is this package's
    to settle, those of the data steps (禁锢, 抗议, 药剂, 克隆, 自保, 彷徨, 面具, 明晰, 欺诈, 寻觅 — but the 迷失 村民's) the generic engine's."""
    board = flow.board
    actions = flow.actions
    night = Night(board, [a for a in actions if a.skill not in EXITS], pool=flow.pool)
    night.actions = _as_cloned(board, night, night.actions)
    cloned = {a.index: a for a in night.actions}
    flow.actions = [cloned.get(a.index, a) for a in actions]  # the generic steps settle a clone's 指向 too
    night.order = [s for s in board.catalog.steps if s.runs(board.night, "night")]
    data = {name for s in night.order if s.hook is None for name in s.skills}
    # the 迷失 村民's 寻觅 is no skill he has: the hook step after the data one answers him (info.lost_seek)
    flow.done.update(a.index for a in flow.actions if a.skill not in data or info.believed_only(board, a))
    place = {name: i for i, (_, name) in enumerate(steps(board.catalog, board.night))}
    for a in night.actions:
        night.step_of[a.index] = place.get(a.skill, len(place))
    flow.game[KEY] = night


def _line(settle: Callable[[Night], None]) -> StepHook:
    """One line of the post's order, settled at its place (``night.step`` is its number in the log)."""

    def hook(flow: Flow, step: Step, _: Sequence[Action]) -> None:
        night = _night(flow)
        if step.n:
            night.step = step.n
        night.here = float(next(i for i, s in enumerate(night.order) if s is step))
        settle(night)

    return hook


def _choices(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """(4.22) who the 恶魔 chose, handed to the night file's 【凶杀】 step that follows (:func:`.kills.choices`)."""
    night = _night(flow)
    night.step = step.n or night.step
    kills.choices(flow, night)


def _close(night: Night) -> None:
    """致死伤害 turns into 死亡 at the night's end (守墓's answers follow: the night file's feedback step)."""
    night.died = kills.deaths(night)


def _dawn(night: Night) -> None:
    """After 哥谭 (the night file's step before: a player who had to act and did not is a 丑角 by now), the 公示."""
    _morning(night, night.died)
    # the win check closes the night: [win_policy] checks_at "end" (the settlement runs it)


def _day(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """After 3.投票结算 (the vote's 死亡 is the data step before; a red card benched at the first): the post
    has no other day skill, so nothing else a day scenario submits is settled."""
    flow.done.update(a.index for a in flow.actions)
    flow.board.note("本帖白天没有别的主动技能：投票导致的死亡在此结算，死亡玩家投票后的出局在下一夜第(4.1)步列出，神游见夜晚最后一步")


EXITS = ("投票出局", "红牌罚下")


def _morning(night: Night, died: list[str]) -> None:
    """The 公示: the previous day's 死亡/处决, the 出局 after a last vote, the night's 死亡 (in the order of
    settlement), never an identity ("均不公示其身份")."""
    board = night.board
    day = board.catalog.day_before(night.n)
    players = board.table.players.values()
    by_day = [p.name for p in players if isinstance(p.fields.get("死亡"), dict) and p.fields["死亡"].get("day") == day]
    out = [p.name for p in players if isinstance(p.fields.get("出局"), dict) and p.fields["出局"].get("day") == day]
    if night.n > 1:
        board.announce(f"前一天白天【死亡】及被【处决】的角色：{names(by_day)}")
        board.announce(f"失去最后一票的【出局】角色：{names(out)}")
    board.announce(f"夜晚【死亡】角色：{names(died)}" if died else "夜晚【死亡】角色：无（平安夜）", outs=True)
    board.set_state("存活", [p.name for p in players if p.alive])
    board.set_state("死亡未出局", [p.name for p in players if p.life == "死亡"])


#: The lines of the post's order the package settles, by the name the night file's step gives (``hook``).
LINES: dict[str, Callable[[Night], None]] = {
    VOTES: skills.votes, "迷失": skills.lost,
    "愚者": kills.fool, "夺魂": kills.soul,
    "迷失的寻觅": info.lost_seek,
    "夜晚结束": _close, "指向反馈": skills.pointers_of_failed_clone, "天亮": _dawn,
}
_BELIEF = "恶魔【附体】与【迷失】的村民按自认的身份提交 —— "
#: Per skill: the clause that keeps it in code, and why data cannot say it (the README's table).
HOOKED = {
    "指向": "克隆成功后按克隆的身份结算前 X 个指向 —— 提交随克隆结果换成另一个技能",
    "愚者": "【愚者】：丑角在夜晚不能进行任何操作，只尝试操作两个玩家；恶魔丑角的杀害随机 —— 依是否恶魔、醉酒的分支",
    "迷失": "【迷失】：煤气灯人因处决或投票死亡时这名村民寻回技能 —— 依死亡原因恢复另一人的技能；"
            "这名村民自以为是煤气灯人而提交的寻觅不是他的技能，导演给他答复",
    "附体": "【附体】：认为自己是[]内的身份并拥有他的技能；被他选择的玩家中一名被杀害 —— " + _BELIEF + "凶杀读这些目标",
    "夺魂": "【夺魂】：可以杀害爪牙，被杀害的爪牙保留技能并得知你是谁 —— 改变凶杀的合格目标与死亡后的技能",
}

_WHY_LINE = ("游戏流程（行动顺序分前后）的一行：醉酒/中毒使信息失真、附体与迷失按自以为的身份行动、死亡而非出局 —— "
             "信息真假与身份认知随结算变化，效果词汇写不出（各技能的原因见 HOOKED）")
HOOKS = GameHooks(
    steps={"夜晚开始": _open, **{name: _line(f) for name, f in LINES.items()}, "凶杀的选择": _choices, "白天": _day},
    refuse=refuse, hooked=HOOKED, surface_now=surface_now,
    why={
        "夜晚开始": "按自认的身份行动、克隆成功者的指向换成克隆身份的技能 —— 改写提交本身",
        "白天": "3.投票结算之后：本帖白天没有别的主动技能 —— 其余提交不结算",
        "夜晚结束": "致死伤害在夜晚结束时【死亡】（不是出局），自保、清醒（免受恶魔侵害），彷徨的替死（数据：cover 的 stands_in，问导演）—— 三态的存活",
        "迷失的寻觅": "【迷失】的村民认为自己是煤气灯人：他提交的寻觅不是他的技能，导演给他答复 —— 读他的实际身份",
        "天亮": "白天开始时的公示名单：前一天白天的死亡、最后一票后的出局、夜晚的死亡（按结算的先后）—— 读各玩家记下的死亡与出局",
        "凶杀的选择": "【附体】“你认为你是一名[]内的对应身份……一名被你选择的……玩家会被你杀害”：恶魔按自认身份的技能选择的玩家、"
                  "丑角恶魔的随机杀害或尝试操作（愚者）、夺刀者主动选择的一人，交给数据的【凶杀】；告死邪魔能唆使时不交 —— "
                  "读别的技能的提交与今晚能否唆使",
        **{name: _WHY_LINE for name in LINES if name not in ("夜晚结束", "天亮", "迷失的寻觅")},
        "refuse": "丑角、迷失、禁锢下的爪牙不能使用技能 —— 依赖当夜状态，键写不出",
        "surface_now": "【表面阵营】是玩家的类型（恶魔/爪牙/村民/外来者），今晚的面具、明晰、寻觅改变它；表面身份是自认的身份 —— "
                       "附体与迷失的自认身份、三种今晚状态的先后，键写不出（欺诈、自保读它）",
    })
