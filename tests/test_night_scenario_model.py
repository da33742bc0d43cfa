"""The night scenario is one pydantic model, and ``scenario.schema.json`` is written from it.

The shared vocabulary (``shared/night/README.md`` "One vocabulary for every game") is what both say:
its worked examples validate, and what the model refuses the committed schema refuses too (checked
with a JSON Schema validator, as a director's editor would), the five seed posts narrowed to their
own words.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tracker.engine.night.desk import setup_field
from tracker.engine.night.scenario import MAX_VALUES, validate
from tracker.engine.night.scenario_model import PlayerT, StateT, UsesT
from tracker.engine.night.scenario_words import SEED_WORDS
from tracker.engine.ruleset_docs import SCENARIO_SCHEMA_PATH, scenario_schema_text
from tracker.errors import ConfigError

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"


def examples() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(EXAMPLES.read_text("utf-8"))["scenarios"]
    return found


def example(game_key: str) -> dict[str, Any]:
    game = next(g for g, w in SEED_WORDS.items() if w.key == game_key)
    return copy.deepcopy(next(s for s in examples() if s["game"] == game))


def schema() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCENARIO_SCHEMA_PATH.read_text("utf-8")))


def test_the_committed_schema_is_the_one_the_model_writes() -> None:
    """Run `python -m tracker.engine.ruleset_docs` after changing the scenario model."""
    assert SCENARIO_SCHEMA_PATH.read_text("utf-8") == scenario_schema_text()


def test_every_shared_example_validates_against_the_model_and_the_schema() -> None:
    v = schema()
    for sc in examples():
        validate(sc)
        assert not list(v.iter_errors(sc)), sc["id"]


def _set(sc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target = sc
    for key in path[:-1]:
        target = target[key]
    if value is _DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return sc


_DROP = object()

#: (seed post, where, the value written, the error's path): each refused by the model and the schema.
REFUSED = [
    ("107", ("setup", "players", 3, "alive"), "yes", "setup.players[3].alive"),
    ("107", ("setup", "players", 0, "role"), "狼人", "setup.players[0]"),               # not a 107 role
    ("107", ("setup", "players", 0, "seat"), 3, "setup.players[0]"),                   # not a 107 field
    ("107", ("setup", "players", 0, "alive"), _DROP, "setup.players[0]"),             # 107 requires alive
    ("107", ("setup", "players", 0, "tags"), ["神眷者", "神眷者"], "setup.players[0].tags"),
    ("107", ("setup", "state", "红牌"), {"村民": 1}, "setup.state"),                     # not a 107 key
    ("107", ("setup", "state", "判负阵营"), ["狼人"], "setup.state"),                    # not a 107 faction
    ("107", ("setup", "night"), None, "setup"),                                        # null is not absent
    ("107", ("setup", "state"), _DROP, "setup.state"),
    ("107", ("actions", 0, "actor"), "p1", "actions[0].actor"),
    ("107", ("actions", 0, "phase"), "daytime", "actions[0].phase"),
    ("107", ("actions", 0, "extra"), 1, "actions[0].extra"),
    ("M65", ("setup", "players", 0, "tags"), ["警长"], "setup.players[0]"),              # M65 has no tags
    ("M160", ("setup", "players", 0, "seat"), True, "setup.players[0].seat"),          # true is not a number
    ("M160", ("setup", "players", 0, "uses"), {"夺刀": -1}, "setup.players[0].uses.夺刀"),
    ("M19", ("setup", "state", "情侣"), {"类型": "基佬情深", "攻": "P01"}, "setup.state.情侣.受"),
]


@pytest.mark.parametrize(("game", "path", "value", "where"), REFUSED)
def test_the_model_and_the_schema_refuse_the_same_mistakes(game: str, path: tuple[Any, ...], value: Any,
                                                           where: str) -> None:
    sc = _set(example(game), path, value)
    with pytest.raises(ConfigError) as err:
        validate(sc)
    assert f"情景文件不符合格式：{where}：" in str(err.value)
    assert "Input should" not in str(err.value)  # the director's words, not pydantic's
    assert list(schema().iter_errors(sc))


def test_a_state_key_the_vocabulary_allows_null_takes_it() -> None:
    """神眷者 null: the holder gone (the vocabulary's anyOf pid/null), unlike a key that is only left out."""
    sc = example("107")
    sc["setup"]["state"]["神眷者"] = None
    validate(sc)
    assert not list(schema().iter_errors(sc))


def test_a_game_outside_the_five_is_not_narrowed() -> None:
    """werewolf-12's names are its ruleset's, checked by the engine against it, not by the seed words."""
    sc = example("107")
    sc["game"] = "werewolf-12"
    sc["setup"]["players"][0].update(role="狼人", faction="狼人", seat=3)
    validate(sc)
    assert not list(schema().iter_errors(sc))


def test_the_vocabulary_is_written_once() -> None:
    """The seed posts' fields, state keys and uses are the model's own, so the desk and the schema agree."""
    for words in SEED_WORDS.values():
        assert set(words.fields) <= set(PlayerT.model_fields), words.key
        assert set(words.state_keys) <= set(StateT.model_fields), words.key
    assert set(UsesT.model_fields) == {u for w in SEED_WORDS.values() for u in w.uses}
    assert setup_field("座次", "P01") == "seat" and setup_field("警长", None) == "警长"


def test_a_scenario_of_too_many_values_is_refused_before_the_model(tmp_path: Path) -> None:
    sc = example("107")
    sc["actions"] = [{"actor": "P01", "skill": "突击", "targets": ["P02"] * 30}] * 900  # under the action cap
    with pytest.raises(ConfigError, match=f"值超过 {MAX_VALUES} 个"):
        validate(sc)
