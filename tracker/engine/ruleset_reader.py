"""Reading a decoded ruleset file into a :class:`~tracker.engine.ruleset_schema.Ruleset`.

The format is checked by its one model (:mod:`tracker.engine.ruleset_model`: types, bounds, unknown
keys); what is left here is what a model of the format cannot know — that the names a file uses
refer to what it declares (a role's faction, a win rule's roles, an option's key), and that the
roles add up to ``players``. Every mistake is a :class:`RulesetError` naming the dotted key, its
line in the file when the text is at hand, and the fix. :func:`parse_ruleset` is re-exported by
:mod:`tracker.engine.ruleset`.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError

from tracker.engine.ruleset_errors import Loc, Problem, problems, toml_line, where
from tracker.engine.ruleset_model import ConditionT, NightT, PlayerSetT, RulesetT, Sets
from tracker.engine.ruleset_schema import (
    CONTENT_FREE_WORDS,
    CardRules,
    Condition,
    ConditionKind,
    DayRules,
    DetectorRule,
    Election,
    Faction,
    ForbiddenCategory,
    LastWordsRules,
    LurkRules,
    ModifierSpec,
    Option,
    PerDeadBonus,
    PlayerSet,
    PublicationRules,
    Role,
    RoleGroup,
    Ruleset,
    SpeechRules,
    TagRule,
    VotingRules,
    WeightRule,
    WinPolicy,
    WinRule,
)
from tracker.errors import RulesetError


class FileAt:
    """A file being read: its name, its text (for line numbers) and where its keys sit (``night``
    for a night section inline). ``error`` builds the one kind of error the reader raises."""

    def __init__(self, src: str, text: str | None = None, prefix: Loc = ()) -> None:
        self.src, self.text, self.prefix = src, text, prefix

    def name(self, loc: Loc) -> str:
        """The key as the file writes it: ``night.skills[2].roles`` for a night inline."""
        return where((*self.prefix, *loc))

    def problem(self, loc: Loc, message: str, hint: str | None = None) -> Problem:
        full = (*self.prefix, *loc)
        return Problem("error", where(full), toml_line(self.text, full), message, hint, file=self.src)

    def error(self, loc: Loc, message: str, hint: str | None = None) -> RulesetError:
        p = self.problem(loc, message, hint)
        return to_error(p, self.src)

    def refused(self, exc: ValidationError, root: Any) -> RulesetError:
        first = problems(root, exc, self.text, self.prefix)[0]
        return to_error(dataclasses.replace(first, file=self.src), self.src)


def to_error(p: Problem, src: str) -> RulesetError:
    """The error a loader raises; it keeps the finding (``problem``) for `tracker ruleset check`'s list."""
    err = RulesetError(p.words(src), hint=p.hint or "键和取值见 docs/ruleset.md")
    err.problem = p
    return err


def validate(data: Any, at: FileAt) -> RulesetT:
    """The file through the model; the first mistake (in the file's order) as a RulesetError."""
    try:
        return RulesetT.model_validate(data)
    except ValidationError as exc:
        raise at.refused(exc, RulesetT) from None


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


def _options(doc: RulesetT, at: FileAt) -> tuple[Option, ...]:
    out = []
    for i, o in enumerate(doc.options):
        if o.choices and o.default not in o.choices:
            raise at.error(("options", i, "default"), f"options[{i + 1}].default {o.default!r} 不在 choices 里",
                           hint=f"可选：{o.choices}")
        out.append(Option(key=o.key, default=o.default, choices=tuple(o.choices), description=o.description,
                          clause=o.clause, path=o.path or None))
    return tuple(out)


def parse_ruleset(data: dict[str, Any], path: Path | None = None,
                  overrides: Mapping[str, Any] | None = None, text: str | None = None) -> Ruleset:
    """Validate a decoded ruleset file; ``overrides`` set declared options (RulesetError if unknown).
    ``text``, the file as written, lets errors give its line."""
    src = str(path.name) if path is not None else "规则文件"
    at = FileAt(src, text)
    raw = copy.deepcopy(data)
    doc = validate(raw, at)
    options = _options(doc, at)
    values: dict[str, Any] = {o.key: o.default for o in options}
    for k, v in (overrides or {}).items():
        opt = next((o for o in options if o.key == k), None)
        if opt is None:
            raise RulesetError(f"规则 {src} 没有选项 {k!r}",
                               hint=f"可用的选项：{', '.join(o.key for o in options) or '无'}")
        if opt.choices and v not in opt.choices:
            raise RulesetError(f"选项 {k} 的值 {v!r} 不可用", hint=f"可选：{' / '.join(map(repr, opt.choices))}")
        values[k] = v
    if any(o.path for o in options):
        work = copy.deepcopy(raw)
        for o in options:
            if o.path:
                _set_path(work, o.path, values[o.key])
        doc = validate(work, FileAt(src))  # an option's value of a wrong type: no line of the file holds it
    return build(doc, at, raw=raw, path=path, options=options, values=values)


