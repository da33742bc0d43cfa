"""The day's opening announcement (公示) skeleton, ready to paste as BBCode.

Every rule post opens a day by announcing the previous day's and night's 出局 lists, the day's
title holders (警长/牧首/神眷者) and anything else the process needs (acceleration). The order of
an 出局 list is the rule post's: settlement order (107), elevator order (213), the order they went
out (M65). The director fills in last words and the morning story; the tool fills in the facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tracker.reports.bbcode import bbcode_text

OutOrder = Literal["settlement", "elevator", "chronological"]


@dataclass(frozen=True, slots=True)
class OutEntry:
    name: str
    phase: Literal["day", "night"]
    seq: int                 # the event's place in the log (settlement / chronological order)
    kind: Literal["out", "dead"] = "out"   # M160: 【死亡】 (still votes once) or 【出局】


def announced_changes(before: Any, now: Any) -> list[tuple[str, Literal["out", "dead"]]]:
    """Who left between two game states, as the 公示 names them: 出局, or (M160) 【死亡】 — a player
    who died and is not yet out is announced too, where a 出局-only list would call the night 平安夜."""
    out: list[tuple[str, Literal["out", "dead"]]] = []
    for name, p in now.players.items():
        was = before.players[name]
        if p.status == "out" and was.status != "out":
            out.append((name, "out"))
        elif p.life == "dead" and was.life == "alive":
            out.append((name, "dead"))
    return out


def order_out(entries: Sequence[OutEntry], *, order: OutOrder, elevator: Sequence[str] = ()) -> list[OutEntry]:
    if order == "elevator" and elevator:
        rank = {name: i for i, name in enumerate(elevator)}
        return sorted(entries, key=lambda e: (rank.get(e.name, len(rank)), e.seq))
    return sorted(entries, key=lambda e: e.seq)


def announce_day_bbcode(*, day: int, out: Sequence[OutEntry], order: OutOrder, elevator: Sequence[str] = (),
                        titles: Sequence[tuple[str, str]] = (), accelerated: bool = False,
                        living: int | None = None, night_known: bool = True, dead_lists: bool = False,
                        last_words: bool = True) -> str:
    """``night_known`` False: no night is recorded (no settlement confirmed at the night desk, no
    night 出局 recorded), so the night line is the director's to fill in — never a 平安夜 the
    tool made up. ``dead_lists`` (M160): "公示前一天白天【死亡】及被【处决】的角色名单、失去最后一票的【出局】角色名单、
    夜晚【死亡】角色名单"; ``last_words`` False: "本局游戏没有遗言", no 遗言 line."""
    ordered = order_out(out, order=order, elevator=elevator)
    lines = [f"[b]第{day}日 公示[/b]", ""]
    if day > 1 and dead_lists:
        day_dead = [bbcode_text(e.name) for e in ordered if e.phase == "day" and e.kind == "dead"]
        last_vote = [bbcode_text(e.name) for e in ordered if e.kind == "out"]
        night_dead = [bbcode_text(e.name) for e in ordered if e.phase == "night" and e.kind == "dead"]
        lines.append(f"第{day - 1}日白天【死亡】：{'、'.join(day_dead) if day_dead else '无'}")
        lines.append(f"失去最后一票【出局】：{'、'.join(last_vote) if last_vote else '无'}")
        night = "、".join(night_dead) if night_dead else ("平安夜" if night_known else "（导演补充）")
        lines.append(f"第{day - 1}日夜晚【死亡】：{night}")
    elif day > 1:
        day_out = [bbcode_text(e.name) for e in ordered if e.phase == "day"]
        night_out = [bbcode_text(e.name) for e in ordered if e.phase == "night"]
        lines.append(f"第{day - 1}日白天出局：{'、'.join(day_out) if day_out else '无'}")
        night = "、".join(night_out) if night_out else ("平安夜" if night_known else "（导演补充）")
        lines.append(f"第{day - 1}日夜晚出局：{night}")
    for title, holder in titles:
        lines.append(f"当日{bbcode_text(title)}：{bbcode_text(holder) if holder else '无'}")
    if living is not None:
        lines.append(f"存活人数：{living}")
    if accelerated:
        lines.append("[color=#FF0000]本日已加速。[/color]")
    lines += ["", "遗言：（导演补充）", ""] if last_words else [""]
    return "\n".join(lines)
