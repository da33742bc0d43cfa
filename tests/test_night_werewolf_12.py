"""werewolf-12 (十二人标准狼人杀): the sixth game, settled from its night file alone.

No hook package: every test below runs the generic engine over ``rulesets/night/werewolf-12.toml``.
One test per clause of the post's 五、夜晚 / 六、猎人 / 四、警长 3 / 七、胜利条件 sections (and the
day's exile and red card), each quoting the clause it proves; :func:`clause` checks the quotation
against the post (tests/fixtures/rules/werewolf-12.txt) so a test cannot cite words the post
does not have.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.games import code_for, hooks_for
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import load_ruleset

POST = re.sub(r"\s+", "", (Path(__file__).parent / "fixtures" / "rules" / "werewolf-12.txt").read_text("utf-8"))
RID = "werewolf-12"

ROLES = {"P01": "狼人", "P02": "狼人", "P03": "狼人", "P04": "狼人", "P05": "预言家", "P06": "女巫",
         "P07": "猎人", "P08": "守卫", "P09": "村民", "P10": "村民", "P11": "村民", "P12": "村民"}
PACK = "狼群(P01,P02,P03,P04)"
SEER, WITCH, HUNTER, GUARD = "P05", "P06", "P07", "P08"


def clause(text: str) -> str:
    """The post's sentence, checked to be in the post (whitespace aside)."""
    assert re.sub(r"\s+", "", text) in POST, f"not in the post: {text}"
    return text


def table(*, night: int | None = 2, day: int | None = None, dead: tuple[str, ...] = (),
          sheriff: str | None = None, state: dict[str, Any] | None = None,
          potions: tuple[int, int] = (1, 1)) -> Table:
    players = {}
    for name, role in ROLES.items():
        seat = Seat(name, role, "狼人" if role == "狼人" else "好人")
        if role == "狼人":
            seat.tags.append("狼群")
        if role == "女巫":
            seat.uses.update({"解药": potions[0], "毒药": potions[1]})
        players[name] = seat
    for name in dead:
        players[name].alive = False
    if sheriff is not None:
        players[sheriff].tags.append("警长")
    return Table(players=players, state=dict(state or {}), night=None if day is not None else night, day=day)


def A(actor: str, skill: str, *targets: str, choice: str | None = None) -> Action:
    return Action(actor, skill, tuple(targets), choice=choice)


def run(t: Table, *actions: Action) -> Settlement:
    rs = load_ruleset(RID)
    cat = load_catalog(RID, rs.night_path, tuple(r.name for r in rs.roles))
    acts = [Action(a.actor, a.skill, a.targets, a.choice, a.phase, a.note, i) for i, a in enumerate(actions)]
    return settle(cat, t, acts, ruleset=rs)


def dead(r: Settlement) -> dict[str, str]:
    return {d.player: d.cause for d in r.deaths}


def refused(r: Settlement) -> dict[str, str]:
    return {x.skill: x.reason for x in r.rejected}


def told(r: Settlement, who: str) -> list[str]:
    return [f.content for f in r.feedback if f.to == who]


# ---------------------------------------------------------------------------- the game is data

def test_the_sixth_game_needs_no_python() -> None:
    """`tracker rulesets --json` names the Python each ruleset needs: none for werewolf-12."""
    assert hooks_for(RID) is None
    assert code_for(RID) == []
    assert code_for("sanguo-213") == ["tracker.engine.night.games.sanguo_213"]
    assert code_for("accel-m65", "accel-m65") == ["tracker.engine.night.games.accel_m65",
                                                  "tracker.engine.rulesets.hooks"]


def test_rulesets_json_has_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[RID]["code"] == [] and rows[RID]["factions"] == ["狼人", "好人"]
    assert all(rows[g]["code"] for g in ("dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"))


# ---------------------------------------------------------------------------- 五、夜晚 1. 守卫

def test_guard_stops_the_knife() -> None:
    clause("每晚选择一名玩家（可以是自己）守护，被守护者当晚不会被狼人杀死。")
    r = run(table(), A(GUARD, "守护", GUARD), A(PACK, "杀人", GUARD))
    assert r.deaths == [] and [s.player for s in r.survivals] == [GUARD]
    assert r.state_after["守护上次"] == {"target": GUARD, "night": 2}


def test_guard_not_the_same_player_two_nights_running() -> None:
    clause("不能连续两晚守护同一名玩家（上一晚空守的，本晚可守任何人）。")
    r = run(table(state={"守护上次": {"target": "P09", "night": 1}}), A(GUARD, "守护", "P09"), A(PACK, "杀人", "P09"))
    assert "不能连续两晚" in refused(r)["守护"] and dead(r) == {"P09": "杀人"}
    # the night after, the same player may be guarded again
    r = run(table(night=3, state={"守护上次": {"target": "P09", "night": 1}}), A(GUARD, "守护", "P09"))
    assert r.rejected == []


