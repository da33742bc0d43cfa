"""``learn``: an information skill's answer, asked of the whole submission, maybe wrong.

Posts' information skills ask one question about all the players chosen at once ("他们当中是否存在
【表面阵营】为【邪恶阵营】的玩家", "他们在今晚一共选择了多少名玩家"), not one answer per target as
``inspect`` gives; and a status of the user may make the answer wrong with a chance ("【醉酒】……信息类
技能则大概率（90%）获取错误信息"). Both are the night file's keys (``ask``, ``among``, ``match``,
``misread``, ``distort``); every chance and every pick is a question of the settlement (seeded, the
director's ``--decide`` overriding it), so the same night always tells the same thing. A question
about deaths to come ("当他们其中有人在下个黄昏前死去时，你在当晚得知他的【实际身份】") waits: the submission is
kept at its step and answered at the skill's ``feedback`` step, once the phase's deaths are known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracker.engine.night import seats, tonight, win
from tracker.engine.night.catalog import Consent, Distort, Effect, Misread, Question, Skill
from tracker.engine.night.effects import Pool, Use

if TYPE_CHECKING:
    from tracker.engine.night.board import Board
    from tracker.engine.night.flow import Flow


def apply(flow: Flow, use: Use, effect: Effect, targets: Sequence[str]) -> None:
    """Work out the answer for the players asked about, distort it, tell it and log it."""
    board, action = flow.board, use.action
    actor = action.members[0] if action.members else use.actor
    question, paired = _question(board, use, effect, actor) if effect.questions else (None, "")
    ask, among, match = (question.ask, question.among, question.match) if question else (effect.ask, effect.among, effect.match)
    if among == "neighbours":  # the living seated next to the targets, not the targets
        asked = tuple(dict.fromkeys(n for t in targets for n in seats.neighbours(board, t) if n not in targets))
    else:
        asked = (actor, *targets) if among == "actor_and_targets" else tuple(targets)
    if effect.ask in ("role_if_dies", "night_of"):  # answered at the skill's feedback step (deaths, the night's choices)
        flow.waiting.append(Waiting(use, effect, tuple(asked), actor, len(board.result.deaths)))
        listed = "、".join(asked) if asked else "无"
        board.note((effect.log or "{step} {actor}<" + use.skill.name + ">：{targets}（待反馈）").format(
            step=use.step, actor=actor, targets=listed, answer="", missed=""))
        return
    if effect.consent is not None and not _agreed(board, use, effect.consent, targets, actor):
        return
    missed: list[str] = []
    if ask == "chosen_before":
        truth = str(chosen_before(flow, asked))
    elif ask == "all":
        assert match is not None
        missed = [p.name for p in board.living() if p.name not in asked
                  and tonight.matches(board, flow.pool, match, p.name)]
        truth = effect.no if missed else effect.yes
    elif ask == "same":
        assert match is not None
        found = {tonight.matches(board, flow.pool, match, p) for p in asked}
        truth = effect.yes if len(found) <= 1 else effect.no
    else:
        assert match is not None
        yes = any(tonight.matches(board, flow.pool, match, p) for p in asked)
        if not yes and effect.misread is not None:
            yes = misread(board, use, effect.misread, asked, actor)
        truth = effect.yes if yes else effect.no
    told, held = truth, _distorted(flow, use, effect.distort, actor)
    if held is not None:
        assert effect.distort is not None
        told = _wrong(board, use, effect, effect.distort, truth, actor)
    listed = "、".join(targets) if targets else "无"
    for to in (actor, *targets) if effect.told == "actor_and_targets" and told else (actor,) if told else ():
        board.tell(to, effect.text.format(targets=listed, target=listed, actor=actor, answer=told) + paired)
    line = (effect.log or "{step} {actor}<" + use.skill.name + ">：{targets} → {answer}").format(
        step=use.step, actor=actor, targets=listed, answer=truth, missed="、".join(missed) or "无",
        question=question.label if question else "")
    board.note(line + (f"（{held}，告知{told}）" if told != truth else ""))
    if effect.declare is not None and truth == effect.yes:  # the game is decided by the truth
        win.declare(board, effect.declare)
        win.check(board, use.skill.name)


def _question(board: Board, use: Use, effect: Effect, actor: str) -> tuple[Question, str]:
    """``questions``: the one the director picks for this use (``<skill>.问题.<actor>``, seeded) — with ``pairs``,
    on a pair's second night not the one of its first, whose words are then added to the answer — recorded."""
    name, night, pairs = use.skill.name, board.night or 0, effect.pairs
    offered, added = list(effect.questions), ""
    record = board.state.get(pairs.state) if pairs is not None else None
    record = record if isinstance(record, dict) else {}
    before = record.get(actor)
    first = before.get("问题") if isinstance(before, dict) and night % 2 == 0 and before.get("night") == night - 1 else None
    if first is not None:
        offered = [q for q in offered if q.label != first]
    label = board.ask(f"{name}.问题.{actor}", f"<{name}>：{actor}今晚得到哪个问题的答案", [q.label for q in offered])
    if pairs is not None:
        board.set_state(pairs.state, {**record, actor: {"night": night, "问题": label}})
        added = pairs.text.format(first=first, second=label) if first is not None else ""
    return next(q for q in offered if q.label == label), added


