"""The toy ruleset of tests/fixtures/night/toy: its hooks (守护 then 杀人, a win check) and a game file."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from tracker.engine.night.board import latest
from tracker.engine.night.catalog import Step
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action


def night(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    board = flow.board
    guard = latest(actions, "守护")
    guarded = guard.targets[0] if guard else None
    if guard:
        board.note(f"(1) {guard.actor}守护{guarded}")
        board.set_state("守护上次", {"target": guarded, "night": board.night})
    kill = latest(actions, "杀人")
    if kill:
        victim = kill.targets[0]
        board.note(f"(2) 狼群杀害{victim}")
        if victim == guarded:
            board.survive(victim, "守卫<守护>")
        else:
            board.kill(victim, "杀人（狼群）")
    if kill and len(kill.targets) and kill.choice == "选择":
        board.ask("toy.choice", "随机选择一名存活的村民告知", [p.name for p in board.living() if p.faction == "村民"])
    if not any(p.alive for p in board.living() if p.faction == "狼人"):
        board.win("村民", "狼人全部出局", "狼人全部出局，村民获胜。", stop=True)


HOOKS = GameHooks(steps={"夜晚": night}, why={"夜晚": "测试用：守护挡刀与胜负判定写在代码里"})


TOY = Path(__file__).parent / "fixtures" / "night" / "toy"

GAME = """
[game]
name = "夜晚测试局"
ruleset = "toy.toml"
forum = "http://127.0.0.1:9/"
timezone = "Asia/Shanghai"
directors = ["导演A"]

[[players]]
name = "银鸦"
role = "狼人"
faction = "狼人"

[[players]]
name = "饺子"
role = "守卫"
faction = "村民"

[[players]]
name = "包子"
role = "村民"
faction = "村民"

[[players]]
name = "栗子"
role = "村民"
faction = "村民"

[[days]]
day = 1
discussion = 10
vote = [11]
opens = 2025-03-03T10:00:00+08:00
closes = 2025-03-03T21:00:00+08:00

[[days]]
day = 2
discussion = 12
vote = [13]
opens = 2025-03-04T10:00:00+08:00
closes = 2025-03-04T21:00:00+08:00

[[days]]
day = 3
discussion = 14
vote = [15]
opens = 2025-03-05T10:00:00+08:00
closes = 2025-03-05T21:00:00+08:00
"""


def toy_game(tmp_path: Path) -> Path:
    """A four-player game file on the toy ruleset, three days long, in ``tmp_path``."""
    for f in TOY.iterdir():
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "game.toml"
    path.write_text(GAME, "utf-8")
    return path
