"""Before the game and by day: the lovers' setup choice and a 殉职 refused — with the
same exit cascades as the night (a red card is data: the night file's ``send_off``).

总体流程 1–2: "游戏开始时，变异丘比特选择情侣，人质选择<遇难>对象，绑匪选择<设计>对象。"
"所有角色的阵营确定，单身狼人共群，情侣共群。"
"""

from __future__ import annotations

from collections.abc import Collection

from tracker.engine.night.gains import marked
from tracker.engine.night.games.luoluo_m19.common import LOVER_TAGS, WOLVES, Ctx, lovers

PAIRS = {"基佬情深": ("攻", "受"), "人狗情未了": ("主人", "忠犬")}


def setup(ctx: Ctx) -> None:
    """双歧之箭, then the factions: 恋爱, 私奔, 逃脱, 背叛 (遇难's choice, next in the post's order, is data:
    its trigger's ``keeps``; then 设计's, data too).

    Lovers given as a setup fact (``state.情侣`` without the lovers' tags) were made lovers before
    the refusals, by :func:`named_lovers` (the hooks' ``prepare``), with the arrow's own steps."""
    arrows = [a for a in ctx.of("双歧之箭") if a.index not in ctx.used]
    for act in arrows[-1:]:
        ctx.used.add(act.index)
        first, second = act.targets
        make_lovers(ctx, act.actor, act.choice or "", first, second)


def make_lovers(ctx: Ctx, cupid: str | None, kind: str, first: str, second: str) -> None:
    """恋爱<强制> —— "游戏开始时被丘比特选择的两名角色成为情侣": ``state.情侣``, the lovers' tags,
    their notice, then the factions (恋爱、私奔、双民变民 …). The one home of what the lovers' choice
    does, for the arrow and for the lovers given as a setup fact alike."""
    b = ctx.board
    k1, k2 = PAIRS[kind]
    b.set_state("情侣", {"类型": kind, k1: first, k2: second})
    for name, key in ((first, k1), (second, k2)):
        if f"情侣:{key}" not in b.seat(name).tags:
            b.seat(name).tags.append(f"情侣:{key}")
        b.tell(name, f"恋爱：你与{second if name == first else first}成为情侣（{kind}，你是{key}）")
    who = f"变异丘比特{cupid}" if cupid else "变异丘比特"
    b.note(f"游戏开始前：{who}选择{kind}：{k1}{first}、{k2}{second}")
    _factions(ctx, cupid, first, second)


def named_lovers(ctx: Ctx) -> None:
    """The lovers named in ``state.情侣`` whose seats do not carry their tags yet: named as a setup
    fact, not yet made lovers ("情侣 is a state object and tags. They agree" once they are). The
    cupid is the seat whose role holds 双歧之箭."""
    lv = lovers(ctx.table)
    if lv is None or lv.get("类型") not in PAIRS:
        return
    k1, k2 = PAIRS[str(lv["类型"])]
    first, second = str(lv.get(k1)), str(lv.get(k2))
    if first not in ctx.table.players or second not in ctx.table.players:
        return
    if f"情侣:{k1}" in ctx.table.players[first].tags and f"情侣:{k2}" in ctx.table.players[second].tags:
        return
    archers = set(ctx.board.skill("双歧之箭").roles)
    cupid = next((p.name for p in ctx.table.players.values() if p.role in archers), None)
    make_lovers(ctx, cupid, str(lv["类型"]), first, second)


def _factions(ctx: Ctx, cupid: str | None, a: str, c: str) -> None:
    b = ctx.board
    sa, sc = b.seat(a), b.seat(c)
    pair = (sa, sc)
    wolves = [s for s in pair if s.role in WOLVES]
    kidnapper = next((s for s in pair if s.role == "绑匪"), None)
    for s in pair:  # 背叛, 逃脱 "当……成为情侣时" are data: the ``gain`` triggers of the lovers' marks
        for tag in [t for t in s.tags if t in LOVER_TAGS]:
            marked(b, s, tag)
    if kidnapper is not None and len(wolves) == 1:
        b.note(f"恋爱：绑匪{kidnapper.name}和{wolves[0].role}成为情侣 → 绑匪加入狼群，丘比特加入狼人阵营"
               "（狼人阵营角色全部出局之后不接刀）")
        if "狼群" not in kidnapper.tags:
            kidnapper.tags.append("狼群")
        if cupid is not None and b.seat(cupid).faction != "狼人":
            b.convert(cupid, None, "狼人", "恋爱：绑匪和狼成为情侣")
        return
    if sa.faction == sc.faction:
        word = {"村民": "变民", "狼人": "变狼"}.get(sa.faction, "")
        if cupid is not None and b.seat(cupid).faction != sa.faction:
            b.convert(cupid, None, sa.faction, f"情侣同属{sa.faction}阵营，丘比特{word}")
        if sa.faction == "狼人" and len(wolves) == 2:
            b.note("恋爱：双狼情侣 → 丘比特变狼，狼人全部出局后接刀")
        return
    b.note(f"私奔：情侣{a}（{sa.faction}）、{c}（{sc.faction}）不属于同一个阵营 → 均脱离各自的阵营，形成黑情侣阵营")
    for s in pair:
        b.convert(s.name, None, "黑情侣", "私奔")
    if cupid is not None and b.seat(cupid).faction != "黑情侣":
        b.convert(cupid, None, "黑情侣", "私奔：丘比特随情侣")
    for s in wolves:
        if "狼群" in s.tags:
            s.tags.remove("狼群")
        b.note(f"恋爱：情侣中有且只有一名狼人{s.name} → 失去<杀人>，且不与其他狼人阵营的角色互知共群")


def leftovers(ctx: Ctx, settled: Collection[int]) -> None:
    """A 殉职 by a sheriff who did not go out (its trigger never came: not in ``settled``) is refused,
    not silently dropped; so is any other exit trigger's submission by a player still in (遗志)."""
    b = ctx.board
    for act in ctx.actions:
        if act.index in ctx.used or act.index in settled:
            continue
        if act.skill == "殉职":
            ctx.used.add(act.index)
            b.reject(act, f"{act.actor}没有作为警长出局，不能发动<殉职>", ctx.clause("殉职"))
            continue
        skill = b.skill(act.skill)
        if skill.trigger is not None and skill.trigger.on == "exit" and act.members and b.seat(act.members[0]).alive:
            ctx.used.add(act.index)
            b.reject(act, f"{act.actor}未出局，<{skill.name}>只在出局时发动", skill.trigger.clause or skill.clause)
