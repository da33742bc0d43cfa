"""Click's own messages (a mistyped option, a missing argument) in the director's words.

Click writes them in English; a director who types ``--dya 2`` should read 没有选项 --dya, with
click's suggestion kept. Patterns cover the messages click 8 raises for our commands; anything
else passes through unchanged after the Chinese prefix.
"""

from __future__ import annotations

import re

import click

_NAME = r"'([^']+)'"
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^Missing command\.?$", r"缺少子命令"),
    (r"^Missing parameter: (\S+)", r"缺少参数 \1"),
    (rf"^Missing option {_NAME}\.?", r"缺少选项 \1"),
    (rf"^Missing argument {_NAME}\.?", r"缺少参数 \1"),
    (rf"^No such option:? {_NAME}\.?", r"没有选项 \1"),
    (r"^No such option:? (\S+)", r"没有选项 \1"),
    (rf"^No such command {_NAME}\.?", r"没有命令 \1（tracker --help 列出全部命令）"),
    (rf"^Option {_NAME} requires an argument\.?", r"选项 \1 后面需要一个值"),
    (rf"^Option {_NAME} requires (\d+) arguments\.?", r"选项 \1 后面需要 \2 个值"),
    (rf"^Option {_NAME} does not take a value\.?", r"选项 \1 不带值"),
    (rf"^Argument {_NAME} takes (\d+) values\.?", r"参数 \1 需要 \2 个值"),
    (r"^Got unexpected extra arguments? \((.*)\)", r"多余的参数：\1"),
    (rf"^Invalid value for {_NAME}: {_NAME} is not a valid integer\.?", r"\1 应为整数，实际是 '\2'"),
    (rf"^Invalid value for {_NAME}: {_NAME} is not a valid float\.?", r"\1 应为数字，实际是 '\2'"),
    (rf"^Invalid value for {_NAME}: {_NAME} is not one of (.*?)\.?$", r"\1 只能是 \3，实际是 '\2'"),
    (rf"^Invalid value for {_NAME}: (\S+) is not in the range (.*?)\.?$", r"\1 应在 \3 范围内，实际是 \2"),
    (rf"^Invalid value for {_NAME}: File {_NAME} does not exist\.?", r"\1：找不到文件 \2"),
    (rf"^Invalid value for {_NAME}: (?:File|Path|Directory) {_NAME} is a directory\.?", r"\1：\2 是目录，需要一个文件"),
    (rf"^Invalid value for {_NAME}: (?:File|Path) {_NAME} is a file\.?", r"\1：\2 是文件，需要一个目录"),
    (rf"^Invalid value for {_NAME}: (?:File|Path|Directory) {_NAME} is not readable\.?", r"\1：\2 无法读取"),
    (rf"^Invalid value for {_NAME}: (?:File|Path|Directory) {_NAME} is not writable\.?", r"\1：\2 无法写入"),
    (rf"^Invalid value for {_NAME}: 只能是", r"\1 只能是"),
    (rf"^Invalid value for {_NAME}: (.*)", r"\1 的值不对：\2"),
    (r"\s*\(Did you mean one of: (.*)\?\)", r"（是不是想写 \1？）"),
    (r"\s*\(Did you mean (.*)\?\)", r"（是不是想写 \1？）"),
))


def chinese(message: str) -> str:
    """Click's English message with the parts we know put into Chinese (the rest kept as is)."""
    out = message.strip()
    for pattern, repl in _RULES:
        out = pattern.sub(repl, out, count=1)
    return out


def show_usage_error(exc: click.UsageError) -> None:
    """``错误：…`` and where to read the usage, on stderr (stdout stays clean for --json). A group
    run without its subcommand (`tracker card GAME.toml`) names the subcommands it has."""
    message = chinese(exc.format_message())
    command = exc.ctx.command if exc.ctx is not None else None
    if message == "缺少子命令" and isinstance(command, click.Group) and exc.ctx is not None:
        message += "：" + " / ".join(command.list_commands(exc.ctx))
    click.echo(f"错误：{message}", err=True)
    path = exc.ctx.command_path if exc.ctx is not None else "tracker"
    click.echo(f"提示：运行 `{path} --help` 查看用法", err=True)


# The words click prints around our Chinese help (`tracker tally --help`): headings, the help
# option's own line, [required] and [default: …]. Click looks them up through gettext; with no
# catalogue installed for Chinese, these few are looked up here instead.
_HELP_WORDS = {
    "Usage:": "用法:",
    "Options": "选项",
    "Commands": "命令",
    "Positional arguments": "参数",
    "Show this message and exit.": "显示本帮助并退出。",
    "Show the version and exit.": "显示版本并退出。",
    "required": "必填",
    "default: {default}": "默认：{default}",
    "env var: {var}": "环境变量：{var}",
    "Aborted!": "已取消。",
}


def _words(message: str) -> str:
    import gettext

    return _HELP_WORDS.get(message) or gettext.gettext(message)


def install_help_words() -> None:
    """Point click's help formatting at :data:`_HELP_WORDS` (its error messages are left to
    :func:`chinese`, which reads click's English)."""
    import click.core
    import click.decorators
    import click.formatting

    for module in (click.core, click.decorators, click.formatting):
        setattr(module, "_", _words)  # noqa: B010 (click binds gettext's `_` per module: no public hook)
