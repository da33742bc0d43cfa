"""The generic keys for what holds one phase only, on a toy night settled by the generic engine alone.

``when_target`` (an effect that takes hold only on a target of a kind: M160 禁锢 "当你选中【实际阵营】为
【爪牙】的角色时"), ``for_phase`` statuses (今晚: 面具, 明晰), ``voided_by`` with the night's
``status_cancels`` (醉酒期间发动的其他类型技能无效; 清醒 优先级高于醉酒), ``redirect`` (抗议 "所有指定他们
作为目标的技能，都可能替换你作为其中一个技能目标"), and a blocked actor refused with his blocker named.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

NIGHT: dict[str, Any] = {
    "ruleset": "tonight-toy",
    "status_cancels": {"清醒": ["醉酒"]},
    "steps": [
        {"n": "1", "skills": ["封印"]},
        {"n": "2", "skills": ["灌醉", "换位"]},
        {"n": "3", "skills": ["伪装", "诅咒", "躲避"]},
        {"n": "4", "skills": ["守护", "杀人"]},
        {"n": "5", "resolve": True},
    ],
    "skills": [
        {"name": "封印", "roles": ["术士"], "targets": 1, "clause": "选中恶魔时，他今晚失去技能",
         "effects": [{"kind": "block", "voids": ["*"], "when_target": {"of": "group", "values": ["恶魔"]}}]},
        {"name": "灌醉", "roles": ["酒保"], "targets": 1,
         "effects": [{"kind": "status", "status": "醉酒", "for_phase": True}]},
        {"name": "换位", "roles": ["替身"], "targets": 1, "effects": [{"kind": "redirect"}]},
        {"name": "伪装", "roles": ["术士"], "targets": 1, "voided_by": ["醉酒"],
         "effects": [{"kind": "status", "status": "伪装", "for_phase": True}]},
        {"name": "诅咒", "roles": ["巫婆"], "targets": 1, "voided_by": ["醉酒"],
         "effects": [{"kind": "status", "status": "中毒",
                      "when_target": {"of": "faction", "seen": "surface", "values": ["狼人"]}}]},
        {"name": "躲避", "roles": ["懦夫"], "targets": 1,
         "effects": [{"kind": "protect", "stops": ["*"], "to": "actor",
                      "when_target": {"of": "faction", "seen": "surface", "values": ["狼人"]}}]},
        {"name": "守护", "roles": ["守卫"], "targets": 1, "voided_by": ["醉酒"], "uses": "守护", "count": 2,
         "effects": [{"kind": "protect", "stops": ["杀人"]}]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}


def _cat() -> Catalog:
    return parse_catalog(NIGHT, "tonight.toml")


def _table(**fields: dict[str, Any]) -> Table:
    seats = {
        "P1": Seat("P1", "狼人", "狼人"), "P2": Seat("P2", "守卫", "村民", uses={"守护": 2}), "P3": Seat("P3", "术士", "村民"),
        "P4": Seat("P4", "替身", "村民"), "P5": Seat("P5", "酒保", "村民"), "P6": Seat("P6", "巫婆", "村民"),
        "P7": Seat("P7", "村民", "村民"), "P8": Seat("P8", "懦夫", "村民"),
    }
    for name, extra in fields.items():
        for key, value in extra.items():
            if key == "status":
                seats[name].status = list(value)
            elif key == "uses":
                seats[name].uses = dict(value)
            else:
                seats[name].fields[key] = value
    return Table(players=seats, state={}, night=2)


def _run(acts: list[Action], decisions: dict[str, str] | None = None, **fields: dict[str, Any]) -> Settlement:
    return settle(_cat(), _table(**fields), [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)],
                  decisions=decisions)


def test_when_target_blocks_only_a_target_of_the_group_and_names_the_blocker() -> None:
    """封印 on a player whose group (the shared ``type`` field) is 恶魔: his later skill is refused,
    naming who blocked him and the clause; on anyone else it does nothing, and the log says so."""
    knife = Action("狼群(P1)", "杀人", ("P7",))
    res = _run([Action("P3", "封印", ("P1",)), knife], P1={"type": "恶魔"})
    assert [(r.actor, r.skill) for r in res.rejected] == [("狼群(P1)", "杀人")]
    assert "P3<封印>" in res.rejected[0].reason and res.rejected[0].clause == "选中恶魔时，他今晚失去技能"
    assert res.deaths == []
    res = _run([Action("P3", "封印", ("P1",)), knife])  # no type: the role's name stands for its group
    assert res.rejected == [] and [d.player for d in res.deaths] == ["P7"]
    assert any("P1的实际类型不是恶魔，无效果" in line for line in res.log)


def test_when_target_seen_on_the_surface_reads_the_players_surface_fields() -> None:
    """诅咒 poisons only a target whose 表面阵营 is 狼人: a wolf shown as 村民 is spared, a villager shown
    as 狼人 is not."""
    res = _run([Action("P6", "诅咒", ("P7",))], P7={"表面阵营": "狼人"})
    assert res.state_after["P7.status"] == ["中毒"]
    res = _run([Action("P6", "诅咒", ("P1",))], P1={"表面阵营": "村民"})
    assert "P1.status" not in res.state_after
    assert any("P1的表面阵营不是狼人，无效果" in line for line in res.log)


def test_a_status_for_the_phase_voids_a_later_skill_and_is_gone_after() -> None:
    """灌醉 (step 2) makes the guard 醉酒 tonight: his 守护 (step 4) is used to no effect — the knife
    kills — and the status is written neither to the state after nor to the table after."""
    acts = [Action("P5", "灌醉", ("P2",)), Action("P2", "守护", ("P7",)), Action("狼群(P1)", "杀人", ("P7",))]
    res = _run(acts)
    assert [d.player for d in res.deaths] == ["P7"]
    assert any("(4) P2<守护>：P2醉酒，技能无效" in line for line in res.log)
    assert res.state_after["P2.守护"] == 1  # the use is spent ("一次性技能如果被触发则被消耗")
    assert "P2.status" not in res.state_after and res.table_after is not None
    assert res.table_after.players["P2"].status == []
    sober = _run(acts, P2={"status": ["清醒"]})  # status_cancels: 清醒 cancels 醉酒
    assert sober.deaths == [] and [s.player for s in sober.survivals] == ["P7"]


def test_a_status_for_the_phase_holds_while_the_phase_is_settled() -> None:
    """伪装 gives its target a status for tonight; the same target drunk tonight voids 伪装 itself."""
    res = _run([Action("P3", "伪装", ("P7",))])
    assert any("(3) P3<伪装>：P7获得今晚的伪装" in line for line in res.log)
    assert "P7.status" not in res.state_after
    res = _run([Action("P5", "灌醉", ("P3",)), Action("P3", "伪装", ("P7",))])
    assert any("P3<伪装>：P3醉酒，技能无效" in line for line in res.log)


def test_a_redirect_may_put_its_user_in_a_later_targets_place() -> None:
    """换位 on P7: the knife that names P7 afterwards may take P4 instead — the director's question,
    keyed by the redirecting skill, the submitter and his skill."""
    acts = [Action("P4", "换位", ("P7",)), Action("狼群(P1)", "杀人", ("P7",))]
    yes = _run(acts, {"换位.P1.杀人": "是"})
    assert [d.player for d in yes.deaths] == ["P4"]
    assert any("换位：P1<杀人>的目标P7替换为P4" in line for line in yes.log)
    no = _run(acts, {"换位.P1.杀人": "否"})
    assert [d.player for d in no.deaths] == ["P7"]
    assert [q.key for q in no.questions] == ["换位.P1.杀人"]
    before = _run([Action("狼群(P1)", "杀人", ("P7",))])  # no redirect: no question
    assert before.questions == []


def test_an_effect_on_the_actor_when_a_target_is_of_a_kind() -> None:
    """``to = "actor"`` with ``stops = ["*"]``: choosing a wolf (表面) keeps the chooser alive tonight
    against any skill (懦夫【自保】 "当你选中【表面阵营】为【恶魔】的玩家时，你在当晚不会死亡")."""
    knife = Action("狼群(P1)", "杀人", ("P8",))
    safe = _run([Action("P8", "躲避", ("P1",)), knife])
    assert safe.deaths == [] and [s.player for s in safe.survivals] == ["P8"]
    assert any("(3) P8<躲避>：P8（当晚不受任何致死）" in line for line in safe.log)
    shown = _run([Action("P8", "躲避", ("P1",)), knife], P1={"表面阵营": "村民"})
    assert [d.player for d in shown.deaths] == ["P8"]
    assert [d.player for d in _run([Action("P8", "躲避", ("P7",)), knife]).deaths] == ["P8"]
