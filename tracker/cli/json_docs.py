"""The command line's JSON documents, built from the services' typed answers (and only here).

The keys are the contract scripts rely on (docs/cli.md); the services return dataclasses and the
engine's values, and each ``--json`` command turns them into its document with one function here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.engine.events import event_to_json
from tracker.jsonvalue import Doc

if TYPE_CHECKING:  # the types only: `tracker --help` must not load the store and the services
    from tracker.engine.events import Event
    from tracker.engine.night.model import Settlement
    from tracker.engine.outcome import Outcome
    from tracker.engine.roster import RosterProblem
    from tracker.engine.roster_names import RosterCheck
    from tracker.engine.ruleset_errors import Problem as RulesetProblem
    from tracker.engine.ruleset_schema import Ruleset
    from tracker.penalties import ledger as L
    from tracker.penalties.lurk import LurkReport
    from tracker.penalties.lurk_cards import LurkFinding
    from tracker.penalties.review import Flag
    from tracker.records import ThreadSummary
    from tracker.scraper.crawl import CrawlProgress, CrawlReport
    from tracker.scraper.discovery import SignUp
    from tracker.service.cards import CardDecision, PlayerStanding
    from tracker.service.flag_review import DetectionRun
    from tracker.service.night_desk import NightPreview
    from tracker.service.reporting import Attention
    from tracker.service.status import GameSummary
    from tracker.service.votes import ConfirmResult, DayTally
    from tracker.store.posts import StoredPost


def post_json(p: StoredPost, tz: tzinfo) -> Doc:
    """The ``tracker posts --json`` shape (docs/cli.md): times in the forum's zone, deleted posts marked."""
    return {
        "pid": p.pid, "tid": p.tid, "floor": p.floor, "position": p.position, "author": p.author, "uid": p.uid,
        "posted_at": p.posted_at.astimezone(tz).isoformat(),
        "edited_at": p.edited_at.astimezone(tz).isoformat() if p.edited_at else None,
        "blocked": p.blocked, "deleted": p.deleted, "versions": p.versions, "text": p.text,
        "quotes": [{"pid": q.pid, "author": q.author, "text": q.text} for q in p.quotes],
        "colors": list(p.colors), "sizes": list(p.sizes),
    }


def posts_json(posts: Sequence[StoredPost], tz: tzinfo) -> list[Doc]:
    """`tracker posts --json`: every stored post of the thread."""
    return [post_json(p, tz) for p in posts]


def tally_to_json(dt: DayTally, tz: tzinfo | None = None) -> Doc:
    """The CLI contract: day, ballots, final, totals, public_totals, outcome (plus context keys).

    ``tz`` (the forum's zone) writes the ballots' times as `tracker posts` writes the same posts'.
    """
    from tracker.engine.tally import number  # here: `tracker crawl` prints its JSON without the counter

    t = dt.tally
    o = t.outcome
    return {
        "day": t.day,
        "tid": dt.tid,
        "ruleset": dt.ruleset_id,
        "purpose": dt.purpose,
        "ballots": [{
            "pid": cb.ballot.pid, "floor": cb.ballot.floor, "voter": cb.voter, "target": cb.target,
            "kind": cb.kind, "valid": cb.valid, "reason": cb.reason, "final": cb.final,
            "posted_at": (cb.ballot.posted_at.astimezone(tz) if tz else cb.ballot.posted_at).isoformat(),
            "proxy_by": cb.ballot.proxy_by,
            "weight": number(cb.weight), "public_weight": number(cb.public_weight),
            "flags": [f.reason for f in cb.flags],
            **({"earlier_text": cb.earlier_text} if cb.earlier_text is not None else {}),
        } for cb in t.ballots],
        "final": dict(t.final),
        "totals": {k: number(v) for k, v in t.totals.items()},
        "public_totals": {k: number(v) for k, v in t.public_totals.items()},
        "outcome": {"kind": o.kind, "player": o.player, "office": o.office, "reason": o.reason,
                    "message": o.message, "top": number(o.top), "tied": list(o.tied),
                    "public_differs": o.public_differs},
        "abstained": list(t.abstained),
        "no_vote": list(t.no_vote),
        "auto_abstain": list(t.auto_abstain),
        "last_votes_used": list(t.last_votes_used),
        "provisional": list(dt.provisional),
    }


