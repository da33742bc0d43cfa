"""How long one night takes to settle, per game, on the worked examples' tables.

Run on demand: `.venv/bin/python benchmarks/bench_night.py [repeats]`. For each shared example,
settles its table and submissions `repeats` times (the catalog loaded once, as in a long-running
TUI) and prints the median and the worst per night; then a full werewolf-12 night (every role
acting, the hunter shooting, the badge passed), which the generic engine settles from data alone.
The 213 tables have 24 players, the largest the posts allow; every other example is settled a second
time on its table padded to 24 seats with its commonest role (the tests assert no speed: this is where
it is measured). Target (issues 16, 20): a 24-player night under 20 ms.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from tracker.engine.night import Action, Catalog, Seat, Table, load_catalog, settle
from tracker.engine.night.scenario import load, validate
from tracker.engine.ruleset import Ruleset, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
         "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
         "004_757e71c89bc341d0.txt": "accel-m65"}


WEREWOLF = ["狼人"] * 4 + ["预言家", "女巫", "猎人", "守卫"] + ["村民"] * 4


def _werewolf() -> tuple[Table, list[Action]]:
    """werewolf-12's night 2: guard, knife on the hunter, poison, check; the hunter shoots the sheriff,
    who passes the badge."""
    players = {f"P{i:02d}": Seat(f"P{i:02d}", r, "狼人" if r == "狼人" else "好人") for i, r in enumerate(WEREWOLF, 1)}
    players["P06"].uses.update({"解药": 1, "毒药": 1})
    players["P09"].tags.append("警长")
    table = Table(players=players, state={"守护上次": {"target": "P10", "night": 1}}, night=2)
    actions = [Action("P08", "守护", ("P11",)), Action("狼群(P01,P02,P03,P04)", "杀人", ("P07",)),
               Action("P06", "毒药", ("P12",)), Action("P05", "查验", ("P02",)), Action("P07", "开枪", ("P09",)),
               Action("P09", "警徽", ("P10",), choice="传递")]
    return table, [Action(a.actor, a.skill, a.targets, a.choice, index=i) for i, a in enumerate(actions)]


def _time(catalog: Catalog, table: Table, actions: list[Action], repeats: int, rules: Ruleset | None = None) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        settle(catalog, table, actions, seed=1, ruleset=rules)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _padded(sc: dict, seats: int = 24) -> dict:
    """The same night on a table of `seats`: the extra players hold the example's commonest role."""
    sc = copy.deepcopy(sc)
    players = sc["setup"]["players"]
    living = [p for p in players if p.get("alive", True)]
    # Counter keeps first-seen order among equal counts: the same model every run (a max over a set
    # did not, and could pick a role only dead players hold — StopIteration).
    commonest = Counter(p["role"] for p in living).most_common(1)[0][0]
    model = next(p for p in living if p["role"] == commonest)
    taken = {p["name"] for p in players}
    extra = (f"P{i:02d}" for i in range(1, 100))
    while len(players) < seats:
        seat = {**copy.deepcopy(model), "name": next(n for n in extra if n not in taken)}
        if "seat" in seat:
            seat["seat"] = len(players) + 1
        players.append(seat)
    return sc


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    scenarios = json.loads((ROOT / "tests/fixtures/night/examples.json").read_text("utf-8"))["scenarios"]
    for sc in scenarios:
        rid = GAMES[sc["game"]]
        rs = load_ruleset(rid)
        catalog = load_catalog(rid, rs.night_path, tuple(r.name for r in rs.roles))
        started = time.perf_counter()
        validate(sc)
        table, actions = load(sc)
        read_ms = (time.perf_counter() - started) * 1000
        times = _time(catalog, table, actions, repeats, rs)
        print(f"{sc['id']} ({len(table.players)} players, {len(actions)} submissions): "
              f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms; schema check + read {read_ms:.1f} ms")
        if len(table.players) < 24:
            big = _padded(sc)
            validate(big)
            table, actions = load(big)
            times = _time(catalog, table, actions, repeats, rs)
            print(f"{sc['id']} padded to {len(table.players)} players: "
                  f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms")

    rs = load_ruleset("werewolf-12")
    catalog = load_catalog(rs.id, rs.night_path, tuple(r.name for r in rs.roles))
    table, actions = _werewolf()
    times = _time(catalog, table, actions, repeats, rules=rs)
    print(f"werewolf-12 night 2 ({len(table.players)} players, {len(actions)} submissions, generic engine): "
          f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
