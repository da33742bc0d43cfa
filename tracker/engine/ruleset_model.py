"""The ruleset file format, once: a pydantic model of every key a day ruleset and its night file take.

One model, three readers. :mod:`tracker.engine.ruleset_reader` and :mod:`tracker.engine.night.catalog`
validate files with it (strict types, bounds, no unknown key) and turn what passes into the frozen
dataclasses the engine reads; ``scripts/ruleset_docs.py`` writes ``ruleset.schema.json`` and
``docs/ruleset.md`` from it, and a test holds both equal to what it would write, so the format, its
schema and its documentation cannot drift apart. A key's ``description`` is its documentation;
``examples`` is what an error suggests writing; ``switches_on`` marks a default that turns a rule on
when the key is left out (``tracker ruleset check`` warns about each one).

Cross-references (a role's faction is declared, a win rule names known roles, the counts add up to
``players``) are not the format's business: the reader checks them after the model.
"""

import difflib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_MAX_INT = 1_000_000
Count = Annotated[int, Field(ge=0, le=_MAX_INT)]
Positive = Annotated[int, Field(ge=1, le=_MAX_INT)]
Name = Annotated[str, Field(min_length=1)]
Clock = Annotated[str, Field(pattern=r"^([01]?[0-9]|2[0-3]):[0-5][0-9]$")]


def _f(description: str, *, examples: list[Any] | None = None, switches_on: str = "", off: str = "",
       **kw: Any) -> Any:
    """A documented field: ``switches_on`` says which rule the default turns on when the key is left out;
    ``off``, where the key's type has no obvious one, the value that writes the rule off."""
    extra: dict[str, Any] = {}
    if switches_on:
        extra["switches_on"] = switches_on
    if off:
        extra["off"] = off
    return Field(description=description, examples=examples, json_schema_extra=extra or None, **kw)


class _Table(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# -- the day ruleset ----------------------------------------------------------------------------


class FactionT(_Table):
    """`[[factions]]` — one 阵营."""

    name: Name = _f("the faction's name as the post writes it; roles, win rules and the game file name it",
                    examples=["狼人"])
    aliases: list[str] = _f("other names the post uses for it (狼人阵营); accepted wherever the name is",
                            default=[], examples=[["狼人阵营"]])
    size: Count | None = _f("its fixed size, where the post gives one (M160: 善良 10, 邪恶 4)", default=None)
    description: str = _f("what the post says of it, for the director", default="")


class CoupleT(_Table):
    """`[roles.couple]` — a role whose side depends on a couple (M19 变异丘比特): it has no faction
    until the couple is recorded (the fold leaves it unset and waits with the win check, `tracker
    init` writes none); the role's `faction` is the one it joins when the couple's sides differ."""

    tag: Name = _f("the tag both members of the couple hold, alone or with their part in the pair after a "
                   "colon (情侣:攻, 情侣:受)", examples=["情侣"])
    sets: list[list[str]] = _f("when both holders' roles are in one of these sets, this role counts as that "
                               "set's roles in win checks", examples=[[["村民"], ["公狼", "老狼", "幼狼"]]])


class RoleT(_Table):
    """`[[roles]]` — one identity (身份); `count` is exact unless `max_count` gives a range."""

    name: Name = _f("the role's name as the post writes it", examples=["预言家"])
    faction: Name = _f("its faction: a `[[factions]]` name or alias", examples=["村民"])
    count: Count = _f("how many players have it", default=1)
    max_count: Count | None = _f("the upper bound where the post gives a range (then `count` is the lower)",
                                 default=None)
    counts: list[Count] = _f("the only counts the post allows, when not a range (M160 双生暗影: [0, 2])",
                             default=[], examples=[[0, 2]])
    group: str | None = _f("its group (M160: 村民 / 外来者 / 爪牙 / 恶魔), for `[[role_groups]]` and win sets",
                           default=None)
    tags: list[str] = _f("marks the role carries from the start (`can_vote`, 群内)", default=[])
    description: str = _f("what the post says of it", default="")
    also_factions: list[str] = _f("factions it also counts in for win checks (107 夜行怪)", default=[])
    immune_to: list[str] = _f("vote modifiers that do not take on it (M65 绿王 <绝对防御>)", default=[])
    couple: CoupleT | None = _f("see `[roles.couple]`", default=None)


class RoleGroupT(_Table):
    """`[[role_groups]]` — how many players a group's roles may have together."""

    name: Name = _f("a `group` of `[[roles]]`, or a name for the roles listed in `roles`", examples=["恶魔"])
    min: Count = _f("the fewest players its roles may have together", default=0)
    max: Count = _f("the most players its roles may have together", default=99)
    roles: list[str] = _f("its members when they are not the roles whose `group` is the name", default=[])
    kinds_max: Count | None = _f("how many different roles of it may be dealt (M160 恶魔 4选1)", default=None)


class WeightT(_Table):
    """`[[voting.weights]]` — a voter's weight, by tag or by role (exactly one of the two)."""

    weight: Annotated[float, Field(ge=0)] = _f("what one ballot of such a voter counts", examples=[1.5])
    tag: str | None = _f("the tag that gives the weight (警长)", default=None, examples=["警长"])
    role: str | None = _f("the role that gives the weight", default=None)
    hidden: bool = _f("counted but not announced", default=False)
    clause: str = _f("the post's sentence", default="")

    @model_validator(mode="after")
    def _one_of(self) -> "WeightT":
        if (self.tag is None) == (self.role is None):
            raise ValueError("要写 tag 或 role 之一")
        return self


class PerDeadBonusT(_Table):
    """`[voting.per_dead_bonus]` — 107: 恶徒首领's vote counts one more for each 恶徒 already out."""

    tag: Name = _f("the tag whose holder gains the bonus", examples=["恶徒首领"])
    per_role: Name = _f("the role whose players out each add `bonus`", examples=["恶徒"])
    bonus: float = _f("what each such player out adds", default=1.0)
    clause: str = _f("the post's sentence", default="")


Tie = Literal["nobody", "first_to_top"]


class ElectionT(_Table):
    """`[[voting.day1]]` — one vote of day 1 (警长, 牧首, 神眷者 … or the day's exile)."""

    purpose: Name = _f("what the vote decides: `sheriff`, `patriarch`, `god_chosen` or `exile`",
                       examples=["sheriff"])
    tag: str | None = _f("the tag the winner gets (警长)", default=None)
    tie: Tie = _f("a tie: `nobody` wins, or the first to reach the top count", default="nobody")
    thread: Count = _f("which of the day's vote threads (0 = the first) holds this vote", default=0)
    all_may_vote: bool = _f("everyone votes here, even players with no 票权 later (107 神眷者)", default=True)
    nobody_out_if_top: str | None = _f("a role that, top-voted, means nobody is out (M65 预知者)", default=None)
    clause: str = _f("the post's sentence", default="")
    keyword: Name | None = _f(
        "the ballot's own label (werewolf-12 \"在投票帖以“警长投票：X”投票\"): this election shares its thread with "
        "the day's exile, and only posts with the label are its ballots (leave out: the ordinary 投票对象, the "
        "thread is the election's)", default=None, examples=["警长投票"])
    opens: Clock | None = _f("its own opening that day, `HH:MM` (leave out: the day's)", default=None,
                             examples=["16:00"])
    closes: Clock | None = _f("its own close that day, `HH:MM` (leave out: the day's)", default=None,
                              examples=["18:00"])
    freeze_minutes: Annotated[int, Field(ge=0, le=24 * 60)] | None = _f(
        "its own change freeze before its close (leave out: `voting.freeze_minutes`)", default=None)
    signup_word: Name | None = _f(
        "candidates sign up by a post in the day's discussion thread whose first line starts with this word "
        "(werewolf-12 上警); leave out: no candidates, anyone may be voted for", default=None, examples=["上警"])
    withdraw_word: Name | None = _f("the word that withdraws a candidate (退水)", default=None, examples=["退水"])
    signup_closes: Clock | None = _f("signing up and withdrawing end at this time that day, `HH:MM` "
                                     "(leave out: when the election opens)", default=None, examples=["12:00"])
    candidates_may_vote: bool = _f("candidates (withdrawn ones included) may vote in it "
                                   "(werewolf-12 上警（含已退水者）不得投票: false)", default=True)
    no_office_if_all_or_none: bool = _f("nobody or everyone signed up: nobody gets the office "
                                        "(全员上警或无人上警 → 警徽流失)", default=False)


ModifierEffect = Literal["received_add", "received_multiply", "void_voter", "toggle_vote_right",
                         "announced_add", "voter_add"]


class ModifierT(_Table):
    """`[[voting.modifiers]]` — a vote modifier the director records with a `modifier` event."""

    name: Name = _f("the skill's name, as the event names it", examples=["深青之桩"])
    effect: ModifierEffect = _f("`received_add` (votes on the target ±value), `received_multiply`, "
                                "`void_voter` (the target's ballot is void), `toggle_vote_right`, "
                                "`announced_add` (announced, not counted), `voter_add`", default="received_add")
    value: float = _f("the amount added or the factor", default=0.0)
    public: bool = _f("announced with the count; otherwise hidden", default=False)
    duration: Literal["day", "game"] = _f("for the day recorded, or for the rest of the game", default="day")
    clause: str = _f("the post's sentence", default="")
    once_per_player: bool = _f("each player may be chosen only once (M65 每名玩家仅可以被选择一次)",
                               default=False)


class VotingT(_Table):
    """`[voting]` — how the day's vote is counted (投票对象, 改票, 代投, 平票)."""

    change_limit: Count | None = _f("改票 allowed per day (leave out: no limit)", default=None, examples=[1])
    freeze_minutes: Annotated[int, Field(ge=0, le=24 * 60)] = _f(
        "no 改票 in the last N minutes before the close (0: none)", default=0, examples=[60])
    freeze_blocks_proxy: bool = _f("the freeze also stops 代投", default=False)
    proxy_deadline_minutes: Count = _f("a 代投 must come N minutes before the close (0: any time)", default=0)
    accelerated_changes: Literal["allowed", "forbidden", "void_all"] = _f(
        "改票 on an accelerated (加速) day: allowed, forbidden, or every change void", default="allowed")
    tie: Tie = _f("a tied top: `nobody` is out, or the first to reach the top count", default="nobody")
    threshold: Literal["none", "half_living"] = _f("the votes needed to be out: none, or half the living",
                                                   default="none")
    weights: list[WeightT] = _f("see `[[voting.weights]]`", default=[])
    eligible_voter_roles: list[str] | None = _f(
        "only these roles have 票权 (leave out: every living player votes)", default=None)
    eligible_voter_tags: list[str] = _f("tags that also give 票权 (107 `can_vote`)", default=[])
    eligible_voter_factions: list[str] = _f("factions whose players also have 票权", default=[])
    per_dead_bonus: PerDeadBonusT | None = _f("see `[voting.per_dead_bonus]`", default=None)
    day1: list[ElectionT] = _f("see `[[voting.day1]]`", default=[])
    dead_last_vote: bool = _f("M160: a dead player keeps one last vote, then is out", default=False)
    noon_exception: bool = _f("one 改票 is allowed even inside the freeze (213's 正午)", default=False)
    noon_exception_accelerated: bool = _f("the noon exception also holds on an accelerated day", default=False)
    modifiers: list[ModifierT] = _f("see `[[voting.modifiers]]`", default=[])
    exile_needs_unique_top: bool = _f("only a single top-voted player is out; not read yet: `tie` decides a "
                                      "shared top", default=True)
    public_votes: bool = _f("ballots are public (M160 公开投票); not read yet",
                            default=False)
    edits_allowed: bool | None = _f(
        "an edited ballot: true = an edit keeping the target counts (M19 修改错别字不算做改票), false = no edit "
        "counts (the ballot as first recorded does); leave out when the post says nothing (the forum's text "
        "counts, flagged for the director)", default=None)
    proxy_window: Literal["freeze", "thirty_minutes"] = _f(
        "M65: `freeze` bars every 代投 in the last hour; `thirty_minutes` lets a first 代投 come until 30 "
        "minutes before", default="freeze")
    received_add_needs_votes: bool = _f("a hidden ± (received_add) applies only to a player with a vote",
                                        default=False)
    reason_required: bool = _f("a ballot needs its 投票理由 line (the seed posts); werewolf-12 "
                               "\"投票格式必须严格为一行：投票对象：X\": false", default=True)
    change_rule: Literal["quote_own", "latest_valid"] = _f(
        "what replaces a ballot: `quote_own`, a 改票 quoting one's own vote floor (the seed posts); "
        "`latest_valid`, the player's last valid ballot counts, nothing quoted (werewolf-12)", default="quote_own")
    abstain_words: Annotated[list[Name], Field(min_length=1)] = _f(
        "the words that abstain (投票对象：弃权); werewolf-12: [\"弃票\"]. The first is the word the tally, "
        "its 公示 and the TUI print for an abstention", default=["弃权"])
    freeze_blocks_first_votes: bool = _f("every vote post in the freeze is invalid, first votes too "
                                         "(werewolf-12 21:00 及之后的投票帖……一律无效)", default=False)
    no_vote_abstains: bool = _f("a player with no valid ballot abstains (21:00 之前从未有效投票者，视为弃票); "
                                "still 未投票 for 潜水", default=False)
    edits_as_new_ballot: bool = _f(
        "an edited ballot counts at its edit time, and one edited in the freeze is invalid (编辑帖以最后编辑时间"
        "为准，21:00 前编辑视为新帖); not together with `edits_allowed`", default=False)


class LurkT(_Table):
    """`[lurk]` — 潜水: posts a living player must make."""

    min_posts: Count | None = _f("posts each day below which a player lurks (leave out: no daily minimum)",
                                 default=None, examples=[5])
    three_day_min: Count | None = _f(
        "posts on each of `three_day_span` days below which a player lurks (leave out: no such rule)",
        default=None, examples=[10])
    three_day_span: Positive = _f("the days `three_day_min` counts over", default=3)
    no_vote_penalty: bool = _f("a living player with 票权 who casts no ballot is carded", default=False)
    dead_not_out_exempt_from_vote: bool = _f("M160: a dead player not yet out need not vote", default=False)
    kidnapped_exempt_from_min_posts: bool = _f("a 绑架 player need not reach `min_posts`", default=False)
    accelerated_suspends: bool = _f("an accelerated day has no 潜水 count", default=True)
    card: Literal["blue", "yellow", "red"] = _f("the card a lurker gets", default="yellow")
    clause_min_posts: str = _f("the post's sentence for `min_posts`", default="")
    clause_three_day: str = _f("the post's sentence for `three_day_min`", default="")
    clause_no_vote: str = _f("the post's sentence for `no_vote_penalty`", default="")
    content_free: bool = _f("posts saying nothing (顶, 路过, +1 …, only punctuation, emoji or a smiley) are not "
                            "counted; the word list is `CONTENT_FREE_WORDS` in ruleset_schema.py "
                            "(werewolf-12 纯表情/纯标点/“顶”“路过”之类无实质内容的帖不算)", default=False)
    content_free_words: Annotated[list[Name], Field(min_length=1)] | None = _f(
        "the words a post saying nothing is made of, replacing the built-in list (implies `content_free`)",
        default=None, examples=[["顶", "路过"]])


class CardsT(_Table):
    """`[cards]` — 判罚: the 蓝牌 / 黄牌 / 红牌 ladder."""

    blue_to_yellow: Positive = _f("蓝牌 that make a 黄牌", default=3, switches_on="3 蓝牌 = 1 黄牌")
    yellow_to_red: Positive = _f("黄牌 that make a 红牌", default=3, switches_on="3 黄牌 = 1 红牌")
    red_consequence: Literal["benched", "out"] = _f("a 红牌's player is benched (挂机) or out (出局)",
                                                    default="benched")
    red_turns_role: str | None = _f("a 红牌's player becomes this role (M160 丑角)", default=None)
    faction_loses_at_reds: Count | None = _f(
        "a faction with this many 红牌 loses (213, M19: 2): read as a `[[win]]` lose rule `red_cards_at_least` "
        "for every faction without its own", default=None)
    red_settled: Literal["before_vote", "after_vote"] = _f("a 红牌 given during a day takes effect before "
                                                           "or after that day's vote", default="before_vote")
    out_players_carded: bool = _f("players already out can still be carded; not read yet: `card issue` cards "
                                  "anyone", default=True)
    clause: str = _f("the post's sentence", default="")


class DaysT(_Table):
    """`[days]` — day lengths, 加速 and 延时."""

    length_days: Positive = _f("calendar days a game day lasts", default=2, switches_on="一个游戏日为 2 天")
    weekend_extension: Count = _f("days added when a day spans a weekend", default=1,
                                  switches_on="跨周末的游戏日延长 1 天")
    first_day_extended: bool = _f("day 1 is one day longer", default=True, switches_on="第一日延长 1 天")
    first_day_accelerated: bool = _f("day 1 is accelerated", default=False)
    auto_accelerate_at_living: Count | None = _f("days are accelerated once this few players live (213: 16)",
                                                 default=None)
    request_threshold: Literal["half_living", "more_than_half_living"] = _f(
        "requests (加速 / 延时) needed: half the living, or more than half", default="half_living")
    request_cutoff_hours: Annotated[float, Field(ge=0, le=240)] = _f(
        "requests close this many hours before the close", default=3.0)
    requests: list[Literal["accelerate", "delay"]] = _f(
        "what players may request", default=["accelerate", "delay"],
        switches_on="玩家可以申请加速和延时")
    close_time: Annotated[str, Field(pattern=r"^([01]?\d|2[0-3]):[0-5]\d$")] = _f(
        "the day's close, HH:MM in the game's zone", default="22:00", examples=["22:00"])
    clause: str = _f("the post's sentence", default="")


class PublicationT(_Table):
    """`[publication]` — what the director publishes and in which order (公示, 电梯楼)."""

    elevator: Literal["author", "posts"] = _f("电梯楼 links each player's 只看该作者 view, or every post",
                                              default="author")
    elevator_shuffle: bool = _f("the 电梯楼 lists players in a random order", default=False)
    out_order: Literal["settlement", "elevator", "chronological"] = _f(
        "how an 出局 list is sorted: settlement order, 电梯 order, or the order players went out",
        default="chronological")
    titles: list[str] = _f("tags announced at each day's start (警长, 牧首)", default=[])
    clause: str = _f("the post's sentence", default="")
    last_words: bool = _f("the 公示 has a 遗言 line (M160 本局游戏没有遗言: false)", default=True)


class PlayerSetT(_Table):
    """A player set in a condition: players matching every given filter (at least one)."""

    factions: list[str] = _f("by faction", default=[])
    roles: list[str] = _f("by role", default=[])
    tags: list[str] = _f("by tag", default=[])
    groups: list[str] = _f("by role group", default=[])

    @model_validator(mode="after")
    def _some(self) -> "PlayerSetT":
        if not (self.factions or self.roles or self.tags or self.groups):
            raise ValueError("至少要写 factions / roles / tags / groups 之一")
        return self


Sets = PlayerSetT | list[PlayerSetT]


class ShareT(_Table):
    of: Sets = _f("the players counted", examples=[[{"factions": ["狼人"]}]])
    fraction: Annotated[float, Field(ge=0, le=1)] = _f("the share of the living they reach", default=0.5)


class EachAtMostT(_Table):
    of: Sets = _f("the players counted", examples=[[{"roles": ["村民"]}]])
    n: Positive = _f("at most this many of each alive", default=1)


class LivingAtMostT(_Table):
    n: Count = _f("at most this many players alive", examples=[7])
    plus: Count = _f("`n` grows by this for each successful recorded action `per_action`", default=0)
    per_action: str = _f("the recorded action that grows `n` (107 夜之牙)", default="")


class TagHolderT(_Table):
    tag: Name = _f("the tag", examples=["亡灵圣物认主"])
    of: Sets = _f("the players its holder must be among", examples=[[{"factions": ["圣殿"]}]])


class ConditionT(_Table):
    """A `when` condition: a table with exactly one of these keys."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True,
                              json_schema_extra={"minProperties": 1, "maxProperties": 1})
    all_out: Sets | None = _f("every player of the sets is out (and there is at least one: "
                              "\"全部出局\" of nobody is not said)", default=None)
    any_out: Sets | None = _f("some player of the sets is out", default=None)
    none_alive: Sets | None = _f("no player of the sets is alive", default=None)
    share_of_living_at_least: ShareT | None = _f("`of` are at least `fraction` of the living", default=None)
    each_alive_at_most: EachAtMostT | None = _f("at most `n` alive of each set in `of`", default=None)
    living_at_most: Count | LivingAtMostT | None = _f("at most N players alive (or `{ n, plus, per_action }`)",
                                                      default=None)
    tag_holder_in: TagHolderT | None = _f("the holder of `tag` is among `of`", default=None)
    declared: Name | None = _f("the director declared this named condition true (a `declared` event)",
                               default=None)
    hook: Name | None = _f("a Python condition of the ruleset's `hooks`", default=None)
    red_cards_at_least: Positive | None = _f(
        "the rule's own faction holds at least N red cards (同一阵营的角色累计获得两张或以上红牌时，阵营判负); "
        "`[cards] faction_loses_at_reds` adds such a lose rule for every faction", default=None)
    all: list["ConditionT"] | None = _f("every condition of the list holds", default=None, min_length=1)
    any: list["ConditionT"] | None = _f("some condition of the list holds", default=None, min_length=1)

    @model_validator(mode="after")
    def _exactly_one(self) -> "ConditionT":
        if len(self.model_fields_set) != 1:
            raise ValueError("条件应是只有一个键的表")
        return self


class WinT(_Table):
    """`[[win]]` — one win or loss condition."""

    id: str | None = _f("a unique id for `win_policy.priority` (default: `faction.N`)", default=None)
    faction: Name = _f("the faction it is for", examples=["狼人"])
    result: Literal["win", "lose"] = _f("the faction wins or loses when it holds", default="win")
    when: ConditionT = _f("the condition", examples=[{"all_out": [{"factions": ["狼人"]}]}])
    clause: str = _f("the post's sentence", examples=["胜负判定·狼人阵营·胜1"])
    text: str = _f("what the announcement says", default="")
    only_if: dict[str, Any] = _f("holds only when these `[[options]]` have these values", default={})


class WinPolicyT(_Table):
    """`[win_policy]` — how the post resolves several results at once."""

    priority: list[str] = _f("win ids or factions, first wins when several hold", default=[])
    last_standing_wins: bool = _f("the only faction not yet lost wins (场上仅有一个阵营尚未被判负); a faction "
                                  "nobody belongs to does not count as standing",
                                  default=True, switches_on="只剩一个阵营未被判负时该阵营获胜")
    co_win: list[str] = _f("factions that may win alongside another (107 中立)", default=[])
    check: Literal["every_event", "same_time"] = _f(
        "check after every event, or once for events of the same moment", default="same_time")
    surrender: list[str] = _f("factions that may 投降", default=[])
    clause: str = _f("the post's sentence", default="")
    checks_at: list[str] = _f(
        "the points of a night's (or day phase's) settlement where the win check runs: `start`, `death` (after "
        "each death and what it sets off), `end`, or a step of the post's order as the settlement names it "
        "(107's `(17)`)", default=["end"])
    stops: bool = _f("a win reached at such a point ends the settlement at once", default=False)
    losses_at: list[str] = _f(
        "points (as in `checks_at`) where only losses are judged, wins waiting for a `checks_at` point "
        "(M65: 该阵营优先判负 at every death; the wins of one phase are 同时 and judged at its end)", default=[])
    last_standing_clause: str = _f("the post's sentence quoted with a `last_standing_wins` win (default: `clause`)",
                                   default="")


class SpeechT(_Table):
    """`[speech]` — what a 绑架 (kidnapped) player may say."""

    kidnap_allowed_words: list[str] = _f("the words a kidnapped player may post", default=[])
    kidnap_smilies_allowed: bool = _f("a kidnapped player may post smilies; not read yet: the 绑架 check "
                                      "never counts a smiley as speech", default=True)
    clause: str = _f("the post's sentence", default="")


class LastWordsT(_Table):
    """`[last_words]` — 遗言 a player out posts in the game's threads themselves (werewolf-12 三、1
    "死者如有遗言可在讨论帖发一帖遗言"): those posts are not 诈尸 (三、2 "死者（遗言除外）……不得发言") and
    not counted for 潜水 ("遗言帖不算"). Leave the table out: no exit gives one, every post of a player
    out is flagged — the five seed posts, whose 遗言 are sent to the director and published in the 公示.
    An exit is named from the event log: `vote` (the day's vote, cause `vote`), `red_card` (a red
    card's 出局), `night` (settled in a night phase `night:N`, or recorded with cause `night` and
    `night = N`; without a number no night is known and none is given), `skill` (anything else)."""

    exits: list[Literal["vote", "red_card", "night", "skill"]] = _f(
        "the exits that give 遗言 (werewolf-12: 第1夜死者 night, 白天被放逐者 vote, 红牌 …有遗言 red_card); "
        "empty: none does, every post of a player out is 诈尸",
        default=[], examples=[["night", "vote", "red_card"]])
    nights: list[Positive] = _f("for a `night` exit, the nights that give 遗言 (werewolf-12 第1夜死者有遗言，之后夜晚"
                             "死亡无遗言: [1]); empty: every night", default=[], examples=[[1]])
    posts: Positive = _f("how many posts the 遗言 may take (werewolf-12 发一帖遗言: 1); later ones are 诈尸", default=1)
    thread: Literal["discussion", "process"] = _f(
        "the thread it is posted in (werewolf-12 可在讨论帖: `discussion`); a post in any other game thread is 诈尸",
        default="discussion")
    none_for: list[Name] = _f("causes (skill names in the night file) whose exit never gives 遗言, whatever "
                              "its kind (werewolf-12 开枪带走的人立即出局，无遗言: [\"开枪\"])", default=[],
                              examples=[["开枪"]])
    clause: str = _f("the post's sentence", default="")


class TagT(_Table):
    """`[[tags]]` — a title (警长, 牧首, 神眷者) and what happens to it when its holder goes."""

    name: Name = _f("the title", examples=["警长"])
    transfer: str | None = _f("how its holder picks a successor (殉职 / 殉道 / 传承)", default=None)
    on_red: Literal["pass", "random", "lost"] = _f("its holder red-carded: passed on, to a random player, or "
                                                   "lost", default="pass")
    unique: bool = _f("one holder at a time (情侣 has two)", default=True)
    clause: str = _f("the post's sentence", default="")
    vanishes_for: list[str] = _f("roles that cannot hold it: given to one, it is gone (107 神启者)", default=[])


class ForbiddenT(_Table):
    """`[[forbidden]]` — one section of the post's 判罚依据 and its numbered items."""

    section: Count = _f("the section's number (1、发言 …)", examples=[1])
    name: Name = _f("the section's name", examples=["发言"])
    items: list[str] = _f("its numbered items, in order", default=[])
    lexicons: dict[str, Positive] = _f(
        "forbidden-phrase lists (tracker/penalties/lexicons) that flag an item: list name → item number; "
        "a ruleset that maps any list uses only the lists it maps", default={}, examples=[{"emotion": 1}])


