"""A day of 213: 正午 (<决斗>, the 中箭勇者's delayed exit, red cards), then 黄昏 (总体流程 2 (1)–(5)).

A day scenario may hold both: 正午 actions settle first, and a successful <决斗> voids 当天所进行的
放逐投票 at 黄昏. A scenario that starts at 晨曦 is the night file's 晨曦 steps (the night's own, see
:mod:`.night`), not this module's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.engine.night.board import Board, latest
from tracker.engine.night.games.sanguo_213 import heirs
from tracker.engine.night.games.sanguo_213.core import (
    Ctx,
    Settle,
    check_win,
    hit_by,
    judged_faction,
    names,
    settle_out,
    sort_out,
    strike,
)
from tracker.engine.night.model import Action

DUSK = ("黄昏", "关门")
WAIT_DUSK = "黄昏（出局后下一个可发动技能的时间点）"


def day_phase(a: Action, table_phase: str | None) -> str:
    """The day phase a submission settles in: its own, else the table's, else 正午 — but the day's
    exile written in the shared words (phase 白天 or none) is the vote of 黄昏 ("黄昏阶段……（1）结算被
    [投票出局]的角色")."""
    phase = a.phase if a.phase not in (None, "day") else None
    if phase is None and a.skill == "投票" and table_phase in (None, "day"):
        return "黄昏"
    return phase or table_phase or "正午"


def _phase(board: Board, a: Action) -> str:
    return day_phase(a, board.table.phase)


#: The night file's ``next_point`` triggers at a point of the day (:meth:`.flow.Flow.points`): where, the
#: submissions kept, and (not reached in this settlement) when they wait for.
Point = Callable[..., None]


def resolve_day(board: Board, actions: Sequence[Action], point: Point, settle: Settle) -> None:
    """正午 then 黄昏; ``point`` settles the data triggers (<殉职>) at 黄昏(4), their point after the day; ``settle``
    a data skill where it is submitted (投降, 坚强出局) or where the post takes it (<亲传> at 黄昏(4))."""
    ctx = Ctx("正午")
    start = board.table.phase or "正午"
    noon = [a for a in actions if _phase(board, a) == "正午"]
    dusk = [a for a in actions if _phase(board, a) in DUSK]
    for a in noon:
        if a.skill == "红牌":  # data (a ``send_off``)
            settle_out(board, ctx, settle, a, "正午")
            ctx.noon_out.extend(p for p in ctx.died if p not in ctx.noon_out)
            check_win(board, ctx)
        elif a.skill == "投降":
            settle(a, "正午")
        elif a.skill == "决斗":
            knight = board.seat(a.actor)
            if not knight.alive or knight.fields.get("已翻牌"):
                board.reject(a, "骑士的实际身份已经公开，无法发动[翻牌]技能<决斗>", board.skill("决斗").clause)
                continue
            duel(board, ctx, a)
        elif a.skill == "坚强出局":  # data (a ``kill``): the generic engine takes him out, recorded as the hook's own
            t = a.targets[0]
            settle_out(board, ctx, settle, a, "正午")
            if t in ctx.died and t not in ctx.noon_out:
                ctx.noon_out.append(t)
            check_win(board, ctx)
    if ctx.noon_out and not dusk:
        point("正午", [], pending=WAIT_DUSK)
        for p in ctx.noon_out:
            if "牧首" in board.seat(p).tags:
                board.later("殉道", p, WAIT_DUSK)
    if dusk or start in DUSK:
        dusk_phase(board, ctx, dusk, point, settle)
    else:
        sort_out(board, ctx)


def duel(board: Board, ctx: Ctx, act: Action) -> None:
    """<决斗>[翻牌]: the knight shows his card; a wolf takes [穿透] and the day's vote is void,
    a villager (by 实际阵营) costs the knight a [致死伤害]."""
    knight = board.seat(act.actor)
    t = act.targets[0]
    knight.fields["已翻牌"] = True
    board.result.state_after[f"{knight.name}.已翻牌"] = True
    board.announce(f"{knight.name}翻牌：骑士，发动<决斗>，指定{t}")
    before = list(ctx.died)
    if judged_faction(board.seat(t)) == "狼人":
        board.note(f"正午 骑士{knight.name}<决斗>{t}：实际阵营为狼人阵营 → 对其造成[穿透]，当天所进行的放逐投票无效")
        ctx.vote_void = True
        board.set_state("放逐投票无效", board.table.day)  # read at 黄昏 when it settles on its own
        board.announce("当天所进行的放逐投票无效")
        strike(board, ctx, t, [hit_by(board, act, "穿透", knight.name)], "正午")
    else:
        board.note(f"正午 骑士{knight.name}<决斗>{t}：实际阵营为村民阵营 → 骑士受到[致死伤害]")
        strike(board, ctx, knight.name, [hit_by(board, act, "致死伤害", knight.name)], "正午")
    ctx.noon_out.extend(p for p in ctx.died if p not in before)
    if len(ctx.died) > len(before):
        check_win(board, ctx)


def dusk_phase(board: Board, ctx: Ctx, acts: Sequence[Action], point: Point, settle: Settle) -> None:
    """黄昏 (1)–(5); a red card at the day's end is settled before the vote."""
    ctx.phase = "黄昏"
    for a in acts:
        if a.skill == "红牌":
            settle_out(board, ctx, settle, a, "黄昏(1)前")
            check_win(board, ctx)
        elif a.skill == "投降":
            settle(a, "黄昏(1)前")
    vote = latest(acts, "投票")
    if board.state.get("放逐投票无效") == board.table.day:
        ctx.vote_void = True  # a 决斗 at this day's 正午, settled before 黄昏 (tracker confirm after it)
    if vote is not None and ctx.vote_void:
        board.note("黄昏(1) 当天所进行的放逐投票无效（骑士<决斗>），无人因投票出局")
    elif vote is not None and vote.targets:  # data (a ``kill``): "放逐投票票数最高的角色如只有一个，则其出局"
        ctx.voted.append(vote.targets[0])  # 黄昏(3) lists the vote's apart
        settle_out(board, ctx, settle, vote, "黄昏(1)")
        check_win(board, ctx)
    elif vote is not None:
        board.note("黄昏(1) 放逐投票平票（或无人得票最高），无人出局")
    for a in acts:
        if a.skill == "坚强出局":
            settle_out(board, ctx, settle, a, "黄昏")
            check_win(board, ctx)
    heirs.revenge(board, ctx, acts, "黄昏(2)")
    voted = [p for p in ctx.voted if p in ctx.died]
    others = [p for p in ctx.died if p not in voted and p not in ctx.noon_out]
    sort_out(board, ctx)
    board.announce(f"投票出局：{names(voted)}")
    board.announce(f"其他原因出局：{names(p for p in board.result.out_order if p in others)}", outs=True)
    board.note("黄昏(3) 公示投票出局和其他原因出局的角色，分开列出")
    for a in acts:  # <亲传> is data (give_uses): the generic engine settles each submission where the post takes it
        if a.skill == "亲传":
            settle(a, "黄昏(4)")
    point("黄昏(4)", acts)
    heirs.successions(board, ctx, acts, "黄昏(4)")
    heirs.last_words(board, ctx, "黄昏(5)")
