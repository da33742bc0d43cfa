"""A whole 3,000-ballot day: parse every post, then tally it under a real ruleset (target < 100 ms).

Run: ``.venv/bin/python benchmarks/bench_tally.py``. Prints the median of several runs for the
tally alone and for parse + tally, on a synthetic day of 24 players who vote, change (quoting their
floor or not), typo names, abstain, post late and comment, in the proportions of a busy vote thread.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import datetime, timedelta

from tracker.clock import SHANGHAI
from tracker.engine.ballots import Ballot, parse_ballot
from tracker.engine.ruleset import load_ruleset
from tracker.engine.tally import PlayerView, Roster, VoteWindow, rules_for_vote, tally
from tracker.records import Post, Quote

PLAYERS = [f"玩家{i:02d}" for i in range(24)]
OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 2, 22, 0, tzinfo=SHANGHAI)


def day_posts(n: int, seed: int = 1) -> list[Post]:
    rnd = random.Random(seed)
    span = (CLOSES - OPENS).total_seconds()
    own: dict[str, int] = {}
    posts = []
    for i in range(n):
        author = rnd.choice(PLAYERS)
        at = OPENS + timedelta(seconds=span * i / n + rnd.random())
        target = rnd.choice([*PLAYERS, "弃权", "玩家1", "玩 家03"])
        roll = rnd.random()
        quotes: tuple[Quote, ...] = ()
        if roll < 0.5 or author not in own:
            text = f"投票对象：{target}\n投票理由：第{i}条理由"
        elif roll < 0.85:
            text = f"改票对象：{target} 改票理由：改主意了"
            if rnd.random() < 0.8:
                quotes = (Quote(pid=own[author], author=author, posted_at=None, text="投票对象：…"),)
        elif roll < 0.95:
            text = f"我投{target}，理由是他最可疑"
        else:
            text = "同意楼上"
        pid = 1000 + i
        own.setdefault(author, pid)
        posts.append(Post(pid=pid, tid=6, floor=i + 2, author=author, uid=None, posted_at=at, html="",
                          text=text, quotes=quotes))
    return posts


def main() -> None:
    for ruleset_id in ("luoluo-m19", "gourmet-m160"):
        bench(ruleset_id)


def bench(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    rules = rules_for_vote(ruleset.voting)
    roster = Roster(players=tuple(PlayerView(p, tags=frozenset({"警长"}) if p == "玩家00" else frozenset())
                                  for p in PLAYERS))
    window = VoteWindow(day=2, opens=OPENS, closes=CLOSES)
    posts = day_posts(3000)

    def parse_all() -> list[Ballot]:
        return [b for p in posts if (b := parse_ballot(p, directors=("导演A",), names=PLAYERS)) is not None]

    ballots = parse_all()
    runs_tally, runs_all = [], []
    for _ in range(15):
        t0 = time.perf_counter()
        tally(ballots, rules=rules, roster=roster, window=window)
        t1 = time.perf_counter()
        tally(parse_all(), rules=rules, roster=roster, window=window)
        t2 = time.perf_counter()
        runs_tally.append((t1 - t0) * 1000)
        runs_all.append((t2 - t1) * 1000)
    result = tally(ballots, rules=rules, roster=roster, window=window)
    print(f"{ruleset_id}: posts {len(posts)}, ballots {len(ballots)}, valid {sum(b.valid for b in result.ballots)}")
    print(f"tally alone:    median {statistics.median(runs_tally):.1f} ms (min {min(runs_tally):.1f})")
    print(f"parse + tally:  median {statistics.median(runs_all):.1f} ms (min {min(runs_all):.1f})")


if __name__ == "__main__":
    main()
