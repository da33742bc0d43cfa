"""``split``: a submission's targets share statuses out, one each (M160 药剂 "他们其中一名【清醒】，另外一名【醉酒】").

The post, not the order the director typed the targets in, says who takes which: the rest kept by ``split_record``
("同一名玩家不会连续两天因【药剂】而【清醒】或【醉酒】"), then ``split_self`` ("在不违反此规则的前提下，【药剂】第一次选中
药师自己时，优先获得【清醒】"), then ``split_spread`` ("【药剂】多次选中同一人时，尽可能相近的两次内不会均因【药剂】而【清醒】
或【醉酒】"); what none of them decides is the director's (a question, seeded like every other).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Effect
    from tracker.engine.night.effects import Out, Pool, Use

Sharing = dict[str, str]  # status → the player who takes it


def apply(board: Board, pool: Pool, use: Use, effect: Effect, targets: tuple[str, ...], out: Out) -> None:
    """Share ``effect.split`` out among ``targets``, give each his status as the effect says, record the sharing."""
    from tracker.engine.night import effects

    name, step, statuses = use.skill.name, use.step, effect.split
    if len(targets) != len(statuses):
        board.note(f"{step} {use.actor}<{name}>：{len(statuses)}种状态需要{len(statuses)}名目标（{'、'.join(targets) or '无'}），无效果")
        return
    key, when = ("night", board.night) if board.night is not None else ("day", board.table.day or 0)
    history = [h for h in (board.state.get(effect.split_record) or [] if effect.split_record else [])
               if isinstance(h, dict)]
    legal, why = _choose(board, use, effect, targets, history, key, when)
    first = statuses[0]
    if len(legal) > 1:
        taker = board.ask(f"{name}.{when}", f"<{name}>：{'、'.join(targets)}中谁{first}（规则不限定）",
                          [o[first] for o in legal])
        legal = [o for o in legal if o[first] == taker]
    pick = legal[0]
    for status in statuses:
        effects.apply(board, pool, use, replace(effect, status=status, split=(), log=""), pick[status], out)
    if effect.split_record:
        board.set_state(effect.split_record, [*history, {key: when, **pick}])
    shares = "、".join(f"{pick[s]}{s}" for s in statuses)
    line = (effect.log or "{step} {actor}<{skill}>：{shares}{why}").format(
        step=step, actor=use.actor, skill=name, targets="、".join(targets), shares=shares, night=when,
        next_day=effects.next_day(board), why=f"（{why}）" if why else "")
    if line:
        board.note(line)


def _choose(board: Board, use: Use, effect: Effect, targets: tuple[str, ...], history: list[dict[str, object]],
            key: str, when: int) -> tuple[list[Sharing], str]:
    """The sharings the post still allows, and the words of the rule that narrowed them last ("" if none did)."""
    statuses, name = effect.split, use.skill.name
    options: list[Sharing] = [dict(zip(statuses, order, strict=True)) for order in permutations(targets)]
    kinds = "或".join(statuses)
    why = ""
    if effect.split_record:
        before = [h for h in history if h.get(key) == when - 1]
        rested = [o for o in options if not any(h.get(s) == p for h in before for s, p in o.items())]
        if not rested:  # more users than the rest can satisfy: the director shares them out
            board.note(f"{use.step} {use.actor}<{name}>：无法避免连续两天因{name}而{kinds}，由导演决定")
        elif len(rested) < len(options):
            options, why = rested, f"同一名玩家不会连续两天因{name}而{kinds}"
    me = use.action.members[0] if use.action.members else use.actor
    if effect.split_self is not None and me in targets and not any(me == h.get(s) for h in history for s in statuses):
        mine = [o for o in options if o[effect.split_self] == me]
        if mine and len(mine) < len(options):
            believes = board.seat(me).fields.get("believes") if board.has(me) else None
            role = believes if isinstance(believes, str) else board.seat(me).role if board.has(me) else ""
            options, why = mine, f"第一次选中{role}自己，优先获得{effect.split_self}"
    if effect.split_spread and len(options) > 1:
        far = {i: _nearest(history, o, key, when) for i, o in enumerate(options)}
        best = max(far.values())
        spread = [o for i, o in enumerate(options) if far[i] == best]
        if len(spread) < len(options):
            options, why = spread, f"尽可能相近的两次内不会均因{name}而{kinds}"
    return options, why


def _nearest(history: list[dict[str, object]], sharing: Sharing, key: str, when: int) -> float:
    """How far back the nearest record of any target taking the same status lies (inf: never)."""
    back = [when - at for h in history for s, p in sharing.items()
            if h.get(s) == p and isinstance(at := h.get(key), int)]
    return float(min(back)) if back else float("inf")
