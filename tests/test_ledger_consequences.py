"""A red card's consequence under each of the five rule posts, through the engine's own fold.

The ledger says which reds appeared or vanished; the service turns that into ``card_consequence``
events (or their ``undo``); the engine applies the ruleset: 挂机 (107, M160 — M160 also 丑角), 出局
(213, M19, M65), and a faction's second red loses it (213, M19).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tracker.clock import SHANGHAI
from tracker.config import PlayerConfig
from tracker.engine.events import Event
from tracker.engine.ruleset import load_ruleset
from tracker.engine.state import GameState, PlayerState, fold
from tracker.penalties import ledger as L
from tracker.service.cards import consequence_drafts

T0 = datetime(2025, 3, 4, 12, 0, tzinfo=SHANGHAI)


class Table:
    """Ledger + event log, driven like the service: decide, append, translate the consequences."""

    def __init__(self, ruleset: str) -> None:
        self.rs = load_ruleset(ruleset)
        # a full table of the post's roles, so ordinary loss conditions do not trip by accident
        self.roster = [PlayerConfig(f"{r.name}{i + 1}", role=r.name, faction=r.faction)
                       for r in self.rs.roles for i in range(max(r.count, 1))]
        by_faction: dict[str, list[str]] = {}
        for p in self.roster:
            by_faction.setdefault(p.faction or "", []).append(p.name)
        big = sorted(by_faction, key=lambda f: -len(by_faction[f]))
        self.f1, self.f2 = big[0], big[1]
        self.names = {"甲": by_faction[self.f1][0], "乙": by_faction[self.f1][1], "丙": by_faction[self.f2][0]}
        self.entries: list[L.Entry] = []
        self.events: list[Event] = []
        self.t = T0
        self.ladder = L.Ladder(self.rs.cards.blue_to_yellow, self.rs.cards.yellow_to_red)

    def _apply(self, drafts: list[L.Draft]) -> None:
        before = list(self.entries)
        self.entries += L.chain(drafts, after=before[-1] if before else None)
        cons = L.consequences(before, self.entries)
        for d in consequence_drafts(cons, events=self.events, red_consequence=self.rs.cards.red_consequence,
                                    at=self.t, by="导演A"):
            self.events.append(d.to_event(seq=len(self.events) + 1, recorded_at=self.t))
        self.t += timedelta(minutes=5)

    def card(self, player: str, color: L.Color) -> None:
        self._apply(L.issue(self.entries, player=self.names[player], color=color, clause="2-(4)", reason="攻击", issuer="导演A",
                            at=self.t, ladder=self.ladder))

    def revoke(self, card: int) -> None:
        self._apply(L.revoke(self.entries, card, reason="误判", issuer="导演A", at=self.t, ladder=self.ladder))

    @property
    def state(self) -> GameState:
        return fold(self.rs, self.roster, self.events)

    def player(self, alias: str) -> PlayerState:
        return self.state.player(self.names[alias])


@pytest.mark.parametrize(("ruleset", "status", "role"), [
    ("dnf-107", "benched", None),
    ("gourmet-m160", "benched", "丑角"),
    ("sanguo-213", "out", None),
    ("luoluo-m19", "out", None),
    ("accel-m65", "out", None),
])
def test_three_yellows_make_a_red_and_the_ruleset_decides_what_it_does(ruleset: str, status: str,
                                                                        role: str | None) -> None:
    t = Table(ruleset)
    t.card("甲", "yellow")
    t.card("甲", "yellow")
    assert t.player("甲").status == "alive" and not t.events
    t.card("甲", "yellow")
    assert [e.kind for e in t.events] == ["card_consequence"]
    assert t.events[0].data["ledger_id"] == 4 and t.events[0].data["consequence"] == t.rs.cards.red_consequence
    p = t.player("甲")
    assert p.status == status
    if role is not None:
        assert p.role == role
    # revoking one of the merged yellows undoes the red, and so the consequence
    t.revoke(2)
    assert t.events[-1].kind == "undo"
    assert t.player("甲").status == "alive"


@pytest.mark.parametrize(("ruleset", "loses"), [
    ("sanguo-213", True), ("luoluo-m19", True), ("dnf-107", False), ("gourmet-m160", False), ("accel-m65", False),
])
def test_two_reds_in_one_faction(ruleset: str, loses: bool) -> None:
    t = Table(ruleset)
    faction, other = t.f1, t.f2

    def lost_by_reds(f: str) -> bool:
        loss = t.state.lost.get(f)
        return loss is not None and "红牌" in loss.reason

    t.card("甲", "red")
    assert not lost_by_reds(faction)
    t.card("丙", "red")
    t.card("乙", "red")
    assert lost_by_reds(faction) is loses
    assert not lost_by_reds(other)
    if loses:  # judged by the ruleset's [[win]] rule, through the one win check
        assert t.state.lost[faction].rule == f"{faction}.红牌"
    t.revoke(3)
    assert not lost_by_reds(faction)


@pytest.mark.parametrize("ruleset", ["luoluo-m19", "sanguo-213"])
def test_a_second_red_on_the_same_player_counts_for_the_faction(ruleset: str) -> None:
    """M19/213 "同一阵营的角色累计获得两张或以上红牌时，阵营判负": a second red to a player already carded
    off changes nothing for them but is the faction's second red, in the game state (not only in the
    判罚公示's words); revoking either red lifts the loss, revoking both brings the player back."""
    t = Table(ruleset)
    faction = t.state.player(t.names["甲"]).faction
    t.card("甲", "red")
    assert faction not in t.state.lost
    t.card("甲", "red")
    assert [e.kind for e in t.events] == ["card_consequence", "card_consequence"]
    assert faction in t.state.lost and t.state.faction_reds[faction or ""] == 2
    assert t.player("甲").status == "out"
    t.revoke(1)
    assert [e.kind for e in t.events] == ["card_consequence", "card_consequence", "undo"]
    assert t.player("甲").status == "out" and faction not in t.state.lost
    t.revoke(2)
    assert [e.kind for e in t.events] == ["card_consequence", "card_consequence", "undo", "undo"]
    assert t.player("甲").status == "alive"


def test_cards_on_an_out_player_are_allowed() -> None:
    t = Table("sanguo-213")
    t.card("甲", "red")
    assert t.player("甲").status == "out"
    t.card("甲", "blue")
    name = t.names["甲"]
    assert L.replay(t.entries).standing(name) == L.Standing(name, 1, 0, 1)
