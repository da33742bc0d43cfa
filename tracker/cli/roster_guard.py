"""A roster that contradicts the ruleset stops the commands that decide the game.

`配置错误：玩家人数为 13，规则 luoluo-m19 为 14 人局` used to be printed beside a winner with exit 0,
and `confirm` recorded results over it. A result decided on a wrong roster is wrong (seats, factions
and win conditions are counted from it), so `confirm` refuses and `state` names no winner, both with
exit 2 (a bad game file) and the errors to fix.
"""

from __future__ import annotations

from typing import Any

from tracker.errors import ConfigError


def roster_errors(svc: Any) -> list[str]:
    """The roster's contradictions of the ruleset (errors only; warnings do not stop anything)."""
    from tracker.engine.roster import check_assignment

    return [p.message for p in check_assignment(svc.ruleset, svc.game.players) if p.level == "error"]


def refuse_on_roster_errors(errors: list[str], what: str) -> None:
    if errors:
        raise ConfigError(f"游戏文件的玩家配置与规则矛盾，{what}：{'；'.join(errors)}",
                          hint="先改正游戏文件的 [[players]]（人数、身份、阵营），再执行")