@dataclass(frozen=True, slots=True)
class Waiting:
    """A ``role_if_dies`` use waiting for its feedback step: the players asked about, and how many deaths the
    settlement had recorded when it was used (only a death after it counts)."""

    use: Use
    effect: Effect
    asked: tuple[str, ...]
    actor: str
    since: int


def answer(flow: Flow, skill: Skill, step: str) -> None:
    """The ``feedback`` step of a ``role_if_dies`` skill: each player asked about who died since the use is
    told by his actual role (maybe distorted); each one still alive gets the ``pending`` entry."""
    board = flow.board
    for w in [w for w in flow.waiting if w.use.skill.name == skill.name]:
        flow.waiting.remove(w)
        if w.effect.ask == "night_of":
            night_of(flow, w, step)
            continue
        died = {d.player for d in board.result.deaths[w.since:]}
        for t in w.asked:
            if t in died:
                truth = board.seat(t).role
                told, held = truth, _distorted(flow, w.use, w.effect.distort, w.actor)
                if held is not None:
                    assert w.effect.distort is not None
                    told = _wrong(board, w.use, w.effect, w.effect.distort, truth, w.actor)
                board.note(f"{step} " * bool(step) + f"{w.actor}<{skill.name}>：{t}死去 → {truth}"
                           + (f"（{held}，告知{told}）" if told != truth else ""))
                board.tell(w.actor, w.effect.text.format(target=t, targets=t, actor=w.actor, answer=told))
            elif board.seat(t).alive and w.effect.pending is not None:
                board.later(w.effect.pending.format(target=t, actor=w.actor), t,
                            w.effect.until.format(night=board.night), skill.clause)


def night_of(flow: Flow, w: Waiting, step: str) -> None:
    """``night_of``: the actor learns whom the player asked about chose this phase and what he was told until
    now (another living player's, the director's pick, when distorted); then ``reveal`` may tell that player."""
    board, name, effect = flow.board, w.use.skill.name, w.effect
    assert effect.recount is not None
    r = effect.recount
    for t in w.asked[:1]:
        subject, held = t, _distorted(flow, w.use, effect.distort, w.actor)
        if held is not None:
            assert effect.distort is not None
            others = [p.name for p in board.living() if p.name != t] or [t]
            subject = board.ask(f"{name}.错误.{w.actor}", f"{effect.distort.by[0]}的<{name}>改报哪名玩家的行动", others)
        chose = [x for a in flow.actions if a.members[:1] == (subject,) for x in a.targets]
        heard = [f.content for f in board.result.feedback if f.to == subject]
        words = {"chose": r.chose.format(players="、".join(chose)) if chose else r.chose_none,
                 "heard": r.heard.format(lines="；".join(heard)) if heard else r.heard_none}
        board.note(r.log.format(step=step, actor=w.actor, target=t, **words))
        board.tell(w.actor, effect.text.format(target=t, targets=t, actor=w.actor, answer="", **words))
        v = effect.reveal
        if v is None or not tonight.matches(board, flow.pool, v.match, t):
            continue
        if any(tonight.holds(board, flow.pool, w.actor, s) for s in v.unless):
            continue
        board.note(v.log.format(step=step, actor=w.actor, target=t, text=v.text))
        board.tell(t, v.text)


