"""The steps of M160's nights that choose and learn: one function per line of the post's order.

Each function settles the submissions of one skill at its place in the order (``night.step``),
asking :class:`~.table.Night` whether the actor is blocked, drunk or poisoned at that moment, and
writes the private feedback in the post's words. Kills are in :mod:`.kills`.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.night.games.gourmet_m160.table import (
    DEMONS,
    MINIONS,
    OUTSIDERS,
    VILLAGERS,
    Night,
    kept_skills,
    kind,
    names,
)
from tracker.engine.night.model import Action

Step = Callable[[Night], None]


def _say(night: Night, line: str) -> None:
    night.board.note(f"({night.step}) {line}")


def _each(night: Night, skill: str) -> list[Action]:
    return night.of(skill)


# -- 首夜：游戏开始时 -----------------------------------------------------------------------------
def peek(night: Night) -> None:
    """【窥天】: the 群内 爪牙 learn three 村民/外来者 roles not on the table (picked by the director)."""
    board = night.board
    group = [p.name for p in board.table.players.values() if "群内" in p.tags and kind(p) == "爪牙"]
    if not group:
        return
    present = {p.role for p in board.table.players.values()}
    absent = [r for r in VILLAGERS + OUTSIDERS if r not in present]
    shown: list[str] = []
    for i in range(min(3, len(absent))):
        shown.append(board.ask(f"窥天.{i + 1}", f"<窥天>告知群内爪牙的第{i + 1}个不在场的村民/外来者身份",
                               [r for r in absent if r not in shown]))
    _say(night, f"窥天：群内爪牙{names(group)}得知本局不存在的身份：{names(shown)}")
    for p in group:
        night.tell(p, f"窥天：本局不存在于场上的村民/外来者身份：{names(shown)}")


def foretell(night: Night) -> None:
    """【预告】: one 善良 player learns that a 告死邪魔 is in the game."""
    board = night.board
    if not any(p.role == "告死邪魔" for p in board.table.players.values()):
        return
    good = [p.name for p in board.table.players.values() if p.faction == "善良"]
    who = board.ask("预告", "<预告>：哪名善良阵营玩家得知本局存在告死邪魔", good)
    _say(night, f"预告：{who}得知本局存在告死邪魔")
    night.tell(who, "预告：本局存在【告死邪魔】")


# -- 其他夜 (4.1)–(4.2) ---------------------------------------------------------------------------
def votes(night: Night) -> None:
    """(4.1) the vote's 死亡 and the 出局 after a last vote happened in the day: read from the table."""
    day = night.n - 1
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


# -- effect skills -------------------------------------------------------------------------------
def jail(night: Night) -> None:
    """【禁锢】: an 实际 爪牙 among the targets loses his skills tonight."""
    for a in _each(night, "禁锢"):
        why = night.disabled(a)
        if why:
            _say(night, f"禁锢：{why}")
            continue
        hit = [t for t in night.targets(a) if kind(night.seat(t)) == "爪牙"]
        night.jailed.update(hit)
        _say(night, f"禁锢：{a.actor}选中{names(list(night.targets(a)))} → "
                    + (f"爪牙{names(hit)}今晚失去技能" if hit else "都不是爪牙，无效果"))


def protest(night: Night) -> None:
    """【抗议】: tonight every skill naming these two may have the 无政府主义者 put in their place."""
    for a in _each(night, "抗议"):
        why = night.disabled(a)
        if why:
            _say(night, f"抗议：{why}")
            continue
        night.protest = (a.actor, frozenset(a.targets))
        _say(night, f"抗议：{a.actor}选中{names(list(a.targets))}，指定他们的技能可能改以{a.actor}为目标")


