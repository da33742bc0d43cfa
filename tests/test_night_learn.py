"""``learn``: one answer to a question about a whole submission, maybe wrong — on a toy game (no hook
package). The question (``ask``: any / chosen_before), the players asked about (``among``), who is told
(``told``), a fixed player the actor may mistake (``misread``), and a status that makes the answer wrong
with a chance (``distort``), each a seeded question the director may decide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset, load_ruleset, parse_ruleset
from tracker.errors import RulesetError

DISTORT = {"by": ["醉酒", "中毒"], "chance": 0.9}


def night(**learn: Any) -> dict[str, Any]:
    ask = {"kind": "learn", "match": {"of": "faction", "values": ["狼人"]}, "yes": "有", "no": "没有",
           "text": "审问：{targets}中{answer}狼人", "distort": DISTORT, **learn}
    return {
        "ruleset": "learn-toy",
        "status_cancels": {"清醒": ["醉酒", "中毒"]},
        "steps": [{"n": "1", "skills": ["守护"]}, {"n": "2", "skills": ["审问"]}, {"n": "3", "skills": ["游历"]},
                  {"n": "4", "skills": ["拜访"]}],
        "skills": [
            {"name": "守护", "roles": ["守卫"], "min_targets": 1, "max_targets": 3,
             "effects": [{"kind": "protect", "stops": ["*"]}]},
            {"name": "审问", "roles": ["审讯者"], "targets": 2, "effects": [ask]},
            {"name": "游历", "roles": ["旅人"], "targets": 2,
             "effects": [{"kind": "learn", "ask": "chosen_before", "text": "游历：{answer}", "distort": DISTORT,
                          "log": "{step} {actor}：{targets}此前共选择{answer}人次"}]},
            {"name": "拜访", "roles": ["访客"], "targets": 1,
             "effects": [{"kind": "learn", "among": "actor_and_targets", "told": "actor_and_targets",
                          "match": {"of": "faction", "values": ["狼人"]}, "text": "拜访：你们之间{answer}"}]},
        ],
    }


def table(**status: list[str]) -> Table:
    roles = {"P1": ("审讯者", "村民"), "P2": ("守卫", "村民"), "P3": ("旅人", "村民"), "P4": ("访客", "村民"),
             "P5": ("狼", "狼人"), "P6": ("村民", "村民")}
    return Table(players={p: Seat(p, r, f, status=list(status.get(p, []))) for p, (r, f) in roles.items()},
                 state={}, night=2)


def acts(*rows: tuple[str, str, tuple[str, ...]]) -> list[Action]:
    return [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(rows)]


def told(res: Settlement, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_any_answers_for_the_targets_together_and_tells_the_actor_only() -> None:
    cat = parse_catalog(night(), "toy.toml")
    res = settle(cat, table(), acts(("P1", "审问", ("P5", "P6"))))
    assert told(res, "P1") == ["审问：P5、P6中有狼人"] and told(res, "P5") == [] and told(res, "P6") == []
    assert "(2) P1<审问>：P5、P6 → 有" in res.log and res.questions == []
    res = settle(cat, table(), acts(("P1", "审问", ("P4", "P6"))))
    assert told(res, "P1") == ["审问：P4、P6中没有狼人"]


def test_among_the_actor_and_told_both() -> None:
    cat = parse_catalog(night(), "toy.toml")
    res = settle(cat, table(), acts(("P4", "拜访", ("P5",))))
    assert told(res, "P4") == told(res, "P5") == ["拜访：你们之间是"]
    res = settle(cat, table(), acts(("P4", "拜访", ("P6",))))
    assert told(res, "P4") == told(res, "P6") == ["拜访：你们之间否"]


def test_chosen_before_counts_the_choices_of_earlier_steps_only() -> None:
    """守护 (step 1) is counted, 审问 (step 2) too, 拜访 (step 4, after 游历) is not: "截止你行动时为止"."""
    cat = parse_catalog(night(), "toy.toml")
    rows = (("P2", "守护", ("P1", "P4", "P6")), ("P1", "审问", ("P5", "P6")), ("P4", "拜访", ("P2",)),
            ("P3", "游历", ("P2", "P4")))
    res = settle(cat, table(), acts(*rows))
    assert told(res, "P3") == ["游历：3"]
    assert "(3) P3：P2、P4此前共选择3人次" in res.log
    res = settle(cat, table(), acts(*rows[:3], ("P3", "游历", ("P1", "P2"))))
    assert told(res, "P3") == ["游历：5"]


def test_distort_turns_a_yes_round_while_drunk_and_the_director_decides() -> None:
    cat = parse_catalog(night(), "toy.toml")
    drunk = table(P1=["醉酒"])
    lie = settle(cat, drunk, acts(("P1", "审问", ("P5", "P6"))), decisions={"醉酒错误.P1.审问": "是"})
    assert told(lie, "P1") == ["审问：P5、P6中没有狼人"]
    assert "(2) P1<审问>：P5、P6 → 有（醉酒，告知没有）" in lie.log
    truth = settle(cat, drunk, acts(("P1", "审问", ("P5", "P6"))), decisions={"醉酒错误.P1.审问": "否"})
    assert told(truth, "P1") == ["审问：P5、P6中有狼人"]
    q = next(q for q in truth.questions if q.key == "醉酒错误.P1.审问")
    assert q.question == "P1醉酒/中毒，<审问>获取错误信息？" and q.by == "director"


def test_distort_is_seeded_and_about_ninety_percent() -> None:
    cat = parse_catalog(night(), "toy.toml")
    answers = [told(settle(cat, table(P1=["中毒"]), acts(("P1", "审问", ("P5", "P6"))), seed=s), "P1")[0]
               for s in range(200)]
    wrong = answers.count("审问：P5、P6中没有狼人")
    assert 160 <= wrong <= 195
    again = [told(settle(cat, table(P1=["中毒"]), acts(("P1", "审问", ("P5", "P6"))), seed=s), "P1")[0]
             for s in range(200)]
    assert again == answers


def test_a_cancelling_status_keeps_the_answer_true_and_asks_nothing() -> None:
    """status_cancels 清醒 → 醉酒/中毒 ("【清醒】……优先级高于【醉酒】与【中毒】")."""
    cat = parse_catalog(night(), "toy.toml")
    res = settle(cat, table(P1=["中毒", "清醒"]), acts(("P1", "审问", ("P5", "P6"))), decisions={"醉酒错误.P1.审问": "是"})
    assert told(res, "P1") == ["审问：P5、P6中有狼人"] and res.questions == []


def test_a_wrong_number_is_the_directors_pick_never_the_true_one() -> None:
    cat = parse_catalog(night(), "toy.toml")
    rows = acts(("P2", "守护", ("P1", "P4", "P6")), ("P3", "游历", ("P2", "P4")))
    res = settle(cat, table(P3=["醉酒"]), rows, decisions={"醉酒错误.P3.游历": "是", "游历.错误.P3": "7"})
    assert told(res, "P3") == ["游历：7"] and "(3) P3：P2、P4此前共选择3人次（醉酒，告知7）" in res.log
    q = next(q for q in res.questions if q.key == "游历.错误.P3")
    assert q.options == ("0", "1", "2", "4", "5", "6", "7", "8")
    narrow = night()
    narrow["skills"][2]["effects"][0]["distort"] = {**DISTORT, "upto": 3}
    res = settle(parse_catalog(narrow, "toy.toml"), table(P3=["醉酒"]), rows, decisions={"醉酒错误.P3.游历": "是"})
    assert next(q for q in res.questions if q.key == "游历.错误.P3").options == ("0", "1", "2")


def test_misread_the_actor_or_the_named_player_may_pass_for_a_match() -> None:
    misread = {"who": "可能被误认的玩家", "whether": "是否把{players}误认为狼人"}
    cat = parse_catalog(night(misread=misread), "toy.toml")
    rows = acts(("P1", "审问", ("P4", "P6")))
    assert told(settle(cat, table(), rows, decisions={"审问.误认对象": "P6", "审问.误认.P1": "是"}), "P1") == [
        "审问：P4、P6中有狼人"]
    assert told(settle(cat, table(), rows, decisions={"审问.误认对象": "P6", "审问.误认.P1": "否"}), "P1") == [
        "审问：P4、P6中没有狼人"]
    other = settle(cat, table(), rows, decisions={"审问.误认对象": "P2", "审问.误认.P1": "是"})
    assert told(other, "P1") == ["审问：P4、P6中没有狼人"]
    assert [q.key for q in other.questions] == ["审问.误认对象"]
    assert "P1" not in next(q for q in other.questions if q.key == "审问.误认对象").options
    found = settle(cat, table(), acts(("P1", "审问", ("P5", "P6"))))
    assert found.questions == []  # a true yes needs no misreading


@pytest.mark.parametrize(("change", "word"), [
    ({"match": None}, "match"),
    ({"when_target": {"values": ["狼人"]}}, "when_target"),
    ({"ask": "chosen_before", "yes": "有"}, "ask = 'chosen_before'"),
])
def test_learn_reads_only_its_own_keys(change: dict[str, Any], word: str) -> None:
    bad = night()
    effect = bad["skills"][1]["effects"][0]
    effect.update(change)
    if change.get("match", 0) is None:
        del effect["match"]
    with pytest.raises(RulesetError, match=word):
        parse_catalog(bad, "toy.toml")


def consenting() -> dict[str, Any]:
    n = night()
    n["skills"][3]["effects"][0]["consent"] = {"question": "{target}是否同意{actor}的拜访", "refused": "拜访：{target}不同意"}
    return n


@pytest.mark.parametrize("choice", ["同意", "拜访：好的", "愿意。"])
def test_consent_in_the_choice_gives_the_answer(choice: str) -> None:
    res = settle(parse_catalog(consenting(), "toy.toml"), table(), [Action("P4", "拜访", ("P5",), choice=choice)])
    assert told(res, "P4") == told(res, "P5") == ["拜访：你们之间是"] and res.questions == []


@pytest.mark.parametrize("choice", ["不同意", "拒绝", "否"])
def test_a_refusal_tells_the_actor_only_that(choice: str) -> None:
    res = settle(parse_catalog(consenting(), "toy.toml"), table(), [Action("P4", "拜访", ("P5",), choice=choice)])
    assert told(res, "P4") == ["拜访：P5不同意"] and told(res, "P5") == []
    assert "(4) 拜访：P5不同意" in res.log


def test_without_a_word_the_director_is_asked() -> None:
    cat = parse_catalog(consenting(), "toy.toml")
    res = settle(cat, table(), [Action("P4", "拜访", ("P5",))], decisions={"拜访.同意.P5": "不同意"})
    assert told(res, "P4") == ["拜访：P5不同意"]
    q = res.questions[0]
    assert (q.key, q.question, q.options, q.by) == ("拜访.同意.P5", "P5是否同意P4的拜访", ("同意", "不同意"), "director")
    res = settle(cat, table(), [Action("P4", "拜访", ("P5",))], decisions={"拜访.同意.P5": "同意"})
    assert told(res, "P4") == ["拜访：你们之间是"]


def plotting() -> dict[str, Any]:
    """A toy 密谋: naming every living 狼人 declares the 村民's win; a 醉酒 plotter is only told he failed."""
    n = night()
    n["skills"].append({"name": "密谋", "roles": ["阴谋家"], "min_targets": 1, "max_targets": 2,
                        "voided_by": ["醉酒"], "voided_told": "密谋失败",
                        "effects": [{"kind": "learn", "ask": "all", "match": {"of": "faction", "values": ["狼人"]},
                                     "yes": "", "no": "密谋失败", "text": "{answer}", "declare": "密谋成功",
                                     "log": "{step} {actor}选中{targets}，未选中：{missed}"}]})
    n["steps"].append({"n": "5", "skills": ["密谋"]})
    return n


