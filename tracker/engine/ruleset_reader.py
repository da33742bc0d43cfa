"""Reading a decoded ruleset file into a :class:`~tracker.engine.ruleset_schema.Ruleset`, checking every key.

Kept apart from the schema because validation is most of the code: each mistake a director can make
in a ruleset file gets a :class:`RulesetError` naming the dotted key, the fix and, for typos, the
nearest valid word. :func:`parse_ruleset` is re-exported by :mod:`tracker.engine.ruleset`.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import Field, TypeAdapter, ValidationError

from tracker.engine.ruleset_schema import (
    AccelChanges,
    CardRules,
    CheckTiming,
    Condition,
    DayRules,
    Election,
    Faction,
    ForbiddenCategory,
    LurkRules,
    ModifierEffect,
    ModifierSpec,
    Option,
    PerDeadBonus,
    PlayerSet,
    PublicationRules,
    RedConsequence,
    RedSettled,
    RequestThreshold,
    Role,
    RoleGroup,
    Ruleset,
    SpeechRules,
    TagRule,
    Threshold,
    Tie,
    VotingRules,
    WeightRule,
    WinPolicy,
    WinResult,
    WinRule,
)
from tracker.errors import RulesetError

# ---------------------------------------------------------------------------------------------
# Parsing: one small reader per table, each naming the dotted key in its errors. Every value goes
# through a pydantic v2 schema in strict mode, with bounds (no negative count or minute, a player
# count of at least one): the reader only says, in the director's words, which key and what fix.

_MAX_INT = 1_000_000
_KINDS: dict[str, Any] = {"str": str, "int": int, "float": float, "bool": bool, "strs": list[str]}


@lru_cache(maxsize=64)
def _adapter(kind: str, ge: float | None, le: float | None) -> TypeAdapter[Any]:
    base = _KINDS[kind]
    if ge is None and le is None:
        return TypeAdapter(base)
    return TypeAdapter(Annotated[base, Field(ge=ge, le=le)])  # type: ignore[arg-type]


class _Reader:
    """Typed access to one TOML table with errors that name the key and show an example."""

    def __init__(self, data: Any, where: str, allowed: set[str], src: str) -> None:
        if not isinstance(data, dict):
            raise RulesetError(f"{src}: {where} 应是一个表（[{where}]）", hint=f"写成 [{where}] 加键值行")
        self.data = data
        self.where = where
        self.src = src
        for k in sorted(set(data) - allowed):
            near = difflib.get_close_matches(k, sorted(allowed), n=1)
            hint = f"是不是想写 `{near[0]}`？" if near else f"{where} 可用的键：{', '.join(sorted(allowed))}"
            raise RulesetError(f"{src}: {where}.{k} 不是可识别的键", hint=hint)

    def _err(self, key: str, want: str, example: str) -> RulesetError:
        return RulesetError(f"{self.src}: {self.where}.{key} 应为{want}，实际是 {self.data.get(key)!r}",
                            hint=f"例如：{key} = {example}")

    def _valid(self, key: str, v: Any, kind: str, want: str, example: str, ge: float | None = None,
               le: float | None = None) -> Any:
        """``v`` through the pydantic schema for ``kind`` (strict: ``"3"`` is no number, ``1`` no bool)."""
        try:
            return _adapter(kind, ge, le).validate_python(v, strict=True)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            bound = {"greater_than_equal": f"不能小于 {ge:g}" if ge is not None else "",
                     "less_than_equal": f"不能大于 {le:g}" if le is not None else ""}.get(first["type"])
            if bound:
                raise RulesetError(f"{self.src}: {self.where}.{key} 的值 {v!r} {bound}",
                                   hint=f"例如：{key} = {example}") from None
            raise self._err(key, want, example) from None

    def need(self, key: str, example: str) -> Any:
        if key not in self.data:
            raise RulesetError(f"{self.src}: 缺少 {self.where}.{key}", hint=f"加一行：{key} = {example}")
        return self.data[key]

    def str_(self, key: str, default: str | None = None, *, example: str = '"…"') -> str:
        v = self.need(key, example) if default is None else self.data.get(key, default)
        return cast(str, self._valid(key, v, "str", "文字", example))

    def opt_str(self, key: str, example: str = '"…"') -> str | None:
        v = self.data.get(key)
        if v is None or v == "":
            return None
        return cast(str, self._valid(key, v, "str", "文字", example))

    def int_(self, key: str, default: int | None = None, *, example: str = "1", ge: int = 0,
             le: int = _MAX_INT) -> int:
        v = self.need(key, example) if default is None else self.data.get(key, default)
        return cast(int, self._valid(key, v, "int", "整数", example, ge, le))

    def opt_int(self, key: str, example: str = "1", *, ge: int = 0, le: int = _MAX_INT) -> int | None:
        v = self.data.get(key)
        if v is None or v is False:
            return None
        return cast(int, self._valid(key, v, "int", "整数（或省略）", example, ge, le))

    def num(self, key: str, default: float | None = None, *, example: str = "1.5", ge: float | None = None,
            le: float | None = None) -> float:
        v = self.need(key, example) if default is None else self.data.get(key, default)
        return float(self._valid(key, v, "float", "数字", example, ge, le))

    def bool_(self, key: str, default: bool) -> bool:
        v = self.data.get(key, default)
        return cast(bool, self._valid(key, v, "bool", "true 或 false", "true"))

    def strs(self, key: str, default: Sequence[str] = ()) -> tuple[str, ...]:
        v = self.data.get(key, list(default))
        if isinstance(v, str):
            v = [v]
        return tuple(self._valid(key, v, "strs", "文字列表", '["警长"]'))

    def choice(self, key: str, choices: Sequence[str], default: str) -> str:
        v = self.data.get(key, default)
        if v not in choices:
            raise RulesetError(f"{self.src}: {self.where}.{key} 的值 {v!r} 不可用",
                               hint=f"可选：{' / '.join(repr(c) for c in choices)}")
        return cast(str, v)

    def table(self, key: str) -> Any:
        return self.data.get(key, {})

    def tables(self, key: str) -> list[Any]:
        v = self.data.get(key, [])
        if not isinstance(v, list):
            raise RulesetError(f"{self.src}: {self.where}.{key} 应是表数组", hint=f"写成 [[{self.where}.{key}]]")
        return v


_TOP = {"id", "name", "source", "players", "hooks", "factions", "roles", "role_groups", "voting", "lurk",
        "cards", "days", "win", "win_policy", "speech", "tags", "forbidden", "options", "publication", "night",
        "substitutes_per_role"}


def _playerset(raw: Any, where: str, src: str) -> PlayerSet:
    r = _Reader(raw, where, {"factions", "roles", "tags", "groups"}, src)
    ps = PlayerSet(factions=r.strs("factions"), roles=r.strs("roles"), tags=r.strs("tags"),
                   groups=r.strs("groups"))
    if ps == PlayerSet():
        raise RulesetError(f"{src}: {where} 至少要写 factions / roles / tags / groups 之一",
                           hint='例如：{ factions = ["狼人"] }')
    return ps


def _sets(raw: Any, where: str, src: str) -> tuple[PlayerSet, ...]:
    items = raw if isinstance(raw, list) else [raw]
    return tuple(_playerset(x, f"{where}[{i}]", src) for i, x in enumerate(items, 1))


_CONDITIONS: tuple[str, ...] = ("all_out", "any_out", "none_alive", "share_of_living_at_least",
                                "each_alive_at_most", "living_at_most", "tag_holder_in", "declared",
                                "hook", "red_cards_at_least", "all", "any")


def _condition(raw: Any, where: str, src: str) -> Condition:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise RulesetError(f"{src}: {where} 应是只有一个键的表", hint=f"键可为：{', '.join(_CONDITIONS)}；"
                           '例如 when = { all_out = [{ factions = ["狼人"] }] }')
    (kind, val), = raw.items()
    w = f"{where}.{kind}"
    if kind in ("all_out", "any_out", "none_alive"):
        return Condition(kind=kind, sets=_sets(val, w, src))
    if kind == "share_of_living_at_least":
        r = _Reader(val, w, {"of", "fraction"}, src)
        return Condition(kind=kind, sets=_sets(r.need("of", '[{ factions = ["狼人"] }]'), f"{w}.of", src),
                         fraction=r.num("fraction", 0.5, ge=0, le=1))
    if kind == "each_alive_at_most":
        r = _Reader(val, w, {"of", "n"}, src)
        return Condition(kind=kind, sets=_sets(r.need("of", '[{ roles = ["村民"] }]'), f"{w}.of", src),
                         n=r.int_("n", 1, ge=1))
    if kind == "living_at_most":
        if isinstance(val, dict):
            r = _Reader(val, w, {"n", "plus", "per_action"}, src)
            return Condition(kind=kind, n=r.int_("n", example="7"), plus=r.int_("plus", 0),
                             name=r.str_("per_action", ""))
        if isinstance(val, bool) or not isinstance(val, int):
            raise RulesetError(f"{src}: {w} 应为整数", hint="例如：living_at_most = 7")
        return Condition(kind=kind, n=val)
    if kind == "tag_holder_in":
        r = _Reader(val, w, {"tag", "of"}, src)
        return Condition(kind=kind, tag=r.str_("tag", example='"亡灵圣物认主"'),
                         sets=_sets(r.need("of", '[{ factions = ["圣殿"] }]'), f"{w}.of", src))
    if kind in ("declared", "hook"):
        if not isinstance(val, str) or not val:
            raise RulesetError(f"{src}: {w} 应为条件名", hint=f'例如：{kind} = "no_new_undead"')
        return Condition(kind=kind, name=val)
    if kind == "red_cards_at_least":
        if isinstance(val, bool) or not isinstance(val, int) or val < 1:
            raise RulesetError(f"{src}: {w} 应为正整数", hint="例如：red_cards_at_least = 2")
        return Condition(kind=kind, n=val)
    if kind in ("all", "any"):
        if not isinstance(val, list) or not val:
            raise RulesetError(f"{src}: {w} 应是条件列表", hint=f"例如：{kind} = [{{ all_out = ... }}, ...]")
        return Condition(kind=kind, parts=tuple(_condition(x, f"{w}[{i}]", src) for i, x in enumerate(val, 1)))
    near = difflib.get_close_matches(str(kind), _CONDITIONS, n=1)
    raise RulesetError(f"{src}: {where} 的条件 {kind!r} 不认识",
                       hint=f"是不是想写 `{near[0]}`？" if near else f"可用：{', '.join(_CONDITIONS)}")


def _red_card_losses(cards: CardRules, factions: Sequence[str], wins: Sequence[WinRule]) -> list[WinRule]:
    """``[cards] faction_loses_at_reds = N`` said as ``[[win]]`` data: one lose rule per faction with
    ``red_cards_at_least = N``, so the one win check (:func:`tracker.engine.outcome.evaluate`) decides a
    faction's loss by red cards like any other ("同一阵营的角色累计获得两张或以上红牌时，阵营判负").
    A faction that already has its own ``red_cards_at_least`` rule keeps it."""
    n = cards.faction_loses_at_reds
    if n is None:
        return []
    own = {w.faction for w in wins if w.result == "lose" and w.when.kind == "red_cards_at_least"}
    taken = {w.id for w in wins}
    return [WinRule(id=f"{f}.红牌", faction=f, result="lose", when=Condition(kind="red_cards_at_least", n=n),
                    clause=cards.clause or "判罚制度【红牌】", text=f"同一阵营的角色累计获得{n}张或以上红牌")
            for f in factions if f not in own and f"{f}.红牌" not in taken]


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    cur: Any = data
    for p in parts[:-1]:
        cur = cur.setdefault(p, {})
    cur[parts[-1]] = value


def _options(raw: list[Any], src: str) -> tuple[Option, ...]:
    out = []
    for i, o in enumerate(raw, 1):
        r = _Reader(o, f"options[{i}]", {"key", "default", "choices", "description", "clause", "path"}, src)
        key = r.str_("key", example='"village_gods"')
        default = r.need("default", '"all"')
        choices = tuple(r.data.get("choices", ()))
        if choices and default not in choices:
            raise RulesetError(f"{src}: options[{i}].default {default!r} 不在 choices 里",
                               hint=f"可选：{choices}")
        out.append(Option(key=key, default=default, choices=choices, description=r.str_("description", ""),
                          clause=r.str_("clause", ""), path=r.opt_str("path")))
    return tuple(out)


def parse_ruleset(data: dict[str, Any], path: Path | None = None,
                  overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """Validate a decoded ruleset file; ``overrides`` set declared options (RulesetError if unknown)."""
    src = str(path.name) if path is not None else "规则文件"
    raw = copy.deepcopy(data)
    top = _Reader(raw, "ruleset", _TOP, src)
    options = _options(top.tables("options"), src)
    values: dict[str, Any] = {o.key: o.default for o in options}
    for k, v in (overrides or {}).items():
        opt = next((o for o in options if o.key == k), None)
        if opt is None:
            raise RulesetError(f"规则 {src} 没有选项 {k!r}",
                               hint=f"可用的选项：{', '.join(o.key for o in options) or '无'}")
        if opt.choices and v not in opt.choices:
            raise RulesetError(f"选项 {k} 的值 {v!r} 不可用", hint=f"可选：{' / '.join(map(repr, opt.choices))}")
        values[k] = v
    work = copy.deepcopy(raw)
    for o in options:
        if o.path:
            _set_path(work, o.path, values[o.key])
    top = _Reader(work, "ruleset", _TOP, src)

    rid = top.str_("id", example='"luoluo-m19"')
    factions: list[Faction] = []
    for i, f in enumerate(top.tables("factions"), 1):
        r = _Reader(f, f"factions[{i}]", {"name", "aliases", "size", "description"}, src)
        factions.append(Faction(name=r.str_("name", example='"狼人"'), aliases=r.strs("aliases"),
                                size=r.opt_int("size"), description=r.str_("description", "")))
    if not factions:
        raise RulesetError(f"{src}: 没有阵营", hint='加 [[factions]]\nname = "狼人"')
    fnames = {f.name for f in factions} | {a for f in factions for a in f.aliases}

    def _faction_ok(name: str, where: str) -> None:
        if name not in fnames:
            near = difflib.get_close_matches(name, sorted(fnames), n=1)
            raise RulesetError(f"{src}: {where} 的阵营 {name!r} 没有在 [[factions]] 中定义",
                               hint=f"是不是想写 `{near[0]}`？" if near else f"已定义：{', '.join(sorted(fnames))}")

    roles: list[Role] = []
    for i, ro in enumerate(top.tables("roles"), 1):
        r = _Reader(ro, f"roles[{i}]", {"name", "faction", "count", "max_count", "group", "tags",
                                        "description", "counts", "also_factions", "couple", "immune_to"}, src)
        counts = r.data.get("counts", [])
        if not isinstance(counts, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            raise RulesetError(f"{src}: roles[{i}].counts 应是整数列表", hint="例如：counts = [0, 2]")
        couple_tag = ""
        couple_sets: tuple[tuple[str, ...], ...] = ()
        if "couple" in r.data:
            c = _Reader(r.data["couple"], f"roles[{i}].couple", {"tag", "sets"}, src)
            raw_sets = c.need("sets", '[["村民"], ["公狼", "老狼", "幼狼"]]')
            if not isinstance(raw_sets, list) or not all(isinstance(x, list) and all(isinstance(y, str) for y in x)
                                                         for x in raw_sets):
                raise RulesetError(f"{src}: roles[{i}].couple.sets 应是身份列表的列表",
                                   hint='例如：sets = [["村民"], ["预言家", "女巫", "医生"]]')
            couple_tag, couple_sets = c.str_("tag", example='"情侣"'), tuple(tuple(x) for x in raw_sets)
        role = Role(name=r.str_("name", example='"预言家"'), faction=r.str_("faction", example='"村民"'),
                    couple_tag=couple_tag, couple_sets=couple_sets,
                    count=r.int_("count", 1), max_count=r.opt_int("max_count"), group=r.opt_str("group"),
                    tags=r.strs("tags"), description=r.str_("description", ""), counts=tuple(counts),
                    also_factions=r.strs("also_factions"), immune_to=r.strs("immune_to"))
        _faction_ok(role.faction, f"roles[{i}]")
        for extra in role.also_factions:
            _faction_ok(extra, f"roles[{i}].also_factions")
        if role.max_count is not None and role.max_count < role.count:
            raise RulesetError(f"{src}: roles[{i}] 的 max_count 小于 count", hint="max_count 是人数上限")
        roles.append(role)
    rnames = [r.name for r in roles]
    dupes = sorted({n for n in rnames if rnames.count(n) > 1})
    if dupes:
        raise RulesetError(f"{src}: 身份重复：{', '.join(dupes)}", hint="每个 [[roles]] 的 name 唯一")
    groups = []
    for i, g in enumerate(top.tables("role_groups"), 1):
        r = _Reader(g, f"role_groups[{i}]", {"name", "min", "max", "roles", "kinds_max"}, src)
        group = RoleGroup(name=r.str_("name"), min=r.int_("min", 0), max=r.int_("max", 99), roles=r.strs("roles"),
                          kinds_max=r.opt_int("kinds_max"))
        unknown = [n for n in group.roles if n not in rnames]
        if unknown:
            raise RulesetError(f"{src}: role_groups[{i}].roles 里的身份不存在：{'、'.join(unknown)}",
                               hint=f"可用：{', '.join(rnames)}")
        groups.append(group)

    vr = _Reader(top.table("voting"), "voting", {
        "change_limit", "freeze_minutes", "freeze_blocks_proxy", "proxy_deadline_minutes",
        "accelerated_changes", "tie", "threshold", "weights", "eligible_voter_roles", "eligible_voter_tags",
        "eligible_voter_factions", "per_dead_bonus", "day1", "dead_last_vote", "noon_exception",
        "modifiers", "exile_needs_unique_top", "public_votes", "edits_allowed", "proxy_window",
        "noon_exception_accelerated", "received_add_needs_votes"}, src)
    weights = []
    for i, w in enumerate(vr.tables("weights"), 1):
        r = _Reader(w, f"voting.weights[{i}]", {"tag", "role", "weight", "hidden", "clause"}, src)
        wr = WeightRule(weight=r.num("weight", ge=0), tag=r.opt_str("tag"), role=r.opt_str("role"),
                        hidden=r.bool_("hidden", False), clause=r.str_("clause", ""))
        if (wr.tag is None) == (wr.role is None):
            raise RulesetError(f"{src}: voting.weights[{i}] 要写 tag 或 role 之一", hint='例如：tag = "警长"')
        weights.append(wr)
    bonus = None
    if "per_dead_bonus" in vr.data:
        r = _Reader(vr.data["per_dead_bonus"], "voting.per_dead_bonus", {"tag", "per_role", "bonus", "clause"},
                    src)
        bonus = PerDeadBonus(tag=r.str_("tag"), per_role=r.str_("per_role"), bonus=r.num("bonus", 1.0),
                             clause=r.str_("clause", ""))
    day1 = []
    for i, e in enumerate(vr.tables("day1"), 1):
        r = _Reader(e, f"voting.day1[{i}]", {"purpose", "tag", "tie", "thread", "all_may_vote",
                                             "nobody_out_if_top", "clause"}, src)
        day1.append(Election(purpose=r.str_("purpose", example='"sheriff"'), tag=r.opt_str("tag"),
                             tie=cast(Tie, r.choice("tie", ("nobody", "first_to_top"), "nobody")),
                             thread=r.int_("thread", 0), all_may_vote=r.bool_("all_may_vote", True),
                             nobody_out_if_top=r.opt_str("nobody_out_if_top"), clause=r.str_("clause", "")))
    mods = []
    for i, m in enumerate(vr.tables("modifiers"), 1):
        r = _Reader(m, f"voting.modifiers[{i}]", {"name", "effect", "value", "public", "duration", "clause",
                                                  "once_per_player"}, src)
        mods.append(ModifierSpec(
            name=r.str_("name"),
            effect=cast(ModifierEffect, r.choice("effect", ("received_add", "received_multiply", "void_voter",
                                                            "toggle_vote_right", "announced_add", "voter_add"),
                                                 "received_add")),
            value=r.num("value", 0.0), public=r.bool_("public", False),
            duration=cast(Literal["day", "game"], r.choice("duration", ("day", "game"), "day")),
            clause=r.str_("clause", ""), once_per_player=r.bool_("once_per_player", False)))
    eligible = vr.data.get("eligible_voter_roles")
    voting = VotingRules(
        change_limit=vr.opt_int("change_limit"), freeze_minutes=vr.int_("freeze_minutes", 0, le=24 * 60),
        freeze_blocks_proxy=vr.bool_("freeze_blocks_proxy", False),
        proxy_deadline_minutes=vr.int_("proxy_deadline_minutes", 0),
        accelerated_changes=cast(AccelChanges, vr.choice("accelerated_changes",
                                                         ("allowed", "forbidden", "void_all"), "allowed")),
        tie=cast(Tie, vr.choice("tie", ("nobody", "first_to_top"), "nobody")),
        threshold=cast(Threshold, vr.choice("threshold", ("none", "half_living"), "none")),
        weights=tuple(weights),
        eligible_voter_roles=None if eligible is None else vr.strs("eligible_voter_roles"),
        eligible_voter_tags=vr.strs("eligible_voter_tags"),
        eligible_voter_factions=vr.strs("eligible_voter_factions"),
        per_dead_bonus=bonus, day1=tuple(day1), dead_last_vote=vr.bool_("dead_last_vote", False),
        noon_exception=vr.bool_("noon_exception", False),
        hidden_modifiers=tuple(m.name for m in mods if not m.public),
        modifiers=tuple(mods), exile_needs_unique_top=vr.bool_("exile_needs_unique_top", True),
        public_votes=vr.bool_("public_votes", False),
        edits_allowed=vr.bool_("edits_allowed", False) if "edits_allowed" in vr.data else None,
        proxy_window=cast(Literal["freeze", "thirty_minutes"],
                          vr.choice("proxy_window", ("freeze", "thirty_minutes"), "freeze")),
        noon_exception_accelerated=vr.bool_("noon_exception_accelerated", False),
        received_add_needs_votes=vr.bool_("received_add_needs_votes", False),
    )

    lr = _Reader(top.table("lurk"), "lurk", {
        "min_posts", "three_day_min", "three_day_span", "no_vote_penalty", "dead_not_out_exempt_from_vote",
        "kidnapped_exempt_from_min_posts", "accelerated_suspends", "card", "clause_min_posts",
        "clause_three_day", "clause_no_vote"}, src)
    lurk = LurkRules(
        min_posts=lr.int_("min_posts", 5), three_day_min=lr.int_("three_day_min", 10),
        three_day_span=lr.int_("three_day_span", 3, ge=1), no_vote_penalty=lr.bool_("no_vote_penalty", False),
        dead_not_out_exempt_from_vote=lr.bool_("dead_not_out_exempt_from_vote", False),
        kidnapped_exempt_from_min_posts=lr.bool_("kidnapped_exempt_from_min_posts", False),
        accelerated_suspends=lr.bool_("accelerated_suspends", True),
        card=lr.choice("card", ("blue", "yellow", "red"), "yellow"),
        clause_min_posts=lr.str_("clause_min_posts", ""), clause_three_day=lr.str_("clause_three_day", ""),
        clause_no_vote=lr.str_("clause_no_vote", ""))

    cr = _Reader(top.table("cards"), "cards", {"blue_to_yellow", "yellow_to_red", "red_consequence",
                                               "red_turns_role", "faction_loses_at_reds", "red_settled",
                                               "out_players_carded", "clause"}, src)
    cards = CardRules(
        blue_to_yellow=cr.int_("blue_to_yellow", 3, ge=1), yellow_to_red=cr.int_("yellow_to_red", 3, ge=1),
        red_consequence=cast(RedConsequence, cr.choice("red_consequence", ("benched", "out"), "benched")),
        red_turns_role=cr.opt_str("red_turns_role"), faction_loses_at_reds=cr.opt_int("faction_loses_at_reds"),
        red_settled=cast(RedSettled, cr.choice("red_settled", ("before_vote", "after_vote"), "before_vote")),
        out_players_carded=cr.bool_("out_players_carded", True), clause=cr.str_("clause", ""))

    dr = _Reader(top.table("days"), "days", {"length_days", "weekend_extension", "first_day_extended",
                                             "first_day_accelerated", "auto_accelerate_at_living",
                                             "request_threshold", "request_cutoff_hours", "requests",
                                             "close_time", "clause"}, src)
    cutoff = dr.data.get("request_cutoff_hours", 3.0)
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, int | float)):
        raise RulesetError(f"{src}: days.request_cutoff_hours 应为小时数", hint="例如：request_cutoff_hours = 3")
    requests = dr.strs("requests", ("accelerate", "delay"))
    for q in requests:
        if q not in ("accelerate", "delay"):
            raise RulesetError(f"{src}: days.requests 中的 {q!r} 不认识", hint='可选："accelerate", "delay"')
    close_time = dr.str_("close_time", "22:00")
    try:
        hh, mm = (int(x) for x in close_time.split(":"))
        if not (0 <= hh < 24 and 0 <= mm < 60):
            raise ValueError
    except ValueError:
        raise RulesetError(f"{src}: days.close_time {close_time!r} 不是时刻", hint='例如："22:00"') from None
    days = DayRules(
        length_days=dr.int_("length_days", 2, ge=1), weekend_extension=dr.int_("weekend_extension", 1),
        first_day_extended=dr.bool_("first_day_extended", True),
        first_day_accelerated=dr.bool_("first_day_accelerated", False),
        auto_accelerate_at_living=dr.opt_int("auto_accelerate_at_living"),
        request_threshold=cast(RequestThreshold, dr.choice("request_threshold",
                                                           ("half_living", "more_than_half_living"),
                                                           "half_living")),
        request_cutoff_hours=None if cutoff is None else float(cutoff), requests=requests,
        close_time=close_time, clause=dr.str_("clause", ""))

    pr = _Reader(top.table("publication"), "publication", {"elevator", "elevator_shuffle", "out_order", "titles",
                                                           "clause", "last_words"}, src)
    publication = PublicationRules(
        elevator=cast(Literal["author", "posts"], pr.choice("elevator", ("author", "posts"), "author")),
        elevator_shuffle=pr.bool_("elevator_shuffle", False),
        out_order=cast(Literal["settlement", "elevator", "chronological"],
                       pr.choice("out_order", ("settlement", "elevator", "chronological"), "chronological")),
        titles=pr.strs("titles", ()), clause=pr.str_("clause", ""), last_words=pr.bool_("last_words", True))

    wins = []
    for i, w in enumerate(top.tables("win"), 1):
        where = f"win[{i}]"
        r = _Reader(w, where, {"id", "faction", "result", "when", "clause", "text", "only_if"}, src)
        fac = r.str_("faction", example='"狼人"')
        _faction_ok(fac, where)
        only_if = r.table("only_if")
        if not isinstance(only_if, dict):
            raise RulesetError(f"{src}: {where}.only_if 应是表", hint='例如：only_if = { village_gods = "any" }')
        for k in only_if:
            if k not in values:
                raise RulesetError(f"{src}: {where}.only_if 引用了未声明的选项 {k!r}", hint="先在 [[options]] 中声明")
        wins.append(WinRule(id=r.str_("id", f"{fac}.{i}"), faction=fac,
                            result=cast(WinResult, r.choice("result", ("win", "lose"), "win")),
                            when=_condition(r.need("when", '{ all_out = [{ factions = ["狼人"] }] }'),
                                            f"{where}.when", src),
                            clause=r.str_("clause", example='"胜负判定·狼人阵营·胜1"'), text=r.str_("text", ""),
                            only_if=dict(only_if)))
    ids = [w.id for w in wins]
    if len(set(ids)) != len(ids):
        raise RulesetError(f"{src}: [[win]] 的 id 重复", hint="每条胜负条件的 id 唯一")
    pr = _Reader(top.table("win_policy"), "win_policy", {"priority", "last_standing_wins", "co_win", "check",
                                                         "surrender", "clause", "checks_at", "stops"}, src)
    policy = WinPolicy(priority=pr.strs("priority"), last_standing_wins=pr.bool_("last_standing_wins", True),
                       co_win=pr.strs("co_win"),
                       check=cast(CheckTiming, pr.choice("check", ("every_event", "same_time"), "same_time")),
                       surrender=pr.strs("surrender"), clause=pr.str_("clause", ""),
                       checks_at=pr.strs("checks_at", ("end",)), stops=pr.bool_("stops", False))
    for p in policy.priority:
        if p not in ids and p not in fnames:
            raise RulesetError(f"{src}: win_policy.priority 中的 {p!r} 既不是阵营也不是 [[win]] 的 id",
                               hint=f"可用：{', '.join(ids)}")
    for p in (*policy.co_win, *policy.surrender):
        _faction_ok(p, "win_policy")

    sr = _Reader(top.table("speech"), "speech", {"kidnap_allowed_words", "kidnap_smilies_allowed", "clause"}, src)
    speech = SpeechRules(kidnap_allowed_words=sr.strs("kidnap_allowed_words"),
                         kidnap_smilies_allowed=sr.bool_("kidnap_smilies_allowed", True), clause=sr.str_("clause", ""))
    tags = []
    for i, t in enumerate(top.tables("tags"), 1):
        r = _Reader(t, f"tags[{i}]", {"name", "transfer", "on_red", "unique", "clause", "vanishes_for"}, src)
        tags.append(TagRule(name=r.str_("name"), transfer=r.opt_str("transfer"),
                            on_red=cast(Literal["pass", "random", "lost"],
                                        r.choice("on_red", ("pass", "random", "lost"), "pass")),
                            unique=r.bool_("unique", True), clause=r.str_("clause", ""),
                            vanishes_for=r.strs("vanishes_for")))
    forbidden = []
    for i, f in enumerate(top.tables("forbidden"), 1):
        r = _Reader(f, f"forbidden[{i}]", {"section", "name", "items", "lexicons"}, src)
        items = r.strs("items")
        lex = r.data.get("lexicons", {})
        if not isinstance(lex, dict) or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                                and 1 <= v <= len(items) for k, v in lex.items()):
            raise RulesetError(f"{src}: forbidden[{i}].lexicons 应是“词表 = 条目序号”的表，序号在 1 到 {len(items)} 之间",
                               hint="例如：lexicons = { emotion = 1, insult = 3 }")
        forbidden.append(ForbiddenCategory(section=r.int_("section"), name=r.str_("name"), items=items,
                                           lexicons=tuple(sorted(lex.items()))))
    night = top.opt_str("night", '"night/my-game.toml"')
    night_path = (path.parent / night) if (night is not None and path is not None) else None
    hooks = top.opt_str("hooks")
    if hooks is not None:
        from tracker.engine.rulesets.hooks import HOOKS

        if hooks not in HOOKS:
            raise RulesetError(f"{src}: hooks = {hooks!r} 不存在", hint=f"可用：{', '.join(sorted(HOOKS))}")

    wins.extend(_red_card_losses(cards, [f.name for f in factions], wins))
    _check_names(roles, groups, fnames, voting, cards, wins, hooks, src)
    rs = Ruleset(
        id=rid, name=top.str_("name"), source=top.str_("source"), players=top.int_("players", example="14", ge=1, le=1000),
        factions=tuple(factions), roles=tuple(roles), voting=voting, lurk=lurk, cards=cards, days=days,
        win=tuple(wins), win_policy=policy, speech=speech, publication=publication, tags=tuple(tags), role_groups=tuple(groups),
        forbidden_categories=tuple(forbidden), substitutes_per_role=top.opt_int("substitutes_per_role"),
        hooks=hooks, options=options, option_values=values,
        path=path, raw=raw, night_path=night_path)
    _check_counts(rs, src)
    return rs


def _walk(c: Condition) -> list[Condition]:
    return [c, *(x for p in c.parts for x in _walk(p))]


def _check_names(roles: Sequence[Role], groups: Sequence[RoleGroup], fnames: set[str], voting: VotingRules,
                 cards: CardRules, wins: Sequence[WinRule], hooks: str | None, src: str) -> None:
    """A typo in a role or faction name would silently make a win rule vacuous: refuse it here."""
    rnames = {r.name for r in roles}
    gnames = {g.name for g in groups} | {r.group for r in roles if r.group}

    def known(name: str, pool: set[str], what: str, where: str) -> None:
        if name not in pool:
            near = difflib.get_close_matches(name, sorted(pool), n=1)
            raise RulesetError(f"{src}: {where} 中的{what} {name!r} 没有定义",
                               hint=f"是不是想写 `{near[0]}`？" if near else f"已定义：{', '.join(sorted(pool)) or '无'}")

    for r in voting.eligible_voter_roles or ():
        known(r, rnames, "身份", "voting.eligible_voter_roles")
    for f in voting.eligible_voter_factions:
        known(f, fnames, "阵营", "voting.eligible_voter_factions")
    for wr in voting.weights:
        if wr.role:
            known(wr.role, rnames, "身份", "voting.weights")
    if voting.per_dead_bonus:
        known(voting.per_dead_bonus.per_role, rnames, "身份", "voting.per_dead_bonus")
    for e in voting.day1:
        if e.nobody_out_if_top:
            known(e.nobody_out_if_top, rnames, "身份", "voting.day1")
    if cards.red_turns_role:
        known(cards.red_turns_role, rnames, "身份", "cards.red_turns_role")
    from tracker.engine.rulesets.hooks import HOOKS

    for w in wins:
        for c in _walk(w.when):
            for ps in c.sets:
                for f in ps.factions:
                    known(f, fnames, "阵营", f"win {w.id}")
                for r in ps.roles:
                    known(r, rnames, "身份", f"win {w.id}")
                for g in ps.groups:
                    known(g, gnames, "身份组", f"win {w.id}")
            if c.kind == "hook":
                available = set(HOOKS[hooks].conditions) if hooks in HOOKS else set()
                known(c.name, available, "hook 条件", f"win {w.id}（hooks = {hooks!r}）")


def _check_counts(rs: Ruleset, src: str) -> None:
    if not rs.roles:
        return
    lo = sum(r.count for r in rs.roles)
    hi = sum(r.upper for r in rs.roles)
    if not lo <= rs.players <= hi:
        raise RulesetError(f"{src}: 身份人数合计 {lo}–{hi}，与 players = {rs.players} 不符",
                           hint="检查 [[roles]] 的 count / max_count")

