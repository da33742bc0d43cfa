"""M65 加速世界 (accel-m65): whole nights and day phases settled against the rule post.

The two shared examples run through ``tracker night simulate``; the narrated scenarios below
cover every skill of the post and the interactions it calls out (优先级判定 0–5 and X, 绿王 vs
黑王, 技能掠夺 and the stolen skills, 深青之桩/天枢剑圣 once per player, 时间回溯, 机械制造/最后一枪,
抉择, silent 判负, the day skills). Each test cites, in its docstring, the clause it proves. The
narrated table seats the roles differently from the examples on purpose.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.night.scenario import load, validate

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
GAME = "004_757e71c89bc341d0.txt"

# The narrated table: 14 seats, every role of the post once ("本场版杀为14人局").
ROSTER: list[tuple[str, str, str, dict[str, Any]]] = [
    ("P01", "紫王", "六色联军", {}),
    ("P02", "掠夺者", "加速研究社", {"uses": {"票权掠夺": 1}, "掠夺成功": []}),
    ("P03", "骑士", "黑暗星云", {}),
    ("P04", "绿王", "六色联军", {}),
    ("P05", "黑王", "黑暗星云", {"uses": {"绝对切割": 1}}),
    ("P06", "黄王", "六色联军", {"choice": "持续"}),
    ("P07", "劫火", "黑暗星云", {"choice": "持续"}),
    ("P08", "红王", "六色联军", {"uses": {"机械制造": 1}}),
    ("P09", "预知者", "加速研究社", {}),
    ("P10", "青铃", "黑暗星云", {}),
    ("P11", "白王", "六色联军", {"uses": {"缥缈永恒": 1}}),
    ("P12", "风行", "黑暗星云", {"choice": "持续(3)", "uses": {"空之瞭望": 3}}),
    ("P13", "蓝王", "六色联军", {}),
    ("P14", "银鸦", "黑暗星云", {}),
]


def A(actor: str, skill: str, *targets: str, choice: str | None = None, phase: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"actor": actor, "skill": skill, "targets": list(targets)}
    if choice is not None:
        out["choice"] = choice
    if phase is not None:
        out["phase"] = phase
    return out


def scenario(actions: list[dict[str, Any]], *, night: int | None = 2, day: int | None = None,
             state: dict[str, Any] | None = None, players: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    roster = []
    for name, role, faction, extra in ROSTER:
        p: dict[str, Any] = {"name": name, "role": role, "faction": faction, "alive": True, **copy.deepcopy(extra)}
        p.update((players or {}).get(name, {}))
        roster.append(p)
    setup: dict[str, Any] = {"players": roster, "state": {"判负阵营": [], **(state or {})}}
    if day is not None:
        setup["day"] = day
    else:
        setup["night"] = night
    return {"game": GAME, "setup": setup, "actions": actions}


def run(sc: dict[str, Any], *, seed: int = 0, **decide: str) -> Settlement:
    validate(sc)  # every narrated input is a valid scenario of the shared vocabulary
    table, actions = load(sc)
    return settle(load_catalog("accel-m65"), table, actions, seed=seed, decisions=decide)


def night(actions: list[dict[str, Any]], n: int = 2, *, seed: int = 0, decide: dict[str, str] | None = None,
          **kw: Any) -> Settlement:
    return run(scenario(actions, night=n, **kw), seed=seed, **(decide or {}))


def day(actions: list[dict[str, Any]], n: int = 2, **kw: Any) -> Settlement:
    return run(scenario(actions, day=n, **kw))


def deaths(res: Settlement) -> list[str]:
    return [d.player for d in res.deaths]


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def rejected(res: Settlement) -> list[tuple[str, str]]:
    return [(r.actor, r.skill) for r in res.rejected]


# ------------------------------------------------------------------------------ shared examples
def _examples() -> list[dict[str, Any]]:
    return [s for s in json.loads(EXAMPLES.read_text("utf-8"))["scenarios"] if s["game"] == GAME]


@pytest.mark.parametrize("sc", _examples(), ids=lambda s: s["id"])
def test_shared_examples_through_the_cli(sc: dict[str, Any], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The shared examples (ex-m65-N01, ex-m65-N02): every asserted item the engine produces."""
    f = tmp_path / "s.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "accel-m65", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    exp = sc["expected"]
    assert [(d["player"], d["cause"]) for d in out["deaths"]] == [(d["player"], d["cause"]) for d in exp["deaths"]]
    assert [s["player"] for s in out["survivals"]] == [s["player"] for s in exp["survivals"]]
    assert [(r["actor"], r["skill"]) for r in out["rejected"]] == \
        [(r["actor"], r["skill"]) for r in exp["rejected_actions"]]
    assert out["announcement"]["out_order"] == exp["announcement"]["out_order"]
    for line in exp["announcement"]["other"]:
        assert line in out["announcement"]["lines"]
    for hidden in exp["announcement"].get("not_announced", []):
        assert all(hidden not in line for line in out["announcement"]["lines"])
    got = [(f["to"], f["content"]) for f in out["feedback"]]
    for fb in exp["feedback"]:
        assert (fb["to"], fb["content"]) in got
    for key, value in exp["state_after"].items():
        if key in out["state_after"] and not isinstance(value, str):
            assert out["state_after"][key] == value, key
        elif key.endswith("可用掠夺技能"):
            assert out["state_after"][key] == []  # "无（…猜测失败）"
        else:
            assert key in out["state_after"], key
    assert exp["win_check"] == "none" and out["outcome"] is None
    assert out["conversions"] == [] and out["tags_moved"] == []


def test_n01_faction_judged_lost_keeps_its_other_player() -> None:
    """"阵营被判负后，不予公示，且属于该阵营的角色并不会出局。" — the 预知者 stays; no 公示 line."""
    res = night([A("P05", "绝对切割", "P02")])
    assert deaths(res) == ["P02"]
    assert res.state_after["判负阵营"] == ["加速研究社"]
    assert "P09" not in deaths(res) and res.state_after["P09"].startswith("存活，不出局")
    assert res.lines == ["P02被击杀"] and not any("判负" in line for line in res.lines)
    assert res.outcome is None


