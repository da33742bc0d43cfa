"""The killing end of M160's night: 愚者, who the 恶魔 chose for 凶杀 (the night file settles it, and
毒害/狂乱 with it), 夺魂, and the deaths at night's end.

"致死伤害 … 该角色在夜晚或白天结束时【死亡】": lethal damage is collected in the order's steps and
turns into 死亡 (not 出局: the dead keep a last vote) when the night ends, after 晨曦, where 自保,
清醒 ("免受恶魔侵害") and 彷徨 (the night file's ``cover`` that ``stands_in``) have their say.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tracker.engine.night import victims
from tracker.engine.night.effects import Hit, take_cover
from tracker.engine.night.games.gourmet_m160.skills import _say
from tracker.engine.night.games.gourmet_m160.table import (
    LETHAL,
    SOBER,
    Lethal,
    Night,
    kind,
    names,
)
from tracker.engine.night.locks import locked, unlocked
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.flow import Flow

SOUL = ("缚魂灵", "附魂灵")


def fool(night: Night) -> None:
    """(4.18)【愚者】: a 丑角 only *tries* two players; nothing happens unless he is the 恶魔 (see choices)."""
    for a in night.of("愚者"):
        if night.is_demon(a.actor):
            _say(night, f"愚者：恶魔{a.actor}（丑角）尝试操作{names(list(a.targets))}，见凶杀")
        else:
            _say(night, f"愚者：{a.actor}尝试操作{names(list(a.targets))} → 丑角在夜晚不能进行任何操作，无效果")


def choices(flow: Flow, night: Night) -> None:
    """(4.22) who each 恶魔 chose, handed to the night file's 【凶杀】 (``one_victim``) — what data cannot say: the
    players he chose with the skills of the role he believes (附体), the 丑角 恶魔's random kill or what he tried
    (愚者), the 夺刀 seizer's one player; nothing while the 告死邪魔 can 唆使 ("当你能发动此技能时，【恶魔】的
    【凶杀】技能不能发动")."""
    board = night.board
    flow.done.update(a.index for a in flow.actions if a.skill == "凶杀")  # the hand-over below is what is settled
    lock = locked(board, night.pool, "凶杀")  # 唆使's `locks`: "当你能发动此技能时，【恶魔】的【凶杀】技能不能发动"
    if lock is not None:
        _say(night, f"凶杀：{night.seat(lock[0]).role}{lock[0]}能发动{lock[1].name} → 恶魔的凶杀不能发动")
        return
    for who, locking, why in unlocked(board, night.pool, "凶杀"):
        _say(night, f"凶杀：{night.seat(who).role}{who}不能发动{locking.name}（{why}）→ 恶魔的凶杀可以发动")
    skill = board.skill("凶杀")
    for d in [p.name for p in board.living() if night.is_demon(p.name)]:
        own = [a for a in night.actions if a.actor == d and a.skill in ("凶杀", "夺刀") and a.targets]
        if night.seat(d).role == "幕后黑手":  # 夺刀 "你发动凶杀时改为主动选择一人"
            chosen = list(own[-1].targets[:1]) if own else []
        elif night.clown(d):
            tried = [a for a in night.of("愚者") if a.actor == d]
            if night.impaired(d):
                chosen = list(night.targets(tried[-1])) if tried else []
                if not tried:
                    _say(night, f"凶杀：恶魔{d}是丑角，醉酒/中毒且没有尝试操作 → 无人因凶杀死亡")
            else:
                pool = victims.candidates(flow, skill, Action(d, "凶杀"), f"({night.step})",
                                          among=[p.name for p in board.living()])
                chosen = [board.ask(f"凶杀.丑角.{d}", "恶魔丑角产生的杀害随机决定", pool)] if pool else []
        else:
            chosen = night.chosen_by(d)
        flow.hand_over(Action(d, "凶杀", tuple(chosen)))


def _victim(night: Night) -> Hit | None:
    """The 凶杀's hit tonight (the night file's ``damage``), waiting in the pool for the night's end."""
    return next((h for h in night.pool.hits if h.skill == "凶杀"), None)


def soul(night: Night) -> None:
    """(4.25)【夺魂】: a 爪牙 the 缚魂灵 kills keeps his skills and learns who he is (the cause his 死亡 records)."""
    hit = _victim(night)
    if hit is None:
        return
    role = night.seat(hit.by).role
    if role in SOUL and kind(night.seat(hit.target)) == "爪牙":
        _say(night, f"夺魂：爪牙{hit.target}被{role}杀害，保留技能并得知{hit.by}是恶魔")
        night.tell(hit.target, f"夺魂：你被{role}杀害，你保留技能；恶魔是{hit.by}")
        hits = night.pool.hits
        hits[hits.index(hit)] = replace(hit, cause=f"夺魂（{role}{hit.by}）")


def deaths(night: Night) -> list[str]:
    """Night's end: lethal damage becomes 死亡 in the order it was dealt, unless 自保 or 清醒 stop it;
    a ``cover`` that ``stands_in`` (彷徨, the night file's) may send its user in the target's place."""
    board = night.board
    died: list[str] = []
    board.note("夜晚结束：结算致死伤害")
    # the night file's damage (唆使, 凶杀, 毒害/狂乱), in the order it was dealt, dies here, not at the engine's resolve
    dealt = [Lethal(h.target, h.cause, any(board.has(m) and night.is_demon(m) for m in h.members),
                    board.skill(h.skill).clause, h.skill) for h in night.pool.hits]
    night.pool.hits = []
    for hit in dealt:
        t = hit.target
        if not board.seat(t).alive:
            continue
        if t in night.coward_safe:
            board.survive(t, "<自保>：懦夫选中了表面阵营为恶魔的玩家，当晚不会死亡")
            continue
        if hit.by_demon and t in night.sober:
            board.survive(t, f"清醒：免受恶魔侵害（{SOBER}）")
            continue
        covered = take_cover(board, night.pool.covers, t, hit.skill, night.pool.guards)  # 彷徨 (data: stands_in)
        if covered is not None:
            board.survive(t, covered[1])
            t = covered[0]
        if board.kill(t, hit.cause, life="死亡"):
            died.append(t)
            seat = board.seat(t)
            seat.fields["死亡"] = {"night": night.n, "cause": hit.cause}
            board.result.state_after[f"{t}.死亡"] = seat.fields["死亡"]  # the player field later nights read
    if not died:
        board.note(f"夜晚结束：无人死亡（{LETHAL[:12]}…）")
    return died
