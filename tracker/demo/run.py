"""`tracker demo`: the whole job on the bundled demo game, offline, in a few seconds.

A loopback server replays real Discuz! X3.5 pages (package data, so a plain install has them);
a temporary game file points at it; then the same service the director uses crawls, tallies and
confirms both days, settles each day's night from the submitted actions (data/nights.toml, through
the night desk, confirmed), detects flags, counts lurkers and writes the reports. The summary is what a
newcomer should see working; the TUI opens on the same service unless ``--no-tui``.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.demo.server import ReplayForum
from tracker.penalties.findings import KIND_WORDS

if TYPE_CHECKING:
    from tracker.service.votes import DayTally

DEMO_DATA = files("tracker.demo") / "data"


def demo_data(game: str | None = None) -> Traversable:
    """The folder of a demo game's files: the seed demo's, or ``game``'s (one of :data:`DEMO_GAMES`)."""
    return DEMO_DATA if game is None else DEMO_DATA / game


@dataclass
class DemoRun:
    workdir: Path
    game_path: Path
    forum: ReplayForum
    summary: dict[str, Any] = field(default_factory=dict)
    game: str | None = None  # one of DEMO_GAMES; None: the seed demo


def prepare(workdir: Path, forum_url: str, data: Traversable = DEMO_DATA) -> Path:
    """Write the demo game file, pointed at the replay server, into ``workdir``."""
    text = (data / "game.toml").read_text(encoding="utf-8")
    text = text.replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum_url}"')
    game_path = workdir / "demo.toml"
    game_path.write_text(text, encoding="utf-8")
    return game_path


def run_job(game_path: Path, *, progress: Any = None, data: Traversable = DEMO_DATA) -> dict[str, Any]:
    """Crawl, tally and confirm each day then settle its night, detect, count lurkers, write reports:
    the director's job in the game's order (M19: day 1 → night 1 → day 2 → night 2; where the
    ruleset's night comes first, werewolf-12 "第1夜（首夜）→ 第1天", night N is settled before day N)."""
    from tracker.demo.nights import load_nights, night_summary, play_night
    from tracker.engine.night.catalog import catalog_of
    from tracker.service import Service

    started = time.perf_counter()
    svc = Service.open(game_path)
    try:
        crawl = svc.crawling.crawl(progress=progress)
        days: list[dict[str, Any]] = []
        nights: list[dict[str, Any]] = []
        nights_file = data / "nights.toml"
        scripted = load_nights(nights_file)
        first = catalog_of(svc.ruleset).night_precedes_day
        for d in svc.game.days:
            if first and d.day in scripted:  # the night before the day: its deaths do not vote
                nights.append(night_summary(play_night(svc, d.day, nights_file)))
            tallies = svc.votes.tally_day(d.day)
            confirmed = svc.votes.confirm_day(d.day, recorded_by="演示")
            lurk = svc.lurking.lurkers(d.day)
            days.append({
                "day": d.day,
                "votes": [vote_summary(t) for t in tallies],
                "confirmed": [c.explanation for c in confirmed],
                "lurkers": [{"player": p.player, "rule": p.rule, "words": p.words, "clause": p.clause}
                            for p in lurk.penalties],
                "posts": dict(lurk.posts),
            })
            if not first and d.day in scripted:  # night N follows day N in M19 (总体流程: 讨论日 → 夜晚)
                nights.append(night_summary(play_night(svc, d.day, nights_file)))
        flags = svc.flag_review.flags(detect=True)
        reports = [str(p) for d in svc.game.days for p in svc.reports.write_reports(d.day, final=True)]
        state = svc.summary()
        order = {"nights_first": True} if first else {}  # the seed demo's summary stays as it was
        return {
            "game": svc.game.name, "ruleset": svc.ruleset.id, "forum": svc.game.forum,
            "database": svc.store.url, "crawl": crawl.to_json(), "days": days,
            "nights": nights,
            "flags": {"open": sum(1 for f in flags if f.status == "open"),
                      "by_kind": dict(Counter(f.kind for f in flags))},
            "outcome": state.state.outcome.to_json() if state.state.outcome else None,
            "reports": reports, **order, "seconds": round(time.perf_counter() - started, 2),
        }
    finally:
        svc.close()


def start(workdir: Path | None = None, game: str | None = None) -> DemoRun:
    """Start the replay server and write the game file; the caller stops ``run.forum``."""
    root = Path(tempfile.mkdtemp(prefix="tracker-demo-")) if workdir is None else workdir
    root.mkdir(parents=True, exist_ok=True)
    data = demo_data(game)
    if (data / "forum.toml").is_file():  # a generated forum (werewolf-12): written beside the game file
        from tracker.demo.forum_pages import write_pages

        forum = ReplayForum(write_pages(data, DEMO_DATA / "pages", root / "forum"))
    else:
        with as_file(data / "pages") as pages:
            forum = ReplayForum(pages)
    url = forum.start()
    return DemoRun(workdir=root, game_path=prepare(root, url, data), forum=forum, game=game)