# ------------------------------------------------------------------------------ 0 绝对切割, 2 绝对防御
def test_absolute_cut_kills_the_green_king_through_absolute_defence() -> None:
    """"0、黑王绝对切割" before "2、绿王绝对防御"; "<绝对防御>（强制）……不包括<绝对切割>"; "击杀目标后，
    立即知道被击杀者身份。公示目标被击杀。只能使用一次。\""""
    res = night([A("P05", "绝对切割", "P04")])
    assert deaths(res) == ["P04"] and res.deaths[0].cause == "绝对切割（P05）"
    assert told(res, "P05") == ["P04的身份：绿王"] and "出局通知" in told(res, "P04")
    assert res.out_order == ["P04"] and res.lines == ["P04被击杀"]
    assert res.state_after["P05.绝对切割"] == 0
    assert any(line.startswith("(0)") for line in res.log) and any("(2)" in line for line in res.log)
    again = night([A("P05", "绝对切割", "P01")], n=3, players={"P05": {"uses": {"绝对切割": 0}}})
    assert rejected(again) == [("P05", "绝对切割")] and "没有使用次数" in again.rejected[0].reason


def test_absolute_cut_in_the_day_is_announced_at_once() -> None:
    """"<绝对切割>（限定）：游戏日任意时刻" — a day use kills and is announced ("公示目标被击杀")."""
    res = day([A("P05", "绝对切割", "P13")], n=3)
    assert deaths(res) == ["P13"] and res.lines == ["P13被击杀"] and told(res, "P05") == ["P13的身份：蓝王"]


def test_absolute_defence_voids_every_other_skill_on_the_green_king() -> None:
    """"<绝对防御>（强制）：游戏日任意时刻，对自己使用的技能无效" — 深青之桩, 天枢剑圣, 时间回溯,
    飞行头槌 cast on the 绿王 do nothing (2 before 3 and 5)."""
    res = night([A("P14", "飞行头槌", "P04", phase="白天"), A("P03", "深青之桩", "P04"),
                 A("P13", "天枢剑圣", "P04"), A("P10", "时间回溯", "P04", choice="1号技能")])
    assert not res.rejected and not res.deaths
    assert "第3天暗记" not in res.state_after
    assert sum(line.startswith("(2) P04<绝对防御>") for line in res.log) == 4
    assert told(res, "P04") == []
    assert "技能" not in res.state_after["时间回溯上次"]


# ------------------------------------------------------------------------------ 3 blocks
def test_flying_headbutt_blocks_the_night_but_not_absolute_cut() -> None:
    """"<飞行头槌>……使得该玩家当晚无法使用任何技能，不包括被动技能和<绝对切割>" — 3 before 5."""
    res = night([A("P14", "飞行头槌", "P03", phase="白天"), A("P03", "深青之桩", "P13"),
                 A("P14", "飞行头槌", "P05", phase="白天")])
    assert rejected(res) == [("P14", "飞行头槌"), ("P03", "深青之桩")] and "每天限一次" in res.rejected[0].reason
    assert res.rejected[1].reason == "P03被<飞行头槌>封锁，当晚无法使用<深青之桩>"
    assert "第3天暗记" not in res.state_after and "深青之桩已选择" not in res.state_after
    assert any("P03被<飞行头槌>封锁" in line for line in res.log)
    cut = night([A("P14", "飞行头槌", "P05", phase="白天"), A("P05", "绝对切割", "P06")])
    assert deaths(cut) == ["P06"]


def test_purple_queen_blocks_even_a_passive_perception_but_not_forced_skills() -> None:
    """"<天璇紫后>……不包括强制技能和<绝对切割>" vs "<飞行头槌>……不包括被动技能": a 持续 劫火 blocked by
    天璇紫后 perceives nothing that night; blocked by 飞行头槌 he still does."""
    queen = night([A("P01", "天璇紫后", "P07", phase="白天"), A("P03", "深青之桩", "P07")])
    assert told(queen, "P07") == ["被施放<天璇紫后>，来源P01"]  # cast in the day, before the block
    assert queen.state_after["第3天暗记"] == {"P07": "被投票数加倍"}
    crow = night([A("P14", "飞行头槌", "P07", phase="白天"), A("P03", "深青之桩", "P07")])
    assert told(crow, "P07") == ["被施放<飞行头槌>，来源P14", "被施放<深青之桩>，来源P03"]
    seer = night([A("P01", "天璇紫后", "P09", phase="白天")])
    assert any(c.startswith("四眼预知：") for c in told(seer, "P09"))  # 强制 <四眼预知> not blocked


def test_day_blocks_not_on_the_same_target_twice_running() -> None:
    """"不可对同一目标连续使用" (天璇紫后, 飞行头槌), counted by days; a gap day allows it again."""
    res = day([A("P01", "天璇紫后", "P03"), A("P14", "飞行头槌", "P06")], n=3,
              state={"天璇紫后上次": {"target": "P03", "day": 2}, "飞行头槌上次": {"target": "P06", "day": 2}})
    assert rejected(res) == [("P01", "天璇紫后"), ("P14", "飞行头槌")]
    ok = day([A("P01", "天璇紫后", "P03")], n=4, state={"天璇紫后上次": {"target": "P03", "day": 2}})
    assert not ok.rejected and told(ok, "P01") == ["已执行<天璇紫后>"]
    assert ok.state_after["天璇紫后上次"] == {"target": "P03", "day": 4}
    assert [p.player for p in ok.pending] == ["P03"] and ok.pending[0].when == "第4夜"