def potion(night: Night) -> None:
    """【药剂】 with its 特别地: no one 清醒 (or 醉酒) by 药剂 two days running; the 药师 is 清醒 the first
    time he picks himself; otherwise the nearest earlier potion of the same kind is avoided."""
    board = night.board
    history = [h for h in board.state.get("药剂历史", []) or [] if isinstance(h, dict)]
    for a in _each(night, "药剂"):
        why = night.disabled(a)
        if why:
            _say(night, f"药剂：{why}")
            continue
        x, y = night.targets(a)
        options = [{"清醒": x, "醉酒": y}, {"清醒": y, "醉酒": x}]
        last = next((h for h in history if h.get("night") == night.n - 1), None)
        legal = [o for o in options if not last or all(last.get(k) != v for k, v in o.items())]
        reason = ""
        if len(legal) == 1:
            reason = "同一名玩家不会连续两天因药剂而清醒或醉酒"
            pick = legal[0]
        elif a.actor in (x, y) and not any(a.actor in (h.get("清醒"), h.get("醉酒")) for h in history):
            pick = next(o for o in legal if o["清醒"] == a.actor)
            reason = "第一次选中药师自己，优先获得清醒"
        else:
            scored = sorted(legal, key=lambda o: -_nearest_repeat(history, o, night.n))
            if _nearest_repeat(history, scored[0], night.n) != _nearest_repeat(history, scored[-1], night.n):
                pick, reason = scored[0], "尽可能相近的两次内不会均因药剂而清醒或醉酒"
            else:
                sober = board.ask(f"药剂.{night.n}", f"<药剂>：{x}、{y}中谁清醒（规则不限定）", [x, y])
                pick = next(o for o in legal if o["清醒"] == sober)
        night.sober.add(pick["清醒"])
        night.drunk.add(pick["醉酒"])
        entry = {"night": night.n, "清醒": pick["清醒"], "醉酒": pick["醉酒"]}
        board.set_state("药剂历史", [*history, entry])
        _say(night, f"药剂：{pick['清醒']}清醒、{pick['醉酒']}醉酒，持续到第{night.n}天黄昏"
                    + (f"（{reason}）" if reason else ""))


def _nearest_repeat(history: list[dict[str, object]], option: dict[str, str], n: int) -> float:
    """How many nights back the nearest same-kind potion of either target lies (inf: none)."""
    best = float("inf")
    for kind_, who in option.items():
        for h in history:
            if h.get(kind_) == who and isinstance(h.get("night"), int):
                best = min(best, n - int(h["night"]))  # type: ignore[call-overload]
    return best


def coward(night: Night) -> None:
    """【自保】: a target whose 表面阵营 is 恶魔 (at this step) keeps the 懦夫 alive tonight."""
    for a in _each(night, "自保"):
        why = night.disabled(a)
        if why:
            _say(night, f"自保：{why}")
            continue
        hit = [t for t in night.targets(a) if night.side(t) == "恶魔"]
        if hit:
            night.coward_safe.add(a.actor)
        _say(night, f"自保：{a.actor}选中{names(list(night.targets(a)))} → "
                    + (f"{names(hit)}表面阵营为恶魔，{a.actor}当晚不会死亡" if hit else "表面阵营都不是恶魔，没有自保"))


def wander(night: Night) -> None:
    """【彷徨】: if one of the two dies tonight, the 虚无主义者 may die instead (asked at the death)."""
    for a in _each(night, "彷徨"):
        why = night.disabled(a)
        if why:
            _say(night, f"彷徨：{why}")
            continue
        night.wander = (a.actor, frozenset(night.targets(a)))
        _say(night, f"彷徨：{a.actor}选中{names(list(night.targets(a)))}")


def mask(night: Night) -> None:
    """【面具】: the target's 表面阵营 is 恶魔 tonight, for every skill settled after this step."""
    for a in _each(night, "面具"):
        t = night.targets(a)[0]
        night.board.set_state("面具上次", {"target": a.targets[0], "night": night.n})
        why = night.disabled(a)
        if why:
            _say(night, f"面具：{why}")
            continue
        night.masked = t
        _say(night, f"面具：{t}今晚表面阵营为恶魔")


