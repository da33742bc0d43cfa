"""Clauses the audits of issue 21 found settled wrong, one test each, quoting the clause it proves.

The tables are the shared examples' (tests/fixtures/night/examples.json), changed only where a test
says so, so each test reads as "the example's table, and this".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tracker.engine.night import load_catalog, settle
from tracker.engine.night.model import Settlement, Table
from tracker.engine.night.scenario import load, validate

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
RULESETS = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
            "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
            "004_757e71c89bc341d0.txt": "accel-m65"}


def example(sid: str) -> dict[str, Any]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return copy.deepcopy(next(s for s in data["scenarios"] if s["id"] == sid))


def players(sc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in sc["setup"]["players"]}


def run(sc: dict[str, Any], actions: list[dict[str, Any]] | None = None, **decisions: str) -> Settlement:
    if actions is not None:
        sc = {**sc, "actions": actions}
    validate(sc)
    table, acts = load(sc)
    return settle(load_catalog(RULESETS[sc["game"]]), table, acts, decisions=decisions)


def next_night(res: Settlement, game: str) -> Settlement:
    """The following night with no submission, from the table the last one left."""
    after = res.table_after
    assert after is not None and after.night is not None
    table = Table(players=after.players, state=after.state, night=after.night + 1)
    return settle(load_catalog(RULESETS[game]), table, [])


def feedback(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


# -- 107 ---------------------------------------------------------------------------------------------
def test_107_mastery_counts_only_nights_held_as_a_human() -> None:
    """认主<强制>："当某个角色以人类身份持有[亡灵圣物]连续度过两个完整的夜晚时，将得到导演通知，
    [亡灵圣物]认其为主。" The holder held the relic since day 1 as 活尸 (亡灵); 圣光天启 turns him
    back into the 恶徒 on night 2. Night 2 is not a complete night as a human, night 3 is the first:
    the relic takes him as its master at night 4's (17), not before (before: at once, a false 环蛇 win).
    """
    sc = example("ex-dnf107-N01")
    ps = players(sc)
    ps["P19"]["tags"] = []
    ps["P02"].update(role="活尸", faction="亡灵", tags=["亡灵圣物"], 原身份="恶徒", uses={})
    sc["setup"]["state"]["亡灵圣物"] = {"holder": "P02", "诅咒剩余次数": 0, "since": {"day": 1, "by": "藏匿"}}
    n2 = run(sc, [{"actor": "P12", "skill": "圣光天启", "targets": ["P02"]}])
    assert [(c.player, c.role_to, c.faction_to) for c in n2.conversions] == [("P02", "恶徒", "环蛇")]
    assert n2.outcome is None and "亡灵圣物认主" not in n2.state_after
    n3 = next_night(n2, sc["game"])
    assert n3.outcome is None and "亡灵圣物认主" not in n3.state_after
    n4 = next_night(n3, sc["game"])
    assert n4.state_after["亡灵圣物认主"] == "P02" and feedback(n4, "P02") == ["认主：[亡灵圣物]认你为主"]
    assert n4.outcome is not None and n4.outcome.winner == "环蛇"