def entry_json(e: L.Entry) -> Doc:
    """A ledger entry as the CLI prints it (stable English keys)."""
    return {
        "id": e.id, "action": e.action, "player": e.player, "color": e.color, "clause": e.clause,
        "reason": e.reason, "post": e.post, "flag": e.flag, "issuer": e.issuer, "at": e.at.isoformat(),
        "ref": e.ref, "consumed": list(e.consumed), "evidence": e.evidence, "prev_hash": e.prev_hash,
        "hash": e.hash, "day": e.day,
    }


def decision_json(d: CardDecision) -> Doc:
    out = entry_json(d.entry)
    out["written"] = [entry_json(e) for e in d.written]
    out["events"] = list(d.events)
    out["recorded_events"] = list(d.recorded)
    return out


def _place(where: Mapping[int, tuple[int, int, datetime]], pid: int | None) -> Doc:
    found = where.get(pid) if pid is not None else None
    if found is None:
        return {"tid": None, "floor": None, "posted_at": None}
    return {"tid": found[0], "floor": found[1], "posted_at": found[2].isoformat()}


def cards_json(ledger: list[L.Entry], standing: dict[str, PlayerStanding],
               places: Mapping[int, tuple[int, int, datetime]] | None = None,
               verified: L.Verification | None = None) -> Doc:
    """The `tracker cards --json` document; ``places`` (pid → tid, floor, posted_at) say 帖 and 楼;
    ``verified``, the chain's check, is the command's last key."""
    where = places or {}
    doc: Doc = {
        "ledger": [{**entry_json(e), **_place(where, e.post)} for e in ledger],
        "standing": {p: {"blue": s.blue, "yellow": s.yellow, "red": s.red, "status": s.status}
                     for p, s in standing.items()},
    }
    if verified is not None:
        doc["verified"] = verification_json(verified)
    return doc


def tally_command_json(day: int, results: Sequence[DayTally], tz: tzinfo) -> Doc:
    """`tracker tally --json`: one vote's document, or with several vote threads (213 day 1) each
    under ``votes`` and the contract's top-level keys describing the first."""
    docs = [tally_to_json(r, tz) for r in results]
    if len(docs) == 1:
        return docs[0]
    return {"day": day, "votes": docs, **{k: docs[0][k] for k in ("ballots", "final", "totals", "public_totals",
                                                                  "outcome")}}


def confirm_command_json(day: int, results: Sequence[ConfirmResult]) -> Doc:
    """`tracker confirm --json`: each vote thread's confirmation."""
    return {"day": day, "votes": [confirm_json(r) for r in results]}


def confirm_json(r: ConfirmResult) -> Doc:
    """One vote thread of `tracker confirm --json`."""
    if r.already_confirmed:
        return {"tid": r.tid, "already_confirmed": True, "explanation": r.explanation, "events": []}
    doc: Doc = {"tid": r.tid, "purpose": r.purpose, "explanation": r.explanation, "clause": r.clause,
                           "chosen": r.chosen, "tally_outcome": r.tally_outcome, "events": [event_to_json(e) for e in r.events]}
    if r.settlement is not None:  # the exile settled with what it set off (tracker night simulate's names)
        doc["settlement"] = {"phase": r.phase, **r.settlement.to_json()}
    return doc


def state_json(s: GameSummary) -> Doc:
    """The `tracker state --json` document: the fold's document, the game file's days as they stand
    then any day known only from events, and each player's cards."""
    doc = s.state.to_json()
    statuses = {d.day: d.to_json() for d in s.days}
    doc["days"] = [*statuses.values(), *(d for d in doc["days"] if d["day"] not in statuses)]
    for p in doc["players"]:
        c = s.cards[p["name"]]
        p["cards"] = {"blue": c.blue, "yellow": c.yellow, "red": c.red}
        p["marks"] = [m for m in s.marks.get(p["name"], ()) if m not in p["tags"]]
    return doc


#: A card's place: pid → (tid, floor, posted_at), as ``Cards.post_places`` answers.
Places = Mapping[int, tuple[int, int, datetime]]


def placed_entry_json(e: L.Entry, places: Places) -> Doc:
    """A ledger entry with the thread and floor of its post when the store has it (`card history`,
    the entries a decision wrote)."""
    doc = entry_json(e)
    if e.post is not None and e.post in places:
        doc.update({"tid": places[e.post][0], "floor": places[e.post][1]})
    return doc


