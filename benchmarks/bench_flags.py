"""Flag a generated 30,000-post game, start-up included: target under 5 s.

The measured run is a fresh interpreter (python -X importtime is not needed: we time the whole
child process from the parent), so imports, lexicon compilation, jieba's dictionary and the pinyin
table all count. Generating the posts is timed separately inside the child and subtracted.

    .venv/bin/python benchmarks/bench_flags.py [--posts 30000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = r"""
import json, random, sys, time
t0 = time.perf_counter()
from datetime import datetime, timedelta
from tracker.clock import SHANGHAI
from tracker.records import Post
from tracker.penalties.detect import DetectContext, detect_posts
from tracker.penalties.presence import StatusChange
t_import = time.perf_counter() - t0

N = int(sys.argv[1])
rng = random.Random(7)
players = ["泡泡", "花千树", "饺子", "包子", "栗子", "碎碎", "取酒", "阿狸", "小白", "老王", "青铃", "银鸦",
           "风行", "劫火", "曹操", "刘备", "孙权", "关羽", "张飞", "赵云", "诸葛亮", "司马懿", "周瑜", "吕布"]
normal = ["大家别急着站边，多听几轮再说。", "今天先这样，明天继续。", "{a} 的发言有点像背稿子。",
          "我觉得今天出 {a} 比较稳。", "有没有人注意到 {a} 一直在跟 {b} 的票？", "刚上线，爬楼中。",
          "我认为 {a} 是狼，理由如下：票型、发言、站边都有问题，昨天的投票也对不上，请解释一下。",
          "早上好各位 :) 今天继续 :lol", "同意 {a}，先把警徽给稳一点的人。", "我站 {a}，理由前面已经说过了。",
          "昨天去广场助威跳舞了，今天才来爬楼", "我觉得这局应该由警长来主导演说顺序。", "马上一场大戏就要开演了",
          "我用这个思路代替补充说明一下：票型比发言更可靠。", "他在场上助攻了好几次，我觉得是好人。"]
bad = ["我发誓我是好人", "卧槽，这发言也太离谱了吧", "导演说今天关门之前必须投票", "我场助比较信他",
       "你忘了上一场女巫黑情侣了？", "一定要选他当MVP", "你们要出我不如我淹死好了", "行吧，我准备好背锅了。",
       "你这个撒币", "nmb 别装了", "取酒 21:15:03 反馈：村民阵营"]
start = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
posts = []
for i in range(N):
    a, b = rng.sample(players, 2)
    author = rng.choice(players)
    r = rng.random()
    text = (rng.choice(bad) if r < 0.03 else rng.choice(normal)).format(a=a, b=b)
    html = text
    if r > 0.99:
        html = f'<font color="#EE0000">{text}</font>'
    elif r > 0.98:
        html = f'<font size="5">{text}</font>'
    elif r > 0.90:
        html = (f'<div class="quote"><blockquote><font size="2"><font color="#999999">{a} 发表于 2025-3-1 15:10'
                f'</font></font><br />卧槽</blockquote></div><br />{text}')
    day = i * 10 // N
    posts.append(Post(pid=i + 1, tid=100 + day, floor=i % 3000 + 1, author=author, uid=None,
                      posted_at=start + timedelta(seconds=i * 30), html=html, text=text))
timeline = [StatusChange("吕布", "out", start + timedelta(days=2)), StatusChange("周瑜", "benched", start + timedelta(days=4))]
ctx = DetectContext(players=players, directors=["导演A"], threads={100 + d: "discussion" for d in range(10)},
                    timeline=timeline)
t_gen = time.perf_counter() - t0 - t_import
t1 = time.perf_counter()
found = detect_posts(posts, context=ctx)
t_detect = time.perf_counter() - t1
kinds = {}
for f in found:
    kinds[f.label] = kinds.get(f.label, 0) + 1
print(json.dumps({"import": t_import, "generate": t_gen, "detect": t_detect, "findings": len(found), "kinds": kinds}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=30_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    totals, flagging, details = [], [], []
    for _ in range(args.runs):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.posts)], capture_output=True, text=True,
                             check=True)
        wall = time.perf_counter() - t
        d = json.loads(out.stdout.strip().splitlines()[-1])
        totals.append(wall)
        flagging.append(wall - d["generate"])
        details.append(d)
    med = statistics.median(flagging)
    d = details[flagging.index(med)] if med in flagging else details[0]
    print(f"posts: {args.posts}, runs: {args.runs}")
    print(f"flagging incl. interpreter start-up and imports (median): {med:.2f} s "
          f"(min {min(flagging):.2f}, max {max(flagging):.2f}); target < 5 s")
    print(f"  of which imports {d['import']:.2f} s, detect_posts {d['detect']:.2f} s "
          f"({args.posts / d['detect']:,.0f} posts/s incl. lexicon build + jieba load); "
          f"generating the posts {d['generate']:.2f} s (excluded)")
    print(f"  findings: {d['findings']} {json.dumps(d['kinds'], ensure_ascii=False, sort_keys=True)}")


if __name__ == "__main__":
    main()
