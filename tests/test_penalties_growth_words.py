"""Three posts the growth corpus's run let through (issue 21): an insult (菜鸡), an offer of contact
outside the game (加我Q 12345678) and an advert (私信我送限定皮肤). Each is flagged where the game's
ruleset forbids it, citing that ruleset's own clause, and nowhere else; the phrases are matched on
jieba's words, so the same characters inside other words (韭菜鸡蛋) are no hit.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tracker.clock import SHANGHAI
from tracker.engine.ruleset import load_ruleset
from tracker.penalties.detect import DetectContext, detect_posts
from tracker.records import Post

PLAYERS = ("泡泡", "栗子", "包子")
AT = datetime(2025, 4, 12, 13, 0, tzinfo=SHANGHAI)


def flags_of(ruleset: str, text: str) -> dict[str, str]:
    """category → the clause the flag cites, for one post under ``ruleset``."""
    post = Post(pid=1, tid=14, floor=2, author="泡泡", uid=None, posted_at=AT, html=text, text=text)
    found = detect_posts([post], context=DetectContext(players=PLAYERS, ruleset=load_ruleset(ruleset),
                                                       detectors=frozenset({"phrases"})))
    return {f.category: f.clause for f in found}


ALL = ("dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65")

# (ruleset, the clause its post forbids it under, as the ruleset cites it)
INSULT = {"dnf-107": "侮辱性词汇", "sanguo-213": "侮辱性词汇", "luoluo-m19": "侮辱性词汇",
          "gourmet-m160": "侮辱性词汇", "accel-m65": "人身攻击"}
CONTACT = {"dnf-107": "向他人提供游戏剧情", "sanguo-213": "场外提供游戏剧情", "luoluo-m19": "场外提供游戏剧情",
           "gourmet-m160": "向他人提供游戏剧情", "accel-m65": "与场外助理以外的玩家、观众私下交流"}
ADVERT = {"sanguo-213": "大量无意义的水帖", "luoluo-m19": "大量无意义水帖", "accel-m65": "毫无意义的水帖"}


@pytest.mark.parametrize("ruleset", ALL)
def test_an_insult_is_flagged_under_each_rulesets_clause(ruleset: str) -> None:
    found = flags_of(ruleset, "你就是个菜鸡，别带节奏了")
    assert INSULT[ruleset] in found["insult"], found


@pytest.mark.parametrize("ruleset", ALL)
def test_contact_outside_the_game_is_flagged_under_each_rulesets_clause(ruleset: str) -> None:
    for text in ("有事加我Q 12345678", "私下说不方便，QQ：87654321"):
        found = flags_of(ruleset, text)
        assert CONTACT[ruleset] in found.get("contact", ""), (text, found)


@pytest.mark.parametrize("ruleset", ALL)
def test_an_advert_is_flagged_only_where_the_post_forbids_it(ruleset: str) -> None:
    found = flags_of(ruleset, "私信我送限定皮肤，先到先得")
    if ruleset in ADVERT:
        assert ADVERT[ruleset] in found["advert"], found
    else:  # 107 and M160 forbid no 水帖: the advert's offer of private contact is what they flag
        assert "advert" not in found
    assert CONTACT[ruleset] in found["contact"]


@pytest.mark.parametrize("text", [
    "今天早饭吃的韭菜鸡蛋饺子",
    "这个技能可以Q一下再放",
    "我私信导演问了规则",  # the director may be asked in private ("可以随时通过QQ私聊导演询问规则")
    "皮肤病好了没",
])
def test_the_same_characters_in_other_words_are_no_hit(text: str) -> None:
    for ruleset in ALL:
        found = flags_of(ruleset, text)
        assert not ({"insult", "contact", "advert"} & set(found)), (ruleset, text, found)


def test_a_report_of_private_contact_is_the_cheat_lists_alone() -> None:
    """"有人私聊我说…" tells of contact (作弊, the cheat list); the contact list is for offers of it."""
    found = flags_of("sanguo-213", "昨晚有人私聊我说他是预言家")
    assert "cheat" in found and "contact" not in found
    assert "contact" in flags_of("sanguo-213", "有事私聊我")
