"""A night of 213 in the post's order (总体流程 3 (1)–(9), the 竞选 of 4, then 晨曦 5 (1)–(4)).

The generic engine walks the night file's steps and settles from data (2) <守护>, (3) <查验>, (4)
<预言>/<通灵>, (5) <杀人>, (6) <悬赏> (a ``watch``) and <捕杀>, (7) <灵通> (a ``tell``), <救药>/<毒药>, (8)
<恶魔之眼> and the 晨曦's <悬赏成功> (a ``feedback`` step); the hook steps here are (1), (9) with 4. 竞选,
and 晨曦 (1)–(2) and (3)–(4) around that feedback. Nothing dies before (9): the steps before it only gather protections and harms in
the engine's pool (a damage's ``strength`` is its rank on :data:`.core.LADDER`), so a check made after
the kill (先刀后验) still sees the target in. (9) then weighs every harm against every defence on the
post's ladder, in 电梯楼 order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tracker.engine.night import effects
from tracker.engine.night.board import Board, latest
from tracker.engine.night.catalog import Clash
from tracker.engine.night.effects import Pool
from tracker.engine.night.games.sanguo_213 import heirs
from tracker.engine.night.games.sanguo_213.core import (
    LADDER,
    Ctx,
    Hit,
    Settle,
    check_win,
    disguises,
    elevator,
    harm,
    knife_heir,
    names,
    pack_alive,
    settle_out,
    sort_out,
    strike,
)
from tracker.engine.night.model import Action


@dataclass(slots=True)
class Night:
    """What the night's hook steps hand on to each other."""

    ctx: Ctx
    actions: list[Action]

    @property
    def night_acts(self) -> list[Action]:
        return [a for a in self.actions if a.phase in (None, "night", "夜晚")]


def open_night(board: Board, actions: Sequence[Action], settle: Settle) -> Night:
    """Before (2): a red card or 投降 sent at night (``settle``: the generic engine settles 投降 from its data), the
    接刀 notice, (1) <伪装>."""
    night = Night(Ctx("night"), list(actions))
    night_acts = night.night_acts
    for a in night_acts:
        if a.skill == "红牌":  # data (a ``send_off``): the generic engine settles it here
            settle_out(board, night.ctx, settle, a, "夜")
            check_win(board, night.ctx)
        elif a.skill == "投降":
            settle(a, "夜")

    heir = knife_heir(board)
    if heir is not None and not pack_alive(board.table.players.values()):
        board.tell(heir.name, "接刀：所有[群内]狼已出局，你获得<杀人>技能并可使用")
        board.note(f"夜(5)前 {heir.name}（{heir.role}）接刀，获得<杀人>")

    # (1) 隐狼<伪装>
    act = latest(night_acts, "伪装")
    if act is not None:
        disguise(board, act)
    return night


def close_night(board: Board, night: Night, pool: Pool, clashes: Sequence[Clash]) -> None:
    """(9) 结算夜晚出局名单: every pending harm against every defence on the post's ladder, in
    电梯楼 order ([救药] and [守护] on one player void each other: the night file's clash); the win
    check. 4. 竞选 is the night file's next step (a ``mark`` by ``tags``)."""
    ctx = night.ctx
    _potions(board)
    for t in list(pool.guards):
        effects.meet(board, pool, clashes, t, "夜(9)")
        guards = pool.guards.get(t) or []
        if guards:
            ctx.guards[t] = f"{board.seat(guards[0].by).role}<{guards[0].skill}>"
    hits: dict[str, list[Hit]] = {}
    for h in pool.hits:
        skill = board.skill(h.skill)
        hits.setdefault(h.target, []).append(harm(board, h.members, LADDER[h.strength], h.skill, skill.team or h.by))
    pool.hits = []
    for t in sorted(hits, key=lambda p: elevator(board, p)):
        strike(board, ctx, t, hits[t], "夜(9)")
    if not ctx.died:
        board.note("夜(9) 没有角色出局")
    check_win(board, ctx)


def _potions(board: Board) -> None:
    """What the living witch holds after (7) — 救药, 毒药, 灵通, used or not — for the night's
    ``state_after`` (the director's record of her potions each night, the shared examples' too)."""
    seat = next((p for p in board.table.players.values() if p.role == "女巫" and p.alive), None)
    for key in ("救药", "毒药", "灵通"):
        if seat is not None and key in seat.uses:
            board.result.state_after[f"{seat.name}.{key}"] = seat.uses[key]