def test_an_empty_guard_night_resets_the_rule() -> None:
    clause("可以选择空守。")
    r = run(table(night=1), A(GUARD, "守护"))
    assert r.rejected == [] and r.state_after["守护上次"] == {"night": 1}
    night2 = table(state=r.state_after)
    r = run(night2, A(GUARD, "守护", "P09"), A(PACK, "杀人", "P09"))
    assert r.rejected == [] and r.deaths == []


def test_guard_does_not_stop_the_poison() -> None:
    clause("守卫守护不能挡女巫的毒药。")
    r = run(table(), A(GUARD, "守护", "P09"), A(WITCH, "毒药", "P09"))
    assert dead(r) == {"P09": "毒药"} and r.survivals == []


# ---------------------------------------------------------------------------- 五、夜晚 2. 狼人

def test_wolves_may_kill_a_teammate() -> None:
    clause("可以杀狼队友，可以空刀。")
    assert dead(run(table(), A(PACK, "杀人", "P02"))) == {"P02": "杀人"}


def test_wolves_may_kill_nobody() -> None:
    clause("可以杀狼队友，可以空刀。")
    r = run(table(), A(PACK, "杀人"), A(WITCH, "毒药", "P10"))
    assert dead(r) == {"P10": "毒药"} and r.rejected == []


def test_any_wolf_may_send_the_knife_and_the_last_message_counts() -> None:
    clause("由任意一名狼人私信导演统一刀口。")
    clause("刀口不统一时，以最后一条私信为准。")
    r = run(table(), A("P01", "杀人", "P09"), A("狼群(P02)", "杀人", "P10"))
    assert dead(r) == {"P10": "杀人"}
    r = run(table(), A("P03", "杀人", "P10"), A("P04", "杀人"))
    assert dead(r) == {}, "a later empty knife replaces the earlier knife"


def test_a_villager_cannot_send_the_knife() -> None:
    clause("4 名狼人共用一个夜间私聊，每晚共同决定杀一名玩家")
    r = run(table(), A("P09", "杀人", "P10"))
    assert "杀人" in refused(r) and r.deaths == []


def test_no_knife_once_all_wolves_are_dead() -> None:
    clause("所有狼人死亡则夜里无刀。")
    r = run(table(dead=("P01", "P02", "P03", "P04")), A("狼群", "杀人", "P09"))
    assert "已全部出局" in refused(r)["杀人"] and "P09" not in dead(r)


# ---------------------------------------------------------------------------- 五、夜晚 3. 女巫

def test_witch_saves_the_knifed_player() -> None:
    clause("解药：救当晚被狼人杀的人。")
    r = run(table(), A(PACK, "杀人", "P09"), A(WITCH, "解药", "P09"))
    assert r.deaths == [] and r.state_after[f"{WITCH}.解药"] == 0


def test_the_antidote_saves_only_the_knifed_player() -> None:
    clause("解药：救当晚被狼人杀的人。")
    r = run(table(), A(PACK, "杀人", "P09"), A(WITCH, "解药", "P10"))
    assert "只能用于当晚受到<杀人>的玩家" in refused(r)["解药"]
    assert dead(r) == {"P09": "杀人"} and f"{WITCH}.解药" not in r.state_after, "a refused antidote is not spent"


def test_each_potion_once_per_game() -> None:
    clause("全局一瓶解药、一瓶毒药，各只能用一次。")
    r = run(table(potions=(0, 0)), A(PACK, "杀人", "P09"), A(WITCH, "解药", "P09"))
    assert "没有使用次数" in refused(r)["解药"] and dead(r) == {"P09": "杀人"}
    r = run(table(potions=(0, 0)), A(WITCH, "毒药", "P10"))
    assert "没有使用次数" in refused(r)["毒药"] and r.deaths == []


def test_witch_is_told_the_knife_only_while_she_has_the_antidote() -> None:
    clause("每晚导演私信告诉女巫当晚狼人的刀口（解药用掉之后不再告知刀口）。")
    assert told(run(table(), A(PACK, "杀人", "P09")), WITCH) == ["当晚狼人的刀口：P09"]
    assert told(run(table(), A(PACK, "杀人")), WITCH) == ["当晚狼人空刀"]
    assert told(run(table(potions=(0, 1)), A(PACK, "杀人", "P09")), WITCH) == []


