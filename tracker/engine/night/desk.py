"""The director's night desk, pure: submissions, setup and settled nights as events, and back.

A real game keeps everything in the event log, like the day: each submission is a ``night_action``
event (removing one is an ``undo``), a setup fact the post fixes before the game (英雄, 设计目标,
情侣, a seat, an M65 抉择) is a ``night_setup`` event, and a confirmed settlement is recorded as the
ordinary events the day engine already folds (出局, 死亡, 身份, 标记, 判负) plus one ``night_settled``
event holding the table after it. The next night's table is then the fold (who is alive, roles,
factions, tags: one answer for day and night) plus the last settled table for what only nights use
(uses left, statuses, last targets, counters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from tracker.engine.events import EventDraft, EventKind, effective
from tracker.engine.night.catalog import Catalog
from tracker.engine.night.model import (
    Action,
    Conversion,
    Death,
    Feedback,
    NightWin,
    Pending,
    Question,
    Rejection,
    Seat,
    Settlement,
    Survival,
    Table,
    TagMove,
    VoteMark,
)
from tracker.engine.state import DayState, GameState
from tracker.errors import ConfigError, GameRuleError

#: Marks held by one player that the scenario vocabulary also keeps as a state key.
HOLDER_KEYS = ("神眷者", "恶徒首领", "告死者", "警长", "牧首")
LIFE_WORDS = {"alive": "存活", "dead": "死亡", "out": "出局"}


#: The phase words a director types (shared/night/README.md, "One vocabulary for every game"):
#: 夜晚 is the night itself, 白天 the day itself; the rest are phases within a day.
DAY_PHASES = ("晨曦", "正午", "黄昏", "关门")
PHASE_WORDS = ("夜晚", "白天", *DAY_PHASES, "游戏开始前")


def phase_key(night: int | None = None, day: int | None = None, phase: str | None = None) -> str:
    """``night:2``, or ``day:3:晨曦`` for a day phase (``day:3`` for the day itself)."""
    if (night is None) == (day is None):
        raise GameRuleError("要结算的是夜晚还是白天？", hint="写 --night N 或 --day N（白天技能可加 --phase 晨曦/正午/黄昏）")
    if phase is not None:
        phase = phase.strip()
        if phase not in PHASE_WORDS:
            import difflib

            near = difflib.get_close_matches(phase, PHASE_WORDS, n=2, cutoff=0.3)
            raise ConfigError(f"不认识的阶段 {phase!r}" + (f"，是不是：{'、'.join(near)}？" if near else ""),
                              hint=f"阶段只用这些词：{' / '.join(PHASE_WORDS)}")
        if phase == "游戏开始前":
            raise ConfigError("游戏开始前的事项不是要结算的阶段",
                              hint="开局设定用 tracker night GAME.toml setup 字段 值 [--player 玩家]")
        if night is not None and phase != "夜晚":
            raise ConfigError(f"--night 与阶段 {phase} 不符", hint=f"白天的阶段写 --day N --phase {phase}")
        if day is not None and phase == "夜晚":
            raise ConfigError("--day 与阶段 夜晚 不符", hint="夜晚写 --night N")
    if night is not None:
        return f"night:{night}"
    return f"day:{day}" + (f":{phase}" if phase and phase != "白天" else "")


def check_decisions(result: Settlement, decisions: Mapping[str, str]) -> None:
    """Every ``--decide KEY=VALUE`` names a question this settlement asks and one of its options:
    a misspelt key or value would otherwise be ignored and a seeded pick stand in silence."""
    asked = {q.key: q for q in result.questions}
    for key, value in decisions.items():
        q = asked.get(key)
        if q is None:
            hint = ("本次结算的待定事项：" + "、".join(asked)) if asked else "本次结算没有待定事项（预览里的“待定”一节）"
            raise ConfigError(f"--decide {key}={value}：没有待定事项 {key!r}", hint=hint)
        yes_no = set(q.options) == {"是", "否"}
        if value not in q.options and not (yes_no and value in _YES_NO):
            raise ConfigError(f"--decide {key}={value}：{q.question} 没有选项 {value!r}",
                              hint=f"可选：{' / '.join(q.options)}")


_YES_NO = ("是", "否", "yes", "no", "true", "false", "1", "0")


def _base(key: str) -> str:
    return key.split("#")[0]


def key_parts(key: str) -> tuple[str, int, str | None]:
    """``day:3:黄昏#2`` → ("day", 3, "黄昏"): a ``#k`` suffix marks the k-th settlement of the same
    phase (a red card, then the vote, each settled when it happens)."""
    parts = _base(key).split(":")
    return parts[0], int(parts[1]), parts[2] if len(parts) > 2 else None


def phase_words(key: str) -> str:
    kind, n, phase = key_parts(key)
    words = f"第{n}夜" if kind == "night" else f"第{n}天" + (phase or "")
    return words + (f"（第{key.split('#')[1]}次）" if "#" in key else "")


def open_key(events: Sequence[Any], key: str) -> str:
    """Where a phase's next submissions settle. A night settles once; a day may settle several times
    (a red card at noon, then the vote), each from the table the last one left: ``day:N`` until it
    is settled, then ``day:N#2`` …"""
    if key.startswith("night:"):
        return key
    settled = _settled_keys(events)
    base = _base(key)
    found, k = base, 1
    while found in settled:
        k += 1
        found = f"{base}#{k}"
    return found


