"""The day side every toy night test needs and none reads: a ruleset with its factions, its roles and one win,
built here so a toy test writes only what its night is about."""

from __future__ import annotations

from typing import Any

from tracker.engine.ruleset import Ruleset
from tracker.engine.ruleset_reader import parse_ruleset


def toy_rules(rid: str, name: str, players: int, factions: list[str], roles: list[dict[str, Any]],
              win: str, options: list[dict[str, Any]] | None = None) -> Ruleset:
    """``roles``: each a ``[[roles]]`` table; ``win``: the faction that wins when nobody is left standing against it;
    ``options``: its ``[[options]]``, for a night key that reads one."""
    return parse_ruleset({"options": options or [],
        "id": rid, "name": name, "source": "测试", "players": players,
        "factions": [{"name": f} for f in factions], "roles": roles,
        "voting": {}, "lurk": {}, "cards": {}, "days": {},
        "win": [{"faction": win, "when": {"living_at_most": 0}, "clause": "测试"}],
    })