# ------------------------------------------------------------------------------ 4 最后一枪
def test_mechanical_make_then_last_shot_when_the_red_king_is_cut() -> None:
    """<机械制造> unlocks <最后一枪>: "当你因非红牌的情况出局时，你可以立即选择一名玩家带走，该技能只保存到
    使用机械制造后的下一个夜晚" — made night 2, cut night 3: he takes his choice with him (4 after 0)."""
    made = night([A("P08", "机械制造")])
    assert made.state_after["机械制造上次"] == {"night": 2} and made.state_after["P08.机械制造"] == 0
    assert told(made, "P08")[0].startswith("机械制造：已解锁<最后一枪>")
    res = night([A("P05", "绝对切割", "P08")], n=3, state={"机械制造上次": {"night": 2}},
                players={"P08": {"uses": {"机械制造": 0}}}, decide={"最后一枪.P08": "P14"})
    assert [(d.player, d.cause) for d in res.deaths] == [("P08", "绝对切割（P05）"), ("P14", "最后一枪（P08）")]
    assert res.out_order == ["P08", "P14"]
    assert any(q.key == "最后一枪.P08" and q.by == "director" for q in res.questions)


def test_last_shot_expires_from_the_second_day() -> None:
    """"第二个游戏日白天往后技能失效": made night 2, the gun is gone on day 4 and night 4."""
    res = day([A("P05", "绝对切割", "P08")], n=4, state={"机械制造上次": {"night": 2}},
              players={"P08": {"uses": {"机械制造": 0}}})
    assert deaths(res) == ["P08"] and not res.questions
    assert any("未解锁或已失效" in line for line in res.log)


def test_last_shot_chosen_in_advance_made_the_same_night_before_the_cut() -> None:
    """"增益技能生效时间按照私聊导演的具体时间先后为准": 机械制造 sent before the cut arms the gun that
    night; the shot chosen in advance needs no question."""
    res = night([A("P08", "机械制造"), A("P08", "最后一枪", "P03"), A("P05", "绝对切割", "P08")])
    assert deaths(res) == ["P08", "P03"] and not any(q.key.startswith("最后一枪") for q in res.questions)
    late = night([A("P05", "绝对切割", "P08"), A("P08", "机械制造"), A("P08", "最后一枪", "P03")])
    assert deaths(late) == ["P08"]


def test_last_shot_void_on_green_king_and_blocked_red_king_cannot_shoot() -> None:
    """"2、绿王绝对防御" before "4、红王最后一枪"; "3、…飞行头槌" before 4: a blocked 红王 cannot shoot."""
    st = {"机械制造上次": {"night": 1}}
    green = night([A("P08", "最后一枪", "P04"), A("P05", "绝对切割", "P08")], state=st)
    assert deaths(green) == ["P08"]
    blocked = night([A("P14", "飞行头槌", "P08", phase="白天"), A("P08", "最后一枪", "P03"),
                     A("P05", "绝对切割", "P08")], state=st)
    assert deaths(blocked) == ["P08"] and any("当晚无法使用<最后一枪>" in line for line in blocked.log)


def test_last_shot_redirected_by_yellow_king_exhausted() -> None:
    """"<最后一枪>……可被辐射炫惑更改目标"; 黄王 枯竭: "可感知对自己施放的是哪种技能，并可选择更改该技能的施放目标"."""
    res = night([A("P08", "最后一枪", "P06"), A("P06", "辐射炫惑", "P14", choice="最后一枪"),
                 A("P05", "绝对切割", "P08")], n=3, state={"机械制造上次": {"night": 2}, "枯竭生效": {"P06": 3}},
                players={"P06": {"choice": "枯竭", "uses": {"辐射炫惑": 0}}})
    assert deaths(res) == ["P08", "P14"]
    assert "被施放<最后一枪>，来源P08" in told(res, "P06")


def test_heavenly_guard_on_the_first_game_day() -> None:
    """"<天罡护体>（强制）：游戏日第一日，不会因为除<绝对切割>外的其他技能和投票而出局。\""""
    st = {"机械制造上次": None}
    res = night([A("P08", "机械制造"), A("P08", "最后一枪", "P09"), A("P05", "绝对切割", "P08")], n=1, state=st)
    assert deaths(res) == ["P08"] and [s.player for s in res.survivals] == ["P09"]
    cut = night([A("P05", "绝对切割", "P09")], n=1)
    assert deaths(cut) == ["P09"]
    vote = day([A("放逐投票", "投票出局", "P09")], n=1)  # "……和投票而出局": an exile recorded for him anyway
    assert deaths(vote) == [] and [s.player for s in vote.survivals] == ["P09"]
    assert deaths(day([A("放逐投票", "投票出局", "P09")], n=2)) == ["P09"]


def test_last_shot_after_a_vote_exile() -> None:
    """"当你因非红牌的情况出局时，你可以立即选择一名玩家带走" — voted out on day 3 (gun made night 2):
    he shoots; sent off with a red card he does not ("红牌罚下出局的角色……不能发动技能")."""
    voted = {"P08": {"alive": False, "出局": {"day": 3, "cause": "投票"}, "uses": {"机械制造": 0}}}
    res = day([A("P08", "最后一枪", "P05")], n=3, state={"机械制造上次": {"night": 2}}, players=voted)
    assert deaths(res) == ["P05"] and res.deaths[0].cause == "最后一枪（P08）"
    red = {"P08": {"alive": False, "出局": {"day": 3, "cause": "红牌"}, "uses": {"机械制造": 0}}}
    card = day([A("P08", "最后一枪", "P05")], n=3, state={"机械制造上次": {"night": 2}}, players=red)
    assert deaths(card) == []


def test_the_days_exits_are_settled_before_the_night_and_a_red_card_fires_no_gun() -> None:
    """"讨论日获得投票最多的角色将出局。" / "白天红牌罚下导致的出局结算在投票结算之后执行。" — the day's exits (data:
    `kill`) are recorded on that day even in the night's settlement, so <数据收集> reads them; <最后一枪> answers a
    vote ("当你因非红牌的情况出局时"), not a red card; <绝对防御> does not stop the vote (no skill)."""
    armed = {"机械制造上次": {"night": 2}}
    res = day([A("放逐投票", "投票出局", "P08"), A("P08", "最后一枪", "P05")], n=3, state=armed)
    assert deaths(res) == ["P08", "P05"] and res.deaths[0].cause == "投票"
    assert res.table_after is not None and res.table_after.players["P08"].fields["出局"] == {"day": 3, "cause": "投票"}
    red = day([A("导演", "红牌罚下", "P08"), A("P08", "最后一枪", "P05")], n=3, state=armed)
    assert deaths(red) == ["P08"] and red.deaths[0].cause == "红牌罚下"
    both = night([A("导演", "红牌罚下", "P06"), A("放逐投票", "投票出局", "P04", phase="白天"), A("P11", "数据收集")])
    assert deaths(both) == ["P04", "P06"]  # the vote first, then the red card
    assert told(both, "P11") == ["数据收集：第2天被投票出局的P04的身份：绿王"]