def shown_key(events: Sequence[Any], key: str) -> str:
    """The settlement a preview of ``key`` shows: the open one when it has submissions or nothing
    of that phase was settled yet, else the last one confirmed."""
    found = open_key(events, key)
    if found == _base(key) or submission_events(events, found):
        return found
    k = int(found.split("#")[1]) - 1
    return _base(key) + (f"#{k}" if k > 1 else "")


def unsettled_elsewhere(events: Sequence[Any], key: str) -> list[Any]:
    """Standing submissions of the same day in another phase that is not settled: an exit settled
    now would be settled without them (213's 正午 <决斗> voids 黄昏's vote)."""
    kind, number, _ = key_parts(key)
    settled = _settled_keys(events)
    return [e for e in _live(events) if e.kind == EventKind.NIGHT_ACTION and e.data.get("phase") not in settled
            and e.data.get("phase") != key and key_parts(str(e.data.get("phase")))[:2] == (kind, number)]


def _settled_keys(events: Sequence[Any]) -> set[Any]:
    return {e.data.get("phase") for e in _live(events) if e.kind == EventKind.NIGHT_SETTLED}


def _live(events: Sequence[Any]) -> list[Any]:
    live, _ = effective(events)
    return live


def submission_events(events: Sequence[Any], key: str) -> list[Any]:
    """The submissions of a phase that still count, in the order they were made."""
    subs = [e for e in _live(events) if e.kind == EventKind.NIGHT_ACTION and e.data.get("phase") == key]
    return sorted(subs, key=lambda e: e.seq)


def submissions(events: Sequence[Any], key: str, catalog: Catalog | None = None) -> list[Action]:
    """The actions a phase settles: its own submissions, led, for a day, by the night submissions
    that also act in it (``next_day`` skills of the night before, with ``phase = "night"``)."""
    carried = _night_before(events, key, catalog) if catalog is not None else []
    from_day = _day_before(events, key, catalog) if catalog is not None else []
    own = submission_events(events, key)

    def phase(e: Any) -> str | None:
        if e in carried:
            return "night"
        if e in from_day:
            return str(e.data.get("in_phase") or key_parts(str(e.data["phase"]))[2] or "day")
        in_phase = e.data.get("in_phase")
        return None if in_phase is None else str(in_phase)

    return [Action(actor=str(e.data["actor"]), skill=str(e.data["skill"]),
                   targets=tuple(str(t) for t in e.data.get("targets", ())), choice=e.data.get("choice"),
                   phase=phase(e), index=i)
            for i, e in enumerate([*carried, *from_day, *own])]