def test_witch_saves_herself_on_the_first_night_only() -> None:
    clause("女巫不能自救，唯一例外：第1夜（首夜）可以自救。")
    r = run(table(night=1), A(PACK, "杀人", WITCH), A(WITCH, "解药", WITCH))
    assert r.deaths == [] and r.rejected == []
    r = run(table(night=2), A(PACK, "杀人", WITCH), A(WITCH, "解药", WITCH))
    assert "仅第一晚可以选择自己" in refused(r)["解药"] and dead(r) == {WITCH: "杀人"}


def test_never_both_potions_in_one_night() -> None:
    clause("同一晚不能同时使用解药和毒药。")
    r = run(table(), A(PACK, "杀人", "P09"), A(WITCH, "解药", "P09"), A(WITCH, "毒药", "P10"))
    assert set(refused(r)) == {"毒药"} and r.deaths == []
    r = run(table(), A(PACK, "杀人", "P09"), A(WITCH, "毒药", "P10"), A(WITCH, "解药", "P09"))
    assert set(refused(r)) == {"解药"} and dead(r) == {"P09": "杀人", "P10": "毒药"}


# ---------------------------------------------------------------------------- 五、夜晚 4. 同守同救

def test_guarded_and_saved_dies_and_the_antidote_is_spent() -> None:
    clause('如果同一晚守卫守护的玩家同时被女巫解药救下（即"同守同救"，俗称"奶穿"），该玩家当晚死亡。')
    clause("此时解药视为已使用。")
    r = run(table(), A(GUARD, "守护", "P09"), A(PACK, "杀人", "P09"), A(WITCH, "解药", "P09"))
    assert dead(r) == {"P09": "同守同救"} and r.state_after[f"{WITCH}.解药"] == 0


# ---------------------------------------------------------------------------- 五、夜晚 5. 预言家

def test_seer_answers_only_good_or_wolf() -> None:
    clause('每晚查验一名存活玩家，导演回复"好人"或"狼人"。（查验结果只有这两种，不分神民。）')
    r = run(table(), A(SEER, "查验", HUNTER))
    assert told(r, SEER) == [f"{HUNTER}：好人"]
    assert told(run(table(), A(SEER, "查验", "P03")), SEER) == ["P03：狼人"]


def test_seer_killed_that_night_still_gets_the_answer() -> None:
    clause("预言家当晚死亡不影响当晚查验结果的送达（导演仍会回复）。")
    r = run(table(), A(PACK, "杀人", SEER), A(SEER, "查验", "P02"))
    assert dead(r) == {SEER: "杀人"} and told(r, SEER) == ["P02：狼人"]


def test_seer_checks_only_a_living_player() -> None:
    clause("每晚查验一名存活玩家")
    r = run(table(dead=("P02",)), A(SEER, "查验", "P02"))
    assert "查验" in refused(r) and told(r, SEER) == []


# ---------------------------------------------------------------------------- 六、猎人

def test_hunter_killed_by_wolves_shoots() -> None:
    clause("猎人死亡时（被狼人杀、被放逐、被猎人以外的方式出局）可以开枪带走一名存活玩家。")
    clause("开枪带走的人立即出局，无遗言。")
    r = run(table(), A(PACK, "杀人", HUNTER), A(HUNTER, "开枪", "P02"))
    assert dead(r) == {HUNTER: "杀人", "P02": "开枪"} and r.out_order == [HUNTER, "P02"]


def test_hunter_exiled_shoots() -> None:
    clause("被放逐的，在遗言中开枪。")
    r = run(table(day=2), A("放逐投票", "投票出局", HUNTER), A(HUNTER, "开枪", "P03"))
    assert dead(r) == {HUNTER: "投票出局", "P03": "开枪"}


def test_hunter_dead_at_night_shoots_the_next_day() -> None:
    clause("猎人夜里死亡的，在次日公告后、讨论开始前开枪（私信导演）")
    t = table(day=3, dead=(HUNTER,))
    t.players[HUNTER].fields["出局"] = {"night": 3, "cause": "杀人"}
    r = run(t, A(HUNTER, "开枪", "P04"))
    assert dead(r) == {"P04": "开枪"}


def test_poisoned_hunter_cannot_shoot() -> None:
    clause("被女巫毒死的猎人不能开枪。")
    r = run(table(), A(WITCH, "毒药", HUNTER), A(HUNTER, "开枪", "P02"))
    assert dead(r) == {HUNTER: "毒药"} and "因<毒药>出局" in refused(r)["开枪"]
    t = table(day=3, dead=(HUNTER,))
    t.players[HUNTER].fields["出局"] = {"night": 3, "cause": "毒药"}
    assert "开枪" in refused(run(t, A(HUNTER, "开枪", "P02")))