def build(doc: RulesetT, at: FileAt, *, raw: Mapping[str, Any], path: Path | None,
          options: tuple[Option, ...], values: Mapping[str, Any]) -> Ruleset:
    """The validated file as the engine's dataclasses, after checking the names it uses."""
    factions = tuple(Faction(name=f.name, aliases=tuple(f.aliases), size=f.size, description=f.description)
                     for f in doc.factions)
    fnames = {f.name for f in factions} | {a for f in factions for a in f.aliases}

    def faction_ok(name: str, loc: Loc) -> None:
        if name not in fnames:
            near = difflib.get_close_matches(name, sorted(fnames), n=1)
            raise at.error(loc, f"{where(loc)} 的阵营 {name!r} 没有在 [[factions]] 中定义",
                           hint=f"是不是想写 `{near[0]}`？" if near else f"已定义：{', '.join(sorted(fnames))}")

    roles: list[Role] = []
    for i, r in enumerate(doc.roles):
        faction_ok(r.faction, ("roles", i, "faction"))
        for extra in r.also_factions:
            faction_ok(extra, ("roles", i, "also_factions"))
        if r.max_count is not None and r.max_count < r.count:
            raise at.error(("roles", i, "max_count"), f"roles[{i + 1}] 的 max_count 小于 count",
                           hint="max_count 是人数上限")
        roles.append(Role(
            name=r.name, faction=r.faction, count=r.count, max_count=r.max_count, group=r.group or None,
            tags=tuple(r.tags), description=r.description, counts=tuple(r.counts),
            immune_to=tuple(r.immune_to), also_factions=tuple(r.also_factions),
            couple_tag=r.couple.tag if r.couple else "",
            couple_sets=tuple(tuple(s) for s in r.couple.sets) if r.couple else ()))
    rnames = [r.name for r in roles]
    dupes = sorted({n for n in rnames if rnames.count(n) > 1})
    if dupes:
        raise at.error(("roles",), f"身份重复：{', '.join(dupes)}", hint="每个 [[roles]] 的 name 唯一")
    groups = []
    for i, g in enumerate(doc.role_groups):
        unknown = [n for n in g.roles if n not in rnames]
        if unknown:
            raise at.error(("role_groups", i, "roles"), f"role_groups[{i + 1}].roles 里的身份不存在：{'、'.join(unknown)}",
                           hint=f"可用：{', '.join(rnames)}")
        groups.append(RoleGroup(name=g.name, min=g.min, max=g.max, roles=tuple(g.roles), kinds_max=g.kinds_max))

    voting = _voting(doc)
    lu, ca, da, pu = doc.lurk, doc.cards, doc.days, doc.publication
    lurk = LurkRules(
        min_posts=lu.min_posts, three_day_min=lu.three_day_min, three_day_span=lu.three_day_span,
        no_vote_penalty=lu.no_vote_penalty, dead_not_out_exempt_from_vote=lu.dead_not_out_exempt_from_vote,
        kidnapped_exempt_from_min_posts=lu.kidnapped_exempt_from_min_posts,
        accelerated_suspends=lu.accelerated_suspends, card=lu.card, clause_min_posts=lu.clause_min_posts,
        clause_three_day=lu.clause_three_day, clause_no_vote=lu.clause_no_vote,
        content_free_words=(tuple(w.strip() for w in lu.content_free_words) if lu.content_free_words
                            else CONTENT_FREE_WORDS if lu.content_free else ()))
    if voting.edits_as_new_ballot and voting.edits_allowed is not None:
        raise at.error(("voting", "edits_as_new_ballot"), "voting.edits_as_new_ballot 与 voting.edits_allowed 只能写一个",
                       hint="编辑视为新帖（edits_as_new_ballot）和编辑是否算数（edits_allowed）是两种读法")
    cards = CardRules(
        blue_to_yellow=ca.blue_to_yellow, yellow_to_red=ca.yellow_to_red, red_consequence=ca.red_consequence,
        red_turns_role=ca.red_turns_role or None, faction_loses_at_reds=ca.faction_loses_at_reds,
        red_settled=ca.red_settled, out_players_carded=ca.out_players_carded, clause=ca.clause)
    days = DayRules(
        length_days=da.length_days, weekend_extension=da.weekend_extension,
        first_day_extended=da.first_day_extended, first_day_accelerated=da.first_day_accelerated,
        auto_accelerate_at_living=da.auto_accelerate_at_living, request_threshold=da.request_threshold,
        request_cutoff_hours=float(da.request_cutoff_hours), requests=tuple(da.requests),
        close_time=da.close_time, clause=da.clause)
    publication = PublicationRules(
        elevator=pu.elevator, elevator_shuffle=pu.elevator_shuffle, out_order=pu.out_order,
        titles=tuple(pu.titles), clause=pu.clause, last_words=pu.last_words)

    wins = []
    for i, w in enumerate(doc.win):
        faction_ok(w.faction, ("win", i, "faction"))
        for k in w.only_if:
            if k not in values:
                raise at.error(("win", i, "only_if"), f"win[{i + 1}].only_if 引用了未声明的选项 {k!r}",
                               hint="先在 [[options]] 中声明")
        wins.append(WinRule(id=w.id or f"{w.faction}.{i + 1}", faction=w.faction, result=w.result,
                            when=_condition(w.when), clause=w.clause, text=w.text, only_if=dict(w.only_if)))
    ids = [w.id for w in wins]
    if len(set(ids)) != len(ids):
        raise at.error(("win",), "[[win]] 的 id 重复", hint="每条胜负条件的 id 唯一")
    wp = doc.win_policy
    policy = WinPolicy(priority=tuple(wp.priority), last_standing_wins=wp.last_standing_wins,
                       co_win=tuple(wp.co_win), check=wp.check, surrender=tuple(wp.surrender), clause=wp.clause,
                       checks_at=tuple(wp.checks_at), stops=wp.stops, losses_at=tuple(wp.losses_at),
                       last_standing_clause=wp.last_standing_clause)
    for p in policy.priority:
        if p not in ids and p not in fnames:
            raise at.error(("win_policy", "priority"), f"win_policy.priority 中的 {p!r} 既不是阵营也不是 [[win]] 的 id",
                           hint=f"可用：{', '.join(ids)}")
    for key in ("co_win", "surrender"):
        for p in getattr(policy, key):
            faction_ok(p, ("win_policy", key))

    sp = doc.speech
    speech = SpeechRules(kidnap_allowed_words=tuple(sp.kidnap_allowed_words),
                         kidnap_smilies_allowed=sp.kidnap_smilies_allowed, clause=sp.clause)
    lw = doc.last_words
    last_words = LastWordsRules(exits=tuple(lw.exits), nights=tuple(lw.nights), posts=lw.posts, thread=lw.thread,
                                none_for=tuple(lw.none_for), clause=lw.clause)
    tags = tuple(TagRule(name=t.name, transfer=t.transfer or None, on_red=t.on_red, unique=t.unique, clause=t.clause,
                         vanishes_for=tuple(t.vanishes_for)) for t in doc.tags)
    forbidden = []
    for i, f in enumerate(doc.forbidden):
        if any(n > len(f.items) for n in f.lexicons.values()):
            raise at.error(("forbidden", i, "lexicons"),
                           f"forbidden[{i + 1}].lexicons 应是“词表 = 条目序号”的表，序号在 1 到 {len(f.items)} 之间",
                           hint="例如：lexicons = { emotion = 1, insult = 3 }")
        forbidden.append(ForbiddenCategory(section=f.section, name=f.name, items=tuple(f.items),
                                           lexicons=tuple(sorted(f.lexicons.items()))))
    for i, d in enumerate(doc.detectors):
        if d.categories and d.kind != "keyword":
            raise at.error(("detectors", i, "categories"), f"detectors[{i + 1}].categories 只用于 kind = \"keyword\"（违禁词表）",
                           hint="删掉 categories，或把 kind 改为 \"keyword\"")
    detectors = tuple(DetectorRule(kind=d.kind, clause=d.clause, card=d.card, categories=tuple(d.categories))
                      for d in doc.detectors)
    hooks = doc.hooks or None
    if hooks is not None:
        from tracker.engine.rulesets.hooks import WIN_HOOKS

        if hooks not in WIN_HOOKS:
            raise at.error(("hooks",), f"hooks = {hooks!r} 不存在", hint=f"可用：{', '.join(sorted(WIN_HOOKS))}")
    wins.extend(_red_card_losses(cards, [f.name for f in factions], wins))
    _check_names(doc, set(rnames), fnames, wins, hooks, at)

    night_path, night_catalog = None, None
    if isinstance(doc.night, str) and doc.night and path is not None:
        night_path = path.parent / doc.night
    elif isinstance(doc.night, NightT):
        from tracker.engine.night.catalog import catalog_from  # only a file with its night inline needs it

        night_catalog = catalog_from(doc.night, doc.id, FileAt(at.src, at.text, ("night",)), tuple(rnames),
                                     voting, options)
    rs = Ruleset(
        id=doc.id, name=doc.name, source=doc.source, players=doc.players, factions=factions, roles=tuple(roles),
        voting=voting, lurk=lurk, cards=cards, days=days, win=tuple(wins), win_policy=policy, speech=speech,
        last_words=last_words,
        publication=publication, tags=tags, role_groups=tuple(groups), forbidden_categories=tuple(forbidden),
        substitutes_per_role=doc.substitutes_per_role,
        numbered_players=doc.numbered_players, hooks=hooks, options=options, option_values=dict(values),
        path=path, raw=raw, night_path=night_path, night_catalog=night_catalog, detectors=detectors)
    _check_counts(rs, at)
    return rs


