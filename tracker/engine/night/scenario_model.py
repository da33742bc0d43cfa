"""The night scenario format as one pydantic model: what ``tracker night simulate`` reads.

The same model checks a file and writes ``scenario.schema.json`` (``python -m
tracker.engine.ruleset_docs``; a test holds the committed one equal), as the ruleset's model does for
its files: the shared vocabulary of state keys and player fields (``shared/night/README.md`` "State
keys", "One vocabulary for every game") is written once, here. For the five seed posts (``game`` =
the post's file name) the players and the state are narrowed to the post's words
(:mod:`tracker.engine.night.scenario_words`), read from the validation context that
:func:`tracker.engine.night.scenario.validate` gives.

A key left out and a key written ``null`` differ: only the state keys the vocabulary says may be
null take it (``神眷者: null``, the holder gone); any other optional key is simply left out.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
    ValidationInfo,
    model_validator,
)
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

from tracker.engine.night.scenario_words import SEED_WORDS, DNF107Role, Faction, M65Role, M160Role, SeedWords

#: A key that may be left out but is never ``null`` (the schema does not offer null).
Absent = SkipJsonSchema[None]


def _unique(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for v in values:
        if v in seen:
            raise ValueError(f"{v!r} 出现了不止一次")
        seen.append(v)
    return values


T = TypeVar("T")
#: A list whose items are all different (JSON Schema's uniqueItems).
Unique = Annotated[list[T], AfterValidator(_unique), Field(json_schema_extra={"uniqueItems": True})]
Pid = Annotated[str, StringConstraints(pattern=r"^P[0-9]{2}$"), Field(description="a player id, P01…Pn")]
Pids = Annotated[Unique[Pid], Field(description="a list of player ids")]
Number = Annotated[int, Field(ge=1, description="a night or day number")]
Count = Annotated[int, Field(ge=0)]
Word = Annotated[str, StringConstraints(min_length=1)]
Phase = Literal["夜晚", "白天", "晨曦", "正午", "黄昏", "关门", "游戏开始前"]
ACTOR = r"^(P[0-9]{2}([+,]P[0-9]{2})*|狼群(\(P[0-9]{2}(,P[0-9]{2})*\))?|导演|放逐投票)$"
_ONE_OF_NIGHT_DAY: JsonDict = {"oneOf": [{"required": ["night"]}, {"required": ["day"]}]}


def _words(info: ValidationInfo) -> SeedWords | None:
    ctx = info.context if isinstance(info.context, dict) else {}
    words = ctx.get("seed")
    return words if isinstance(words, SeedWords) else None


class _Obj(BaseModel):
    """A JSON object of the format: strict types (``"3"`` is not a number, ``1`` not ``true``)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    @classmethod
    @cache
    def _not_null(cls) -> frozenset[str]:
        """The optional keys declared ``T | Absent``: written ``null`` they are refused, not read as absent."""
        out = set()
        for name, field in cls.model_fields.items():
            args = typing.get_args(field.annotation) if typing.get_origin(field.annotation) in (
                typing.Union, types.UnionType) else ()
            if any(typing.get_origin(a) is Annotated and typing.get_args(a)[0] is type(None) for a in args):
                out.add(field.alias or name)
        return frozenset(out)

    @model_validator(mode="before")
    @classmethod
    def _no_null(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in cls._not_null():
                if key in data and data[key] is None:
                    raise ValueError(f"{key} 不能为 null（没有就不写这个键）")
        return data


def _one_of_night_day(model: _Obj) -> None:
    if (getattr(model, "night", None) is None) == (getattr(model, "day", None) is None):
        raise ValueError("night 和 day 必须写且只写一个")


class WhenT(_Obj):
    """when something happened: exactly one of night / day (the number), with an optional cause (a skill
    of the post, or 投票 / 红牌 / 最后一票)"""

    model_config = ConfigDict(json_schema_extra=_ONE_OF_NIGHT_DAY)
    night: Number | Absent = None
    day: Number | Absent = None
    cause: Word | Absent = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        _one_of_night_day(self)
        return self


# -- state values ----------------------------------------------------------------------------------

class RelicSinceT(_Obj):
    """the night or day during or at the end of which the holder got the relic, and how"""

    model_config = ConfigDict(json_schema_extra=_ONE_OF_NIGHT_DAY)
    night: Number | Absent = None
    day: Number | Absent = None
    by: Literal["藏匿", "灾厄", "馈赠", "探查", "诈骗", "权术", "教化"] | Absent = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        _one_of_night_day(self)
        return self


class RelicT(_Obj):
    """107's [亡灵圣物]: its holder and the curses left"""

    holder: Pid
    诅咒剩余次数: Count
    since: RelicSinceT | Absent = None


class GayLoversT(_Obj):
    """M19 基佬情深"""

    类型: Literal["基佬情深"]
    攻: Pid
    受: Pid


class DogLoversT(_Obj):
    """M19 人狗情未了"""

    类型: Literal["人狗情未了"]
    主人: Pid
    忠犬: Pid


class NightMarkT(_Obj):
    """a night (激励: the night on which the wolves may use <杀人> once more)"""

    night: Number


class TargetNightT(_Obj):
    """a skill's last target and night"""

    target: Pid
    night: Number


class NightMaybeTargetT(_Obj):
    """the night a skill took effect, and its target where it had one"""

    target: Pid | Absent = None
    night: Number


class TargetDayT(_Obj):
    """a day skill's last target and day"""

    target: Pid
    day: Number


class DayMaybeTargetT(_Obj):
    """last <牵制>"""

    target: Pid | Absent = None
    day: Number


class BountyT(_Obj):
    """last <悬赏> and its feedback"""

    target: Pid
    成功: bool | Absent = None
    night: Number


class GraceT(_Obj):
    """the first 村民 who used <祝福> on the 神启者"""

    player: Pid
    night: Number


class PlunderT(_Obj):
    """last <技能掠夺>"""

    target: Pid
    猜测: M65Role | Absent = None
    成功: bool | Absent = None
    night: Number


class RewindT(_Obj):
    """last <时间回溯>"""

    target: Pid
    night: Number
    技能: Annotated[Word, Field(description="the target's skill named (次日可以额外使用一次)")] | Absent = None


class LostT(_Obj):
    """M160 迷失: the 煤气灯人, the 村民 lost, whether found again"""

    煤气灯人: Pid
    村民: Pid
    寻回: bool


class PotionT(_Obj):
    """one night of <药剂>"""

    清醒: Pid
    醉酒: Pid
    night: Number


def _state_word(description: str) -> Any:
    return Field(default=None, description=description)


class StateT(_Obj):
    """game-wide facts; see README "State keys" """

    model_config = ConfigDict(extra="allow")
    神眷者: Pid | None = None
    恶徒首领: Pid | None = None
    告死者: Pid | None = None
    警长: Pid | None = None
    牧首: Pid | None = None
    亡灵圣物: RelicT | Absent = None
    情侣: GayLoversT | DogLoversT | Absent = None
    空救: dict[Pid, Count] | Absent = None
    激励: NightMarkT | Absent = _state_word("the night on which the wolves may use <杀人> once more")
    殉情夜: dict[Pid, Annotated[int, Field(ge=1)]] | Absent = _state_word(
        "each 忠犬's last night after his 主人's exit: he holds <杀人> then and goes out by <殉情> at its end")
    红牌: dict[Faction, Count] | Absent = None
    判负阵营: Unique[Faction] | Absent = None
    初始邪恶人数: Annotated[int, Field(ge=1)] | Absent = None
    座次环形: bool | Absent = None
    迷失: LostT | Absent = None
    丑角: Pids | Absent = None
    存活: Pids | Absent = None
    死亡未出局: Pids | Absent = None
    药剂历史: list[PotionT] | Absent = None
    深青之桩已选择: Pids | Absent = None
    天枢剑圣已选择: Pids | Absent = None
    守护上次: TargetNightT | None = _state_word("last <守护>")
    悬赏上次: BountyT | None = None
    面具上次: TargetNightT | None = _state_word("last <面具>")
    毒害上次: NightMaybeTargetT | None = _state_word("when <毒害> took effect")
    祝福上次: TargetNightT | None = _state_word("the player the <祝福> effect applied to")
    恩典首次: GraceT | None = None
    教化上次: TargetDayT | None = _state_word("last <教化>")
    牵制上次: DayMaybeTargetT | None = None
    蓄力斩上次: NightMaybeTargetT | None = _state_word("last <蓄力斩>")
    长寿上次: NightMarkT | None = _state_word("when <长寿> took effect")
    技能掠夺上次: PlunderT | None = None
    时间回溯上次: RewindT | None = None
    天璇紫后上次: TargetDayT | None = _state_word("last <天璇紫后>")
    机械制造上次: NightMarkT | None = _state_word("the night <机械制造> unlocked <最后一枪>")
    飞行头槌上次: TargetDayT | None = _state_word("last <飞行头槌> (not the same target twice running)")
    枯竭生效: dict[Pid, Number] | Absent = _state_word(
        "M65: players whose 枯竭 <净化之焰>/<辐射炫惑>, declared the night before, is in effect, and on which 游戏日")
    放逐投票无效: Number | None = _state_word(
        "213: the day whose 放逐投票 a successful <决斗> voided (当天所进行的放逐投票无效), when 正午 and 黄昏 settle apart")
    占卜问题: dict[str, dict[str, JsonValue]] | Absent = _state_word(
        "M160 (package addition): each 化梦师's last 【占卜】 question, {\"问题\", \"night\"} by player — never the same "
        "question within a pair of nights")
    神游已选择: dict[str, list[str]] | Absent = _state_word(
        "M160 (package addition): the players each 漫步者's 【神游】 has already chosen (never twice)")
    中立判胜人数: Count | Absent = _state_word(
        "107 (package addition): how many living players 中立 needs to win (7, +2 each time 夜之牙 takes an 亡灵 out)")
    亡灵圣物认主: str | None = _state_word(
        "107 (package addition): the human the [亡灵圣物] has taken as its master (认主)")
    出局顺序: list[str] | Absent = _state_word(
        "M19 (package addition): the players in the order they went out, so exits of one day or night keep their "
        "order (遗言：\"靠前出局且可以留下遗言的角色\")")

    @model_validator(mode="after")
    def _the_posts_words(self, info: ValidationInfo) -> Self:
        words = _words(info)
        if words is None:
            return self
        given = {*self.model_fields_set, *(self.model_extra or {})}
        extra = sorted(given - set(words.state_keys))
        if extra:
            raise ValueError(f"状态键 {'、'.join(extra)} 不在该规则帖的词汇中（可用：{'、'.join(words.state_keys)}）")
        for faction in [*(self.判负阵营 or ()), *(self.红牌 or {})]:
            if faction not in words.factions:
                raise ValueError(f"阵营 {faction} 不在该规则帖中（可用：{'、'.join(words.factions)}）")
        return self


# -- players ---------------------------------------------------------------------------------------

class UsesT(_Obj):
    """integer: uses (or triggers) left; boolean: the skill is still held"""

    model_config = ConfigDict(extra="allow")
    #: a skill of a game outside the five seed posts: a count or a flag
    __pydantic_extra__: dict[str, Count | bool] = Field(init=False)
    # the five seed posts' skills (scenario_words.SEED_WORDS), each a count (uses left) ...
    突击: Count | Absent = None
    圣光天启: Count | Absent = None
    潜行: Count | Absent = None
    超度: Count | Absent = None
    诈骗: Count | Absent = None
    拓印: Count | Absent = None
    偷袭: Count | Absent = None
    死灵咒: Count | Absent = None
    初拥: Count | Absent = None
    暗日: Count | Absent = None
    长寿: Count | Absent = None
    夜之隐: Count | Absent = None
    防反: Count | Absent = None
    救药: Count | Absent = None
    毒药: Count | Absent = None
    报复: Count | Absent = None
    灭口: Count | Absent = None
    绑架: Count | Absent = None
    算计: Count | Absent = None
    夺刀: Count | Absent = None
    毒害: Count | Absent = None
    狂乱: Count | Absent = None
    绝对切割: Count | Absent = None
    缥缈永恒: Count | Absent = None
    机械制造: Count | Absent = None
    票权掠夺: Count | Absent = None
    空之瞭望: Count | Absent = None
    净化之焰: Count | Absent = None
    辐射炫惑: Count | Absent = None
    # ... or a flag (still held)
    灵通: bool | Absent = None
    通灵: bool | Absent = None
    警觉: bool | Absent = None
    设计: bool | Absent = None
    遇难: bool | Absent = None
    遗志: bool | Absent = None
    天枢剑圣: bool | Absent = None
    天璇紫后: bool | Absent = None
    最后一枪: bool | Absent = None
    绝对防御: bool | Absent = None


class DisguiseT(_Obj):
    """213 伪装: one option taken"""

    option: Annotated[int, Field(ge=1, le=5)]
    night: Number | Absent = None
    表面阵营: str | Absent = None
    表面身份: str | Absent = None


class PlayerT(_Obj):
    """one seat: the core fields every game reads, then the vocabulary's player fields"""

    model_config = ConfigDict(extra="allow")
    name: Pid
    role: Word
    faction: Word
    alive: bool | Absent = None
    state: Literal["存活", "死亡", "出局"] | Absent = None
    type: Literal["村民", "外来者", "爪牙", "恶魔"] | Absent = None
    seat: Annotated[int, Field(ge=1)] | Absent = None
    elevator: Annotated[int, Field(ge=1)] | Absent = None
    tags: Unique[Word] | Absent = None
    status: Unique[Word] | Absent = None
    uses: UsesT | Absent = None
    believes: M160Role | Absent = None
    choice: Literal["持续", "持续(3)", "枯竭"] | Absent = None
    note: str | Absent = None
    出局: WhenT | Absent = None
    死亡: WhenT | Absent = None
    原身份: DNF107Role | Absent = None
    已翻牌: bool | Absent = None
    伪装: list[DisguiseT] | Absent = None
    伪装未选: Unique[Annotated[int, Field(ge=1, le=5)]] | Absent = None
    英雄: Pid | Absent = None
    设计目标: Pid | Absent = None
    掠夺成功: Pids | Absent = None

    @model_validator(mode="after")
    def _the_posts_words(self, info: ValidationInfo) -> Self:
        words = _words(info)
        if words is None:
            return self
        given = {*self.model_fields_set, *(self.model_extra or {})}
        missing = [f for f in words.required if f not in given]
        if missing:
            raise ValueError(f"该规则帖的玩家必须写 {'、'.join(missing)}")
        extra = sorted(given - set(words.fields))
        if extra:
            raise ValueError(f"字段 {'、'.join(extra)} 不在该规则帖的词汇中（可用：{'、'.join(words.fields)}）")
        for kind, names, allowed in (("身份", [self.role], words.roles), ("阵营", [self.faction], words.factions),
                                     ("标记", self.tags or [], words.tags), ("状态", self.status or [], words.statuses),
                                     ("技能次数", [*(self.uses.model_fields_set if self.uses else ()),
                                               *((self.uses.model_extra or {}) if self.uses else ())], words.uses)):
            for name in names:
                if name not in allowed:
                    raise ValueError(f"{kind} {name!r} 不在该规则帖中（可用：{'、'.join(allowed) or '无'}）")
        return self


# -- the scenario ----------------------------------------------------------------------------------

class SetupT(_Obj):
    """the table before the settlement: exactly one of night / day"""

    model_config = ConfigDict(json_schema_extra=_ONE_OF_NIGHT_DAY)
    night: Number | Absent = None
    day: Number | Absent = None
    phase: Literal["晨曦", "正午", "黄昏", "关门"] | Absent = None
    players: Annotated[list[PlayerT], Field(min_length=1)]
    state: StateT
    carried: Annotated[list[str], Field(description="the history in words, for humans; an engine reads state and "
                                                    "players")] | Absent = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        _one_of_night_day(self)
        return self


class ActionT(_Obj):
    """one submission"""

    actor: Annotated[str, StringConstraints(pattern=ACTOR), Field(
        description="a player, several players (P03+P04, P11,P12), a team (狼群 or 狼群(P10,P11)), 导演 (a card) or "
                    "放逐投票 (the day vote)")]
    skill: Annotated[Word, Field(description="the skill as the rule post names it")]
    targets: list[Pid] | Absent = None
    choice: str | Absent = None
    phase: Annotated[Phase, Field(description="when the action is taken, in the post's words; absent: the setup's "
                                              "night (or day)")] | Absent = None
    note: str | Absent = None


def _words_or_none(words: tuple[str, ...]) -> dict[str, Any]:
    return {"items": {"enum": list(words)}} if words else {"maxItems": 0}


def _seed_conditions(schema: dict[str, Any]) -> None:
    """One ``if game … then`` per seed post: the JSON Schema's way of saying what the validators check."""
    defs = schema.setdefault("$defs", {})
    schema["allOf"] = []
    for game, w in SEED_WORDS.items():
        defs[f"player_{w.key}"] = {
            "required": list(w.required), "propertyNames": {"enum": list(w.fields)},
            "properties": {"role": {"enum": list(w.roles)}, "faction": {"enum": list(w.factions)},
                           "tags": _words_or_none(w.tags), "status": _words_or_none(w.statuses),
                           "uses": {"propertyNames": {"enum": list(w.uses)}}}}
        defs[f"state_{w.key}"] = {
            "propertyNames": {"enum": list(w.state_keys)},
            "properties": {"判负阵营": {"items": {"enum": list(w.factions)}},
                           "红牌": {"propertyNames": {"enum": list(w.factions)}}}}
        schema["allOf"].append({
            "if": {"required": ["game"], "properties": {"game": {"const": game}}},
            "then": {"properties": {"setup": {"properties": {
                "players": {"items": {"$ref": f"#/$defs/player_{w.key}"}},
                "state": {"$ref": f"#/$defs/state_{w.key}"}}}}}})
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"


class ScenarioT(_Obj):
    """Validates a scenario of shared/night/examples.json (or any object with game, setup and actions).
    game selects the rule post and narrows roles, factions, tags, status, uses and state keys to that
    game. The output fields (expected, not_asserted, clauses, confidence, ambiguity) are accepted but
    not described here. Vocabulary: README "State keys"."""

    model_config = ConfigDict(title="Night-settlement scenario: the input an engine reads (setup and actions)")
    game: Annotated[Word, Field(
        description="the rule post's file name in shared/rules/ (the five seed games), or a ruleset id (e.g. "
                    "werewolf-12); for the five seed files the vocabulary below is narrowed to that post's names, "
                    "for any other game the engine checks the names against the ruleset's own")] | Absent = None
    id: str | Absent = None
    title: str | Absent = None
    setup: SetupT
    actions: list[ActionT]
    expected: JsonValue = None
    not_asserted: JsonValue = None
    clauses: JsonValue = None
    confidence: JsonValue = None
    ambiguity: JsonValue = None

    #: The output fields: accepted, never read.
    OUTPUTS: ClassVar[tuple[str, ...]] = ("expected", "not_asserted", "clauses", "confidence", "ambiguity")


def scenario_schema() -> dict[str, Any]:
    """``scenario.schema.json``: the model's schema with the seed posts' conditions."""
    schema = ScenarioT.model_json_schema()
    _seed_conditions(schema)
    return schema


def seed_context(data: Any) -> dict[str, SeedWords | None]:
    """The validation context for ``data``: the seed post's words when its ``game`` names one."""
    game = data.get("game") if isinstance(data, dict) else None
    return {"seed": SEED_WORDS.get(game) if isinstance(game, str) else None}


def player_fields() -> frozenset[str]:
    """Every player field of the vocabulary."""
    return frozenset(PlayerT.model_fields)


def state_keys() -> frozenset[str]:
    """Every state key of the vocabulary."""
    return frozenset(StateT.model_fields)
