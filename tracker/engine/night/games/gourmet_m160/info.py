"""The information skills of M160's nights: what a player learns, in the post's words.

"信息类技能则大概率（90%）获取错误信息": while 醉酒 or 中毒 (and not 清醒) every answer here passes
through :meth:`~.table.Night.wrong`, a seeded chance the director may override.
"""

from __future__ import annotations

from tracker.engine.night.games.gourmet_m160.skills import _each, _say
from tracker.engine.night.games.gourmet_m160.table import (
    GASLIT,
    Night,
    kept_skills,
    names,
)
from tracker.engine.night.model import Action

QUESTIONS = ("他们表面阵营是否属于同一阵营", "他们相邻玩家是否有表面阵营为恶魔的玩家", "他们当中是否有表面阵营为恶魔")


def divine(night: Night) -> None:
    """【占卜】: one of three yes/no questions, never the same one twice within a pair of nights."""
    board = night.board
    asked = board.state.get("占卜问题") if isinstance(board.state.get("占卜问题"), dict) else {}
    record = dict(asked or {})
    for a in _each(night, "占卜"):
        x, y = night.targets(a)
        before = (asked or {}).get(a.actor)
        paired = isinstance(before, dict) and night.n % 2 == 0 and before.get("night") == night.n - 1
        options = [q for q in QUESTIONS if not (paired and before and before.get("问题") == q)]
        q = board.ask(f"占卜.问题.{a.actor}", f"<占卜>：{a.actor}今晚得到哪个问题的答案", options)
        if q == QUESTIONS[0]:
            yes = night.looks_evil(x) == night.looks_evil(y)
        elif q == QUESTIONS[1]:
            yes = any(night.side(n) == "恶魔" for t in (x, y) for n in night.neighbours(t) if n not in (x, y))
        else:
            yes = night.side(x) == "恶魔" or night.side(y) == "恶魔"
        if night.wrong(a):
            yes = not yes
            _say(night, f"占卜：{a.actor}醉酒/中毒，信息错误")
        text = f"占卜：{'是' if yes else '否'}"
        if paired and before:
            text += f"（这两夜的答案可能对应的问题：{before.get('问题')}；{q}）"
        record[a.actor] = {"night": night.n, "问题": q}
        _say(night, f"占卜：{a.actor}选中{x}、{y}，问题“{q}” → {'是' if yes else '否'}")
        night.tell(a.actor, text)
    if record != (asked or {}):
        board.result.state_after["占卜问题"] = record


def demon_choices(night: Night) -> list[str]:
    """The players the 恶魔 chose tonight: the targets of the skills he believes he has (附体)."""
    out: list[str] = []
    for d in [p.name for p in night.board.table.players.values() if night.is_demon(p.name)]:
        out.extend(t for t in night.chosen_by(d) if t not in out)
    return out


def insight(night: Night) -> None:
    """【洞悉】: the 幕后黑手 learns the players the 恶魔 chose tonight."""
    for p in night.board.table.players.values():
        if p.role != "幕后黑手" or not kept_skills(p) or night.is_demon(p.name):
            continue
        if p.name in night.jailed:
            _say(night, f"洞悉：{p.name}今晚被禁锢，失去技能")
            continue
        chosen = demon_choices(night)
        fake = Action(p.name, "洞悉")
        if night.wrong(fake):
            others = [q.name for q in night.board.living() if q.name not in chosen]
            chosen = [night.board.ask(f"洞悉.错误.{i}", "醉酒的<洞悉>给出的错误玩家", others)
                      for i in (1, 2) if others]
        text = f"洞悉：恶魔今晚选择了{names(chosen)}" if chosen else "洞悉：恶魔今晚没有选择玩家"
        _say(night, f"{text}（告知{p.name}）")
        night.tell(p.name, text)


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