def test_two_red_cards_in_one_day_send_both_off() -> None:
    """"白天红牌罚下导致的出局结算在投票结算之后执行。" — every red card is settled: two players sent off the
    same day both go out (a second card is the director's second decision, not a replacement of the first)."""
    res = day([A("导演", "红牌罚下", "P06"), A("导演", "红牌罚下", "P08")], n=3)
    assert deaths(res) == ["P06", "P08"] and {d.cause for d in res.deaths} == {"红牌罚下"}


def test_day_block_stands_when_its_caster_is_voted_out_that_day() -> None:
    """"<天璇紫后>：游戏日白天任意时刻……使得该玩家当晚无法使用任何技能" — cast before the vote, it holds
    that night; a caster out on an earlier day cannot cast ("角色出局后，不能继续……行使特权")."""
    out = {"P01": {"alive": False, "出局": {"day": 2, "cause": "投票"}}}
    res = night([A("P01", "天璇紫后", "P03", phase="白天"), A("P03", "深青之桩", "P06")], players=out)
    assert rejected(res) == [("P03", "深青之桩")] and "第3天暗记" not in res.state_after
    earlier = {"P01": {"alive": False, "出局": {"day": 1, "cause": "投票"}}}
    old = night([A("P01", "天璇紫后", "P03", phase="白天")], players=earlier)
    assert rejected(old) == [("P01", "天璇紫后")]


def test_templates_taken_by_the_white_king_are_held_through_uses() -> None:
    """<缥缈永恒> "拥有该身份模板的全部技能": a 白王 holding the 蓝王's and 绿王's templates uses <天枢剑圣>
    and is protected by <绝对防御>."""
    held = {"P11": {"uses": {"缥缈永恒": 0, "天枢剑圣": True, "绝对防御": True}}}
    res = night([A("P11", "天枢剑圣", "P06"), A("P03", "深青之桩", "P11")], players=held)
    assert res.state_after["第3天暗记"] == {"P06": "被投票数加倍"}
    assert any(line.startswith("(2) P11<绝对防御>") for line in res.log)


# ------------------------------------------------------------------------------ 5 marks
def test_deep_blue_stake_and_sword_saint_each_player_once() -> None:
    """"使其第二天被投票数加倍（暗记），被选中的玩家不公示。每名玩家仅可以被选择一次。\""""
    res = night([A("P03", "深青之桩", "P06"), A("P13", "天枢剑圣", "P06")], n=3,
                state={"深青之桩已选择": ["P01"], "天枢剑圣已选择": ["P03"]})
    assert res.state_after["第4天暗记"] == {"P06": "被投票数加倍（天枢剑圣、深青之桩，各加倍一次）"}  # the post's order in 5
    assert res.state_after["深青之桩已选择"] == ["P01", "P06"] and res.lines == []
    assert "被施放减益技能<深青之桩>，来源P03" in told(res, "P06")  # 黄王 持续
    again = night([A("P03", "深青之桩", "P01"), A("P13", "天枢剑圣", "P03")], n=3,
                  state={"深青之桩已选择": ["P01"], "天枢剑圣已选择": ["P03"]})
    assert rejected(again) == [("P03", "深青之桩"), ("P13", "天枢剑圣")]
    assert "每名玩家仅可以被选择一次" in again.rejected[0].reason


def test_yellow_king_sustained_perceives_debuffs_only() -> None:
    """黄王 持续: "可感知对自己施放的是哪种减益技能，并获知减益技能来源" — not the 增益 <时间回溯>."""
    res = night([A("P10", "时间回溯", "P06", choice="辐射炫惑")])
    assert told(res, "P06") == ["时间回溯：次日<辐射炫惑>可以额外使用一次（限当天使用）"]


# ------------------------------------------------------------------------------ X 劫火
def test_purifying_flame_exhausted_reflects_but_not_absolute_cut() -> None:
    """劫火 枯竭: declared the night before; "可得知自己是否被使用了技能，但不知是哪种技能，但可选择反弹该技能，
    不可反弹<绝对切割>"."""
    decl = night([A("P07", "净化之焰", choice="枯竭")], players={"P07": {"choice": "枯竭", "uses": {"净化之焰": 1}}})
    assert decl.state_after["枯竭生效"] == {"P07": 3} and decl.state_after["P07.净化之焰"] == 0
    flame = {"P07": {"choice": "枯竭", "uses": {"净化之焰": 0}}}
    res = night([A("P03", "深青之桩", "P07"), A("P07", "净化之焰", choice="反弹")], n=3,
                state={"枯竭生效": {"P07": 3}}, players=flame)
    assert res.state_after["第4天暗记"] == {"P03": "被投票数加倍"}
    assert told(res, "P07") == ["净化之焰：你被使用了技能（不知是哪种技能）"]
    cut = night([A("P05", "绝对切割", "P07"), A("P07", "净化之焰", choice="反弹")], n=3,
                state={"枯竭生效": {"P07": 3}}, players=flame)
    assert deaths(cut) == ["P07"]
    late = night([A("P07", "净化之焰", choice="反弹")], n=4, state={"枯竭生效": {"P07": 3}}, players=flame)
    assert rejected(late) == [("P07", "净化之焰")]