DetectorKind = Literal["red_text", "large_font", "keyword", "posted_while_out", "posted_while_benched",
                       "chat_log_evidence", "kidnapped_speech", "spam"]


class DetectorT(_Table):
    """`[[detectors]]` — a post detector the game uses, the clause its flags cite and the card it suggests.
    A ruleset that lists any uses only those (werewolf-12: 红字 but no 放大字体 rule); none listed: all."""

    kind: DetectorKind = _f("what it finds (the flag kinds of `tracker flags`)", examples=["red_text"])
    clause: Name = _f("the post's sentence its flags cite", examples=["三、5 红字规则"])
    card: Literal["blue", "yellow", "red", "none"] | None = _f(
        "the card it suggests (werewolf-12 每发现一帖使用红字，该玩家得 1 张黄牌: yellow); `none`: the post names "
        "no card for it (werewolf-12 死者（遗言除外）、旁观者不得发言) — flag only, the director chooses the colour "
        "(`card from-flag` needs `--color`); leave out: a 蓝牌 for a first offence under the clause, a 黄牌 for a "
        "repeat", default=None,
        switches_on="建议首次违规蓝牌、再犯黄牌（规则帖写了牌就写明 card；没写就写 card = \"none\"，只标记）",
        off='"none"')
    categories: list[Name] = _f("for `keyword`: the forbidden-phrase lists it uses (`oath` …; leave out: all)",
                                default=[], examples=[["oath"]])


class OptionT(_Table):
    """`[[options]]` — room the rule post leaves to the director (`[options]` in the game file)."""

    key: Name = _f("the option's name in the game file's `[options]`", examples=["village_gods"])
    default: Any = _f("the common reading")
    choices: list[Any] = _f("the values allowed", default=[])
    description: str = _f("what each choice means", default="")
    clause: str = _f("the post's sentence that leaves room", default="")
    path: str | None = _f("the dotted key the option sets (`voting.tie`); leave out when rules read the "
                          "option by name (`only_if`)", default=None)


# -- the night file -------------------------------------------------------------------------------

Phase = Literal["night", "day", "晨曦", "正午", "黄昏", "关门", "setup", "passive", "any"]
Kind = Literal["强制", "限定", "普通", "团队", "被动", "触发", "翻牌", "锁定"]


EffectKind = Literal["damage", "kill", "protect", "cover", "block", "inspect", "convert", "mark", "status", "lose",
                     "redirect", "vote", "learn", "watch", "tell", "message", "announce", "ready", "bench", "choose", "extra", "concede",
                     "count", "gain", "send_off", "counter", "give_uses", "note", "last_night"]
#: The keys each effect kind reads (besides `kind` and `clause`).
EFFECT_KEYS: dict[str, frozenset[str]] = {
    "damage": frozenset({"strength", "cause", "log", "flips_instead", "reason", "one_victim", "empty"}), "kill": frozenset({"cause", "log", "life"}),
    "protect": frozenset({"strength", "stops", "only_if_hit_by", "log", "standing", "from_factions", "status", "once",
                          "delays", "when", "text", "reason", "state", "top_at_least", "no_repeat", "flips_instead"}),
    "cover": frozenset({"reason", "log", "stands_in"}),
    "block": frozenset({"voids", "kinds", "spends", "refuses", "log", "spares", "spares_kinds", "spares_passive",
                        "pending"}),
    "inspect": frozenset({"answer", "words", "otherwise", "text", "seen", "log", "exits", "empty", "holder_of",
                          "players_of"}),
    "tell": frozenset({"text", "together", "log", "pending", "until", "empty"}),
    "convert": frozenset({"role", "faction", "flip", "strip", "new_uses", "text", "copies", "unknowing", "cause", "log",
                          "believed", "group"}),
    "mark": frozenset({"tag", "tags", "choices", "act", "text", "record", "at_random"}), "status": frozenset({"status", "nights", "for_phase", "log", "listed", "pending", "until", "text", "factions",
                                 "split", "split_record", "split_self", "split_spread"}),
    "lose": frozenset({"loses", "log", "shown", "status"}), "redirect": frozenset({"moves", "substitute", "when"}), "vote": frozenset({"modifier", "lasts"}),
    "learn": frozenset({"ask", "among", "match", "yes", "no", "text", "told", "log", "misread", "distort", "consent",
                        "declare", "pending", "until", "recount", "reveal", "questions", "pairs"}),
    "watch": frozenset({"state", "text", "log"}),
    "message": frozenset({"text", "log", "first_only", "factions"}), "announce": frozenset({"text", "log"}), "ready": frozenset({"text", "log"}),
    "bench": frozenset(), "send_off": frozenset({"cause", "asks_loss", "titles_at_random"}),
    "choose": frozenset({"text", "log"}),
    "gain": frozenset({"text", "log", "again"}),
    "extra": frozenset({"again", "state", "tag", "text", "log", "while_alive"}),
    "concede": frozenset({"factions", "unanimous", "reason"}),
    "count": frozenset({"tag", "key", "add", "log", "absent"}),
    "counter": frozenset({"state", "add", "at_least", "cause", "log", "out_log"}),
    "give_uses": frozenset({"again", "add", "text", "told_actor", "refuses", "log"}),
    "note": frozenset({"log"}),
    "last_night": frozenset({"again", "state", "cause", "text", "log", "pending", "until", "out_log"}),
}
#: The keys every effect kind reads.
COMMON_EFFECT_KEYS = frozenset({"kind", "clause", "when_target", "to", "when_choice", "unless_choice", "when_last",
                                "unless_last", "when_actor", "unless_actor", "by", "unless_aimed_by", "settles_at",
                                "unless_before", "unless_target"})


class WhileAliveT(_Table):
    """`while_alive = { … }` in an `extra` effect — the more use holds on every night (or day) while enough players
    of some roles live, held by the skill itself with no submission, instead of once on the night after the effect
    is settled (107 集群<强制> "当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>")."""

    roles: Annotated[list[Name], Field(min_length=1)] = _f("the roles whose living players are counted",
                                                           examples=[["活尸"]])
    at_least: Positive = _f("how many of them must live", examples=[3])


class TargetIsT(_Table):
    """`when_target = { … }` in an effect — it takes hold only on a target that is one of `values`
    (M160 禁锢 "当你选中【实际阵营】为【爪牙】的角色时，该【爪牙】在今晚失去技能"); on any other target it
    does nothing, and the log says so."""

    of: Literal["faction", "role", "group", "status", "tag"] = _f(
        "what is compared: the target's faction, role, or role group (the player's `type`, else his role's "
        "`group` in `[[roles]]`), or a status he holds — on the table or for this phase only (`for_phase`, a game's "
        "hooks' too: M160 恶魔击杀的对象), `seen` not read — or a tag he bears, on his seat or on his role in "
        "`[[roles]]` `tags` (213 \"狼人阵营[群内]的角色\": 狼人、觉醒狼王、恶魔 are [群内] by role), `seen` not read",
        default="faction")
    seen: Literal["actual", "surface"] = _f(
        "the actual faction/role, or the 表面 one a check sees (as `inspect`'s `seen`); a group is the group of "
        "the role so seen", default="actual")
    values: Annotated[list[Name], Field(min_length=1)] = _f("the values on which the effect takes hold",
                                                            examples=[["爪牙"]])
    alive: bool = _f("also: the target is still in when it would take hold — one out before then, whatever his `of`, "
                     "is not taken (M19 遗志 \"若该角色当时仍存活且为狼人阵营\"); leave out: in or out", default=False)


class UnlessTargetT(TargetIsT):
    """One entry of `unless_target = [{ … }]` in an effect — it does not take hold on a target who is one of `values`
    (compared as `when_target` compares them), unless its user holds a skill of `lifted_by` (M160 附体 "一名被你选择的
    非恶魔非爪牙（附魂灵除外）的玩家会被你杀害", 缚魂灵【夺魂】 "你可以杀害爪牙")."""

    lifted_by: list[Name] = _f("skills whose holder (the user) is not bound by this entry; leave out: nobody",
                               default=[], examples=[["夺魂"]])
    benched_leave: bool = _f(
        "of = \"tag\": a benched player (挂机) no longer bears the tag — he left his group (M160 挂机 \"有群的角色从自已"
        "所在的群中立即移除\"); leave out: he still bears it", default=False)


class LastOfT(_Table):
    """`when_last = { … }` (or `unless_last`) in an effect — it takes hold only when its user is (or is not) the
    last living player of some factions: nobody alive but him, out or not, counts in them (107 腐化 "若其是当前
    亡灵阵营最后一名存活角色……若不是当前最后一名亡灵阵营角色"); the log says which held."""

    factions: Annotated[list[Name], Field(min_length=1)] = _f("the factions counted (a player's own faction)",
                                                              examples=[["亡灵"]])
    except_roles: list[Name] = _f("roles not counted (107 \"注：腐尸结算腐化时不计夜行怪\"); leave out: none",
                                  default=[], examples=[["夜行怪"]])


class DistortT(_Table):
    """`distort = { … }` in a `learn` effect — while its user holds one of `by` (and no status that cancels
    it, `status_cancels`) the answer is wrong with a chance (M160 "【醉酒】……信息类技能则大概率（90%）获取错误
    信息"; "【中毒】：永久【醉酒】"): a yes/no answer is turned round, a number is replaced by another the
    director picks. Both are questions of the settlement, seeded, the director overriding them with
    `--decide`: `醉酒错误.<actor>.<skill>` (是/否: wrong or not) and `<skill>.错误.<actor>` (the wrong number)."""

    by: Annotated[list[Name], Field(min_length=1)] = _f("the statuses of the user under which the answer may be "
                                                        "wrong", examples=[["醉酒", "中毒"]])
    chance: Annotated[float, Field(ge=0, le=1)] = _f("the chance the answer is wrong (0.9: \"大概率（90%）\")",
                                                     default=0.9)
    upto: Count = _f("a number's wrong answers offered to the director: 0 to `upto`, the true one left out",
                     default=8)


class MisreadT(_Table):
    """`misread = { … }` in a `learn` effect of `ask = "any"` — the actor himself and one other player the
    director names once for the game may be taken for a match when none of them is (M160 审讯官【拷问】
    "有一名除你之外玩家始终可能会被你的技能误认为【表面阵营】为【邪恶阵营】的玩家，你可能会被你的技能误认为……"):
    when no player asked about matches and one of them is the actor or that player, the director says
    whether he is mistaken. Questions `<skill>.误认对象` (the one player, asked of every player but the
    actor) and `<skill>.误认.<actor>` (否/是; seeded: either, as likely)."""

    who: Name = _f("the question naming the one other player", examples=["审讯官之外始终可能被误认的那名玩家（开局由导演定下）"])
    whether: Name = _f("the question whether they are mistaken this time, `{players}` standing in",
                       examples=["<拷问>：是否把{players}误认为邪恶"])


class ConsentT(_Table):
    """`consent = { … }` in a `learn` effect — the answer is given only if the target agrees (M160 心理学家【访谈】
    "如果他同意"): the submission's `choice` says so (同意/愿意/接受/是/好 …, or 不同意/拒绝/否/不 …), else
    the director is asked (`<skill>.同意.<target>`, seeded). A refusal tells the actor `refused`, nothing else."""

    question: Name = _f("the question to the director, `{actor}` and `{target}` standing in",
                        examples=["<访谈>：{target}是否同意{actor}的访谈"])
    refused: Name = _f("what the actor is told when the target does not agree, `{target}` standing in",
                       examples=["访谈：{target}不同意访谈"])


class QuestionT(_Table):
    """One entry of `questions = [ … ]` in a `learn` effect — a yes/no question the director may pick for a use, with
    its own `ask`, `among` and `match` (as the effect's own keys)."""

    label: Name = _f("the question in the post's words (the director's option, `{question}` in `log` and `pairs`)",
                     examples=["他们当中是否有表面阵营为恶魔"])
    ask: Literal["any", "same"] = _f("any: is any of the players asked about one that `match` names; same: are they "
                                     "all, or none of them, one that `match` names (M160 占卜 \"他们【表面阵营】是否属于同一"
                                     "阵营\")", default="any")
    among: Literal["targets", "actor_and_targets", "neighbours"] = _f(
        "the players asked about: the targets, the actor and the targets, or the living players seated next to "
        "the targets (see the effect's `among`)", default="targets")
    match: TargetIsT = _f("what a player asked about must be (see `when_target`)")


class PairsT(_Table):
    """`pairs = { … }` in a `learn` effect with `questions` — nights pair up (1–2, 3–4 …): on a pair's second night
    the question the actor had on its first is not offered again, and the answer adds `text` (M160 化梦师【占卜】
    \"在每两个夜晚内不会获得同一个问题的答案。每逢偶数夜晚，你会得知你这两天所获取的答案可能是对应的哪两项问题\")."""

    state: Name = _f("the `state` key keeping each actor's last question and its night (`{actor: {night, 问题}}`)",
                     examples=["占卜问题"])
    text: str = _f("added to the answer on a pair's second night, `{first}` and `{second}` (the two questions) "
                   "standing in; empty: nothing is added", default="", examples=["（这两夜的答案可能对应的问题：{first}；{second}）"])


class RecountT(_Table):
    """`recount = { … }` in a `learn` effect of `ask = "night_of"` — the words of the answer about what the player
    asked about did this phase (M160 护士长【诊断】 "晨曦阶段，你得知他今晚选择了谁以及他得知了什么"): the players he
    chose in his submissions (as he wrote them, in submission order) and every line he was told so far."""

    chose: str = _f("the words for the players he chose, `{players}` (joined by 、) standing in",
                    default="今晚选择了{players}")
    chose_none: str = _f("the words when he chose nobody", default="今晚没有选择任何玩家")
    heard: str = _f("the words for what he was told, `{lines}` (joined by ；) standing in", default="得知了“{lines}”")
    heard_none: str = _f("the words when he was told nothing", default="未得知任何信息")
    log: str = _f("the settlement log's line when answered, `{step}`, `{actor}`, `{target}`, `{chose}` and `{heard}` "
                  "(the words above) standing in", default="{step} {actor}得知：{target}{chose}，{heard}",
                  examples=["{step} 晨曦 诊断反馈：{target}{chose}，{heard}"])


class RevealT(_Table):
    """`reveal = { … }` in a `learn` effect of `ask = "night_of"` — once the actor has his answer, the player asked
    about is told `text` if he is what `match` names (M160 护士长【诊断】 "在你得到反馈后，如若你选择的角色的【表面阵营】
    是【恶魔】，他得知自己是【恶魔】"), unless the actor holds one of `unless` (a status a `status_cancels` entry
    cancels does not count)."""

    match: TargetIsT = _f("what the player asked about must be (see `when_target`)")
    text: Name = _f("what he is told", examples=["诊断：你是【恶魔】"])
    unless: list[Name] = _f("statuses of the actor under which nobody is told (\"【醉酒】期间发动的其他类型技能无效\"); "
                            "leave out: always told", default=[], examples=[["醉酒", "中毒"]])
    log: str = _f("the settlement log's line, `{step}`, `{actor}` and `{target}` standing in",
                  default="{step} {target}得知：{text}", examples=["{step} 诊断：{target}表面阵营为恶魔 → 他得知自己是恶魔"])


