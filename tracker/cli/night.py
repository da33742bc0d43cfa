"""``tracker night``: settle a night or a day phase with the engine, explained step by step.

``tracker night simulate --ruleset ID SCENARIO.json`` reads the scenario format (the table before
the phase and the submitted actions), validates it against its JSON Schema and prints the
settlement: refusals with their clause, deaths, survivals, feedback, the 公示 draft, the win check
and the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import db_option, echo, emit_json, json_option
from tracker.engine.events import given

if TYPE_CHECKING:
    from tracker.engine.night import Catalog, Settlement, Table
    from tracker.engine.ruleset import Ruleset
    from tracker.jsonvalue import JSON
    from tracker.service.night_desk import NightPreview


class NightGroup(click.Group):
    """``tracker night simulate …`` or ``tracker night GAME.toml --night N [add|remove|setup|confirm …]``.

    The second form puts the game file first, like every other command; anything that is not a
    subcommand's name goes to the desk.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["desk", *args]
        return super().parse_args(ctx, args)


@click.group(name="night", cls=NightGroup)
def night_group() -> None:
    """夜晚与技能结算：按规则帖的结算顺序结算提交的行动。

    \b
    tracker night GAME.toml --night 2                      预览第2夜的结算（拒绝、步骤、出局、反馈、公示草稿）
    tracker night GAME.toml --night 2 add 银鸦 守护 饺子    提交一个行动（团队：狼群(甲,乙) 杀人 丙）
    tracker night GAME.toml --night 2 remove 银鸦 守护      撤回
    tracker night GAME.toml --night 2 confirm             确认结算并写入事件（只能一次；之后照原样显示）
    tracker night GAME.toml --night 2 reopen              重新打开已确认的结算（撤销其记录；其后无已确认结算时）
    tracker night GAME.toml setup 英雄 饺子 --player 泡泡    开局设定（英雄、设计目标、情侣、座次 …）
    tracker night GAME.toml --day 3 --phase 晨曦 …          白天技能，同上
    tracker night simulate --ruleset ID SCENARIO.json     结算一个情景文件（或 {"scenarios": [...]} 中的每一个）
    """