def clarity(night: Night) -> None:
    """【明晰】: tonight the two show their 实际角色 (a 面具 or a belief no longer shows)."""
    for a in _each(night, "明晰"):
        why = night.disabled(a)
        if why:
            _say(night, f"明晰：{why}")
            continue
        night.clarified.update(night.targets(a))
        _say(night, f"明晰：{names(list(night.targets(a)))}今晚表面角色为实际角色")


def deceive(night: Night) -> None:
    """【欺诈】: a target whose 表面阵营 is 恶魔 has the skills he believes he has 中毒 from now on."""
    for a in _each(night, "欺诈"):
        why = night.disabled(a)
        if why:
            _say(night, f"欺诈：{why}")
            continue
        hit = [t for t in night.targets(a) if night.side(t) == "恶魔"]
        for t in hit:
            night.poison(t, "欺诈：他认为自己拥有的技能从现在开始按中毒处理")
        _say(night, f"欺诈：{a.actor}选中{names(list(night.targets(a)))} → "
                    + (f"{names(hit)}表面阵营为恶魔，其技能从现在开始按中毒处理" if hit else "表面阵营都不是恶魔，无效果"))


def plot(night: Night) -> None:
    """【密谋】: naming every 实际 邪恶 player still 存活 wins for 善良 at once; otherwise "密谋失败".

    The shared examples count only the living evil ("未选中P11", with P13 死亡 left out)."""
    board = night.board
    evil = sorted(p.name for p in board.table.players.values() if p.faction == "邪恶" and p.alive)
    clause = board.skill("密谋").clause
    for a in _each(night, "密谋"):
        chosen = set(night.targets(a))
        why = night.disabled(a)
        missed = [e for e in evil if e not in chosen]
        if why or missed:
            _say(night, f"密谋：{why or '未选中' + names(missed)} → 密谋失败")
            night.tell(a.actor, "密谋失败")
            continue
        _say(night, f"密谋：{a.actor}选中了所有实际阵营为邪恶阵营的玩家（{names(evil)}）")
        board.win("善良阵营", "阴谋论者<密谋>选中了所有实际阵营为邪恶阵营的玩家", clause, stop=True)


# -- information skills --------------------------------------------------------------------------
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


def interview(night: Night) -> None:
    """【访谈】: with the target's consent both learn whether one of them looks like a 恶魔."""
    for a in _each(night, "访谈"):
        t = night.targets(a)[0]
        agree = a.choice if a.choice in ("同意", "不同意") else night.board.ask(
            f"访谈.同意.{t}", f"<访谈>：{t}是否同意{a.actor}的访谈", ["同意", "不同意"])
        if agree != "同意":
            _say(night, f"访谈：{t}不同意")
            night.tell(a.actor, f"访谈：{t}不同意访谈")
            continue
        yes = night.side(a.actor) == "恶魔" or night.side(t) == "恶魔"
        if night.wrong(a):
            yes = not yes
        word = "有" if yes else "没有"
        _say(night, f"访谈：{a.actor}与{t} → 彼此之间{word}表面阵营为恶魔的玩家")
        for p in (a.actor, t):
            night.tell(p, f"访谈：你们之间{word}表面阵营为恶魔的玩家")


def travel(night: Night) -> None:
    """【游历】: how many players the two chose tonight up to this step (人次)."""
    here = night.here
    for a in _each(night, "游历"):
        count = sum(len(b.targets) for b in night.actions
                    if b.members and b.members[0] in night.targets(a) and night.step_of.get(b.index, 99) < here)
        shown = count
        if night.wrong(a):
            shown = int(night.board.ask(f"游历.错误.{a.actor}", "醉酒的<游历>给出的错误数字",
                                        [str(i) for i in range(0, 9) if i != count]))
        _say(night, f"游历：截至{a.actor}行动时，{names(list(night.targets(a)))}共选择了{count}人次"
                    + (f"（醉酒，告知{shown}）" if shown != count else ""))
        night.tell(a.actor, f"游历：{shown}")


