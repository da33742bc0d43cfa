"""The ``tracker`` command line: a thin shell over :class:`tracker.service.Service`.

Each area registers its commands from its own module, so the command line grows a file at a time.
Errors a director can meet are :class:`TrackerError`s: printed in Chinese with the fix, non-zero
exit, never a traceback.
"""

from __future__ import annotations

import sys
from typing import TextIO

import click

from tracker.cli.common import lean_start_up, loading, printable
from tracker.errors import TrackerError

#: Each command and the module that registers it: a command imports only its own area's module
#: (and what that imports), so `tracker state` never loads the crawler, jieba or Textual.
COMMANDS: dict[str, str] = {
    "crawl": "crawl", "posts": "crawl", "tally": "votes", "confirm": "votes",
    "rulesets": "state", "init": "state", "event": "state", "state": "state", "players": "players",
    "flags": "penalties", "lurkers": "penalties", "cards": "penalties", "card": "penalties",
    "report": "reports", "watch": "reports", "post": "reports", "elevator": "reports", "announce": "reports",
    "night": "night", "demo": "demo", "tui": "tui_cmd", "threads": "setup", "ruleset": "ruleset_cmd",
}


class LazyGroup(click.Group):
    """The `tracker` group, loading a command's module only when that command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            import importlib

            with loading():
                importlib.import_module(f"tracker.cli.{COMMANDS[cmd_name]}").register(self)
        return self.commands.get(cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="forum-game-tracker", message="%(prog)s %(version)s", help="显示版本并退出。")
@click.option("--log-level", type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False),
              default=None, help="诊断日志级别（默认 WARNING，watch 为 INFO；也可用环境变量 TRACKER_LOG_LEVEL）")
@click.option("--log-file", type=click.Path(dir_okay=False), default=None,
              help="诊断日志写入此文件（默认 stderr；也可用环境变量 TRACKER_LOG_FILE）")
@click.pass_context
def cli(ctx: click.Context, log_level: str | None, log_file: str | None) -> None:
    """版杀导演助手：抓取 Discuz! 游戏帖，计票、数帖、记牌。"""
    from tracker.logs import configure

    configure(log_level, log_file, default="INFO" if ctx.invoked_subcommand == "watch" else "WARNING")


def _register_all() -> None:
    """Every command registered now (tests and tools that walk the whole command tree)."""
    for name in COMMANDS:
        cli.get_command(click.Context(cli), name)


def _show_warnings_as_notes() -> None:
    """TrackerWarnings (a cookie file others can read …) as one Chinese line on stderr, not a Python warning."""
    import warnings

    from tracker.errors import TrackerWarning

    original = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if issubclass(category, TrackerWarning):
            click.echo(f"注意：{printable(str(message))}", err=True)
            return
        original(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    warnings.simplefilter("default", TrackerWarning)


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code.

    ``argv`` None is the process's own command line (the `tracker` executable, `python -m tracker`):
    the process is this one command. While its modules load, the garbage collector is paused
    (:func:`tracker.cli.common.loading`). And the process ends when this returns: Python's shutdown
    would run a last garbage collection over every object still alive, every module, class and
    function the command loaded, a sixth of `tracker state`'s time (~100 ms), to find no garbage.
    They are frozen out of the collector's sight first (:func:`gc.freeze`); as at any exit, what is
    left is the operating system's to free.
    """
    if argv is None:
        lean_start_up()
    code = _run(argv)
    if argv is None:
        import gc

        gc.freeze()
    return code


def _unexpected(exc: Exception) -> int:
    """A bug (or memory running out): no traceback on the director's screen, but one line saying
    so, the traceback kept in a log file (the ``--log-file`` when one is set, else a new 0600 file
    in the temporary directory), and UNEXPECTED_EXIT, a code no documented error uses."""
    import logging
    import os
    import tempfile
    import traceback

    from tracker.errors import UNEXPECTED_EXIT

    text = "".join(traceback.format_exception(exc))
    path = os.environ.get("TRACKER_LOG_FILE") or next(
        (h.baseFilename for h in logging.getLogger("tracker").handlers if isinstance(h, logging.FileHandler)), None)
    try:
        if path is not None:
            logging.getLogger("tracker").error("意外的内部错误\n%s", text)
        else:
            fd, path = tempfile.mkstemp(prefix="tracker-error-", suffix=".log")  # 0600
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        where = f"详情（Python 回溯）已写入 {path}"
    except OSError:
        where = "详情无法写入日志文件"
    what = "内存不足" if isinstance(exc, MemoryError) else f"意外的内部错误（{type(exc).__name__}）"
    click.echo(f"错误：{what}，命令没有完成；{printable(where)}，请把它附在问题报告里。", err=True)
    return UNEXPECTED_EXIT


def _run(argv: list[str] | None) -> int:
    from tracker.cli.usage import install_help_words

    install_help_words()
    _show_warnings_as_notes()
    try:
        rv = cli.main(args=argv, prog_name="tracker", standalone_mode=False)
    except TrackerError as exc:
        click.echo(f"错误：{printable(str(exc))}", err=True)  # forum text (a subject, an error page) inside
        return exc.exit_code
    except click.exceptions.Abort as exc:
        # click turns Ctrl-C into Abort (its cause); a declined confirmation is an Abort too.
        interrupted = isinstance(exc.__cause__, KeyboardInterrupt)
        click.echo("已中断。已保存的数据不受影响。" if interrupted else "已取消。", err=True)
        return 130
    except click.UsageError as exc:
        from tracker.cli.usage import show_usage_error

        if type(exc).__name__ == "NoArgsIsHelpError":  # `tracker` alone, `tracker night`: the help, not an error
            click.echo(exc.format_message())
            return 0
        show_usage_error(exc)
        return exc.exit_code
    except click.ClickException as exc:
        click.echo(f"错误：{printable(exc.format_message())}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("已中断。已保存的数据不受影响。", err=True)
        return 130
    except Exception as exc:
        # A database that fails under a command (read-only, corrupt, locked, gone) is the director's
        # to fix, wherever it surfaced; anything else is a bug: its own code, one line, the log.
        if type(exc).__module__.startswith("sqlalchemy"):
            from tracker.store.db import store_error

            err = store_error(exc)
            if err is not None:
                click.echo(f"错误：{printable(str(err))}", err=True)
                return err.exit_code
        return _unexpected(exc)
    # A command that ends with ctx.exit(N) (e.g. `report`'s 10 = needs the director) returns N.
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
