"""Roles' skills as data: one night file per ruleset (``rulesets/night/<id>.toml``).

Every legality rule a rule post states in the same shape for many skills — who holds the skill,
in which phase, how many targets, 限定 uses, "*" (not on the first night), not the same target
twice running, once every N nights, self-targeting — is a key of the skill's entry, with the
post's sentence beside it in ``clause``. :mod:`tracker.engine.night.checks` reads these keys and
nothing else decides them; what a key cannot say (the settlement order's interactions) is the
game's hook module under :mod:`tracker.engine.night.games`.

A night file::

    ruleset = "luoluo-m19"
    order = ["杀人", "救治", "救药", "预言", "灭口", "毒药"]   # the post's 结算顺序, for the log
    exile_skill = "投票出局"      # tracker confirm submits the vote's exile as this skill
    red_card_skill = "红牌罚下"   # tracker card issue submits a red card's 出局 as this skill

    [[skills]]
    name = "救治"
    roles = ["医生"]
    phase = "night"          # night | day | 晨曦 | 正午 | 黄昏 | setup | passive | any
    kind = "普通"            # 强制 | 限定 | 普通 | 团队 | 被动 (the post's own mark)
    targets = 1              # or min_targets / max_targets
    clause = "救治 —— 游戏日夜晚，医生选择一名角色……"
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from tracker.errors import RulesetError

NIGHT_DIR = Path(__file__).resolve().parent.parent / "rulesets" / "night"

#: ``any``: 游戏日任意时刻 — the skill may be used in every phase of a game day (day and night).
PHASES = ("night", "day", "晨曦", "正午", "黄昏", "关门", "setup", "passive", "any")
KINDS = ("强制", "限定", "普通", "团队", "被动", "触发", "翻牌", "锁定")
SELF = ("allowed", "never", "first_night", "only")

_SKILL_KEYS = {
    "name", "roles", "team", "phase", "kind", "targets", "min_targets", "max_targets", "uses",
    "not_first_night", "first_night_only", "from_night", "self_target", "no_repeat", "cooldown",
    "cooldown_key", "target_dead", "target_alive_or_dead", "step", "clause", "note", "aliases",
    "actor_may_be_dead", "lethal", "feedback", "count", "gained", "phases", "tag", "next_day",
}


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill of a rule post, with the generic limits the post puts on it.

    ``uses``: the key of :attr:`Seat.uses` that counts it (a limited skill refuses at 0 / False);
    None when the post sets no count. ``count``: what that key holds when the game starts (the
    post's [X], 1 for 限一次, true for a skill held until lost); 1 when ``uses`` is set and it is not.
    ``no_repeat``: the ``state`` key holding ``{target, night}`` of its last use (守护上次), refused
    when the same target comes again the next night.
    ``cooldown``: at least this many nights (days) between two uses, counted from ``cooldown_key``.
    ``gained``: players outside ``roles`` may come to hold the skill in play (寡妇刀, 接刀, a lover's
    or a tag's skill such as 警长<殉职>); the generic holder check then lets the submission through
    and the game's ``refuse`` hook decides who holds it now.
    ``phases``: every phase the skill may be used in, for a skill the post marks with several
    (213's ``报复[晨曦][黄昏]``); empty means ``phase`` alone.
    ``tag``: a mark that carries the skill whoever holds it (107 亡灵圣物's 灾厄, 神眷者's 传承):
    the holder of the tag holds the skill, whatever the role.
    ``next_day``: a night submission that also acts in the next day's settlement (107's 陷阱 "次日
    白天被投票出局后", 诡辩 "次日投票阶段"): the desk hands it to that day with ``phase = "night"``.
    """

    name: str
    roles: tuple[str, ...] = ()
    team: str | None = None
    phase: str = "night"
    kind: str = "普通"
    min_targets: int = 0
    max_targets: int = 0
    uses: str | None = None
    count: int | bool | None = None
    not_first_night: bool = False
    first_night_only: bool = False
    from_night: int | None = None
    self_target: str = "allowed"
    no_repeat: str | None = None
    cooldown: int | None = None
    cooldown_key: str | None = None
    target_dead: bool = False
    target_alive_or_dead: bool = False
    actor_may_be_dead: bool = False
    lethal: bool = False
    gained: bool = False
    step: str | None = None
    tag: str | None = None
    aliases: tuple[str, ...] = ()
    clause: str = ""
    note: str = ""
    phases: tuple[str, ...] = ()
    next_day: bool = False

    @property
    def allowed_phases(self) -> tuple[str, ...]:
        """The phases a submission of this skill may name: ``phases``, else ``phase``."""
        return self.phases or (self.phase,)