class EffectT(_Table):
    """`effects = [{ kind = … }]` in a `[[skills]]` entry — one generic effect the generic engine applies
    to each target, in order. Each kind reads only its own keys."""

    kind: EffectKind = _f("damage: a lethal hit settled at the next `resolve` step; kill: out at once (a shot); "
                          "protect: stops the damage of the skills in `stops`; cover: the actor's own next lethal hit this phase falls on "
                          "the target instead, and the skill's `uses` are spent then, not when it is submitted (107 防反 "
                          "\"该角色代替剑士承担这次伤害。防反生效后，剑士失去此技能\"), asked after the protections on the actor — or, with "
                          "`stands_in`, the target's hit falls on the actor (M160 彷徨); block: voids the target's later "
                          "skills this phase; inspect: tells the actor the target's faction or role in the post's "
                          "words; convert: a new role/faction; mark: give/take/pass/tear a tag; status: a status "
                          "on the target; lose: the actor loses a skill of his own (`loses`); redirect: later "
                          "submissions this phase naming the target may name the actor in its place instead, one "
                          "target per submission, a question for the director (M160 无政府主义者【抗议】) — or, with `substitute`, "
                          "the player the actor's submission of that skill names (107 诡辩); vote: a "
                          "`[[voting.modifiers]]` entry on the target that the next day's tally reads; learn: the actor is told "
                          "the answer to one question (`ask`) about the whole submission, not one target at a time; "
                          "watch: the target is remembered (`state`) for a later `feedback` step, which tells "
                          "the skill's holders `text` if he is then announced out (213 悬赏); ready: the actor "
                          "declares the skill's `declared` reactions (`reacts`) whose `form` his `choice` names for the "
                          "next game day, one use of the skill counted (`uses` key: the skill's name), and is told "
                          "`text` (`{day}`: that day; M65 枯竭 \"游戏日提前一天夜晚向导演说明下一游戏日使用该技能\"); "
                          "choose: the actor picks, by his `choice`, one of the `forms` of each skill his role holds "
                          "that has them (the post's 抉择 \"分发身份完毕后，拿到该角色的演员进行抉择\"): his `choice` field "
                          "becomes its `label`, the skill's uses its `count`, and he is told `text` (`{skill}`, "
                          "`{form}`); tell: the actor is told "
                          "`text` once the skill takes hold on the target (M65 票权掠夺 \"已执行\"); message: the target is "
                          "told `text` (107 夜之语 \"对其发送一条不多于100字的消息\"); announce: `text` is a line of the "
                          "公示 that follows the phase, once however many submissions say it (107 剑痕 \"次日该留言将被"
                          "导演公告\", 夜之语 \"次日将公告；‘昨夜有夜之低语’\"); bench: the target enters 挂机 — he stays "
                          "in the game, and a benched player's submissions are refused in the phases after — and a submission whose `choice` says "
                          "判负 judges his faction lost (the shared red card of 107 and M160 \"被红牌罚下的角色自动进入挂机"
                          "状态\"; \"判罚红牌时，导演视情况决定是否判负该玩家所在阵营\"); send_off: the red card that takes the target "
                          "out — one more red card counts for his faction in the table's `state` 红牌 (which a `[[win]]` "
                          "`red_cards_at_least` reads), he goes out at once (`cause`; leave out: the skill's name) if "
                          "still in, a player already out being carded all the same, a submission whose `choice` is 判负 "
                          "judges his faction lost (优先判负, not announced) unless its red cards already lose it by that "
                          "rule, and the win check then runs at the point named as the skill; a title of the ruleset's `[[tags]]` with "
                          "`on_red = \"random\"` he held goes to a living player at random, last of what his exit sets off "
                          "at once (a question the director may answer: M19 \"红牌罚下的警长警徽随机移交\") (M19 \"玩家受到红牌判罚时出局"
                          "（称为“红牌罚下”）\"; \"判罚红牌时，导演视情况决定是否判负该玩家所在阵营。同一阵营的角色累计获得两张"
                          "或以上红牌时，阵营判负\")"
                          "; extra: on the night after the phase it is settled in, the skill `again` may be used once more "
                          "— one more submission of it counts that night, per team for a team skill, per player else, "
                          "and its `per_phase` is one higher (M19 激励 \"仅限下一个夜晚，狼人可以再使用一次<杀人>技能\"); "
                          "with `while_alive`, on every phase while enough players of some roles live, held by the skill "
                          "with no submission (107 集群<强制> \"当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>\"); concede: the "
                          "faction the submission's `choice` names — one of `factions` (the only one, unnamed), else the submission is refused — is "
                          "judged lost at once (优先判负), its players staying in, and nothing is announced; the win check "
                          "then runs at the point named as the skill (`[win_policy] checks_at`) (M19 投降 \"当所有被询问的角色"
                          "（包括已出局角色）同意投降，投降有效。该阵营优先判负，不公示\")"
                          "; count: the number `key` of the record the "
                          "table's `state` keeps for the tag `tag` (a `mark`'s `record`) changes by `add`, whoever holds "
                          "the tag (107 灵能 \"恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1\")"
                          "; gain: the actor holds from now on every skill of the target's role (its template) but those "
                          "used when roles are dealt (`phase = \"setup\"`), each in his `uses` — at its `count`, or the lowest "
                          "`count` of its `forms` (both options held, the once-only one bounds it), else true — and is told "
                          "`text` (`{role}`, `{skills}`) (M65 缥缈永恒 \"拥有该身份模板的全部技能（即抉择中的两种选项技能都将拥有）\"); with `again`, instead: the target holds the skill `again` from now on (its `uses` key set to its "
                          "`count`, else true: the hooks or the generic check then see him holding it), told `text` (`{target}`, "
                          "`{skill}`; empty: nothing told) (M19 寡妇刀 \"当【狼人阵营】优先判负后，情侣获得技能<杀人>\", its effect `to = \"actor\"`)"
                          "; counter: the target's count in the table's `state` record `state` (a count per player) grows "
                          "by `add`, the log saying `log`; once it reaches `at_least` he goes out at once as `cause` (the "
                          "log saying `out_log`), a player already out only counted (M19 救治 \"若该角色没有成为指杀目标，累计一次"
                          "空救。一名角色累计两次空救时立即出局\"); "
                          "give_uses: the target holds `add` uses of the skill `again` from now on (its `uses` key set to "
                          "`add`), the user's own use of this skill being spent as its `uses` key says — a count passed from "
                          "one player to another — refused at its step when the user or the target is out, when the user's "
                          "count ran out earlier in the phase (\"若[X]次数尚足够\": `<skill>：[key]次数不足`), and when the "
                          "target already holds that key and `refuses` is written; the target is told `text` (`{target}`, "
                          "`{skill}`), the user `told_actor` (213 亲传 \"减少1点[报复]次数……使其获得1次[报复]技能\"); "
                          "note: nothing changes, the log records the use in `log`'s words (M160 ④ \"模仿者是恶魔的情况，"
                          "无论是否成功发动【克隆】，恶魔杀害的玩家依旧是在模仿者选择的名单里\": the 恶魔 who believes he is the "
                          "模仿者 only chooses)"
                          "; last_night (only in a skill whose trigger is `on = \"partner_exit\"`): its holder, whose partner "
                          "has just gone out, lives on until the end of the night after the next discussion day (out on night M: "
                          "night M+1; out on day D: night D+1), recorded as `{holder: night}` in the table's `state` key `state`; "
                          "that night he holds the skill `again` (its `uses` key, written as the night's settlement begins) and, "
                          "at the step of the night file that lists the skill, goes out as `cause` (`out_log` first); he is told "
                          "`text`, the log says `log`, and the director's to-do `pending` runs `until` — `{actor}` (the holder), "
                          "`{partner}` and `{night}` standing in. A partner out before the settlement with no record: the night "
                          "is counted from the partner's `出局` field, or asked (`<skill>.<state>`) (M19 忠犬 \"当主人出局时，忠犬可以"
                          "存活至下一讨论日夜晚结束方发动<殉情>出局，并在下一讨论日夜晚获得<杀人>\")",
                          examples=["damage"])
    strength: Count = _f("damage: how strong; protect: the strongest damage it stops (守护 1 does not stop 毒药 2)",
                         default=1)
    cause: str | None = _f("damage/kill/counter: the cause a death records (convert: the cause the conversion records), `{actor}` standing in for who acts (M19 "
                           "\"牺牲（{actor}主动出局）\"), `{actor_role}` for his role (M160 \"凶杀（{actor_role}{actor}）\"), and `{chosen}`, in a skill whose trigger is `on = \"chosen_exit\"`, "
                           "for the chosen player whose exit set it off (M19 \"遇难（英雄{chosen}出局）\"); default: the "
                           "skill's name; a trigger's `unless` reads it",
                           default=None)
    life: str | None = _f("kill: the state the target takes instead of 出局, for a game where a player taken out "
                          "keeps a last vote (M160 \"当一名玩家在黄昏阶段被投了……唯一最高票后，该玩家【死亡】\"; "
                          "\"其依旧可以在场上发言并投票\"): his `life` becomes it, the exit is recorded in the player "
                          "field of that name (`{day|night, cause}`, the field later phases read) and in the "
                          "settlement's `state_after`; default: 出局", default=None, examples=["死亡"])
    stops: list[str] = _f("protect: the skills whose damage it stops (`*`: every skill's: \"你在当晚不会死亡\")",
                          default=[], examples=[["杀人"]])
    only_if_hit_by: str | None = _f("protect: refused unless the target was hit by this skill this phase "
                                    "(解药：救当晚被狼人杀的人)", default=None)
    standing: bool = _f(
        "protect: held by the skill's holders themselves at all times, with no submission and no step — in the "
        "skill's `phases` only (leave out: every phase), and not while one of its `voided_by` statuses is held "
        "(213 主宰黑夜<强制> \"在[夜晚]和[晨曦]阶段，获得……[不死]状态\"; [净化] \"[强制]技能也会失效\"). Leave out: "
        "it protects the targets of a submission", default=False)
    once: bool = _f(
        "protect: it stops one hit, then it is spent — asked only when no protection that is never spent stops the "
        "hit, since a hit something else stops was never suffered. A `standing` one held as a `status` is spent by "
        "taking the status off its holder (213 长寿之命 \"该守护状态抵消一次指杀后即失效\"); one with no status spends "
        "its skill's `uses` and is asked after every other answer to the hit (107 长寿 \"免疫自身受到的第一次致死伤害\"); "
        "a protection given by a submission is taken off its target (107 祝福 \"免疫一次[致死伤害]\"). Leave out: it "
        "stops every hit it can", default=False)
    reason: str | None = _f(
        "protect, cover: why the target (cover: the actor) survives, in the post's words, as the survivals list it: `{skill}` (the damage's "
        "skill), `{actor}` (who protects) and `{target}` standing in (107 \"<长寿>：村长免疫自身受到的第一次致死伤害"
        "（{skill}）\"; cover: `{target}` is who takes the hit); damage with `flips_instead`: why a target who flips "
        "instead stays in; concede: why the faction loses, in the post's words (213 \"所有狼人阵营共群角色同意投降\"), "
        "with `unanimous` required — a submission missing some holder is refused as `并非` and these words; "
        "default: the protection's user and skill, `P03<守护>` (damage: `{actor}<{skill}>：不出局，翻转身份`; concede: "
        "`<skill>有效，优先判负，不公示`)",
        default=None,
        examples=["<长寿>：村长免疫自身受到的第一次致死伤害（{skill}）"])
    top_at_least: Positive | None = _f(
        "protect: the phase's submissions are counted by target and only the one target chosen more than any other, "
        "and at least this many times, is protected — a tie protects nobody (107 祝福 \"若某位角色得到的<祝福>比其他"
        "角色都要多且至少为2，该角色当晚免疫一次[致死伤害]\"). Leave out: each submission protects its target",
        default=None, examples=[2])
    no_repeat: str | None = _f(
        "protect: the `state` key that records `{target, night}` of the player it protected; the same player the "
        "next night is not protected, though the submissions stand (107 祝福 \"同一名角色不能连续两夜受到<祝福>效果"
        "影响\"). Leave out: no such rest (a skill's own `no_repeat` refuses the submission instead)",
        default=None, examples=["祝福上次"])
    first_only: str | None = _f(
        "message: it takes hold once in the game, for the first use that reaches it — the `state` key recording "
        "`{player, night}` (or `day`) of that use (`player`: its user); once the key is set it does nothing more "
        "(107 恩典 \"神启者会得知第一个对其使用祝福的村民\"). Leave out: every use",
        default=None, examples=["恩典首次"])
    factions: list[Name] = _f("concede: the factions that may give up, one named by the submission's `choice` (M19 "
                              "投降: 狼人, 黑情侣) — one faction alone may be left unnamed (213 投降 \"狼人阵营可发起投降\"); "
                              "required there. With `to = \"factions\"` (status, message): the factions whose living players it "
                              "lands on (213 村镇之殇: `[\"村民\"]`; M19 寡妇刀 \"此事件发生时会通知黑情侣阵营\": `[\"黑情侣\"]`)", default=[], examples=[["狼人", "黑情侣"]])
    unanimous: bool = _f("concede: only when every player who holds the skill — out or not — is among the submission's "
                         "members (213 投降 \"所有狼人阵营共群角色（包括已出局角色）同意投降时，狼人阵营判负\": the skill's `roles` "
                         "and `tags` say who); a submission missing any is refused, naming them. Leave out: the submission "
                         "alone suffices (M19: the director submits it once all asked agreed)", default=False)
    from_factions: list[Name] = _f(
        "protect: it stops only damage dealt by players of these factions (their actual faction; 213 主宰黑夜 "
        "\"仅针对村民阵营发动的技能\"); leave out: whoever deals it", default=[], examples=[["村民"]])
    delays: Name | None = _f(
        "protect with `standing`: instead of stopping the hit it puts the exit off — its holder stays in now, and a "
        "pending entry of this skill (the submission that takes him out later) is left, at `when`, with `text` told "
        "to him; asked after every protection that stops the hit, and only when every hit left is one it names "
        "(213 坚强 \"因指杀、投票之外的方式即将出局时，其不出局，改为下一讨论日发言满5贴时出局\": `坚强出局`); "
        "leave out: the protection stops the hit", default=None, examples=["坚强出局"])
    when: str = _f("protect with `delays`: when the put-off exit comes, in the post's words (the pending entry's "
                   "`when`); redirect of a `next_day` skill settled in a night: the pending entry left for the "
                   "day it acts on, `{day}` (that day), `{actor}` and `{target}` standing in (107 诡辩 \"第{day}天投票："
                   "若{target}即将被投票出局，由{actor}选择替代者\"); leave out there: no pending entry", default="",
                   examples=["下一讨论日发言满5贴时（若未满5贴则在关门前三小时）"])
    moves: list[Name] = _f(
        "redirect: only submissions of these skills are moved (107 诡辩 \"若该角色在次日投票阶段即将被投票出局\": "
        "`[\"投票出局\"]`, the day's exile as the night file's `exile_skill` submits it); leave out: a later "
        "submission of any skill", default=[], examples=[["投票出局"]])
    stands_in: Name | None = _f(
        "cover: the other way round — the target's next lethal hit this phase may fall on the skill's user instead, "
        "asked of the director with this question when the hit comes, `{actor}` (the user) and `{target}` standing "
        "in (question key `<skill>.<target>`, options 否/是, seeded, `--decide` overriding it; M160 虚无主义者【彷徨】 "
        "\"当晚，当他们其中一人死亡时，你可能代替他而死亡\"); asked only while the user is alive and no protection of "
        "this phase on him stops that hit, and a 否 leaves it standing for a later hit. Leave out: the user's own "
        "next hit falls on the target (107 防反)",
        default=None, examples=["<彷徨>：{actor}是否代替{target}死亡"])
    substitute: Name | None = _f(
        "redirect: the skill whose submission by the same actor, in the phase the move happens, names the player "
        "put in the target's place — no question to the director; with none (or one naming the target itself) "
        "nothing moves and the log says so (107 诡辩替代 \"则由学者选择一名其他角色，替代该角色被投票出局\"). "
        "Its submissions are this effect's answers, never settled as uses of their own. Leave out: the "
        "redirecting player himself may be put in, the director's question (M160 抗议)",
        default=None, examples=["诡辩替代"])
    voids: list[str] = _f("block: the target's skills it voids for the rest of the phase (`*`: all)", default=[])
    kinds: list[str] = _f(
        "block: besides `voids`, every submission of the target whose skill's `kind` is one of these is void for the "
        "rest of the phase — what he 发动s; a `tell` step still tells him (107 灾厄's 导演通知) (107 牵制 \"该角色当晚发动的非团队的<普通>和<限定>技能无效\": [\"普通\", \"限定\"]; a team's skill is of "
        "kind 团队); leave out: only `voids`", default=[], examples=[["普通", "限定"]])
    spares: list[Name] = _f(
        "block: skills of the target it never voids, though `voids` names them or `*` (M65 飞行头槌 \"使得该玩家当晚"
        "无法使用任何技能，不包括被动技能和<绝对切割>\": [\"绝对切割\"]); another block on the same player still voids "
        "them; leave out: none spared", default=[], examples=[["绝对切割"]])
    spares_kinds: list[str] = _f(
        "block: kinds of skill (a skill's `kind`) it never voids (M65 天璇紫后 \"不包括强制技能和<绝对切割>\": "
        "[\"强制\"]); leave out: none spared", default=[], examples=[["强制"]])
    spares_passive: bool = _f(
        "block: a passive reaction (a `reacts` entry with `passive`: a perception nobody submits) still works on the "
        "blocked player (M65 飞行头槌 \"不包括被动技能\": a 持续 劫火 still perceives; 天璇紫后 has no such words and "
        "stops it); leave out: the block stops it like any skill", default=False)
    together: bool = _f(
        "tell: told once for the whole submission once its targets are aimed, `{targets}` (the players it took hold "
        "on, joined by 、) standing in `text`, `log` and `pending`, and `{next_day}` (the game day that follows the "
        "phase) in `log` and `until`; with `pending`, a pending entry for the director on the actor until `until`; "
        "when it took hold on nobody, `empty` is the log's line (`{step}`, `{actor}`) and nothing is told (M65 空之瞭望 "
        "\"选定2个目标发动，次日全天可获知这2名目标之间的个人技能情况\"); leave out: told on each target it takes hold on, "
        "or once when none is aimed at", default=False)
    spends: bool = _f(
        "block: a voided submission was still 发动 — its `uses` are spent and its `cooldown_key`/`no_repeat` count "
        "from this phase (107 牵制 \"该角色当晚发动的……技能无效\"); leave out: refused before it is used, nothing "
        "spent", default=False)
    answer: Literal["faction", "role"] = _f("inspect: what is reported", default="faction")
    words: dict[str, str] = _f("inspect: the post's word for each faction (or role); default the name itself",
                               default={}, examples=[{"好人": "好人", "狼人": "狼人"}])
    otherwise: str | None = _f("inspect: the word for a faction (or role) `words` does not name (M19 预言 \"若该角色属于"
                               "村民阵营，反馈<村民阵营>；否则，反馈<非村民阵营>\"); default the name itself", default=None,
                               examples=["<非村民阵营>"])
    text: str = _f("inspect: what the actor is told, `{target}` and `{answer}` (the word) standing in "
                   "(213 \"查验：{target} 的身份是 {answer}\"); learn: `{targets}` (the targets, joined by 、), "
                   "`{actor}` and `{answer}` (the word told) standing in; convert: what the target is told once converted, `{target}` standing "
                   "in (107 暗日 \"暗日：你的身份转变为活尸\"; leave out: nothing is told); status: what the player given it is told, "
                   "`{target}` standing in (213 村镇之殇 \"你永久获得状态[净化]\"; leave out: nothing is told); mark: what the player who gets the "
                   "tag is told, `{target}` standing in (107 探查 \"当游荡者以此法获得[亡灵圣物]时，将得到导演通知\"; leave out: "
                   "nothing is told); watch: what the skill's holders are told "
                   "at the `feedback` step, `{target}` standing in (213 \"悬赏成功\"); inspect with `exits`: `{day}` (their "
                   "day) too; tell: what the actor is told, `{target}` standing in, and `{chosen}` in a `chosen_exit` skill — the chosen "
                   "player whose exit set it off (M19 设计 \"设计：目标{chosen}已出局，可以重新选择目标\") (required); message, announce (which must "
                   "write it): the words, `{actor}`, `{target}`, `{role}` (the target's role), `{choice}` (the submission's own words, empty if "
                   "none) and `{next_day}` (the game day that follows the phase) standing in (107 \"剑痕：{choice}\"; M19 "
                   "遗志 \"遗志：{target}的身份是{role}\"; M19 "
                   "绑架 \"{target}被绑架（第{next_day}天只能用动物叫声或小镇表情回答提问）\"); protect with `delays` (which must write it): what its "
                   "holder is told when his exit is put off; extra: what the holders of `tag` are told, `{night}` (the night "
                   "of the extra use) standing in; give_uses: what the target is told, `{target}` and `{skill}` (`again`) "
                   "standing in (213 \"亲传：你获得1次<报复>技能\")", default="{target}：{answer}")
    exits: list[Name] = _f(
        "inspect: instead of the targets, every player who went out on the day this night follows (in a day phase: "
        "this day) by one of these causes, as the table records the exit (`出局.cause`) — M65 数据收集 \"得知白天被投票"
        "出局角色的具体身份\": `[\"投票\"]`; leave out: the targets", default=[], examples=[["投票"]])
    empty: str = _f("inspect with `exits`: what the actor is told when nobody went out so, `{day}` standing in; "
                    "with `holder_of`: what he is told when nobody holds the tag; tell with `together`: the log's line "
                    "when it took hold on nobody (see `together`); damage with `one_victim`: the log's line when no "
                    "player chosen can be struck, `{step}` standing in (M160 \"平安夜\")", default="无")
    holder_of: Name | None = _f(
        "inspect: instead of the targets, the player who holds this tag now (107 夜之眼 \"得知当前【亡灵圣物】持有者的"
        "身份\"), `{target}` in `text` standing for him; nobody holding it: `empty` is told. Leave out: the targets",
        default=None, examples=["亡灵圣物"])
    players_of: Name | None = _f(
        "inspect: instead of the targets, each player whose role is this one, in or out, `{target}` in `text` "
        "standing for him — who plays it (M19 背叛 \"得知人质马甲\": `人质`); nobody: `empty` is told. Leave out: "
        "the targets", default=None, examples=["人质"])
    key: Name | None = _f("count: the number in the tag's record that changes (required there)",
                          default=None, examples=["诅咒剩余次数"])
    add: int = _f("count: how much is added to it (negative: taken off); counter: how much the target's count grows; "
                  "give_uses: how many uses of `again` the target holds from then on (213 亲传 \"使其获得1次[报复]技能\")",
                  default=1)
    at_least: Positive | None = _f(
        "counter: the count at which the target goes out at once, as `cause` (M19 救治 \"一名角色累计两次空救时立即出局\": "
        "2); leave out: it only counts", default=None, examples=[2])
    out_log: str | None = _f(
        "counter: the log's line when the count reaches `at_least`, `{step}`, `{actor}`, `{target}` and `{count}` "
        "standing in (the exit's own line follows); last_night: the log's line as he goes out, `{actor}`, `{partner}`, "
        "`{night}` standing in; leave out: the engine's own", default=None)
    unless_aimed_by: list[Name] = _f(
        "any kind: it takes hold only on a target none of these skills was used on this phase (where they landed, as a "
        "`tell` step's `about` reads them) — asked when the effect takes hold, so with `settles_at` after those skills' "
        "steps (M19 救治 \"若该角色没有成为指杀目标，累计一次空救\": `[\"杀人\"]`); leave out: whatever was used on him",
        default=[], examples=[["杀人"]])
    settles_at: list[Name] = _f(
        "any kind: it takes hold at the end of the next step numbered one of these (its `n`; the hook step of that number "
        "included), on the targets its submission landed on, not where its skill is settled — at the phase's end if no "
        "such step follows (M19 救治's 空救, counted at \"（6）指杀结算\" once the strikes are settled: `[\"6\"]`) — a `counter`'s "
        "record, as it stands, is then written to the settlement's state after at that step every phase, whoever was "
        "counted (the director's table shows the 空救 each night); leave out: with the rest of the skill's effects", default=[], examples=[["6"]])
    asks_loss: str | None = _f(
        "send_off: the director's \"判负\" is a question asked after the exit, with these words, `{target}` and `{faction}` "
        "standing in (key `<skill>判负.<target>`, 否 unless the director answers 是, `--decide`), instead of the "
        "submission's `choice`; not asked once the faction has lost or its red cards lose it by the ruleset's rule "
        "(213 \"判罚红牌时，导演视情况决定是否判负该玩家所在阵营\"); leave out: the `choice` says 判负", default=None,
        examples=["判罚{target}红牌时，导演是否判负{faction}阵营"])
    titles_at_random: bool = _f(
        "send_off: a title of the ruleset's `[[tags]]` with `on_red = \"random\"` the carded player held goes to a living "
        "player at random inside his exit (M19 \"警长因红牌罚下而出局后，下任警长将被随机指定\"); false: the title's own "
        "transfer skill settles it where the post takes it (213 \"红牌罚下出局的……牧首<殉道>对象和效果随机选择\", at 晨曦 or "
        "黄昏)", default=True)
    told_actor: str | None = _f(
        "give_uses: what the user is told once the target has them, `{left}` (the uses of the skill's own `uses` key "
        "he has left), `{target}` and `{skill}` (`again`) standing in (213 \"报复：剩余{left}次\"); leave out: nothing "
        "is told", default=None, examples=["报复：剩余{left}次"])
    at_random: str | None = _f(
        "mark with `act = \"give\"` and no target submitted (a `forced` trigger's: nobody chooses): the tag goes to a "
        "living player the director picks at random — this question, `{actor}` standing in (key: the skill's name; "
        "seeded, `--decide <skill>=P07` overriding it). 107 馈赠<强制> \"若[亡灵圣物]的持有者出局，导演将随机一名角色，"
        "该角色获得[亡灵圣物]\". Leave out: no target, no move", default=None,
        examples=["馈赠：{actor}出局，导演随机一名角色获得[亡灵圣物]"])
    absent: str | None = _f("count: the log's line when the tag has no record yet (nobody was ever given it), "
                            "`{step}` and `{actor}` standing in; leave out: the engine's own", default=None)
    seen: Literal["actual", "surface"] = _f(
        "inspect: the target's actual faction/role, or the 表面 one a check sees (213 预言 查验其[表面阵营]): the "
        "player's `表面阵营`/`表面身份` fields, or what the game's hooks say (`GameHooks.surface`, 213 伪装)",
        default="actual")
    role: str | None = _f("convert: the new role", default=None)
    faction: str | None = _f("convert: the new faction", default=None)
    flip: bool = _f("convert: instead of `role`/`faction`, the night file's `[flip]` — the target flips to the identity "
                    "his is paired with, or back to the one he had (107 翻转身份: 圣光天启 \"其翻转身份\", 夜之躯 \"守夜人即时翻转"
                    "身份\"); leave out: `role`/`faction` say the new identity", default=False)
    strip: bool = _f("convert with `flip`: a target flipping back keeps no skill counts (`uses` emptied; 107 圣光天启 \"其翻转"
                     "身份并失去所有技能\"); leave out: his counts are kept", default=False)
    copies: bool = _f("convert with `to = \"actor\"`, instead of `role`/`faction`: the user becomes the role (and role "
                      "group) of the player he chose, his faction kept (M160 模仿者【克隆】 \"如果他属于【善良阵营】且你没有"
                      "【醉酒】，你变为与他相同的身份\"); leave out: `role`/`faction` or `flip` say the new identity", default=False)
    believed: bool = _f("convert, instead of `role`: the target becomes the role he believes he has (his `believes` "
                        "field, else his own), and that role's group (`type`) (M160 幕后黑手【夺刀】 \"当前的【恶魔】变为他自己"
                        "认为的身份对应的【善良玩家】\": `faction` 善良); leave out: `role`/`faction` say the new identity",
                        default=False)
    group: Name | None = _f("convert: the role group the target takes — the `type` field the post's checks read (M160 "
                            "恶魔 / 爪牙 / 村民 / 外来者), written to the state after — his role kept unless `role` or "
                            "`believed` changes it too (M160 幕后黑手【夺刀】 \"你……在本局游戏的剩余时间内成为【恶魔】\"); "
                            "leave out: the group of the role he takes, as it was", default=None, examples=["恶魔"])
    unknowing: bool = _f("convert: the converted player still believes he is what he believed before — his `believes` "
                         "field keeps his former (believed) role, the state after shows it (M160 ① \"模仿者并不会知道自己模仿"
                         "的角色是什么，也不知道自己模仿是否成功\"); leave out: he knows his new identity", default=False)
    new_uses: bool = _f("convert with `role`: the target's `uses` become the new role's counted skills at their `count`, "
                        "the old role's gone (107 \"当一名角色转化身份时……失去当前所有身份技能……并获得对应身份的身份技能\", "
                        "暗日); leave out: his `uses` are kept", default=False)
    tag: str | None = _f("mark: the tag (警长); extra: the living holders of this tag are told `text` (M19 "
                         "狼群); leave out there: nobody is told", default=None)
    tags: list[Name] = _f(
        "mark, instead of `tag`: the tags the submission's `choice` names one of — the tag is the choice (another "
        "choice is refused), moved by `act`; a submission with no target leaves nobody holding it (its state key "
        "cleared: an election with no sole winner, 213 竞选 \"警长/牧首竞选投票票数最高的角色如只有一个，则成为警长/牧首\")",
        default=[], examples=[["警长", "牧首"]])
    act: Literal["give", "take", "pass", "tear"] | None = _f(
        "mark: what it does when the submission's `choice` is none of `choices`, the move then named by the "
        "skill alone (107 推选首领 gives 恶徒首领 to its target; `take`: from a target who holds it, 107 探查 "
        "\"若该角色持有[亡灵圣物]，获得之\" — a target who does not, or the actor himself, gives nothing); leave out: a submission with no `choice` passes the "
        "tag from the actor to its target, or tears it without one, and an unknown `choice` does nothing",
        default=None, examples=["give"])
    record: dict[str, int] = _f(
        "mark: the record the table's `state` starts keeping for the tag when it is given and has none yet — its "
        "`holder` and `since` then follow every move of the tag (107 藏匿 gives the 亡灵圣物 "
        "`{ \"诅咒剩余次数\" = 3 }`: \"<诅咒>技能的初始次数为3\"; 认主 counts from `since`); leave out: the state names "
        "the holder only", default={}, examples=[{"诅咒剩余次数": 3}])
    choices: dict[str, Literal["give", "take", "pass", "tear"]] = _f(
        "mark: the submission's `choice` word → what happens to the tag (no choice: pass with a target, else tear)",
        default={}, examples=[{"传递": "pass", "撕警徽": "tear"}])
    status: str | None = _f("status: the status given; lose with `loses = \"*\"`: the status that records the target "
                            "lost every skill, by which his submissions are refused (M19 `失去所有技能`); protect with `standing`: the status the protection is held "
                            "as — its holders get it as the first night begins (\"持续至游戏结束\"), hold the protection "
                            "only while they carry it, and lose it when a `once` protection is spent (213 长寿之命 "
                            "\"长老获得状态[守护]，持续至游戏结束\": `守护(长寿之命)`); leave out: held with no status",
                            default=None)
    listed: Name | None = _f("status: the `state` list naming the players who have it, the target added (M160 "
                             "丑角: 哥谭 and the 公示 read `state.丑角`); leave out: no list", default=None,
                             examples=["丑角"])
    refuses: str | None = _f("block: the blocked player's later submissions this phase are refused with this reason, "
                             "`{target}` (the blocked player) and `{actor}` standing in, and listed among the refusals "
                             "with this skill's `clause` (M19 算计 \"使其在当晚无法发动任何技能\"); default: refused in "
                             "the engine's words, naming the blocker; give_uses: a target who already holds uses of "
                             "`again` (given them before, or holding the skill himself) is refused at the step with this "
                             "reason, `{target}` standing in (213 亲传 \"两次发动需选择不同的狼人\"); leave out there: "
                             "he may be given more", default=None, examples=["{target}被<算计>，当晚无法发动任何技能"])
    ask: Literal["any", "all", "same", "chosen_before", "role_if_dies", "night_of"] = _f(
        "learn: the question. any: is any of the players asked about (`among`) one that `match` names (M160 拷问 "
        "\"你得知他们当中是否存在【表面阵营】为【邪恶阵营】的玩家\"); same: are the players asked about all, or none of "
        "them, one that `match` names (M160 占卜 \"他们【表面阵营】是否属于同一阵营\"); all: is every living player that `match` names "
        "among them (M160 密谋 \"如果你选中了所有【实际阵营】为【邪恶阵营】的玩家\"); chosen_before: how many players (人次) those "
        "players chose this phase in submissions settled at steps before this one (M160 游历 \"截止你行动时为止，"
        "他们在今晚一共选择了多少名玩家（按人次计算）\"); role_if_dies: the actual role of each player asked about "
        "who dies (死亡 or 出局) after this step in this phase, answered at the step whose `feedback` names the skill, "
        "one answer each, nothing for the others (M160 守墓 \"当他们其中有人在下个黄昏前死去时，你在当晚得知他的"
        "【实际身份】\"); a wrong answer is another role of the ruleset, the director's pick; night_of: what the one "
        "player asked about did this phase — whom he chose and what he was told until then — answered at the step "
        "whose `feedback` names the skill, in the words of `recount` (M160 诊断 \"晨曦阶段，你得知他今晚选择了谁以及他"
        "得知了什么\"); a wrong answer is another living player's, the director's pick (`<skill>.错误.<actor>`)",
        default="any")
    among: Literal["targets", "actor_and_targets", "neighbours"] = _f(
        "learn: the players asked about: the targets, or the actor and the targets (M160 访谈 \"彼此之间\"), or the "
        "players seated next to the targets — on each side the nearest living player by the players' `seat`, "
        "round the table unless the `state` key `座次环形` is false, the targets themselves left out (M160 占卜 "
        "\"他们相邻玩家\")", default="targets")
    match: TargetIsT | None = _f("learn, ask = any / all: what a player asked about must be (see `when_target`); "
                                 "required there", default=None)
    yes: str = _f("learn, ask = any / all: the word told for yes; empty: nothing is told for yes", default="是",
                  examples=["存在"])
    no: str = _f("learn, ask = any / all: the word told for no; empty: nothing is told for no", default="否",
                 examples=["不存在"])
    declare: str | None = _f("learn, ask = any / all: the `[[win]]` `declared` condition a yes sets; the win check "
                             "then runs at the point named as the skill (`[win_policy] checks_at`) (M160 密谋 "
                             "\"【善良阵营】获胜\"). Leave out: the answer decides nothing", default=None,
                             examples=["密谋成功"])
    told: Literal["actor", "actor_and_targets"] = _f(
        "learn: who is told the answer: the actor, or the actor and each target (M160 访谈 \"你们得知\")",
        default="actor")
    misread: MisreadT | None = _f("learn, ask = any: see `misread`; leave out: no player is ever mistaken",
                                  default=None)
    distort: DistortT | None = _f("learn: see `distort`; leave out: the answer is always true", default=None)
    consent: ConsentT | None = _f("learn: see `consent`; leave out: no one is asked to agree", default=None)
    pending: str | None = _f("learn, ask = role_if_dies: when it is answered, a pending entry for the director on "
                             "each player asked about who is still alive, `{actor}` and `{target}` standing in (M160 "
                             "守墓 \"在下个黄昏前\": a death by day is the director's to tell); block of a `tonight` skill settled in "
                             "a day phase: it voids nothing that day, and this is the pending entry on the target for "
                             "the night after, `{actor}` and `{target}` standing in (M65 天璇紫后 \"使得该玩家当晚无法使用"
                             "任何技能\"); status: a pending entry for the "
                             "director on the target while he has it, `{actor}`, `{target}` and `{next_day}` (the game "
                             "day that follows the phase) standing in (M19 绑架 \"被绑架的角色在下一个游戏日不得主动发表"
                             "观点\"); tell with `together`: a pending entry on the actor (see `together`); leave out: none",
                             default=None, examples=["守墓：若{target}在下个黄昏前死去，{actor}当晚得知其实际身份"])
    questions: list[QuestionT] = _f("learn, ask = any: instead of the effect's own `ask`/`among`/`match`, one of these "
                                    "questions, picked by the director for each use (`<skill>.问题.<actor>`, seeded), "
                                    "`{question}` in `log`; the actor learns only the answer (M160 占卜 \"…或…或…（你只会"
                                    "得知是否）\"); leave out: the effect's own question", default=[])
    pairs: PairsT | None = _f("learn with `questions`: see `pairs`; leave out: any question any night", default=None)
    recount: RecountT | None = _f("learn, ask = night_of: see `recount`; leave out: its defaults", default=None)
    reveal: RevealT | None = _f("learn, ask = night_of: see `reveal (learn)`; leave out: nobody else is told", default=None)
    until: str = _f("learn, ask = role_if_dies: when that pending entry ends, `{night}` (this night's number) standing "
                    "in; status: when its `pending` entry ends, `{next_day}` standing in (M19 绑架 \"执行上述效果直到下一个"
                    "游戏日结束\": `第{next_day}天结束`); tell with `together`: when its `pending` entry ends (see `together`)",
                    default="", examples=["至第{night}天黄昏"])
    log: str | None = _f("damage, kill, protect, block, inspect, status, give_uses, convert, note: the settlement log's line "
                         "for this effect, `{step}` (the step's number as shown), `{actor}`, `{target}`, `{chosen}` (the "
                         "player the submission chose: `{target}` is the user with `to = \"actor\"`) and, for inspect, `{answer}` "
                         "standing in (M19 \"{step} 预言{target} → {answer}\"); learn: `{step}`, `{actor}`, `{targets}` and "
                         "`{answer}` (the true answer: a distorted one is added as （醉酒，告知…）) and, for ask = all, `{missed}` "
                         "(the players `match` names that were not chosen, or 无), with `questions` `{question}` (the one picked); protect held as a `status`: the line when its "
                         "holders get it as the first night begins, `{target}` and `{skill}` standing in; lose: `{step}`, "
                         "`{actor}` and `{loses}` standing in, empty for no line of its own (M19 救药: its `protect` line says "
                         "it); kill: empty for no line of its own (M19 殉情: the exit's own line says it); `{day}`: the game day of a day phase "
                         "(M19 投票出局 \"第{day}天投票：{target}得票最多 → 出局\"), `{role}`: the target's role (213 投票 \"{step} "
                         "{target}（{role}）出局\"), `{next_day}`: the game day that follows the phase "
                         "(M19 绑架 \"直到第{next_day}天结束\"); announce: the line for the 公示 line, `{step}`, `{actor}` and "
                          "`{target}` standing in, empty for none (M19 绑架: the status's line says it); tell with "
                          "`together`: `{step}`, `{actor}`, `{targets}`, `{next_day}`; counter: the line when "
                          "the target is counted, `{step}`, `{actor}`, `{target}` and `{count}` (his count now) standing in; default: the "
                         "engine's own line",
                         default=None, examples=["{step} 预言{target} → {answer}"])
    loses: str | None = _f("lose: the `uses` key of the actor's own skill that is lost for good, whatever the "
                           "targets (213 \"<救药>使用后，失去技能<灵通>\"): a count becomes 0, anything else false, and the "
                           "state after shows the lost skill's `spent` word if it has one; `*`, with "
                           "`status`: every skill of each target it takes hold on (not the actor's) — each `uses` key he has is lost as above (one already spent shown lost too), and he is given "
                           "`status`, by which every later submission of his is refused, a team's naming him too (M19 遗志 "
                           "\"该角色的具体身份将会立即公示并失去所有技能\")", default=None, examples=["灵通", "*"])
    shown: str | None = _f("lose: the word the state after shows for the lost skill (M19 背叛 \"失去<设计><灭口><绑架>\": "
                           "`已失去`); leave out: the lost skill's `spent` word if it has one, else its count (0 or false)",
                           default=None, examples=["已失去"])
    nights: Count = _f("status: how many nights it lasts (0: until removed)", default=0)
    split: list[Name] = _f(
        "status: the statuses the submission's targets share out, one each, instead of one `status` for all — as "
        "many targets as statuses, each lasting as `for_phase`/`nights` say; who takes which is decided by "
        "`split_record`, then `split_self`, then `split_spread`, and where none decides by the director (question "
        "`<skill>.<night>`: who takes the first status) (M160 药剂 \"他们其中一名【清醒】，另外一名【醉酒】\"); `log` "
        "is one line for the whole submission, `{shares}` (`P09清醒、P06醉酒`), `{night}` and `{why}` (the rule that "
        "decided, in （）) standing in. Leave out: `status` for every target", default=[], examples=[["清醒", "醉酒"]])
    split_record: str | None = _f(
        "status with `split`: the `state` list recording each night's shares, `{night, <status>: player}`, appended "
        "to — and no player takes the status he took by this skill on the night before (M160 药剂 \"同一名玩家不会连续"
        "两天因【药剂】而【清醒】或【醉酒】\", read per status as the shared example does: 醉酒 one night, 清醒 the "
        "next). Leave out: nothing recorded, no rest", default=None, examples=["药剂历史"])
    split_self: Name | None = _f(
        "status with `split_record`: the status the user takes when he is among the targets and the record shows "
        "him chosen for the first time, unless the rest forbids it (M160 \"【药剂】第一次选中药师自己时，优先获得"
        "【清醒】\"). Leave out: no such preference", default=None, examples=["清醒"])
    split_spread: bool = _f(
        "status with `split_record`: where the rest and `split_self` leave a choice, the sharing whose targets took "
        "the same status by this skill least recently (M160 \"【药剂】多次选中同一人时，尽可能相近的两次内不会均因"
        "【药剂】而【清醒】或【醉酒】\"). Leave out: the director decides", default=False)
    for_phase: bool = _f("status: it lasts this phase only (今晚, 当晚): held while the phase is settled — the "
                         "generic engine and the game's hooks read it — and never written to the table or the "
                         "state after (M160 面具 \"他在今晚的【表面阵营】变为【恶魔】\")", default=False)
    when_target: TargetIsT | None = _f("any kind: see `when_target`; leave out: it takes hold on every target",
                                       default=None)
    flips_instead: TargetIsT | None = _f(
        "damage: a target who is one of these (read as `when_target` reads them, when the hit comes) and would go out "
        "by this hit — nothing else having stopped it — is not taken out but flips by the night file's `[flip]`, "
        "`reason` saying why he stays in (107 初拥 \"若该角色属于人类且因将这次[致死伤害]出局，该角色不出局并翻转其身份\"); "
        "the generic `resolve` asks it just before the exit, a game's own damage flow at its post's place; protect: "
        "it protects only a target who is one of these when the hit comes, and he stays in by flipping by `[flip]` "
        "(107 死灵咒 \"若其属于人类，则该角色不出局并翻转其身份\"; 107's flow asks it at its check (5), after 初拥). "
        "Leave out: the hit takes him out (protect: it protects whoever it is on)", default=None)
    when_actor: TargetIsT | None = _f(
        "any kind but learn: it takes hold only while its user (the submission's first member) is one of `values`, "
        "compared as `when_target` compares a target (107 灾厄 \"若[亡灵圣物]的持有者属于亡灵阵营……可以将[亡灵圣物]"
        "转交给场上任意一名角色\"); else it does nothing and the log says so. Leave out: whoever uses it",
        default=None)
    unless_actor: TargetIsT | None = _f(
        "any kind but learn: it takes hold only while its user (the submission's first member) is none of `values`, "
        "compared as `when_target` compares a target (M160 煤气灯人【寻觅】 \"若你未在刚刚过去的夜晚中称为【恶魔】击杀的"
        "对象，你获得【清醒】\": `of = \"status\"`, the status the 恶魔's killing gives for the night); else it does "
        "nothing and the log says so. Leave out: whoever uses it", default=None)
    unless_target: list[UnlessTargetT] = _f(
        "any kind but learn: it does not take hold on a target who is one of an entry's `values` (see `unless_target`) "
        "— the log says so (M160 【凶杀】 \"会有一名存活的非【群内】的玩家\"; 附体 \"非恶魔非爪牙\"; 清醒 \"免受恶魔侵害\"); "
        "leave out: on any target", default=[])
    one_victim: bool = _f(
        "damage: of the players the submission chose, ONE is struck: the candidates are those alive, on whom it takes "
        "hold (`when_target`, `unless_target`) and no protection of this phase stops it (M160 懦夫【自保】 \"你在当晚不会"
        "死亡\"); one candidate is struck, several are a question for the director (key: the skill's name, options "
        "`<user>:<target>`, seeded), none: nobody, `empty` the log's line. The holders of a skill whose `shares_victim` "
        "names this one share one victim a phase (M160 【凶杀】 \"你选择的玩家中会有一名存活的非【群内】的玩家受到来源于你的"
        "【致死杀害】\"; 附体 \"若恶魔选择的玩家中没有可被击杀的玩家，则会出现平安夜\"); leave out: each target is struck",
        default=False)
    unless_before: bool = _f(
        "any kind: it takes hold only on a target none of the skill's effects listed before it took hold on — their "
        "`when_target`, `when_actor`, `unless_actor`, `by`, `when_choice`/`unless_choice` all held (the post's 否则: M160 "
        "【克隆】 \"如果他属于【邪恶阵营】或你已经【醉酒】，你【中毒】\", the branch the clone did not take; several in a row "
        "read as 否则如果); leave out: whatever the effects before it did", default=False)
    by: Literal["any", "holders", "others"] = _f(
        "any kind: it takes hold only for a submission by a player who holds the skill by role (or tag) as the phase "
        "begins (`holders`), or only for one by anyone else, who uses it by a copy, a gain or a lending (`others`), as a "
        "step's `by` says (M65: a death by a stolen <绝对切割> records \"掠夺者……技能掠夺所得\"); `any`: both",
        default="any")
    when_choice: list[Name] = _f(
        "any kind: it takes hold only when the submission's `choice` contains one of these words (107 探查 \"并选择以下"
        "效果之一\": `[\"2\"]` for 效果2); leave out: whatever the choice", default=[], examples=[["2"]])
    unless_choice: list[Name] = _f(
        "any kind: it takes hold only when the submission's `choice` contains none of these words, no choice "
        "included (107 探查's 效果1: `[\"2\"]`); leave out: whatever the choice", default=[], examples=[["2"]])
    when_last: LastOfT | None = _f("any kind: it takes hold only when its user is the last living player of "
                                   "these factions (see `when_last`); leave out: whatever the count", default=None)
    unless_last: LastOfT | None = _f("any kind: it takes hold only when its user is not the last living player of "
                                     "these factions (see `when_last`); leave out: whatever the count", default=None)
    again: Name | None = _f(
        "extra: the skill that may be used once more on the next night (required there); the generic engine counts "
        "one more of its submissions that night, and a game's hook step settling that skill asks the same "
        "(`tracker.engine.night.effects.extra_uses`); give_uses: the skill whose uses the target is given "
        "(required there; its `uses` key, else its name); gain: the one skill the target comes to hold (M19 寡妇刀: "
        "`杀人`); leave out there: the target's role's whole template", default=None, examples=["杀人"])
    while_alive: WhileAliveT | None = _f(
        "extra: instead of `state`, the more use holds on every phase while enough players of some roles live (see "
        "`while_alive`; 107 集群). Leave out: once, on the night after it is settled", default=None)
    state: str | None = _f(
        "extra: the `state` key recording `{night}`, the night of the extra use (required there unless `while_alive`; M19 `激励`); "
        "counter: the `state` key of the count per player (required there; M19 `空救`); "
        "watch: the `state` key that remembers the target as `{target, night (or day), 成功 = false}` until the "
        "`feedback` step of the skill (213 悬赏 \"若该角色在下一个[晨曦]阶段公示出局，则反馈<悬赏成功>\": "
        "`悬赏上次`, which 捕杀's \"若前一天反馈<悬赏成功>\" reads); protect with `standing` and `once`: the `state` key "
        "that records when it was spent (`{night}` or `{day}`) — a holder whose `uses` key is not written has spent it "
        "once the key is set (107 `长寿上次`); last_night: the `state` key recording `{holder: night}`, the night he goes out (required there; "
        "M19 `殉情夜`)", default=None, examples=["悬赏上次"])
    modifier: str | None = _f("vote: the ruleset's `[[voting.modifiers]]` `name` put on the target for the next "
                              "day (107 流言 \"在下个白天被公告记有2票\"), which that day's tally reads once the "
                              "settlement is confirmed; default: the skill's name", default=None, examples=["流言"])
    lasts: Literal["next_day", "game"] = _f(
        "vote: for the next day only, or from now on for the rest of the game, recorded with no day (M65 票权掠夺 "
        "\"剥夺他的投票权……该玩家仍可投票，但投票算无效票\": the modifier's `duration = \"game\"`)", default="next_day")
    to: Literal["target", "actor", "partner", "factions", "neighbour", "chosen_by_target", "others"] = _f(
        "any kind: whom it lands on — each target, or the actor himself once for each target it takes hold on "
        "(M160 懦夫【自保】 \"当你选中【表面阵营】为【恶魔】的玩家时，你在当晚不会死亡\"), or once when the "
        "submission names no target (M19 幼狼<牺牲> \"幼狼可以主动出局\": a `kill` on himself); `partner`: once, on "
        "the living player carrying the other end of a `pairs` mark the actor carries (M19 殉情 \"另一人立即出局\"), "
        "nobody when there is none; `factions` (status, message): each living player counted in the effect's `factions` (as `by_factions` "
        "counts a player), in table order, whatever the targets (213 村镇之殇 \"所有[实际阵营]为村民阵营的角色永久获得状态"
        "[净化]\"); `neighbour`: one living player seated next to the target (by `seat`, the nearest living on each "
        "side, round the table unless the state's 座次环形 is false), the director's pick when there are two (question "
        "`<skill>.相邻`, seeded), the same one for every effect of the use; nobody when none lives (M160 【毒害】 "
        "\"对一名与他相邻的玩家造成【致死伤害】\"); "
        "`chosen_by_target`: for each target, one of the living players that target chose this phase by "
        "his other submissions (after the redirects), in submission order, each once — the director picks which when "
        "there are several (question `<skill>.<actor>`), nobody when he chose none (M160 告死邪魔【唆使】 \"选择一名玩家，"
        "今晚被他选择的玩家中，会有一名玩家受到来源于你的【致死伤害】\"); `others`: once for the submission, whatever its targets, "
        "on every other player (out or not) in table order that `when_target` matches, the rest passed over unlogged "
        "(M160 幕后黑手【夺刀】 \"当前的【恶魔】变为他自己认为的身份对应的【善良玩家】\": `when_target` group 恶魔)",
        default="target")
    clause: str = _f("the post's sentence for this effect", default="")

    @model_validator(mode="after")
    def _own_keys(self) -> "EffectT":
        extra = sorted(k for k in self.model_fields_set - COMMON_EFFECT_KEYS if k not in EFFECT_KEYS[self.kind])
        if extra:
            raise ValueError(f"{self.kind} 效果不读 {extra[0]}（它读：{'、'.join(sorted(EFFECT_KEYS[self.kind]))}）")
        if self.kind == "mark" and not self.tag and not self.tags:
            raise ValueError("mark 效果要写 tag（如 \"警长\"）或 tags（choice 所指的标记）")
        if self.kind == "mark" and self.tags and (self.tag or self.choices or not self.act):
            raise ValueError("mark 效果写 tags 时不写 tag、choices（标记由 choice 指定），要写 act（如 \"give\"）")
        if self.at_random is not None and self.act != "give":
            raise ValueError("mark 效果的 at_random 只与 act = \"give\" 一起写（导演随机一名角色获得标记）")
        if self.kind == "status" and not self.status and not self.split:
            raise ValueError("status 效果要写 status（或 split：目标分得的几种状态）")
        if self.kind == "status" and self.split and (self.status or len(self.split) < 2):
            raise ValueError("status 效果的 split 写两种以上的状态（每名目标分得一种），不再写 status")
        if self.model_fields_set & {"split_record", "split_self", "split_spread"} and not self.split:
            raise ValueError("split_record、split_self、split_spread 只与 split 一起写")
        if (self.split_self is not None or self.split_spread) and self.split_record is None:
            raise ValueError("split_self、split_spread 要写 split_record（它们读其中的记录）")
        if self.split_self is not None and self.split_self not in self.split:
            raise ValueError("split_self 要是 split 中的一种状态")
        if self.kind in ("ready", "choose", "gain") and "text" not in self.model_fields_set:
            raise ValueError(f"{self.kind} 效果要写 text（告知使用者的话）")
        if self.kind == "tell" and "text" not in self.model_fields_set:
            raise ValueError("tell 效果要写 text（告知使用者的话）")
        if self.kind == "tell" and not self.together and self.model_fields_set & {"log", "pending", "until", "empty"}:
            raise ValueError("tell 效果只在 together = true 时读 log、pending、until、empty")
        if self.kind in ("message", "announce") and "text" not in self.model_fields_set:
            raise ValueError(f"{self.kind} 效果要写 text（告知或公示的话，可用 {{actor}}、{{target}}、{{choice}}）")
        if self.kind == "convert" and self.flip and (self.role or self.faction):
            raise ValueError("convert 效果写了 flip 就不写 role、faction（新身份由 [flip] 的 pairs 决定）")
        if self.kind == "convert" and not (self.flip or self.copies or self.believed or self.role or self.faction
                                           or self.group):
            raise ValueError("convert 效果要写 role、faction 或 group，或 flip、copies、believed = true")
        if self.kind == "convert" and self.copies and (self.flip or self.role or self.faction or self.to != "actor"):
            raise ValueError("convert 效果的 copies 与 to = \"actor\" 一起写，不写 role、faction、flip（新身份是所选玩家的身份）")
        if self.kind == "note" and self.log is None:
            raise ValueError("note 效果要写 log（日志中记下的这句话）")
        if self.kind == "damage" and self.reason is not None and self.flips_instead is None:
            raise ValueError("damage 效果的 reason 只与 flips_instead 一起读")
        if self.kind == "convert" and self.strip and not self.flip:
            raise ValueError("convert 效果的 strip 只与 flip = true 一起读")
        if self.kind == "convert" and self.believed and (self.role or self.copies or self.flip):
            raise ValueError("convert 效果的 believed 不与 role、copies、flip 一起写（新身份是他自认的身份）")
        if self.kind == "convert" and self.new_uses and not self.role:
            raise ValueError("convert 效果的 new_uses 只与 role 一起读（新身份的技能次数）")
        if self.to == "factions" and (self.kind not in ("status", "message") or not self.factions):
            raise ValueError("to = \"factions\" 只与 status、message 效果一起写，并写 factions（落在这些阵营的每名存活角色上）")
        if self.kind == "status" and self.factions and self.to != "factions":
            raise ValueError("status 效果的 factions 只与 to = \"factions\" 一起写")
        if self.kind == "concede" and not self.factions:
            raise ValueError("concede 效果要写 factions（可以投降的阵营；choice 写其中之一）")
        if self.kind == "concede" and self.unanimous and self.reason is None:
            raise ValueError("concede 效果写 unanimous 时要写 reason（判负的原因；未全体同意时以“并非”加此句拒绝）")
        if self.kind == "lose" and not self.loses:
            raise ValueError("lose 效果要写 loses（失去的技能的 uses 键）")
        if self.kind == "lose" and (self.loses == "*") != (self.status is not None):
            raise ValueError("lose 效果的 loses = \"*\"（目标失去所有技能）须写 status（记下失去所有技能的状态），"
                             "status 只与它一起写")
        if self.kind == "give_uses" and (not self.again or "text" not in self.model_fields_set):
            raise ValueError("give_uses 效果要写 again（给予次数的技能）和 text（告知结算目标的话）")
        if self.kind == "count" and (not self.tag or not self.key):
            raise ValueError("count 效果要写 tag 和 key（哪个标记的记录中的哪个数）")
        if self.kind == "last_night" and not self.state:
            raise ValueError("last_night 效果要写 state（记下 {持有者: 出局之夜} 的 state 键）")
        if self.kind == "counter" and not self.state:
            raise ValueError("counter 效果要写 state（记录每名角色计数的 state 键）")
        if self.kind == "counter" and self.out_log is not None and self.at_least is None:
            raise ValueError("counter 效果的 out_log 只与 at_least 一起写")
        if self.kind == "inspect" and len([k for k in (self.holder_of, self.exits, self.players_of) if k]) > 1:
            raise ValueError("inspect 效果的 holder_of、exits、players_of 只写其一")
        if self.kind == "learn":
            if self.model_fields_set & {"when_target", "to", "when_actor", "unless_actor"}:
                raise ValueError("learn 效果针对整个提交，不读 when_target、to、when_actor、unless_actor（要问的玩家写 among）")
            if self.ask not in ("chosen_before", "role_if_dies", "night_of") and self.match is None and not self.questions:
                raise ValueError(f"learn 效果 ask = {self.ask!r} 要写 match（被问的玩家须是什么）")
            if self.ask in ("chosen_before", "role_if_dies", "night_of") and self.model_fields_set & {
                    "match", "yes", "no", "misread", "declare", "consent"}:
                raise ValueError(f"learn 效果 ask = {self.ask!r} 不读 match、yes、no、misread、declare、consent")
            if self.ask != "role_if_dies" and self.model_fields_set & {"pending", "until"}:
                raise ValueError("learn 效果只在 ask = 'role_if_dies' 时读 pending、until")
            if self.questions and (self.ask != "any" or self.model_fields_set & {"match", "among", "misread", "declare"}):
                raise ValueError("learn 效果写 questions 时 ask 为 any，不写 match、among、misread、declare（每个问题写自己的）")
            if self.pairs is not None and not self.questions:
                raise ValueError("learn 效果的 pairs 只与 questions 一起写")
            if self.ask != "night_of" and self.model_fields_set & {"recount", "reveal"}:
                raise ValueError("learn 效果只在 ask = 'night_of' 时读 recount、reveal")
            if self.ask == "all" and self.misread is not None:
                raise ValueError("learn 效果 ask = 'all' 不读 misread（误认只属于 ask = \"any\"）")
        if self.kind == "protect" and "status" in self.model_fields_set and not self.standing:
            raise ValueError("protect 效果的 status 只属于 standing 的保护（持有者自己持有的状态）")
        if self.kind == "protect" and self.model_fields_set & {"delays", "when", "text"} and not self.delays:
            raise ValueError("protect 效果的 when、text 只属于 delays（延后出局）")
        if self.kind == "protect" and self.delays and not (self.standing and self.when and "text" in self.model_fields_set):
            raise ValueError("protect 效果的 delays 要写 standing = true、when（延后的出局何时结算）和 text（告知持有者的话）")
        if self.kind == "extra" and not (self.again and (self.state is None) != (self.while_alive is None)):
            raise ValueError("extra 效果要写 again（可以再使用一次的技能），以及 state（记下下一夜的 state 键）或 "
                             "while_alive（存活人数条件，每晚都多一次）之一")
        if self.kind == "extra" and self.while_alive is not None and self.model_fields_set & {"tag", "text", "log"}:
            raise ValueError("extra 效果写了 while_alive 就不写 tag、text、log（它无人发动，没有告知的时刻）")
        if self.kind == "extra" and self.tag and "text" not in self.model_fields_set:
            raise ValueError("extra 效果写了 tag 就要写 text（告知该标签持有者的话，可用 {night}）")
        if self.kind == "watch" and not self.state:
            raise ValueError("watch 效果要写 state（记住目标的 state 键，如 \"悬赏上次\"）")
        return self