def test_red_carded_hunter_cannot_shoot() -> None:
    clause("红牌出局的猎人不能开枪。")
    r = run(table(day=2), A("导演", "红牌罚下", HUNTER), A(HUNTER, "开枪", "P02"))
    assert dead(r) == {HUNTER: "红牌罚下"} and "开枪" in refused(r)


def test_two_red_cards_in_one_day_send_both_off() -> None:
    clause("累计 3 张黄牌 = 1 张红牌 = 立即出局")
    # each red card is the director's own decision: a second one the same day does not replace the first
    r = run(table(day=2), A("导演", "红牌罚下", "P09"), A("导演", "红牌罚下", "P10"))
    assert dead(r) == {"P09": "红牌罚下", "P10": "红牌罚下"}


def test_hunter_may_not_shoot() -> None:
    clause("猎人可以选择不开枪。")
    r = run(table(), A(PACK, "杀人", HUNTER))
    assert dead(r) == {HUNTER: "杀人"} and r.rejected == []


def test_a_living_hunter_cannot_shoot() -> None:
    clause("猎人死亡时（被狼人杀、被放逐、被猎人以外的方式出局）可以开枪带走一名存活玩家。")
    r = run(table(), A(HUNTER, "开枪", "P02"))
    assert r.deaths == [] and "未出局" in refused(r)["开枪"]


def test_hunter_shot_ends_the_game_at_once() -> None:
    clause("猎人开枪后如立即满足胜利条件，游戏立即结束。")
    t = table(day=4, dead=("P02", "P03", "P04"))
    r = run(t, A("放逐投票", "投票出局", HUNTER), A(HUNTER, "开枪", "P01"), A("导演", "红牌罚下", "P09"))
    assert r.outcome is not None and r.outcome.winner == "好人"
    assert dead(r) == {HUNTER: "投票出局", "P01": "开枪"}, "nothing is settled after the game ends"


# ---------------------------------------------------------------------------- 四、警长 3. 警徽

def test_badge_passed_on_the_sheriffs_death() -> None:
    clause("警长死亡（夜里死、被放逐、被猎人带走、被毒死、红牌出局）时，可以私信导演指定一名存活玩家继承警徽")
    r = run(table(sheriff="P09"), A(PACK, "杀人", "P09"), A("P09", "警徽", "P10", choice="传递"))
    assert [(m.tag, m.from_player, m.to_player) for m in r.tags_moved] == [("警长", "P09", "P10")]
    assert r.state_after["警长"] == "P10" and "警长" in r.table_after.players["P10"].tags  # type: ignore[union-attr]


def test_badge_torn() -> None:
    clause("或选择撕警徽（警徽流失，本局不再有警长）。")
    r = run(table(day=2, sheriff="P09"), A("放逐投票", "投票出局", "P09"), A("P09", "警徽", choice="撕警徽"))
    assert [(m.from_player, m.to_player) for m in r.tags_moved] == [("P09", None)] and r.state_after["警长"] is None


def test_badge_torn_when_not_named() -> None:
    clause("逾期未指定视为撕警徽。")
    r = run(table(sheriff="P09"), A(WITCH, "毒药", "P09"))
    assert [(m.from_player, m.to_player) for m in r.tags_moved] == [("P09", None)]


def test_badge_passes_when_the_hunter_takes_the_sheriff() -> None:
    clause("被带走者如是警长，照常传递警徽。")
    r = run(table(day=2, sheriff="P09"), A("放逐投票", "投票出局", HUNTER), A(HUNTER, "开枪", "P09"),
            A("P09", "警徽", "P11", choice="传递"))
    assert [(m.from_player, m.to_player) for m in r.tags_moved] == [("P09", "P11")]


def test_red_carded_sheriff_still_passes_the_badge() -> None:
    clause("红牌出局者如是警长，警徽按第四节处理。")
    r = run(table(day=2, sheriff="P09"), A("导演", "红牌罚下", "P09"), A("P09", "警徽", "P12", choice="传递"))
    assert [(m.from_player, m.to_player) for m in r.tags_moved] == [("P09", "P12")]


def test_badge_only_for_the_sheriff() -> None:
    clause("警长死亡（夜里死、被放逐、被猎人带走、被毒死、红牌出局）时")
    r = run(table(sheriff="P10"), A(PACK, "杀人", "P09"), A("P09", "警徽", "P11", choice="传递"))
    assert "警徽" in refused(r) and r.tags_moved == []


