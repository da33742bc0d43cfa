"""The game file's fast read (issue 22, item 9): a valid file is read without building the pydantic
model, against the JSON Schema written from it, and never more leniently than the model.

The model (``tracker.config_model``) stays the one home of the rules: the schema file is its own
output, and :func:`tracker.game_schema.conforming` may only answer "the model would give back
exactly this" or "ask the model". Both are compared on the bundled game files and on thousands of
altered ones (a key removed, added or misspelt, a value of another type, a number past its bound).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import tomllib
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tracker.config import load_game, parse_game
from tracker.config_model import json_schema, validate
from tracker.errors import ConfigError
from tracker.game_schema import SCHEMA_PATH, conforming

DATA = Path(__file__).resolve().parents[1] / "tracker" / "demo" / "data"
GAMES = [DATA / "game.toml", DATA / "werewolf-12" / "game.toml"]


def _doc(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _model(data: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return validate(data)
    except ConfigError:
        return None


def test_the_schema_file_is_the_models_own() -> None:
    """Written by `python -m tracker.config_model`; a rule changed in the model without it fails here."""
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == json_schema()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.parent.name)
def test_a_bundled_game_file_is_read_fast_and_as_the_model_reads_it(path: Path) -> None:
    data = _doc(path)
    fast = conforming(copy.deepcopy(data))
    assert fast is not None
    assert fast == _model(data)


ODD_VALUES: list[Any] = [
    True, False, 0, -1, 1, 7, 2**31, 2**63, 0.0, 0.5, -0.5, 1e9, float("nan"), float("inf"), "", " ", "x",
    "2025-03-01T10:00:00+08:00", [], [1], ["a"], [""], [1, "a"], {}, {"a": 1}, {"name": "甲"},
    datetime(2025, 3, 1, 10, tzinfo=timezone(timedelta(hours=8))), datetime(2025, 3, 1, 10),
    date(2025, 3, 1), time(10, 0), 600, 601, 16, 17, 1000, 1001, 1440, 1441, 4096, 4097, 20, 21,
]
ODD_KEYS = ["name", "nmae", "vote", "votes", "uid", "seat", "delay", "timeout", "request_deadline", "password",
            "day", "tags", "purpose", "kind", "at", "player", "extra", "key_file", "reports_dir"]


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*at, i))
    return out


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    doc = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(doc)[1:])
        parent: Any = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        move = rng.random()
        if move < 0.45:
            parent[last] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif move < 0.6 and isinstance(parent, dict):
            del parent[last]
        elif move < 0.8 and isinstance(parent[last], dict):
            parent[last][rng.choice(ODD_KEYS)] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif isinstance(parent[last], list) and parent[last]:
            parent[last].append(copy.deepcopy(rng.choice(parent[last])))
        elif isinstance(parent, dict):
            parent[rng.choice(ODD_KEYS)] = parent.pop(last)
    return doc


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.parent.name)
def test_the_fast_read_is_never_more_lenient_than_the_model(path: Path) -> None:
    rng = random.Random(22)
    data = _doc(path)
    fast_hits = refused = missed = 0
    for _ in range(1500):
        doc = _mutate(data, rng)
        fast = conforming(copy.deepcopy(doc))
        model = _model(doc)
        if fast is not None:
            # the same document, value for value (a NaN never gets here: it is past every bound)
            assert model is not None and fast == model, doc
            fast_hits += 1
        refused += model is None
        missed += fast is None and model is not None
    assert fast_hits > 100 and refused > 100  # both sides of the line were exercised
    assert missed == 0  # and every file the model takes, the fast read took too: it is the common path


def test_a_file_the_fast_read_is_not_sure_of_still_gets_the_models_words(tmp_path: Path) -> None:
    text = (DATA / "game.toml").read_text(encoding="utf-8").replace("[crawl]", "[crawl]\nretries = -1", 1)
    assert "retries = -1" in text
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_game(path)
    assert "crawl.retries" in str(err.value) and "不能小于 0" in str(err.value)


def test_the_game_is_the_same_whichever_read_took_it(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _doc(DATA / "game.toml")
    fast = parse_game(copy.deepcopy(data))
    monkeypatch.setattr("tracker.game_schema.conforming", lambda doc: None)
    assert parse_game(copy.deepcopy(data)) == fast


def test_reading_a_valid_game_file_loads_no_pydantic() -> None:
    code = (f"import sys\nfrom tracker.config import load_game\nload_game({str(GAMES[0])!r})\n"
            "print(any(m == 'pydantic' or m.startswith('pydantic.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