def test_reflected_headbutt_blocks_the_crow_and_redirected_queen_blocks_another() -> None:
    """劫火 枯竭 "可选择反弹该技能"; 黄王 枯竭 "可选择更改该技能的施放目标" — day casts of 游戏日 3 reacted
    to in the day: the reflected <飞行头槌> blocks the 银鸦 himself that night."""
    st = {"枯竭生效": {"P07": 3, "P06": 3}}
    ply = {"P07": {"choice": "枯竭", "uses": {"净化之焰": 0}}, "P06": {"choice": "枯竭", "uses": {"辐射炫惑": 0}}}
    res = night([A("P14", "飞行头槌", "P07", phase="白天"), A("P07", "净化之焰", choice="反弹飞行头槌"),
                 A("P01", "天璇紫后", "P06", phase="白天"), A("P06", "辐射炫惑", "P03", choice="天璇紫后"),
                 A("P03", "深青之桩", "P13"), A("P14", "飞行头槌", "P01", phase="白天")], n=3, state=st, players=ply)
    assert rejected(res) == [("P14", "飞行头槌"), ("P03", "深青之桩")]  # 每天限一次; P03 blocked
    assert "第4天暗记" not in res.state_after          # 骑士 P03 blocked by the redirected 天璇紫后
    assert res.rejected[1].reason == "P03被<天璇紫后>封锁，当晚无法使用<深青之桩>"
    assert any("(3) <飞行头槌>（P14" in line and "P14当晚无法使用" in line for line in res.log)
    assert told(res, "P06") == ["被施放<天璇紫后>，来源P01", "辐射炫惑：已将<天璇紫后>的施放目标改为P03"]


def test_unanswered_reaction_is_given_up() -> None:
    """"劫火、黄王接到通知后，一小时内给出答复，否则视为放弃发动技能。\""""
    res = night([A("P13", "天枢剑圣", "P06")], n=3, state={"枯竭生效": {"P06": 3}},
                players={"P06": {"choice": "枯竭", "uses": {"辐射炫惑": 0}}})
    assert res.state_after["第4天暗记"] == {"P06": "被投票数加倍"}
    assert any("视为放弃" in line for line in res.log)


# ------------------------------------------------------------------------------ 技能掠夺 / 票权掠夺
def test_skill_plunder_right_wrong_seer_and_self() -> None:
    """"如果猜测正确，则反馈猜测成功……如果猜测错误或猜测对象为预知者或自己，则反馈猜测失败。\""""
    ok = night([A("P02", "技能掠夺", "P03", choice="猜测身份：骑士")])
    assert told(ok, "P02") == ["技能掠夺：猜测成功"] and ok.state_after["P02.掠夺成功"] == ["P03"]
    assert ok.state_after["P02.可用掠夺技能"] == ["深青之桩"]
    assert ok.state_after["技能掠夺上次"] == {"target": "P03", "night": 2, "猜测": "骑士", "成功": True}
    for target, guess in (("P09", "预知者"), ("P02", "掠夺者"), ("P03", "风行")):
        res = night([A("P02", "技能掠夺", target, choice=guess)])
        assert told(res, "P02") == ["技能掠夺：猜测失败"] and res.state_after["P02.掠夺成功"] == []


def test_skill_plunder_limits_and_no_interference() -> None:
    """"技能掠夺不可连续两日对同一个角色使用。技能掠夺成功后不可再次对该角色使用。技能掠夺不会受到任何干扰和反弹。\""""
    res = night([A("P02", "技能掠夺", "P03", choice="骑士")], n=3,
                state={"技能掠夺上次": {"target": "P03", "night": 2, "猜测": "风行", "成功": False}})
    assert rejected(res) == [("P02", "技能掠夺")]
    done = night([A("P02", "技能掠夺", "P03", choice="骑士")], n=4, players={"P02": {"掠夺成功": ["P03"]}})
    assert rejected(done) == [("P02", "技能掠夺")] and "不可再次" in done.rejected[0].reason
    blocked = night([A("P14", "飞行头槌", "P02", phase="白天"), A("P02", "技能掠夺", "P04", choice="绿王")])
    assert told(blocked, "P02") == ["技能掠夺：猜测成功"]  # neither blocked nor voided by 绝对防御


def test_stolen_skill_is_usable_the_next_night_only_and_only_one() -> None:
    """"下一夜晚你可以使用该角色的任一非强制技能" — night 3 after a right guess on night 2, one skill."""
    st = {"技能掠夺上次": {"target": "P03", "night": 2, "猜测": "骑士", "成功": True}}
    res = night([A("P02", "深青之桩", "P06"), A("P02", "天枢剑圣", "P01")], n=3, state=st,
                players={"P02": {"掠夺成功": ["P03"]}})
    assert res.state_after["第4天暗记"] == {"P06": "被投票数加倍"}
    assert rejected(res) == [("P02", "天枢剑圣")]
    later = night([A("P02", "深青之桩", "P06")], n=4, state=st, players={"P02": {"掠夺成功": ["P03"]}})
    assert rejected(later) == [("P02", "深青之桩")]
    forced = night([A("P02", "绝对防御")], n=3,
                   state={"技能掠夺上次": {"target": "P04", "night": 2, "猜测": "绿王", "成功": True}})
    assert rejected(forced) == [("P02", "绝对防御")]  # 非强制技能 only


def test_stolen_day_block_is_used_that_night() -> None:
    """"下一夜晚你可以使用该角色的任一非强制技能" — a stolen <飞行头槌> is used in that night, at its
    priority 3, before the 骑士's 5."""
    st = {"技能掠夺上次": {"target": "P14", "night": 2, "猜测": "银鸦", "成功": True}}
    res = night([A("P02", "飞行头槌", "P03"), A("P03", "深青之桩", "P06")], n=3, state=st,
                players={"P02": {"掠夺成功": ["P14"]}})
    assert rejected(res) == [("P03", "深青之桩")] and "第4天暗记" not in res.state_after
    assert res.state_after["飞行头槌上次"] == {"target": "P03", "day": 3}