@dataclass(frozen=True, slots=True)
class Catalog:
    """A ruleset's skills, by name and alias, and the post's settlement order."""

    ruleset: str
    skills: Mapping[str, Skill]
    order: tuple[str, ...] = ()
    scenario_game: str | None = None
    #: True where night N comes before day N (213: 首夜, then 第1天 the 竞选日); else night N follows day N.
    night_precedes_day: bool = False
    #: The skills the day's own results are submitted as, so what an exit sets off (殉情, 遇难, 接刀,
    #: 报复, 诡辩, a 决斗 voiding the vote, the win check) is settled by the same engine in the post's
    #: order: ``tracker confirm``'s exile (``exile_skill``) and a red card's 出局 (``red_card_skill``).
    #: None: the post settles that exit elsewhere (M160's vote deaths open the next night) or the
    #: director records what follows it.
    exile_skill: str | None = None
    red_card_skill: str | None = None

    def exit_skill(self, kind: str) -> str | None:
        """The skill a day's exit is submitted as: ``exile`` (the vote's) or ``red_card``."""
        return self.exile_skill if kind == "exile" else self.red_card_skill

    def skill(self, name: str) -> Skill:
        found = self.skills.get(name)
        if found is not None:
            return found
        for s in self.skills.values():
            if name in s.aliases:
                return s
        near = difflib.get_close_matches(name, self.names(), n=3, cutoff=0.3)
        raise RulesetError(f"规则 {self.ruleset} 中没有技能 {name!r}",
                           hint=(f"最接近的：{'、'.join(near)}" if near else f"可用的技能：{'、'.join(self.names())}"))

    def names(self) -> list[str]:
        return list(self.skills)

    def skills_of(self, role: str) -> list[Skill]:
        return [s for s in self.skills.values() if role in s.roles]


def _count(raw: Mapping[str, Any], where: str, src: str) -> int | bool | None:
    count = raw.get("count", 1 if raw.get("uses") is not None else None)
    if count is not None and (not isinstance(count, int) or (not isinstance(count, bool) and count < 0)):
        raise RulesetError(f"{src}: {where}.count 应是不小于 0 的整数或 true/false", hint="例如 count = 2（[2]）")
    return count  # type: ignore[no-any-return]