def graves(night: Night) -> None:
    """【守墓】: remembered now; told tonight for a death tonight, kept pending until the next 黄昏."""
    for a in _each(night, "守墓"):
        _say(night, f"守墓：{a.actor}守着{names(list(night.targets(a)))}")


def graves_told(night: Night, died: list[str]) -> None:
    roles = VILLAGERS + OUTSIDERS + MINIONS + DEMONS
    for a in _each(night, "守墓"):
        for t in night.targets(a):
            if t in died:
                role = night.seat(t).role
                if night.wrong(a):
                    role = night.board.ask(f"守墓.错误.{a.actor}", "醉酒的<守墓>给出的错误身份",
                                           [r for r in roles if r != role])
                night.board.note(f"守墓结算：{t}在下个黄昏前死去 → {a.actor}得知其实际身份")
                night.tell(a.actor, f"守墓：{t}的实际身份是{role}")
            elif night.seat(t).alive:
                night.board.later(f"守墓：若{t}在下个黄昏前死去，{a.actor}当晚得知其实际身份", t,
                                  f"至第{night.n}天黄昏", night.board.skill("守墓").clause)


def torture(night: Night) -> None:
    """【拷问】: is there a 表面 邪恶 player among the two; one fixed other player, and the 审讯官
    himself, may be mistaken for one (never the other way round)."""
    board = night.board
    for a in _each(night, "拷问"):
        ts = night.targets(a)
        yes = any(night.looks_evil(t) for t in ts)
        if not yes:
            herring = board.ask("拷问.误认对象", "审讯官之外始终可能被误认的那名玩家（开局由导演定下）",
                                [p for p in board.table.players if p != a.actor])
            suspects = [t for t in ts if t in (a.actor, herring)]
            if suspects and board.ask(f"拷问.误认.{a.actor}", f"<拷问>：是否把{names(suspects)}误认为邪恶",
                                      ["否", "是"]) == "是":
                yes = True
        if night.wrong(a):
            yes = not yes
        word = "存在" if yes else "不存在"
        _say(night, f"拷问：{a.actor}选中{names(list(ts))} → {word}表面阵营为邪恶阵营的玩家")
        night.tell(a.actor, f"拷问：{names(list(ts))}中{word}表面阵营为邪恶阵营的玩家")


def demon_choices(night: Night) -> list[str]:
    """The players the 恶魔 chose tonight: the targets of the skills he believes he has (附体)."""
    out: list[str] = []
    for a in night.actions:
        actor = a.members[0] if a.members else ""
        if night.board.has(actor) and night.is_demon(actor) and a.skill not in ("夺刀",):
            out.extend(t for t in night.targets(a) if t not in out)
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
            chosen = [night.board.ask(f"洞悉.错误.{i}", "醉酒的<洞悉>给出的错误玩家", others) for i in (1, 2)]
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
            _say(night, f"寻觅：{a.actor}今晚被禁锢，失去技能")
            continue
        if a.actor not in night.demon_victims:
            night.sober.add(a.actor)
            night.gaslit_dawn.add(a.actor)
            _say(night, f"寻觅：{a.actor}未成为恶魔击杀的对象 → 清醒，表面身份变为煤气灯人（天亮后恢复）")
        yes = night.apparent_role(t) == "煤气灯人"
        if night.wrong(a):
            yes = not yes
        word = "是" if yes else "不是"
        _say(night, f"寻觅：{a.actor}选中{t} → {word}煤气灯人")
        night.tell(a.actor, f"寻觅：{t}的表面身份{word}煤气灯人")


def diagnose(night: Night) -> None:
    """(4.10)【诊断】 the choice; the answer comes at 晨曦 (4.27)."""
    for a in _each(night, "诊断"):
        _say(night, f"诊断：{a.actor}选中{night.targets(a)[0]}（反馈在晨曦）")


