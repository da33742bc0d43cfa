"""What every phase of 107 shares: 翻转身份, the relic's moves, 出局 effects and the win check.

The post defines one mechanism, 翻转身份 ("每种人类身份都对应了亡灵身份"), used by 诅咒, 初拥, 死灵咒,
拓印, 腐化, 圣光天启, 夜之躯 and 夜之心: the night file's ``[flip]`` says it and the generic
:mod:`tracker.engine.night.flips` does it; what a flip sets off in this game is :func:`flipped` here. Likewise the relic (亡灵圣物) changes hands through seven skills and always keeps
the same ``state`` record (holder, 诅咒剩余次数, since) that 认主 counts from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tracker.engine.night import flips, win
from tracker.engine.night.board import Board
from tracker.engine.night.model import Seat
from tracker.engine.state import ActionRecord, GameState

UNDEAD = "亡灵"
RELIC = "亡灵圣物"

#: Roles that have a group (民兵、恶徒、活尸+天谴者): "已经出局的有群的角色从自已所在的群中立即移除。"
GROUPS = {"民兵": "民兵群", "恶徒": "恶徒群", "活尸": "活尸群", "天谴者": "活尸群"}
FACTIONS = ("莱恩", "圣殿", "环蛇", "亡灵", "中立")
#: state key: 夜之牙 "每当此技能使一名亡灵阵营角色出局时，中立阵营判胜所需人数+2" (7 when absent).
NEUTRAL_NEED = "中立判胜人数"
#: The point of [win_policy] checks_at at the end of a day (the night's is its step (17)).
DAY_END = "白天结束"

CL_LAST_WORDS = "（14）夜晚出局的角色可以遗言，得到通知<馈赠>以及<传承>。夜晚或白天出局的贵族可以发动<权势>。"


def is_undead(seat: Seat) -> bool:
    """亡灵阵营; "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营" so a 夜行怪 always counts."""
    return seat.faction == UNDEAD or seat.role == "夜行怪"


def is_human(seat: Seat) -> bool:
    return not is_undead(seat)


def counts_in(seat: Seat, faction: str) -> bool:
    if seat.faction == faction:
        return True
    return seat.role == "夜行怪" and faction in (UNDEAD, str(seat.fields.get("守夜人阵营", "中立")))


def names(seats: list[Seat]) -> str:
    return "、".join(s.name for s in seats) or "无"


def relic(board: Board) -> dict[str, Any] | None:
    r = board.state.get(RELIC)
    return r if isinstance(r, dict) else None


def relic_holder(board: Board) -> str | None:
    r = relic(board)
    return str(r["holder"]) if r and r.get("holder") else None


def move_relic(board: Board, to: str, by: str) -> None:
    """The relic changes hands: the tag moves, and with it the record's holder and ``since`` (认主 counts from it)."""
    if relic(board) is None:
        board.state[RELIC] = {"诅咒剩余次数": 3}
    frm = relic_holder(board)
    if frm != to:
        board.move_tag(RELIC, frm, to, by)


def flip(board: Board, name: str, cause: str, *, strip: bool = False) -> None:
    """翻转身份 of one player by the night file's ``[flip]`` (:func:`tracker.engine.night.flips.flip`): human →
    its 亡灵 identity, 亡灵 → back to its 原身份 (圣光天启 ``strip``: "并失去所有技能"); :func:`flipped` follows."""
    flips.flip(board, name, cause, strip=strip)


def flipped(board: Board, seat: Seat, before: tuple[str, str], cause: str) -> None:
    """What a flip sets off here (``GameHooks.flipped``): a new 亡灵 identity is born (告死者, 天谴); a player human again restarts 认主's count (and a 守夜人 shows his 夜之隐). Who hears of it
    (灵魂链接) is the data's ``hears``."""
    if is_undead(seat):
        _born(board, seat)
    else:
        if seat.role == "守夜人":
            board.result.state_after[f"{seat.name}.夜之隐"] = seat.uses.get("夜之隐", 0)
        _human_again(board, seat.name)


def _human_again(board: Board, name: str) -> None:
    """认主 counts "以人类身份持有[亡灵圣物]连续度过两个完整的夜晚": a holder who turns human again
    starts a new streak now, so the nights he held the relic as 亡灵 never count."""
    r = relic(board)
    if r is None or r.get("holder") != name:
        return
    when = {"night": board.night} if board.night is not None else {"day": board.table.day or 0}
    board.set_state(RELIC, {**r, "since": when})
    board.note(f"{name}以人类身份持有[亡灵圣物]自{_when_words(when)}起重新计算（认主只计人类身份的夜晚）")


def _when_words(when: dict[str, int]) -> str:
    return f"第{when['night']}夜" if "night" in when else f"第{when['day']}天"


