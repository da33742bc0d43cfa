"""Random legal nights, thousands per game: the engine never crashes, never kills anyone twice,
never lets a dead or benched player act, and gives the same result for the same seed.

Each game's tables come from its worked examples (legal setups with every field its roles need);
hypothesis then varies who is still alive, who is benched, and what is submitted: any skill of the
game by any player (so refusals are exercised as much as settlements), with any targets.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.engine.night import load_catalog, settle
from tracker.engine.night.model import Action, Table
from tracker.engine.night.scenario import load
from tracker.engine.ruleset import load_ruleset

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
GAMES = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
         "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
         "004_757e71c89bc341d0.txt": "accel-m65"}


CASES = [(GAMES[sc["game"]], sc) for sc in json.loads(EXAMPLES.read_text("utf-8"))["scenarios"]]


def _vary(table: Table, data: st.DataObject) -> Table:
    names = list(table.players)
    players = {}
    for n in names:
        seat = table.players[n]
        alive = seat.alive and data.draw(st.integers(0, 9), label=f"{n} alive?") > 1
        status = list(seat.status)
        if alive and data.draw(st.integers(0, 19), label=f"{n} benched?") == 0 and "挂机" not in status:
            status.append("挂机")
        life = seat.life if seat.life is None or alive == seat.alive else ("死亡" if seat.life == "存活" else seat.life)
        players[n] = replace(seat, alive=alive, status=status, life=life, tags=list(seat.tags),
                             uses=dict(seat.uses), fields=dict(seat.fields))
    if not any(p.alive for p in players.values()):
        first = names[0]
        players[first] = replace(players[first], alive=True, life=None if players[first].life is None else "存活")
    return Table(players=players, state=json.loads(json.dumps(table.state)), night=table.night, day=table.day,
                 phase=table.phase, carried=list(table.carried))


def _actions(rid: str, table: Table, data: st.DataObject) -> list[Action]:
    catalog = load_catalog(rid)
    names = list(table.players)
    skills = sorted(catalog.skills.values(), key=lambda s: s.name)
    acts = []
    for i in range(data.draw(st.integers(0, 12), label="submissions")):
        skill = data.draw(st.sampled_from(skills), label="skill")
        holders = [n for n in names if table.players[n].role in skill.roles] or names
        actor = data.draw(st.sampled_from(holders), label="actor")
        if skill.team is not None:
            members = [n for n in names if table.players[n].role in skill.roles] or [actor]
            actor = f"{skill.team}({','.join(members)})"
        lo = min(skill.min_targets, len(names))
        k = data.draw(st.integers(lo, min(len(names), max(lo, skill.max_targets))), label="k")
        targets = data.draw(st.lists(st.sampled_from(names), min_size=k, max_size=k, unique=True), label="targets")
        acts.append(Action(actor, skill.name, tuple(targets), index=i))
    return acts


@pytest.mark.parametrize(("rid", "scenario"), CASES, ids=[sc["id"] for _, sc in CASES])
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_random_legal_nights(rid: str, scenario: dict[str, object], data: st.DataObject, seed: int) -> None:
    rs = load_ruleset(rid)
    catalog = load_catalog(rid, rs.night_path, tuple(r.name for r in rs.roles))
    base, _ = load(scenario)
    table = _vary(base, data)
    actions = _actions(rid, table, data)
    result = settle(catalog, table, actions, seed=seed)
    dead = [d.player for d in result.deaths]
    assert len(dead) == len(set(dead)), f"killed twice: {dead}"
    gone_before = {n for n, p in table.players.items() if not p.alive}
    assert not set(dead) & gone_before, "a player already out died again"
    refused = {(r.actor, r.skill) for r in result.rejected}
    for a in actions:
        skill = catalog.skill(a.skill)
        idle = [m for m in a.members if m in table.players
                and ((not table.players[m].alive and not skill.actor_may_be_dead) or table.players[m].benched)]
        if idle:
            assert (a.actor, a.skill) in refused, f"{idle} acted while out or benched: {a}"
    again = settle(catalog, table, actions, seed=seed)
    assert again.to_json() == result.to_json()
