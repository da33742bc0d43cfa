"""``tracker tui``: the one place the core opens the Textual app (an allowed import-linter exception)."""

from __future__ import annotations

from pathlib import Path

import click

from tracker.cli.common import db_option, game_argument


def run_tui(game_path: Path, db_url: str | None) -> None:
    from tui.app import run_app

    run_app(game_path, db_url=db_url)


def register(group: click.Group) -> None:
    @group.command("tui")
    @game_argument
    @db_option
    def tui_command(game_path: Path, db_url: str | None) -> None:
        """打开导演终端界面。"""
        run_tui(game_path, db_url)
