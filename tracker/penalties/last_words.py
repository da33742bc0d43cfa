"""遗言: which posts of a player out are the 遗言 their ruleset allows, not 诈尸.

werewolf-12 三、1 "死者如有遗言可在讨论帖发一帖遗言（第1夜死者有遗言，之后夜晚死亡无遗言；白天被放逐者有
遗言）", 三、6 a red card's 出局 "有遗言", 六、4 "开枪带走的人立即出局，无遗言". The ruleset's ``[last_words]``
says which exits give one (by the exit's kind and night), how many posts and in which thread. The five
seed posts have 遗言 sent to the director and published by them, write no ``[last_words]``, and every
post of a player out stays 诈尸.

The one answer to "is this post a 遗言": the 诈尸 check skips these posts; the 潜水 count never sees
them, because a player out is not judged at all (werewolf-12 "遗言帖不算"), and a 遗言 is by this
definition a post made after the exit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tracker.engine.events import Payload, given
from tracker.engine.ruleset import LastWordsRules
from tracker.penalties.presence import StatusChange, ThreadKind, by_player, in_force
from tracker.records import Post

_RED = frozenset({"red_card", "card"})


def exit_of(kind: str, data: Mapping[str, Any]) -> tuple[str, int | None]:
    """The exit an 出局 event records, in ``[last_words]``'s words, with its night where known.

    ``card_consequence`` (the ledger's red card) or cause ``red_card``: ``red_card``; cause ``vote``
    (``tracker confirm``): ``vote``; a death settled in the night phase ``night:N`` (the night desk,
    its cause the skill's name) or recorded with cause ``night`` (and ``night = N``): ``night``;
    anything else (开枪 by day, 殉情 …): ``skill``.
    """
    d = Payload.of(data)
    cause = str(given(d.cause, ""))
    if kind == "card_consequence" or cause in _RED:
        return "red_card", None
    if cause == "vote":
        return "vote", None
    phase = str(given(d.phase, ""))
    if cause == "night" or phase.startswith("night:"):
        number = d.night
        if number is None and phase.startswith("night:"):
            number = phase.split(":")[1].split("#")[0]
        try:
            return "night", int(number) if number is not None else None
        except (TypeError, ValueError):
            return "night", None
    return "skill", None


def last_words_posts(posts: Iterable[Post], timeline: Iterable[StatusChange], threads: Mapping[int, ThreadKind],
                     rules: LastWordsRules) -> frozenset[int]:
    """The pids of posts that are a player's allowed 遗言: made while out, after an exit that gives one,
    in the ruleset's thread, the first ``posts`` of them (per exit: a player back and out again has
    another). Posts elsewhere neither count as 遗言 nor spend it."""
    if not rules.exits:
        return frozenset()
    changes = by_player(timeline)
    spent: dict[tuple[str, object], int] = {}
    found: set[int] = set()
    for post in sorted(posts, key=lambda p: (p.posted_at, p.pid)):
        if post.author not in changes or threads.get(post.tid) != rules.thread:
            continue
        ch = in_force(changes[post.author], post.posted_at)
        if ch is None or ch.status != "out" or not rules.gives(ch.exit, ch.night, ch.cause):
            continue
        key = (post.author, ch.at)
        if spent.get(key, 0) < rules.posts:
            spent[key] = spent.get(key, 0) + 1
            found.add(post.pid)
    return frozenset(found)
