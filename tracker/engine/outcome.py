"""Win and loss checks: the end of a game is a value (who won, why, which clause), never a bool.

The resolution follows the rule posts' own order: a faction meeting a lose condition loses first
(优先判负) and stays lost (已经被判负的阵营无法再次达到胜利条件); then the factions not lost that
meet a win condition win, several at once resolved by the ruleset's priority (107: the later
faction; 213: the wolves; M65 its listed order), with co-winners where a post allows them (107
中立); failing that, the last faction not lost wins where the post says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tracker.engine.ruleset import Condition, PlayerSet, Role, Ruleset, WinRule

if TYPE_CHECKING:
    from tracker.engine.state import GameState, PlayerState


@dataclass(frozen=True, slots=True)
class FactionLoss:
    """``rule``: the ``[[win]]`` id that judged the loss (None for a loss recorded as an event:
    投降, 导演判负, a night's 判负)."""

    faction: str
    reason: str
    clause: str
    seq: int | None = None
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "reason": self.reason, "clause": self.clause, "seq": self.seq}


@dataclass(frozen=True, slots=True)
class Outcome:
    """``winner`` is None only when every faction has lost; ``reason`` is for the director (Chinese)."""

    winner: str | None
    reason: str
    clause: str
    losers: tuple[FactionLoss, ...] = ()
    co_winners: tuple[str, ...] = ()
    rule: str | None = None
    seq: int | None = None
    at: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "co_winners": list(self.co_winners), "reason": self.reason,
                "clause": self.clause, "rule": self.rule, "losers": [x.to_json() for x in self.losers],
                "seq": self.seq, "at": self.at.isoformat() if self.at else None}


def matches(ps: PlayerSet, p: PlayerState, also: tuple[str, ...] = (), as_roles: tuple[str, ...] = ()) -> bool:
    """``also``: the factions the player's role also counts in (107 夜行怪: 亡灵 and 守夜人's 中立);
    ``as_roles``: the roles it counts as (M19 变异丘比特 linking two of a kind)."""
    return ((not ps.factions or p.faction in ps.factions or any(f in ps.factions for f in also))
            and (not ps.roles or p.role in ps.roles or any(r in ps.roles for r in as_roles))
            and (not ps.tags or bool(p.tags & set(ps.tags)))
            and (not ps.groups or p.group in ps.groups))


#: Each ruleset's roles by name (the win check asks for them per player and condition, on every
#: death of a night), keyed by the ruleset object's id and holding it so the id cannot be reused.
_ROLES: dict[int, tuple[Ruleset, dict[str, Role]]] = {}


def _role(ruleset: Ruleset, name: str | None) -> Role | None:
    if not name:
        return None
    found = _ROLES.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        if len(_ROLES) > 64:
            _ROLES.clear()
        found = _ROLES[id(ruleset)] = (ruleset, {r.name: r for r in ruleset.roles})
    return found[1].get(name)


def _also(state: GameState, p: PlayerState) -> tuple[str, ...]:
    if p.also:
        return p.also
    role = _role(state.ruleset, p.role)
    return role.also_factions if role is not None else ()


def _as_roles(state: GameState, p: PlayerState) -> tuple[str, ...]:
    """M19 "双民丘比特变民，双狼丘比特变狼……双大特丘比特变大特": the set both lovers' roles fall in."""
    role = _role(state.ruleset, p.role)
    if role is None or not role.couple_sets:
        return ()
    # the couple's tag, or its member's word in the pair (M19's desk and scenarios: 情侣:攻 / 情侣:受)
    tag, part = role.couple_tag, f"{role.couple_tag}:"
    lovers = [q.role for n, q in state.players.items()
              if n != p.name and any(t == tag or t.startswith(part) for t in q.tags)]
    if len(lovers) != 2:
        return ()
    return next((s for s in role.couple_sets if all(r in s for r in lovers)), ())


def _in(sets: tuple[PlayerSet, ...], state: GameState, p: PlayerState) -> bool:
    """:func:`matches` for any of ``sets``, looking up what the role also counts as only when needed."""
    also: tuple[str, ...] | None = None
    as_roles: tuple[str, ...] | None = None
    for ps in sets:
        if ps.factions and p.faction not in ps.factions:
            also = _also(state, p) if also is None else also
            if not any(f in ps.factions for f in also):
                continue
        if ps.roles and p.role not in ps.roles:
            as_roles = _as_roles(state, p) if as_roles is None else as_roles
            if not any(r in ps.roles for r in as_roles):
                continue
        if (ps.tags and not p.tags & set(ps.tags)) or (ps.groups and p.group not in ps.groups):
            continue
        return True
    return False


def members(sets: tuple[PlayerSet, ...], state: GameState) -> list[PlayerState]:
    return [p for p in state.players.values() if _in(sets, state, p)]


