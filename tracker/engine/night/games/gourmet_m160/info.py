"""The information skill of M160's nights data cannot say: 煤气灯人【寻觅】 (the others are the night file's ``learn``).

"信息类技能则大概率（90%）获取错误信息": while 醉酒 or 中毒 (and not 清醒) its answer passes through
:meth:`~.table.Night.wrong`, a seeded chance the director may override.
"""

from __future__ import annotations

from tracker.engine.night.games.gourmet_m160.skills import _each, _say
from tracker.engine.night.games.gourmet_m160.table import (
    GASLIT,
    Night,
)


def seek(night: Night) -> None:
    """【寻觅】 at 晨曦: not the 恶魔's victim → 清醒 and 表面身份 煤气灯人; then learn whether the target's
    表面身份 is 煤气灯人. The 村民 who only believes he is 煤气灯人 has no such skill (【迷失】)."""
    for a in _each(night, "寻觅"):
        seat = night.seat(a.actor)
        t = night.targets(a)[0]
        if seat.role != "煤气灯人":
            answer = night.board.ask(f"寻觅.迷失.{a.actor}", f"{a.actor}只是认为自己是煤气灯人，导演给他的答复",
                                     ["是", "不是"])
            _say(night, f"寻觅：{a.actor}并非煤气灯人（迷失），不是他的技能；导演答复“{answer}”")
            night.tell(a.actor, f"寻觅：{t}的表面身份{answer}煤气灯人")
            continue
        if a.actor in night.jailed:
            night.refuse_jailed(a)
            _say(night, f"寻觅：{a.actor}今晚被禁锢，失去技能")
            continue
        if a.actor not in night.demon_victims:
            night.give(a.actor, "清醒")
            night.give(a.actor, GASLIT)
            _say(night, f"寻觅：{a.actor}未成为恶魔击杀的对象 → 清醒，表面身份变为煤气灯人（天亮后恢复）")
        yes = night.apparent_role(t) == "煤气灯人"
        if night.wrong(a):
            yes = not yes
        word = "是" if yes else "不是"
        _say(night, f"寻觅：{a.actor}选中{t} → {word}煤气灯人")
        night.tell(a.actor, f"寻觅：{t}的表面身份{word}煤气灯人")