def again(run: DemoRun) -> str:
    """The command that replays this demo's forum again."""
    flag = f" --game {run.game}" if run.game else ""
    return f"tracker demo{flag} --dir {run.workdir}"


REPLAY_NOTE = ("# 回放服务器随 `tracker demo` 退出而停止：离线命令（tally、state、cards、lurkers、report、tui）照常可用；\n"
               "# 要再抓取，运行 `{again}` 重新回放（会重写本文件）。\n")


def finish(run: DemoRun) -> None:
    """After the replay server stopped: the game file no longer names its dead port (a crawl there
    would be refused); it names the captures' own address and says how to replay."""
    import re

    text = run.game_path.read_text(encoding="utf-8")
    new, n = re.subn(r'(?m)^forum = "http://127\.0\.0\.1:\d+/"$', 'forum = "http://127.0.0.1:8080/"', text)
    if n and "回放服务器随" not in new:
        run.game_path.write_text(REPLAY_NOTE.format(again=again(run)) + new, encoding="utf-8")


def vote_summary(dt: DayTally) -> dict[str, Any]:
    """One vote thread in the demo's summary, from the count itself."""
    from tracker.engine.tally import number

    t = dt.tally
    return {"tid": dt.tid, "purpose": dt.purpose, "public_totals": {k: number(v) for k, v in t.public_totals.items()},
            "totals": {k: number(v) for k, v in t.totals.items()}, "outcome": t.outcome.message,
            "invalid": sum(1 for cb in t.ballots if not cb.valid), "ballots": len(t.ballots)}


def summary_text(s: dict[str, Any]) -> str:
    """The Chinese summary a newcomer reads."""
    c = s["crawl"]
    n = len(s["days"])
    lines = [f"演示局「{s['game']}」（规则 {s['ruleset']}），论坛回放 {s['forum']}",
             f"演示会替导演确认第 1–{n} 日的投票结果（写入游戏事件）；真实对局里由导演用 tracker confirm 确认。",
             f"抓取：{len(c['threads'])} 个帖子，{c['requests']} 次请求，新帖 {c['posts_new']}，"
             f"变化 {c['posts_changed']}"]
    first = bool(s.get("nights_first"))
    for d in s["days"]:
        for n in s.get("nights", ()) if first else ():
            if n["night"] == d["day"]:
                lines += night_lines(n)
        for v in d["votes"]:
            totals = "，".join(f"{k} {n}" for k, n in sorted(v["public_totals"].items(), key=lambda kv: -kv[1]))
            lines.append(f"第{d['day']}日 投票帖 {v['tid']}：{v['ballots']} 张票（无效 {v['invalid']}）；{totals}；"
                         f"{v['outcome']}")
        for text in d["confirmed"]:
            lines.append(f"  已确认：{text}")
        lurkers = "、".join(f"{p['player']}（{p['words']}）" for p in d["lurkers"]) or "无"
        lines.append(f"  潜水：{lurkers}")
        for n in s.get("nights", ()) if not first else ():
            if n["night"] == d["day"]:
                lines += night_lines(n)
    kinds = "，".join(f"{KIND_WORDS.get(k, k)} {n}" for k, n in sorted(s["flags"]["by_kind"].items()))
    lines.append(f"待审违规：{s['flags']['open']} 条（{kinds}）")
    lines.append(f"报告：{len(s['reports'])} 个文件，在 {Path(s['reports'][0]).parent if s['reports'] else '-'}")
    lines.append(f"数据库：{s['database']}；用时 {s['seconds']} 秒")
    return "\n".join(lines)


def night_lines(n: dict[str, Any]) -> list[str]:
    """A settled night as the summary shows it: deaths with cause, survivals, the 公示 draft."""
    state = "已确认" if n["confirmed"] else "未确认"
    deaths = "、".join(f"{d['player']}（{d['cause']}）" for d in n["deaths"])
    lines = [f"第{n['night']}夜（{n['submitted']} 个行动，{state}）：" + (f"出局 {deaths}" if deaths else "无人出局")]
    for s in n["survivals"]:
        lines.append(f"  存活：{s['player']}（{s['reason']}）")
    for r in n["rejected"]:
        lines.append(f"  拒绝：{r['actor']}<{r['skill']}>（{r['reason']}）")
    lines.append(f"  公示草稿：{'；'.join(n['announcement']) or '无（开门公示用 tracker announce）'}")
    lines.append(f"  私信反馈：{n['feedback']} 条（tracker night GAME.toml --night {n['night']} 查看）")
    return lines