def test_stolen_cut_is_priority_one_after_the_black_king() -> None:
    """"0、黑王绝对切割 1、掠夺者技能掠夺得到的绝对切割": the 黑王 first; the thief's own count is his."""
    st = {"技能掠夺上次": {"target": "P05", "night": 2, "猜测": "黑王", "成功": True}}
    res = night([A("P02", "绝对切割", "P13"), A("P05", "绝对切割", "P02")], n=3, state=st,
                players={"P02": {"掠夺成功": ["P05"]}})
    assert deaths(res) == ["P02"]  # cut at 0 before the thief's at 1
    assert any(line.startswith("(1)") and "已出局" in line for line in res.log)
    assert res.state_after["判负阵营"] == ["加速研究社"]


def test_four_different_plunders_win_first() -> None:
    """加速研究社 "胜 1、成功完成对四个不同角色的技能掠夺。" and the priority "加速研究社阵营1" first."""
    res = night([A("P02", "技能掠夺", "P14", choice="银鸦")], n=5, players={"P02": {"掠夺成功": ["P03", "P05", "P12"]}})
    assert res.outcome is not None and res.outcome.winner == "加速研究社"
    assert "四个不同角色" in res.outcome.reason


def test_vote_plunder_is_secret_and_once() -> None:
    """"<票权掠夺>（限定）：游戏日任意时刻……剥夺他的投票权，暗记并不公示……只能使用一次。\""""
    res = day([A("P02", "票权掠夺", "P07")], n=2)
    # the hidden mark the tallies read from now on (no day: the ruleset's void_voter lasts the game)
    assert [(m.name, m.player, m.day) for m in res.vote_marks] == [("票权掠夺", "P07", None)] and res.lines == []
    assert res.state_after["P02.票权掠夺"] == 0 and told(res, "P02") == ["已执行<票权掠夺>"]
    assert told(res, "P07") == ["被施放<票权掠夺>，来源P02"]  # 劫火 持续 perceives any skill
    again = day([A("P02", "票权掠夺", "P03")], n=3, players={"P02": {"uses": {"票权掠夺": 0}}})
    assert rejected(again) == [("P02", "票权掠夺")]
    green = night([A("P02", "票权掠夺", "P04")])  # "不会受到任何干扰和反弹": not voided by 绝对防御
    assert [(m.player, m.day) for m in green.vote_marks] == [("P04", None)]


# ------------------------------------------------------------------------------ 增益 / information
def test_time_rewind_extra_use_the_next_day() -> None:
    """<时间回溯>: "自已以外……次日该技能可以额外使用一次……不计入该技能原本的使用次数。不可对同一目标连续使用。
    对掠夺者无效。\""""
    res = night([A("P10", "时间回溯", "P03", choice="1号技能")])
    assert told(res, "P03") == ["时间回溯：次日<深青之桩>可以额外使用一次（限当天使用）"]
    assert res.state_after["时间回溯上次"] == {"target": "P03", "night": 2, "技能": "深青之桩"}
    nxt = night([A("P03", "深青之桩", "P06"), A("P03", "深青之桩", "P01"), A("P10", "时间回溯", "P03", choice="1")],
                n=3, state={"时间回溯上次": {"target": "P03", "night": 2, "技能": "深青之桩"}})
    assert nxt.state_after["第4天暗记"] == {"P06": "被投票数加倍", "P01": "被投票数加倍"}
    assert rejected(nxt) == [("P10", "时间回溯")]  # same target twice running
    plain = night([A("P03", "深青之桩", "P06"), A("P03", "深青之桩", "P01")], n=3)
    assert rejected(plain) == [("P03", "深青之桩")]
    cut = day([A("P05", "绝对切割", "P06"), A("P05", "绝对切割", "P01")], n=3,
              state={"时间回溯上次": {"target": "P05", "night": 2, "技能": "绝对切割"}})
    assert deaths(cut) == ["P06", "P01"] and cut.state_after["P05.绝对切割"] == 0
    thief = night([A("P10", "时间回溯", "P02", choice="1号技能")])
    assert told(thief, "P02") == [] and any("对掠夺者无效" in line for line in thief.log)
    me = night([A("P10", "时间回溯", "P10", choice="1")])
    assert rejected(me) == [("P10", "时间回溯")]


def test_sky_watch_sustained_and_exhausted() -> None:
    """<空之瞭望>: 持续（3） "选定1个目标发动，次日全天可获知……使用3次后技能作废"; 枯竭（限定） "选定2个目标"."""
    res = night([A("P12", "空之瞭望", "P05")])
    assert res.state_after["P12.空之瞭望"] == 2 and told(res, "P12") == ["空之瞭望：次日全天可获知P05之间的个人技能情况"]
    assert res.pending[0].when == "第3天全天"
    two = night([A("P12", "空之瞭望", "P05", "P06")])
    assert rejected(two) == [("P12", "空之瞭望")]
    ex = night([A("P12", "空之瞭望", "P05", "P06")], players={"P12": {"choice": "枯竭", "uses": {"空之瞭望": 1}}})
    assert not ex.rejected and ex.state_after["P12.空之瞭望"] == 0
    spent = night([A("P12", "空之瞭望", "P05")], players={"P12": {"uses": {"空之瞭望": 0}}})
    assert rejected(spent) == [("P12", "空之瞭望")]


def test_sky_watch_of_a_player_out_before_it_and_the_rewound_extra_use() -> None:
    """<空之瞭望> (data: forms' ``targets``, a ``tell`` ``together``) in its place among the 增益: a target cut at (0)
    that night is no longer watched ("已出局，不再生效", as every cast data settles); a <时间回溯> on it the night before
    gives one more use "不计入该技能原本的使用次数" — two watches, one use spent (the hook's ``Flow.uncounted``)."""
    cut = night([A("P05", "绝对切割", "P06"), A("P12", "空之瞭望", "P06")])
    assert not told(cut, "P12") and not cut.pending and "(增益) <空之瞭望>（P12）：没有可观测的目标" in cut.log
    pair = night([A("P05", "绝对切割", "P06"), A("P12", "空之瞭望", "P06", "P03")],
                 players={"P12": {"choice": "枯竭", "uses": {"空之瞭望": 1}}})
    assert told(pair, "P12") == ["空之瞭望：次日全天可获知P03之间的个人技能情况"] and pair.state_after["P12.空之瞭望"] == 0
    rewound = {"时间回溯上次": {"target": "P12", "night": 1, "技能": "空之瞭望"}}
    twice = night([A("P12", "空之瞭望", "P05"), A("P12", "空之瞭望", "P03")], state=rewound)
    assert told(twice, "P12") == ["空之瞭望：次日全天可获知P05之间的个人技能情况", "空之瞭望：次日全天可获知P03之间的个人技能情况"]
    assert twice.state_after["P12.空之瞭望"] == 2 and len(twice.pending) == 2