def history_json(entries: Sequence[L.Entry], places: Places) -> list[Doc]:
    """`tracker cards history ID --json`: the card's entries, placed in the forum."""
    return [placed_entry_json(e, places) for e in entries]


def decisions_json(decisions: Sequence[CardDecision]) -> list[Doc]:
    """`tracker card from-lurker --json`: one document per card issued."""
    return [decision_json(d) for d in decisions]


def placed_decision_json(d: CardDecision, places: Places) -> Doc:
    """One `tracker card …` decision: its entry, and the entries it wrote placed in the forum."""
    doc = decision_json(d)
    doc["written"] = [placed_entry_json(e, places) for e in d.written]
    return doc


def flag_json(f: Flag) -> Doc:
    """The CLI contract's flag object (docs/cli.md: ``tracker flags``), plus the review details."""
    return f.as_json()


def flags_json(found: Sequence[Flag]) -> list[Doc]:
    """`tracker flags --json`: the contract's keys of each flag."""
    keys = ("id", "pid", "floor", "tid", "author", "kind", "category", "clause", "excerpt", "status")
    return [{k: doc[k] for k in keys} for doc in map(flag_json, found)]


def lurkers_json(rep: LurkReport, found: Sequence[LurkFinding]) -> Doc:
    """`tracker lurkers --json`: the report, each penalty with the card it became (if any)."""
    doc: Doc = rep.to_json()
    doc["penalties"] = [{"player": p.player, "rule": p.rule, "clause": p.clause, "card": p.card, "detail": p.detail,
                         "card_id": f.card, "revoked": f.revoked} for p, f in zip(rep.penalties, found, strict=True)]
    return doc


def verification_json(v: L.Verification) -> Doc:
    """The ledger's check as the ``--json`` documents carry it."""
    return {"ok": v.ok, "entries": v.entries, "broken_at": v.broken_at, "problem": v.problem}


def verify_json(v: L.Verification, problems: Sequence[str], *, anchored: int, posted: int, source: str | None,
                sealed: int, covers: int, extended: bool) -> Doc:
    """`tracker cards verify --json`; ``extended`` when anchors or seals were asked about (the
    original three keys stay as they were for a plain check)."""
    doc: Doc = {"ok": not problems, "entries": v.entries, "broken_at": v.broken_at}
    if extended:
        doc.update({"anchors_checked": anchored, "anchors_in_process_thread": posted, "anchors_source": source,
                    "seals_checked": sealed, "sealed_through": covers, "problems": list(problems)})
    return doc


def event_json(e: Event, outcome: Outcome | None) -> Doc:
    """`tracker event --json`: the event recorded and the win check after it."""
    return {"event": event_to_json(e), "outcome": outcome.to_json() if outcome else None}


def state_command_json(s: GameSummary, *, outcome_judged: bool, problems: Sequence[RosterProblem],
                       ledger: L.Verification, readings: list[Doc],
                       events: list[Doc] | None) -> Doc:
    """`tracker state --json`: the state, the roster's problems (no outcome when it has errors),
    the ledger's check, the readings in force and, asked for, the event log."""
    doc = state_json(s)
    if not outcome_judged:  # a winner counted from a roster the ruleset contradicts is no winner
        doc["outcome"] = None
    doc["roster_problems"] = [{"level": p.level, "message": p.message} for p in problems]
    doc["ledger"] = verification_json(ledger)
    doc["readings"] = readings
    if events is not None:
        doc["events"] = events
    return doc


def readings_json(ruleset: Ruleset, game_options: Mapping[str, object]) -> list[Doc]:
    """The ruleset's options with the value in force and where it came from."""
    return [{"key": o.key, "value": ruleset.option(o.key), "default": o.default,
             "from_game_file": o.key in game_options} for o in ruleset.options]


def value_words(value: object) -> str:
    """An option's value as the text lines show it (JSON's spelling: true, "文字")."""
    return json.dumps(value, ensure_ascii=False)


def rulesets_json(rs: Sequence[Ruleset], code: Mapping[str, list[str]]) -> list[Doc]:
    """`tracker rulesets --json`; ``code`` says where each ruleset's hooks live."""
    return [{"id": r.id, "name": r.name, "source": r.source, "players": r.players,
             "factions": list(r.faction_names), "code": code[r.id]} for r in rs]


