"""`tracker tally` and `tracker confirm`: count a day's votes; record the result as game events."""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import db_option, echo, emit_json, game_argument, json_option, open_service
from tracker.cli.json_docs import confirm_command_json, tally_command_json

if TYPE_CHECKING:
    from tracker.service.votes import DayTally


@click.command("tally")
@game_argument
@click.option("--day", "day", type=int, required=True, help="第几日")
@click.option("--ruleset", "ruleset_id", default=None, metavar="ID", help="用另一套规则重新计同一批票")
@click.option("--bbcode", is_flag=True, help="输出可直接贴到投票帖的 BBCode 公示")
@click.option("--no-voters", is_flag=True, help="公示中不列出投票人（如规则规定游戏结束前不公布投票状况）")
@db_option
@json_option
def tally_cmd(game_path: Path, day: int, ruleset_id: str | None, bbcode: bool, no_voters: bool,
              db_url: str | None, as_json: bool) -> None:
    """计票：列出每一张票（有效/无效及原因）、最终投票、票数和结果。"""
    from tracker.reports.announce_tally import announce_tally_bbcode

    svc = open_service(game_path, db_url)
    try:
        results = svc.votes.tally_day(day, ruleset_id=ruleset_id)
        tz = svc.game.tz
        if as_json:
            emit_json(tally_command_json(day, results, tz))
            return
        if not bbcode and ruleset_id is None:
            from tracker.cli.readings import reading_lines

            for line in reading_lines(svc.ruleset, svc.game.options):
                echo(line)
        for r in results:
            if bbcode:
                echo(announce_tally_bbcode(r.tally, show_voters=not no_voters, tz=tz))
            else:
                echo(_human(r, tz))
            for msg in r.provisional:
                echo(f"注意：{msg}", err=True)
    finally:
        svc.close()


def _human(r: DayTally, tz: tzinfo) -> str:
    from tracker.reports.announce_tally import announce_tally_bbcode

    t = r.tally
    # Plain text for the terminal: this view carries the director's true totals (暗记), so it must not
    # look like the post to paste (that is --bbcode). Player text in the announcement has full-width
    # brackets, so every [b] tag left is the announcement's own.
    bb = announce_tally_bbcode(t, tz=tz)
    lines = [bb.replace("[b]", "").replace("[/b]", "")]
    if t.totals != t.public_totals:
        lines += ["", "导演真实票数（含暗记）：" + "，".join(f"{k} {v:g}" for k, v in t.totals.items())]
    flagged = [cb for cb in t.ballots if cb.flags]
    if flagged:
        lines += ["", "请导演核对："]
        lines += [f"  {cb.ballot.floor}# {cb.voter}：" + "；".join(f.message for f in cb.flags) for cb in flagged]
    return "\n".join(lines)


@click.command("confirm")
@game_argument
@click.option("--day", "day", type=int, required=True, help="第几日")
@click.option("--by", "recorded_by", default=None, help="记录人（默认第一位导演）")
@db_option
@json_option
def confirm_cmd(game_path: Path, day: int, recorded_by: str | None, db_url: str | None, as_json: bool) -> None:
    """确认当日投票结果，记为游戏事件（当选、出局/死亡、已用最后一票）。"""
    svc = open_service(game_path, db_url)
    try:
        results = svc.votes.confirm_day(day, recorded_by=recorded_by)
        if as_json:
            emit_json(confirm_command_json(day, results))
            return
        for r in results:
            if r.already_confirmed:
                echo(r.explanation)
                continue
            echo(f"{r.explanation}（依据：{r.clause}），已记录 {len(r.events)} 条事件")
            if r.settlement is not None and r.phase is not None:
                from tracker.engine.night.desk import phase_words
                from tracker.reports.night_settlement import exit_lines

                for line in exit_lines(phase_words(r.phase), r.settlement):
                    echo(f"  {line}")
    finally:
        svc.close()


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
    group.add_command(tally_cmd)
    group.add_command(confirm_cmd)
