"""M19's lovers recorded at the desk (issue 21, item 4): "M19 `情侣` applies the post's faction
changes (恋爱 / 私奔 / 双民变民); `init` does not make the cupid 黑情侣 unconditionally, and a faction
with no members is not announced 判负 at the start."

Walked as a director does it: `tracker init`, `tracker night GAME.toml setup 情侣 …`, `tracker state`,
then night 1 at the desk (`--night 1 add` / `confirm`).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main

OPENS = "2025-03-03T10:00:00+08:00"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "m19.toml"
    assert run(capsys, "init", "--ruleset", "luoluo-m19", "--out", str(path), "--opens", OPENS)[0] == 0
    return path


def _players(capsys: pytest.CaptureFixture[str], game: Path) -> dict[str, dict[str, Any]]:
    code, out, _ = run(capsys, "state", str(game), "--json")
    assert code == 0
    return {p["name"]: p for p in json.loads(out)["players"]}


def _by_role(capsys: pytest.CaptureFixture[str], game: Path) -> dict[str, list[str]]:
    roles: dict[str, list[str]] = {}
    for name, p in _players(capsys, game).items():
        roles.setdefault(p["role"], []).append(name)
    return roles


def test_init_leaves_the_cupids_faction_to_the_lovers(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """变异丘比特 is listed under 【其他】, no faction's role list: "双民丘比特变民，双狼丘比特变狼……双大特丘比特
    变大特", and only lovers of two factions "形成【黑情侣阵营】". The game file `init` writes gives the
    cupid no faction; the state says the win check waits for the lovers."""
    doc = tomllib.loads(game.read_text("utf-8"))
    cupid = next(p for p in doc["players"] if p["role"] == "变异丘比特")
    assert "faction" not in cupid
    assert all("faction" in p for p in doc["players"] if p["role"] != "变异丘比特")
    code, out, _ = run(capsys, "state", str(game), "--json")
    assert code == 0
    state = json.loads(out)
    assert {p["name"]: p["faction"] for p in state["players"]}[cupid["name"]] is None
    assert any("随情侣而定" in w and "setup 情侣" in w for w in state["warnings"])
    assert state["lost"] == [] and state["outcome"] is None


def test_setup_lovers_of_two_factions_elope_and_the_wolf_leaves_the_pack(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """私奔<强制> —— 情侣产生时，若情侣的身份不属于同一个阵营，情侣均脱离各自的阵营，形成【黑情侣阵营】;
    恋爱<强制> —— 若情侣中有且只有一名狼人，则它失去<杀人>技能，且不与其他狼人阵营的角色互知共群."""
    roles = _by_role(capsys, game)
    wolf, old_wolf, villager, seer = roles["公狼"][0], roles["老狼"][0], roles["村民"][0], roles["预言家"][0]
    cupid = roles["变异丘比特"][0]
    lovers = json.dumps({"类型": "基佬情深", "攻": wolf, "受": villager}, ensure_ascii=False)
    code, out, err = run(capsys, "night", str(game), "setup", "情侣", lovers)
    assert code == 0, err
    assert "私奔" in out and f"【{wolf}】恋爱：你与{villager}成为情侣" in out
    players = _players(capsys, game)
    assert (players[wolf]["faction"], players[villager]["faction"], players[cupid]["faction"]) == ("黑情侣",) * 3
    assert "情侣:攻" in players[wolf]["tags"] and "情侣:受" in players[villager]["tags"]
    # night 1: the pack's kill with the eloped wolf in it is refused; the old wolf alone kills
    g = str(game)
    assert run(capsys, "night", g, "--night", "1", "add", f"狼群({wolf},{old_wolf})", "杀人", seer)[0] == 0
    code, out, _ = run(capsys, "night", g, "--night", "1", "--json")
    doc = json.loads(out)
    assert [(r["actor"], r["reason"]) for r in doc["rejected"]] == \
        [(f"狼群({wolf},{old_wolf})", f"恋爱：情侣中有且只有一名狼人，{wolf}失去<杀人>技能")]


def test_setup_lovers_of_one_faction_take_the_cupid_and_no_empty_faction_loses(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """（双民丘比特变民…）; 【黑情侣阵营】负 "1、黑情侣阵营的角色全部出局": with two villagers as lovers
    nobody is 黑情侣, so the cupid's death on night 1 is a villager's, and 黑情侣 — a faction with
    no member — is never announced 判负."""
    roles = _by_role(capsys, game)
    v1, v2 = roles["村民"][:2]
    cupid, wolves = roles["变异丘比特"][0], roles["公狼"] + roles["老狼"]
    lovers = json.dumps({"类型": "人狗情未了", "主人": v1, "忠犬": v2}, ensure_ascii=False)
    g = str(game)
    assert run(capsys, "night", g, "setup", "情侣", lovers)[0] == 0
    assert _players(capsys, game)[cupid]["faction"] == "村民"
    code, out, _ = run(capsys, "state", g, "--json")
    assert json.loads(out)["warnings"] == [] and json.loads(out)["lost"] == []
    assert run(capsys, "night", g, "--night", "1", "add", f"狼群({','.join(wolves)})", "杀人", cupid)[0] == 0
    code, out, err = run(capsys, "night", g, "--night", "1", "confirm", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [d["player"] for d in doc["deaths"]] == [cupid]
    assert not any("黑情侣" in line and "判负" in line for line in doc["log"])
    code, out, _ = run(capsys, "state", g, "--json")
    state = json.loads(out)
    assert state["lost"] == [] and state["outcome"] is None


def test_a_malformed_lovers_setup_is_refused_with_the_format(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The vocabulary's 情侣 is {类型, 攻, 受} or {类型, 主人, 忠犬}: anything else is told the format
    (exit 2) and nothing is recorded."""
    roles = _by_role(capsys, game)
    v1 = roles["村民"][0]
    g = str(game)
    for bad in ('{"类型": "基佬", "攻": "x", "受": "y"}', json.dumps({"类型": "基佬情深", "攻": v1, "受": v1}),
                json.dumps({"类型": "基佬情深", "攻": v1, "受": "无此人"}), "玩家01"):
        code, _, err = run(capsys, "night", g, "setup", "情侣", bad)
        assert code == 2 and "基佬情深" in err, (bad, err)
    code, out, _ = run(capsys, "state", g, "--json", "--events")
    assert json.loads(out)["events"] == []