def diagnose_dawn(night: Night) -> None:
    """(4.27) 晨曦: whom the target chose and what he learnt; then a 表面 恶魔 learns he is 恶魔."""
    for a in _each(night, "诊断"):
        t = night.targets(a)[0]
        subject = t
        if night.wrong(a):
            subject = night.board.ask(f"诊断.错误.{a.actor}", "醉酒的<诊断>改报哪名玩家的行动",
                                      [p.name for p in night.board.living() if p.name != t] or [t])
        chose = [x for b in night.actions if b.members and b.members[0] == subject for x in b.targets]
        heard = night.heard.get(subject, [])
        what = f"得知了“{'；'.join(heard)}”" if heard else "未得知任何信息"
        text = (f"诊断：{t}今晚选择了{names(chose)}，{what}" if chose else f"诊断：{t}今晚没有选择任何玩家，{what}")
        night.board.note(f"({night.step}) 晨曦 诊断反馈：{text[3:]}")
        night.tell(a.actor, text)
        if night.side(t) == "恶魔" and not night.impaired(a.actor):
            night.board.note(f"({night.step}) 诊断：{t}表面阵营为恶魔 → 他得知自己是恶魔")
            night.tell(t, "诊断：你是【恶魔】")


def clone(night: Night) -> None:
    """(1.7)【克隆】: a 善良 target and no 醉酒 → the 模仿者 becomes that role (unknowingly); else 中毒."""
    board = night.board
    for a in _each(night, "克隆"):
        t = night.targets(a)[0]
        target = night.seat(t)
        if night.is_demon(a.actor):
            _say(night, f"克隆：{a.actor}是恶魔（自认模仿者），克隆的身份由导演记录；凶杀落在其选择的名单里")
            continue
        if target.faction == "善良" and not night.impaired(a.actor):
            board.convert(a.actor, target.role, None, "克隆成功（模仿者不知道）")
            night.seat(a.actor).fields["believes"] = "模仿者"
            night.seat(a.actor).fields["type"] = kind(target)
            board.result.state_after[f"{a.actor}.believes"] = "模仿者"
            _say(night, f"克隆：{t}属于善良阵营且{a.actor}没有醉酒 → 成功，{a.actor}变为{target.role}")
        else:
            why = "属于邪恶阵营" if target.faction != "善良" else "模仿者已经醉酒"
            night.poison(a.actor, "克隆发动失败")
            _say(night, f"克隆：{t}{why} → 克隆发动失败，{a.actor}中毒")


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


def dream_walk(night: Night, alive_after: list[str]) -> None:
    """【神游】: while the 漫步者 lives, one other living player (never twice) must be 疯狂 about him
    today; a cloned 漫步者 brings two more, from a list of its own."""
    board = night.board
    before = board.state.get("神游已选择") if isinstance(board.state.get("神游已选择"), dict) else {}
    record = dict(before or {})
    for p in board.table.players.values():
        if p.role != "漫步者" or p.name not in alive_after:
            continue
        cloned = night.believed(p.name) == "模仿者"
        walkers = {q.name for q in board.table.players.values() if q.role == "漫步者"}
        used = list(record.get(p.name, []))
        pool = [q for q in alive_after if q not in walkers and q not in used]
        if not pool:
            _say(night, f"神游：除漫步者外的玩家都成为过神游的目标 → {p.name}失去神游")
            continue
        for i in range(2 if cloned else 1):
            pool = [q for q in pool if q not in used]
            if not pool:
                break
            who = board.ask(f"神游.{p.name}.{i + 1}", "神游：今天需要对漫步者疯狂的玩家（导演随机指定）", pool)
            used.append(who)
            _say(night, f"神游：{who}今天需要对【漫步者】【疯狂】")
            night.tell(who, "神游：今天你需要对【漫步者】【疯狂】，否则你可能被处决")
        record[p.name] = used
    if record:
        board.result.state_after["神游已选择"] = record