def carried_use(table: Table, events: Sequence[Any], key: str, catalog: Catalog) -> Table:
    """The night's table with the day's ``tonight`` uses not yet counted: a 牵制 confirmed in day N's
    settlement is the same use the night settles (handed over by :func:`submissions`), so its
    ``…上次`` key is read as it stood before that settlement, or the night would refuse it as a
    second use ("每两个游戏日最多发动一次（上次：第N天）")."""
    kind, night, _ = key_parts(key)
    from_day = _day_before(events, key, catalog) if kind == "night" else []
    if not from_day:
        return table
    day = catalog.day_before(night)
    keys = {k for e in from_day for k in (catalog.skill(str(e.data["skill"])).cooldown_key,
                                          catalog.skill(str(e.data["skill"])).no_repeat) if k}
    settled = sorted((e for e in _live(events) if e.kind == EventKind.NIGHT_SETTLED
                      and key_parts(str(e.data["phase"]))[:2] == ("day", day) and "table_before" in e.data),
                     key=lambda e: (e.at, e.seq))
    if not settled:
        return table
    before = settled[0].data["table_before"].get("state", {})
    state = dict(table.state)
    for k in keys:
        last = state.get(k)
        if isinstance(last, Mapping) and last.get("day") == day:
            if before.get(k) is None:
                state.pop(k, None)
            else:
                state[k] = before[k]
    return replace(table, state=state)


def _day_before(events: Sequence[Any], key: str, catalog: Catalog) -> list[Any]:
    """The day's submissions that act in the night after it (``tonight`` skills: 牵制, 飞行头槌 …)."""
    kind, night, _ = key_parts(key)
    if kind != "night":
        return []
    day = catalog.day_before(night)
    tonight = {name for name, s in catalog.skills.items() if s.tonight}
    if not tonight:
        return []
    found = [e for e in _live(events) if e.kind == EventKind.NIGHT_ACTION and e.data.get("skill") in tonight
             and str(e.data.get("phase", "")).startswith("day:") and key_parts(str(e.data["phase"]))[1] == day]
    return sorted(found, key=lambda e: e.seq)


def _night_before(events: Sequence[Any], key: str, catalog: Catalog) -> list[Any]:
    kind, day, _ = key_parts(key)
    if kind != "day":
        return []
    night = catalog.night_before(day)
    carried = {name for name, s in catalog.skills.items() if s.next_day}
    return [e for e in submission_events(events, phase_key(night=night)) if e.data.get("skill") in carried]


def settled_event(events: Sequence[Any], key: str) -> Any | None:
    """The confirmation of this phase, if it stands (an undone one does not)."""
    found = [e for e in _live(events) if e.kind == EventKind.NIGHT_SETTLED and e.data.get("phase") == key]
    return found[-1] if found else None


def last_table(events: Sequence[Any], key: str, at: datetime | None = None) -> Mapping[str, Any] | None:
    """The table after the latest settled phase other than ``key`` (events in game order), among
    those settled by ``at``: a phase settled again (re-confirmed after an undo) starts from the
    table of its time, not from the one later phases left."""
    found = [e for e in _live(events) if e.kind == EventKind.NIGHT_SETTLED and e.data.get("phase") != key
             and (at is None or e.at <= at)]
    return found[-1].data["table"] if found else None


def later_settled(events: Sequence[Any], after: Any) -> list[Any]:
    """The settlements confirmed after ``after`` in game time (standing ones): what was built on it."""
    return [e for e in _live(events) if e.kind == EventKind.NIGHT_SETTLED and e.seq != after.seq
            and (e.at, e.seq) > (after.at, after.seq)]


def settled_with(events: Sequence[Any], settled: Any) -> list[Any]:
    """The standing events a settlement recorded (its 出局, 身份, 标记, 判负 and itself): what
    reopening it undoes. For a vote's exile (``tracker confirm``), every event of that vote's
    confirmation, so the vote can be confirmed again."""
    key = settled.data.get("phase")
    tid = settled.data.get("vote_tid")
    if tid is not None:  # a vote's exile settled at tracker confirm: the vote's confirmation goes with it
        return [e for e in _live(events) if e.data.get("vote_tid") == tid]
    kinds = {EventKind.ELIMINATED, EventKind.DIED, EventKind.ROLE_SET, EventKind.TAG_PASSED, EventKind.TAG_GIVEN,
             EventKind.TAG_REMOVED, EventKind.FACTION_LOST, EventKind.MODIFIER}
    return [e for e in _live(events) if e.seq == settled.seq
            or (e.kind in kinds and e.data.get("phase") == key and e.at == settled.at)]


