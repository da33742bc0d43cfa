"""Win-condition hooks: named conditions a ruleset's win rules use where data cannot say them.

Not the night's hooks (:class:`tracker.engine.night.games.GameHooks`, a game's settlement in code):
these only answer "is this win condition met?" from the folded state. Keep each one small.

A ruleset names its hook set with ``hooks = "…"``; a win rule uses a hook with
``when = { hook = "name" }``. A hook reads the folded :class:`tracker.engine.state.GameState`
(typed loosely here so this module stays importable by the ruleset loader without a cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

WinCondition = Callable[[Any], bool]


@dataclass(frozen=True, slots=True)
class WinHooks:
    name: str
    conditions: Mapping[str, WinCondition] = field(default_factory=dict)


def _distinct_successful_steals(state: Any, n: int = 4) -> bool:
    """M65 加速研究社 胜1: 成功完成对四个不同角色的技能掠夺 — counted from recorded actions."""
    targets = {a.player for a in state.actions if a.name == "技能掠夺" and a.success and a.player}
    return len(targets) >= n


WIN_HOOKS: dict[str, WinHooks] = {
    "accel-m65": WinHooks("accel-m65", {"four_distinct_steals": _distinct_successful_steals}),
}
