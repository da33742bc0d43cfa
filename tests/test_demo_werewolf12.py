"""`tracker demo --game werewolf-12`: the demo's whole job on the bundled 12-player werewolf game.

Its forum (tracker/demo/data/werewolf-12/forum.toml, written as pages when the demo starts) is replayed by the same
loopback server and crawled by the same service as the seed demo, desktop pages only. The numbers
asserted are what werewolf-12's post makes of that forum: 四、1 the 警长 election ("上警（含已退水者）
不得投票"), 四、2 "警长的一票计为 1.5 票", 三、3 seat-number ballots, "投票对象：弃票", "21:00 及之后的投票帖
……一律无效", "21:00 之前从未有效投票者，视为弃票"; 五 the nights (守卫 → 狼人 → 女巫 → 预言家, 同守同救,
"守卫守护不能挡女巫的毒药"); 三、4 潜水 ("顶""路过"不算); 三、5 红字; 三、2 "死者（遗言除外）……不得发言" with 三、1's one 遗言 for
the night-1 death.
"""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.demo.run import DEMO_DATA

FORUM = tomllib.loads((DEMO_DATA / "werewolf-12" / "forum.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    workdir = tmp_path_factory.mktemp("demo-ww12")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--game", "werewolf-12", "--no-tui", "--json", "--dir", str(workdir)]) == 0
    return dict(json.loads(out.getvalue()), workdir=str(workdir))


def test_it_crawls_the_generated_forum_desktop_only(job: dict[str, Any]) -> None:
    assert job["ruleset"] == "werewolf-12"
    crawl = job["crawl"]
    assert [t["tid"] for t in crawl["threads"]] == [t["tid"] for t in FORUM["threads"]]
    assert {t["source"] for t in crawl["threads"]} == {"desktop"}
    assert crawl["posts_new"] == sum(len(t["posts"]) for t in FORUM["threads"])


def test_first_night_comes_before_day_one(job: dict[str, Any]) -> None:
    """"第1夜（首夜）→ 第1天"; 五、4 同守同救: guarded and saved, 北辰 dies and the 解药 is spent."""
    n1, n2 = job["nights"]
    assert n1["night"] == 1 and n1["confirmed"] and n1["deaths"] == [{"player": "北辰", "cause": "同守同救"}]
    assert n1["rejected"] == [] and n1["feedback"] == 2  # the 女巫 told the 刀口, the 预言家 his answer
    # 第2夜: the guarded 星河 survives the knife; the poison goes through ("守卫守护不能挡女巫的毒药")
    assert n2["deaths"] == [{"player": "松果", "cause": "毒药"}]
    assert [s["player"] for s in n2["survivals"]] == ["星河"]
    assert n2["feedback"] == 1  # "解药用掉之后不再告知刀口": only the 预言家 hears
    assert job["nights_first"] is True


def test_day_one_elects_the_sheriff_then_weighs_him(job: dict[str, Any]) -> None:
    day1, day2 = job["days"]
    sheriff, exile = day1["votes"]
    assert sheriff["purpose"] == "sheriff" and sheriff["public_totals"] == {"星河": 4, "寒鸦": 3}
    assert sheriff["invalid"] == 1  # 3 号 上警 then 退水: "上警（含已退水者）不得投票"
    assert exile["public_totals"] == {"寒鸦": 5.5, "星河": 3}  # 星河 ×1.5 + 4 seat-number ballots
    assert exile["invalid"] == 1  # 11 号 at 21:10, in the freeze
    assert day1["confirmed"] == ["星河 票数最高（4 票），当选警长", "寒鸦 票数最高（5.5 票），被投票出局"]
    [only] = day2["votes"]
    assert only["public_totals"] == {"墨鱼": 6.5, "星河": 2} and only["invalid"] == 0
    assert job["outcome"] is None  # 芋圆 the last 狼人 lives; 村民 and 神职 stand


def test_lurkers_and_flags(job: dict[str, Any]) -> None:
    for day in job["days"]:
        assert {p["player"] for p in day["lurkers"]} == {"芋圆", "山竹"}
    assert job["days"][0]["posts"]["芋圆"] == 1  # "顶" and "路过" are not counted
    assert job["flags"]["by_kind"] == {"red_text": 1, "posted_while_out": 1}


def test_the_night_one_deaths_last_words_are_not_zhashi(job: dict[str, Any],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """三、1 "死者如有遗言可在讨论帖发一帖遗言（第1夜死者有遗言，之后夜晚死亡无遗言……）": 北辰 (out on night 1)
    posts his one 遗言 in the day-1 discussion thread, unflagged; 松果, out on night 2, has none, so
    his day-2 post is 诈尸 (三、2 "死者（遗言除外）、旁观者不得发言")."""
    game = Path(job["workdir"]) / "demo.toml"
    capsys.readouterr()
    assert main(["flags", str(game), "--json", "--no-detect"]) == 0
    out = [f for f in json.loads(capsys.readouterr().out) if f["kind"] == "posted_while_out"]
    assert [(f["author"], f["excerpt"]) for f in out] == [("松果", "我不是狼，我是冤死的！")]
    [last_words] = [p for t in FORUM["threads"] for p in t["posts"] if p[1] == 10]
    assert last_words[2].startswith("遗言")


def test_the_forum_is_written_into_the_demo_folder(job: dict[str, Any]) -> None:
    """The pages are written from forum.toml when the demo starts (none are stored in the package):
    one page per ten floors of each thread, listed in the index the replay server reads."""
    forum = Path(job["workdir"]) / "forum"
    index = json.loads((forum / "index.json").read_text(encoding="utf-8"))
    expected = sum(-(-len(t["posts"]) // 10) for t in FORUM["threads"])
    assert len(index["files"]) == expected and all((forum / f["file"]).is_file() for f in index["files"])
    assert not (Path(str(DEMO_DATA / "werewolf-12")) / "pages").exists()


def test_the_tally_afterwards_says_qipiao(job: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    game = Path(job["workdir"]) / "demo.toml"
    assert main(["tally", str(game), "--day", "1"]) == 0
    out = capsys.readouterr().out
    exile = out[out.index("第1日放逐投票结果"):]
    assert "弃票：铁匠" in exile and "未投票，视为弃票：芋圆、山竹" in exile
    assert all(Path(p).exists() for p in job["reports"]) and len(job["reports"]) == 18
