"""Night and day-skill settlement: from submitted actions to deaths, feedback and the 公示.

Data flows one way: a :class:`~tracker.engine.night.model.Table` (the state when the phase
begins) and the submitted :class:`~tracker.engine.night.model.Action`\\ s go in; the generic
refusals of :mod:`.checks` (read from the ruleset's skill data, :mod:`.catalog`) run first; then
the game's hooks (:mod:`.games`) walk its post's settlement order over a :class:`.board.Board`, or,
for a game without hooks, the generic engine (:mod:`.flow`) walks the night file's ``[[steps]]``
with the skills' effects (:mod:`.effects`); a :class:`~tracker.engine.night.model.Settlement` comes
out. Pure: no store, no network.
"""

from tracker.engine.night.catalog import Catalog, Skill, load_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.night.settle import settle, settle_setup

__all__ = ["Action", "Catalog", "Seat", "Settlement", "Skill", "Table", "load_catalog", "settle", "settle_setup"]
