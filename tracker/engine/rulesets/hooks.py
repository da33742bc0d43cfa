"""Named conditions for what a ruleset file cannot say as data; keep each one small.

A ruleset names its hook set with ``hooks = "…"``; a win rule uses a hook with
``when = { hook = "name" }``. A hook reads the folded :class:`tracker.engine.state.GameState`
(typed loosely here so this module stays importable by the ruleset loader without a cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

HookCondition = Callable[[Any], bool]


@dataclass(frozen=True, slots=True)
class HookSet:
    name: str
    conditions: Mapping[str, HookCondition] = field(default_factory=dict)


def _distinct_successful_steals(state: Any, n: int = 4) -> bool:
    """M65 加速研究社 胜1: 成功完成对四个不同角色的技能掠夺 — counted from recorded actions."""
    targets = {a.player for a in state.actions if a.name == "技能掠夺" and a.success and a.player}
    return len(targets) >= n


HOOKS: dict[str, HookSet] = {
    "accel-m65": HookSet("accel-m65", {"four_distinct_steals": _distinct_successful_steals}),
}
