"""The card ladder as the five rule posts state it (判罚制度), on the pure ledger."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from tracker.clock import SHANGHAI
from tracker.errors import GameRuleError, UnknownIdError
from tracker.penalties import ledger as L

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=SHANGHAI)
LADDER = L.Ladder()


class Book:
    """A ledger driven the way the service drives it: decisions in, chained entries appended."""

    def __init__(self, ladder: L.Ladder = LADDER) -> None:
        self.entries: list[L.Entry] = []
        self.ladder = ladder
        self.t = T0

    def _add(self, drafts: list[L.Draft]) -> list[L.Entry]:
        new = L.chain(drafts, after=self.entries[-1] if self.entries else None)
        self.entries.extend(new)
        self.t += timedelta(minutes=1)
        return new

    def issue(self, player: str, color: L.Color, clause: str = "2-(1)") -> list[L.Entry]:
        return self._add(L.issue(self.entries, player=player, color=color, clause=clause, reason="情绪发言",
                                 issuer="导演A", at=self.t, ladder=self.ladder))

    def revoke(self, card: int) -> list[L.Entry]:
        return self._add(L.revoke(self.entries, card, reason="误判", issuer="导演A", at=self.t,
                                  ladder=self.ladder))

    def amend(self, card: int, **kw: object) -> list[L.Entry]:
        return self._add(L.amend(self.entries, card, reason="条款写错", issuer="导演A", at=self.t,
                                 ladder=self.ladder, **kw))  # type: ignore[arg-type]

    def standing(self, player: str) -> tuple[int, int, int]:
        s = L.replay(self.entries).standing(player)
        return (s.blue, s.yellow, s.red)

    def head(self) -> L.Head:
        return L.Head(len(self.entries), self.entries[-1].hash if self.entries else L.GENESIS)


def test_three_blue_make_a_yellow_and_the_conversion_is_its_own_entry() -> None:
    b = Book()
    b.issue("泡泡", "blue")
    b.issue("泡泡", "blue")
    assert b.standing("泡泡") == (2, 0, 0)
    new = b.issue("泡泡", "blue")
    assert [e.action for e in new] == ["issue", "convert"]
    conv = new[1]
    assert conv.color == "yellow" and conv.consumed == (1, 2, 3) and conv.issuer == L.LADDER_ISSUER
    assert "合并" in conv.reason
    assert b.standing("泡泡") == (0, 1, 0)


def test_three_yellow_make_a_red() -> None:
    b = Book()
    b.issue("栗子", "yellow")
    b.issue("栗子", "yellow")
    new = b.issue("栗子", "yellow")
    assert [(e.action, e.color) for e in new] == [("issue", "yellow"), ("convert", "red")]
    assert b.standing("栗子") == (0, 0, 1)


def test_nine_blues_cascade_to_a_red() -> None:
    b = Book()
    for _ in range(8):
        b.issue("饺子", "blue")
    assert b.standing("饺子") == (2, 2, 0)
    new = b.issue("饺子", "blue")
    assert [(e.action, e.color) for e in new] == [("issue", "blue"), ("convert", "yellow"), ("convert", "red")]
    assert b.standing("饺子") == (0, 0, 1)


def test_cards_of_different_players_never_merge() -> None:
    b = Book()
    b.issue("泡泡", "blue")
    b.issue("包子", "blue")
    b.issue("泡泡", "blue")
    assert b.standing("泡泡") == (2, 0, 0)
    assert b.standing("包子") == (1, 0, 0)


def test_revoking_a_merged_blue_undoes_the_conversion_with_new_entries() -> None:
    b = Book()
    for _ in range(3):
        b.issue("泡泡", "blue")
    n_before = len(b.entries)
    new = b.revoke(2)
    assert [e.action for e in new] == ["revert", "revoke"]
    assert new[0].ref == 4 and new[1].ref == 2
    assert b.standing("泡泡") == (2, 0, 0)
    # nothing was rewritten: the earlier entries are untouched
    assert len(b.entries) == n_before + 2 and b.entries[3].action == "convert"


def test_revoking_with_a_fourth_blue_waiting_converts_again() -> None:
    b = Book()
    for _ in range(4):
        b.issue("泡泡", "blue")
    assert b.standing("泡泡") == (1, 1, 0)
    new = b.revoke(1)
    assert [e.action for e in new] == ["revert", "revoke", "convert"]
    assert new[2].consumed == (2, 3, 5)
    assert b.standing("泡泡") == (0, 1, 0)


def test_revoking_a_blue_inside_a_red_undoes_both_levels() -> None:
    b = Book()
    for _ in range(9):
        b.issue("饺子", "blue")
    assert b.standing("饺子") == (0, 0, 1)
    new = b.revoke(1)
    assert [e.action for e in new] == ["revert", "revert", "revoke"]
    assert b.standing("饺子") == (2, 2, 0)


def test_revoking_a_red_and_a_direct_card() -> None:
    b = Book()
    (red,) = b.issue("栗子", "red")
    b.revoke(red.id)
    assert b.standing("栗子") == (0, 0, 0)
    with pytest.raises(GameRuleError, match="已在"):
        b.revoke(red.id)


def test_a_converted_card_cannot_be_revoked_directly() -> None:
    b = Book()
    for _ in range(3):
        b.issue("泡泡", "blue")
    with pytest.raises(GameRuleError, match="合并"):
        b.revoke(4)
    with pytest.raises(UnknownIdError, match="没有第 99 条"):  # a wrong number, not a game rule (exit 2)
        b.revoke(99)


def test_amend_colour_is_a_new_entry_and_resettles() -> None:
    b = Book()
    for _ in range(3):
        b.issue("泡泡", "blue")
    new = b.amend(3, color="yellow")
    assert [e.action for e in new] == ["revert", "amend"]
    assert new[1].ref == 3 and new[1].color == "yellow"
    assert b.standing("泡泡") == (2, 1, 0)


def test_amend_clause_keeps_the_card_inside_its_conversion() -> None:
    b = Book()
    for _ in range(3):
        b.issue("泡泡", "blue")
    new = b.amend(2, clause="2-(4)")
    assert [e.action for e in new] == ["amend"]
    assert b.standing("泡泡") == (0, 1, 0)
    # revoking the corrected card still undoes the conversion
    b.revoke(new[0].id)
    assert b.standing("泡泡") == (2, 0, 0)


def test_empty_reason_and_bad_colour_are_refused() -> None:
    with pytest.raises(GameRuleError, match="理由"):
        L.issue([], player="泡泡", color="blue", clause=None, reason="  ", issuer="导演A", at=T0, ladder=LADDER)
    with pytest.raises(GameRuleError, match="牌色"):
        L.issue([], player="泡泡", color="green", clause=None, reason="x", issuer="导演A", at=T0,  # type: ignore[arg-type]
                ladder=LADDER)


def test_custom_ladder_thresholds() -> None:
    b = Book(L.Ladder(blue_to_yellow=2, yellow_to_red=2))
    b.issue("泡泡", "blue")
    b.issue("泡泡", "blue")
    b.issue("泡泡", "yellow")
    assert b.standing("泡泡") == (0, 0, 1)


# -------------------------------------------------------------------------------- consequences


def test_red_consequence_appears_once_per_player_and_is_undone_with_the_red() -> None:
    b = Book()
    b.issue("栗子", "yellow")
    b.issue("栗子", "yellow")
    before = list(b.entries)
    b.issue("栗子", "yellow")
    cons = L.consequences(before, b.entries)
    assert [(c.kind, c.player, c.card) for c in cons] == [("red_card", "栗子", 4)]
    # a second red on the same player is not a second 罚下, but it counts for the faction (213/M19
    # "同一阵营的角色累计获得两张或以上红牌时，阵营判负"), and its revocation uncounts it
    before = list(b.entries)
    b.issue("栗子", "red")
    assert [(c.kind, c.player, c.card) for c in L.consequences(before, b.entries)] == [("red_card_again", "栗子", 5)]
    before = list(b.entries)
    b.revoke(5)
    assert [(c.kind, c.card) for c in L.consequences(before, b.entries)] == [("red_card_again_undone", 5)]
    before = list(b.entries)
    b.revoke(1)
    assert [(c.kind, c.player) for c in L.consequences(before, b.entries)] == [("red_card_undone", "栗子")]


def test_the_ledger_names_reds_and_leaves_a_faction_loss_to_the_win_check() -> None:
    """Whose red is new or gone is the ledger's; a faction's loss by two reds is the one win check's
    ([[win]] ``red_cards_at_least``), so the ledger says nothing of factions."""
    b = Book()
    b.issue("泡泡", "red")
    b.issue("包子", "red")
    before = list(b.entries)
    b.issue("栗子", "red")
    assert [(c.kind, c.player) for c in L.consequences(before, b.entries)] == [("red_card", "栗子")]
    before = list(b.entries)
    b.revoke(1)
    assert [(c.kind, c.player) for c in L.consequences(before, b.entries)] == [("red_card_undone", "泡泡")]
    assert not hasattr(L.Consequence, "faction")


# ---------------------------------------------------------------------------------- hash chain


def _book() -> Book:
    b = Book()
    for p in ("泡泡", "泡泡", "泡泡", "栗子"):
        b.issue(p, "blue")
    b.revoke(2)
    return b


def test_an_untouched_chain_verifies() -> None:
    b = _book()
    v = L.verify(b.entries, b.head())
    assert v == L.Verification(True, len(b.entries), None)
    assert L.verify([], None).ok


@pytest.mark.parametrize("change", [
    {"reason": "改过的理由"}, {"color": "yellow"}, {"player": "包子"}, {"clause": "9-(9)"},
    {"at": T0 + timedelta(seconds=1)}, {"consumed": (1, 2)}, {"issuer": "别人"},
])
def test_any_field_changed_breaks_the_chain_at_that_entry(change: dict[str, object]) -> None:
    b = _book()
    target = 4 if "consumed" in change else 3
    b.entries[target - 1] = replace(b.entries[target - 1], **change)  # type: ignore[arg-type]
    v = L.verify(b.entries, b.head())
    assert not v.ok and v.broken_at == target


def test_recomputing_one_hash_still_breaks_at_the_next() -> None:
    b = _book()
    forged = replace(b.entries[1], reason="改")
    b.entries[1] = replace(forged, hash=L.entry_hash(forged.prev_hash, forged))
    v = L.verify(b.entries, b.head())
    assert not v.ok and v.broken_at == 3


def test_deletions_are_detected_in_the_middle_and_at_the_end() -> None:
    b = _book()
    head = b.head()
    middle = b.entries[:2] + b.entries[3:]
    assert L.verify(middle, head).broken_at == 3
    tail = b.entries[:-1]
    v = L.verify(tail, head)
    assert not v.ok and v.broken_at == len(b.entries)
    assert not L.verify(b.entries, None).ok


def test_timestamps_hash_the_same_in_any_zone_and_naive_utc() -> None:
    e = L.chain([L.Draft("issue", "泡泡", "blue", "x", "导演A", T0)], after=None)[0]
    naive_utc = T0.astimezone(L.UTC).replace(tzinfo=None)
    assert L.entry_hash(L.GENESIS, replace(e, at=naive_utc)) == e.hash
