"""A faction's loss by red cards is the game state's to decide (issue #11): the words a card decision
says and the 判罚公示 follow the fold, which knows a ``faction_set``, not the game file's factions.

Before, the ledger's consequences recomputed the loss from the game file and disagreed with the
state after a faction_set: the director read "阵营判负" for a faction the state had not lost.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from tracker.clock import SHANGHAI, FrozenClock
from tracker.engine.ruleset import load_ruleset
from tracker.service import Service

DAY1 = datetime(2025, 3, 1, 12, 0, tzinfo=SHANGHAI)


def _game(tmp_path: Path) -> tuple[Path, dict[str, list[str]]]:
    """A full M19 table (every role of the post), so no ordinary loss condition trips by accident."""
    rs = load_ruleset("luoluo-m19")
    lines = ['[game]\nname = "红牌局"\nruleset = "luoluo-m19"\nforum = "http://127.0.0.1:9/"\ndirectors = ["导演A"]\n']
    by_faction: dict[str, list[str]] = {}
    for r in rs.roles:
        for i in range(max(r.count, 1)):
            lines.append(f'[[players]]\nname = "{r.name}{i + 1}"\nrole = "{r.name}"\nfaction = "{r.faction}"\n')
            by_faction.setdefault(r.faction or "", []).append(f"{r.name}{i + 1}")
    lines.append("[[days]]\nday = 1\nopens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T22:00:00+08:00\n")
    path = tmp_path / "game.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, by_faction


def _red_losses(svc: Service) -> set[str]:
    return {f for f, loss in svc.log.state().lost.items() if "红牌" in loss.reason}


def test_a_faction_set_moves_the_loss_the_director_is_told(tmp_path: Path) -> None:
    path, by_faction = _game(tmp_path)
    big, small = sorted(by_faction, key=lambda f: -len(by_faction[f]))[:2]
    a, b = by_faction[big][:2]
    c = by_faction[small][0]
    svc = Service.open(path, clock=FrozenClock(DAY1))
    try:
        svc.log.record_event("faction_set", b, {"faction": small})
        assert not any("阵营判负" in w for w in svc.cards.issue_card(a, "red", None, "攻击").events)
        # the game file puts a and b in one faction (two reds); the state has moved b: one red each
        assert not any("阵营判负" in w for w in svc.cards.issue_card(b, "red", None, "攻击").events)
        assert not _red_losses(svc)
        third = svc.cards.issue_card(c, "red", None, "攻击")
        assert f"{small}阵营累计 2 张红牌：阵营判负" in third.events
        assert _red_losses(svc) == {small}
        announced = svc.cards.cards_announcement(1)
        assert f"{small}阵营累计获得两张或以上" in announced and f"{big}阵营累计获得两张或以上" not in announced
        undone = svc.cards.revoke_card(third.entry.id, "误判")
        assert f"{small}阵营红牌减为 1 张：撤销阵营判负" in undone.events
        assert not _red_losses(svc)
    finally:
        svc.close()