class ReactionT(_Table):
    """`reacts = [{ … }]` in a `[[skills]]` entry — what happens when another player's skill is cast on one of
    its holders, inside whatever step casts it (M65 "X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中"): he is told
    (`tell`), and the cast may be reflected onto its user, or moved onto the player his answer names (`then`);
    a cast that does nothing on him is the skill's `immune_to`, one home for immunity. The generic engine asks it for every target of a skill it settles; a game's hook that casts a
    skill on a player asks the same (`tracker.engine.night.react.land`). Its holder's answers (`answer`) are
    submissions of the skill, kept for the casts they answer and never settled as uses. A cast on himself, or
    on a holder already out, sets off nothing."""

    form: str | None = _f(
        "the option of the skill this reaction belongs to, chosen when roles were dealt (the post's 抉择, the "
        "player's `choice` field beginning with it: M65 持续 / 枯竭); a holder who gained the skill in play "
        "(its `uses` key) holds every form (M65 缥缈永恒 \"抉择中的两种选项技能都将拥有\"). Leave out: every holder",
        default=None, examples=["枯竭"])
    to: list[Name] = _f("the skills whose casts it reacts to; `*`: every skill", default=["*"],
                        examples=[["天璇紫后", "飞行头槌"]])
    not_to: list[Name] = _f("with `to = [\"*\"]`: skills it never reacts to. Leave out: none", default=[])
    declared: str | None = _f(
        "the `state` key `{holder: game day}` a `ready` effect writes: the reaction holds only on that game day "
        "(M65 枯竭 \"游戏日提前一天夜晚向导演说明下一游戏日使用该技能\"). Leave out: it always holds",
        default=None, examples=["枯竭生效"])
    passive: bool = _f(
        "a perception its holder never submits (M65 持续 \"可感知\"): a block of his skills stops it as the game's "
        "blocks say (M65 飞行头槌 spares 被动技能); a reaction that is not passive is stopped by no block, only its "
        "answers are", default=False)
    tell: str | None = _f("what the holder is told (`{skill}`: the skill cast, `{source}`: its user). Leave out: "
                          "nothing", default=None, examples=["被施放<{skill}>，来源{source}"])
    log: str | None = _f("the log's line when it is told (with `then = \"partner\"`: when the cast moves), after the "
                         "step's label (`{holder}`, `{skill}`, `{source}`, and `{target}` the partner); leave out: the "
                         "engine's own", default=None)
    then: Literal["none", "reflect", "redirect", "partner"] = _f(
        "what becomes of the cast: none; reflect (onto its user) or redirect (onto the first target of the answer), "
        "each only when its holder answered — else it is given up (`missing`); partner (at once, no answer: onto the "
        "holder's living partner of the night file's `pairs`, `log` its line with `{target}` the partner — M19 主人 "
        "\"夜间行动时行使于忠犬身上的全部有效技能全部为主人所承受\"; no living partner: it stays). One hop: a cast so "
        "moved is perceived by its new target but not moved again. A cast that does nothing on its holder at once is "
        "no reaction but the skill's `immune_to` (with `immune_told`: M19 警觉 \"此技能无效且得知使用该技能对象的马甲\")",
        default="none")
    phases: list[Phase] = _f("the phases it holds in (M19 主人 \"夜间行动时\": `[\"night\"]`); leave out: every phase",
                             default=[])
    answer: str = _f("reflect: the word an answer's `choice` holds (反弹); redirect answers name the new target. "
                     "An answer naming a skill answers that skill's cast only", default="")
    keeps: list[Name] = _f("skills whose casts `then` never moves or voids, though they are perceived (M65 \"不可反弹"
                           "<绝对切割>\"; 技能掠夺 \"不会受到任何干扰和反弹\"). Leave out: none", default=[])
    done: str | None = _f("reflect/redirect: what the holder is told once the cast is moved (`{skill}`, `{target}`: "
                          "the new one). Leave out: nothing", default=None)
    missing: str | None = _f("reflect/redirect: the log's line when the holder gave no answer (`{holder}`, "
                             "`{skill}`), once per cast (M65 \"一小时内给出答复，否则视为放弃发动技能\"); leave out: none",
                             default=None)
    clause: str = _f("the post's sentence", default="")

    @model_validator(mode="after")
    def _answerable(self) -> "ReactionT":
        if self.then == "reflect" and not self.answer:
            raise ValueError("then = \"reflect\" 要写 answer（答复的 choice 中表示反弹的词，如 \"反弹\"）")
        if self.then not in ("reflect", "redirect") and self.model_fields_set & {"answer", "done", "missing"}:
            raise ValueError("answer、done、missing 只属于 then = \"reflect\" / \"redirect\"（需要持有者答复的反应）")
        if self.not_to and "*" not in self.to:
            raise ValueError("not_to 只与 to = [\"*\"] 一起写")
        return self


