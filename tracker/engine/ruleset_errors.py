"""A ruleset file's mistakes in the director's words: the dotted key, its TOML line, and the fix.

The model (:mod:`tracker.engine.ruleset_model`) says what is wrong; this module says where (the key as
written, ``roles[3].faction``, and the line of the file it is on) and what to write instead (the
field's example, the nearest valid key for a typo, the allowed choices). pydantic's error locations
carry union members' names (``NightT``, ``list[PlayerSetT]``) between the keys; they are dropped, and
of the alternatives a union reports only the one that went deepest is kept.
"""

from __future__ import annotations

import difflib
import json
import re
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

Loc = tuple[str | int, ...]

# pydantic's names for the members of a union, which sit between the keys of an error's location
_TAG = re.compile(r"^(str|int|bool|float|none|constrained-\w+|[A-Z]\w*T|[\w-]+\[.*\])$")
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEYLINE = re.compile(r"""^\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_\-]+)\s*=""")


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of ``tracker ruleset check``: ``level`` is ``error`` or ``warning``."""

    level: str
    where: str
    line: int | None
    message: str
    hint: str | None = None
    #: The file the line is in, when not the one checked (a night file the ruleset names).
    file: str | None = None

    def words(self, src: str) -> str:
        at = f"{self.file or src} 第 {self.line} 行" if self.line else self.file or src
        return f"{at}：{self.message}"


def where(loc: Loc) -> str:
    """``("roles", 2, "faction")`` → ``roles[3].faction`` (1-based, as a director counts tables)."""
    out = ""
    for p in loc:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "（顶层）"


def clean(loc: Sequence[str | int]) -> Loc:
    return tuple(p for p in loc if isinstance(p, int) or not _TAG.match(p))


def toml_line(text: str | None, loc: Loc) -> int | None:
    """The line of ``text`` where ``loc`` is written: the key's own line, else its table's header."""
    if not text:
        return None
    counts: dict[Loc, int] = {}
    cur: Loc = ()
    best: tuple[int, int | None] = (0, None)
    for n, line in enumerate(text.splitlines(), 1):
        head = _HEADER.match(line)
        if head:
            parts = [p.strip().strip("\"'") for p in head.group(2).split(".")]
            resolved: list[str | int] = []
            for i, p in enumerate(parts):
                resolved.append(p)
                key = tuple(resolved)
                if i == len(parts) - 1 and head.group(1) == "[[":
                    counts[key] = counts.get(key, -1) + 1
                    resolved.append(counts[key])
                elif key in counts:
                    resolved.append(counts[key])
            cur = tuple(resolved)
            path = cur
        else:
            kl = _KEYLINE.match(line)
            if not kl:
                continue
            path = (*cur, kl.group(2) if kl.group(2) is not None else kl.group(3) or kl.group(1))
        if loc[: len(path)] == path and len(path) > best[0]:
            best = (len(path), n)
    return best[1]


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in typing.get_args(annotation) for m in _models_in(a)]


def model_at(root: type[BaseModel], loc: Loc) -> type[BaseModel] | None:
    """The table model ``loc`` (a cleaned location) points into, or None past a plain value."""
    model: type[BaseModel] | None = root
    for p in loc:
        if isinstance(p, int) or model is None:
            continue
        field = model.model_fields.get(p)
        found = _models_in(field.annotation) if field is not None else []
        model = found[0] if found else None
    return model


def toml_value(v: Any) -> str:
    """A Python value as TOML writes it (for examples and the commented copy)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    return str(v)


def field_at(root: type[BaseModel], loc: Loc) -> tuple[str, FieldInfo] | None:
    """The key ``loc`` ends in (past any list index) and its field, when it is a key of the format."""
    keys = [i for i, p in enumerate(loc) if isinstance(p, str)]
    if not keys:
        return None
    model = model_at(root, loc[: keys[-1]])
    name = str(loc[keys[-1]])
    field = model.model_fields.get(name) if model is not None else None
    return (name, field) if field is not None else None


