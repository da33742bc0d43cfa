"""`tracker ruleset new --from ID`: a bundled ruleset as one commented file to start a new game from.

The copy is the bundled file with its night file folded in as a ``[night]`` table (so the new game
is one file), a new ``id``, and above each table and key a comment saying what it means — the
model's own descriptions (:mod:`tracker.engine.ruleset_model`), so the comments say what
``docs/ruleset.md`` says. The rule post's sentences already beside the keys stay.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from tracker.engine.ruleset_errors import Loc, clean, model_at, toml_value
from tracker.engine.ruleset_model import RulesetT

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _depth(line: str) -> int:
    """How many ``[``/``{`` a value line leaves open (strings and comments skipped)."""
    depth, quote = 0, ""
    for i, ch in enumerate(line):
        if quote:
            if ch == "\\" and quote == '"':
                continue
            if ch == quote and (quote == "'" or line[i - 1] != "\\"):
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


def default_words(field: FieldInfo) -> str:
    """``（默认 3）``, ``（默认不写）``; nothing for a required key or a table."""
    if field.is_required() or isinstance(field.default, BaseModel):
        return ""
    return "（默认不写）" if field.default is None else f"（默认 {toml_value(field.default)}）"


def _doc(model: type[BaseModel] | None) -> str:
    """A table's meaning: its docstring's first line without the ``[[header]] —`` the file already shows."""
    if model is None or not model.__doc__:
        return ""
    return re.sub(r"^`[^`]+` — ", "", model.__doc__.strip().splitlines()[0])


def comment(text: str, root: type[BaseModel] = RulesetT) -> str:
    """``text`` (a ruleset file) with the model's meaning of each table and key above it."""
    out: list[str] = []
    table: Loc = ()
    open_ = 0
    seen: set[Loc] = set()  # each table and key is explained where it first appears
    for line in text.splitlines():
        if open_ > 0:
            open_ += _depth(line)
            out.append(line)
            continue
        head = _HEADER.match(line)
        if head and not _KEY.match(line):
            table = tuple(p.strip() for p in head.group(2).split("."))
            doc = _doc(model_at(root, table))
            if doc and table not in seen:
                seen.add(table)
                out.append(f"# ▸ {doc}")
            out.append(line)
            continue
        key = _KEY.match(line)
        if key:
            model = model_at(root, clean(table))
            field = model.model_fields.get(key.group(1)) if model is not None else None
            if field is not None and field.description and (*table, key.group(1)) not in seen:
                seen.add((*table, key.group(1)))
                out.append(f"# {key.group(1)}: {field.description}{default_words(field)}")
            open_ = _depth(line[line.index("=") + 1:])
        out.append(line)
    return "\n".join(out) + "\n"


def _inline_night(night: str) -> str:
    """A night file's keys as a ``[night]`` table of the ruleset (its ``ruleset`` line dropped)."""
    lines = ["", "# ════ 夜晚：技能数据（原为单独的夜晚文件，这里写在规则文件里） ════", "[night]"]
    for line in night.splitlines():
        if re.match(r"^\s*ruleset\s*=", line):
            continue
        line = re.sub(r"^(\s*)\[(flip)\]", r"\1[night.\2]", line)  # the night file's own tables
        lines.append(re.sub(r"^(\s*)\[\[(skills|steps|clashes)\]\]", r"\1[[night.\2]]", line))
    return "\n".join(lines) + "\n"


def commented_copy(rid: str, new_id: str) -> str:
    """The bundled ruleset ``rid`` with its night inline and ``id = new_id``, commented from the model. A game
    whose night needs its hook module keeps ``id = rid``: the hooks are found by id, and a copy under a new id
    would stop at its first hook step — the director's variant of that game is still that game's night."""
    from tracker.engine.night.catalog import NIGHT_DIR
    from tracker.engine.night.games import hooks_for
    from tracker.engine.ruleset import BUNDLED_DIR, load_ruleset

    rs = load_ruleset(rid)  # a bundled id, checked (an unknown one is refused with the nearest)
    assert rs.path is not None
    hooked = hooks_for(rs.id) is not None
    text = rs.path.read_text("utf-8")
    if not hooked:
        text = re.sub(r'(?m)^id\s*=\s*".*"$', f"id = {toml_value(new_id)}", text, count=1)
    night = Path(NIGHT_DIR / f"{rs.id}.toml")
    if rs.path.parent == BUNDLED_DIR and night.is_file():
        text = text.rstrip("\n") + "\n" + _inline_night(night.read_text("utf-8"))
    keep = (f"# 注意：{rid} 的夜晚有代码钩子（tracker/engine/night/games/），按 id 找到，所以这份副本保留 id = \"{rid}\"；\n"
            "# 改成新 id 时，写了 hook 的步骤都要改写成数据（`tracker ruleset check` 会一一指出）。\n") if hooked else ""
    intro = (f"# 由 `tracker ruleset new --from {rid}` 生成：从内置规则 {rid} 开始写新的规则。\n"
             "# 每个键上方的注释说明它的含义和默认值（与 docs/ruleset.md 相同）；写完用 `tracker ruleset check` 检查。\n"
             + keep)
    return intro + comment(text)