def plot_rules(tmp: Path) -> Ruleset:
    """werewolf-12's day rules with the toy's roles and one [[win]]: the 村民 win when 密谋成功 is declared."""
    raw = dict(load_ruleset("werewolf-12").raw)
    raw.update(id="learn-toy", players=8, factions=[{"name": "村民", "size": 7}, {"name": "狼人", "size": 1}],
               roles=[{"name": r, "faction": "村民"} for r in ("审讯者", "守卫", "旅人", "访客", "村民", "阴谋家")]
               + [{"name": "狼", "faction": "狼人", "count": 2}],
               win=[{"id": "村民.密谋", "faction": "村民", "text": "密谋成功", "clause": "密谋",
                    "when": {"declared": "密谋成功"}}],
               win_policy={"priority": ["村民", "狼人"], "checks_at": ["密谋"], "stops": True, "clause": "密谋"})
    return parse_ruleset(raw, tmp / "toy.toml")


def plot_table(**status: list[str]) -> Table:
    t = table(**status)
    t.players["P7"] = Seat("P7", "阴谋家", "村民", status=list(status.get("P7", [])))
    t.players["P8"] = Seat("P8", "狼", "狼人")
    return t


def test_all_asks_whether_every_living_match_was_chosen_and_declares_on_yes(tmp_path: Path) -> None:
    cat = parse_catalog(plotting(), "toy.toml")
    missed = settle(cat, plot_table(), [Action("P7", "密谋", ("P5", "P6"))], ruleset=plot_rules(tmp_path))
    assert told(missed, "P7") == ["密谋失败"] and missed.outcome is None
    assert "(5) P7选中P5、P6，未选中：P8" in missed.log
    won = settle(cat, plot_table(), [Action("P7", "密谋", ("P5", "P8"))], ruleset=plot_rules(tmp_path))
    assert told(won, "P7") == []  # an empty word: nothing is told
    assert won.outcome is not None and won.outcome.winner == "村民"
    gone = plot_table()
    gone.players["P8"].alive = False  # only the living are asked for
    assert settle(cat, gone, [Action("P7", "密谋", ("P5",))], ruleset=plot_rules(tmp_path)).outcome is not None


def test_voided_told_answers_a_voided_use_and_settles_nothing(tmp_path: Path) -> None:
    cat = parse_catalog(plotting(), "toy.toml")
    res = settle(cat, plot_table(P7=["醉酒"]), [Action("P7", "密谋", ("P5", "P8"))], ruleset=plot_rules(tmp_path))
    assert told(res, "P7") == ["密谋失败"] and res.outcome is None
    assert "(5) P7<密谋>：P7醉酒，技能无效" in res.log