def built_on(events: Sequence[Any], target: Any) -> list[str]:
    """The standing results recorded after ``target`` in game time, in the director's words: each
    later confirmed settlement and each later confirmed vote. Undoing ``target`` does not change
    them; the director reopens those that depended on it."""
    out: list[str] = []
    votes: set[Any] = set()
    own = {e.seq for e in settled_with(events, target)} if target.kind == EventKind.NIGHT_SETTLED else {target.seq}
    for e in _live(events):
        if e.seq in own or (e.at, e.seq) <= (target.at, target.seq):
            continue
        if e.kind == EventKind.NIGHT_SETTLED:
            out.append(f"{phase_words(str(e.data['phase']))}的结算（事件 {e.seq}）")
        elif e.data.get("vote_tid") is not None and e.data.get("vote_tid") not in votes \
                and not str(e.data.get("phase", "")).startswith("day:"):
            votes.add(e.data.get("vote_tid"))
            day = e.data.get("day")
            out.append(f"{f'第{day}日' if day else ''}投票帖 {e.data['vote_tid']} 的确认（事件 {e.seq}）")
    return out


def desk_command(key: str) -> str:
    """The desk's options naming phase ``key``: ``--night 2``, ``--day 3 --phase 晨曦``."""
    kind, n, phase = key_parts(key)
    return f"--night {n}" if kind == "night" else f"--day {n}" + (f" --phase {phase}" if phase else "")


def reopen_hint(settled: Any, later: Sequence[Any]) -> str:
    """How to change a confirmed phase, naming the later phases settled on its result."""
    own = f"tracker night GAME.toml {desk_command(str(settled.data['phase']))} reopen"
    if not later:
        return f"如需更正，先重新打开（撤销这次确认及其记录的出局等事件）：{own}"
    names = "、".join(f"{phase_words(str(e.data['phase']))}（事件 {e.seq}）" for e in later)
    return (f"其后的结算依据这次结果：{names}；须从最后一个起依次重新打开"
            f"（tracker night GAME.toml {desk_command(str(later[-1].data['phase']))} reopen …），再 {own}")


def table_for(state: GameState, catalog: Catalog, events: Sequence[Any], key: str,
              at: datetime | None = None) -> Table:
    """The table when phase ``key`` begins (at ``at``): the fold's players, the last settled table's
    night facts."""
    kind, number, phase = key_parts(key)
    before = last_table(events, key, at) or {}
    seats_before = {p["name"]: p for p in before.get("players", ())}
    setup = [e for e in _live(events) if e.kind == EventKind.NIGHT_SETUP]
    three_way = state.ruleset.voting.dead_last_vote  # M160: 存活 / 死亡 / 出局
    players: dict[str, Seat] = {}
    for name, p in state.players.items():
        tags = list(p.tags)
        prev = seats_before.get(name)
        if prev is not None:
            uses = dict(prev.get("uses", {}))
            status = [s for s in prev.get("status", ()) if s != "挂机"]
            fields = {k: v for k, v in prev.items()
                      if k not in ("name", "role", "faction", "alive", "state", "tags", "status", "uses")}
        else:
            uses = {s.uses: s.count for s in catalog.skills_of(p.role or "") if s.uses and s.count is not None}
            status, fields = [], {}
        if p.benched:
            status.append("挂机")
        if p.life != "alive":
            _exit_when(fields, name, events, state.days)
        for e in setup:
            if e.player == name:
                key = FIELD_ALIASES.get(str(e.data["field"]), str(e.data["field"]))
                value = e.data.get("value")
                if key in ("tags", "status"):  # setup adds to the seat's own lists (群内, 窥天 …)
                    into = tags if key == "tags" else status
                    into.extend(v for v in ([value] if isinstance(value, str) else value or []) if v not in into)
                else:
                    fields[key] = value
        players[name] = Seat(name=name, role=p.role or "未知", faction=p.faction or "未知", alive=p.life == "alive",
                             life=LIFE_WORDS[p.life] if three_way else None, tags=sorted(tags), status=status,
                             uses=uses, fields=fields)
    game_state: dict[str, Any] = dict(before.get("state", {}))
    for e in setup:
        if e.player is None:
            game_state[str(e.data["field"])] = e.data.get("value")
    for tag in HOLDER_KEYS:
        holders = [n for n, s in players.items() if tag in s.tags]
        if holders or tag in game_state:
            game_state[tag] = holders[0] if holders else None
    game_state["存活"] = [n for n, s in players.items() if s.alive]
    if state.lost:
        game_state["判负阵营"] = sorted(state.lost)
    if state.faction_reds:  # the fold counts red cards (the ledger's consequences); the hooks read it
        game_state["红牌"] = dict(state.faction_reds)
    night = number if kind == "night" else None
    day = number if kind == "day" else None
    return Table(players=players, state=game_state, night=night, day=day, phase=phase)


