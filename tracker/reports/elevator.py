"""The 电梯楼 (second floor of each discussion thread): links to every player's posts of the day.

107/M160/M19 link each player's ID to Discuz's 只看该作者 view of the thread (``authorid=``), in a
random order where the rule post says so (107, M160: 电梯楼角色顺序随机); 213 lists a link to each
post. The random order is seeded by the thread, so regenerating the floor gives the same order
(a director who re-posts or edits it must not reshuffle the players).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tracker.reports.bbcode import bbcode_text

ElevatorStyle = Literal["author", "posts"]


@dataclass(frozen=True, slots=True)
class ElevatorEntry:
    name: str
    uid: int | None
    pids: tuple[int, ...] = ()


def author_link(forum: str, tid: int, uid: int) -> str:
    return f"{forum}forum.php?mod=viewthread&tid={tid}&page=1&authorid={uid}"


def post_link(forum: str, tid: int, pid: int) -> str:
    return f"{forum}forum.php?mod=redirect&goto=findpost&ptid={tid}&pid={pid}"


def elevator_order(entries: Sequence[ElevatorEntry], *, shuffle: bool, tid: int) -> list[ElevatorEntry]:
    ordered = list(entries)
    if shuffle:
        random.Random(f"elevator:{tid}").shuffle(ordered)
    return ordered


def elevator_bbcode(*, forum: str, tid: int, day: int, entries: Sequence[ElevatorEntry], style: ElevatorStyle,
                    shuffle: bool) -> str:
    lines = [f"[b]第{day}日 电梯楼[/b]", "点击角色ID可只看该角色当天的全部发言。" if style == "author"
             else "以下为每名角色当天每一帖的链接。", ""]
    for e in elevator_order(entries, shuffle=shuffle, tid=tid):
        if style == "author":
            lines.append(f"[url={author_link(forum, tid, e.uid)}]{bbcode_text(e.name)}[/url]" if e.uid is not None
                         else f"{bbcode_text(e.name)}（未知 uid，请手动补链接）")
        else:
            links = " ".join(f"[url={post_link(forum, tid, pid)}]{i}[/url]" for i, pid in enumerate(e.pids, 1))
            lines.append(f"{bbcode_text(e.name)}：{links or '（无发言）'}")
    return "\n".join(lines) + "\n"
