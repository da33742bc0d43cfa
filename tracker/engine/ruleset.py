"""A game's rules as data: one TOML file per rule post, loaded into frozen dataclasses.

A director with a sixth game writes a file, not code: `load_ruleset` takes a bundled id or a path.
Every mistake in such a file raises :class:`RulesetError` naming the key and the fix, because the
person reading it is a director, not a programmer. Where a rule post leaves room, the file declares
an ``[[options]]`` entry with the common reading as default; overrides re-parse the file with the
option applied, so the rest of the code only ever sees one consistent :class:`Ruleset`.

This module is the one door: it finds a ruleset (bundled id or path) and decodes the TOML. What a
rule is lives in :mod:`tracker.engine.ruleset_schema` and how a file is checked in
:mod:`tracker.engine.ruleset_reader`, so neither grows past reading size; every name they define
is re-exported here, so callers import from ``tracker.engine.ruleset`` as before.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tracker.engine.ruleset_reader import parse_ruleset
from tracker.engine.ruleset_schema import (
    CONTENT_FREE_WORDS,
    DETECTOR_KINDS,
    EXIT_KINDS,
    AccelChanges,
    CardRules,
    ChangeRule,
    CheckTiming,
    Condition,
    ConditionKind,
    DayRules,
    DetectorRule,
    Election,
    Faction,
    ForbiddenCategory,
    LastWordsRules,
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
from tracker.errors import RulesetError, os_error_words, toml_syntax_words
from tracker.safefile import read_bounded

# The schema and the reader live in ruleset_schema / ruleset_reader; this module stays the one
# import the rest of the code uses, so every name they define is re-exported here.
__all__ = [
    "BUNDLED_DIR",
    "CONTENT_FREE_WORDS",
    "DETECTOR_KINDS",
    "EXIT_KINDS",
    "AccelChanges",
    "CardRules",
    "ChangeRule",
    "CheckTiming",
    "Condition",
    "ConditionKind",
    "DayRules",
    "DetectorRule",
    "Election",
    "Faction",
    "ForbiddenCategory",
    "LastWordsRules",
    "LurkRules",
    "ModifierEffect",
    "ModifierSpec",
    "Option",
    "PerDeadBonus",
    "PlayerSet",
    "PublicationRules",
    "RedConsequence",
    "RedSettled",
    "RequestThreshold",
    "Role",
    "RoleGroup",
    "Ruleset",
    "SpeechRules",
    "TagRule",
    "Threshold",
    "Tie",
    "VotingRules",
    "WeightRule",
    "WinPolicy",
    "WinResult",
    "WinRule",
    "list_rulesets",
    "load_ruleset",
    "parse_ruleset",
    "read_ruleset_file",
]

BUNDLED_DIR = Path(__file__).with_name("rulesets")


def _bundled() -> dict[str, Path]:
    return {p.stem: p for p in sorted(BUNDLED_DIR.glob("*.toml"))}


MAX_RULESET_BYTES = 1024 * 1024  # the largest bundled ruleset is ~30 KB


def read_ruleset_file(path: Path) -> tuple[dict[str, Any], str]:
    """A ruleset file's TOML. Only a regular file of bounded size is read (``/dev/zero`` hung the tool),
    and only a ``.toml`` file's bad line is quoted in a syntax error (``ruleset = "/etc/shadow"``
    printed the file's first line): any other file's content is never echoed."""
    try:
        raw = read_bounded(path, MAX_RULESET_BYTES)
    except FileNotFoundError:
        raise RulesetError(f"找不到规则文件 {path}", hint="用 `tracker rulesets` 查看内置规则的 id") from None
    except OSError as exc:
        raise RulesetError(f"无法读取规则文件 {path}：{os_error_words(exc)}") from None
    try:
        text = raw.decode("utf-8-sig")
        return tomllib.loads(text), text
    except UnicodeDecodeError:
        raise RulesetError(f"规则文件 {path} 不是 UTF-8 编码", hint="用 UTF-8 保存") from None
    except tomllib.TOMLDecodeError as exc:
        words = toml_syntax_words(exc, text, quote_line=path.suffix == ".toml")
        raise RulesetError(f"规则文件 {path} 的 TOML 语法错误，{words}",
                           hint="检查引号、方括号和等号") from None
    except RecursionError:  # an array nested hundreds deep
        raise RulesetError(f"规则文件 {path} 的数组或表嵌套太深", hint="检查方括号是否成对") from None


def load_ruleset(id_or_path: str, base_dir: Path | None = None,
                 options: Mapping[str, Any] | None = None) -> Ruleset:
    """A bundled ruleset by id, or a ruleset file by path (relative paths resolve from ``base_dir``)."""
    bundled = _bundled()
    if id_or_path in bundled:
        return _parse(bundled[id_or_path], options)
    p = Path(id_or_path)
    if p.suffix == ".toml" or "/" in id_or_path or "\\" in id_or_path:
        if not p.is_absolute() and base_dir is not None:
            p = base_dir / p
        return _parse(p, options)
    near = difflib.get_close_matches(id_or_path, sorted(bundled), n=1)
    raise RulesetError(f"没有 id 为 {id_or_path!r} 的内置规则",
                       hint=(f"是不是想写 `{near[0]}`？" if near else "")
                       + f"内置规则：{', '.join(sorted(bundled))}；或写一个 .toml 规则文件的路径")


def list_rulesets() -> list[Ruleset]:
    """Every bundled ruleset, sorted by id."""
    return [_parse(p) for _, p in sorted(_bundled().items())]


def _parse(path: Path, options: Mapping[str, Any] | None = None) -> Ruleset:
    data, text = read_ruleset_file(path)
    return parse_ruleset(data, path, options, text=text)