class _Opens(Protocol):
    @property
    def day(self) -> int: ...
    @property
    def opens(self) -> datetime | None: ...


def day_in_force(days: Sequence[_Opens], at: datetime) -> int:
    """The game day a result recorded at ``at`` belongs to: the last day opened by then (a night
    after day N is still day N's), day 1 before any opens."""
    opened = [d.day for d in days if d.opens is not None and d.opens <= at]
    return max(opened) if opened else 1


#: The day events' causes in the scenario vocabulary's words (``when.cause``: 投票 / 红牌 / 最后一票).
CAUSE_WORDS = {"vote": "投票", "red_card": "红牌"}


def _exit_when(fields: dict[str, Any], name: str, events: Sequence[Any], days: Sequence[DayState] = ()) -> None:
    """``出局`` / ``死亡`` = {day|night, cause} for an exit the fold knows but no settled table
    recorded: the day's vote confirmed by ``tracker confirm`` (data day, cause vote), an exit the
    director typed, or a red card's. The hooks read it (the morning 公示's "因投票出局", 遗言 order,
    忠犬's night, "当你因非红牌的情况出局时" …).

    A red card's exit (the ledger's ``card_consequence``, 出局) is dated as the posts date it:
    "玩家受到红牌判罚时出局" (213, M19) — when the card is given, i.e. recorded, whatever day the card
    names for its 公示; its day is the game day in force then (:func:`day_in_force`, the day the desk
    settles what the red card sets off), cause 红牌."""
    for e in reversed(_live(events)):
        red_out = (e.kind == EventKind.CARD_CONSEQUENCE and e.data.get("consequence") == "out"
                   and str(e.data.get("color", "red")) == "red" and not e.data.get("again"))
        if e.player != name or (e.kind not in (EventKind.ELIMINATED, EventKind.DIED) and not red_out):
            continue
        key = "死亡" if e.kind == EventKind.DIED else "出局"
        if key in fields:
            return
        phase = str(e.data.get("phase", ""))
        when: dict[str, Any]
        if red_out:
            fields[key] = {"day": day_in_force(days, e.at), "cause": CAUSE_WORDS["red_card"]}
            return
        if phase.startswith("night:"):
            when = {"night": key_parts(phase)[1]}
        elif isinstance(e.data.get("day"), int):
            when = {"day": int(e.data["day"])}
        else:
            return
        cause = e.data.get("cause")
        if cause:
            when["cause"] = CAUSE_WORDS.get(str(cause), str(cause))
        fields[key] = when
        return


#: The words a director types for a player field of the scenario vocabulary (M160's post says 座次).
FIELD_ALIASES = {"座次": "seat", "座位": "seat", "电梯": "elevator", "电梯楼层": "elevator", "类型": "type",
                 "标记": "tags", "状态": "status", "抉择": "choice"}
#: What the fold knows (roster, life, lost factions, red cards): set by the game file and events, not by setup.
_FOLD_FIELDS = frozenset({"name", "role", "faction", "alive", "state", "出局", "死亡"})
_FOLD_KEYS = frozenset({"存活", "判负阵营", "红牌"})


@cache
def _vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """The player fields and state keys of the scenario model (shared/night's closed vocabulary)."""
    from tracker.engine.night.scenario_model import player_fields, state_keys

    return player_fields() - _FOLD_FIELDS, state_keys() - _FOLD_KEYS