def ruleset_check_json(file: Path, found: Sequence[RulesetProblem]) -> Doc:
    """`tracker ruleset check --json`."""
    return {"file": str(file), "ok": not any(p.level == "error" for p in found),
            "problems": [{"level": p.level, "file": p.file or file.name, "key": p.where, "line": p.line,
                          "message": p.message, "hint": p.hint} for p in found]}


def simulation_json(result: Settlement) -> Doc:
    """`tracker night simulate --json` of one scenario."""
    return result.to_json()


def simulations_json(ids: Sequence[str | None], results: Sequence[Settlement]) -> Doc:
    """`tracker night simulate --json` of a ``{"scenarios": [...]}`` file."""
    return {"results": [{"id": i, **r.to_json()} for i, r in zip(ids, results, strict=True)]}


def night_confirm_json(key: str, recorded: Sequence[Event], result: Settlement) -> Doc:
    """`tracker night … confirm --json`: the events written and the settlement."""
    return {"phase": key, "recorded": [e.seq for e in recorded], **result.to_json()}


def night_preview_json(key: str, preview: NightPreview) -> Doc:
    """`tracker night … --json`: the submissions, the table before and the previewed settlement."""
    from tracker.engine.night.desk import table_json

    return {"phase": key, "confirmed": preview.confirmed is not None,
            "submitted": [{"seq": e.seq, **{k: e.data[k] for k in ("actor", "skill", "targets") if k in e.data},
                           **({"choice": e.data["choice"]} if "choice" in e.data else {})}
                          for e in preview.submitted],
            "table": table_json(preview.table), **preview.result.to_json()}


def attention_json(day: int, kind: str, att: Attention, bbcode: str, written: Sequence[Path]) -> Doc:
    """`tracker report KIND --json`: what needs the director, the BBCode, the files written."""
    return {"day": day, "kind": kind, "needs_director": att.needed, "items": list(att.items),
            "bbcode": bbcode, "written": [str(p) for p in written]}


def reply_json(tid: int, pid: int | None, message: str) -> Doc:
    """`tracker post --json`: where the reply went."""
    return {"tid": tid, "pid": pid, "message": message}


def elevator_json(day: int, text: str) -> Doc:
    """`tracker elevator --json`."""
    return {"day": day, "bbcode": text}


def announcement_json(day: int, covers: Mapping[str, int] | None, text: str) -> Doc:
    """`tracker announce --json`: the day and night it covers (none before the first day)."""
    return {"day": day, "covers": covers, "bbcode": text}


def forum_threads_json(fid: int, items: Sequence[ThreadSummary]) -> Doc:
    """`tracker threads --json`: the forum's first listing page."""
    return {"fid": fid, "threads": [
        {"tid": t.tid, "subject": t.subject, "author": t.author, "replies": t.replies, "sticky": t.sticky,
         "last_post_at": t.last_post_at.isoformat() if t.last_post_at else None} for t in items]}


def signup_json(signup: SignUp) -> Doc:
    """`tracker players --from-thread TID --json`: the sign-up thread's accounts."""
    return {"tid": signup.tid, "subject": signup.subject,
            "players": [{"name": n, "uid": uid, "floor": floor} for n, uid, floor in signup.accounts]}


def crawl_json(report: CrawlReport, detection: DetectionRun | None, names: RosterCheck | None) -> Doc:
    """`tracker crawl --json`: the crawl, the detectors' run after it, the roster's names."""
    doc = report.to_json()
    if detection is not None:
        doc["detection"] = {"scanned": detection.scanned, "new_flags": len(detection.new_flags)}
    if names is not None:
        doc["roster"] = {"silent": [{"player": p, "nearest": list(n)} for p, n in names.silent],
                         "unlisted": [{"author": u.author, "posts": u.posts, "nearest": list(u.nearest)}
                                      for u in names.unlisted]}
    return doc


def progress_line(p: CrawlProgress) -> str:
    """One crawl progress event as a JSON line (the TUI follows a child process's crawl by them)."""
    return json.dumps({"event": p.event, "tid": p.tid, "threads_done": p.threads_done,
                       "threads_total": p.threads_total, "requests": p.requests,
                       "pages_fetched": p.pages_fetched, "detail": p.detail}, ensure_ascii=False)
