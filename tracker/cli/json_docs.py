"""The command line's JSON documents, built from the services' typed answers (and only here).

The keys are the contract scripts rely on (docs/cli.md); the services return dataclasses and the
engine's values, and each ``--json`` command turns them into its document with one function here.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from tracker.engine.events import event_to_json
from tracker.engine.tally import number

if TYPE_CHECKING:  # the types only: `tracker --help` must not load the store and the services
    from tracker.penalties import ledger as L
    from tracker.service.penalties import CardDecision, PlayerStanding
    from tracker.service.status import GameSummary
    from tracker.service.votes import ConfirmResult, DayTally
    from tracker.store.posts import StoredPost


def post_json(p: StoredPost, tz: tzinfo) -> dict[str, Any]:
    """The ``tracker posts --json`` shape (docs/cli.md): times in the forum's zone, deleted posts marked."""
    return {
        "pid": p.pid, "tid": p.tid, "floor": p.floor, "position": p.position, "author": p.author, "uid": p.uid,
        "posted_at": p.posted_at.astimezone(tz).isoformat(),
        "edited_at": p.edited_at.astimezone(tz).isoformat() if p.edited_at else None,
        "blocked": p.blocked, "deleted": p.deleted, "versions": p.versions, "text": p.text,
        "quotes": [{"pid": q.pid, "author": q.author, "text": q.text} for q in p.quotes],
        "colors": list(p.colors), "sizes": list(p.sizes),
    }


def tally_to_json(dt: DayTally, tz: tzinfo | None = None) -> dict[str, Any]:
    """The CLI contract: day, ballots, final, totals, public_totals, outcome (plus context keys).

    ``tz`` (the forum's zone) writes the ballots' times as `tracker posts` writes the same posts'.
    """
    t = dt.tally
    o = t.outcome
    return {
        "day": t.day,
        "tid": dt.tid,
        "ruleset": dt.ruleset_id,
        "purpose": t.window.purpose if dt.election is None else dt.election.purpose,
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


def entry_json(e: L.Entry) -> dict[str, Any]:
    """A ledger entry as the CLI prints it (stable English keys)."""
    return {
        "id": e.id, "action": e.action, "player": e.player, "color": e.color, "clause": e.clause,
        "reason": e.reason, "post": e.post, "flag": e.flag, "issuer": e.issuer, "at": e.at.isoformat(),
        "ref": e.ref, "consumed": list(e.consumed), "evidence": e.evidence, "prev_hash": e.prev_hash,
        "hash": e.hash, "day": e.day,
    }


def decision_json(d: CardDecision) -> dict[str, Any]:
    out = entry_json(d.entry)
    out["written"] = [entry_json(e) for e in d.written]
    out["events"] = list(d.events)
    out["recorded_events"] = list(d.recorded)
    return out


def _place(where: Mapping[int, tuple[int, int, datetime]], pid: int | None) -> dict[str, Any]:
    found = where.get(pid) if pid is not None else None
    if found is None:
        return {"tid": None, "floor": None, "posted_at": None}
    return {"tid": found[0], "floor": found[1], "posted_at": found[2].isoformat()}


def cards_json(ledger: list[L.Entry], standing: dict[str, PlayerStanding],
               places: Mapping[int, tuple[int, int, datetime]] | None = None) -> dict[str, Any]:
    """The `tracker cards --json` document; ``places`` (pid → tid, floor, posted_at) say 帖 and 楼."""
    where = places or {}
    return {
        "ledger": [{**entry_json(e), **_place(where, e.post)} for e in ledger],
        "standing": {p: {"blue": s.blue, "yellow": s.yellow, "red": s.red, "status": s.status}
                     for p, s in standing.items()},
    }


def confirm_json(r: ConfirmResult) -> dict[str, Any]:
    """One vote thread of `tracker confirm --json`."""
    if r.already_confirmed:
        return {"tid": r.tid, "already_confirmed": True, "explanation": r.explanation, "events": []}
    doc: dict[str, Any] = {"tid": r.tid, "purpose": r.purpose, "explanation": r.explanation, "clause": r.clause,
                           "chosen": r.chosen, "tally_outcome": r.tally_outcome, "events": [event_to_json(e) for e in r.events]}
    if r.settlement is not None:  # the exile settled with what it set off (tracker night simulate's names)
        doc["settlement"] = {"phase": r.phase, **r.settlement.to_json()}
    return doc


def state_json(s: GameSummary) -> dict[str, Any]:
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
