"""The time zone every time on the screen is shown in: the game's (``[game] timezone``).

The screens format times in many small places (a post's time, a card's, a day's close); the app
sets the game's zone once when it starts, and they all read it here rather than assuming Shanghai.
"""

from __future__ import annotations

from datetime import tzinfo

from tracker.clock import SHANGHAI

_zone: list[tzinfo] = [SHANGHAI]


def zone() -> tzinfo:
    """The game's zone (Asia/Shanghai until the app has set it)."""
    return _zone[0]


def set_zone(tz: tzinfo) -> None:
    _zone[0] = tz