def setup_field(field: str, player: str | None) -> str:
    """The vocabulary's name for a setup fact (座次 → seat), or ConfigError with the nearest names:
    a fact recorded under a name no rule reads would change nothing, in silence."""
    name = FIELD_ALIASES.get(field.strip(), field.strip())
    fields, keys = _vocabulary()
    allowed = fields if player is not None else keys | set(HOLDER_KEYS)
    if name in allowed:
        return name
    import difflib

    words = sorted(allowed | ({*FIELD_ALIASES} if player is not None else set()))
    near = difflib.get_close_matches(field, words, n=3, cutoff=0.3)
    other = keys if player is not None else fields
    if name in other:
        hint = "这是全局状态，不写 --player" if player is not None else "这是玩家的设定，加上 --player 玩家"
    else:
        hint = f"可用：{'、'.join(words)}"
    raise ConfigError(f"不认识的设定 {field!r}" + (f"，是不是：{'、'.join(near)}？" if near else ""), hint=hint)


def table_json(table: Table) -> dict[str, Any]:
    return {"players": [s.to_json() for s in table.players.values()], "state": table.state}


def table_from_json(doc: Mapping[str, Any], key: str) -> Table:
    """A table as :func:`table_json` stored it (the scenario format's players and state)."""
    from tracker.engine.night.scenario import load

    kind, number, phase = key_parts(key)
    setup = {**doc, "night": number if kind == "night" else None, "day": number if kind == "day" else None,
             "phase": phase}
    return load({"setup": setup, "actions": []})[0]


def recorded_settlement(settled: Any) -> tuple[Settlement, Table | None]:
    """The settlement a ``night_settled`` event recorded, read back as it was confirmed, and the
    table it started from (None for a record older than that field).

    A confirmed phase is history: showing it again never settles it on today's table, where later
    phases have spent uses, moved marks and put players out (a 女巫's 通灵 gone from night 1 once
    night 2 is confirmed).
    """
    key = str(settled.data["phase"])
    doc = settled.data.get("result", {})
    announcement = doc.get("announcement", {})
    outcome = doc.get("outcome")
    result = Settlement(
        deaths=[Death(d["player"], d["cause"]) for d in doc.get("deaths", ())],
        survivals=[Survival(x["player"], x["reason"]) for x in doc.get("survivals", ())],
        rejected=[Rejection(r["actor"], r["skill"], r["reason"], r.get("clause", "")) for r in doc.get("rejected", ())],
        conversions=[Conversion(c["player"], c["from"]["role"], c["to"]["role"], c["from"]["faction"],
                                c["to"]["faction"], c["cause"]) for c in doc.get("conversions", ())],
        tags_moved=[TagMove(t["tag"], t.get("from"), t.get("to"), t.get("via", "")) for t in doc.get("tags_moved", ())],
        pending=[Pending(x["effect"], x.get("player"), x.get("when", ""), x.get("clause", ""))
                 for x in doc.get("pending", ())],
        vote_marks=[VoteMark(m["name"], m["player"], m.get("day")) for m in doc.get("vote_marks", ())],
        state_after=dict(doc.get("state_after", {})),
        feedback=[Feedback(f["to"], f["content"]) for f in doc.get("feedback", ())],
        out_order=list(announcement.get("out_order", ())),
        lines=list(announcement.get("lines", ())),
        outcome=None if outcome is None else NightWin(outcome["winner"], outcome["reason"], outcome.get("clause", "")),
        questions=[Question(q["key"], q["question"], tuple(q.get("options", ())), q["taken"], q.get("by", "seed"))
                   for q in doc.get("questions", ())],
        log=list(doc.get("log", ())),
        table_after=table_from_json(settled.data["table"], key),
        outs_in_lines=bool(settled.data.get("outs_in_lines", False)),
    )
    before = settled.data.get("table_before")
    return result, None if before is None else table_from_json(before, key)


