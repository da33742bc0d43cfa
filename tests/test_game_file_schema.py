"""The game file's types and bounds, checked by the pydantic schema: each of the issue's typos is
refused with exit 2 and a Chinese message naming the key and the fix, before anything is crawled
or written; a stored game is untouched."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.config import parse_game
from tracker.errors import ConfigError

BASE = """
[game]
name = "测试局"
ruleset = "luoluo-m19"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]

[[players]]
name = "泡泡"
tags = ["警长"]

[[days]]
day = 1
vote = 5
opens = 2025-03-01T10:00:00+08:00
closes = 2025-03-02T22:00:00+08:00
"""

CASES = [
    ("[schedule]\ninterval_minutes = 0\n", ("schedule.interval_minutes", "不能小于 1", "interval_minutes = 30")),
    ("[schedule]\ninterval_minutes = -5\n", ("schedule.interval_minutes", "不能小于 1")),
    ('[schedule]\ninterval_minutes = "abc"\n', ("schedule.interval_minutes", "'abc'", "应为数字")),
    ("[crawl]\ndelay = -1\n", ("crawl.delay", "不能小于 0")),
    ("[crawl]\nconcurrency = 0\n", ("crawl.concurrency", "不能小于 1")),
    ('[crawl]\nmobile_api = "false"\n', ("crawl.mobile_api", "'false'", "true 或 false（不加引号）")),
    ("[crawl]\nmax_page_mb = 0\n", ("crawl.max_page_mb", "不能小于 1")),
    ("[crawl]\nconcurrancy = 2\n", ("crawl.concurrancy", "concurrency")),
]
EDITS = [
    (lambda t: t.replace("vote = 5", 'vote = 5\naccelerated = "no"'), ("days[1].accelerated", "'no'", "true 或 false")),
    (lambda t: t.replace("vote = 5", "vote = 4.0"), ("days[1].vote", "4.0", "整数", "vote = 5")),
    (lambda t: t.replace('tags = ["警长"]', "tags = 5"), ("players[1].tags", "应为数组", 'tags = ["警长"]')),
    (lambda t: t.replace('name = "泡泡"', 'name = "泡泡"\nuid = "12"'), ("players[1].uid", "整数")),
    (lambda t: t.replace("day = 1", "day = 0"), ("days[1].day", "不能小于 1")),
    (lambda t: t.replace('name = "测试局"\n', ""), ("缺少 game.name", 'name = "演示局"')),
]


def _all() -> list[tuple[str, tuple[str, ...]]]:
    return [(BASE + extra, words) for extra, words in CASES] + [(edit(BASE), words) for edit, words in EDITS]


@pytest.mark.parametrize(("text", "words"), _all(), ids=[w[0] for _, w in _all()])
def test_a_mistyped_game_file_is_refused_with_the_key_and_the_fix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: tuple[str, ...]) -> None:
    assert text != BASE
    game = tmp_path / "game.toml"
    game.write_text(text, encoding="utf-8")
    code = main(["state", str(game)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("错误：") and "Traceback" not in err
    for w in words:
        assert w in err, (w, err)
    assert not (tmp_path / "game.db").exists()  # refused before any database is opened


def test_the_values_the_schema_accepts_still_load() -> None:
    g = parse_game(tomllib.loads(BASE + "[crawl]\ndelay = 0\ntimeout = 30\nmobile_api = false\n"
                                 "[schedule]\ninterval_minutes = 1\nnear_close_interval_minutes = 2.5\n"))
    assert g.crawl.delay == 0.0 and g.crawl.timeout == 30.0 and g.crawl.mobile_api is False
    assert g.schedule.interval_minutes == 1.0 and g.days[0].vote == (5,) and g.players[0].tags == ("警长",)
    with pytest.raises(ConfigError, match="不要把密码写进游戏文件"):
        parse_game(tomllib.loads(BASE + '[login]\npassword = "x"\n'))


@pytest.mark.parametrize("value", ["2025-03-02", "22:00:00"])
def test_a_bare_date_or_time_is_named_by_the_model(value: str) -> None:
    """The game file's one model says it (no reader of its own before it): the key, then what to write."""
    doc = tomllib.loads(BASE)
    doc["days"][0]["closes"] = tomllib.loads(f"v = {value}")["v"]
    with pytest.raises(ConfigError, match=r"^days\[1\]\.closes 需要日期和时间") as err:
        parse_game(doc)
    assert err.value.hint == "例如：2025-03-02T22:00:00+08:00"


def test_a_stored_game_is_untouched_by_a_typo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import datetime

    from tracker.clock import SHANGHAI
    from tracker.records import Post
    from tracker.store.db import Store
    from tracker.store.posts import all_posts, upsert_posts

    game = tmp_path / "game.toml"
    game.write_text(BASE, encoding="utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    post = Post(pid=1, tid=5, floor=1, author="导演A", uid=1, posted_at=datetime(2025, 3, 1, 11, tzinfo=SHANGHAI),
                html="x", text="x")
    with store.session() as s:
        upsert_posts(s, [post], seen_at=datetime.now(SHANGHAI))
    store.close()
    game.write_text(BASE + "[schedule]\ninterval_minutes = 0\n", encoding="utf-8")
    assert main(["crawl", str(game)]) == 2
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    with store.session() as s:
        assert [p.pid for p in all_posts(s)] == [1]
    store.close()


@pytest.mark.parametrize(("pattern", "value", "words"), [
    (r"(?m)^freeze_minutes = .*$", "freeze_minutes = -5", ("voting.freeze_minutes", "不能小于 0")),
    (r"(?m)^freeze_minutes = .*$", "freeze_minutes = 1.5", ("voting.freeze_minutes", "应为整数")),
    (r"(?m)^players = .*$", "players = 0", ("players", "不能小于 1")),
    (r"(?m)^min_posts = .*$", 'min_posts = "5"', ("lurk.min_posts", "应为整数", "'5'")),
    (r"(?m)^no_vote_penalty = .*$", 'no_vote_penalty = "no"', ("lurk.no_vote_penalty", "true 或 false")),
])
def test_a_ruleset_with_a_wrong_type_or_bound_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         pattern: str, value: str, words: tuple[str, ...]) -> None:
    import re

    from tracker.engine import rulesets

    source = (Path(rulesets.__file__).parent / "luoluo-m19.toml").read_text(encoding="utf-8")
    broken = re.sub(pattern, value, source, count=1)
    assert broken != source
    (tmp_path / "mine.toml").write_text(broken, encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(BASE.replace('"luoluo-m19"', '"mine.toml"'), encoding="utf-8")
    assert main(["state", str(game)]) == 2
    err = capsys.readouterr().err
    for w in words:
        assert w in err, (w, err)
