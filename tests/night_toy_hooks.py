"""Hooks of the toy ruleset in tests/fixtures/night/toy: 守护 then 杀人, and a win check."""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.night.board import Board, first
from tracker.engine.night.model import Action


def resolve(board: Board, actions: Sequence[Action]) -> None:
    guard = first(actions, "守护")
    guarded = guard.targets[0] if guard else None
    if guard:
        board.note(f"(1) {guard.actor}守护{guarded}")
        board.set_state("守护上次", {"target": guarded, "night": board.night})
    kill = first(actions, "杀人")
    if kill:
        victim = kill.targets[0]
        board.note(f"(2) 狼群杀害{victim}")
        if victim == guarded:
            board.survive(victim, "守卫<守护>")
        else:
            board.kill(victim, "杀人（狼群）")
    if kill and len(kill.targets) and kill.choice == "选择":
        board.ask("toy.choice", "随机选择一名存活的村民告知", [p.name for p in board.living() if p.faction == "村民"])
    if not any(p.alive for p in board.living() if p.faction == "狼人"):
        board.win("村民", "狼人全部出局", "狼人全部出局，村民获胜。", stop=True)
