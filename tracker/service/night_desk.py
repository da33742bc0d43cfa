"""The night desk: submissions in, a previewed settlement out, confirmed once into the event log.

Composed, not inherited: it is given the few things it needs (the event log, the fold, a way to
append events, when each day closes, the clock) so the night engine plugs into the service layer
without knowing how the rest of it is built. Everything it decides is the engine's
(:mod:`tracker.engine.night`); this class only reads and writes events.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tracker.engine.events import Event, EventDraft, EventKind, as_of, make_draft
from tracker.engine.night import Catalog, Settlement, Table, settle, settle_setup
from tracker.engine.night.catalog import catalog_of
from tracker.engine.night.desk import (
    HOLDER_KEYS,
    built_on,
    carried_use,
    check_decisions,
    desk_command,
    exit_drafts,
    key_parts,
    later_settled,
    open_key,
    phase_key,
    phase_words,
    record,
    recorded_settlement,
    reopen_hint,
    settled_event,
    settled_with,
    setup_field,
    shown_key,
    submission_events,
    submissions,
    table_for,
    unsettled_elsewhere,
)
from tracker.engine.night.model import Action
from tracker.engine.ruleset import Ruleset
from tracker.engine.state import GameState
from tracker.errors import ConfigError, EntryError, GameRuleError, RulesetError
from tracker.jsonvalue import JSON


@dataclass(frozen=True, slots=True)
class NightEntry:
    """One submission as the director types it: ``行动者 技能 目标…`` (a team: ``狼群(甲,乙)``)."""

    actor: str
    skill: str
    targets: tuple[str, ...]
    choice: str | None = None


def parse_entry(words: Sequence[str], choice: str | None = None) -> NightEntry:
    """The one reading of a typed submission (`tracker night … add`, the TUI's 夜晚 entry line):
    whether it names the actor and the skill is checked here, once, with one message; whether the
    names exist is the desk's to say (:meth:`NightDesk.add`)."""
    if len(words) < 2:
        raise EntryError("夜晚提交写成：行动者 技能 [目标…]",
                         hint="例如：饺子 守护 包子；团队：狼群(银鸦,风行) 杀人 泡泡")
    return NightEntry(words[0], words[1], tuple(words[2:]), choice.strip() or None if choice is not None else None)


def parse_entry_line(line: str) -> NightEntry:
    """A whole typed line, its choice after `` -- `` (``掠夺者 技能掠夺 P04 -- 黄王``)."""
    words, sep, choice = line.partition(" -- ")
    return parse_entry(words.split(), choice if sep else None)


@dataclass(frozen=True, slots=True)
class NightPreview:
    """A phase as it would settle now: the table it starts from, what was submitted, the result."""

    key: str
    words: str
    table: Table
    submitted: list[Event]
    result: Settlement
    confirmed: Event | None


@dataclass(frozen=True, slots=True)
class DayExit:
    """A day's exit (the vote's, a red card's) settled with what it sets off, ready to record:
    ``drafts`` hold the submission of the exit as its skill, then the settlement's events."""

    key: str
    words: str
    table: Table
    result: Settlement
    drafts: list[EventDraft]


@dataclass(frozen=True, slots=True)
class SetupRecord:
    """A setup fact as recorded, and what it set off at the start of the game (the game's ``setup``
    hook: M19's lovers' factions and tags), recorded with it; ``result`` says it in the post's words."""

    event: Event
    effects: list[Event]
    result: Settlement | None


class NightDesk:
    """Add and remove submissions, preview the settlement, confirm it (once)."""

    def __init__(self, ruleset: Ruleset, *, log: Callable[[], list[Event]],
                 fold: Callable[[Sequence[Event]], GameState], append: Callable[[Sequence[EventDraft]], list[Event]],
                 window: Callable[[int], tuple[datetime, datetime]], now: Callable[[], datetime],
                 director: str) -> None:
        self.ruleset = ruleset
        self._log = log
        self._fold = fold
        self._append = append
        self._window = window
        self._now = now
        self.director = director

    def within(self, *, log: Callable[[], list[Event]], append: Callable[[Sequence[EventDraft]], list[Event]]) -> NightDesk:
        """This desk reading and writing inside a caller's transaction (a vote's or a red card's exit
        settles with the events that record it, all or nothing): the same ruleset, days and director."""
        return NightDesk(self.ruleset, log=log, fold=self._fold, append=append, window=self._window, now=self._now,
                         director=self.director)

    @property
    def catalog(self) -> Catalog:
        return catalog_of(self.ruleset)

    def at(self, key: str) -> datetime:
        """When a phase's results happen in the game: night N just after day N's close (after the
        day's own vote results), or just before day N opens where the post plays night N first
        (213's 首夜); a day phase now, within its day."""
        kind, number, _ = key_parts(key)
        opens, closes = self._window(number)
        if kind == "night":
            if self.catalog.night_precedes_day:
                return opens - timedelta(seconds=1)
            return closes + timedelta(seconds=1)
        return max(opens, min(self._now(), closes))

    def preview(self, key: str, *, seed: int = 0, decisions: Mapping[str, str] | None = None) -> NightPreview:
        """The phase as it would settle now; a confirmed phase as it was confirmed (history: read
        back from its ``night_settled`` event, never settled again on today's table)."""
        events = self._log()
        key = shown_key(events, key)
        confirmed = settled_event(events, key)
        if confirmed is not None:
            history = self._history(events, key, confirmed)
            check_decisions(history.result, decisions or {})
            return history
        at = self.at(key)
        table = table_for(self._fold(as_of(events, at, inclusive=False)), self.catalog, events, key, at)
        table = carried_use(table, events, key, self.catalog)
        result = settle(self.catalog, table, submissions(events, key, self.catalog), seed=seed, decisions=decisions,
                        ruleset=self.ruleset)
        check_decisions(result, decisions or {})
        return NightPreview(key, phase_words(key), table, submission_events(events, key), result,
                            settled_event(events, key))

    def _history(self, events: list[Event], key: str, confirmed: Event) -> NightPreview:
        result, table = recorded_settlement(confirmed)
        if table is None:  # recorded before the table it began from was kept: the nearest we have
            at = self.at(key)
            table = table_for(self._fold(as_of(events, at, inclusive=False)), self.catalog, events, key, at)
        seqs = confirmed.payload.submitted
        if seqs is None:
            submitted = submission_events(events, key)
        else:
            by_seq = {e.seq: e for e in events}
            submitted = [by_seq[s] for s in seqs if s in by_seq]
        return NightPreview(key, phase_words(key), table, submitted, result, confirmed)

    def _refuse_confirmed(self, events: list[Event], key: str, verb: str) -> None:
        """A confirmed phase takes no more submissions: its settlement is history that later phases
        were built on. Changing it is an explicit undo of the confirmation."""
        confirmed = settled_event(events, key)
        if confirmed is None:
            return
        words = phase_words(key)
        later = later_settled(events, confirmed)
        raise GameRuleError(f"{words}已经确认结算（事件 {confirmed.seq}），不能再{verb}提交",
                            hint=reopen_hint(confirmed, later))

    def add(self, key: str, actor: str, skill: str, targets: Sequence[str], *, choice: str | None = None,
            in_phase: str | None = None) -> Event:
        """Record one submission. The skill's name is checked now (the nearest names if misspelt);
        whether the rules allow it is the settlement's to say, with the reason, in the preview."""
        name = self.catalog.skill(skill).name
        events = self._log()
        key = open_key(events, key)
        self._refuse_confirmed(events, key, "添加")
        state = self._fold(events)
        members = _members(actor)
        twice = sorted({m for m in members if members.count(m) > 1})
        if twice:
            raise ConfigError(f"{actor}：{'、'.join(twice)} 写了两次", hint="团队的每名成员只写一次，例如 狼群(甲,乙)")
        for who in (*members, *targets):
            state.player(who)  # GameRuleError naming the players, for a typo
        data: dict[str, JSON] = {"phase": key, "actor": actor, "skill": name, "targets": list(targets)}
        if choice is not None:
            data["choice"] = choice
        skill_def = self.catalog.skill(name)
        if in_phase is None and key.startswith("night:") and skill_def.tonight and skill_def.phase == "day":
            in_phase = "day"  # a day skill that acts tonight, recorded at the night desk: the day's use
        if in_phase is not None:
            data["in_phase"] = in_phase
        draft = make_draft(EventKind.NIGHT_ACTION.value, at=self.at(key), data=data, recorded_by=self.director)
        return self._append([draft])[0]

    def remove(self, key: str, actor: str, skill: str) -> Event:
        """Withdraw the latest standing submission of ``skill`` by ``actor`` (an undo event)."""
        name = self.catalog.skill(skill).name
        events = self._log()
        self._refuse_confirmed(events, open_key(events, key), "撤回")
        found = [e for e in submission_events(events, open_key(events, key))
                 if e.payload.actor == actor and e.payload.skill == name]
        if not found:
            raise GameRuleError(f"{phase_words(key)}没有 {actor} 提交的<{name}>", hint="用 tracker night GAME.toml --night N 查看已提交的行动")
        draft = make_draft(EventKind.UNDO.value, at=self._now(), data={"seq": found[-1].seq, "reason": "撤回提交"},
                           recorded_by=self.director)
        return self._append([draft])[0]

    def has_exit_skill(self, kind: str) -> bool:
        """Whether this game's night file names the skill a day's exit is settled as (``exile`` /
        ``red_card``); a ruleset without a night file has none."""
        try:
            catalog = self.catalog
        except RulesetError:
            return False
        return catalog.exit_skill(kind) is not None

    def settle_exit(self, kind: str, day: int, target: str, *, at: datetime, own_exit: EventDraft | None = None,
                    without: Collection[int] = (), via: str) -> DayExit:
        """Settle a day's exit as the post orders what follows it (殉情, 遇难, 接刀, 报复, 诡辩, a
        决斗 voiding the vote, the win check), with the day's other standing submissions.

        ``kind``: ``exile`` (the vote's result, ``own_exit`` its 出局 event) or ``red_card`` (the
        ledger has recorded the 出局: ``without`` names those events, so the table sees the player
        as they were just before). The phase is ``day:N``, or ``day:N#k`` when earlier results of the
        day were settled already. Nothing is written: the caller appends ``drafts`` in its own
        transaction (the vote's or the ledger's).
        """
        cat = self.catalog
        name = cat.exit_skill(kind)
        if name is None:
            raise GameRuleError(f"规则 {cat.ruleset} 的技能文件没有写明{'投票出局' if kind == 'exile' else '红牌罚下'}对应的技能")
        skill = cat.skill(name)
        log = self._log()
        events = [e for e in log if e.seq not in set(without)]
        in_phase = skill.phase if skill.phase in ("晨曦", "正午", "黄昏", "关门") else None
        key = open_key(events, phase_key(day=day, phase=in_phase if kind == "exile" else None))
        waiting = unsettled_elsewhere(events, key)
        if waiting:
            first = waiting[0].data
            where = phase_words(str(first["phase"]))
            raise GameRuleError(f"{where}还有未确认的提交（{first['actor']}<{first['skill']}>），本次出局须在其后结算",
                                hint=f"先预览并确认{where}的结算：tracker night GAME.toml --day {day}"
                                     + (f" --phase {key_parts(str(first['phase']))[2]}" if key_parts(str(first['phase']))[2] else "")
                                     + " confirm；或撤回这些提交")
        table = table_for(self._fold(as_of(events, at)), cat, events, key, at)
        actor = skill.team or "导演"
        data: dict[str, JSON] = {"phase": key, "actor": actor, "skill": name, "targets": [target], "via": via}
        if in_phase is not None:
            data["in_phase"] = in_phase
        standing = submissions(events, key, cat)
        action = Action(actor=actor, skill=name, targets=(target,), phase=in_phase, index=len(standing))
        result = settle(cat, table, [*standing, action], ruleset=self.ruleset)
        _refused(result, name, target)
        known_lost = set(self._fold(log).lost) if own_exit is None else set()
        drafts = [make_draft(EventKind.NIGHT_ACTION.value, at=at, data=data, recorded_by=self.director),
                  *exit_drafts(result, table, key, at=at, recorded_by=self.director, target=target,
                               own_exit=own_exit, known_lost=known_lost)]
        return DayExit(key, phase_words(key), table, result, drafts)

    def setup(self, field: str, value: JSON, player: str | None = None) -> SetupRecord:
        """A fact the post fixes before the game (英雄, 设计目标, 情侣, a seat, a 抉择), under the
        vocabulary's name (座次 is ``seat``); an unknown name is refused with the nearest ones.

        A mark held by one player (警长, 牧首, 神眷者 …) is the holder's tag, which the fold keeps
        (the win check, the tally's weights and the night all read it): it is recorded as that tag,
        given before the game starts. What the fact sets off at the start of the game (the game's
        ``setup`` hook: M19's lovers make their factions, "游戏开始时") is settled now and recorded
        with it, dated before the game, as the fold's own events (阵营, 标记).
        """
        events = self._log()
        state = self._fold(events)
        if player is not None:
            state.player(player)
        name = setup_field(field, player)
        if name in HOLDER_KEYS:
            holder = player if player is not None else str(value)
            state.player(holder)
            draft = make_draft(EventKind.TAG_GIVEN.value, at=self._before_game(), player=holder,
                               data={"tag": name, "cause": "开局设定"}, recorded_by=self.director)
            return SetupRecord(self._append([draft])[0], [], None)
        draft = make_draft(EventKind.NIGHT_SETUP.value, at=self._now(), player=player,
                           data={"field": name, "value": value}, recorded_by=self.director)
        result, effects = self._setup_effects(events, draft, name)
        recorded = self._append([draft, *effects])
        return SetupRecord(recorded[0], recorded[1:], result)

    def _setup_effects(self, events: list[Event], draft: EventDraft, name: str) -> tuple[Settlement | None, list[EventDraft]]:
        """The game's ``setup`` hook on the table before the game with the new fact: its faction
        changes and the tags it gives, as events dated before the game."""
        try:
            catalog = self.catalog
        except RulesetError:  # a ruleset without a night file: a setup fact acts on nothing
            return None, []
        at = self._before_game()
        seq = max((e.seq for e in events), default=0) + 1
        log = [*events, draft.to_event(seq, self._now())]
        table = table_for(self._fold(as_of(log, at)), catalog, log, phase_key(night=1), at)
        if name == "情侣":  # named lovers come into being now, not from an earlier table's tags
            _check_lovers(table, draft.payload.value)
        result = settle_setup(catalog, replace(table, night=None, day=None, phase=None), ruleset=self.ruleset)
        after = result.table_after or table
        cause = f"开局设定：{name}"
        out: list[EventDraft] = []
        for c in result.conversions:
            out.append(make_draft(EventKind.FACTION_SET.value, at=at, player=c.player,
                                  data={"faction": c.faction_to, "cause": f"{cause}（{c.cause}）"},
                                  recorded_by=self.director))
        for who, seat in after.players.items():
            for tag in seat.tags:
                if tag not in table.players[who].tags:
                    out.append(make_draft(EventKind.TAG_GIVEN.value, at=at, player=who,
                                          data={"tag": tag, "cause": cause}, recorded_by=self.director))
        return (result if out or result.log else None), out

    def _before_game(self) -> datetime:
        """Just before anything of the game happens (a first night played before day 1 included)."""
        try:
            opens, _ = self._window(1)
        except ConfigError:
            return self._now()
        return min(self._now(), opens - timedelta(seconds=2))

    def confirm(self, key: str, *, seed: int = 0, decisions: Mapping[str, str] | None = None) -> tuple[NightPreview, list[Event]]:
        """Record the settlement as events, once; a phase confirmed before is refused (undo it first)."""
        preview = self.preview(key, seed=seed, decisions=decisions)
        if preview.confirmed is not None:
            events = self._log()
            raise GameRuleError(f"{preview.words}已经确认过结算（事件 {preview.confirmed.seq}）",
                                hint=reopen_hint(preview.confirmed, later_settled(events, preview.confirmed)))
        drafts = record(preview.result, preview.table, preview.key, at=self.at(preview.key), recorded_by=self.director,
                        seed=seed, decisions=decisions or {}, submitted=[e.seq for e in preview.submitted])
        return preview, self._append(drafts)

    def built_without(self, settled: Event) -> list[str]:
        """The results confirmed after ``settled`` in game time (a phase confirmed late, out of order):
        they were settled without it and are not recomputed."""
        return built_on(self._log(), settled)

    def reopen(self, key: str) -> tuple[Event, list[Event]]:
        """Undo a confirmed phase: its ``night_settled`` event and what it recorded (出局, 身份, 标记,
        判负), so its submissions can change and it can be confirmed again. Refused while a later
        phase stands on its result, naming those phases (reopen them first, the latest first)."""
        events = self._log()
        key = shown_key(events, key)
        confirmed = settled_event(events, key)
        words = phase_words(key)
        if confirmed is None:
            raise GameRuleError(f"{words}还没有确认结算，不需要重新打开",
                                hint=f"预览：tracker night GAME.toml {desk_command(key)}")
        later = later_settled(events, confirmed)
        if later:
            raise GameRuleError(f"{words}的结算之后还有已确认的结算，不能直接重新打开", hint=reopen_hint(confirmed, later))
        undone = settled_with(events, confirmed)
        drafts = [make_draft(EventKind.UNDO.value, at=self._now(), data={"seq": e.seq, "reason": f"重新打开{words}"},
                             recorded_by=self.director) for e in sorted(undone, key=lambda x: x.seq, reverse=True)]
        return confirmed, self._append(drafts)


def _check_lovers(table: Table, value: JSON) -> None:
    """``setup 情侣`` is the scenario vocabulary's object: {类型: 基佬情深, 攻, 受} or {类型: 人狗情未了,
    主人, 忠犬}, two different players of the game."""
    pairs = {"基佬情深": ("攻", "受"), "人狗情未了": ("主人", "忠犬")}
    example = '{"类型": "基佬情深", "攻": "甲", "受": "乙"}（或 {"类型": "人狗情未了", "主人": "甲", "忠犬": "乙"}）'
    kind = value.get("类型") if isinstance(value, Mapping) else None
    if kind not in pairs:
        raise ConfigError(f"情侣的设定写不明白：{value!r}", hint=f"写成 JSON：{example}")
    assert isinstance(value, Mapping)
    names = [value.get(k) for k in pairs[kind]]
    for who in names:
        if not isinstance(who, str) or who not in table.players:
            raise ConfigError(f"情侣（{kind}）的{'、'.join(pairs[kind])}须是本局玩家：{who!r} 不是", hint=f"写成 JSON：{example}")
    if names[0] == names[1]:
        raise ConfigError(f"情侣须是两名不同的玩家（{names[0]}写了两次）", hint=f"写成 JSON：{example}")


def _refused(result: Settlement, skill: str, target: str) -> None:
    """The exit must settle: a refusal here would drop a vote's result or a red card silently."""
    for r in result.rejected:
        if r.skill == skill:
            raise GameRuleError(f"{target} 的<{skill}>未能结算：{r.reason}",
                                hint="检查游戏文件中该玩家的身份与存活状态；结算未记录任何事件")


def _members(actor: str) -> tuple[str, ...]:
    return Action(actor, "").members


__all__ = ["DayExit", "NightDesk", "NightPreview", "SetupRecord", "phase_key"]
