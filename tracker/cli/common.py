"""Options and output shared by every command: ``--db``, ``--json``, opening the service."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from tracker.jsonvalue import JSON
from tracker.visible import INVISIBLE, visible

if TYPE_CHECKING:  # the type only: `tracker --help` must not load the service and the store
    from tracker.service import Service

F = TypeVar("F", bound=Callable[..., object])

db_option = click.option("--db", "db_url", default=None, metavar="URL",
                         help="SQLAlchemy 数据库地址（默认：游戏文件旁的 GAME.db）")
json_option = click.option("--json", "as_json", is_flag=True, help="输出 JSON（UTF-8，键名稳定）")
game_argument = click.argument("game_path", metavar="GAME.toml",
                               type=click.Path(dir_okay=False, path_type=Path))


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every control, escape, bidi and invisible character made
    visible (``␛[31m``, ``<U+202E>``) by the one function the TUI uses too (:func:`tracker.visible.visible`)."""
    return visible(text)


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print human output (post text, names, reports) with control characters made visible."""
    click.echo(printable(text), err=err, nl=nl)


# json.dumps escapes only U+0000..U+001F; the C1 controls, DEL, bidi overrides and the line separators
# are escaped too, so a post's text cannot act on a terminal the JSON is shown on (same value decoded).
_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *INVISIBLE)}


def emit_json(data: JSON) -> None:
    """The JSON contract: UTF-8, no ASCII escaping, nothing else on stdout."""
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=str)
    click.echo(text.translate(_JSON_ESCAPES))


class _StartUp:
    #: Set by :func:`tracker.cli.main` when it runs the process's own command line: see :func:`loading`.
    lean = False


def lean_start_up() -> None:
    """This process is one command (the `tracker` executable, `python -m tracker`): see :func:`loading`."""
    _StartUp.lean = True


@contextmanager
def loading() -> Iterator[None]:
    """Modules are being loaded (a command's, the service's, and the service opened).

    In a process that is one command (:func:`lean_start_up`) the garbage collector is paused meanwhile,
    then what is alive is frozen out of its sight (:func:`gc.freeze`) and it resumes. Start-up
    allocates what lives until exit (modules, classes, functions, the game and its ruleset): a
    collection then frees nothing but walks all of it, and start-up runs several, each over more
    (~40 ms of `tracker state --json`). Collections go on as usual afterwards, over what the command
    allocates. An in-process caller (the tests) keeps its collector as it was.
    """
    if not _StartUp.lean or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def open_service(game_path: Path, db_url: str | None, *, check_ruleset: bool = True) -> Service:
    with loading():
        from tracker.service import Service

        return Service.open(game_path, db_url=db_url, check_ruleset=check_ruleset)


@contextmanager
def service(game_path: Path, db_url: str | None, *, check_ruleset: bool = True) -> Iterator[Service]:
    """The service for one command, closed (engine disposed) however the command ends.
    ``check_ruleset=False``: a command that reads no rule (`tracker crawl`) does not load the ruleset."""
    svc = open_service(game_path, db_url, check_ruleset=check_ruleset)
    try:
        yield svc
    finally:
        svc.close()


class WordChoice(click.Choice[str]):
    """A choice a director may type in English or in the rule posts' Chinese (``--color 蓝`` or
    ``--color blue``, ``--status 待审``): the command always receives the English value, the one
    the JSON and the store use. Each English value is given with its Chinese words."""

    def __init__(self, words: Mapping[str, tuple[str, ...]]) -> None:
        self.words = words
        self.alias = {w: value for value, ws in words.items() for w in (value, *ws)}
        super().__init__(list(self.alias))

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, str) and value.strip() in self.alias:
            return self.alias[value.strip()]
        choices = "、".join(f"{v}（{'/'.join(ws)}）" for v, ws in self.words.items())
        self.fail(f"只能是 {choices}，实际是 '{value}'", param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(f"{v}|{ws[0]}" for v, ws in self.words.items()) + "]"


#: ``--color``: the ledger's three colours, with the posts' words.
COLOR_WORDS_IN: dict[str, tuple[str, ...]] = {"blue": ("蓝", "蓝牌"), "yellow": ("黄", "黄牌"), "red": ("红", "红牌")}
#: ``flags --status``: a flag's review status, with the words the queue shows.
FLAG_STATUS_WORDS_IN: dict[str, tuple[str, ...]] = {"open": ("待审",), "dismissed": ("已驳回", "驳回"), "carded": ("已判罚", "判罚")}
