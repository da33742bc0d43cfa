"""Every exit's consequences, in one place, whatever caused the exit (night, vote, card, skill).

Registered as :attr:`Board.on_death` listeners in the post's words (殉情 itself is the night file's 立即
trigger, ``at = "now"``, right after the exit's record, 遇难 its ``chosen_exit`` trigger and the 人质's 遗志 his own
``at = "now"`` trigger, the 绑匪's <设计> freed its ``chosen_exit`` trigger, the 忠犬 who waits for his night its
``partner_exit`` trigger; 激励 and 殉职 are the night file's ``trigger``, settled by the generic engine after the step; a
red-carded 警长's badge given at random is the red card's ``send_off``): what is left here is the exit's record,
and last the win check, which the post runs
after every change ("游戏状态满足某阵营胜利条件之一，游戏立即结束"; "宣布阵营获得胜利会立即终止一切结算").
"""

from __future__ import annotations

from tracker.engine.night.games.luoluo_m19.common import Ctx
from tracker.engine.night.model import Seat


def install(ctx: Ctx) -> None:
    b = ctx.board
    # when and how first, before the night file's 立即 triggers (殉情, ``at = "now"``) the engine put first
    b.on_death.insert(0, lambda _b, seat, cause: _record(ctx, seat, cause))
    # then the win check ([win_policy] checks_at "death"), run by the board after every death


DAY_CAUSES = {"投票出局": "投票", "红牌罚下": "红牌"}


def _record(ctx: Ctx, seat: Seat, cause: str) -> None:
    """When and how: the 忠犬's last night and the 遗言 count read it later."""
    b = ctx.board
    when: dict[str, object] = {"night": b.night} if b.night is not None else {"day": b.table.day}
    # the scenario vocabulary's words for the day's own exits (when.cause: 投票 / 红牌), which the
    # morning 公示 ("因投票出局") and the 遗言 count read
    when["cause"] = DAY_CAUSES.get(cause, cause)
    seat.fields["出局"] = when
    # who went out first within one day or night ("靠前出局" decides the 遗言), kept in the table
    b.state["出局顺序"] = [*(b.state.get("出局顺序") or []), seat.name]
    if cause == b.catalog.exile_skill:  # the day's out list goes where the first exile by vote happened
        if not ctx.exiled:
            ctx.exile_at = len(ctx.extra_lines)
        ctx.exiled.append(seat.name)




