"""`tracker demo`: the whole job on the bundled demo game, served from a local replay of real pages."""

from __future__ import annotations

from pathlib import Path

import click

from tracker.cli.common import echo, emit_json
from tracker.demo import DEMO_GAMES


@click.command("demo")
@click.option("--no-tui", is_flag=True, help="只打印摘要，不打开终端界面")
@click.option("--json", "as_json", is_flag=True, help="以 JSON 输出摘要（隐含 --no-tui）")
@click.option("--dir", "workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="演示文件放在这里（默认临时目录）")
@click.option("--game", type=click.Choice(DEMO_GAMES), default=None,
              help="换一个演示局：werewolf-12（十二人标准狼人杀，生成的论坛页面）；不写即默认演示局")
def demo_cmd(no_tui: bool, as_json: bool, workdir: Path | None, game: str | None) -> None:
    """演示：在本机回放真实 Discuz 页面，抓取、计票、查违规、数潜水，然后打开终端界面。"""
    from tracker.demo.run import again, demo_data, run_job, start, summary_text

    run = start(workdir, game)
    try:
        summary = run_job(run.game_path, data=demo_data(game))
        if as_json:
            emit_json(summary)
            return
        echo(summary_text(summary))
        if not no_tui:
            from tracker.cli.tui_cmd import run_tui

            echo(f"打开终端界面（游戏文件 {run.game_path}）…", err=True)
            run_tui(run.game_path, None)
    finally:
        run.forum.stop()
        from tracker.demo.run import finish

        finish(run)
    if not as_json:
        echo(f"回放已停止；重新回放：{again(run)}", err=True)


def register(group: click.Group) -> None:
    group.add_command(demo_cmd)