# ---------------------------------------------------------------------------- 七、胜利条件

def test_simultaneous_win_goes_to_the_good() -> None:
    clause("如果同一时刻双方同时满足胜利条件（例如猎人开枪带走最后一名狼人的同时最后一名神职也出局），以好人胜论。")
    t = table(dead=("P02", "P03", "P04", SEER, WITCH, GUARD))
    r = run(t, A("狼群(P01)", "杀人", HUNTER), A(HUNTER, "开枪", "P01"))
    assert r.outcome is not None and r.outcome.winner == "好人"
    assert "狼人阵营同时达成胜利条件" in r.outcome.reason


def test_wolves_win_when_all_villagers_are_out() -> None:
    clause("狼人胜：所有村民出局，或所有神职（预言家、女巫、猎人、守卫）出局，即屠边。")
    r = run(table(dead=("P09", "P10", "P11")), A(PACK, "杀人", "P12"))
    assert r.outcome is not None and r.outcome.winner == "狼人"


def test_wolves_win_when_all_gods_are_out() -> None:
    clause("狼人胜：所有村民出局，或所有神职（预言家、女巫、猎人、守卫）出局，即屠边。")
    r = run(table(day=3, dead=(SEER, WITCH, HUNTER)), A("放逐投票", "投票出局", GUARD))
    assert r.outcome is not None and r.outcome.winner == "狼人"


def test_win_check_after_every_exit() -> None:
    clause("每次有人出局后（夜间结算后、放逐后、猎人开枪后、红牌出局后）立即判定胜负。")
    r = run(table(day=3, dead=("P02", "P03", "P04")), A("放逐投票", "投票出局", "P09"), A("导演", "红牌罚下", "P01"))
    assert r.outcome is not None and r.outcome.winner == "好人" and dead(r) == {"P09": "投票出局", "P01": "红牌罚下"}
    r = run(table(dead=("P09", "P10", "P11")), A(PACK, "杀人"))
    assert r.outcome is None, "no exit, no result"


def test_good_win_when_all_wolves_are_out() -> None:
    clause("好人胜：所有狼人出局。")
    r = run(table(dead=("P02", "P03", "P04")), A(WITCH, "毒药", "P01"))
    assert r.outcome is not None and r.outcome.winner == "好人"


# ---------------------------------------------------------------------------- the command line

def _scenario(**over: Any) -> dict[str, Any]:
    players = []
    for name, role in ROLES.items():
        p: dict[str, Any] = {"name": name, "role": role, "faction": "狼人" if role == "狼人" else "好人", "alive": True}
        if role == "女巫":
            p["uses"] = {"解药": 1, "毒药": 1}
        players.append(p)
    sc = {"game": RID, "setup": {"night": 1, "players": players, "state": {}},
          "actions": [{"actor": PACK, "skill": "杀人", "targets": ["P09"]},
                      {"actor": WITCH, "skill": "解药", "targets": ["P09"]}]}
    sc.update(over)
    return sc


def test_simulate_a_werewolf_night_from_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "ww.json"
    f.write_text(json.dumps(_scenario(), ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", RID, str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deaths"] == [] and {"to": WITCH, "content": "当晚狼人的刀口：P09"} in out["feedback"]


@pytest.mark.parametrize(("where", "bad", "word"), [
    ("status", "醉酒", "状态"), ("tags", "警长1", "标记"), ("faction", "村民", "阵营"), ("state", "守护上回", "状态键")])
def test_scenario_names_are_checked_against_the_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        where: str, bad: str, word: str) -> None:
    sc = _scenario()
    if where == "state":
        sc["setup"]["state"][bad] = {"night": 1}
    elif where == "faction":
        sc["setup"]["players"][8]["faction"] = bad
    else:
        sc["setup"]["players"][8][where] = [bad]
    f = tmp_path / "ww.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", RID, str(f), "--json"]) == 2
    err = capsys.readouterr().err
    assert bad in err and word in err and "werewolf-12" in err


def test_a_day_phase_that_takes_nobody_out_is_not_announced_as_a_peaceful_night() -> None:
    """平安夜 is the word for a night without deaths (五、6 "夜里死亡者次日早上统一公布"); a day
    settlement in which nobody goes out (a hunter's shot refused) is announced as 无人出局."""
    from tracker.reports.night_settlement import announcement_lines

    quiet_day = Settlement(table_after=Table(players={}, state={}, day=1))
    quiet_night = Settlement(table_after=Table(players={}, state={}, night=2))
    assert announcement_lines(quiet_day)[0] == "无人出局"
    assert announcement_lines(quiet_night)[0] == "平安夜"