def test_data_collection_and_ethereal_eternity() -> None:
    """<数据收集> "得知白天被投票出局角色的具体身份"; <缥缈永恒>（限定） "指定一名白天被投票出局的自己阵营玩家，
    拥有该身份模板的全部技能（即抉择中的两种选项技能都将拥有）"."""
    out = {"P06": {"alive": False, "出局": {"day": 2, "cause": "投票"}, "choice": "持续"}}
    res = night([A("P11", "数据收集"), A("P11", "缥缈永恒", "P06")], players=out)
    assert "数据收集：第2天被投票出局的P06的身份：黄王" in told(res, "P11")  # (data, after the hooks' 增益)
    assert res.state_after["P11.辐射炫惑"] == 1 and res.state_after["P11.缥缈永恒"] == 0
    # the next night the 白王 holds both options: 持续 perception of a 减益 skill
    nxt = night([A("P03", "深青之桩", "P11")], n=3, players={**out, "P11": {"uses": {"缥缈永恒": 0, "辐射炫惑": 1}}})
    assert "被施放减益技能<深青之桩>，来源P03" in told(nxt, "P11")
    foe = night([A("P11", "缥缈永恒", "P07")], players={"P07": {"alive": False, "出局": {"day": 2, "cause": "投票"}}})
    assert rejected(foe) == [("P11", "缥缈永恒")]
    red = night([A("P11", "缥缈永恒", "P01")], players={"P01": {"alive": False, "出局": {"night": 1, "cause": "绝对切割"}}})
    assert rejected(red) == [("P11", "缥缈永恒")]
    none = night([A("P11", "数据收集")])
    assert told(none, "P11") == ["数据收集：第2天白天无人被投票出局"]


def test_a_template_taken_earlier_in_the_night_meets_the_later_buffs() -> None:
    """<缥缈永恒> (data: ``gain``) in its place among the 增益 ("增益技能生效时间按照私聊导演的具体时间先后为准"):
    the 绿王's <绝对防御> taken first voids a later <时间回溯> on the 白王; sent after it, the rewind holds."""
    out = {"P04": {"alive": False, "出局": {"day": 2, "cause": "投票"}}}
    first = night([A("P11", "缥缈永恒", "P04"), A("P10", "时间回溯", "P11", choice="数据收集")], players=out)
    assert first.state_after["P11.绝对防御"] is True and "技能" not in first.state_after["时间回溯上次"]
    assert told(first, "P11") == ["缥缈永恒：你拥有<绿王>身份模板的全部技能：绝对防御"]
    later = night([A("P10", "时间回溯", "P11", choice="数据收集"), A("P11", "缥缈永恒", "P04")], players=out)
    assert later.state_after["时间回溯上次"]["技能"] == "数据收集" and later.state_after["P11.绝对防御"] is True


def test_setup_choices_and_the_seers_first_two() -> None:
    """抉择: "分发身份完毕后，拿到该角色的演员进行抉择"; <四眼预知> "游戏开始时可以随机从导演处得知两个非自己角色的具体身份"."""
    plain = {"P06": {"choice": None}, "P07": {"choice": None}, "P12": {"choice": None, "uses": {}}}
    sc = scenario([A("P12", "抉择", choice="持续", phase="游戏开始前"), A("P07", "抉择", choice="枯竭", phase="游戏开始前"),
                   A("P06", "抉择", choice="持续", phase="游戏开始前")], day=1, players=plain)
    for p in sc["setup"]["players"]:
        if p.get("choice") is None:
            p.pop("choice", None)
    res = run(sc)
    assert res.state_after["P12.choice"] == "持续(3)" and res.state_after["P12.空之瞭望"] == 3
    assert res.state_after["P07.choice"] == "枯竭" and res.state_after["P07.净化之焰"] == 1
    seer = told(res, "P09")
    assert len(seer) == 1 and seer[0].count("的身份：") == 2 and "P09" not in seer[0]


def test_a_second_choice_replaces_the_first_with_its_uses() -> None:
    """抉择 is one choice ("拿到该角色的演员进行抉择"): of two sent before the game, the last counts ("以最后一条私信为准"),
    and the uses are the chosen form's — 持续 leaves no 枯竭（限定） use behind."""
    sc = scenario([A("P06", "抉择", choice="枯竭", phase="游戏开始前"), A("P06", "抉择", choice="持续", phase="游戏开始前")],
                  day=1)
    sc["setup"]["players"][5].pop("choice")
    res = run(sc)
    assert res.state_after["P06.choice"] == "持续" and "P06.辐射炫惑" not in res.state_after
    assert told(res, "P06") == ["抉择：<辐射炫惑>·持续"]


def test_seer_learns_three_each_morning_seeded_and_overridable() -> None:
    """<四眼预知> "从下一个游戏日开始每个游戏日白天开始时可以随机从导演处得知三个非自己角色的具体身份"."""
    a = night([], seed=3)
    b = night([], seed=3)
    assert a.to_json() == b.to_json()
    text = told(a, "P09")[0]
    assert text.count("的身份：") == 3 and "P09" not in text
    d = night([], decide={"四眼预知.P09.1": "P05"})
    assert told(d, "P09")[0].startswith("四眼预知：P05的身份：黑王")


