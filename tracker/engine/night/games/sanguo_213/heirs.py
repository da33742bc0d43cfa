"""After deaths, at 晨曦 and at 黄昏: <报复> chains, <殉道>, 遗言 (<殉职> is data: a ``next_point`` trigger; <亲传> a
``give_uses`` effect the day's hook step hands to the generic engine at 黄昏(4)).

These skills act "出局后的下一个可发动技能的时点": the 晨曦 after a night, the 黄昏 after a day.
A player qualifies when they went out in this settlement, or (a scenario that starts at 晨曦 or
黄昏) when the 出局 field says they went out at the point just before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.games.sanguo_213.core import (
    Ctx,
    check_win,
    hit_by,
    names,
    purified,
    strike,
)
from tracker.engine.night.model import Action, Seat

REVENGE_CAUSES = ("投票", "杀人", "报复")
#: Player field: the target of the <报复> a player out already fired ("出局后的下一个可发动技能的时点，
#: 可以选择任意1名角色"): one per exit, so a later settlement of the same point neither offers nor takes another.
REVENGED = "报复已发动"
WOLF_SKILLS_NOTE = "仅当因狼人阵营技能出局时可选"


def just_out(board: Board, ctx: Ctx, name: str) -> list[str] | None:
    """The skills that took ``name`` out at the point just before now, or None if not then."""
    if name in ctx.causes:
        return [h.skill for h in ctx.causes[name]]
    seat = board.seat(name)
    when = seat.fields.get("出局")
    if seat.alive or not isinstance(when, dict) or board.night is not None:
        return None
    day = board.table.day
    if (ctx.phase == "晨曦" and when.get("night") == day) or (ctx.phase == "黄昏" and when.get("day") == day):
        cause = when.get("cause")
        return [str(cause)] if cause else []
    return None


def _was_red(board: Board, ctx: Ctx, name: str) -> bool:
    return name in ctx.red or "红牌" in (just_out(board, ctx, name) or [])


def revenge(board: Board, ctx: Ctx, actions: Sequence[Action], step: str) -> None:
    """<报复> in the post's words: "若自己因投票、<杀人>、<报复>出局 … 对其造成[致死伤害]".

    Those it takes out are told at once and may themselves <报复> in the same phase, so the
    submissions are taken in rounds until none becomes possible; what is left is refused.
    """
    last = {a.members[0]: a for a in actions if a.skill == "报复"}  # a resubmission replaces
    for a in actions:
        if a.skill == "报复" and last[a.members[0]] is not a:
            board.note(f"{step} {a.actor}的<报复>（{names(a.targets)}）已被其后的提交取代")
    waiting = list(last.values())
    progress = True
    while progress:
        progress = False
        _offer(board, ctx)
        for a in list(waiting):
            actor = a.members[0]
            causes = just_out(board, ctx, actor)
            if causes is None or not any(c in REVENGE_CAUSES for c in causes):
                continue
            waiting.remove(a)
            progress = True
            _fire(board, ctx, a, step)
    for a in waiting:
        actor = a.members[0]
        seat = board.seat(actor)
        causes = just_out(board, ctx, actor)
        if seat.alive:
            why = f"{actor}未出局；<报复>在自己出局后才可以发动"
        elif causes is None:
            why = f"{actor}出局后的下一个可发动技能的时点已过"
        else:
            why = f"{seat.role}因{names(f'<{c}>' for c in causes)}出局；<报复>只在因投票、<杀人>、<报复>出局时可以发动"
        board.note(f"{step} {actor}<报复>不能发动")
        board.reject(a, why, board.skill("报复").clause)


def _offer(board: Board, ctx: Ctx) -> None:
    """Tell each player who may now <报复> (with the uses left, 该技能的持有者在可发动技能时会得知剩余次数)."""
    for seat in board.table.players.values():
        if seat.alive or seat.name in ctx.offered or purified(seat):
            continue
        if seat.role not in ("猎人", "觉醒狼王") and "报复" not in seat.uses:
            continue
        causes = just_out(board, ctx, seat.name)
        if causes is None or not any(c in REVENGE_CAUSES for c in causes):
            continue
        left = seat.uses.get("报复")
        if isinstance(left, int) and not isinstance(left, bool) and left <= 0:
            continue
        if seat.fields.get(REVENGED):  # one exit, one <报复>: answered already (an earlier settlement)
            continue
        ctx.offered.add(seat.name)
        counted = isinstance(left, int) and not isinstance(left, bool) and seat.role != "猎人"
        count = f"（剩余{left}次）" if counted else ""
        board.tell(seat.name, f"报复：你可以发动<报复>{count}")


def _fire(board: Board, ctx: Ctx, action: Action, step: str) -> None:
    seat = board.seat(action.members[0])
    target = action.targets[0]
    if purified(seat):
        board.reject(action, f"{seat.name}处于[净化]状态，不能发动任何技能", board.skill("报复").clause)
        return
    if seat.fields.get(REVENGED):
        board.reject(action, f"{seat.name}已为这次出局发动过<报复>（{seat.fields[REVENGED]}）", board.skill("报复").clause)
        return
    if not board.seat(target).alive:
        board.reject(action, f"{target}已出局，不能成为<报复>的目标", board.skill("报复").clause)
        return
    board.note(f"{step} {seat.name}（{seat.role}）<报复>{target} → [致死伤害]")
    seat.fields[REVENGED] = target
    board.result.state_after[f"{seat.name}.{REVENGED}"] = target
    if "报复" in seat.uses:
        board.use(seat, "报复")
        if seat.role != "猎人":  # the 猎人's <报复> has no [X]: he goes out only once
            board.tell(seat.name, f"报复：剩余{seat.uses['报复']}次")
    if strike(board, ctx, target, [hit_by(board, action, "致死伤害", seat.name)], step):
        board.announce(f"{target}因<报复>出局，技能的发动者：{seat.name}")
        check_win(board, ctx)


def _last_of(actions: Sequence[Action], skill: str, actor: str) -> Action | None:
    found = [a for a in actions if a.skill == skill and a.members and a.members[0] == actor]
    return found[-1] if found else None


def successions(board: Board, ctx: Ctx, actions: Sequence[Action], step: str) -> None:
    """<殉道> of every 牧首 who just went out (<殉职> of a 警长 is the night file's ``next_point`` trigger,
    settled by the generic engine just before this)."""
    used: set[int] = set()
    living = [p.name for p in board.living()]
    titled = [p for p in board.table.players.values() if not p.alive and "牧首" in p.tags
              and just_out(board, ctx, p.name) is not None]
    if not titled:
        board.note(f"{step} 没有出局的牧首：无<殉道>")
    for seat in titled:
        act = _last_of(actions, "殉道", seat.name)
        if act is not None:
            used.add(act.index)
        _patriarch(board, ctx, seat, act, living, step)
    for a in actions:
        if a.skill == "殉道" and a.index not in used:
            board.reject(a, f"{a.actor}不是刚出局的牧首", board.skill(a.skill).clause)


def _patriarch(board: Board, ctx: Ctx, seat: Seat, act: Action | None, living: list[str], step: str) -> None:
    clause = board.skill("殉道").clause
    if purified(seat):
        if act is not None:
            board.reject(act, f"{seat.name}处于[净化]状态：[强制]技能也会失效", clause)
        board.note(f"{step} 牧首{seat.name}处于[净化]状态，<殉道>失效")
        board.move_tag("牧首", seat.name, None, "殉道失效（净化）")
        board.announce("本局游戏不再有附加身份“牧首”")
        return
    if not living:
        board.move_tag("牧首", seat.name, None, "殉道：没有存活角色")
        return
    red = _was_red(board, ctx, seat.name)
    causes = ctx.causes.get(seat.name)
    by_wolf = causes is not None and any(h.faction == "狼人" for h in causes)
    if causes is None:
        by_wolf = any(c in ("杀人", "报复") for c in (just_out(board, ctx, seat.name) or []))
    effects = ["1", "2"] if by_wolf and not red else ["1"]
    board.tell(seat.name, f"殉道：存活角色名单：{names(living)}")
    target = act.targets[0] if act is not None and act.targets and not red else None
    written = ""
    if act is not None and not red:
        written, named = martyr_choice(act.choice, list(board.table.players))
        target = target or named
    # 结算效果 unwritten: the only one possible, or (both possible) the player's choice is still open.
    effect = written or (effects[0] if act is not None and len(effects) == 1 and not red else None)
    if act is not None and red:
        board.reject(act, "红牌罚下出局的牧首<殉道>对象和效果随机选择", clause)
    elif act is not None and target is not None and not board.seat(target).alive:
        board.reject(act, f"{target}已出局，不能成为<殉道>的目标", clause)
        target, effect = None, None
    elif act is not None and effect is not None and effect not in effects:
        board.reject(act, f"结算效果{effect}不可选：效果2{WOLF_SKILLS_NOTE}", clause)
        target, effect = None, None
    if target is None:
        target = board.ask(f"殉道.{seat.name}.对象", f"牧首{seat.name}<殉道>未选择（或随机选择）的存活角色", living)
    if effect is None:
        effect = effects[0] if len(effects) == 1 else \
            board.ask(f"殉道.{seat.name}.效果", f"牧首{seat.name}<殉道>随机选择的结算效果", effects)
    if effect == "1":
        board.note(f"{step} 牧首{seat.name}<殉道>（效果1）：{target}获得附加身份“牧首”")
        board.move_tag("牧首", seat.name, target, "殉道（效果1）")
        board.tell(target, "你成为牧首")
        board.announce(f"殉道：{target}获得附加身份“牧首”")
        return
    tseat = board.seat(target)
    tseat.fields["已翻牌"] = True
    board.result.state_after[f"{target}.已翻牌"] = True
    board.note(f"{step} 牧首{seat.name}<殉道>（效果2）：{target}翻牌（{tseat.role}），本局游戏不再有附加身份“牧首”")
    board.move_tag("牧首", seat.name, None, "殉道（效果2）")
    board.announce(f"殉道：{target}翻牌，实际身份为{tseat.role}；本局游戏不再有附加身份“牧首”")


_EFFECT = re.compile(r"^\s*(?:结算)?(?:效果)?\s*[（(]?\s*([12])\s*[)）]?")


def martyr_choice(choice: str | None, players: Sequence[str]) -> tuple[str, str | None]:
    """<殉道>'s "一名存活角色和一个结算效果" as a director writes them: "效果1：P06成为牧首", "1",
    "（2）P06" → the effect ("1"/"2", "" when unwritten) and the player the words name, if any."""
    text = (choice or "").strip()
    m = _EFFECT.match(text)
    effect = m.group(1) if m else ""
    rest = text[m.end():] if m else text
    named = [p for p in players if p in rest]
    longest = max(named, key=len) if named else None
    if not effect and longest is None:
        effect = text.removeprefix("效果")  # words that name no effect: refused as written, never guessed
    return effect, longest


def last_words(board: Board, ctx: Ctx, step: str) -> None:
    """可以留下遗言的角色收到遗言通知 (told with the 出局通知); the list for the 公示."""
    if ctx.last_words:
        board.note(f"{step} 留下遗言：{names(ctx.last_words)}")
        board.announce(f"遗言：{names(ctx.last_words)}")
    else:
        board.note(f"{step} 没有可以留下遗言的角色")


def pending(board: Board, ctx: Ctx, step: str) -> None:
    """No 晨曦 submission yet: who may still <报复>, <殉道> is told and left pending (<殉职>: the generic engine)."""
    _offer(board, ctx)
    waiting: list[str] = []
    for seat in board.table.players.values():
        if seat.name not in ctx.died:
            continue
        if "牧首" in seat.tags:  # 警长<殉职>: the night file's trigger, left pending by the generic engine
            waiting.append(f"{seat.name}<殉道>")
            board.later("殉道", seat.name, "晨曦（出局后下一个可发动技能的时间点）", board.skill("殉道").clause)
    for name in sorted(ctx.offered):
        waiting.append(f"{name}<报复>")
        board.later("报复", name, "晨曦（出局后下一个可发动技能的时间点）", board.skill("报复").clause)
    if waiting:
        board.note(f"{step} 尚无晨曦的提交：{names(waiting)}待提交后结算（可作为第{board.night}天晨曦结算）")
    else:
        board.note(f"{step} 没有可以发动<报复><殉职><殉道>的角色")


def titles(board: Board) -> None:
    """每个游戏日白天开始时，公示……当日警长、牧首 (a dead holder's heir is still to be chosen)."""
    for tag, skill in (("警长", "殉职"), ("牧首", "殉道")):
        holders = [p for p in board.table.players.values() if tag in p.tags]
        living = [p.name for p in holders if p.alive]
        if living:
            board.announce(f"{tag}：{living[0]}")
        elif holders:
            board.announce(f"{tag}：待{holders[0].name}<{skill}>")
        else:
            board.announce(f"{tag}：无")
