"""A red card: in the posts that bench instead of taking a player out (107, M160), and in those where
it takes him out (M19 "玩家受到红牌判罚时出局（称为“红牌罚下”）").

"玩家受到红牌判罚时进入挂机状态（称为“红牌罚下”）" — the shared vocabulary submits every red card as
``{"actor": "导演", "skill": "红牌罚下"}``; in these posts it puts the player in 挂机 (he stays in the
game, his submissions are refused from then on) and, where the director decides so ("判罚红牌时，
导演视情况决定是否判负该玩家所在阵营", ``choice = 判负``), judges his faction lost. The game's own win
check then runs as after any other change.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.night import win
from tracker.engine.night.board import Board
from tracker.engine.night.model import Action

#: The table's ``state`` key holding each faction's red cards (a ``[[win]]`` ``red_cards_at_least`` reads it).
REDS = win.REDS

BENCHED = "挂机"


def bench(board: Board, action: Action, clause: str) -> str:
    """Bench the red card's target; returns the player."""
    target = action.targets[0]
    seat = board.seat(target)
    if BENCHED not in seat.status:
        seat.status.append(BENCHED)
    board.result.state_after[f"{target}.status"] = list(seat.status)
    board.note(f"红牌罚下：{target}进入挂机状态（{clause}）")
    if judged_lost(action):
        win.lose(board, seat.faction, f"红牌罚下：导演决定判负{target}所在的阵营", clause)
    return target


def judged_lost(action: Action) -> bool:
    """Whether the director judged the carded player's faction lost ("判罚红牌时，导演视情况决定是否判负该玩家所在
    阵营"): the card's ``choice`` is 判负 itself — a choice that only contains it (不判负) is not, and both kinds of
    red card (挂机 and 出局) read it here, so the loss goes through :func:`.win.lose` and its listeners alike."""
    return (action.choice or "").strip() == "判负"


def send_off(board: Board, action: Action, target: str, cause: str, clause: str,
             out: Callable[[str, str], None], asks: str | None = None) -> None:
    """A red card that takes the player out: counted for his faction first (so the win check of his exit
    already sees it: "同一阵营的角色累计获得两张或以上红牌时，阵营判负"), out at once if still in (a player
    already out can still be carded), his faction judged lost where the ``choice`` says 判负 and its red
    cards do not already lose it by the ruleset's rule ("判罚红牌时，导演视情况决定是否判负该玩家所在阵营"),
    then the win check at the point named as the skill (``[win_policy] checks_at``). ``asks``: the director's 判负 is
    a question instead of the ``choice`` (213), asked while the faction has not lost already."""
    seat = board.seat(target)
    faction = seat.faction
    cards = count_red(board, faction)
    board.note(f"红牌：{target}（{faction}阵营）红牌罚下（该阵营累计{cards}张红牌）")
    if seat.alive:
        out(target, cause)  # his titles at random inside the exit: :func:`titles_at_random`, the flow's listener
    else:
        board.note(f"红牌：{target}已出局（已出局角色仍可被判罚），不再出局")
    if asks is not None:  # 213: the director is asked, after the exit, while the faction still stands
        standing = faction not in (board.state.get(win.LOST) or []) and cards < reds_that_lose(board, faction)
        if standing and board.chance(f"{action.skill}判负.{target}", asks.format(target=target, faction=faction), 0.0):
            win.lose(board, faction, "导演判负红牌玩家所在阵营，优先判负，不公示", clause)
    elif judged_lost(action) and cards < reds_that_lose(board, faction):
        win.lose(board, faction, "导演判负红牌玩家所在阵营，优先判负，不公示", clause)
    win.check(board, action.skill)


def count_red(board: Board, faction: str) -> int:
    """One more red card for ``faction`` in the table's ``红牌`` (what ``red_cards_at_least`` reads); its count now."""
    reds = dict(board.state.get(REDS) or {})
    count = int(reds.get(faction, 0)) + 1
    board.set_state(REDS, {**reds, faction: count})
    return count


def reds_that_lose(board: Board, faction: str) -> int:
    """The red cards at which the ruleset's ``[[win]]`` rule loses the faction (none: never)."""
    rules = board.ruleset.win if board.ruleset is not None else []
    found = [w.when.n for w in rules if w.faction == faction and w.result == "lose"
             and w.when.kind == "red_cards_at_least"]
    return min(found, default=10**9)


def titles_at_random(board: Board, carded: str) -> None:
    """``[[tags]] on_red = "random"``: a title the carded player held goes to a living player, a seeded pick the
    director may answer (M19 "警长因红牌罚下而出局后，下任警长将被随机指定"); asked by the flow inside his exit."""
    seat = board.seat(carded)
    for tag in (board.ruleset.tags if board.ruleset is not None else []):
        if tag.on_red != "random" or (tag.name not in seat.tags and board.state.get(tag.name) != carded):
            continue
        living = [p.name for p in board.table.living()]
        if living:
            to = board.ask(f"{tag.name}.{carded}", f"{tag.name}{carded}红牌罚下，随机指定下任{tag.name}", living)
            board.move_tag(tag.name, carded, to, "红牌罚下后随机指定")