def _voting(doc: RulesetT) -> VotingRules:
    v = doc.voting
    mods = tuple(ModifierSpec(name=m.name, effect=m.effect, value=float(m.value), public=m.public,
                              duration=m.duration, clause=m.clause, once_per_player=m.once_per_player)
                 for m in v.modifiers)
    bonus = v.per_dead_bonus
    return VotingRules(
        change_limit=v.change_limit, freeze_minutes=v.freeze_minutes, freeze_blocks_proxy=v.freeze_blocks_proxy,
        proxy_deadline_minutes=v.proxy_deadline_minutes, accelerated_changes=v.accelerated_changes, tie=v.tie,
        threshold=v.threshold,
        weights=tuple(WeightRule(weight=float(w.weight), tag=w.tag or None, role=w.role or None, hidden=w.hidden,
                                 clause=w.clause) for w in v.weights),
        eligible_voter_roles=None if v.eligible_voter_roles is None else tuple(v.eligible_voter_roles),
        eligible_voter_tags=tuple(v.eligible_voter_tags), eligible_voter_factions=tuple(v.eligible_voter_factions),
        per_dead_bonus=None if bonus is None else PerDeadBonus(tag=bonus.tag, per_role=bonus.per_role,
                                                               bonus=float(bonus.bonus), clause=bonus.clause),
        day1=tuple(Election(purpose=e.purpose, tag=e.tag or None, tie=e.tie, thread=e.thread,
                            all_may_vote=e.all_may_vote, nobody_out_if_top=e.nobody_out_if_top or None,
                            clause=e.clause, keyword=e.keyword, opens=e.opens, closes=e.closes,
                            freeze_minutes=e.freeze_minutes, signup_word=e.signup_word,
                            withdraw_word=e.withdraw_word, signup_closes=e.signup_closes,
                            candidates_may_vote=e.candidates_may_vote,
                            no_office_if_all_or_none=e.no_office_if_all_or_none) for e in v.day1),
        dead_last_vote=v.dead_last_vote, noon_exception=v.noon_exception,
        hidden_modifiers=tuple(m.name for m in mods if not m.public), modifiers=mods,
        exile_needs_unique_top=v.exile_needs_unique_top, public_votes=v.public_votes, edits_allowed=v.edits_allowed,
        proxy_window=v.proxy_window, noon_exception_accelerated=v.noon_exception_accelerated,
        received_add_needs_votes=v.received_add_needs_votes, reason_required=v.reason_required,
        change_rule=v.change_rule, abstain_words=tuple(w.strip() for w in v.abstain_words),
        freeze_blocks_first_votes=v.freeze_blocks_first_votes, no_vote_abstains=v.no_vote_abstains,
        edits_as_new_ballot=v.edits_as_new_ballot)


