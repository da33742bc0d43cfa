"""What the nights put on each player that the day's fold does not keep: statuses and marks.

净化, 绑架, 中毒, 丑角, 守护, 英雄, 设计目标, 枯竭 … live in the night desk's tables (the last confirmed
settlement's table, plus the setup facts), not in the fold's players; `tracker state` and the
TUI's 玩家 screen show them from here, in the posts' words. Pure, and light: it reads events only,
so `tracker state` still loads no night engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.engine.events import EventKind, effective, given

#: Player fields shown as ``word：value`` (the scenario vocabulary's keys, the posts' words).
FIELD_WORDS = {"英雄": "英雄", "设计目标": "设计目标", "伪装": "伪装", "原身份": "原身份", "choice": "抉择",
               "seat": "座次", "believes": "以为自己是"}
#: Statuses the fold shows already (挂机 is the state's own column).
_SHOWN_ELSEWHERE = frozenset({"挂机"})


def _add(out: dict[str, list[str]], player: Any, mark: str) -> None:
    if isinstance(player, str) and player in out and mark not in out[player]:
        out[player].append(mark)


def standing_marks(events: Sequence[Any], players: Sequence[str]) -> dict[str, list[str]]:
    """Each player's statuses and marks as the game stands: from the latest confirmed settlement's
    table and the setup facts (a later setup fact wins)."""
    live, _ = effective(events)
    out: dict[str, list[str]] = {p: [] for p in players}
    settled = [e for e in live if e.kind == EventKind.NIGHT_SETTLED]
    table: Mapping[str, Any] = given(settled[-1].payload.table, {}) if settled else {}
    fields: dict[str, dict[str, Any]] = {p: {} for p in players}
    for seat in table.get("players", ()):
        name = seat.get("name")
        if name not in out:
            continue
        for status in seat.get("status", ()):
            if status not in _SHOWN_ELSEWHERE:
                _add(out, name, str(status))
        for tag in seat.get("tags", ()):
            _add(out, name, str(tag))
        fields[name].update({k: v for k, v in seat.items() if k in FIELD_WORDS})
    for e in live:
        if e.kind != EventKind.NIGHT_SETUP or e.player not in out:
            continue
        key, value = str(e.payload.field), e.payload.value
        if key in ("tags", "status"):
            for v in [value] if isinstance(value, str) else value or []:
                _add(out, e.player, str(v))
        elif key in FIELD_WORDS:
            fields[e.player][key] = value
    state: Mapping[str, Any] = table.get("state", {})
    for name in state.get("丑角") or ():
        _add(out, name, "丑角")
    for name, day in (state.get("枯竭生效") or {}).items():
        _add(out, name, f"枯竭（第{day}日）")
    guard = state.get("守护上次")
    if isinstance(guard, Mapping) and guard.get("target"):
        _add(out, guard["target"], f"守护（第{guard['night']}夜）" if guard.get("night") else "守护")
    for name, values in fields.items():
        for key, value in values.items():
            if value is not None and value != "":
                _add(out, name, f"{FIELD_WORDS[key]}：{value}")
    return out