# ------------------------------------------------------------------------------ 胜负判定
def test_last_faction_standing_wins_and_dead_cannot_act() -> None:
    """"某未判负阵营满足其胜利条件之一，或场上仅有一个阵营尚未被判负时，宣布此阵营胜利" — 六色联军胜1
    when the last 黑暗星云 and the 掠夺者 are out."""
    gone = {p: {"alive": False} for p in ("P03", "P07", "P10", "P12", "P14")}
    res = night([A("P02", "技能掠夺", "P05", choice="黑王"), A("P05", "绝对切割", "P02")],
                players={**gone, "P08": {"uses": {"机械制造": 0}}}, state={"机械制造上次": {"night": 1}, "判负阵营": []})
    assert deaths(res) == ["P02"] and told(res, "P02") == ["出局通知"]
    assert res.outcome is None  # 黑王 alive
    st = {"判负阵营": ["加速研究社"], "机械制造上次": {"night": 1}}
    end = night([A("P08", "最后一枪", "P05"), A("P05", "绝对切割", "P08")],
                players={**gone, "P02": {"alive": False}}, state=st)
    assert deaths(end) == ["P08", "P05"]
    assert end.outcome is not None and end.outcome.winner == "六色联军"
    assert end.state_after["判负阵营"] == ["加速研究社", "黑暗星云"]
    dead = night([A("P03", "深青之桩", "P06")], players=gone)
    assert rejected(dead) == [("P03", "深青之桩")]


def test_black_nebula_wins_when_six_colours_and_plunderer_are_out() -> None:
    """黑暗星云 "胜 1、所有六色联军阵营的角色和掠夺者均出局。\""""
    gone = {p: {"alive": False} for p in ("P01", "P04", "P06", "P08", "P11", "P02")}
    res = night([A("P05", "绝对切割", "P13")], state={"判负阵营": ["加速研究社"]}, players=gone)
    assert res.outcome is not None and res.outcome.winner == "黑暗星云"
    assert res.state_after["判负阵营"] == ["加速研究社", "六色联军"]


# ------------------------------------------------------------------------------ generic keys, speed
def test_generic_phase_any_and_lent_skills() -> None:
    """The two generic additions: ``phase = "any"`` (游戏日任意时刻) passes day and night; a skill in
    ``granted`` skips the role and phase checks and keeps the others (uses, targets)."""
    cat = parse_catalog({"ruleset": "t", "skills": [
        {"name": "切", "roles": ["甲"], "phase": "any", "targets": 1, "uses": "切"},
        {"name": "白", "roles": ["乙"], "phase": "day", "targets": 1}]}, "t")
    table = Table(players={"P01": Seat("P01", "甲", "x", uses={"切": 1}), "P02": Seat("P02", "乙", "y")},
                  state={}, night=2)
    assert refusal(table, Action("P01", "切", ("P02",)), cat.skill("切")) is None
    day_table = Table(players=table.players, state={}, day=2)
    assert refusal(day_table, Action("P01", "切", ("P02",)), cat.skill("切")) is None
    assert refusal(table, Action("P01", "白", ("P02",)), cat.skill("白")) is not None
    assert refusal(table, Action("P01", "白", ("P02",)), cat.skill("白"), ("白",)) is None
    assert refusal(table, Action("P01", "白", ()), cat.skill("白"), ("白",)) is not None


def test_a_24_player_night_settles_the_same_each_time() -> None:
    """A 24-player night (the posts' largest table) settles, and settling it again gives the same result;
    its speed is measured by benchmarks/bench_night.py, not asserted here."""
    sc = scenario([A("P05", "绝对切割", "P13"), A("P03", "深青之桩", "P06"), A("P13", "天枢剑圣", "P07"),
                   A("P02", "技能掠夺", "P14", choice="银鸦"), A("P14", "飞行头槌", "P10", phase="白天"),
                   A("P10", "时间回溯", "P03", choice="1"), A("P12", "空之瞭望", "P01")])
    for i in range(15, 25):
        sc["setup"]["players"].append({"name": f"P{i}", "role": "蓝王", "faction": "六色联军", "alive": True})
    table, actions = load(sc)
    cat = load_catalog("accel-m65")
    first = settle(cat, table, actions).to_json()
    assert len(table.players) == 24
    assert settle(cat, table, actions).to_json() == first


SKILLS = ["绝对切割", "飞行头槌", "时间回溯", "空之瞭望", "深青之桩", "数据收集", "缥缈永恒", "机械制造", "最后一枪",
          "天枢剑圣", "天璇紫后", "技能掠夺", "票权掠夺", "净化之焰", "辐射炫惑"]
PIDS = [p[0] for p in ROSTER]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dead=st.sets(st.sampled_from(PIDS), max_size=6),
       acts=st.lists(st.tuples(st.sampled_from(PIDS), st.sampled_from(SKILLS), st.lists(st.sampled_from(PIDS), max_size=2),
                               st.sampled_from([None, "枯竭", "反弹", "1号技能", "猜测身份：黑王", "骑士"]),
                               st.sampled_from([None, "白天"])), max_size=8),
       n=st.integers(1, 5), seed=st.integers(0, 5), gun=st.booleans())
def test_random_nights_never_crash_kill_twice_or_let_the_dead_act(
        dead: set[str], acts: list[tuple[str, str, list[str], str | None, str | None]], n: int, seed: int,
        gun: bool) -> None:
    """Any submissions on any table: no crash, nobody out twice, nobody already out dies, a player
    already out acts only through the post's exceptions (<最后一枪> on going out, a day block cast
    before the vote), and the same seed gives the same settlement."""
    players = {p: {"alive": False, "出局": {"day": max(1, n - 1), "cause": "投票"}} for p in dead}
    sc = scenario([A(a, s, *dict.fromkeys(t), choice=c, phase=ph) for a, s, t, c, ph in acts], night=n,
                  players=players, state={"机械制造上次": {"night": n - 1}} if gun and n > 1 else {})
    res = run(sc, seed=seed)
    died = deaths(res)
    assert len(died) == len(set(died)) and not set(died) & dead
    assert res.to_json() == run(sc, seed=seed).to_json()
    assert res.out_order == died
    refused = rejected(res)
    for a, s, _, _, _ in acts:
        if a in dead and s not in ("最后一枪", "天璇紫后", "飞行头槌"):
            assert (a, s) in refused
