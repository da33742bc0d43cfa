"""Which of a game's skills the generic engine settles from data, and which its hooks settle, and why.

The README's game × skill table is this count (``tests/test_night_coverage.py`` holds the two
equal). A skill is settled from data when the generic engine applies its ``effects`` at a step of
the night file (or on its holder's exit, ``trigger``), or a ``tell`` step tells its holders what it
says (213 <灵通>, 107 <虔诚>'s count: 强制 skills nobody submits), or the day's tally settles it from the
ruleset's ``[voting]`` key its ``tally`` names (带队: ``weights``; :func:`.catalog.check_tally` holds that
key set where the night meets its ruleset), or its holders are immune to some skill's effects
(``immune_to``: 107 神眷者·神恩, which the engine and a hook settling that skill both ask), or its holders
react to skills cast on them (``reacts``: M65 净化之焰, 辐射炫惑, :mod:`.react`, asked the same way) — a standing
``extra`` effect (107 集群: ``while_alive``) is among its ``effects``, counted wherever the engine counts uses — or do not go out
on some days (``spares``: M65 天罡护体, which every exit asks, :meth:`.board.Board.kill`), or no protection
stops some skill's damage on its holders (``unprotected_from``: M19 弱受, asked by the ``resolve`` step and by a
hook settling that skill), or hear of other players' exits and flips (``hears``: 107 灵魂链接,
:meth:`.board.Board.hear`), or keep their earlier identities' team skills on becoming its role (``keeps_team``:
107 伪装, :func:`.flips.kept_team`, asked by every flip and ``new_uses`` convert), or know a team's players and share
its group (``joins_team``: 107 统御, :mod:`.joins`, asked by every submission of a team skill and every new identity), or names the player a ``redirect`` puts in (its ``substitute``: 107 诡辩替代, read
by :func:`.tonight.targets`), or states a rule of the deal every settlement checks first (``never_believed_by``: M160
觉醒 "你不可能是恶魔", :func:`.checks.misdealt`), or leave no 遗言 when out (``no_last_words``: M19 难言, which a
game's 公示 asks of :func:`.words.silenced`), or may leave 遗言 however they go out (``last_words``: 213 绝笔, which
the game's exit asks of :func:`.words.last_words` after its own exceptions), or share one victim of a skill a phase
(``shares_victim``: M160 镜像, which that skill's ``one_victim`` asks, :mod:`.victims`), and no hook
is asked for it; a game's hooks
(``GameHooks.steps``) settle in code the skills their steps list and those ``hooked`` names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.night.catalog import Catalog
from tracker.engine.night.games import GameHooks


@dataclass(frozen=True, slots=True)
class Coverage:
    """One game's count: the skills data settles, the skills a hook settles with its reason, and
    the skills neither settles (a skill with no ``effects`` that no hook declares: an error).
    ``tallied``: those of ``by_data`` the day's tally settles, with the reason (the ``[voting]`` key)."""

    ruleset: str
    by_data: tuple[str, ...]
    by_hook: dict[str, str]
    unsettled: tuple[str, ...]
    tallied: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.by_data) + len(self.by_hook) + len(self.unsettled)


def coverage(catalog: Catalog, hooks: GameHooks | None) -> Coverage:
    by_hook: dict[str, str] = {}
    if hooks is not None:
        for step in catalog.steps:
            if step.hook is not None:
                for name in step.skills:
                    by_hook.setdefault(name, hooks.hooked.get(name) or hooks.why.get(step.hook, ""))
        for name, why in hooks.hooked.items():
            by_hook.setdefault(name, why)
    told = {st.tell.to for st in catalog.steps if st.tell is not None and st.hook is None}
    tallied = {n: f"白天的计票结算（[voting] {s.tally}）" for n, s in catalog.skills.items()
               if n not in by_hook and s.tally is not None}
    answers = {e.substitute for s in catalog.skills.values() for e in s.effects if e.kind == "redirect"}
    data = tuple(n for n, s in catalog.skills.items()
                 if n not in by_hook and (s.effects or s.immune_to or s.unprotected_from or s.reacts or s.spares or s.hears
                                          or s.keeps_team or s.joins_team or s.last_words
                                          or s.never_believed_by or s.no_last_words or s.shares_victim
                                          or n in told or n in tallied or n in answers))
    left = tuple(n for n in catalog.skills if n not in by_hook and n not in data)
    return Coverage(catalog.ruleset, data, by_hook, left, tallied)
