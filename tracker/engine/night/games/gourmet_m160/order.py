"""The post's two settlement orders ("游戏流程（行动顺序分前后）"), as the generic engine walks them.

The post numbers its flow 0–4 (1 = 首夜, 4 = 其他夜) and lists each night's actions one per line
without numbers; the night file's ``[[steps]]`` hold both lists (``nights = "first"`` / ``"later"``),
each step's ``n`` the flow number and the line's ("4.5" = flow step 4, fifth line: 药师【药剂】). Two
lines name no skill: the votes' deaths (``hook = "投票结算"``, this package's) and the second 护士长【诊断】
line, the 晨曦 feedback (``feedback = "诊断"``, the generic engine's).
"""

from __future__ import annotations

from tracker.engine.night.catalog import Catalog

#: The step the vote line of the other nights stands for (it names no skill).
VOTES = "投票结算"


def steps(catalog: Catalog, night: int | None) -> list[tuple[str, str]]:
    """(step number, skill or hook name) for each line of this night's order: ('4.5', '药剂')."""
    return [(s.n, s.skills[0] if s.skills else (s.hook or "")) for s in catalog.steps if s.runs(night, "night")]
