"""Options and output shared by every command: ``--db``, ``--json``, opening the service."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

db_option = click.option("--db", "db_url", default=None, metavar="URL",
                         help="SQLAlchemy 数据库地址（默认：游戏文件旁的 GAME.db）")
json_option = click.option("--json", "as_json", is_flag=True, help="输出 JSON（UTF-8，键名稳定）")
game_argument = click.argument("game_path", metavar="GAME.toml",
                               type=click.Path(dir_okay=False, path_type=Path))


def emit_json(data: Any) -> None:
    """The JSON contract: UTF-8, no ASCII escaping, nothing else on stdout."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str))


def open_service(game_path: Path, db_url: str | None) -> Any:
    from tracker.service import Service

    return Service.open(game_path, db_url=db_url)