def _example(root: type[BaseModel], loc: Loc) -> str | None:
    found = field_at(root, loc)
    if found is None:
        return None
    key, field = found
    if field.examples:
        return f"{key} = {toml_value(field.examples[0])}"
    choices = _choices(field.annotation)
    if choices:
        return f"{key} = {toml_value(choices[0])}（可选：{' / '.join(toml_value(c) for c in choices)}）"
    if not field.is_required() and field.default not in (None, [], {}):
        return f"{key} = {toml_value(field.default)}"
    return None


def _choices(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return [c for a in typing.get_args(annotation) for c in _choices(a)]


_WANT = {"int": "整数（不加引号、不带小数点）", "float": "数字（不加引号）", "bool": "true 或 false（不加引号）",
         "string": "文字（加引号）", "list": "数组（方括号）", "dict": "表", "model": "表", "is_instance": "表"}


def _one(root: type[BaseModel], err: Any, text: str | None, prefix: Loc) -> Problem:
    loc = (*prefix, *clean(err["loc"]))
    inner = clean(err["loc"])
    kind, value = err["type"], err.get("input")
    line = toml_line(text, loc)
    w = where(loc)
    example = _example(root, inner)
    hint = f"例如：{example}" if example else None
    shown = repr(value) if len(repr(value)) < 60 else "（表或数组）"
    if kind == "extra_forbidden":
        model = model_at(root, inner[:-1])
        allowed = sorted(model.model_fields) if model is not None else []
        near = difflib.get_close_matches(str(inner[-1]), allowed, n=1)
        return Problem("error", w, line, f"{w} 不是可识别的键",
                       f"是不是想写 `{near[0]}`？" if near else f"可用的键：{', '.join(allowed)}")
    if kind == "missing":
        return Problem("error", w, line, f"缺少 {w}", f"加一行：{example}" if example else None)
    if kind == "literal_error":
        choices = _choices(model_field_annotation(root, inner))
        near = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
        return Problem("error", w, line, f"{w} 的值 {shown} 不可用",
                       (f"是不是想写 `{near[0]}`？" if near else "")
                       + f"可选：{' / '.join(toml_value(c) for c in choices)}")
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        limit = next(iter((err.get("ctx") or {}).values()), "")
        limit = f"{limit:g}" if isinstance(limit, int | float) else limit
        words = {"greater_than_equal": f"不能小于 {limit}", "greater_than": f"必须大于 {limit}",
                 "less_than_equal": f"不能大于 {limit}", "less_than": f"必须小于 {limit}"}[kind]
        return Problem("error", w, line, f"{w} 的值 {shown} {words}", hint)
    if kind in ("string_too_short", "too_short"):
        return Problem("error", w, line, f"{w} 不能为空", hint)
    if kind == "string_pattern_mismatch":
        return Problem("error", w, line, f"{w} 的值 {shown} 格式不对", hint)
    if kind == "value_error":
        msg = str(err.get("ctx", {}).get("error", err["msg"]))
        return Problem("error", w, line, f"{w}：{msg}", hint)
    want = next((v for k, v in _WANT.items() if kind.startswith(k)), None)
    what = f"应为{want}" if want else f"不对（{err['msg']}）"
    return Problem("error", w, line, f"{w} 的值 {shown} 类型不对，{what}", hint)


def model_field_annotation(root: type[BaseModel], loc: Loc) -> Any:
    found = field_at(root, loc)
    return found[1].annotation if found is not None else None


def problems(root: type[BaseModel], exc: ValidationError, text: str | None, prefix: Loc = ()) -> list[Problem]:
    """Every error of ``exc`` once, in the file's order: of a union's alternatives, only the deepest."""
    errs = exc.errors(include_url=False)
    locs = [clean(e["loc"]) for e in errs]
    seen: set[Loc] = set()
    out: list[Problem] = []
    for e, loc in zip(errs, locs, strict=True):
        if loc in seen or any(len(o) > len(loc) and o[: len(loc)] == loc for o in locs):
            continue
        seen.add(loc)
        out.append(_one(root, e, text, prefix))
    return sorted(out, key=lambda p: (p.line is None, p.line or 0))
