"""M19『少年落落之烦恼』(luoluo-m19): the night and day settlement in the post's order.

The skills and their generic limits are data (``rulesets/night/luoluo-m19.toml``); this package
says what data cannot: the 结算顺序 (1)–(7) of 总体流程第4步 (:mod:`.night`), the setup choices
and day exits (:mod:`.day`), every exit's cascades and the win check (:mod:`.cascade`), the
morning 公示 and exit notices (:mod:`.report`), and the refusals only this post states
(:mod:`.refusals`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.night.board import Board, SettlementOver
from tracker.engine.night.games import GameHooks
from tracker.engine.night.games.luoluo_m19 import cascade, day, night, report
from tracker.engine.night.games.luoluo_m19.common import Ctx
from tracker.engine.night.games.luoluo_m19.refusals import refuse
from tracker.engine.night.model import Action


def resolve(board: Board, actions: Sequence[Action]) -> None:
    """Setup choices first (总体流程 1–2), then the night's steps or the day's exits, then the
    cascades' leftovers, the 公示 and the notices. A win stops the settlement where it happens
    ("宣布阵营获得胜利会立即终止一切结算"); the notices of the exits so far are still written."""
    ctx = Ctx(board=board, actions=list(actions),
              dead_at_start=[p.name for p in board.table.players.values() if not p.alive])
    cascade.install(ctx)
    try:
        day.setup(ctx)
        day.red_cards(ctx)
        if board.night is not None:
            night.run(ctx)
        else:
            day.run(ctx)
        day.wills_and_designs(ctx)
        day.leftovers(ctx)
    except SettlementOver:
        report.finish(ctx)
        raise
    report.finish(ctx)


def named(board: Board, actions: Sequence[Action]) -> None:
    """Lovers named before the game (``setup 情侣``, a scenario's ``state.情侣`` without their tags):
    made lovers by the arrow's steps "游戏开始时" — at the desk when recorded (``setup``), in a
    settlement before the refusals (``prepare``: the eloped wolf has no <杀人> that night)."""
    day.named_lovers(Ctx(board=board, actions=list(actions)))


HOOKS = GameHooks(
    resolve=resolve, refuse=refuse, prepare=named, setup=named,
    why={
        "resolve": "总体流程第4步（1）—（7）与出局连锁：殉情、遇难、激励、空救累计、私奔成黑情侣、"
                   "“宣布阵营获得胜利会立即终止一切结算” —— 情侣与人质的连锁改变阵营，效果词汇写不出",
        "prepare": "恋爱<强制> —— 开局设定的情侣在结算前成为情侣（拒绝依据结算开始时的阵营）",
        "setup": "恋爱<强制> —— 游戏开始时被丘比特选择的两名角色成为情侣 —— 导演以开局设定记下的情侣，"
                 "立即按双歧之箭的同一步骤（恋爱、私奔、双民变民）定阵营",
        "refuse": "绑匪的设计目标、寡妇刀、情侣技能的持有条件 —— 依赖开局设定与情侣关系，键写不出",
    })