class FormT(_Table):
    """`forms = [{ … }]` in a `[[skills]]` entry — the options its holder chooses between once, when roles are dealt
    (the post's 抉择: M65 "持续（3）…… 枯竭（限定）……"), by a skill with a `choose` effect; what the option changes is
    read from it elsewhere (`reacts`' `form`, a game's hook), the player's `choice` field holding the `label`."""

    name: Name = _f("the option's word, as the submission's `choice` names it", examples=["枯竭"])
    label: str | None = _f("what the player's `choice` field holds once chosen (M65 \"持续（3）\": `持续(3)`); leave "
                           "out: `name`", default=None)
    count: Count | None = _f("the skill's uses once chosen (M65 枯竭（限定）: 1); leave out: as they were",
                             default=None)
    targets: Positive | None = _f(
        "how many targets a use in this form takes, for a holder who chose it (M65 空之瞭望 持续 \"选定1个目标发动\", "
        "枯竭 \"选定2个目标发动\"); who holds the skill otherwise — no choice yet, or every form gained in play (缥缈永恒 "
        "\"抉择中的两种选项技能都将拥有\") — takes the skill's `min_targets`–`max_targets`; leave out: the skill's own",
        default=None)
    clause: str = _f("the post's sentence", default="")


class SparesT(_Table):
    """`spares = { … }` in a `[[skills]]` entry — its holders do not go out on some game days, whatever takes
    them out but the causes in `unless` (M65 预知者<天罡护体>（强制）"游戏日第一日，不会因为除<绝对切割>外的其他技能和
    投票而出局"): the exit is a survival with `reason`, wherever it is settled (an effect, a game's hook step)."""

    days: Annotated[list[Positive], Field(min_length=1)] = _f("the game days it holds on (night N belongs to the "
                                                              "game day it follows)", examples=[[1]])
    unless: list[Name] = _f("the causes that still take its holders out: a skill name or alias (a cause written "
                            "with its detail after the name, `绝对切割（P05）`, is that name's). Leave out: none",
                            default=[], examples=[["绝对切割", "红牌罚下"]])
    reason: Name = _f("the survival's reason, in the post's words",
                      examples=["天罡护体：游戏日第一日，不会因为除<绝对切割>外的其他技能和投票而出局"])