def record(result: Settlement, before: Table, key: str, *, at: datetime, recorded_by: str, seed: int,
           decisions: Mapping[str, str], submitted: Sequence[int] | None = None) -> list[EventDraft]:
    """The events that make a settled phase part of the game, in the order it happened.

    Deaths become 出局 (or M160's 死亡), conversions 身份, marks moved 标记 events, factions newly judged
    lost 判负 — the events the day's fold already understands, so wins, lurk counts and the 公示 see
    the night — then one ``night_settled`` event with the table the next night starts from, and
    what the phase showed when it was confirmed (the settlement, the table it began from, the
    submissions it settled): read back by :func:`recorded_settlement`, never settled again.
    """
    after = result.table_after or before
    data_base = {"phase": key, "via": key_parts(key)[0]}  # night, or day (a day phase's settlement)
    out: list[EventDraft] = []
    for d in result.deaths:
        died = after.players[d.player].life == "死亡"
        kind = EventKind.DIED if died else EventKind.ELIMINATED
        out.append(EventDraft(at=at, kind=kind.value, player=d.player, data={**data_base, "cause": d.cause},
                              recorded_by=recorded_by))
    for c in result.conversions:
        out.append(EventDraft(at=at, kind=EventKind.ROLE_SET.value, player=c.player,
                              data={**data_base, "role": c.role_to, "faction": c.faction_to, "cause": c.cause},
                              recorded_by=recorded_by))
    for t in result.tags_moved:
        if t.from_player and t.to_player:
            out.append(EventDraft(at=at, kind=EventKind.TAG_PASSED.value, player=t.from_player,
                                  data={**data_base, "tag": t.tag, "to": t.to_player, "cause": t.via},
                                  recorded_by=recorded_by))
        elif t.to_player:
            out.append(EventDraft(at=at, kind=EventKind.TAG_GIVEN.value, player=t.to_player,
                                  data={**data_base, "tag": t.tag, "cause": t.via}, recorded_by=recorded_by))
        elif t.from_player:
            out.append(EventDraft(at=at, kind=EventKind.TAG_REMOVED.value, player=t.from_player,
                                  data={**data_base, "tag": t.tag, "gone": True, "cause": t.via},
                                  recorded_by=recorded_by))
    for m in result.vote_marks:
        out.append(EventDraft(at=at, kind=EventKind.MODIFIER.value, player=m.player,
                              data={**data_base, "name": m.name, **({"day": m.day} if m.day is not None else {})},
                              recorded_by=recorded_by))
    lost_before = set(before.state.get("判负阵营", ()))
    for faction in after.state.get("判负阵营", ()):
        if faction not in lost_before:
            out.append(EventDraft(at=at, kind=EventKind.FACTION_LOST.value, player=None,
                                  data={**data_base, "faction": faction, "reason": f"{phase_words(key)}结算"},
                                  recorded_by=recorded_by))
    out.append(EventDraft(at=at, kind=EventKind.NIGHT_SETTLED.value, player=None,
                          data={"phase": key, "table": table_json(after), "seed": seed,
                                "decisions": dict(decisions), "result": result.to_json(),
                                "outs_in_lines": result.outs_in_lines, "table_before": table_json(before),
                                **({"submitted": list(submitted)} if submitted is not None else {})},
                          recorded_by=recorded_by))
    return out


def voted_out(result: Settlement) -> list[str]:
    """Who a settled day put out by the vote: the exile skills' deaths are caused 投票… (M19 and 107
    投票出局, 213 投票), whoever the tally chose (107's 诡辩 puts another in the chosen one's place)."""
    return [d.player for d in result.deaths if d.cause.startswith("投票")]


def exit_drafts(result: Settlement, before: Table, key: str, *, at: datetime, recorded_by: str, target: str,
                own_exit: EventDraft | None, known_lost: set[str]) -> list[EventDraft]:
    """:func:`record` for a day's exit settled with what it sets off.

    The exit itself keeps one home: the vote's 出局 as ``tracker confirm`` words it (``own_exit``,
    with its count), or, for a red card, the ledger's consequence event already recorded (None).
    Factions the fold already judges lost (by red cards) are not judged again.
    """
    out: list[EventDraft] = []
    via = key_parts(key)[0]
    by_vote = set(voted_out(result))
    for d in record(result, before, key, at=at, recorded_by=recorded_by, seed=0, decisions={}):
        if d.kind in (EventKind.ELIMINATED.value, EventKind.DIED.value) and d.player == target:
            if own_exit is not None:
                out.append(replace(own_exit, data={**own_exit.data, "phase": key, "via": via}))
            continue
        if own_exit is not None and d.kind == own_exit.kind and d.player in by_vote:
            # exiled by the vote in the target's place (107 诡辩): a vote exit, without the target's count
            data = {k: v for k, v in own_exit.data.items() if k != "votes"}
            out.append(replace(own_exit, player=d.player, data={**data, "instead_of": target, "phase": key, "via": via}))
            continue
        if d.kind == EventKind.FACTION_LOST.value and d.data.get("faction") in known_lost:
            continue
        out.append(d)
    return out
