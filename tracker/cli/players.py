"""`tracker players GAME.toml --from-thread TID`: fill the players' forum uids into the game file.

Authors are identified by uid (tracker.engine.identity): a uid in the game file is what stops an
account named ``银鸦`` + U+200B from voting as ``银鸦``. The helper crawls one thread where the
players have posted (the sign-up thread, day 1's discussion), takes each player's uid from the posts
whose author is *exactly* the player's name, and writes ``uid = N`` under that player in the game
file, leaving every other line as it was. Look-alike accounts that posted in the thread are listed
for the director, never filled in, and a player whose name an account in the thread only looks like
("银鸦 ", "银鸦\u3000": names are never trimmed) is not filled either: the director is asked.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

import click

from tracker.cli.common import db_option, echo, game_argument, json_option, service
from tracker.errors import ConfigError

_TABLE = re.compile(r"^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?\s*(#.*)?$")
_NAME = re.compile(r"^\s*name\s*=")


def fill_uids(text: str, uids: Mapping[str, int]) -> str:
    """``text`` with ``uid = N`` inserted under each ``[[players]]`` whose name is in ``uids``."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    in_players = False
    for line in lines:
        m = _TABLE.match(line)
        if m:
            in_players = line.strip().startswith("[[") and m.group(1) == "players"
        out.append(line)
        if in_players and _NAME.match(line):
            try:
                name = tomllib.loads(line).get("name")
            except tomllib.TOMLDecodeError:
                continue
            if isinstance(name, str) and name.strip() in uids:
                nl = "" if line.endswith("\n") else "\n"
                out[-1] = line + nl
                out.append(f"uid = {uids[name.strip()]}\n")
    return "".join(out)


def register(group: click.Group) -> None:
    @group.command("players")
    @game_argument
    @click.option("--from-thread", "tid", type=int, required=True, metavar="TID",
                  help="玩家都发过帖的帖子（报名帖、第一日讨论帖）")
    @click.option("--no-crawl", is_flag=True, help="不抓取，只用数据库里已有的帖子")
    @click.option("--block", is_flag=True,
                  help="不改游戏文件：输出报名帖发帖账号的 [[players]] 段落（名字与 uid，按首次回帖顺序），供复制")
    @json_option
    @db_option
    def players(game_path: Path, tid: int, no_crawl: bool, block: bool, as_json: bool, db_url: str | None) -> None:
        """从论坛帖子里补全玩家的 uid（按 uid 认人，形近名字的账号不能冒充玩家投票）；--block 生成 [[players]]。"""
        if block or as_json:
            from tracker.cli.setup import propose_players

            propose_players(game_path, tid, as_json)
            return
        from tracker.engine.identity import Authors, skeleton
        from tracker.safefile import write_atomic
        from tracker.store.posts import posts_for_thread
        from tracker.visible import visible_name

        with service(game_path, db_url) as svc:
            if not no_crawl:
                svc.crawling.crawl(tids=[tid])
            with svc.store.session() as s:
                posts = posts_for_thread(s, tid)
            game = svc.game
        if not posts:
            raise ConfigError(f"数据库里没有帖 {tid} 的帖子", hint="检查 tid，或去掉 --no-crawl 先抓取")
        seen: dict[str, set[int]] = {}
        for p in posts:
            if p.uid is not None:
                seen.setdefault(p.author, set()).add(p.uid)
        authors = Authors(game.players)
        fill: dict[str, int] = {}
        asked: set[str] = set()
        for pc in game.players:
            found = seen.get(pc.name, set())
            if pc.uid is not None:
                if found and pc.uid not in found:
                    echo(f"注意：{pc.name} 在游戏文件里的 uid 是 {pc.uid}，帖 {tid} 里同名账号的 uid 是 "
                         f"{'、'.join(map(str, sorted(found)))}；请核对", err=True)
                continue
            # never trimmed or normalised: a uid is filled only from the one account with exactly the
            # name, and only when no other account in the thread looks like it ("银鸦 ", "银鸦\u3000")
            key = skeleton(pc.name)
            alike = {a: u for a, u in seen.items() if a != pc.name and skeleton(a) == key}
            if len(found) == 1 and not alike:
                fill[pc.name] = next(iter(found))
                continue
            others = "、".join(f"{visible_name(a)}（uid {'、'.join(map(str, sorted(u)))}）"
                              for a, u in sorted(alike.items()))
            asked.update(alike)
            if len(found) == 1:
                echo(f"注意：{pc.name} 没有填写：帖 {tid} 里有同名账号（uid {next(iter(found))}），也有形近账号 "
                     f"{others}；核对哪个是玩家后，在游戏文件里给 {pc.name} 写上 uid = {next(iter(found))}"
                     "（或另一个 uid）", err=True)
            elif found:
                echo(f"注意：{pc.name} 对应多个 uid（{'、'.join(map(str, sorted(found)))}），没有填写", err=True)
            elif alike:
                echo(f"未找到：{pc.name} 没有在帖 {tid} 以这个名字发过帖；形近账号 {others} 不是玩家，没有填写", err=True)
            else:
                echo(f"未找到：{pc.name} 没有在帖 {tid} 以这个名字发过帖", err=True)
        for author, uids in sorted(seen.items()):
            who = authors.identify(author, min(uids))
            if who.lookalike is not None and author not in fill and author not in asked:
                echo(f"形近账号：{who.reason}", err=True)
        if not fill:
            echo("没有需要补全的 uid。")
            return
        text = game_path.read_text(encoding="utf-8-sig")
        write_atomic(game_path, fill_uids(text, fill))
        for name, uid in fill.items():
            echo(f"已填写 {name} 的 uid = {uid}")
