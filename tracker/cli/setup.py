"""`tracker threads` and the sign-up block of `tracker players --block`: find thread ids and players on the forum.

Setting up a game used to mean probing ``viewthread&tid=N`` by hand and retyping names (and their
typos). These read the forum with the crawler's fetcher and print what goes into the game file.
"""

from __future__ import annotations

from pathlib import Path

import click

from tracker.cli.common import echo, emit_json, game_argument, json_option


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


@click.command("threads")
@game_argument
@click.option("--forum", "fid", type=int, default=None, metavar="FID",
              help="版块编号（默认：游戏文件中进程帖或第一个帖子所在的版块）")
@json_option
def threads_cmd(game_path: Path, fid: int | None, as_json: bool) -> None:
    """列出版块里的帖子（tid、标题、作者、回复数），找各日讨论帖、投票帖的编号。"""
    from tracker.config import load_game
    from tracker.scraper.discovery import forum_threads

    game = load_game(game_path)
    fid, items = forum_threads(game, fid)
    if as_json:
        from tracker.cli.json_docs import forum_threads_json

        emit_json(forum_threads_json(fid, items))
        return
    echo(f"版块 fid {fid}：{len(items)} 个帖子（论坛列表的第一页）")
    echo(f"{'tid':>7}  {'回复':>5}  作者／标题")
    for t in items:
        top = "［置顶］" if t.sticky else ""
        echo(f"{t.tid:>7}  {t.replies if t.replies is not None else '—':>5}  {t.author or '—'}／{top}{t.subject}")


def propose_players(game_path: Path, tid: int, as_json: bool) -> None:
    """`tracker players --from-thread TID --block`: the [[players]] block of a sign-up thread's
    posters (account names and uids, in order of first reply, directors left out), to paste."""
    from tracker.config import load_game
    from tracker.scraper.discovery import signup_accounts

    game = load_game(game_path)
    signup = signup_accounts(game, tid)
    if as_json:
        from tracker.cli.json_docs import signup_json

        emit_json(signup_json(signup))
        return
    click.echo(f"# 报名帖 tid {signup.tid}《{signup.subject}》：{len(signup.accounts)} 个账号（不含导演），按首次回帖顺序")
    click.echo("# 复制到游戏文件，删去不参加的账号，再写 role / faction")
    for name, uid, floor in signup.accounts:
        click.echo("")
        click.echo(f"[[players]]  # 第 {floor} 楼")
        click.echo(f"name = {_toml_str(name)}")
        if uid is not None:
            click.echo(f"uid = {uid}")


def register(group: click.Group) -> None:
    for cmd in (threads_cmd,):
        group.add_command(cmd)
