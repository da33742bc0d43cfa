"""`tracker flags` re-run cost: a store of N posts scanned once, then re-run unchanged, then with a few edits.

The detection watermark (flag_scan: pid → the content/HTML key scanned, under a context key) means
an unchanged store scans nothing: the re-run is one light query over identity columns. Prints the
posts scanned and the wall time of each run, medians over --runs.

    .venv/bin/python benchmarks/bench_flags_rerun.py [--posts 20000] [--edits 50] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tracker.clock import SHANGHAI
from tracker.records import Post
from tracker.service import Service
from tracker.store.posts import upsert_posts

GAME = """
[game]
name = "基准局"
ruleset = "luoluo-m19"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]
{players}
[[days]]
day = 1
discussion = 4
vote = 5
opens = 2025-03-01T10:00:00+08:00
closes = 2025-03-02T22:00:00+08:00
"""
PLAYERS = ["泡泡", "花千树", "饺子", "包子", "栗子", "碎碎", "取酒", "阿狸", "小白", "老王", "青铃", "银鸦", "风行", "劫火"]
LINES = ["我觉得{p}的发言有问题", "昨天的票型很奇怪，{p}跟票太快", "我发誓我是好人", "卧槽这也太离谱",
         "先听听{p}怎么说", "导演说今天早点关门", "取酒 21:15:03 反馈：村民阵营", "今天天气不错，聊聊吧"]
OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)


def posts(n: int, rng: random.Random, edit: int = 0) -> list[Post]:
    out = []
    for i in range(n):
        author = PLAYERS[i % len(PLAYERS)]
        text = rng.choice(LINES).format(p=rng.choice(PLAYERS))
        html = f'<font color="#FF0000">{text}</font>' if i % 97 == 0 else text
        if edit and i < edit:
            text, html = text + "（已编辑）", html + "（已编辑）"
        out.append(Post(pid=1000 + i, tid=4, floor=i + 2, author=author, uid=None,
                        posted_at=OPENS + timedelta(seconds=5 * i), html=html, text=text))
    return out


def once(n: int, edits: int) -> tuple[tuple[int, float], tuple[int, float], tuple[int, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game.toml"
        game.write_text(GAME.format(players="".join(f'[[players]]\nname = "{p}"\n' for p in PLAYERS)),
                        encoding="utf-8")
        svc = Service.open(game)
        try:
            with svc.store.session() as s:
                upsert_posts(s, posts(n, random.Random(1)), seen_at=OPENS)
            out = []
            for step in ("first", "unchanged", "edited"):
                if step == "edited":
                    with svc.store.session() as s:
                        upsert_posts(s, posts(n, random.Random(1), edit=edits)[:edits], seen_at=OPENS)
                t = time.perf_counter()
                run = svc.flag_review.detect_flags()
                out.append((run.scanned, time.perf_counter() - t))
            return out[0], out[1], out[2]
        finally:
            svc.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=20000)
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    results = [once(a.posts, a.edits) for _ in range(a.runs)]
    for i, name in enumerate(("first run", "re-run, unchanged", f"re-run, {a.edits} edited")):
        scanned = results[0][i][0]
        secs = statistics.median(r[i][1] for r in results)
        print(f"{name:<22} scanned {scanned:>6} posts  {secs * 1000:9.1f} ms (median of {a.runs})")


if __name__ == "__main__":
    main()
