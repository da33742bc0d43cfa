"""The win check of a night (or a day phase): the ruleset's ``[[win]]``, by the day's own evaluator.

There is one win check (:func:`tracker.engine.outcome.evaluate`): the day's fold runs it on the
game state, and a settlement runs it here on the table being settled, adapted to the same
:class:`~tracker.engine.state.GameState` (:func:`view`). So the ruleset's options
(``last_standing_wins``, ``only_if``) and ``[win_policy]`` (losses first, priority, co-winners) say
the same at night as by day.

Where it runs is the ruleset's ``[win_policy] checks_at``: ``start`` (before anything is settled),
``death`` (after each death and what it set off), ``exit`` (the generic engine: after each exit — or
each batch of exits settled together, a night's deaths — and what it set off: a hunter's shot, a
badge), ``end`` (once the phase is settled), or a step
of the post's order, by the name the settlement gives it (a generic engine passes its step
labels; a game's hook names its own, e.g. 107's ``(17)``). ``stops = true`` ends the settlement
at a win (the post's "立即终止结算"). ``losses_at`` names points where only losses are judged (M65:
"该阵营优先判负" on every death, while the wins of one phase are "同时" and judged at its end).
A game reacts to a new loss through ``board.on_lost`` (M19's 寡妇刀).

What a table holds that the conditions read differently from the day's fold (a mark kept as a
``state`` key, a faction counted by a field …) is translated in :func:`view`; what only a game's
post can say (107: can the 亡灵 still come back) a game's hook module adds with ``win_view(board,
state) -> state`` (:attr:`~tracker.engine.night.games.GameHooks.win_view`), each citing its clause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.engine.outcome import FactionLoss, Outcome, evaluate
from tracker.engine.state import GameState, PlayerState

if TYPE_CHECKING:
    from tracker.engine.night.board import Board
    from tracker.engine.night.model import Seat, Table
    from tracker.engine.ruleset import Ruleset

#: The points every settlement knows; any other name is a step of the post's order.
POINTS = ("start", "death", "exit", "end")
#: The points in the director's words, for the log.
POINT_WORDS = {"start": "结算开始时", "death": "出局后", "exit": "出局结算后", "end": "结算结束时"}
#: The table's ``state`` key holding the factions already judged lost (the scenario vocabulary's).
LOST = "判负阵营"
#: The table's ``state`` key holding each faction's red cards (filled by the desk from the fold).
REDS = "红牌"


def runs_at(ruleset: Ruleset, point: str) -> bool:
    return point in ruleset.win_policy.checks_at


def _life(seat: Seat) -> Any:
    if seat.alive:
        return "alive"
    return "dead" if seat.life == "死亡" else "out"


def view(table: Table, ruleset: Ruleset, declared: frozenset[str] = frozenset()) -> GameState:
    """The table as the day's fold would hold it, for :func:`evaluate`.

    A mark kept as a ``state`` key naming its holder (亡灵圣物认主, 神眷者 …) is also a tag of the
    holder, as the fold keeps it; a player's ``type`` (M160's 实际 村民/外来者/爪牙/恶魔) is his group.
    """
    held: dict[str, set[str]] = {}
    for key, value in table.state.items():
        if isinstance(value, str) and value in table.players:
            held.setdefault(value, set()).add(key)
    players: dict[str, PlayerState] = {}
    for name, s in table.players.items():
        role = ruleset.role(s.role)
        kind = s.fields.get("type")
        group = kind if isinstance(kind, str) else (role.group if role is not None else None)
        players[name] = PlayerState(name=name, role=s.role, faction=s.faction, group=group, life=_life(s),
                                    benched=s.benched, tags=frozenset(s.tags) | held.get(name, set()), vote_right=None)
    reds = table.state.get(REDS)
    return GameState(ruleset=ruleset, players=players, declared=declared,
                     faction_reds={str(k): int(v) for k, v in reds.items()} if isinstance(reds, dict) else {})


def judge(board: Board) -> tuple[dict[str, FactionLoss], Outcome | None]:
    """The one evaluator on the board as it stands: every loss (earlier ones kept), and the outcome."""
    ruleset = board.ruleset
    assert ruleset is not None
    state = view(board.table, ruleset, frozenset(board.declared))
    if board.hooks is not None and board.hooks.win_view is not None:
        state = board.hooks.win_view(board, state)
    before = board.state.get(LOST) or []
    lost = {str(f): FactionLoss(str(f), f"{f}阵营已判负", "") for f in before}
    return evaluate(ruleset, state, lost)


def check(board: Board, point: str) -> Outcome | None:
    """Run the win check if the ruleset names ``point``; record new losses (``判负阵营``) and a win.

    A win already recorded stands (the first reached is the game's); with ``stops`` the win ends
    the settlement here (:class:`~tracker.engine.night.board.SettlementOver`).
    """
    ruleset = board.ruleset
    if ruleset is None or board.result.outcome is not None:
        return None
    full = runs_at(ruleset, point)
    if not full and point not in ruleset.win_policy.losses_at:
        return None
    lost, outcome = judge(board)
    before = [str(f) for f in board.state.get(LOST) or []]
    new = [f for f in lost if f not in before]
    if new:
        board.set_state(LOST, [*before, *new])
        for f in new:
            board.note(f"判负：{lost[f].reason}（{lost[f].clause}）")
            for listener in list(board.on_lost):
                listener(board, f)
    if not full:
        return None
    if outcome is None:
        # said once a step or phase is judged (not after every death), when something was settled
        if point not in ("start", "death") and board.result.log:
            standing = [f for f in ruleset.faction_names if f not in lost
                        and any(p.faction == f for p in board.table.players.values())]
            board.note(f"胜负判定（{POINT_WORDS.get(point, point)}）：无阵营获胜；尚未判负的阵营：{'、'.join(standing) or '无'}")
        return None
    if outcome.winner is None:
        board.note(f"胜负：{outcome.reason}")
        return outcome
    board.win(outcome.winner, outcome.reason, outcome.clause, stop=ruleset.win_policy.stops)
    return outcome


def lose(board: Board, faction: str, reason: str, clause: str) -> None:
    """A loss the post leaves to a player's or the director's act, not to a ``[[win]]`` condition
    (投降, "判罚红牌时，导演视情况决定是否判负"): recorded as the day's ``surrender`` / ``faction_lost``
    events record it, and the game's ``on_lost`` listeners run as for any loss."""
    lost = [str(f) for f in board.state.get(LOST) or []]
    if faction in lost:
        return
    board.set_state(LOST, [*lost, faction])
    board.note(f"判负：{faction}阵营判负（{reason}；{clause}）")
    for listener in list(board.on_lost):
        listener(board, faction)


def declare(board: Board, condition: str) -> None:
    """A condition the post's settlement decides and ``[[win]]`` names as ``declared`` (M160 密谋成功):
    the night's counterpart of the director's ``declared`` event."""
    board.declared.add(condition)