#: What ``at = "next_point"`` means (213 殉职), written once for the model's text.
NEXT_POINT = ("`\"next_point\"`, at the next point skills can be used after the exit (213 殉职 \"警长出局后下一个可发动技能的时间"
              "点\"): the next step that lists the skill (or that a game's hook step names), where the holders who went out "
              "in this settlement — or, in a settlement that begins there, in the phase just before it (their `出局` field: "
              "the night before, for a step that also runs in a night; else the same day) — act on their last submission "
              "(a skill with a `tag`: its bearers, whatever its `roles`); a submission the `unless` forbids, or one refused "
              "there, counts as none (`missing`), and a submission by anyone else is refused")

#: A trigger's ``at`` (when it acts after its event), one key for every timing a post gives.
TriggerAt = Literal["now", "after", "next_point"] | Annotated[list[Name], Field(min_length=1)]


class TriggerT(_Table):
    """`trigger = { … }` in a `[[skills]]` entry — the skill acts on an event, its holder going out (猎人 开枪,
    警长 警徽) or coming to hold it, or (forced, nobody submitting) a step that lists it; its holder may use it while out. `on` says the event, `at`
    when after it the skill acts."""

    on: Literal["exit", "gain", "step", "target_exit", "chosen_exit", "idle", "loss", "partner_exit"] = _f(
        "the event it acts on: `idle`, with `forced`: each step that lists it is reached, and its effects act, with no "
        "submission, on every player — whoever holds it — who had to act this phase and submitted nothing (a refused "
        "submission is acting), in table order, the log saying so when there is none: one in the game when the phase "
        "began (not taken out at its start by the day's exit it settles), with a skill of the role he believes he has "
        "(`believes`, else his role) that is not `may_skip` and that this phase's refusals — phase, first night, uses "
        "left, benched, the game's own `refuse`, the player counted as still in — would admit with its targets still "
        "to choose (M160 哥谭 \"若一名【实际角色】不是【丑角】的玩家在需要操作的夜晚没有行动，则他会变成【丑角】\"; 附体 "
        "and 迷失: a player acts on the role he believes); `exit`, its holder going out; `gain`, a player coming to hold it by taking its role — "
        "a flip (`[flip]`) or a `convert` — with `forced` (107 灵能<强制> \"恶灵诞生时\", 夜之眼 \"夜行怪加入游戏时\"): "
        "its effects act right then on nobody's submission, the new holder acting; `step`, with `forced`: each step "
        "that lists it is reached, every living holder acting in table order with no submission (107 夜之心<锁定> "
        "\"（18）结算<夜之心>\": its `when_last` says when it takes hold); `target_exit`, a player its holder's "
        "submission in this settlement names going out: that submission, kept unsettled until then, acts on him at "
        "`at` (`unless`/`only` reading his cause), in submission order, if its user is still in — else, or when "
        "no target goes out, the log says it did not act (107 权术 \"贵族的投票或流言对象出局时，若其持有【亡灵圣物】，"
        "则贵族可选择获得【亡灵圣物】\": a `mark` `take` from the player out); `chosen_exit`, with `keeps`: "
        "the player its holder chose (his submission of the skill, 游戏开始前, names him and is kept in the holder's "
        "field `keeps`, its only effect then) going out — its effects then act by themselves on its holder's behalf, "
        "`{chosen}` in a `kill`'s `cause` standing for the chosen player, inside that exit (立即, after the `at = \"now\"` "
        "triggers of the player out), unless "
        "`unless` names his cause, while the holder is in and still holds it (its `uses` not spent or lost) (M19 遇难<强制> "
        "\"游戏开始前选择一名角色成为英雄，当英雄因为非红牌罚下原因出局，人质也随之出局\"); `loss`, with `forced` and "
        "`losers`: one of `losers` judged lost (优先判负: by the win check's `[[win]]`, a concession, the director's "
        "判负 on a red card; once, when first judged) — every living holder, in table order, acts by itself with no "
        "target (`to = \"actor\"` lands on him), an effect written `to = \"factions\"` acting once for them all; a loss "
        "recorded before the settlement (the table's `判负阵营`) gives its holders who lack it what its `gain` effects give, "
        "told nothing (M19 寡妇刀 \"当【狼人阵营】优先判负后，情侣获得技能<杀人>。此事件发生时会通知黑情侣阵营\"); "
        "`partner_exit`, with `forced`: the player carrying the other end of a `pairs` mark its holder carries going out — "
        "inside that exit, after his 立即 triggers and `chosen_exit` ones, every living holder bound to him acting by "
        "himself (its `last_night` effect; M19 忠犬 \"当主人出局时，忠犬可以存活至下一讨论日夜晚结束方发动<殉情>出局\")",
        default="exit")
    losers: list[Name] = _f(
        "with `on = \"loss\"`: the factions whose loss sets it off (M19 寡妇刀: `[\"狼人\"]`); required there, nowhere else",
        default=[], examples=[["狼人"]])
    keeps: str | None = _f(
        "with `on = \"chosen_exit\"`: the holder's field (a word of the scenario's vocabulary, shown in the state after) "
        "that keeps the player his submission chose (M19 遇难: `英雄`); required there, nowhere else",
        default=None, examples=["英雄"])
    anew: bool = _f(
        "with `on = \"chosen_exit\"`: a new choice in play (not 游戏开始前) replaces the kept one, but only once the "
        "kept player is out — while he is still in at its step it is refused (M19 设计 \"当目标因任何原因出局时，可以"
        "重新选择目标\"); leave out: a new choice replaces it", default=False)
    shown: str | None = _f(
        "with `on = \"chosen_exit\"`: what the state after shows for the skill (its `uses` key) of a holder whose chosen "
        "player went out, `{chosen}` standing for him (M19 设计 \"目标{chosen}已出局，可以重新选择\"); leave out: nothing",
        default=None, examples=["目标{chosen}已出局，可以重新选择"])
    at: TriggerAt = _f(
        "when it acts after its holder's exit: `\"after\"`, once what took him out is settled (the skill, or the "
        "step's resolution), the phase's exits in their order, each exit's own triggers following it; `\"now\"`, with "
        "`forced`: 立即 — inside the exit itself, before anything else the exit sets off (a game's cascades after its "
        "first, the other triggers, the win check), so a player it takes out goes out in the same moment (M19 "
        "殉情<强制> \"情侣中若有一人出局，另一人立即出局\"; the post's chain \"每次出局后依次结算殉情、遇难→遗志、激励……\"); "
        "`\"now\"` with `asks` instead of `forced`: inside the exit too, on the holder's last submission in this "
        "settlement, else he is asked (M19 遗志 \"当遇难发动导致人质出局时，人质可以选择一名角色……立即公示\"); "
        + NEXT_POINT + "; a list of steps (their `n`): the first of them the phase reaches after the exit, with that "
        "step's label — its holder's other exits and what they set off come first (107 传承 \"（14）夜晚出局的角色……得到"
        "通知<馈赠>以及<传承>\", \"（20）被投票出局的角色……\"); a holder who goes out after the last of them acts at the "
        "phase's end. With `on = \"gain\"` only `\"after\"`", default="after",
        examples=["next_point", ["(14)", "(20)"]])
    unless: list[str] = _f("the causes of exit that forbid it (a skill name or alias: 毒药, 红牌罚下); a cause "
                           "written with its detail after the name, `牺牲（P05主动出局）`, is that name's", default=[])
    missing: str | None = _f("the `choice` taken when the holder who went out submitted nothing "
                             "(逾期未指定视为撕警徽); none: nothing happens", default=None)
    asks: str | None = _f("without `missing`: what the holder who went out and submitted nothing is told, the "
                          "skill then waiting for his submission (a pending entry), which the next settlement "
                          "settles first (M19 殉职 \"警长并非因为罚下而出局后，须选择一名未出局的角色来继任警长\"); "
                          "none: he is told nothing", default=None, examples=["殉职：请选择一名未出局的角色继任警长"])
    only: list[str] = _f("the causes of exit that allow it, and no other (107 虚体, 腐化 \"因投票出局时\": "
                         "`[\"投票出局\"]`), read as `unless` reads its causes; a holder out before the phase, his "
                         "cause unknown, is refused. Leave out: every cause but `unless`'s", default=[],
                         examples=[["投票出局"]])
    tells: str | None = _f("what its holder is told when it acts, submitted or not, `{living}` standing for the "
                           "living players (107 传承 \"其得知存活角色名单并选择一名角色\"); with `asks`, the holder "
                           "who submitted nothing is told this, not `asks`; with `at = \"next_point\"`, when his point "
                           "comes, before he acts, unless the `unless` forbids him (213 殉职 \"反馈存活角色名单\"). Leave "
                           "out: nothing", default=None, examples=["传承：存活角色名单：{living}；请选择一名角色成为神眷者"])
    forced: bool = _f("强制: it acts by itself at its time (unless `unless` forbids it), with no "
                      "submission — nobody submits it (M19 激励<强制> \"当幼狼并非因红牌罚下而出局后……\"); leave out: "
                      "it acts on its holder's submission (or `missing`/`asks`)", default=False)
    by_factions: list[Name] = _f(
        "only an exit whose cause is a skill used by a player of one of these factions allows it (107 神恩 \"当神启者被"
        "亡灵阵营角色击杀时\": `[\"亡灵\"]`): the user the cause names in its detail (`偷袭（P03）`), counted as "
        "`count` counts (his faction, and his role's `also_factions`, as the game's hooks judge it: 213 伪装（4）), or, a "
        "detail that names a team (`啃咬（活尸）`), the members of that team's submission in this settlement — all of "
        "them — else every role holding the skill in the ruleset's `[[roles]]`; a cause that is no skill (投票出局 by the "
        "table) never allows it; an exit by several harms at once, their causes joined by `；`, allows it when any "
        "of them does. Leave out: whoever's cause", default=[], examples=[["亡灵"]])
    or_causes: list[str] = _f(
        "with `by_factions`: causes of exit that allow it too, whoever dealt them, read as `only` reads its causes "
        "(213 村镇之殇 \"长老因投票或[实际阵营]为村民阵营的角色的技能出局时\": `[\"投票\"]`, `by_factions = [\"村民\"]`). "
        "Leave out: `by_factions` alone says which exits allow it", default=[], examples=[["投票"]])
    clause: str = _f("the post's sentence", default="")
    marks: list[Name] = _f(
        "with `on = \"gain\"`: instead of taking its role, its holder coming to carry one of these marks sets it off — "
        "given by a `mark` effect or a game's hook step (M19 背叛 \"当绑匪成为情侣时\", 逃脱 \"当人质成为情侣时\": the "
        "lovers' marks, given when the 丘比特's choice makes them); leave out: taking its role does",
        default=[], examples=[["情侣:攻", "情侣:受"]])

    @model_validator(mode="after")
    def _alone(self) -> "TriggerT":
        if self.forced and (self.missing is not None or self.asks is not None):
            raise ValueError("trigger 的 forced 不与 missing、asks 一起写（强制技能无人提交）")
        if self.at == "now" and not self.forced and (self.asks is None or self.missing is not None):
            raise ValueError("trigger 的 at = \"now\" 只与 forced 一起写，或写 asks（立即结算：强制技能自行发动，"
                             "否则持有者的提交在出局之内结算、没有提交则等待）")
        if self.on in ("gain", "step", "idle") and (not self.forced or self.unless or self.at != "after"):
            raise ValueError(f"trigger 的 on = \"{self.on}\" 须写 forced = true、不写 unless 和 at（自行发动，无人提交，"
                             "没有出局原因）")
        if self.forced and self.at == "next_point":
            raise ValueError("trigger 的 forced 不与 at = \"next_point\" 一起写")
        if self.marks and self.on != "gain":
            raise ValueError("trigger 的 marks 只与 on = \"gain\" 一起写（获得标记时自行发动）")
        if self.or_causes and not self.by_factions:
            raise ValueError("trigger 的 or_causes 只与 by_factions 一起写（使用者阵营之外也允许的出局原因）")
        if self.on == "target_exit" and (self.forced or self.missing is not None or self.asks is not None
                                         or self.tells is not None or self.at in ("now", "next_point")):
            raise ValueError("trigger 的 on = \"target_exit\" 不写 forced、missing、asks、tells，at 不写 now、next_point"
                             "（由持有者对目标的提交发动，出局的是目标）")
        if (self.on == "chosen_exit") != (self.keeps is not None) or (self.on == "chosen_exit" and (
                self.forced or self.missing is not None or self.asks is not None or self.tells is not None
                or self.at != "after" or self.only)):
            raise ValueError("trigger 的 on = \"chosen_exit\" 须写 keeps，不写 forced、missing、asks、tells、at、only；keeps 只与"
                             "它一起写（提交的是选择，所选的角色出局时立即自行发动）")
        if (self.on == "loss") != bool(self.losers) or (self.on == "loss" and (
                not self.forced or self.unless or self.only or self.at != "after" or self.marks or self.tells)):
            raise ValueError("trigger 的 on = \"loss\" 须写 losers 与 forced = true，不写 unless、only、at、marks、tells；losers 只与"
                             "它一起写（阵营判负时持有者自行发动）")
        if self.on == "partner_exit" and (not self.forced or self.unless or self.only or self.at != "after"
                                          or self.marks or self.tells):
            raise ValueError("trigger 的 on = \"partner_exit\" 须写 forced = true，不写 unless、only、at、marks、tells（情侣的另一端"
                             "出局时自行发动）")
        if (self.anew or self.shown is not None) and self.on != "chosen_exit":
            raise ValueError("trigger 的 anew、shown 只与 on = \"chosen_exit\" 一起写（所选的角色出局后可以重新选择、状态的写法）")
        if self.by_factions and self.on != "exit":
            raise ValueError("trigger 的 by_factions 只与 on = \"exit\" 一起写（出局原因的使用者所属阵营）")
        return self


class JoinsTeamT(_Table):
    """`joins_team = { … }` in a `[[skills]]` entry — its holders and a team's players know each other and share the
    team's group (107 统御<锁定> "天谴者与活尸互知共群"). "共群" reads two ways, and the ruleset option `option` names
    says which applies: `acts` — its holders are the team's members, so they may send the team's skills (啃咬) alone
    or with its players; `chat` — they share the group's chat only: a team skill one of them sends with none of the
    team's players is refused, the reading named. Either way, when a player comes to hold it (his new identity's
    skills), he is told the team's living players (`told`) and each of them is told his name (`told_team`)."""

    team: Name = _f("the team whose group its holders share", examples=["活尸"])
    option: Name = _f("the ruleset `[[options]]` key whose value, `acts` or `chat`, says which reading of \"共群\" "
                      "applies (its `default` is the reading when the game file chooses none); the option must be declared with "
                      "`choices` among `acts`/`chat`, checked when the ruleset is read", examples=["shared_group"])
    told: str = _f("what a player who comes to hold it is told, `{players}` standing for the team's living players "
                   "(`无` when none)", default="{players}")
    told_team: str = _f("what each of the team's living players is told then, `{player}` standing for him",
                        default="{player}")


class HearsT(_Table):
    """`hears = { … }` in a `[[skills]]` entry — its living holders are told whenever another player of some
    factions goes out or flips his identity (`[flip]`), wherever that is settled (an effect, a game's hook step):
    107 灵魂链接<锁定> "每当其他圣殿阵营角色出局或身份翻转时，你将得到通知"."""

    factions: Annotated[list[Name], Field(min_length=1)] = _f(
        "the factions heard: a player who goes out while of one of them, or who flips out of or into one of them",
        examples=[["圣殿"]])
    exit: Name | None = _f("what each holder is told when such a player goes out, `{player}` standing in; leave out: "
                           "exits are not heard", default=None, examples=["灵魂链接：圣殿阵营角色{player}出局"])
    flip: Name | None = _f("what each holder is told when such a player flips, `{player}` standing in; leave out: "
                           "flips are not heard", default=None, examples=["灵魂链接：圣殿阵营角色{player}翻转身份"])

    @model_validator(mode="after")
    def _heard(self) -> "HearsT":
        if self.exit is None and self.flip is None:
            raise ValueError("hears 至少写 exit 或 flip 之一（出局或翻转身份时告知的话）")
        return self


class OnUseT(_Table):
    """`on_use = { … }` in a `[[skills]]` entry — a skill never submitted that acts on its holder's uses of another
    skill: each time one of its holders uses `of` and that use takes effect (not refused, not blocked, not void),
    its effects take hold with that use's actor and targets, right after the use's own effects (107 恩典<普通>
    "若村民祝福对象为神启者时，将得到反馈“神启者”；神启者会得知第一个对其使用祝福的村民": a 村民's <祝福>). A
    use by a player who does not hold it (a copied skill) sets off nothing."""

    of: Name = _f("the skill whose uses set it off", examples=["祝福"])
    when_target: TargetIsT | None = _f(
        "only a use whose target is one of these (as an effect's `when_target` compares a target) sets it off; any "
        "other is no occasion for it and nothing is logged (107 恩典 \"若村民祝福对象为神启者时\"); leave out: "
        "every use", default=None)
    instead: str | None = _f(
        "the use's own lethal effects (`damage`, `kill`) do not take hold on a target it acts on — its effects do "
        "instead — and the target is recorded as surviving with these words, `{actor}` and `{target}` standing in "
        "(M160 狂煞【毒害】 \"当你第一次杀害村民时，改为使其中毒，并对一名与他相邻的玩家造成【致死伤害】\"); with the "
        "skill's `uses`, it acts only while its holder has a use left, and spends one when it acts (\"第一次\"). "
        "Leave out: it acts besides them", default=None, examples=["<毒害>：狂煞第一次杀害村民时改为使其中毒"])


