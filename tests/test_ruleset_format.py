"""Issue 20 item 6: a ruleset is a documented, checked file.

One model of the format (tracker/engine/ruleset_model.py) gives docs/ruleset.md and the JSON
Schemas (held equal here, so they cannot drift), checks every file (`tracker ruleset check`: each
error with its key, line and the nearest valid key; a warning for each default that switches a rule
on), and explains each key in the copy `tracker ruleset new` writes. A ruleset outside the package
can carry its night inline, and `tracker init` writes its path as the game file will read it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.engine.night.catalog import NIGHT_DIR, catalog_of, load_catalog
from tracker.engine.night.games import hooks_for
from tracker.engine.ruleset import BUNDLED_DIR, load_ruleset
from tracker.engine.ruleset_docs import DOC_PATH, NIGHT_SCHEMA_PATH, SCHEMA_PATH, markdown, schema
from tracker.engine.ruleset_model import TABLES, NightT, RulesetT
from tracker.errors import RulesetError

BUNDLED = sorted(p.stem for p in BUNDLED_DIR.glob("*.toml"))

MINIMAL = '''id = "sixth"
name = "第六局"
source = "规则帖"
players = 3

[[factions]]
name = "狼人"

[[factions]]
name = "村民"

[[roles]]
name = "狼人"
faction = "狼人"

[[roles]]
name = "村民"
faction = "村民"
count = 2

[[win]]
faction = "村民"
clause = "胜"
when = { all_out = [{ factions = ["狼人"] }] }
'''

QUIET = '''
[lurk]
min_posts = 0
three_day_min = 0

[cards]
blue_to_yellow = 3
yellow_to_red = 3

[days]
length_days = 1
weekend_extension = 0
first_day_extended = false
requests = []

[win_policy]
last_standing_wins = false
'''

NIGHT = '''
[night]
[[night.steps]]
n = "1"
skills = ["杀人"]

[[night.skills]]
name = "杀人"
team = "狼群"
roles = ["狼人"]
targets = 1
clause = "狼人每晚选择一名玩家杀死"
'''


def _write(tmp_path: Path, body: str, name: str = "sixth.toml") -> Path:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# -- one model, its documentation and its schema -------------------------------------------------

def test_the_committed_doc_and_schemas_are_the_ones_the_model_writes() -> None:
    """Run `python -m tracker.engine.ruleset_docs` after changing the model."""
    assert DOC_PATH.read_text("utf-8") == markdown()
    assert SCHEMA_PATH.read_text("utf-8") == schema(RulesetT)
    assert NIGHT_SCHEMA_PATH.read_text("utf-8") == schema(NightT)


def test_every_key_has_a_meaning_in_the_doc() -> None:
    doc = DOC_PATH.read_text("utf-8")
    for _, model in TABLES:
        for name, field in model.model_fields.items():
            assert field.description, f"{model.__name__}.{name} has no description"
            assert re.search(rf"^\| `{re.escape(name)}` \|", doc, re.M), name
    # the keys issue 20 found undocumented
    assert "| `night` |" in doc and "| `lexicons` |" in doc


def test_the_json_schema_accepts_the_bundled_rulesets_and_refuses_a_typo() -> None:
    import tomllib

    from jsonschema import Draft202012Validator

    v = Draft202012Validator(json.loads(SCHEMA_PATH.read_text("utf-8")))
    for rid in BUNDLED:
        data = tomllib.loads((BUNDLED_DIR / f"{rid}.toml").read_text("utf-8"))
        assert not list(v.iter_errors(data)), rid
    data = tomllib.loads(MINIMAL + "[lurk]\nmin_post = 3\n")
    assert list(v.iter_errors(data))
    night = Draft202012Validator(json.loads(NIGHT_SCHEMA_PATH.read_text("utf-8")))
    for p in NIGHT_DIR.glob("*.toml"):
        assert not list(night.iter_errors(tomllib.loads(p.read_text("utf-8")))), p.name


# -- tracker ruleset check ------------------------------------------------------------------------

@pytest.mark.parametrize("rid", BUNDLED)
def test_every_bundled_ruleset_passes_check(rid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruleset", "check", str(BUNDLED_DIR / f"{rid}.toml"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] and not [p for p in doc["problems"] if p["level"] == "error"], doc


def test_check_lists_every_error_with_its_key_line_and_the_nearest_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = MINIMAL.replace('players = 3', 'players = "3"') + '\n[lurk]\nmin_post = 3\n\n[voting]\ntie = "first_top"\n'
    p = _write(tmp_path, body)
    assert main(["ruleset", "check", str(p)]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert f"sixth.toml 第 {_line_of(body, 'players =')} 行：players 的值 '3'" in out
    assert f"第 {_line_of(body, 'min_post =')} 行：lurk.min_post 不是可识别的键" in out
    assert "是不是想写 `min_posts`？" in out
    assert f"第 {_line_of(body, 'tie =')} 行：voting.tie 的值 'first_top' 不可用" in out
    assert "first_to_top" in out
    assert "3 个错误" in err


def test_check_names_a_misspelt_faction_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = MINIMAL.replace('faction = "村民"\ncount = 2', 'faction = "村明"\ncount = 2')
    assert main(["ruleset", "check", str(_write(tmp_path, body)), "--json"]) == 2
    (problem,) = json.loads(capsys.readouterr().out)["problems"]
    assert problem["level"] == "error" and "roles[2].faction" in problem["message"]
    assert (problem["key"], problem["line"], problem["file"]) == ("roles[2].faction", _line_of(body, "村明"), "sixth.toml")


@pytest.mark.parametrize("rid", sorted(p.stem for p in NIGHT_DIR.glob("*.toml")))
def test_every_bundled_night_file_passes_check(rid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruleset", "check", str(NIGHT_DIR / f"{rid}.toml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]


def test_a_night_file_a_ruleset_names_is_checked_with_its_own_name_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    night = 'ruleset = "sixth"\n\n[[skills]]\nname = "杀人"\nroles = ["狼王"]\ntargets = 1\n'
    _write(tmp_path, night, "sixth-night.toml")
    ruleset = _write(tmp_path, MINIMAL.replace('players = 3', 'players = 3\nnight = "sixth-night.toml"'))
    assert main(["ruleset", "check", str(ruleset), "--json"]) == 2
    (problem,) = [p for p in json.loads(capsys.readouterr().out)["problems"] if p["level"] == "error"]
    assert (problem["file"], problem["key"], problem["line"]) == ("sixth-night.toml", "skills[1].roles", 5)
    assert "狼王" in problem["message"]


def test_check_warns_where_a_left_out_key_switches_a_rule_on(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 20: leaving out three_day_min turned on a 潜水 rule the post does not have. The 潜水 minimums
    are now off unless written (nothing to warn of); the keys whose defaults still act are warned."""
    assert main(["ruleset", "check", str(_write(tmp_path, MINIMAL + NIGHT)), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    warned = {p["key"] for p in doc["problems"] if p["level"] == "warning"}
    assert {"days.first_day_extended", "win_policy.last_standing_wins"} <= warned
    assert not warned & {"lurk.three_day_min", "lurk.min_posts"}
    assert doc["ok"]
    assert main(["ruleset", "check", str(_write(tmp_path, MINIMAL + QUIET + NIGHT)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["problems"] == []


def test_check_of_a_file_that_is_not_toml_is_exit_2_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruleset", "check", str(_write(tmp_path, "id = \n"))]) == 2
    assert main(["ruleset", "check", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "TOML 语法错误" in err and "找不到规则文件" in err


# -- tracker ruleset new ---------------------------------------------------------------------------

@pytest.mark.parametrize("rid", BUNDLED)
def test_new_writes_a_commented_one_file_copy_with_the_same_rules(
        rid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "my-game.toml"
    assert main(["ruleset", "new", "--from", rid, "--out", str(out)]) == 0
    text = out.read_text("utf-8")
    assert "# players: the table's size" in text
    assert "# ▸ one identity (身份)" in text
    copy, orig = load_ruleset(str(out)), load_ruleset(rid)
    # a night with a hook module keeps its id (the hooks are found by id); a night of data alone takes the file's name
    assert copy.id == (rid if hooks_for(rid) is not None else "my-game")
    same = dataclasses.replace(copy, id=orig.id, path=orig.path, night_path=orig.night_path)
    assert same == orig
    if (NIGHT_DIR / f"{rid}.toml").is_file():
        assert copy.night_catalog is not None
        assert catalog_of(copy).skills == load_catalog(rid).skills
    assert main(["ruleset", "check", str(out)]) == 0


def test_a_copy_of_a_hooked_game_renamed_is_an_error_naming_its_hook_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A director who renames the copy's id loses the game's hook module (found by id): `ruleset check` says
    so before a night stops at its first hook step, and names the id that brings the hooks back."""
    out = tmp_path / "m160.toml"
    assert main(["ruleset", "new", "--from", "gourmet-m160", "--out", str(out)]) == 0
    text = out.read_text("utf-8")
    assert 'id = "gourmet-m160"' in text
    out.write_text(re.sub(r'(?m)^id = "gourmet-m160"', 'id = "m160"', text, count=1), "utf-8")
    capsys.readouterr()
    assert main(["ruleset", "check", str(out)]) == 2
    err = "".join(capsys.readouterr())
    assert "写了 hook，但规则 m160 没有带这些步骤的钩子模块" in err and "4.22凶杀的选择" in err
    assert 'id = "gourmet-m160"' in err


def test_new_refuses_to_overwrite_and_an_unknown_id_suggests(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = _write(tmp_path, "keep", "mine.toml")
    assert main(["ruleset", "new", "--from", "luoluo-m19", "--out", str(out)]) == 2
    assert out.read_text("utf-8") == "keep"
    assert main(["ruleset", "new", "--from", "luoluo-m91"]) == 2
    assert "luoluo-m19" in capsys.readouterr().err


# -- a sixth game as one file ----------------------------------------------------------------------

def test_a_ruleset_file_carries_its_night_inline(tmp_path: Path) -> None:
    rs = load_ruleset(str(_write(tmp_path, MINIMAL + NIGHT)))
    catalog = catalog_of(rs)
    assert catalog.ruleset == "sixth" and [st.skills for st in catalog.steps] == [("杀人",)]
    assert catalog.skill("杀人").roles == ("狼人",) and catalog.skill("杀人").max_targets == 1


@pytest.mark.parametrize(("change", "words"), [
    ('roles = ["狼人"]', ("night.skills[1].role ", "不是可识别的键", "roles")),
    ('targets = 1', ("night.skills[1].targets", "不能小于 0")),
])
def test_an_inline_night_is_checked_with_its_key_and_line(tmp_path: Path, change: str,
                                                          words: tuple[str, ...]) -> None:
    bad = {'roles = ["狼人"]': 'role = ["狼人"]', 'targets = 1': 'targets = -1'}[change]
    body = MINIMAL + NIGHT.replace(change, bad)
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(_write(tmp_path, body)))
    msg = str(e.value)
    assert f"第 {_line_of(body, bad)} 行" in msg
    for w in words:
        assert w in msg


def test_an_inline_skill_of_an_unknown_role_is_refused(tmp_path: Path) -> None:
    body = MINIMAL + NIGHT.replace('roles = ["狼人"]', 'roles = ["狼王"]')
    with pytest.raises(RulesetError, match=r"night\.skills\[1\].*狼王"):
        load_ruleset(str(_write(tmp_path, body)))


# -- tracker init ------------------------------------------------------------------------------------

def test_init_writes_the_ruleset_path_relative_to_the_game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules").mkdir()
    _write(tmp_path / "rules", MINIMAL, "my.toml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--ruleset", "rules/my.toml", "--out", "sub/g.toml"]) == 0
    text = (tmp_path / "sub" / "g.toml").read_text("utf-8")
    assert 'ruleset = "../rules/my.toml"' in text
    from tracker.config import load_game

    game = load_game(tmp_path / "sub" / "g.toml")
    assert load_ruleset(game.ruleset, base_dir=game.path.parent if game.path else None).id == "sixth"


def test_every_file_of_a_bundled_game_is_named_by_its_ruleset_id() -> None:
    """docs/architecture.md "A game's files": a night file, a hook package or a readings page that
    no bundled ruleset names would be found by nobody."""
    import tomllib

    from tracker.engine.night import games

    ids = set(BUNDLED)
    for p in NIGHT_DIR.glob("*.toml"):
        assert p.stem in ids, p
        assert tomllib.loads(p.read_text("utf-8"))["ruleset"] == p.stem, p
    packages = {p.name for p in Path(games.__file__).parent.iterdir() if (p / "__init__.py").is_file()}
    assert packages <= {i.replace("-", "_") for i in ids}, packages
    docs = Path(DOC_PATH).parent / "night"
    assert {p.stem for p in docs.glob("*.md")} <= ids


def test_a_night_key_nothing_reads_is_refused(tmp_path: Path) -> None:
    """`order` and a skill's `step` drove nothing (issue 20): the order is `[[steps]]`, which the generic
    engine walks and M160's hook reads; a file still writing `order` is told so."""
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(_write(tmp_path, MINIMAL + NIGHT.replace("[night]\n", '[night]\norder = ["杀人"]\n'))))
    assert "order" in str(err.value) and "steps" in (err.value.hint or "")
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(_write(tmp_path, MINIMAL + NIGHT.replace("targets = 1", 'targets = 1\nstep = "(1)"'))))
    assert "step" in str(err.value)