@night_group.command(name="simulate")
@click.option("--ruleset", "ruleset_id", required=True, metavar="ID", help="规则 id 或规则文件路径")
@click.argument("scenario_path", metavar="SCENARIO.json", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", default=0, show_default=True, help="随机选择的种子（同一种子结果相同）")
@click.option("--decide", "decisions", multiple=True, metavar="KEY=VALUE",
              help="导演对待定事项的决定（键见输出的 questions），可重复")
@json_option
def simulate_cmd(ruleset_id: str, scenario_path: Path, seed: int, decisions: tuple[str, ...],
                 as_json: bool) -> None:
    """结算一个情景文件（结算前的局面与提交的行动；或 {"scenarios": [...]}，逐个结算）。"""
    from tracker.engine.night.catalog import catalog_of
    from tracker.engine.night.scenario import read, scenarios_of
    from tracker.engine.ruleset import load_ruleset

    ruleset = load_ruleset(ruleset_id, Path.cwd())
    catalog = catalog_of(ruleset)
    data = read(scenario_path)
    many = scenarios_of(data)
    chosen = _decisions(decisions)
    runs = [_simulate(ruleset, catalog, one, seed, chosen) for one in (many if many is not None else [data])]
    from tracker.engine.night.desk import check_decisions

    for key, value in chosen.items():  # each --decide names a question of some scenario of the file
        asking = next((r for _, r in runs if any(q.key == key for q in r.questions)), runs[0][1])
        check_decisions(asking, {key: value})
    if as_json:
        from tracker.cli.json_docs import simulation_json, simulations_json

        if many is None:
            emit_json(simulation_json(runs[0][1]))
        else:
            emit_json(simulations_json([one.get("id") for one in many], [result for _, result in runs]))
        return
    from tracker.reports.night_settlement import render

    for i, (table, result) in enumerate(runs):
        if many is not None:
            echo(("\n" if i else "") + f"== {many[i].get('id') or f'情景 {i + 1}'} ==")
        echo(f"{table.when} 结算（{ruleset.name}）")
        echo(render(result))


def _simulate(ruleset: Ruleset, catalog: Catalog, data: Mapping[str, object], seed: int,
              chosen: dict[str, str]) -> tuple[Table, Settlement]:
    """One scenario settled: its game checked against the ruleset, its roles against the ruleset's."""
    from tracker.engine.night import settle
    from tracker.engine.night.scenario import load
    from tracker.errors import ConfigError

    game = data.get("game")
    if game is not None and catalog.scenario_game is not None and game not in (catalog.scenario_game, ruleset.id):
        raise ConfigError(f"情景文件写的规则帖是 {game}，与 --ruleset {ruleset.id} 不符",
                          hint=f"{ruleset.id} 的规则帖是 {catalog.scenario_game}")
    table, actions = load(data)
    if catalog.scenario_game is None:  # a game outside the five seed posts: its own files name everything
        from tracker.engine.night.scenario import check_names

        if game is not None and game != ruleset.id:
            raise ConfigError(f"情景文件写的规则是 {game}，与 --ruleset {ruleset.id} 不符",
                              hint=f"规则帖以外的游戏写 game = 规则 id（{ruleset.id}）")

        check_names(table, ruleset, catalog)
    roles = {r.name for r in ruleset.roles}
    for seat in table.players.values():
        if seat.role not in roles:
            import difflib

            near = difflib.get_close_matches(seat.role, sorted(roles), n=3, cutoff=0.3)
            raise ConfigError(f"{seat.name} 的身份 {seat.role!r} 不在规则 {ruleset.id} 中",
                              hint=f"最接近的：{'、'.join(near)}" if near else f"可用的身份：{'、'.join(sorted(roles))}")
    return table, settle(catalog, table, actions, seed=seed, decisions=chosen, ruleset=ruleset)


_VERBS = ("add", "remove", "confirm", "reopen", "setup")


@night_group.command(name="desk", hidden=True)
@click.argument("game_path", metavar="GAME.toml", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("words", nargs=-1)
@click.option("--night", type=int, default=None, help="第几夜")
@click.option("--day", type=int, default=None, help="第几天（白天技能）")
@click.option("--phase", default=None, help="阶段：白天 / 晨曦 / 正午 / 黄昏 / 关门（--day），夜晚（--night）")
@click.option("--choice", default=None, help="add：行动的选择（如 抉择、猜测身份）")
@click.option("--player", default=None, help="setup：设定属于哪位玩家（不写则为全局状态）")
@click.option("--seed", default=0, show_default=True, help="随机选择的种子")
@click.option("--decide", "decisions", multiple=True, metavar="KEY=VALUE", help="导演对待定事项的决定，可重复")
@db_option
@json_option
def desk_cmd(game_path: Path, words: tuple[str, ...], night: int | None, day: int | None, phase: str | None,
             choice: str | None, player: str | None, seed: int, decisions: tuple[str, ...], db_url: str | None,
             as_json: bool) -> None:
    """夜晚工作台：提交、撤回、预览、确认。"""
    from tracker.cli.common import service
    from tracker.cli.json_docs import night_confirm_json, night_preview_json
    from tracker.engine.night.desk import phase_key, phase_words

    verb, rest = (words[0], list(words[1:])) if words else ("preview", [])
    if verb not in (*_VERBS, "preview"):
        raise click.UsageError(f"不认识的操作 {verb!r}；可用：{' / '.join(_VERBS)}（不写则预览）")
    chosen = _decisions(decisions)
    with service(game_path, db_url) as svc:
        desk = svc.night_desk
        if verb == "setup":
            if len(rest) != 2:
                raise click.UsageError("setup 写成：setup 字段 值 [--player 玩家]，例如 setup 英雄 饺子 --player 泡泡")
            done = desk.setup(rest[0], _value(rest[1]), player)
            ev = done.event
            if ev.kind == "tag_given":
                echo(f"已记录设定（事件 {ev.seq}）：{ev.player} 开局持有{ev.data['tag']}")
            else:
                field = str(ev.payload.field)
                named = rest[0] if field == rest[0] else f"{rest[0]}（{field}）"
                echo(f"已记录设定（事件 {ev.seq}）：{player + ' 的 ' if player else ''}{named} = {rest[1]}")
            if done.result is not None:  # what the fact set off at the start of the game (M19 恋爱、私奔 …)
                echo("游戏开始时随之结算：")
                for line in done.result.log:
                    echo(f"  {line}")
                if done.result.feedback:
                    echo("私信反馈（可直接复制）：")
                    for f in done.result.feedback:
                        echo(f"  【{f.to}】{f.content}")
                echo(f"已写入 {len(done.effects)} 个事件（事件 {done.effects[0].seq}–{done.effects[-1].seq}：阵营、标记，"
                     "记于游戏开始前）" if done.effects else "没有改变阵营或标记")
            return
        key = phase_key(night, day, phase)
        if verb == "add":
            from tracker.reports.night_settlement import submitted_line
            from tracker.service.night_desk import parse_entry

            entry = parse_entry(rest, choice)
            ev = desk.add(key, entry.actor, entry.skill, entry.targets, choice=entry.choice)
            echo(submitted_line(ev.seq, entry.actor, str(ev.payload.skill), entry.targets))
            return
        if verb == "remove":
            if len(rest) != 2:
                raise click.UsageError("remove 写成：remove 行动者 技能")
            from tracker.reports.night_settlement import withdrawn_line

            ev = desk.remove(key, rest[0], rest[1])
            echo(withdrawn_line(ev.seq, rest[0], rest[1]))
            return
        if verb == "reopen":
            settled, undone = desk.reopen(key)
            reopened = phase_words(str(settled.payload.phase))
            if settled.payload.vote_tid is not None:
                echo(f"已重新打开{reopened}：撤销 {len(undone)} 个事件（投票帖 {settled.data['vote_tid']} 的确认及其结算）；"
                     f"可以修改当天的提交后重新确认投票：tracker confirm GAME.toml --day {settled.data.get('day', '')}".rstrip())
            else:
                echo(f"已重新打开{reopened}：撤销 {len(undone)} 个事件（确认 {settled.seq} 及其记录的结果）；可以修改提交后再 confirm")
            return
        if verb == "confirm":
            preview, recorded = desk.confirm(key, seed=seed, decisions=chosen)
            if as_json:
                emit_json(night_confirm_json(key, recorded, preview.result))
                return
            _show(preview)
            echo(f"已确认{preview.words}的结算：写入 {len(recorded)} 个事件（{recorded[0].seq}–{recorded[-1].seq}）")
            later = desk.built_without(recorded[-1])
            if later:
                echo(f"注意：其后已确认的结果没有包含{preview.words}的结算：{'、'.join(later)}；"
                     "如需更正，从最后一个起重新打开后再确认", err=True)
            return
        preview = desk.preview(key, seed=seed, decisions=chosen)
        if as_json:
            emit_json(night_preview_json(key, preview))
            return
        _show(preview)


def _show(preview: NightPreview) -> None:
    """The preview as the director reads it: submissions, then the settlement (tracker.reports.night_settlement)."""
    from tracker.reports.night_settlement import render

    state = "（已确认）" if preview.confirmed is not None else "（预览，未确认）"
    echo(f"{preview.words}结算{state}")
    echo(f"已提交 {len(preview.submitted)} 个行动：")
    for e in preview.submitted:
        targets = "、".join(given(e.payload.targets, ())) or "—"
        extra = f"（{e.payload.choice}）" if e.payload.choice else ""
        echo(f"  [{e.seq}] {e.payload.actor}<{e.payload.skill}> → {targets}{extra}")
    echo(render(preview.result))


def _decisions(pairs: tuple[str, ...]) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for d in pairs:
        key, sep, value = d.partition("=")
        if not sep:
            raise click.BadParameter("写成 KEY=VALUE", param_hint="--decide")
        chosen[key] = value
    return chosen


def _value(text: str) -> JSON:
    """A setup value: JSON when it parses (a number, true, an object such as 情侣), else the text."""
    import json

    try:
        value: JSON = json.loads(text)
    except ValueError:
        return text
    return value


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
    group.add_command(night_group)