class SkillT(_Table):
    """`[[skills]]` (night file) or `[[night.skills]]` — one skill and the generic limits the post puts on it."""

    name: Name = _f("the skill's name as the post writes it", examples=["救治"])
    roles: list[str] = _f("the roles that hold it (at least one of `roles`, `team`, `tag`, `tags`)", default=[])
    team: str | None = _f("the team that uses it together (狼群, 情侣, 导演)", default=None)
    tag: str | None = _f("a mark that carries the skill, whoever holds it (107 神眷者)", default=None)
    tags: list[Name] = _f("marks any one of which carries the skill, whoever holds it (M19 殉情: the lovers' marks "
                          "情侣:攻, 情侣:受, 情侣:忠犬 — the 主人's exit is the 忠犬's own clause); leave out: `tag` alone",
                          default=[], examples=[["情侣:攻", "情侣:受"]])
    phase: Phase = _f("when it is used; `any` is every phase of a game day, `passive` is never submitted",
                      default="night")
    phases: list[Phase] = _f("every phase it may be used in, for a skill the post marks with several",
                             default=[])
    kind: Kind = _f("the post's own mark", default="普通")
    targets: Count | None = _f("exactly this many targets (sets `min_targets` and `max_targets`)", default=None)
    min_targets: Count | None = _f("the fewest targets (default: `targets`, else 0)", default=None)
    max_targets: Count | None = _f("the most targets (default: `targets`, else `min_targets`)", default=None)
    uses: str | None = _f("the seat's `uses` key that counts it; a limited skill is refused at 0", default=None)
    spent: str | None = _f("the word the state after shows once a use leaves none (M19 毒药 \"<毒药>发动后，女巫失去技能"
                           "<毒药>\": `已失去`); leave out: the count left (0, or false)", default=None, examples=["已失去"])
    count: Count | bool | None = _f("what `uses` holds at the start: the post's [X], or true for a skill held "
                                    "until lost (default 1 when `uses` is set)", default=None)
    lost_with: list[str] = _f("the `uses` keys of other skills of its holder: once every one of them is spent (0 or "
                              "false), it is lost too — its own `uses` key becomes false (the state after shows its "
                              "`spent` word), the log says so, and its submissions are refused (M19 设计 \"当<灭口><绑架>"
                              "技能都发动后，绑匪失去<设计>\": `[\"灭口\", \"绑架\"]`); leave out: none",
                              default=[], examples=[["灭口", "绑架"]])
    only_kept: str | None = _f("its targets may only be the player its user keeps in this field — the `keeps` of a "
                               "`chosen_exit` skill of his (M19 灭口/绑架 \"若绑匪选择的目标仍存活\": the <设计> target, "
                               "`设计目标`): any other target is refused as submitted when one is kept already, else at its step, by the "
                               "choice kept then (游戏开始前 in the same settlement), or none. Leave out: any target",
                               default=None, examples=["设计目标"])
    not_first_night: bool = _f("not on night 1 (the post's *)", default=False)
    first_night_only: bool = _f("only on night 1", default=False)
    from_night: Positive | None = _f("not before this night", default=None)
    self_target: Literal["allowed", "never", "first_night", "only"] = _f(
        "may its holder target themself: allowed, never, only on night 1, or only themself", default="allowed")
    no_repeat: str | None = _f("the `state` key of its last use; the same target is refused the next night (a "
                               "skill of `phase = \"day\"`: the next game day, its use recorded as `{target, day}`: "
                               "M65 飞行头槌 \"不可对同一目标连续使用\", a day cast and a lent night use alike)",
                               default=None)
    may_skip: bool = _f(
        "the post lets its holder leave it unused (\"可以\"): a phase he does not submit it is no idle phase for a "
        "`trigger` `on = \"idle\"` (M160 愚者 \"你在夜晚不能进行任何操作，但每个夜晚*，你可以尝试操作两个玩家\": a 丑角 "
        "who tries nothing does not \"在需要操作的夜晚没有行动\"). Leave out: a holder who could use it and submits "
        "nothing is idle", default=False)
    cooldown: Positive | None = _f("at least this many nights between two uses", default=None)
    cooldown_key: str | None = _f("the `state` key the cooldown counts from: the generic engine writes "
                                  "`{target, night}` (or `day`) there each time it settles the skill", default=None)
    per_phase: Positive | None = _f("at most this many submissions of the skill take effect in one night (or day), "
                                    "whoever sends them, in the post's order; later ones are refused (107 <偷袭> "
                                    "每晚仅限发动一次, for all 恶徒 together). Leave out: no such limit",
                                    default=None, examples=[1])
    once_per_target: str | None = _f(
        "the `state` key listing every player it has taken: a player already there is refused as its target, "
        "and the generic engine adds each target it settles (M65 深青之桩 \"每名玩家仅可以被选择一次\"); leave "
        "out: a player may be chosen again", default=None, examples=["深青之桩已选择"])
    only_targets: list[TargetIsT] = _f(
        "each target must be all of these (each read as `when_target` reads it), else the submission is refused at "
        "its step with `only_targets_reason` (213 亲传 \"选择一名狼人阵营[群内]的角色\": faction 狼人 and tag 群内); "
        "leave out: any target", default=[])
    only_targets_reason: str | None = _f(
        "the refusal's words for a target `only_targets` does not allow, `{target}` and `{skill}` standing in; leave "
        "out: the engine's own, naming what the target is not", default=None,
        examples=["<{skill}>只能选择狼人阵营[群内]的角色（{target}不是）"])
    target_dead: bool = _f("targets must be out", default=False)
    target_alive_or_dead: bool = _f("targets may be alive or out", default=False)
    actor_may_be_dead: bool = _f("its holder may use it while out (遗言 skills); a `tonight` skill's day submission "
                                 "stands anyway when its user went out later that day (M65 天璇紫后 cast before the "
                                 "vote holds that night)", default=False)
    lethal: bool = _f("it kills (read by 107's settlement hook only)", default=False)
    gained: bool = _f("players outside `roles` may come to hold it in play (the game's hook decides who)",
                      default=False)
    next_day: bool = _f("a night submission that also acts in the next day's settlement", default=False)
    target_going: bool = _f(
        "its target must be one a `preview` step before it found about to go out this phase (107 死灵咒 \"告死者选择一名"
        "在当晚出局的角色\", chosen at (12) from the (11) list), refused at its step otherwise; leave out: any target",
        default=False)
    tonight: bool = _f("a day submission that also acts in that night's settlement (107 牵制: \"该角色当晚…\")",
                       default=False)
    aliases: list[str] = _f("other names a submission may use", default=[])
    clause: str = _f("the post's sentence", default="")
    note: str = _f("a note for the reader on how the skill is read (the engine does not read it)", default="")
    effects: list[EffectT] = _f("what the generic engine does with it, in order (a game with hooks may leave "
                                "them out)", default=[])
    trigger: TriggerT | None = _f("it acts when its holder goes out (see `trigger`)", default=None)
    spares: SparesT | None = _f("its holders do not go out on some game days (see `spares`); leave out: they do",
                                default=None)
    never_believed_by: list[str] = _f(
        "roles whose players never believe they hold this skill's roles, a rule of the deal (M160 觉醒 \"你不可能是"
        "恶魔\": a 恶魔, who believes he is a 村民 by 【附体】, never believes he is a 护士长): a table where such a "
        "player `believes` one of them is refused before anything is settled (exit 2); leave out: no such rule",
        default=[], examples=[["缚魂灵", "狂煞"]])
    hears: HearsT | None = _f("its holders are told when another player of some factions goes out or flips (see "
                              "`hears`); leave out: they are not", default=None)
    on_use: OnUseT | None = _f("it acts on its holders' uses of another skill, never submitted itself (see "
                               "`on_use`); leave out: it does not", default=None)
    shares_victim: Name | None = _f(
        "its holders' submissions of that skill (a `damage` with `one_victim`) share ONE victim a phase: the "
        "candidates of all of them are one question for the director, the others strike nobody (M160 双生暗影【镜像】 "
        "\"你们不能杀害彼此，而且每晚只会有一名玩家被杀害\"); leave out: each submission its own victim",
        default=None, examples=["凶杀"])
    joins_team: JoinsTeamT | None = _f("its holders know a team's players and share its group, in the reading the "
                                       "ruleset's option chooses (see `joins_team`); leave out: they do not",
                                       default=None)
    last_words: bool = _f(
        "its holders may leave 遗言 whenever and however they go out — but for an exit the post itself strips of them "
        "(213 红牌罚下 \"没有遗言权利\"), which the game's exit asks first (213 绝笔 \"牧首在任意时机出局都可以留下遗言\", with "
        "`tag = \"牧首\"`: the title's bearer holds it); asked by the game's exit through "
        "`tracker.engine.night.words.last_words`. Leave out: the game's own 遗言 rule alone decides",
        default=False)
    keeps_team: bool = _f(
        "a player who becomes one of its `roles` (a flip or a `convert`) keeps the `team` skills of the identity he "
        "had before and of his 原身份 (107 伪装<强制> \"任意角色成为活尸后，不会失去原身份的<团队>技能。\"): he stays a "
        "member of those teams; leave out: a new identity brings only its own skills", default=False)
    forms: list[FormT] = _f("the options its holders choose between when roles are dealt (see `forms`); leave out: "
                            "none", default=[])
    reacts: list[ReactionT] = _f("what happens when another player's skill is cast on its holders (see `reacts`); "
                                 "leave out: nothing", default=[])
    every_submission: bool = _f(
        "every submission of a player is settled at its step, in submission order, none replacing an earlier one "
        "(M65 \"每天限一次\" with <时间回溯> \"次日该技能可以额外使用一次\": the game's refusals take the surplus "
        "away); default: the last submission per player (or per team) counts, \"以最后一条私信为准\"", default=False)
    not_with: list[str] = _f("skills the same player may not also use in the same night "
                             "(同一晚不能同时使用解药和毒药)", default=[])
    distinct_from: list[str] = _f("skills whose targets this phase it may not take, refused at its step "
                                  "(213 捕杀 \"选择一名与当晚[悬赏]不重复的角色\")", default=[], examples=[["悬赏"]])
    immune_to: list[str] = _f(
        "skills whose effects do not take hold on its holders: the effect is logged and does nothing (107 神启者 "
        "神恩 \"神启者不受<诅咒>技能影响\", 虔诚, 神眷者·神恩); `*`: every skill but those in `immune_except` (M65 绿王 "
        "<绝对防御>（强制）\"游戏日任意时刻，对自己使用的技能无效，不包括<绝对切割>\"); a game's hook that settles one of "
        "these skills asks the same (`tracker.engine.night.effects.immunity`); a holder whose `uses` of it are spent "
        "(0 or false) is not immune. Leave out: no immunity", default=[],
        examples=[["诅咒"]])
    immune_told: str | None = _f(
        "with `immune_to`: what its holder is told each time it stops a skill on him, `{actor}` (who used it) and "
        "`{skill}` standing in (M19 女巫 <警觉>（强制）\"当你成为<算计><灭口><觅食>的目标时，此技能无效且得知使用该技能"
        "对象的马甲\"). Leave out: he is told nothing", default=None, examples=["警觉：{actor}对你使用了<{skill}>（无效）"])
    immune_except: list[Name] = _f(
        "with `immune_to = [\"*\"]`: the skills that still take hold on its holders (M65: 绝对切割 \"不包括<绝对切割>\"; "
        "技能掠夺、票权掠夺 \"不会受到任何干扰和反弹\"; the day's exits, no skill). Leave out: none", default=[],
        examples=[["绝对切割"]])
    no_last_words: str | None = _f(
        "its holders leave no 遗言 when they go out, and take no place among those the 遗言 count reaches; the text "
        "is why, in their exit notice (M19 难言<强制> \"忠犬出局时没有遗言，且不消耗遗言数量\"; a game's 公示 asks "
        "`tracker.engine.night.words.silenced`). Leave out: their exits count as any other", default=None,
        examples=["难言：忠犬出局时没有遗言，且不消耗遗言数量"])
    takes_last_words: str | None = _f(
        "the players it takes out (the exit's cause is its name or an alias) leave no 遗言 and take no place among "
        "those the 遗言 count reaches; the text is why, in their exit notice (M19 \"红牌罚下出局的角色没有遗言权利\"). "
        "Leave out: its exits count as any other", default=None, examples=["红牌罚下的角色没有遗言权利"])
    unprotected_from: list[Name] = _f(
        "skills whose lethal damage no protection stops on its holders: a hit of one of them takes its holder out "
        "whatever protects him — a submission's protect, a standing one, a clash (M19 弱受 \"当受成为指杀目标时，不论"
        "受到任何防卫性技能的保护（如<救药>、<救治>等）都将立即出局\"); a game's hook step that settles one of these "
        "skills asks the same (`tracker.engine.night.effects.exposed`). Leave out: protections stop them as they say",
        default=[], examples=[["杀人"]])
    voided_by: list[str] = _f(
        "statuses of its user under which it does nothing when its step comes — its use and `no_repeat` still "
        "count (M160 \"【醉酒】期间发动的其他类型技能无效（一次性技能如果被触发则被消耗）\"); a status the night "
        "file's `status_cancels` cancels does not void it", default=[], examples=[["醉酒", "中毒"]])
    declined_by: list[Name] = _f(
        "words of the submission's `choice` by which its user declines the skill: settled (only its effects that "
        "`when_choice` picks take hold), but no use of `uses` is spent (M160 幕后黑手【夺刀】<限定> \"你可以选择成为"
        "【恶魔】\": 不夺刀). Leave out: every settled submission spends a use", default=[], examples=[["不夺刀"]])
    locks: list[Name] = _f(
        "skills that cannot be used while a holder of this one can use it this phase — holding it, in play (or "
        "`actor_may_be_dead`), on a night it may be used, with uses left, not refused by the game's own rules, not "
        "blocked nor voided (`voided_by`) — asked at the locked skill's step before anything of it is settled or asked; "
        "a game's hook settling a locked skill asks the same (`tracker.engine.night.locks.locked`) (M160 告死邪魔【唆使】 "
        "\"当你能发动此技能时，【恶魔】的【凶杀】技能不能发动\"). Leave out: it locks nothing", default=[],
        examples=[["凶杀"]])
    voided_told: str | None = _f(
        "what its user is told when `voided_by` voids it: the post's answer to a use without effect (M160 密谋 "
        "\"若没有成功选中……则会被告知“密谋失败”\"). Leave out: nothing is told", default=None, examples=["密谋失败"])
    tally: str | None = _f(
        "the `[voting]` key of the ruleset by which the day's tally settles this skill, not a night step "
        "(213/M19 带队 \"计算投票数量时警长投出的票计为1.5票\": `weights`; 107 首领技能: `per_dead_bonus`; "
        "M19 竞岗: `day1`): where the night meets its ruleset, that key must be set there (else a ruleset "
        "error), a submission of the skill is refused, and the coverage counts it as settled from data. "
        "Leave out: the skill is not the tally's", default=None, examples=["weights"])

    @model_validator(mode="after")
    def _holder(self) -> "SkillT":
        if not self.roles and not self.team and not self.tag and not self.tags:
            raise ValueError("既没有 roles 也没有 team、tag 或 tags：写明哪些身份（或哪个团队、哪些标记）拥有这个技能")
        if self.tally is not None and self.tally not in VotingT.model_fields:
            near = difflib.get_close_matches(self.tally, list(VotingT.model_fields), n=1)
            raise ValueError(f"tally = {self.tally!r} 不是 [voting] 的键："
                             + (f"是不是想写 `{near[0]}`？" if near else "写成结算这个技能的 [voting] 键（如 weights）"))
        lo, hi = self.target_range
        if hi < lo:
            raise ValueError("max_targets 小于 min_targets")
        if any(e.kind == "last_night" for e in self.effects) != (self.trigger is not None
                                                                 and self.trigger.on == "partner_exit"):
            raise ValueError("last_night 效果只写在 trigger 为 on = \"partner_exit\" 的技能中，这样的技能要写它")
        if any(e.kind == "ready" for e in self.effects) and not any(r.declared for r in self.reacts):
            raise ValueError("ready 效果说明的是 reacts 中写了 declared 的反应：先写这样的反应")
        names = [f.name for f in self.forms]
        if len(set(names)) < len(names):
            raise ValueError("forms 的 name 重复")
        wrong = [r.form for r in self.reacts if r.form is not None and self.forms and r.form not in names]
        if wrong:
            raise ValueError(f"reacts 的 form {wrong[0]!r} 不是 forms 中的选项（{'、'.join(names)}）")
        off = next((f for f in self.forms if f.targets is not None and not lo <= f.targets <= hi), None)
        if off is not None:
            raise ValueError(f"forms 的 {off.name!r} 写 targets = {off.targets}，不在技能的目标数 {lo}–{hi} 之内")
        return self

    @property
    def target_range(self) -> tuple[int, int]:
        lo = self.min_targets if self.min_targets is not None else (self.targets or 0)
        hi = self.max_targets if self.max_targets is not None else (
            self.targets if self.targets is not None else lo)
        return lo, hi


class TellWrongT(_Table):
    """`wrong = { … }` in a `tell` with `chosen_by` and `distort` — the wrong answer: `picks` players the director
    names among the living ones not truly chosen, each pick a question `<to>.错误.<i>` (seeded, `--decide` overriding
    it), never the same player twice."""

    picks: Positive = _f("how many players the wrong answer names", default=1, examples=[2])
    question: Name = _f("the question to the director", examples=["醉酒的<洞悉>给出的错误玩家"])


class TellPickT(_Table):
    """`pick = { … }` in a `tell` — the director picks roles nobody at the table has, from some role groups
    (M160 窥天 "得知三个本局不存在于场上的村民/外来者身份"): one question per pick, `<to>.<i>` (seeded, the
    director overriding it with `--decide`), each offering the roles not yet picked, in the ruleset's
    `[[roles]]` order. All holders told at the step are told the same picks."""

    groups: Annotated[list[Name], Field(min_length=1)] = _f(
        "the `group`s of the ruleset's `[[roles]]` the roles are picked from", examples=[["村民", "外来者"]])
    count: Positive = _f("how many roles are picked (fewer when fewer are absent)", examples=[3])
    question: Name = _f("the question to the director, `{i}` standing for the pick's number",
                        examples=["<窥天>告知群内爪牙的第{i}个不在场的村民/外来者身份"])


class TellRevealT(_Table):
    """`reveal = { … }` in a `tell` — each holder is told the identities of `count` other living players picked at
    random (M65 <四眼预知>（强制） "游戏开始时可以随机从导演处得知两个非自己角色的具体身份，且从下一个游戏日开始每个游戏日白天
    开始时可以随机从导演处得知三个非自己角色的具体身份"): one question per pick, `<to>.<holder>.<i>` (seeded, the director
    overriding it with `--decide`), each offering the living players not yet picked, in roster order; `{picked}` in
    the tell's `text` and `log` is the picks in `each`'s words joined by `；`. With no other living player he is told
    nothing."""

    count: Positive = _f("how many players are picked (fewer when fewer live)", examples=[3])
    question: Name = _f("the question to the director, `{holder}`, `{i}` (the pick's number) and `{day}` (the game day "
                        "that follows the phase) standing in", examples=["第{day}天白天开始时<四眼预知>：随机告知{holder}的第{i}名角色"])
    each: Name = _f("the words for one pick, `{player}` and `{role}` standing in", default="{player}的身份：{role}")


class TellOneT(_Table):
    """`one_of = { … }` in a `tell` — instead of the holders, one living player (of some actual factions) is
    told, picked by the director (M160 预告 "一名【实际阵营】为【善良阵营】的玩家得知本局存在【告死邪魔】"): once,
    when the skill has a living holder, the question `<to>`; or, with `each`, one for each living holder, the
    questions `<to>.<holder>.<i>` (M160 漫步者【神游】 "若你存活，每个白天，都会有一名你之外的存活玩家（不会重复，由导演随机
    指定）需要对【漫步者】【疯狂】"). Seeded, `--decide` overriding them; `log` is written for each player told."""

    factions: list[Name] = _f("the factions the told player is picked from; leave out: any living player",
                              default=[], examples=[["善良"]])
    question: Name = _f("the question to the director", examples=["<预告>：哪名善良阵营玩家得知本局存在告死邪魔"])
    each: bool = _f("a pick for each living holder (神游 \"每个白天\" for each 漫步者); leave out: one in all", default=False)
    not_holders: bool = _f("never a player who holds the skill (神游 \"你之外\", \"除漫步者和可能存在的模仿漫步者之外\")",
                           default=False)
    once_each: Name | None = _f("the `state` key remembering, per holder, whom he has had picked: never the same "
                                "player twice for him (神游 \"不会重复\"); leave out: no memory", default=None,
                                examples=["神游已选择"])
    count_by_believed: dict[str, Positive] = _f(
        "how many are picked for a holder who believes he is this role, instead of one (M160 模仿者② \"若模仿者【克隆】选择"
        "的是漫步者，那么天亮后会有两个不同玩家……对漫步者【疯狂】\": `{ 模仿者 = 2 }`); leave out: one each",
        default={}, examples=[{"模仿者": 2}])
    exhausted: str | None = _f("with `once_each`: the log's line when nobody is left to pick for a holder, `{step}` "
                               "and `{holder}` standing in (神游 \"漫步者失去【神游】\"); leave out: the engine's own",
                               default=None)


