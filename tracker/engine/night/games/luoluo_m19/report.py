"""What the morning (or the vote's end) publishes, and the private notices of those who went out.

"每个游戏日白天开始时，都会公示前一天因投票出局角色名单、夜晚出局角色名单、当日警长。" —
in that order; "公示出局名单时按角色出局的顺序排序"; "游戏进行期间以任何方式出局的角色均不公示其身份".
遗言: "遗言数量等于狼人的数量，靠前出局且可以留下遗言的角色会收到可以留下遗言的通知。" — an exit that leaves
none whatever the count (红牌罚下, 难言) is the night file's (:func:`tracker.engine.night.words.silenced`).
"""

from __future__ import annotations

from tracker.engine.night.games.luoluo_m19.common import WOLVES, Ctx, time_index
from tracker.engine.night.model import Seat
from tracker.engine.night.words import silenced


def last_words(ctx: Ctx) -> dict[str, bool]:
    """Who among all exits so far has the right, in exit order; the quota is the wolves at the start
    (公狼、老狼、幼狼 on the roster — the reading in docs: 1L "三狼")."""
    b = ctx.board
    quota = sum(1 for p in ctx.table.players.values() if p.role in WOLVES)
    earlier: list[tuple[int, int, Seat]] = []
    exits = list(b.state.get("出局顺序") or [])
    for i, name in enumerate(ctx.dead_at_start):
        seat = b.seat(name)
        # within one day or night, the recorded exit order; else the roster's
        place = exits.index(name) if name in exits else len(exits) + i
        earlier.append((time_index(seat.fields.get("出局")) or -1, place, seat))
    earlier.sort(key=lambda x: (x[0], x[1]))
    order: list[tuple[Seat, str]] = []
    for _t, _i, seat in earlier:
        out = seat.fields.get("出局")
        order.append((seat, str(out.get("cause", "")) if isinstance(out, dict) else ""))
    order += [(b.seat(d.player), d.cause) for d in b.result.deaths]
    rights: dict[str, bool] = {}
    for seat, cause in order:
        if silenced(b.catalog, seat, cause) is not None:
            rights[seat.name] = False
            continue
        rights[seat.name] = quota > 0
        quota = max(0, quota - 1)
    return rights


def finish(ctx: Ctx) -> None:
    """Written once: at the 公示 step, or where a win stops the settlement (宣布胜利立即终止一切结算)."""
    if ctx.finished:
        return
    ctx.finished = True
    b = ctx.board
    rights = last_words(ctx)
    for d in b.result.deaths:
        seat = b.seat(d.player)
        why = silenced(b.catalog, seat, d.cause)
        if why is not None:
            b.tell(d.player, f"出局通知（{why}）")
        elif rights.get(d.player):
            b.tell(d.player, "出局通知；可以留下遗言")
        else:
            b.tell(d.player, "出局通知（遗言数量已用完）")
    lines: list[str] = []
    if b.night is not None:
        day = b.night
        voted = [p.name for p in ctx.table.players.values()
                 if p.name in ctx.dead_at_start and isinstance(p.fields.get("出局"), dict)
                 and p.fields["出局"].get("day") == day and p.fields["出局"].get("cause") == "投票"]
        if voted:
            lines.append(f"第{day}天因投票出局：{'、'.join(voted)}")
        out = b.result.out_order
        lines.append(f"第{b.night}夜出局：{'、'.join(out)}" if out else f"第{b.night}夜无人出局")
        sheriff = b.state.get("警长") or next((p.name for p in ctx.table.players.values() if "警长" in p.tags), None)
        if sheriff and b.seat(sheriff).alive:
            lines.append(f"当日警长：{sheriff}")
        elif sheriff:
            lines.append(f"当日警长：待{sheriff}<殉职>选择继任者")
        words = [n for n in voted + out if rights.get(n)]
        if words:
            lines.append(f"遗言：{'、'.join(words)}（若提交）")
    if ctx.exiled:  # "白天因投票出局的所有角色将立即公示": the day's out list, each exit under its cause (a red card's too)
        ctx.extra_lines[ctx.exile_at:ctx.exile_at] = [
            f"投票出局：{d.player}" if d.player in ctx.exiled else f"{d.cause.split('（')[0]}：{d.player}"
            for d in b.result.deaths]
        b.result.outs_in_lines = True
    # "因投票而触发的警长<殉职>……的角色立即公示": each badge the 殉职 trigger (data) passed
    passed = [f"警长<殉职>：{t.from_player}将警徽移交给{t.to_player}" for t in b.result.tags_moved if t.via == "殉职"]
    # the 公示's own lines first, then what the night file's ``announce`` effects wrote as they were settled (绑架),
    # then the lines the cascades left
    said = list(b.result.lines)
    b.result.lines.clear()
    for line in lines + said + ctx.extra_lines + passed:
        b.announce(line)
    if b.night is not None:
        b.result.outs_in_lines = True  # 第N夜出局 above is the post's own out list
    b.set_state("存活", [p.name for p in ctx.table.players.values() if p.alive])
    after = b.result.state_after
    for p in ctx.table.players.values():
        for key, value in p.uses.items():
            after.setdefault(f"{p.name}.{key}", value)