def _sets(raw: Sets) -> tuple[PlayerSet, ...]:
    items = raw if isinstance(raw, list) else [raw]
    return tuple(_playerset(x) for x in items)


def _playerset(p: PlayerSetT) -> PlayerSet:
    return PlayerSet(factions=tuple(p.factions), roles=tuple(p.roles), tags=tuple(p.tags), groups=tuple(p.groups))


def _condition(c: ConditionT) -> Condition:
    (name,) = c.model_fields_set
    kind = cast(ConditionKind, name)
    val = getattr(c, kind)
    if kind in ("all_out", "any_out", "none_alive"):
        return Condition(kind=kind, sets=_sets(val))
    if kind == "share_of_living_at_least":
        return Condition(kind=kind, sets=_sets(val.of), fraction=float(val.fraction))
    if kind == "each_alive_at_most":
        return Condition(kind=kind, sets=_sets(val.of), n=val.n)
    if kind == "living_at_most":
        if isinstance(val, int):
            return Condition(kind=kind, n=val)
        return Condition(kind=kind, n=val.n, plus=val.plus, name=val.per_action)
    if kind == "tag_holder_in":
        return Condition(kind=kind, tag=val.tag, sets=_sets(val.of))
    if kind in ("declared", "hook"):
        return Condition(kind=kind, name=val)
    if kind == "red_cards_at_least":
        return Condition(kind=kind, n=val)
    return Condition(kind=kind, parts=tuple(_condition(x) for x in val))