def _skill(raw: Any, where: str, src: str) -> Skill:
    if not isinstance(raw, dict):
        raise RulesetError(f"{src}: {where} 应是一个表")
    unknown = sorted(set(raw) - _SKILL_KEYS)
    if unknown:
        near = difflib.get_close_matches(unknown[0], sorted(_SKILL_KEYS), n=1)
        raise RulesetError(f"{src}: {where} 不认识的键 {unknown[0]!r}",
                           hint=f"是不是想写 `{near[0]}`？" if near else f"可用的键：{', '.join(sorted(_SKILL_KEYS))}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise RulesetError(f"{src}: {where} 缺少 name", hint='写成 name = "救治"')
    phase = raw.get("phase", "night")
    if phase not in PHASES:
        raise RulesetError(f"{src}: {where}.phase = {phase!r} 不可用", hint=f"可选：{' / '.join(PHASES)}")
    kind = raw.get("kind", "普通")
    if kind not in KINDS:
        raise RulesetError(f"{src}: {where}.kind = {kind!r} 不可用", hint=f"可选：{' / '.join(KINDS)}")
    phases = raw.get("phases", [])
    if not isinstance(phases, list) or any(p not in PHASES for p in phases):
        raise RulesetError(f"{src}: {where}.phases 应是阶段的列表", hint=f"可选：{' / '.join(PHASES)}")
    self_target = raw.get("self_target", "allowed")
    if self_target not in SELF:
        raise RulesetError(f"{src}: {where}.self_target = {self_target!r} 不可用", hint=f"可选：{' / '.join(SELF)}")
    n = raw.get("targets")
    lo_raw = raw.get("min_targets", n if n is not None else 0)
    hi_raw = raw.get("max_targets", n if n is not None else lo_raw)
    for key, value in (("min_targets", lo_raw), ("max_targets", hi_raw)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RulesetError(f"{src}: {where}.{key} 应是不小于 0 的整数")
    lo, hi = cast(int, lo_raw), cast(int, hi_raw)
    if hi < lo:
        raise RulesetError(f"{src}: {where} 的 max_targets 小于 min_targets")
    roles = raw.get("roles", [])
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise RulesetError(f"{src}: {where}.roles 应是身份名的列表", hint='写成 roles = ["医生"]')
    if not roles and not raw.get("team") and not raw.get("tag"):
        raise RulesetError(f"{src}: {where} 既没有 roles 也没有 team 或 tag",
                           hint="写明哪些身份（或哪个团队、哪个标记）拥有这个技能")
    return Skill(
        name=name, roles=tuple(roles), team=raw.get("team"), phase=phase, kind=kind, min_targets=lo,
        max_targets=hi, uses=raw.get("uses"), count=_count(raw, where, src),
        not_first_night=bool(raw.get("not_first_night", False)),
        first_night_only=bool(raw.get("first_night_only", False)), from_night=raw.get("from_night"),
        self_target=self_target, no_repeat=raw.get("no_repeat"), cooldown=raw.get("cooldown"),
        cooldown_key=raw.get("cooldown_key"), target_dead=bool(raw.get("target_dead", False)),
        target_alive_or_dead=bool(raw.get("target_alive_or_dead", False)),
        actor_may_be_dead=bool(raw.get("actor_may_be_dead", False)), lethal=bool(raw.get("lethal", False)),
        gained=bool(raw.get("gained", False)), step=raw.get("step"), tag=raw.get("tag"),
        aliases=tuple(raw.get("aliases", ())), clause=raw.get("clause", ""), note=raw.get("note", ""),
        phases=tuple(phases), next_day=bool(raw.get("next_day", False)))


def parse_catalog(data: Mapping[str, Any], src: str, roles: Sequence[str] = ()) -> Catalog:
    """Validate a decoded night file; ``roles`` (the ruleset's) catch a misspelt holder."""
    rid = data.get("ruleset")
    if not isinstance(rid, str):
        raise RulesetError(f"{src}: 缺少 ruleset（规则的 id）", hint='写成 ruleset = "luoluo-m19"')
    top = ("ruleset", "order", "skills", "scenario_game", "night_precedes_day", "exile_skill", "red_card_skill")
    unknown = sorted(set(data) - set(top))
    if unknown:
        raise RulesetError(f"{src}: 不认识的键 {unknown[0]!r}", hint=f"可用的键：{', '.join(top)}")
    skills: dict[str, Skill] = {}
    for i, raw in enumerate(data.get("skills", []), 1):
        s = _skill(raw, f"skills[{i}]", src)
        if s.name in skills:
            raise RulesetError(f"{src}: 技能 {s.name!r} 写了两次")
        for r in s.roles:
            if roles and r not in roles:
                near = difflib.get_close_matches(r, list(roles), n=1)
                raise RulesetError(f"{src}: skills[{i}]（{s.name}）的身份 {r!r} 不在规则的 [[roles]] 中",
                                   hint=f"是不是想写 `{near[0]}`？" if near else None)
        skills[s.name] = s
    for key in ("exile_skill", "red_card_skill"):
        named = data.get(key)
        if named is not None and named not in skills:
            raise RulesetError(f"{src}: {key} = {named!r} 不是本文件的技能",
                               hint="写成 [[skills]] 中某个技能的 name（白天投票出局、红牌罚下作为该技能提交给结算）")
    return Catalog(ruleset=rid, skills=skills, order=tuple(data.get("order", ())),
                   scenario_game=data.get("scenario_game"),
                   night_precedes_day=bool(data.get("night_precedes_day", False)),
                   exile_skill=data.get("exile_skill"), red_card_skill=data.get("red_card_skill"))


@cache
def load_catalog(ruleset_id: str, path: Path | None = None, roles: tuple[str, ...] = ()) -> Catalog:
    """The night file of a ruleset: ``path`` when the ruleset names one, else the bundled file."""
    p = path if path is not None else NIGHT_DIR / f"{ruleset_id}.toml"
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise RulesetError(f"规则 {ruleset_id} 还没有夜晚技能文件（{p.name}）",
                           hint="夜晚结算需要规则的技能数据：rulesets/night/<规则 id>.toml") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"夜晚技能文件 {p.name} 的 TOML 语法错误：{exc}") from None
    return parse_catalog(data, p.name, roles)
