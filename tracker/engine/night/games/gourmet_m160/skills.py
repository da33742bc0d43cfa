"""The steps of M160's nights that choose and learn: one function per line of the post's order.

Each function settles the submissions of one skill at its place in the order (``night.step``),
asking :class:`~.table.Night` whether the actor is blocked, drunk or poisoned at that moment, and
writes the private feedback in the post's words. Kills are in :mod:`.kills`.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.night.games.gourmet_m160.table import (
    Night,
    names,
)

Step = Callable[[Night], None]


def _say(night: Night, line: str) -> None:
    night.board.note(f"({night.step}) {line}")


# -- 其他夜 (4.1)–(4.2) ---------------------------------------------------------------------------
def votes(night: Night) -> None:
    """(4.1) the vote's 死亡 and the 出局 after a last vote of the day before, as the table has them (a vote the
    scenario submits, ``放逐投票 投票出局``, was settled at the data step just before: its ``kill`` with ``life``)."""
    day = night.board.catalog.day_before(night.n)
    dead = [p.name for p in night.board.table.players.values() if _on_day(p.fields.get("死亡"), day)]
    out = [p.name for p in night.board.table.players.values() if _on_day(p.fields.get("出局"), day)]
    _say(night, f"结算投票导致的死亡及出局：第{day}天死亡{names(dead)}；投出最后一票而出局{names(out)}")


def _on_day(when: object, day: int) -> bool:
    return isinstance(when, dict) and when.get("day") == day


def lost(night: Night) -> None:
    """(4.2)【迷失】: the 村民 who believes he is 煤气灯人 regains his skill once the 煤气灯人 died by 处决 or 投票."""
    state = night.board.state.get("迷失")
    if not isinstance(state, dict) or state.get("寻回"):
        return
    gas, villager = state.get("煤气灯人"), state.get("村民")
    if not isinstance(gas, str) or not isinstance(villager, str) or not night.board.has(gas):
        return
    died = night.seat(gas).fields.get("死亡")
    cause = died.get("cause", "") if isinstance(died, dict) else ""
    if not night.seat(gas).alive and any(w in cause for w in ("处决", "投票")):
        night.board.set_state("迷失", {**state, "寻回": True})
        _say(night, f"迷失：煤气灯人{gas}因{cause}死亡 → {villager}寻回他的技能")
        night.tell(villager, f"迷失：你寻回了你的技能，你的身份是{night.seat(villager).role}")
    else:
        _say(night, f"迷失：{villager}仍认为自己是煤气灯人，不能使用他的技能")


# -- effect skills (禁锢, 抗议, 药剂, 克隆, 自保, 彷徨, 面具, 明晰, 欺诈 are the night file's effects) ---------------------------------------------------------------------------
def pointers_of_failed_clone(night: Night) -> None:
    """③ a failed 模仿者 still hands in 指向: random feedback each day unless 清醒 (then none)."""
    for a in night.of("指向"):
        if night.seat(a.actor).role != "模仿者" or night.is_demon(a.actor):
            continue
        if a.actor in night.sober:
            _say(night, f"模仿者{a.actor}：克隆失败，今晚清醒 → 不获得任何反馈")
            continue
        fb = night.board.ask(f"模仿者.反馈.{a.actor}", "克隆失败的模仿者今天随机获得的反馈",
                             ["无反馈", "密谋失败", "是", "否", "0", "1", "2", "3", "4"])
        _say(night, f"模仿者{a.actor}：克隆失败 → 随机反馈“{fb}”")
        if fb != "无反馈":
            night.tell(a.actor, fb)
