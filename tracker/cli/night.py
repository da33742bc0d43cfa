"""``tracker night``: settle a night or a day phase with the engine, explained step by step.

``tracker night simulate --ruleset ID SCENARIO.json`` reads the scenario format (the table before
the phase and the submitted actions), validates it against its JSON Schema and prints the
settlement: refusals with their clause, deaths, survivals, feedback, the 公示 draft, the win check
and the log.
"""

from __future__ import annotations

from pathlib import Path

import click

from tracker.cli.common import echo, emit_json, json_option


@click.group(name="night")
def night_group() -> None:
    """夜晚与技能结算：按规则帖的结算顺序结算提交的行动。"""


@night_group.command(name="simulate")
@click.option("--ruleset", "ruleset_id", required=True, metavar="ID", help="规则 id 或规则文件路径")
@click.argument("scenario_path", metavar="SCENARIO.json", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", default=0, show_default=True, help="随机选择的种子（同一种子结果相同）")
@click.option("--decide", "decisions", multiple=True, metavar="KEY=VALUE",
              help="导演对待定事项的决定（键见输出的 questions），可重复")
@json_option
def simulate_cmd(ruleset_id: str, scenario_path: Path, seed: int, decisions: tuple[str, ...],
                 as_json: bool) -> None:
    """结算一个情景文件（结算前的局面与提交的行动）。"""
    from tracker.engine.night import load_catalog, settle
    from tracker.engine.night.scenario import load, read
    from tracker.engine.ruleset import load_ruleset
    from tracker.errors import ConfigError

    ruleset = load_ruleset(ruleset_id, Path.cwd())
    catalog = load_catalog(ruleset.id, ruleset.night_path, tuple(r.name for r in ruleset.roles))
    data = read(scenario_path)
    game = data.get("game")
    if game is not None and catalog.scenario_game is not None and game != catalog.scenario_game:
        raise ConfigError(f"情景文件写的规则帖是 {game}，与 --ruleset {ruleset.id} 不符",
                          hint=f"{ruleset.id} 的规则帖是 {catalog.scenario_game}")
    table, actions = load(data)
    roles = {r.name for r in ruleset.roles}
    for seat in table.players.values():
        if seat.role not in roles:
            import difflib

            near = difflib.get_close_matches(seat.role, sorted(roles), n=3, cutoff=0.3)
            raise ConfigError(f"{seat.name} 的身份 {seat.role!r} 不在规则 {ruleset.id} 中",
                              hint=f"最接近的：{'、'.join(near)}" if near else f"可用的身份：{'、'.join(sorted(roles))}")
    chosen: dict[str, str] = {}
    for d in decisions:
        key, sep, value = d.partition("=")
        if not sep:
            raise click.BadParameter("写成 KEY=VALUE", param_hint="--decide")
        chosen[key] = value
    result = settle(catalog, table, actions, seed=seed, decisions=chosen)
    if as_json:
        emit_json(result.to_json())
        return
    echo(f"{table.when} 结算（{ruleset.name}）")
    for line in result.log:
        echo(f"  {line}")
    if result.rejected:
        echo("拒绝的行动：")
        for r in result.rejected:
            echo(f"  {r.actor}<{r.skill}>：{r.reason}")
    echo("出局：" + ("、".join(f"{d.player}（{d.cause}）" for d in result.deaths) or "无"))
    for s in result.survivals:
        echo(f"存活：{s.player}（{s.reason}）")
    if result.feedback:
        echo("私信反馈：")
        for f in result.feedback:
            echo(f"  → {f.to}：{f.content}")
    echo("公示：" + ("、".join(result.out_order) + "出局" if result.out_order else "平安夜"))
    for line in result.lines:
        echo(f"  {line}")
    for q in result.questions:
        echo(f"待定 {q.key}：{q.question} → {q.taken}（{'导演指定' if q.by == 'director' else '随机'}；"
             f"可用 --decide {q.key}=… 改为 {' / '.join(q.options)}）")
    if result.outcome is not None:
        echo(f"胜负：{result.outcome.winner}获胜（{result.outcome.reason}）")


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
    group.add_command(night_group)
