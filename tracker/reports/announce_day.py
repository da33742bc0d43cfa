"""The day's opening announcement (公示) skeleton, ready to paste as BBCode.

Every rule post opens a day by announcing the previous day's and night's 出局 lists, the day's
title holders (警长/牧首/神眷者) and anything else the process needs (acceleration). The order of
an 出局 list is the rule post's: settlement order (107), elevator order (213), the order they went
out (M65). The director fills in last words and the morning story; the tool fills in the facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tracker.reports.bbcode import bbcode_text

OutOrder = Literal["settlement", "elevator", "chronological"]


@dataclass(frozen=True, slots=True)
class OutEntry:
    name: str
    phase: Literal["day", "night"]
    seq: int                 # the event's place in the log (settlement / chronological order)


def order_out(entries: Sequence[OutEntry], *, order: OutOrder, elevator: Sequence[str] = ()) -> list[OutEntry]:
    if order == "elevator" and elevator:
        rank = {name: i for i, name in enumerate(elevator)}
        return sorted(entries, key=lambda e: (rank.get(e.name, len(rank)), e.seq))
    return sorted(entries, key=lambda e: e.seq)


def announce_day_bbcode(*, day: int, out: Sequence[OutEntry], order: OutOrder, elevator: Sequence[str] = (),
                        titles: Sequence[tuple[str, str]] = (), accelerated: bool = False,
                        living: int | None = None, night_known: bool = True) -> str:
    """``night_known`` False: no night is recorded (no settlement confirmed at the night desk, no
    night 出局 recorded), so the night line is the director's to fill in — never a 平安夜 the
    tool made up."""
    ordered = order_out(out, order=order, elevator=elevator)
    day_out = [bbcode_text(e.name) for e in ordered if e.phase == "day"]
    night_out = [bbcode_text(e.name) for e in ordered if e.phase == "night"]
    lines = [f"[b]第{day}日 公示[/b]", ""]
    if day > 1:
        lines.append(f"第{day - 1}日白天出局：{'、'.join(day_out) if day_out else '无'}")
        night = "、".join(night_out) if night_out else ("平安夜" if night_known else "（导演补充）")
        lines.append(f"第{day - 1}日夜晚出局：{night}")
    for title, holder in titles:
        lines.append(f"当日{bbcode_text(title)}：{bbcode_text(holder) if holder else '无'}")
    if living is not None:
        lines.append(f"存活人数：{living}")
    if accelerated:
        lines.append("[color=#FF0000]本日已加速。[/color]")
    lines += ["", "遗言：（导演补充）", ""]
    return "\n".join(lines)