class TellT(_Table):
    """`tell = { … }` in a `[[steps]]` entry — what the director tells a skill's holders at this step. A holder
    whom a `block` this phase voids that skill for is not told (M19 老狼<算计> \"使其在当晚无法发动任何技能\":
    the 女巫 so blocked has no <通灵>)."""

    to: Name = _f("the skill whose living holders are told (解药: the witch)", examples=["解药"])
    about: Name | None = _f("the skill whose targets this phase they are told (杀人: the knife); leave out with "
                            "`count` or `pick`, or for `text` told as written", default=None, examples=["杀人"])
    count: list[Name] = _f("instead of `about`: they are told how many players of these factions are alive, "
                           "`{count}` in `text` — a player counts in his faction and in those his role's "
                           "`also_factions` names (107 虔诚 \"夜晚结束时，慰魂师得知亡灵阵营的存活人数\": 夜行怪 counts); "
                           "leave out: `about`'s targets are told", default=[], examples=[["亡灵"]])
    text: str = _f("the words, `{targets}` standing for the targets (`{count}` for the number, with `count`; "
                   "`{picked}` for the picks, with `pick`); with none of `about`, `count`, `pick`: told as written "
                   "(M160 预告)", default="{targets}")
    living: bool = _f("instead of `about`/`count`/`pick`: they are told the living players, `{living}` in `text` "
                      "(107 灾厄 \"得知存活角色名单\"); leave out: not told", default=False)
    holder_of: Name | None = _f(
        "instead of `about`: the player who holds this tag now, `{targets}` in `text` (107 追踪 \"得知一次[亡灵圣物]的持有者\"); "
        "nobody holding it: nobody is told and the step writes no line. Leave out: `about`'s targets",
        default=None, examples=["亡灵圣物"])
    unless_team_holds: str | None = _f(
        "with `holder_of`: when the tag's holder is himself a member of `to`'s team — he holds `to`, or kept it from his "
        "`原身份` as a `keeps_team` role does (107 伪装 \"任意角色成为活尸后，不会失去原身份的<团队>技能\") — nobody is told "
        "and this line is logged, `{step}` standing in (107 追踪 \"如果[亡灵圣物]的持有者不是恶徒或恶徒群内的活尸\"); "
        "leave out: told whoever holds it", default=None,
        examples=["{step} 追踪：[亡灵圣物]的持有者是恶徒或恶徒群内的活尸 → 不结算"])
    while_alive: WhileAliveT | None = _f(
        "only while at least `at_least` living players have one of `roles`; fewer: nobody is told and `lapsed` is "
        "logged (107 追踪 \"当恶徒只存活一人时，追踪失效\": `{ roles = [\"恶徒\"], at_least = 2 }`); leave out: "
        "whoever lives", default=None)
    lapsed: str | None = _f("with `while_alive`: the log's line when too few live, `{step}` standing in; leave out: "
                            "\"{step} <to>失效\"", default=None, examples=["{step} 追踪：恶徒只存活一人 → 追踪失效"])
    factions: list[Name] = _f("only the holders who count in one of these factions (as `count` counts them) are told "
                              "(107 灾厄 \"若[亡灵圣物]的持有者属于亡灵阵营，其将得到导演通知\"); leave out: whatever their "
                              "faction", default=[], examples=[["亡灵"]])
    empty: str = _f("the words when that skill has no target this phase (`going`: when nobody is about to go out)",
                    default="无")
    untold: str | None = _f("the log's line when no living holder is told, `{step}` standing in (107 (11) \"{step} 场上没有"
                            "告死者 → 无<告死>反馈，无<死灵咒>\"); leave out: no line", default=None,
                            examples=["{step} 场上没有告死者 → 无<告死>反馈"])
    going: bool = _f("instead of `about`: the players this step's `preview` found about to go out, `{targets}` in "
                     "`text` (107 告死<强制> \"告死者获得每个游戏日夜晚的即将出局者名单\"); leave out: `about`'s targets",
                     default=False)
    while_uses: bool = _f("only while the holder still has a use of `to` (解药用掉之后不再告知刀口)", default=False)
    also: list[Name] = _f("more skills whose targets this phase are told with `about`'s, in step order, each "
                          "player once (213 灵通 \"反馈被指杀的角色\": the targets of 杀人 and of 捕杀)",
                          default=[], examples=[["捕杀"]])
    unless_status: list[Name] = _f("holders with one of these statuses are not told (213 [净化]：\"[强制]技能也会"
                                   "失效\"); leave out: every living holder is", default=[], examples=[["净化"]])
    log: str | None = _f("the settlement log's line for each holder told, `{step}` (the step's number as shown), "
                         "`{holder}` and `{targets}` (the targets, or `无`) standing in (M19 通灵 \"{step} 女巫{holder}通灵："
                         "被指杀的是{targets}\"); `{picked}` too, with `pick`; with `one_of`, the line for each player "
                         "told, `{told}` (M160 预告 \"{step} 预告：{told}得知本局存在告死邪魔\"); with `reveal`, `{day}` (the "
                         "game day that follows the phase) too; `{text}`: the words told the holder; default: the engine's "
                         "own line, naming the holder and the words told",
                         default=None, examples=["{step} 女巫{holder}通灵：被指杀的是{targets}"])
    pick: TellPickT | None = _f("instead of `about`/`count`: the director picks roles nobody at the table has, "
                                "`{picked}` in `text` (see `pick`); leave out: no pick", default=None)
    one_of: TellOneT | None = _f("instead of the holders: one living player of these factions, picked by the "
                                 "director, is told (see `one_of`); leave out: every living holder is told",
                                 default=None)
    reveal: TellRevealT | None = _f("instead of `about`/`count`/`pick`: each holder is told the identities of players "
                                    "picked at random (see `reveal`); leave out: none", default=None)
    chosen_by: list[Name] = _f("instead of `about`: the players that the players of these role groups (their `type`, "
                               "else their role's `group`) chose this phase — every submission of theirs, whatever its "
                               "skill or step, its targets once the redirects have had their say, each player once — "
                               "`{targets}` in `text`; a holder of one of these groups himself is not told (M160 "
                               "幕后黑手【洞悉】 \"你知道【恶魔】每晚选择的玩家\": the 恶魔 chooses through the skills of the "
                               "role he believes he has; after 夺刀 the 幕后黑手 is the 恶魔); leave out: `about`'s targets",
                               default=[], examples=[["恶魔"]])
    distort: DistortT | None = _f("with `chosen_by`: while the holder holds one of `by` (not cancelled), the players told "
                                  "are, with the chance, the `wrong` ones (M160 \"【醉酒】……信息类技能则大概率（90%）获取"
                                  "错误信息\"; question `<by[0]>错误.<holder>.<to>`); leave out: always the true ones",
                                  default=None)
    wrong: TellWrongT | None = _f("with `distort`: see `wrong`", default=None)
    summary: str | None = _f("instead of a line per holder: the log's one line for the step once all are told, in "
                             "the post's words, `{step}`, `{told}` (the holders told) and `{picked}` standing in "
                             "(M160 窥天, one line for the group); leave out: a line per holder", default=None,
                             examples=["{step} 窥天：群内爪牙{told}得知本局不存在的身份：{picked}"])

    @model_validator(mode="after")
    def _what(self) -> "TellT":
        given = [k for k, v in (("about", self.about), ("count", self.count), ("pick", self.pick),
                                ("reveal", self.reveal), ("going", self.going),
                                ("chosen_by", self.chosen_by), ("living", self.living),
                                ("holder_of", self.holder_of)) if v]
        if len(given) > 1:
            raise ValueError("tell 写 about（告知某技能的目标）、count（告知某些阵营的存活人数）、pick（导演挑选的身份）、"
                             "reveal（随机告知其他玩家的身份）、going（即将出局者名单）、chosen_by（某些类型的玩家今晚选择的玩家）"
                             "、living（存活角色名单）或 holder_of（某标记的持有者），只写一个")
        if not given and ("text" not in self.model_fields_set or "{" in self.text):
            raise ValueError("tell 写 about、count、pick、reveal、going、chosen_by、living 或 holder_of 之一；都不写时 text 是告知的原话（不含 {…}）")
        if self.reveal is not None and self.model_fields_set & {"one_of", "summary"}:
            raise ValueError("tell 的 reveal 每名持有者各自随机，不与 one_of、summary 一起写")
        if (self.distort is not None or self.wrong is not None) and not (self.chosen_by and self.distort and self.wrong):
            raise ValueError("tell 的 distort 与 wrong 一起写，且只与 chosen_by 一起写（错误的答案是导演挑选的玩家）")
        if self.also and self.about is None:
            raise ValueError("tell 的 also 只与 about 一起写")
        if self.unless_team_holds is not None and self.holder_of is None:
            raise ValueError("tell 的 unless_team_holds 只与 holder_of 一起写")
        if self.lapsed is not None and self.while_alive is None:
            raise ValueError("tell 的 lapsed 只与 while_alive 一起写")
        return self


class StepT(_Table):
    """`[[steps]]` — the post's settlement order, one step each, in order. The generic engine walks them;
    what no step lists is settled after them, in submission order."""

    n: str = _f("the post's own step number, shown as `(n)` in the log (as written when it has its own brackets: "
                "213 `夜(3)`); `[win_policy] checks_at` may name what is shown to check the win after it",
                default="", examples=["3"])
    skills: list[str] = _f("the skills settled at this step, in this order (the last submission per player, or "
                           "per team, counts)", default=[])
    tell: TellT | None = _f("see `tell`", default=None)
    feedback: Name | None = _f(
        "a skill with a `watch` effect: the target it remembered at the night this phase belongs to (a night, or "
        "the day phase after it) is looked at here — announced out in this settlement (公示出局), the record's "
        "`成功` becomes true and the skill's holders are told the effect's `text`; else nothing (213 悬赏 \"若该"
        "角色在下一个[晨曦]阶段公示出局，则反馈<悬赏成功>\" at 晨曦). A skill whose `learn` asks `role_if_dies`: its "
        "submissions settled earlier this phase are answered here (M160 守墓, after the night's deaths); one whose "
        "`learn` asks `night_of` too (M160 诊断 at 晨曦). Leave out: "
        "no feedback here",
        default=None, examples=["悬赏"])
    resolve: bool = _f("pending damage meets the protections and the `[[clashes]]`: who goes out", default=False)
    preview: bool = _f(
        "the damage pending so far is settled as a dry run — nothing is spent, nobody goes out — and the players it "
        "would take out are this phase's list of those about to go out, which this step's `tell` may tell (`going`) "
        "and a skill's `target_going` restricts its targets to (107 (11) \"初步结算致死伤害和出局效应。告死者得到<告死>反馈。\"); "
        "a game whose damage flow is its hooks' own answers through `GameHooks.preview`. Leave out: no such list "
        "(a `target_going` skill then has no target it may take)", default=False)
    hook: str | None = _f("a step only the game's code settles, by the name its `GameHooks.steps` gives it: "
                          "the generic engine hands it the submissions of the skills this step lists, and "
                          "counts them as settled by a hook (M160 投票结算)", default=None)
    phase: Phase = _f("the phase it belongs to (night; day, 晨曦 … for the day's exits)", default="night")
    phases: list[Phase] = _f("every phase it belongs to, for a step the post runs in several (107's vote and "
                             "its (19)–(20) end whichever day phase is settled); empty: `phase` alone", default=[])
    nights: Literal["all", "first", "later"] = _f("first: night 1 only (首夜); later: from night 2", default="all")
    sent: Literal["any", "day", "night", "setup", "in_play"] = _f(
        "whose submissions it settles by the phase they were sent in: `day` — a `tonight` skill's day submissions "
        "handed to the night (and every submission of a day phase), `night` — the night's own (M65 "
        "\"3、紫王天璇紫后、银鸦飞行头槌\": the day's casts land before the day's exits, one lent by 技能掠夺 and "
        "used at night at (3)); `setup` — those sent 游戏开始前, `in_play` — all the others (M19 设计: the choice "
        "游戏开始前 at 流程1, a new one \"当目标因任何原因出局时\" once the phase's exits are over). Leave out: all of them",
        default="any")
    game_start: bool | None = _f(
        "true: the step runs only in a settlement holding submissions sent 游戏开始前 (the post's 游戏开始时: M65 "
        "\"分发身份完毕后……进行抉择\", and <四眼预知> \"游戏开始时……得知两个\"); false: only in any other. Leave out: "
        "in both", default=None)
    by: Literal["any", "holders", "others"] = _f(
        "whose submissions of the listed skills this step settles: `holders` — those of the players who hold the "
        "skill by role (or tag) as the phase begins; `others` — those of anyone else, who uses it by a copy, a gain or "
        "a lending (the game's `grants`), so a post that ranks the holder's use before a taken one lists the skill "
        "twice (M65 \"0、黑王绝对切割 1、掠夺者技能掠夺得到的绝对切割\"); `any`: all of them", default="any")
    clause: str = _f("the post's sentence", default="")


class ClashT(_Table):
    """`[[clashes]]` — protections that kill, or fail, when they meet on one player (同守同救 / 奶穿)."""

    protections: list[str] = _f("the protecting skills (at least two)", min_length=2, examples=[["守护", "解药"]])
    cause: Name = _f("the cause the death records (`then = \"kill\"`), or the reason the log gives", examples=["同守同救"])
    then: Literal["kill", "void"] = _f("what the meeting does: `kill` the player (werewolf-12 同守同救 → 死亡), or "
                                       "`void` the protections, so the damage meets no protection of theirs (213 "
                                       "[救药]和[守护]均无效)", default="kill")
    clause: str = _f("the post's sentence", default="")


class FlipT(_Table):
    """`[flip]` in a night file — the post's one 翻转身份: each identity has a paired one a flip turns it into, and a
    player of a paired identity flips back to the identity he had (107 "每种人类身份都对应了亡灵身份";
    "当一名角色转化身份时，该角色受到通知，失去当前所有身份技能……并获得对应身份的身份技能"). Flipping to the paired identity keeps the one
    he had in the player's `原身份` field and makes his `uses` the new identity's counted skills at their `count`;
    flipping back restores `原身份` (asked of the director when the table does not say it) with its faction and keeps
    his `uses` unless the effect says `strip`. A `convert` effect with `flip = true` and the game's own hook steps
    flip through it alike; what a new identity sets off in a game is its hooks' `flipped`."""

    pairs: dict[Name, Name] = _f("each identity → the identity it flips to", examples=[{"村长": "恶灵", "民兵": "活尸"}])
    faction: Name = _f("the faction a player joins when he flips to the paired identity", examples=["亡灵"])
    kept_faction: dict[Name, Name] = _f(
        "identity → the player field that keeps the faction he had when he flipped, restored when he flips back (107 "
        "守夜人 → 守夜人阵营: \"当首个非亡灵阵营角色全部出局时，守夜人加入该阵营\"); default: flipping back restores the "
        "identity's faction in the ruleset's `[[roles]]`", default={})
    told: str = _f("what a player flipping to the paired identity is told, `{role}`, `{faction}` and `{before}` (the "
                   "identity he leaves) standing in", default="翻转身份：你成为{role}（{faction}阵营），失去{before}的所有身份技能")
    told_back: str = _f("what a player flipping back is told, `{role}` and `{faction}` standing in",
                        default="翻转身份：你成为{role}（{faction}阵营）")
    told_stripped: str = _f("what a player flipping back with `strip` is told", default="翻转身份：你成为{role}（{faction}阵营），并失去所有技能")
    asked: str = _f("the director's question when a player of a paired identity flips back and the table does not say "
                    "the identity he had, `{player}` and `{role}` standing in",
                    default="{player}（{role}）翻转回哪个身份（原身份未记录）")
    clause: str = _f("the post's sentence", default="")


class NightT(_Table):
    """The night file (`rulesets/night/<id>.toml`, or a `[night]` table inside a ruleset file)."""

    ruleset: str | None = _f("the ruleset's id (required in a separate night file; inline it is the ruleset's)",
                             default=None, examples=["luoluo-m19"])
    skills: list[SkillT] = _f("see `[[skills]]`", default=[])
    scenario_game: str | None = _f("the shared scenario file's `game` this ruleset plays", default=None)
    night_precedes_day: bool = _f("night N comes before day N (213: 首夜, then 第1天)", default=False)
    exile_skill: str | None = _f("the skill `tracker confirm` submits the vote's exile as", default=None)
    red_card_skill: str | None = _f("the skill a 红牌's 出局 is submitted as; settled from data (it has `effects`) it must set "
                                    "`every_submission`, since each card is the director's own decision and a second "
                                    "one the same day must not replace the first", default=None)
    steps: list[StepT] = _f("see `[[steps]]`", default=[])
    clashes: list[ClashT] = _f("see `[[clashes]]`", default=[])
    statuses: list[str] = _f("statuses a scenario of this game may name beyond those its effects give", default=[])
    status_cancels: dict[str, list[str]] = _f(
        "a status → the statuses it cancels while its holder has it: they void nothing (`voided_by`) and count as "
        "not held (M160 \"【清醒】：免疫【醉酒】与【中毒】……优先级高于【醉酒】与【中毒】\")", default={},
        examples=[{"清醒": ["醉酒", "中毒"]}])
    state_keys: list[str] = _f("`state` keys a scenario of this game may name beyond those its skills read "
                               "(`no_repeat`, `cooldown_key`) and its tags", default=[])
    originals_first: bool = _f(
        "at each step, the submissions of a skill's holders by role (or by tag) settle before those of players who "
        "gained it in play (拓印, 超度 …), each group in submission order (107 \"学者拓印的技能在原版之后结算\"); "
        "default: in submission order", default=False)
    flip: FlipT | None = _f("see `[flip]`; leave out: no identity flips (a `convert` with `flip` is refused)", default=None)
    pairs: list[Annotated[list[Name], Field(min_length=2, max_length=2)]] = _f(
        "marks that bind two players, each pair of marks the two ends of one bond: the player carrying one end is "
        "the partner of the player carrying the other (M19 情侣 \"游戏开始时被丘比特选择的两名角色成为情侣\": "
        "`[[\"情侣:攻\", \"情侣:受\"], [\"情侣:主人\", \"情侣:忠犬\"]]`), read by an effect's `to = \"partner\"`. "
        "Leave out: nobody has a partner", default=[], examples=[[["情侣:攻", "情侣:受"]]])
    out_do_not_act: bool = _f("a submission whose actors have all gone out earlier in the same settlement is not "
                              "settled, and the log says so (M19 \"以下身份如未出局、未失去技能，依次选择发动技能\"); "
                              "default: a submission that passed the refusals at the start is settled at its step "
                              "(a skill with `trigger` or `actor_may_be_dead` always is)", default=False)


# -- the whole file ------------------------------------------------------------------------------


class RulesetT(_Table):
    """A ruleset file: top-level keys; every table below is optional unless marked required."""

    id: Name = _f("the ruleset's id (`tracker rulesets`, the game file's `ruleset`)", examples=["luoluo-m19"])
    name: Name = _f("the game's name", examples=["少年落落之烦恼"])
    source: Name = _f("the rule post's title", examples=["[M19]『少年落落之烦恼』——规则帖"])
    players: Annotated[int, Field(ge=1, le=1000)] = _f("the table's size", examples=[14])
    hooks: str | None = _f("the Python hook set for win conditions data cannot say "
                           "(`tracker/engine/rulesets/hooks.py`)", default=None)
    night: str | NightT | None = _f(
        "the night file (skills as data): a path relative to this file, or the night inline as a `[night]` "
        "table; a bundled ruleset without it uses `rulesets/night/<id>.toml`", default=None)
    numbered_players: bool = _f(
        "players are numbered in sign-up order and called by number (werewolf-12 \"玩家按报名顺序编号 1—12 号\"): "
        "`tracker init` gives each `[[players]]` its `seat`, so ballots may name a number", default=False)
    substitutes_per_role: Count | None = _f("替补 one role may have (每名角色仅限更换一次替补: 1)", default=None)
    factions: list[FactionT] = _f("see `[[factions]]` (at least one)", min_length=1,
                                  examples=[[{"name": "狼人"}]])
    roles: list[RoleT] = _f("see `[[roles]]`", default=[])
    role_groups: list[RoleGroupT] = _f("see `[[role_groups]]`", default=[])
    voting: VotingT = _f("see `[voting]`", default=VotingT())
    lurk: LurkT = _f("see `[lurk]`", default=LurkT())
    cards: CardsT = _f("see `[cards]`", default=CardsT())
    days: DaysT = _f("see `[days]`", default=DaysT())
    publication: PublicationT = _f("see `[publication]`", default=PublicationT())
    win: list[WinT] = _f("see `[[win]]`", default=[])
    win_policy: WinPolicyT = _f("see `[win_policy]`", default=WinPolicyT())
    speech: SpeechT = _f("see `[speech]`", default=SpeechT())
    last_words: LastWordsT = _f("see `[last_words]`", default=LastWordsT())
    tags: list[TagT] = _f("see `[[tags]]`", default=[])
    forbidden: list[ForbiddenT] = _f("see `[[forbidden]]`", default=[])
    options: list[OptionT] = _f("see `[[options]]`", default=[])
    detectors: list[DetectorT] = _f("see `[[detectors]]`", default=[])


#: Every table of the format, in the order the documentation shows them, with its TOML header.
TABLES: tuple[tuple[str, type[_Table]], ...] = (
    ("(top level)", RulesetT), ("[[factions]]", FactionT), ("[[roles]]", RoleT), ("[roles.couple]", CoupleT),
    ("[[role_groups]]", RoleGroupT), ("[voting]", VotingT), ("[[voting.weights]]", WeightT),
    ("[voting.per_dead_bonus]", PerDeadBonusT), ("[[voting.day1]]", ElectionT),
    ("[[voting.modifiers]]", ModifierT), ("[lurk]", LurkT), ("[cards]", CardsT), ("[days]", DaysT),
    ("[publication]", PublicationT), ("[[win]]", WinT), ("when", ConditionT), ("player set", PlayerSetT),
    ("share_of_living_at_least", ShareT), ("each_alive_at_most", EachAtMostT),
    ("living_at_most", LivingAtMostT), ("tag_holder_in", TagHolderT), ("[win_policy]", WinPolicyT),
    ("[speech]", SpeechT), ("[last_words]", LastWordsT), ("[[tags]]", TagT), ("[[forbidden]]", ForbiddenT), ("[[detectors]]", DetectorT), ("[[options]]", OptionT),
    ("night file (or [night])", NightT), ("[[steps]]", StepT), ("tell", TellT), ("pick", TellPickT), ("reveal", TellRevealT), ("one_of", TellOneT),
    ("wrong", TellWrongT),
    ("[[clashes]]", ClashT), ("[flip]", FlipT),
    ("[[skills]]", SkillT), ("effects", EffectT), ("when_target", TargetIsT), ("distort", DistortT),
    ("misread", MisreadT), ("consent", ConsentT), ("questions", QuestionT), ("pairs", PairsT), ("recount", RecountT),
    ("reveal (learn)", RevealT), ("trigger", TriggerT),
    ("reacts", ReactionT), ("forms", FormT),
    ("while_alive", WhileAliveT),
    ("spares", SparesT),
    ("hears", HearsT),
    ("joins_team", JoinsTeamT),
    ("on_use", OnUseT),
)
