"""Each game's settlement order: the hooks a post's data cannot say.

A hook module exposes ``resolve(board, actions)``: it walks the post's 结算顺序 over the
submissions that passed :func:`tracker.engine.night.checks.refusal`, and may expose
``refuse(table, action) -> str | None`` for refusals only that post states, and
``grants(table) -> {player: skills}`` for skills a player may use beyond his role's in this phase
(a stolen or lent skill), and ``prepare(board, actions)`` for what the post settles before anyone
chooses a skill (107's <诅咒> "游戏日夜晚开始时"): refusals then see the table as it stands after it.
A ruleset's hook
module is found by its id (``luoluo-m19`` → ``tracker.engine.night.games.luoluo_m19``), so a
new game adds a file and no line here; it is imported only when a night of that game is settled.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from tracker.errors import RulesetError

#: Overrides of the naming convention: ruleset id -> the dotted path of its hook module.
MODULES: dict[str, str] = {}


def module_name(ruleset_id: str) -> str:
    return MODULES.get(ruleset_id) or f"{__name__}.{ruleset_id.replace('-', '_')}"


def hooks_for(ruleset_id: str) -> ModuleType:
    name = module_name(ruleset_id)
    try:
        found = importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        raise RulesetError(f"规则 {ruleset_id} 还没有夜晚结算",
                           hint="夜晚结算需要该规则的结算顺序：tracker/engine/night/games/<规则 id>.py")
    return importlib.import_module(name)
