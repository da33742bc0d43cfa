"""The demo game's nights, played the way a director plays them: submit, preview, confirm.

The actions are package data (``data/nights.toml``, one ``[[nights]]`` per night, its
``[[nights.actions]]`` in the desk's words). :func:`play_night` hands them one by one to the
service's night desk (``tracker night GAME.toml --night N add …``) and confirms the settlement
(``… confirm``), so the engine, not the demo, decides who goes out, the feedback and the 公示.
Anything that builds the demo store (the demo job, the tests' fixtures) plays the nights here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.engine.night.desk import phase_key

if TYPE_CHECKING:
    from tracker.service import Service
    from tracker.service.night_desk import NightPreview

NIGHTS_FILE = files("tracker.demo") / "data" / "nights.toml"
#: Who the demo's submissions and confirmations are recorded by (as the days' confirmations).
RECORDED_BY = "演示"


@dataclass(frozen=True, slots=True)
class Submission:
    actor: str
    skill: str
    targets: tuple[str, ...] = ()
    choice: str | None = None


def load_nights(source: Traversable = NIGHTS_FILE) -> dict[int, list[Submission]]:
    """Night number → its submissions, in the order the director types them (``source``: a demo
    game's ``nights.toml``, the seed demo's by default)."""
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    out: dict[int, list[Submission]] = {}
    for n in data.get("nights", []):
        out[int(n["night"])] = [Submission(actor=str(a["actor"]), skill=str(a["skill"]),
                                           targets=tuple(str(t) for t in a.get("targets", ())),
                                           choice=a.get("choice"))
                                for a in n.get("actions", [])]
    return out


def play_night(svc: Service, night: int, source: Traversable = NIGHTS_FILE) -> NightPreview:
    """Submit night ``night``'s actions through the desk and confirm its settlement (once)."""
    desk = svc.night_desk
    key = phase_key(night=night)
    for s in load_nights(source)[night]:
        desk.add(key, s.actor, s.skill, s.targets, choice=s.choice)
    desk.confirm(key)
    return desk.preview(key)  # the same settlement, now with its confirmation


def play_nights(svc: Service, nights: Sequence[int] = (1,)) -> list[NightPreview]:
    """Several nights in order. The default, night 1 alone, is the demo store as of day 2 (阿狸 and
    老王 out), which the tests that copy the demo game expect; night 2 follows day 2's confirmed exile."""
    return [play_night(svc, n) for n in nights]


def night_summary(preview: NightPreview) -> dict[str, Any]:
    """What the demo summary shows of a settled night: deaths with cause, the 公示 draft, feedback."""
    r = preview.result
    return {
        "night": int(preview.key.split(":")[1]),
        "confirmed": preview.confirmed is not None,
        "submitted": len(preview.submitted),
        "rejected": [{"actor": x.actor, "skill": x.skill, "reason": x.reason} for x in r.rejected],
        "deaths": [{"player": d.player, "cause": d.cause} for d in r.deaths],
        "survivals": [{"player": s.player, "reason": s.reason} for s in r.survivals],
        "out_order": list(r.out_order),
        "announcement": list(r.lines),
        "feedback": len(r.feedback),
        "outcome": None if r.outcome is None else {"winner": r.outcome.winner, "reason": r.outcome.reason},
    }


def play_demo_nights(game_path: Path, *, db_url: str | None = None, nights: Sequence[int] = (1,)) -> None:
    """:func:`play_nights` on a demo game file and its store (for those that hold no service open)."""
    from tracker.service import Service

    svc = Service.open(game_path, db_url=db_url)
    try:
        play_nights(svc, nights)
    finally:
        svc.close()
