"""`tracker ruleset check`: every mistake of a ruleset file at once, and the rules its silence turns on.

Loading a ruleset stops at its first mistake (a game cannot run on half a file); a director writing
one wants them all, each with its key and line, so the model's errors are listed together. The
names the file uses are checked next (they need a well-formed file), then its night. A warning is
a key left out whose default switches a rule on (``lurk.three_day_min`` absent = a 潜水 rule the post
may not have): the model marks such defaults with ``switches_on``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from tracker.engine.ruleset_errors import Loc, Problem, problems, toml_line, toml_value, where
from tracker.engine.ruleset_model import NightT, RulesetT
from tracker.errors import RulesetError


def check_ruleset(path: Path) -> list[Problem]:
    """Errors then warnings for the ruleset file at ``path``; a file that cannot be read or is not
    TOML raises :class:`RulesetError` (there is nothing to list)."""
    from tracker.engine.ruleset import read_ruleset_file
    from tracker.engine.ruleset_reader import parse_ruleset

    data, text = read_ruleset_file(path)
    if "id" not in data and ("skills" in data or "ruleset" in data):
        return _night_file(data, path, text)
    try:
        doc = RulesetT.model_validate(data)
    except ValidationError as exc:
        return problems(RulesetT, exc, text)
    try:
        ruleset = parse_ruleset(data, path, text=text)
    except RulesetError as exc:
        return [_finding(exc)]
    found = _night(ruleset)
    return found + list(_defaults(doc, text))


def _finding(exc: RulesetError) -> Problem:
    """The reader's error as a finding: its key and line when the reader knew them."""
    return exc.problem if isinstance(exc.problem, Problem) else Problem("error", "", None, exc.message, exc.hint)


def _night_file(data: dict[str, Any], path: Path, text: str) -> list[Problem]:
    """A separate night file (``rulesets/night/<id>.toml``, or one a ruleset names with ``night =``),
    checked against the roles of the bundled ruleset it names, when there is one."""
    from tracker.engine.night.catalog import parse_catalog
    from tracker.engine.ruleset import BUNDLED_DIR, load_ruleset

    try:
        doc = NightT.model_validate(data)
    except ValidationError as exc:
        return problems(NightT, exc, text)
    roles: tuple[str, ...] = ()
    voting = None
    if doc.ruleset and (BUNDLED_DIR / f"{doc.ruleset}.toml").is_file():
        bundled = load_ruleset(doc.ruleset)
        roles, voting = tuple(r.name for r in bundled.roles), bundled.voting
    try:
        parse_catalog(data, path.name, roles, text, voting)
    except RulesetError as exc:
        return [_finding(exc)]
    return list(_defaults(doc, text))


def _night(ruleset: Any) -> list[Problem]:
    from tracker.engine.night.catalog import NIGHT_DIR, catalog_of

    if ruleset.night_catalog is None and ruleset.night_path is None \
            and not (NIGHT_DIR / f"{ruleset.id}.toml").is_file():
        return [Problem("warning", "night", None, "没有夜晚技能（night）：`tracker night` 无法结算这个规则的夜晚",
                        "在规则文件里加 [night] 表和 [[night.skills]]，或 night = \"夜晚文件.toml\"")]
    try:
        catalog = catalog_of(ruleset)
    except RulesetError as exc:
        return [_finding(exc)]
    return _hook_steps(ruleset.id, catalog)


def _hook_steps(rid: str, catalog: Any) -> list[Problem]:
    """A step written ``hook = "…"`` that no hook module of this id settles: the night would stop there with
    an error (a copy of a bundled game under a new id keeps the steps but not the code, which is found by id)."""
    from tracker.engine.night.games import bundled_hook_owner, hooks_for

    hooks = hooks_for(rid)
    missing = [s for s in catalog.steps if s.hook is not None and (hooks is None or s.hook not in hooks.steps)]
    if not missing:
        return []
    names = list(dict.fromkeys(f"{s.n or ''}{s.hook}" for s in missing))
    owner = bundled_hook_owner(str(missing[0].hook))
    keep = f"从内置规则 {owner} 复制的规则保留 id = \"{owner}\" 就用它的钩子；" if owner else ""
    return [Problem("error", "night.steps", None,
                    f"{len(names)} 个结算步骤写了 hook，但规则 {rid} 没有带这些步骤的钩子模块，夜晚会停在第一个：{'、'.join(names)}",
                    f"{keep}否则把这些步骤写成 skills / tell / resolve（docs/ruleset.md）")]


def _defaults(model: BaseModel, text: str, loc: Loc = ()) -> Iterator[Problem]:
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        here = (*loc, name)
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        rule = extra.get("switches_on")
        if rule and name not in model.model_fields_set:
            off = extra.get("off") or _off(value, field)
            default = f"，按默认值 {toml_value(value)}" if value is not None else ""
            yield Problem("warning", where(here), toml_line(text, here),
                          f"{where(here)} 没有写{default}：{rule}",
                          f"规则帖没有这条就写明：{name} = {off}" if off else f"写明规则帖的值：{name} = …")
        if isinstance(value, BaseModel):
            yield from _defaults(value, text, here)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from _defaults(item, text, (*here, i))


def _off(value: Any, field: FieldInfo) -> str:
    """What writing the rule off looks like, where the key has such a value."""
    if isinstance(value, bool):
        return toml_value(not value)
    if isinstance(value, int):
        floor = next((m.ge for m in field.metadata if hasattr(m, "ge")), 0)
        return "0" if floor == 0 else ""
    if isinstance(value, list):
        return "[]"
    return ""
