"""The hooks a game's data cannot say, behind one typed interface.

Most of a night is data: the skills' limits and effects and the post's settlement order, settled
by the generic engine (:mod:`tracker.engine.night.flow`). A ruleset whose post needs more (107's
致死伤害结算流程, M160's 醉酒/中毒 distortions, M65's 技能掠夺 …) has a hook package here, named by
its id (``luoluo-m19`` → ``tracker.engine.night.games.luoluo_m19``), which exports one
:class:`GameHooks` named ``HOOKS``. Each hook says, in ``why``, which clause it settles and why data
cannot express it. A ruleset without a package settles with the generic engine alone.

Two ways in. ``steps``: the generic engine walks the ruleset's ``[[steps]]`` and settles every skill
from its ``effects``; a step written ``hook = "name"`` is handed to ``steps["name"]`` with the
submissions of the skills it lists; the skills the game's code settles (those, and any a hook step
applies by itself) each give their reason in ``hooked``; ``void`` lets the post's own rules void a
skill data settles when its step comes (107: 翻转身份, 牵制, 潜行 reach 突击 and 安葬 as they reach the rest). ``resolve`` (older): the hook walks the whole phase itself, and every skill of the
game is settled by code. :mod:`tracker.engine.night.coverage` counts which is which for the
README's game × skill table.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from tracker.errors import RulesetError

if TYPE_CHECKING:
    from tracker.engine.night.board import Board
    from tracker.engine.night.catalog import Skill, Step
    from tracker.engine.night.effects import Pool, Use
    from tracker.engine.night.flow import Flow
    from tracker.engine.night.model import Action, Seat, Table
    from tracker.engine.state import GameState

#: Overrides of the naming convention: ruleset id -> the dotted path of its hook module.
MODULES: dict[str, str] = {}


class StepHook(Protocol):
    """One step of the post's order that data cannot say (``[[steps]] hook = "name"``), settled
    inside the generic engine's walk: ``flow`` gives its pending damage and protections (``pool``),
    its exits with their triggers (``out``) and its submissions; ``actions`` are the submissions of
    the skills the step lists, in submission order (the hook decides which of them count)."""

    def __call__(self, flow: Flow, step: Step, actions: Sequence[Action], /) -> None: ...


class Void(Protocol):
    """A rule of the post that voids a submission when its step comes, after the refusals let it in
    (107: a player who 翻转身份 has lost the skill, <牵制>, <潜行>/<超度>/<拓印> voiding the night's
    other skills): True when void. Asked by the generic engine before it settles a skill from its
    ``effects``; the hook says why in the log and spends what a voided use still spends."""

    def __call__(self, flow: Flow, action: Action, step: str, /) -> bool: ...


class Prepare(Protocol):
    """What the post settles before anyone chooses (107's <诅咒> "游戏日夜晚开始时"): the
    refusals then see the table as it stands after it."""

    def __call__(self, board: Board, actions: Sequence[Action], /) -> None: ...


class Refuse(Protocol):
    """A refusal only this post states: the reason in Chinese, or None."""

    def __call__(self, table: Table, action: Action, /) -> str | None: ...


class Surface(Protocol):
    """The faction and role a check of the 表面 sees (213 伪装（2）设置自己的表面阵营、表面身份)."""

    def __call__(self, seat: Seat, /) -> tuple[str, str]: ...


class Judged(Protocol):
    """The faction ``skill`` takes ``seat`` for when it judges by 实际阵营 (213 伪装（4）"在实际阵营为[村民阵营]的以
    [实际阵营]判断的技能中，以自己为村民阵营进行判定"): read by :func:`tracker.engine.night.sides.counts_in`."""

    def __call__(self, board: Board, seat: Seat, skill: Skill, /) -> str: ...


class SurfaceNow(Protocol):
    """The faction and role a check of the 表面 sees at this step of the phase, where the phase's own
    effects change it (M160 面具 "他在今晚的【表面阵营】变为【恶魔】", 明晰): ``pool`` holds them."""

    def __call__(self, board: Board, pool: Pool, seat: Seat, /) -> tuple[str, str]: ...


class WinView(Protocol):
    """What only a game's post can say to the win check (107: can the 亡灵 still come back)."""

    def __call__(self, board: Board, state: GameState, /) -> GameState: ...


class Aim(Protocol):
    """Where a data skill's effects aimed at ``target`` land, asked once per target before they apply:
    another player (M19 主人 "行使于忠犬身上的全部有效技能全部为主人所承受"), the target itself, or
    None — they do not take on anyone (M19 警觉 "此技能无效"). The hook writes its own log lines."""

    def __call__(self, board: Board, use: Use, target: str, /) -> str | None: ...


class Flipped(Protocol):
    """What a 翻转身份 (:func:`tracker.engine.night.flips.flip`) sets off in this game, right after it: ``before``
    is the player's (role, faction) before the flip (107: 灵能, a new 告死者, 天谴, 夜之眼)."""

    def __call__(self, board: Board, seat: Seat, before: tuple[str, str], cause: str, /) -> None: ...


class Preview(Protocol):
    """Who the damage pending so far would take out, by the game's own damage flow run dry (107 (11) "初步结算
    致死伤害和出局效应": its 致死伤害结算流程 up to check (4)), for a ``preview`` step; nothing is settled."""

    def __call__(self, flow: Flow, /) -> list[str]: ...


class Finish(Protocol):
    """What the game still writes when a win stops the settlement mid-way ("宣布阵营获得胜利会立即终止一切
    结算"): M19's 公示 and exit notices, whichever step the win came at (a data step's too)."""

    def __call__(self, board: Board, /) -> None: ...


class Grants(Protocol):
    """Skills a player may use this phase beyond his role's (a stolen or lent skill)."""

    def __call__(self, table: Table, /) -> Mapping[str, tuple[str, ...]]: ...


@dataclass(frozen=True, slots=True)
class GameHooks:
    """A game's hooks. ``why``: hook name → the clause it settles and why data cannot say it.

    ``steps`` (the steps the generic engine hands to the game's code) is never empty: a game whose
    night is data alone has no hook package at all."""

    why: Mapping[str, str]
    steps: Mapping[str, StepHook]
    refuse: Refuse | None = None
    void: Void | None = None
    grants: Grants | None = None
    prepare: Prepare | None = None
    win_view: WinView | None = None
    surface: Surface | None = None
    #: The faction a skill judging by 实际阵营 takes a player for (213 伪装（4）); None: his own.
    judged: Judged | None = None
    #: The 表面 as tonight's effects so far leave it (preferred to ``surface`` where the pool is known).
    surface_now: SurfaceNow | None = None
    #: What a fact the director records before the game sets off at once (M19: lovers named by
    #: ``setup 情侣`` make their factions then, "游戏开始时"), so the day's fold sees it from the start.
    setup: Prepare | None = None
    #: With ``steps``: where a data skill's effects land (see :class:`Aim`); None: on its targets.
    aim: Aim | None = None
    #: With ``steps``: skill → the clause and why data cannot say it, for every skill the code
    #: settles (those its hook steps list, and passive skills it applies inside them); every other
    #: skill of the night file is settled from its ``effects`` alone.
    hooked: Mapping[str, str] = field(default_factory=dict)
    #: What a 翻转身份 sets off in this game (see :class:`Flipped`); None: nothing beyond the flip.
    flipped: Flipped | None = None
    #: With ``steps``: what is still written when a win stops the settlement (see :class:`Finish`).
    finish: Finish | None = None
    #: With ``steps``: a ``preview`` step's list by the game's own damage flow (see :class:`Preview`); None: the
    #: generic dry run of ``resolve``.
    preview: Preview | None = None
    #: Team skill → the clause by which players who are not its roles come to hold it, for the team skills whose
    #: holders the ``refuse`` hook decides (213 接刀, M19 寡妇刀/忠犬). Every other team skill keeps the generic
    #: check: a submission naming a member who does not hold it is refused, whatever other hooks the game has.
    holders: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError("GameHooks: name the steps the game's code settles (steps); a game without any needs no hooks")


def module_name(ruleset_id: str) -> str:
    return MODULES.get(ruleset_id) or f"{__name__}.{ruleset_id.replace('-', '_')}"


def _has(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def hooks_for(ruleset_id: str) -> GameHooks | None:
    """The game's hooks, or None: the generic engine settles the night from data alone."""
    name = module_name(ruleset_id)
    if not _has(name):
        return None
    hooks = getattr(importlib.import_module(name), "HOOKS", None)
    if not isinstance(hooks, GameHooks):
        raise RulesetError(f"规则 {ruleset_id} 的钩子模块 {name} 没有导出 HOOKS（GameHooks）",
                           hint="在模块中写 HOOKS = GameHooks(steps={...}, why={...})")
    return hooks


def bundled_hook_owner(step: str) -> str | None:
    """The bundled game whose hook module settles a step of this name (``ruleset check``'s hint for a copy)."""
    from tracker.engine.night.catalog import NIGHT_DIR

    for path in sorted(NIGHT_DIR.glob("*.toml")):
        hooks = hooks_for(path.stem)
        if hooks is not None and step in hooks.steps:
            return path.stem
    return None


def code_for(ruleset_id: str, rule_hooks: str | None = None) -> list[str]:
    """The Python modules a ruleset needs beyond the generic engine: its night hook package, and
    the win-condition hooks its ruleset names (``hooks = "…"``). ``[]``: the game is data alone."""
    out = [module_name(ruleset_id)] if _has(module_name(ruleset_id)) else []
    if rule_hooks is not None:
        out.append("tracker.engine.rulesets.hooks")
    return out