def _walk(c: Condition) -> list[Condition]:
    return [c, *(x for p in c.parts for x in _walk(p))]


def _check_names(doc: RulesetT, rnames: set[str], fnames: set[str], wins: Sequence[WinRule], hooks: str | None,
                 at: FileAt) -> None:
    """A typo in a role or faction name would silently make a win rule vacuous: refuse it here."""
    gnames = {g.name for g in doc.role_groups} | {r.group for r in doc.roles if r.group}

    def known(name: str, pool: set[str], what: str, loc: Loc, label: str = "") -> None:
        if name not in pool:
            near = difflib.get_close_matches(name, sorted(pool), n=1)
            raise at.error(loc, f"{label or where(loc)} 中的{what} {name!r} 没有定义",
                           hint=f"是不是想写 `{near[0]}`？" if near else f"已定义：{', '.join(sorted(pool)) or '无'}")

    v = doc.voting
    for r in v.eligible_voter_roles or ():
        known(r, rnames, "身份", ("voting", "eligible_voter_roles"))
    for f in v.eligible_voter_factions:
        known(f, fnames, "阵营", ("voting", "eligible_voter_factions"))
    for i, wr in enumerate(v.weights):
        if wr.role:
            known(wr.role, rnames, "身份", ("voting", "weights", i, "role"))
    if v.per_dead_bonus:
        known(v.per_dead_bonus.per_role, rnames, "身份", ("voting", "per_dead_bonus", "per_role"))
    for i, e in enumerate(v.day1):
        if e.nobody_out_if_top:
            known(e.nobody_out_if_top, rnames, "身份", ("voting", "day1", i, "nobody_out_if_top"))
    if doc.cards.red_turns_role:
        known(doc.cards.red_turns_role, rnames, "身份", ("cards", "red_turns_role"))
    from tracker.engine.rulesets.hooks import WIN_HOOKS

    for i, w in enumerate(wins):
        loc: Loc = ("win", i, "when")
        label = f"win {w.id}"
        for c in _walk(w.when):
            for ps in c.sets:
                for f in ps.factions:
                    known(f, fnames, "阵营", loc, label)
                for r in ps.roles:
                    known(r, rnames, "身份", loc, label)
                for g in ps.groups:
                    known(g, gnames, "身份组", loc, label)
            if c.kind == "hook":
                available = set(WIN_HOOKS[hooks].conditions) if hooks in WIN_HOOKS else set()
                known(c.name, available, "hook 条件", loc, f"{label}（hooks = {hooks!r}）")


def _check_counts(rs: Ruleset, at: FileAt) -> None:
    if not rs.roles:
        return
    lo = sum(r.count for r in rs.roles)
    hi = sum(r.upper for r in rs.roles)
    if not lo <= rs.players <= hi:
        raise at.error(("players",), f"身份人数合计 {lo}–{hi}，与 players = {rs.players} 不符",
                       hint="检查 [[roles]] 的 count / max_count")
