"""Whether the 公示 may state the night's outcome: only when the night is recorded.

"第2日夜晚出局：平安夜" printed because nothing was recorded would announce a peaceful night the
director never settled. The night is known when the night desk confirmed its settlement
(``night_settled`` for ``night:N``, the desk's record) or a night 出局 was recorded by hand;
otherwise the line says （导演补充） as the 遗言 line does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.engine.night.desk import phase_key, settled_event


def night_known(events: Sequence[Any], night: int, has_night_out: bool) -> bool:
    if night < 1:
        return True
    return has_night_out or settled_event(list(events), phase_key(night=night)) is not None
