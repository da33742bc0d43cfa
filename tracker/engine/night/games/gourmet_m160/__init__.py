"""M160 孤独的美食家 (血染钟楼——邪灵附身): a night settled in the post's "游戏流程（行动顺序分前后）".

The first night walks "1.首夜行动顺序", every other night "4.其他夜" (the night file's ``[[steps]]``); each
log line carries the post's place, "(4.5) 药剂：…". Players act on the role they believe they have
(恶魔【附体】, 【迷失】), statuses change along the order (药剂 → 醉酒/清醒, 面具 → 表面阵营, 禁锢 →
爪牙 without skills), lethal damage becomes 死亡 — not 出局 — when the night ends, then 哥谭 turns
whoever had to act and did not into a 丑角, and the win check closes the night. The win check is
the ruleset's ``[[win]]`` (:mod:`tracker.engine.night.win`), at the night's start (a win the day
left — the 恶魔 voted out, settled at (4.1) — stops the night: "以上流程持续进行，直到一个阵营达成胜利条件"),
at 密谋, and at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.exits import bench
from tracker.engine.night.games import GameHooks
from tracker.engine.night.games.gourmet_m160 import info, kills, skills
from tracker.engine.night.games.gourmet_m160.order import DAWN_DIAGNOSIS, VOTES, steps
from tracker.engine.night.games.gourmet_m160.table import DEAD, Night, kept_skills, kind, names
from tracker.engine.night.model import Action, Table

STEPS: dict[str, Callable[[Night], None]] = {
    "窥天": skills.peek, "预告": skills.foretell, VOTES: skills.votes, "迷失": skills.lost,
    "禁锢": skills.jail, "抗议": skills.protest, "药剂": skills.potion, "自保": skills.coward,
    "彷徨": skills.wander, "面具": skills.mask, "明晰": skills.clarity, "诊断": info.diagnose,
    "密谋": skills.plot, "占卜": info.divine, "克隆": skills.clone, "访谈": info.interview,
    "游历": info.travel, "欺诈": skills.deceive, "守墓": info.graves, "拷问": info.torture,
    "愚者": kills.fool, "唆使": kills.incite, "洞悉": info.insight, "夺刀": kills.seize,
    "凶杀": kills.kill, "毒害": kills.poison_harm, "狂乱": kills.frenzy, "夺魂": kills.soul,
    "寻觅": info.seek, DAWN_DIAGNOSIS: info.diagnose_dawn,
}
GOTHAM = "【哥谭】：若一名【实际角色】不是【丑角】的玩家在需要操作的夜晚没有行动，则他会变成【丑角】（不影响原先的阵营及是否为恶魔）。"
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
        if seat.role == "幕后黑手" and len(action.targets) != 1:
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


def resolve(board: Board, actions: Sequence[Action]) -> None:
    """Walk the night's order, then the night's end: deaths, 守墓's answers, 神游, 哥谭, the 公示, the win.

    神游 is the order's last line but concerns the coming day ("若你存活，每个白天"), so it runs after the
    deaths; 密谋's win stops everything where it happens.
    """
    if board.night is None:
        board.note("本帖白天没有主动技能：投票导致的死亡与出局在下一夜第(4.1)步结算，神游见夜晚最后一步")
        day_exits(Night(board, []), actions, board.table.day or 0)  # the win check runs at the phase's end
        return
    for a in actions:
        if a.skill == "红牌罚下":
            red_card(board, a)
    night = Night(board, [a for a in actions if a.skill not in EXITS])
    night.exits = [a for a in actions if a.skill == "投票出局"]
    night.actions = _as_cloned(board, night, night.actions)
    order = steps(board.catalog, board.night)
    place = {name: i for i, (_, name) in enumerate(order)}
    for a in night.actions:
        night.step_of[a.index] = place.get(a.skill, len(order))
    alive_before = [p.name for p in board.living()]
    submitted = {m for a in actions for m in a.members} | {r.actor for r in board.result.rejected}
    for i, (num, name) in enumerate(order):
        if name == "神游":
            continue
        night.step, night.here = num, float(i)
        STEPS[name](night)
    voted = {t for a in night.exits for t in a.targets}  # 死亡 at (4.1): no night action was due
    alive_before = [p for p in alive_before if p not in voted]
    died = kills.deaths(night)
    info.graves_told(night, died)
    walk = next((num for num, name in order if name == "神游"), "")
    night.step = walk
    skills.dream_walk(night, [p.name for p in board.living()])
    skills.pointers_of_failed_clone(night)
    _gotham(night, alive_before, submitted)
    _morning(night, died)
    # the win check closes the night: [win_policy] checks_at "end" (the settlement runs it)


EXITS = ("投票出局", "红牌罚下")
RED_CARD = "被红牌罚下的角色自动进入挂机状态，并触发【哥谭】成为【丑角】。"


def red_card(board: Board, action: Action) -> None:
    """"被红牌罚下的角色自动进入挂机状态，并触发【哥谭】成为【丑角】": benched, and a 丑角."""
    target = bench(board, action, RED_CARD)
    seat = board.seat(target)
    if "丑角" not in seat.status:
        seat.status.append("丑角")
        board.result.state_after[f"{target}.status"] = list(seat.status)
        board.set_state("丑角", [*(board.state.get("丑角") or []), target])
        board.note(f"红牌罚下：{target}触发【哥谭】成为【丑角】")


def day_exits(night: Night, actions: Sequence[Action], day: int) -> None:
    """The day's exits in the shared words: the vote's 【死亡】 ("该玩家【死亡】", not 出局), a red card."""
    for a in actions:
        if a.skill == "红牌罚下":
            red_card(night.board, a)
    skills.vote_deaths(night, [a for a in actions if a.skill == "投票出局"], day)


def _needs_to_act(night: Night, name: str) -> bool:
    seat = night.seat(name)
    if seat.role == "丑角" or "丑角" in seat.status or seat.benched:
        return False
    if seat.role == "幕后黑手" and kind(seat) == "恶魔":
        return night.n > 1  # after 夺刀 he "发动凶杀时改为主动选择一人"
    role = night.believed(name)
    for s in night.board.catalog.skills_of(role):
        if s.phase not in ("night", "晨曦") or s.name in ("愚者", "凶杀"):
            continue
        if (s.not_first_night and night.n == 1) or (s.first_night_only and night.n != 1):
            continue
        if s.uses and seat.uses.get(s.uses, 1) in (0, False):
            continue
        return True
    return False


def _gotham(night: Night, alive_before: list[str], submitted: set[str]) -> None:
    """【哥谭】: a player who had to act tonight and did not becomes 丑角 (faction and 恶魔 unchanged)."""
    board = night.board
    idle = [p for p in alive_before if p not in submitted and _needs_to_act(night, p)]
    clowns = list(board.state.get("丑角") or [])
    if not idle:
        board.result.state_after["丑角"] = clowns
        board.note("哥谭：所有需要操作的存活玩家都已行动 → 无人成为丑角")
        return
    for p in idle:
        seat = board.seat(p)
        if "丑角" not in seat.status:
            seat.status.append("丑角")
        board.result.state_after[f"{p}.status"] = list(seat.status)
        clowns.append(p)
        board.later("哥谭：触发【哥谭】变成【丑角】的玩家固定判罚一张黄牌", p, f"第{night.n}天", GOTHAM)
    board.set_state("丑角", clowns)
    board.note(f"哥谭：{names(idle)}在需要操作的夜晚没有行动 → 变成丑角（不影响原先的阵营及是否为恶魔）")


def _morning(night: Night, died: list[str]) -> None:
    """The 公示: the previous day's 死亡/处决, the 出局 after a last vote, the night's 死亡 (in the order of
    settlement), never an identity ("均不公示其身份")."""
    board = night.board
    day = night.n - 1
    players = board.table.players.values()
    by_day = [p.name for p in players if isinstance(p.fields.get("死亡"), dict) and p.fields["死亡"].get("day") == day]
    out = [p.name for p in players if isinstance(p.fields.get("出局"), dict) and p.fields["出局"].get("day") == day]
    if night.n > 1:
        board.announce(f"前一天白天【死亡】及被【处决】的角色：{names(by_day)}")
        board.announce(f"失去最后一票的【出局】角色：{names(out)}")
    board.announce(f"夜晚【死亡】角色：{names(died)}" if died else "夜晚【死亡】角色：无（平安夜）", outs=True)
    board.set_state("存活", [p.name for p in players if p.alive])
    board.set_state("死亡未出局", [p.name for p in players if p.life == "死亡"])


HOOKS = GameHooks(
    resolve=resolve, refuse=refuse,
    why={
        "resolve": "游戏流程（行动顺序分前后）：醉酒/中毒使信息失真、附体与迷失按自以为的身份行动、死亡而非出局、"
                   "哥谭使未行动者成为丑角 —— 信息真假与身份认知随结算变化，效果词汇写不出",
        "refuse": "丑角、迷失、禁锢下的爪牙不能使用技能 —— 依赖当夜状态，键写不出",
    })