_NO = ("不同意", "不愿意", "不接受", "拒绝", "不要", "不好", "不行", "否", "不", "no", "n")
_YES = ("同意", "愿意", "接受", "答应", "好", "可以", "行", "是", "yes", "y", "ok")


def agreement(choice: str | None, skill: str = "") -> bool | None:
    """A target's answer in the words people use — 同意/愿意/接受/是/好 … (True), 不同意/拒绝/否/不 …
    (False) — a leading skill name allowed ("访谈：同意"); None when it says neither."""
    text = (choice or "").strip().strip("。.!！").lower()
    text = text.removeprefix(skill).removeprefix("：").removeprefix(":").strip()
    if not text:
        return None
    if any(text.startswith(w) for w in _NO):
        return False
    if any(text.startswith(w) for w in _YES):
        return True
    return None


def _agreed(board: Board, use: Use, c: Consent, targets: Sequence[str], actor: str) -> bool:
    """``consent``: the submission's ``choice``, else the director's answer; a refusal is told and logged."""
    name, target = use.skill.name, "、".join(targets)
    yes = agreement(use.action.choice, name)
    if yes is None:
        yes = board.ask(f"{name}.同意.{target}", c.question.format(actor=actor, target=target), ["同意", "不同意"]) == "同意"
    if not yes:
        board.note(f"{use.step} {name}：{target}不同意")
        board.tell(actor, c.refused.format(target=target))
    return yes


def chosen_before(flow: Flow, players: Sequence[str]) -> int:
    """How many players (人次) ``players`` chose this phase in submissions whose step comes before the
    one being settled (a skill no step lists is settled after the steps)."""
    end = len(flow.place_of)
    return sum(len(a.targets) for a in flow.actions
               if a.members and a.members[0] in players and flow.place_of.get(a.skill, end) < flow.at)


def misread(board: Board, use: Use, m: Misread, asked: Sequence[str], actor: str) -> bool:
    """The actor or the one player the director named may be taken for a match (asked only when one
    of them is among the players asked about)."""
    name = use.skill.name
    herring = board.ask(f"{name}.误认对象", m.who, [p for p in board.table.players if p != actor])
    suspects = [p for p in asked if p in (actor, herring)]
    return bool(suspects) and board.ask(f"{name}.误认.{actor}", m.whether.format(players="、".join(suspects)),
                                        ["否", "是"]) == "是"


def _distorted(flow: Flow, use: Use, d: Distort | None, actor: str) -> str | None:
    """The status that makes this answer wrong (the chance taken), or None: the answer is true."""
    return distorted(flow.board, flow.pool, use.skill.name, d, actor)


def distorted(board: Board, pool: Pool, name: str, d: Distort | None, actor: str) -> str | None:
    """The status of ``actor`` that makes skill ``name``'s answer wrong, the chance taken (the question
    ``<by[0]>错误.<actor>.<name>``), or None: the answer is true."""
    if d is None or not board.has(actor):
        return None
    held = next((s for s in d.by if tonight.holds(board, pool, actor, s)), None)
    if held is None:
        return None
    wrong = board.chance(f"{d.by[0]}错误.{actor}.{name}", f"{actor}{'/'.join(d.by)}，<{name}>获取错误信息？", d.chance)
    return held if wrong else None


def _wrong(board: Board, use: Use, effect: Effect, d: Distort, truth: str, actor: str) -> str:
    """The wrong answer: yes and no turned round; another number, the director's pick."""
    if effect.ask in ("any", "same"):
        return effect.no if truth == effect.yes else effect.yes
    name = use.skill.name
    if effect.ask == "role_if_dies":
        roles = [r.name for r in board.ruleset.roles] if board.ruleset is not None else []
        return board.ask(f"{name}.错误.{actor}", f"{d.by[0]}的<{name}>给出的错误身份", [r for r in roles if r != truth] or [truth])
    return board.ask(f"{name}.错误.{actor}", f"{d.by[0]}的<{name}>给出的错误数字",
                     [str(i) for i in range(0, d.upto + 1) if str(i) != truth])