def test_setup_kidnapper_and_wolf_join_the_pack_that_keeps_its_kill(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """恋爱："特别的，当绑匪和公狼/老狼/幼狼成为情侣时，绑匪加入狼群，丘比特加入狼人阵营" — the kidnapper
    kills with the pack on night 1, and the wolves (who carry no 狼群 tag at the desk) keep theirs."""
    roles = _by_role(capsys, game)
    kidnapper, cub, wolf, seer = roles["绑匪"][0], roles["幼狼"][0], roles["公狼"][0], roles["预言家"][0]
    cupid = roles["变异丘比特"][0]
    g = str(game)
    lovers = json.dumps({"类型": "基佬情深", "攻": kidnapper, "受": cub}, ensure_ascii=False)
    code, out, _ = run(capsys, "night", g, "setup", "情侣", lovers)
    assert code == 0 and "背叛" in out
    players = _players(capsys, game)
    assert players[cupid]["faction"] == "狼人" and "狼群" in players[kidnapper]["tags"]
    assert run(capsys, "night", g, "--night", "1", "add", f"狼群({kidnapper},{wolf})", "杀人", seer)[0] == 0
    doc = json.loads(run(capsys, "night", g, "--night", "1", "--json")[1])
    assert doc["rejected"] == [] and [d["player"] for d in doc["deaths"]] == [seer]


def test_a_cupid_whose_lovers_are_two_gods_counts_as_a_god(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"双大特丘比特变大特" (the ruleset's [roles.couple]: "胜负判定时计作同类身份"): lovers recorded at the
    desk carry 情侣:攻 / 情侣:受, and the cupid still counts among 预言家、女巫、医生 for 村民负1
    ("村民阵营的预言家、女巫、医生出局") until he is out too."""
    roles = _by_role(capsys, game)
    seer, witch, doctor, cupid = roles["预言家"][0], roles["女巫"][0], roles["医生"][0], roles["变异丘比特"][0]
    g = str(game)
    lovers = json.dumps({"类型": "基佬情深", "攻": seer, "受": witch}, ensure_ascii=False)
    assert run(capsys, "night", g, "setup", "情侣", lovers)[0] == 0
    for who in (seer, witch, doctor):
        assert run(capsys, "event", g, "eliminated", "--player", who, "--at", "2025-03-03T12:00:00+08:00")[0] == 0
    assert json.loads(run(capsys, "state", g, "--json")[1])["lost"] == []
    assert run(capsys, "event", g, "eliminated", "--player", cupid, "--at", "2025-03-03T13:00:00+08:00")[0] == 0
    lost = json.loads(run(capsys, "state", g, "--json")[1])["lost"]
    assert [x["faction"] if isinstance(x, dict) else x for x in lost] == ["村民"]
