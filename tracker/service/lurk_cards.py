"""The lurk penalties of a day as a review queue, and their cards (CLI `card from-lurker`, TUI 潜水 `c`).

Functions over the service rather than a mixin, so the service's composition is left alone: they
read the day's 潜水 report and the ledger, and issue through ``issue_card`` (one decision per
penalty, each with its ladder and red-card consequence, exactly as a card typed by hand).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from tracker.engine.roster_names import did_you_mean
from tracker.errors import GameRuleError
from tracker.penalties.lurk_cards import LurkFinding, lurk_findings

if TYPE_CHECKING:
    from tracker.service import Service
    from tracker.service.cards import CardDecision


def day_lurk_findings(svc: Service, day: int) -> list[LurkFinding]:
    """The day's lurk penalties with their status in the ledger."""
    rep = svc.lurking.lurkers(day)
    return lurk_findings(day, rep.penalties, svc.cards.ledger())


def card_lurkers(svc: Service, day: int, players: Collection[str] = (), *,
                 by: str | None = None) -> list[CardDecision]:
    """Issue the yellow (the ruleset's) card of each uncarded lurk penalty of ``day`` — all of them,
    or only those of ``players``. Returns the decisions (``CardDecision``), in order."""
    todo = day_lurk_findings(svc, day)
    wanted = {p.strip() for p in players if p.strip()}
    if wanted:
        known = {f.penalty.player for f in todo}
        unknown = sorted(wanted - known)
        players = list(svc.game.player_names)
        strangers = [n for n in unknown if n not in players]
        if strangers:
            hint = did_you_mean(strangers[0], players)
            raise GameRuleError(f"游戏里没有玩家 {strangers[0]!r}",
                                hint=hint or "玩家名须与游戏文件 [[players]] 一致")
        if unknown:
            raise GameRuleError(f"第 {day} 日没有 {'、'.join(unknown)} 的潜水判罚",
                                hint=f"`tracker lurkers GAME.toml --day {day}` 列出当日应判的潜水")
        todo = [f for f in todo if f.penalty.player in wanted]
    decisions = []
    for f in todo:
        if f.card is not None:
            continue
        decisions.append(svc.cards.issue_card(f.penalty.player, f.penalty.card, f.clause, f.reason, by=by, day=day))
    return decisions
