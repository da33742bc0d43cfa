"""`tracker ruleset check FILE` and `tracker ruleset new --from ID`: writing a ruleset of one's own."""

from __future__ import annotations

from pathlib import Path

import click

from tracker.cli.common import echo, emit_json, json_option
from tracker.errors import ConfigError, os_error_words


@click.group("ruleset")
def ruleset_group() -> None:
    """写自己的规则文件：check 检查，new 从内置规则生成带注释的副本（键的说明见 docs/ruleset.md）。"""


@ruleset_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@json_option
@click.pass_context
def check_cmd(ctx: click.Context, file: Path, as_json: bool) -> None:
    """检查规则文件：列出每个错误（键、行号、改法）和因省略而生效的默认规则；有错误时退出码 2。"""
    from tracker.engine.ruleset_check import check_ruleset

    found = check_ruleset(file)
    errors = [p for p in found if p.level == "error"]
    if as_json:
        from tracker.cli.json_docs import ruleset_check_json

        emit_json(ruleset_check_json(file, found))
    else:
        for p in found:
            word = "错误" if p.level == "error" else "注意"
            echo(f"{word}：{p.words(file.name) if p.line or p.where else p.message}")
            if p.hint:
                echo(f"  提示：{p.hint}")
        n_warn = len(found) - len(errors)
        echo(f"{file.name}：{len(errors)} 个错误，{n_warn} 条注意" if found else f"{file.name}：没有问题",
             err=True)
    if errors:
        ctx.exit(2)


@ruleset_group.command("new")
@click.option("--from", "from_id", required=True, metavar="ID", help="从哪个内置规则开始（`tracker rulesets`）")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="写入的规则文件（默认输出到屏幕）；新规则的 id 取文件名")
@click.option("--force", is_flag=True, help="覆盖已有文件")
def new_cmd(from_id: str, out: Path | None, force: bool) -> None:
    """从内置规则生成一份带注释的规则文件（夜晚技能写在同一个文件里）。"""
    from tracker.engine.ruleset_copy import commented_copy

    text = commented_copy(from_id, out.stem if out is not None else f"{from_id}-copy")
    if out is None:
        echo(text, nl=False)
        return
    if out.exists() and not force:
        raise ConfigError(f"{out} 已存在", hint="换一个 --out，或加 --force 覆盖")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"无法写入 {out}：{os_error_words(exc)}", hint="检查 --out 的目录是否存在、可写") from exc
    echo(f"已生成 {out}（从 {from_id} 开始；用 `tracker ruleset check {out}` 检查）", err=True)


def register(group: click.Group) -> None:
    group.add_command(ruleset_group)