def holds(cond: Condition, state: GameState, ruleset: Ruleset, own: str = "") -> bool:
    """Whether one condition holds now. "Alive" (存活) counts benched players: 挂机与是否存活没有关系.
    ``own``: the faction of the rule being checked (``red_cards_at_least`` counts its red cards)."""
    k = cond.kind
    if k == "all_out":
        # "全部出局" of nobody is not said: a faction or role set with no member (M19's 黑情侣 before
        # any lovers elope) is not judged by it
        found = members(cond.sets, state)
        return bool(found) and all(p.life == "out" for p in found)
    if k == "any_out":
        return any(p.life == "out" for p in members(cond.sets, state))
    if k == "none_alive":
        return not any(p.life == "alive" for p in members(cond.sets, state))
    if k == "share_of_living_at_least":
        living = [p for p in state.players.values() if p.life == "alive"]
        if not living:
            return False
        mine = [p for p in living if _in(cond.sets, state, p)]
        return len(mine) >= cond.fraction * len(living)
    if k == "each_alive_at_most":
        return all(sum(1 for p in state.players.values() if p.life == "alive" and _in((s,), state, p)) <= cond.n
                   for s in cond.sets)
    if k == "living_at_most":
        n = cond.n
        if cond.plus and cond.name:
            n += cond.plus * sum(1 for a in state.actions if a.name == cond.name and a.success)
        return sum(1 for p in state.players.values() if p.life == "alive") <= n
    if k == "tag_holder_in":
        return any(cond.tag in p.tags and p.life != "out" and _in(cond.sets, state, p)
                   for p in state.players.values())
    if k == "declared":
        return cond.name in state.declared
    if k == "red_cards_at_least":
        return state.faction_reds.get(own, 0) >= cond.n
    if k == "hook":
        from tracker.engine.rulesets.hooks import WIN_HOOKS

        hs = WIN_HOOKS.get(ruleset.hooks or "")
        fn = hs.conditions.get(cond.name) if hs else None
        return bool(fn(state)) if fn else False
    if k == "all":
        return all(holds(c, state, ruleset, own) for c in cond.parts)
    if k == "any":
        return any(holds(c, state, ruleset, own) for c in cond.parts)
    raise AssertionError(k)  # pragma: no cover - the loader refuses other kinds


def _has_members(faction: str, state: GameState) -> bool:
    return any(p.faction == faction or faction in _also(state, p) for p in state.players.values())


def _applies(rule: WinRule, ruleset: Ruleset) -> bool:
    return all(ruleset.option(k) == v for k, v in rule.only_if.items())


def _rank(rule: WinRule, ruleset: Ruleset) -> tuple[int, int]:
    pr = ruleset.win_policy.priority
    if rule.id in pr:
        return pr.index(rule.id), 0
    if rule.faction in pr:
        return pr.index(rule.faction), 0
    return len(pr), list(ruleset.win).index(rule)


def evaluate(ruleset: Ruleset, state: GameState, lost: Mapping[str, FactionLoss], *,
             seq: int | None = None, at: datetime | None = None) -> tuple[dict[str, FactionLoss], Outcome | None]:
    """New losses (sticky, added to ``lost``) and the outcome if the game is over now."""
    out = dict(lost)
    rules = [r for r in ruleset.win if _applies(r, ruleset)]
    for r in rules:
        if r.result == "lose" and r.faction not in out and holds(r.when, state, ruleset, r.faction):
            out[r.faction] = FactionLoss(r.faction, f"{r.faction}阵营判负：{r.text or r.id}", r.clause, seq, r.id)
    losers = tuple(out.values())
    won = [r for r in rules if r.result == "win" and r.faction not in out and holds(r.when, state, ruleset, r.faction)]
    policy = ruleset.win_policy
    if won:
        won.sort(key=lambda r: _rank(r, ruleset))
        main = [r for r in won if r.faction not in policy.co_win] or won
        top = main[0]
        co = tuple(dict.fromkeys(r.faction for r in won if r.faction in policy.co_win and r.faction != top.faction))
        others = sorted({r.faction for r in won} - {top.faction} - set(co))
        reason = f"{top.faction}阵营胜利：{top.text or top.id}"
        if co:
            reason += f"；{'、'.join(co)}阵营共同胜利"
        if others:
            reason += f"（{'、'.join(others)}阵营同时达成胜利条件，按优先顺序由{top.faction}阵营获胜）"
        clause = top.clause if not others else f"{top.clause}；{policy.clause or '胜负判定'}"
        return out, Outcome(top.faction, reason, clause, losers, co, top.id, seq, at)
    if policy.last_standing_wins and out:
        # a faction nobody belongs to (M19's 黑情侣 before any lovers elope) is not "尚未被判负"
        remaining = [f for f in ruleset.faction_names if f not in out and _has_members(f, state)]
        if len(remaining) == 1:
            return out, Outcome(remaining[0], f"场上仅有{remaining[0]}阵营尚未被判负，{remaining[0]}阵营胜利",
                                policy.last_standing_clause or policy.clause or "胜负判定", losers, (), None, seq, at)
        if not remaining:
            return out, Outcome(None, "所有阵营均已判负，无人获胜", policy.clause or "胜负判定", losers, (), None, seq, at)
    return out, None