def dawn_start(board: Board, ctx: Ctx, acts: Sequence[Action], alone: bool, settle: Settle) -> None:
    """晨曦 (1)–(2): the outs are told, a red card or 投降 sent for 晨曦, then <报复>.

    ``alone``: a 晨曦 settled on its own (the desk's, after the night was confirmed), whose
    submissions are all 晨曦's; else the night's own 晨曦, with the submissions marked 晨曦. A night
    scenario with no 晨曦 submission at all has not reached 晨曦 (2)–(3) yet (the desk confirms a
    night before the dead choose): <报复>, <殉职> and <殉道> are left pending (:func:`dawn_end`), to
    be settled as that day's 晨曦, rather than torn up or drawn at random before anyone could choose.
    """
    ctx.phase = "晨曦"
    if not alone:
        board.note(f"晨曦(1) 通知出局：{names(ctx.died)}")
    for a in acts:
        if a.skill == "红牌":
            settle_out(board, ctx, settle, a, "晨曦")
            check_win(board, ctx)
        elif a.skill == "投降":
            settle(a, "晨曦")
    if acts or alone:
        heirs.revenge(board, ctx, acts, "晨曦(2)")


def dawn_end(board: Board, ctx: Ctx, acts: Sequence[Action], alone: bool) -> None:
    """晨曦 (3)–(4) (after the <悬赏> feedback, a step of the night file), then what the next day's
    公示 adds (警长、牧首)."""
    if acts or alone:
        heirs.successions(board, ctx, acts, "晨曦(3)")
    else:
        heirs.pending(board, ctx, "晨曦(2)–(3)")
    heirs.last_words(board, ctx, "晨曦(4)")
    sort_out(board, ctx)
    heirs.titles(board)


_OPTION = re.compile(r"^\s*[（(]?([1-5])[)）]?\s*[:：/,，\s]*(.*)$")


_LABEL = {"阵营": re.compile(r"阵营\s*[=＝:：为是]\s*([^\s:：/,，;；=＝]+)"),
          "身份": re.compile(r"身份\s*[=＝:：为是]\s*([^\s:：/,，;；=＝]+)")}


def parse_disguise(choice: str | None) -> tuple[int, list[str]] | None:
    """``"2 村民 预言家"`` → (2, ["村民", "预言家"]); None if no option 1–5 is given.

    (2) "设置自己的表面阵营、表面身份" may also be written with its labels, in either order
    (``"2 表面阵营=村民阵营 表面身份=预言家"``, ``"2 表面身份：女巫 表面阵营：村民"``): the words are the
    faction (without 阵营) and the role, never the labels."""
    m = _OPTION.match(choice or "")
    if m is None:
        return None
    option, text = int(m.group(1)), m.group(2)
    found = {k: r.search(text) for k, r in _LABEL.items()}
    if option == 2 and found["阵营"] and found["身份"]:
        return 2, [found["阵营"].group(1).removesuffix("阵营"), found["身份"].group(1)]
    rest = [w for w in re.split(r"[\s:：/,，]+", text) if w]
    return option, rest


def disguise(board: Board, act: Action) -> None:
    """(1) 隐狼<伪装>: one of five lasting effects (each chosen once; refusals in ``refuse``)."""
    seat = board.seat(act.actor)
    parsed = parse_disguise(act.choice)
    assert parsed is not None  # refuse() guarantees it
    option, words = parsed
    entry: dict[str, object] = {"option": option, "night": board.night}
    wolves = [p.name for p in board.table.players.values() if p.faction == seat.faction]
    if option == 1:
        board.move_tag("接刀", None, seat.name, "伪装（1）")
        board.tell(seat.name, "伪装：你获得[接刀]标签，接刀顺序为石像鬼出局后")
    elif option == 2:
        entry["表面阵营"], entry["表面身份"] = words[0].removesuffix("阵营"), words[1]
        board.tell(seat.name, f"伪装：你的表面阵营为{entry['表面阵营']}阵营，表面身份为{entry['表面身份']}")
    elif option == 3:
        board.tell(seat.name, f"伪装：和你实际阵营相同的角色：{names(wolves)}")
    elif option == 4:
        board.tell(seat.name, "伪装：在实际阵营为[村民阵营]的以[实际阵营]判断的技能中，你以村民阵营进行判定")
    else:
        for w in wolves:
            if w != seat.name and board.seat(w).alive:
                board.tell(w, f"伪装：隐狼是{seat.name}")
    chosen = [*disguises(seat), entry]
    seat.fields["伪装"] = chosen
    left = [o for o in seat.fields.get("伪装未选", [1, 2, 3, 4, 5]) if o != option]
    seat.fields["伪装未选"] = left
    board.result.state_after[f"{seat.name}.伪装"] = chosen
    board.result.state_after[f"{seat.name}.伪装未选"] = left
    board.note(f"夜(1) 隐狼{seat.name}<伪装>（{option}）")

