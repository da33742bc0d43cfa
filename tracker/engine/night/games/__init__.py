"""Each game's settlement order: the hooks a post's data cannot say.

A hook module exposes ``resolve(board, actions)``: it walks the post's 结算顺序 over the
submissions that passed :func:`tracker.engine.night.checks.refusal`, and may expose
``refuse(table, action) -> str | None`` for refusals only that post states (M160's 面具 must differ
from the night before is data; 213's 女巫 "仅第一晚可以选择自己" is data; a post-specific one is
here). Modules are imported by name only when a night of that ruleset is settled.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from tracker.errors import RulesetError

#: ruleset id -> the dotted path of its hook module (``tracker.engine.night.games.luoluo_m19``)
MODULES: dict[str, str] = {}


def hooks_for(ruleset_id: str) -> ModuleType:
    name = MODULES.get(ruleset_id)
    if name is None:
        raise RulesetError(f"规则 {ruleset_id} 还没有夜晚结算",
                           hint=f"已支持夜晚结算的规则：{', '.join(sorted(MODULES)) or '无'}")
    return importlib.import_module(name)
