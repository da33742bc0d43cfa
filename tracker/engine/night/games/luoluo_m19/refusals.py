"""Refusals only M19 states, decided from the table before settlement starts.

Who holds <杀人> now (the pack; a lone wolf lover lost it; whoever gained it in play, its ``uses`` key — the
黑情侣 by 寡妇刀, the 忠犬 on its night; the 双狼 丘比特 after the wolves), 牺牲 not as the pack's last, the lovers' choice, 殉职 only by
the 警长. What is decided later in the order (a block by <算计>) is
not here: the settlement refuses it at its step.
"""

from __future__ import annotations

from tracker.engine.night.games.luoluo_m19.common import (
    WOLVES,
    in_pack,
    is_lover,
    lovers,
    role_in_pair,
)
from tracker.engine.night.model import Action, Table

ARROWS = ("基佬情深", "人狗情未了")


def refuse(table: Table, action: Action) -> str | None:
    check = _CHECKS.get(action.skill)
    return check(table, action) if check is not None else None


def _kill(table: Table, action: Action) -> str | None:
    seats = [table.players[m] for m in action.members]
    if action.team == "狼群" or all(in_pack(s) for s in seats):
        for s in seats:
            if s.role in WOLVES and is_lover(s) and s.faction != "狼人":
                return f"恋爱：情侣中有且只有一名狼人，{s.name}失去<杀人>技能"
            if not in_pack(s):
                return f"{s.name}不在狼群中，不能参与狼群的<杀人>"
        return None
    if all(s.uses.get("杀人") not in (None, False, 0) for s in seats):
        return None  # gained in play, in their uses: 寡妇刀 (a ``loss`` trigger's ``gain``), 忠犬 (``last_night``)
    if len(seats) == 1:
        s = seats[0]
        if role_in_pair(table, s.name) == "忠犬":  # his night's <杀人> is data (忠犬's last_night): in his uses then
            return "忠犬只在主人出局后的下一讨论日夜晚获得<杀人>"
        if s.role == "变异丘比特" and s.faction == "狼人":
            lv = lovers(table) or {}
            pair = [table.players[str(lv.get(k))] for k in ("攻", "受", "主人", "忠犬") if lv.get(k) in table.players]
            if not (len(pair) == 2 and all(p.role in WOLVES for p in pair)):
                return "丘比特只在双狼情侣时于狼人全部出局后接刀（绑匪和狼成为情侣时不接刀）"
            wolves = [p for p in table.players.values() if p.faction == "狼人" and p.role in WOLVES]
            if any(p.alive for p in wolves):
                return "双狼丘比特在狼人全部出局后才接刀"
            return None
    return f"{action.actor}没有技能<杀人>"


def _sacrifice(table: Table, action: Action) -> str | None:
    me = action.members[0]
    others = [p for p in table.players.values() if p.alive and p.name != me and in_pack(p)]
    return None if others else "幼狼是狼群内唯一存活的角色，不能<牺牲>"


def _arrows(table: Table, action: Action) -> str | None:
    if action.choice not in ARROWS:
        return f"<双歧之箭>须在{'、'.join(ARROWS)}中选择其一（choice）"
    if lovers(table) is not None:
        return "情侣已经选定"
    return None


def _sheriff(table: Table, action: Action) -> str | None:
    s = table.players[action.members[0]]
    if "警长" not in s.tags and table.state.get("警长") != s.name:
        return f"{s.name}不是警长，没有<殉职>"
    return None


_CHECKS = {
    "杀人": _kill, "牺牲": _sacrifice, "双歧之箭": _arrows, "殉职": _sheriff,
}