def _born(board: Board, seat: Seat) -> None:
    """What a 亡灵 identity does the moment it is born here (告死者, 天谴); 灵能 and 夜之眼 are their skills'
    ``trigger.on = "gain"`` (:mod:`tracker.engine.night.gains`)."""
    if seat.role == "告死者":
        board.set_state("告死者", seat.name)
    elif seat.role == "天谴者":
        pending = board.state.setdefault("_天谴待定", [])
        pending.append(seat.name)
        board.tell(seat.name, "天谴：你可以选定一个阵营，随机一名当前存活的该阵营角色于当夜结束时出局")


def exit_effects(board: Board, seat: Seat, cause: str) -> None:
    """Step (14)/(20): 遗言, 恶徒首领's count, leaving the group (权术, 馈赠, 传承 and 权势 are data triggers whose
    ``at`` is this step: they follow, 权术 first, and 馈赠 does not act once 权术 has taken the relic)."""
    name = seat.name
    board.tell(name, "出局通知；可以提交遗言")
    group = GROUPS.get(seat.role)
    if group:
        board.note(f"{name}从{group}中移除（已经出局的有群的角色从自已所在的群中立即移除）")
    if seat.role == "恶徒":
        out = [p.name for p in board.table.players.values() if p.role == "恶徒" and not p.alive]
        leader = board.state.get("恶徒首领")
        if leader:
            board.result.state_after[f"恶徒首领{leader}的投票数量"] = f"+{len(out)}（已出局恶徒{len(out)}名：{'、'.join(out)}）"
            board.note(f"每出局一名恶徒，恶徒首领{leader}的投票数量+1（已出局恶徒{len(out)}名）")


def undead_can_return(board: Board) -> bool:
    """"场上无法产生新的亡灵" is false while the relic can still curse or a 守夜人 can take 夜之躯."""
    r = relic(board)
    if r is not None and int(r.get("诅咒剩余次数", 0)) > 0:
        return True
    if r is None:
        return True  # before 藏匿 the relic (and its 3 curses) is still to come
    return any(s.role == "守夜人" for s in board.living())


def watchman_joins(board: Board, alive: dict[str, list[Seat]], lost: set[str]) -> bool:
    """夜之躯："当首个非亡灵阵营角色全部出局时，守夜人加入该阵营。" — once, for the first such faction."""
    if any(f in lost for f in ("莱恩", "圣殿", "环蛇")):
        return False
    wiped = next((f for f in ("莱恩", "圣殿", "环蛇") if not alive[f]), None)
    if wiped is None:
        return False
    joined = False
    for s in board.living():
        if s.role == "守夜人" and s.faction == "中立":
            board.convert(s.name, None, wiped, f"夜之躯：首个非亡灵阵营（{wiped}）角色全部出局，守夜人加入该阵营")
            joined = True
        elif s.role == "夜行怪" and s.fields.get("守夜人阵营", "中立") == "中立":
            s.fields["守夜人阵营"] = wiped
            board.result.state_after[f"{s.name}.守夜人阵营"] = wiped
            board.note(f"夜之躯：首个非亡灵阵营（{wiped}）角色全部出局，守夜人（现为夜行怪{s.name}）加入该阵营")
            joined = True
    return joined


def joins(board: Board) -> None:
    """夜之躯 before a win check: the 守夜人 joins the first non-亡灵 faction wiped out."""
    living = board.living()
    alive = {f: [s for s in living if counts_in(s, f)] for f in FACTIONS}
    watchman_joins(board, alive, set(board.state.get("判负阵营", []) or []))


def check_win(board: Board, step: str) -> None:
    """胜负判定 at ``step`` (the day's end; the night's (17) is the generic walk's, after
    :func:`joins`): first 夜之躯, then the ruleset's ``[[win]]`` by the one win check."""
    joins(board)
    win.check(board, step)


def win_view(board: Board, state: GameState) -> GameState:
    """What 107's table says that the ``[[win]]`` conditions read from the day's records:

    - "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营": the faction the 守夜人 joined (夜之躯), not only 中立;
    - 亡灵·负 "且场上无法产生新的亡灵" (``declared = "no_new_undead"``): :func:`undead_can_return`;
    - 中立·胜 "每当此技能使一名亡灵阵营角色出局时，中立阵营判胜所需人数+2": the table's 中立判胜人数,
      as the successful 夜之牙 actions the condition counts.
    """
    players = dict(state.players)
    for s in board.table.players.values():
        if s.role == "夜行怪":
            players[s.name] = replace(players[s.name], also=(str(s.fields.get("守夜人阵营", "中立")),))
    declared = state.declared if undead_can_return(board) else state.declared | {"no_new_undead"}
    bites = max(0, (int(board.state.get(NEUTRAL_NEED, 7)) - 7) // 2)
    fangs = tuple(ActionRecord(name="夜之牙", player=None, actor=None, success=True, day=None, seq=0)
                  for _ in range(bites))
    return replace(state, players=players, declared=declared, actions=(*state.actions, *fangs))
