"""``joins_team``: holders of a skill who share a team's group (107 统御<锁定> "天谴者与活尸互知共群").

"共群" reads two ways, and the post does not say which: the holders are the team's members and send its skills
(``acts``), or they only share its chat (``chat``). The ruleset's option named by the skill chooses; the
submission's refusal or the log names the reading, so the director sees which one settled the night. "互知" is
told when a player comes to hold the skill (:func:`known`, from :func:`.gains.gained`), in either reading.
"""

from __future__ import annotations

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import JOIN_READINGS, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Action, Seat
from tracker.errors import RulesetError

ACTS, CHAT = JOIN_READINGS


def joining(board: Board, action: Action, skill: Skill) -> tuple[Skill, str] | None:
    """The skill by which the players behind a team skill's submission who do not hold it share its team's group,
    with the reading that applies; None when there are none such, or (``chat``) when the team's own players send it
    with them — their submission, as ever."""
    players = board.table.players
    members = [players[m] for m in action.members if m in players]
    if skill.team is None or not members or len(members) != len(action.members):
        return None
    others = [p for p in members if not holds(p, skill)]
    if not others:
        return None
    for s in board.catalog.skills.values():
        if s.joins_team is not None and s.joins_team.team == skill.team and all(holds(p, s) for p in others):
            read = reading(board, s)
            return None if read == CHAT and len(others) < len(members) else (s, read)
    return None


def reading(board: Board, skill: Skill) -> str:
    """The value of the ruleset option the skill's ``joins_team`` names: ``acts`` or ``chat`` (``catalog.check_options``
    refuses a ruleset whose option could say anything else, as it is read)."""
    assert skill.joins_team is not None
    key = skill.joins_team.option
    if board.ruleset is None:
        raise RulesetError(f"<{skill.name}> 的 joins_team 读规则的选项 {key}，但结算没有规则",
                           hint="以规则结算（settle 的 ruleset）")
    return str(board.ruleset.option(key))  # its choices are the two readings: checked as the ruleset was read


def chat_only(action: Action, skill: Skill, by: Skill) -> str:
    """The refusal in the ``chat`` reading: the group's chat is shared, its skills are not."""
    assert by.joins_team is not None
    return (f"{action.actor}与{by.joins_team.team}只共群聊，不是其团队成员，不能发动<{skill.name}>（<{by.name}>“{by.clause}”"
            f"按选项 {by.joins_team.option} = {CHAT}；选 {ACTS} 则可发动）")


def acting(board: Board, action: Action, skill: Skill, by: Skill) -> None:
    """The log's line in the ``acts`` reading: the submission is the team's, sent by a member of its group."""
    assert by.joins_team is not None
    board.note(f"{action.actor}以<{by.name}>（选项 {by.joins_team.option} = {ACTS}：共群即为{by.joins_team.team}的成员）"
               f"发动<{skill.name}>")


def known(board: Board, seat: Seat, skill: Skill) -> None:
    """"互知": a player who comes to hold the skill is told the team's living players, and each of them his name."""
    j = skill.joins_team
    if j is None:
        return
    team = [p.name for p in board.living() if p.name != seat.name
            and any(s.team == j.team and holds(p, s) for s in board.catalog.skills.values())]
    board.tell(seat.name, j.told.format(players="、".join(team) or "无"))
    for name in team:
        board.tell(name, j.told_team.format(player=seat.name))
    board.note(f"<{skill.name}>：{seat.name}与{j.team}（{'、'.join(team) or '无存活者'}）互知共群"
               f"（选项 {j.option} = {reading(board, skill)}）")
