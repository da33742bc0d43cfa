"""The shape of a game's rules: the frozen dataclasses and Literal vocabularies a ruleset file becomes.

Split from :mod:`tracker.engine.ruleset` so that the rest of the engine (roster, days, outcome, tally)
can depend on what a rule *is* without pulling in how a TOML file is read and checked.
Everything here is also importable from :mod:`tracker.engine.ruleset`, the public door.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tracker.errors import RulesetError

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Catalog

Tie = Literal["nobody", "first_to_top"]
AccelChanges = Literal["allowed", "forbidden", "void_all"]
Threshold = Literal["none", "half_living"]
RedConsequence = Literal["benched", "out"]
RedSettled = Literal["before_vote", "after_vote"]
RequestThreshold = Literal["half_living", "more_than_half_living"]
ModifierEffect = Literal["received_add", "received_multiply", "void_voter", "toggle_vote_right",
                         "announced_add", "voter_add"]
ConditionKind = Literal["all_out", "any_out", "none_alive", "share_of_living_at_least",
                        "each_alive_at_most", "living_at_most", "tag_holder_in", "declared", "hook",
                        "red_cards_at_least", "all", "any"]
WinResult = Literal["win", "lose"]
CheckTiming = Literal["every_event", "same_time"]
ChangeRule = Literal["quote_own", "latest_valid"]

#: ``[lurk] content_free = true``: posts of nothing but these words (besides punctuation, emoji and
#: blanks) say nothing — werewolf-12 三、4 "纯表情/纯标点/“顶”“路过”之类无实质内容的帖不算".
CONTENT_FREE_WORDS: tuple[str, ...] = ("顶", "路过", "沙发", "板凳", "前排", "围观", "打卡", "冒泡", "签到",
                                       "mark", "+1", "1", "up", "dd", "ding", "水", "飘过", "潜水", "报到")


@dataclass(frozen=True, slots=True)
class Faction:
    name: str
    aliases: tuple[str, ...] = ()
    size: int | None = None          # fixed size where the post gives one (M160: 善良 10, 邪恶 4)
    description: str = ""


@dataclass(frozen=True, slots=True)
class Role:
    """One identity (身份); ``count`` is exact unless ``max_count`` says the post gives a range."""

    name: str
    faction: str
    count: int = 1
    max_count: int | None = None
    group: str | None = None         # M160: 村民 / 外来者 / 爪牙 / 恶魔
    tags: tuple[str, ...] = ()       # e.g. "can_vote" (107), "群内"
    description: str = ""
    # The only counts the post allows, when not a range: M160 双生暗影 "两名玩家为双生暗影" → (0, 2).
    counts: tuple[int, ...] = ()
    # Modifiers that do not take on this role: M65 绿王 <绝对防御> "游戏日任意时刻，对自己使用的技能无效".
    immune_to: tuple[str, ...] = ()
    # Factions the role also counts in for win checks: 107 夜行怪 "在结算时同时计入亡灵阵营与守夜人所属阵营".
    also_factions: tuple[str, ...] = ()
    # M19 变异丘比特 "双民丘比特变民，双狼丘比特变狼……双大特丘比特变大特": when both holders of ``couple_tag``
    # have roles in one of these sets, this role counts as that set's roles in win checks.
    couple_tag: str = ""
    couple_sets: tuple[tuple[str, ...], ...] = ()

    @property
    def upper(self) -> int:
        return self.count if self.max_count is None else self.max_count


@dataclass(frozen=True, slots=True)
class RoleGroup:
    """How many players the roles of a group may have together (min–max), and how many different
    roles of it may be dealt (``kinds_max``: M160 恶魔 "4选1"). Members are the roles whose ``group``
    is the name, or those named in ``roles`` (M160 强神 "50%概率有一个，50%概率有两个": 护士长, 心理学家;
    邪恶 爪牙+恶魔 "总和为4")."""

    name: str
    min: int
    max: int
    roles: tuple[str, ...] = ()
    kinds_max: int | None = None


@dataclass(frozen=True, slots=True)
class WeightRule:
    """A voter's weight: by tag (警长) or role; ``hidden`` weights are counted but not announced."""

    weight: float
    tag: str | None = None
    role: str | None = None
    hidden: bool = False
    clause: str = ""


@dataclass(frozen=True, slots=True)
class PerDeadBonus:
    """107: 恶徒首领's vote counts one more for each 恶徒 already out."""

    tag: str
    per_role: str
    bonus: float = 1.0
    clause: str = ""


@dataclass(frozen=True, slots=True)
class Election:
    """One vote of day 1: ``purpose`` is sheriff/patriarch/god_chosen/exile; ``tag`` is what it gives."""

    purpose: str
    tag: str | None = None
    tie: Tie = "nobody"
    thread: int = 0                       # index into the day's vote threads (213 has two)
    all_may_vote: bool = True             # 107: everyone votes for 神眷者 though few have 票权 later
    nobody_out_if_top: str | None = None  # M65: 预知者 top-voted on day 1 = nobody out
    clause: str = ""
    # werewolf-12 四、1 "在投票帖以“警长投票：X”投票": the ballot's own label, so one vote thread holds
    # this election and the day's exile; None = the ordinary 投票对象 (a thread of its own).
    keyword: str | None = None
    # "16:00 — 18:00": the election's own window on the day's date (None = the day's).
    opens: str | None = None
    closes: str | None = None
    # "截止 18:00，17:00 后改票无效": the election's change freeze (None = the voting table's).
    freeze_minutes: int | None = None
    # "10:00 — 12:00 在讨论帖回复“上警”即为参选；12:00 前可回复“退水”退出竞选": candidates by posts.
    signup_word: str | None = None
    withdraw_word: str | None = None
    signup_closes: str | None = None
    # "上警（含已退水者）不得投票".
    candidates_may_vote: bool = True
    # "全员上警或无人上警 → 警徽流失".
    no_office_if_all_or_none: bool = False


@dataclass(frozen=True, slots=True)
class ModifierSpec:
    """A vote modifier the director records (hidden ones are not announced).

    effect: received_add (基佬情深 +2/−2, 流言 announced +2), received_multiply (深青之桩 ×2),
    void_voter (票权掠夺), toggle_vote_right (权势, one day), voter_add.
    """

    name: str
    effect: ModifierEffect
    value: float = 0.0
    public: bool = False
    duration: Literal["day", "game"] = "day"
    clause: str = ""
    once_per_player: bool = False   # M65 深青之桩/天枢剑圣 "每名玩家仅可以被选择一次"


@dataclass(frozen=True, slots=True)
class VotingRules:
    change_limit: int | None = None
    freeze_minutes: int = 0
    freeze_blocks_proxy: bool = False
    proxy_deadline_minutes: int = 0
    accelerated_changes: AccelChanges = "allowed"
    tie: Tie = "nobody"
    threshold: Threshold = "none"
    weights: tuple[WeightRule, ...] = ()
    eligible_voter_roles: tuple[str, ...] | None = None
    eligible_voter_tags: tuple[str, ...] = ()
    eligible_voter_factions: tuple[str, ...] = ()
    per_dead_bonus: PerDeadBonus | None = None
    day1: tuple[Election, ...] = ()
    dead_last_vote: bool = False
    noon_exception: bool = False
    hidden_modifiers: tuple[str, ...] = ()
    modifiers: tuple[ModifierSpec, ...] = ()
    exile_needs_unique_top: bool = True
    public_votes: bool = False
    # What an edited ballot counts as. None: the post says nothing — count what the forum shows and
    # flag it for the director. True (M19 "修改错别字不算做改票"): an edit that keeps the target counts,
    # one that changes it does not. False (213 "无效票须通过重新发帖来更正"): no edit counts; the
    # ballot as first recorded does.
    edits_allowed: bool | None = None
    # M65 (option): "freeze" = "关门前一小时不允许改票或代投" bars every 代投 in the last hour;
    # "thirty_minutes" = 玩家须知 9: a first 代投 may come until 30 minutes before, a 代投改票 needs 1 hour.
    proxy_window: Literal["freeze", "thirty_minutes"] = "freeze"
    # 213 (option): the noon exception ("即使在禁止改票的时间内也可以进行一次改票") also on an accelerated day.
    noon_exception_accelerated: bool = False
    # M19 (option): 基佬情深's hidden ±2 ("投到攻身上的票数暗记+2") only for a player with at least one vote.
    received_add_needs_votes: bool = False
    # The seed posts' format has a 投票理由 line ("缺少投票理由" is a format error); werewolf-12 三、3(2)
    # "投票格式必须严格为一行：投票对象：X" has none.
    reason_required: bool = True
    # What makes a later ballot replace an earlier one. "quote_own" (the seed posts): a 改票 in the
    # 改票 format quoting one's own vote floor. "latest_valid" (werewolf-12 "以……该玩家在投票帖中的
    # 最后一个有效投票帖为准"): the player's last valid ballot counts, nothing is quoted.
    change_rule: ChangeRule = "quote_own"
    # The words that abstain: "投票对象：弃权" (the seed posts), "投票对象：弃票" (werewolf-12).
    abstain_words: tuple[str, ...] = ("弃权",)
    # werewolf-12 "21:00 及之后的投票帖……一律无效": the freeze stops first votes too, not only 改票.
    freeze_blocks_first_votes: bool = False
    # werewolf-12 "21:00 之前从未有效投票者，视为弃票".
    no_vote_abstains: bool = False
    # werewolf-12 "编辑帖以导演看到的最后编辑时间为准，21:00 前编辑视为新帖": an edited ballot counts as
    # posted at its edit time, and one edited in the freeze is invalid.
    edits_as_new_ballot: bool = False

    def modifier(self, name: str) -> ModifierSpec | None:
        return next((m for m in self.modifiers if m.name == name), None)

    @property
    def abstain_word(self) -> str:
        """The word the tally, the 公示 and the TUI print for an abstention: the first of
        ``abstain_words`` ("弃票请写：投票对象：弃票"; the seed posts' 弃权), so the director reads the
        post's own word wherever an abstention is shown."""
        return self.abstain_words[0]


@dataclass(frozen=True, slots=True)
class LurkRules:
    """潜水. A rule is on only when its key is written: ``min_posts`` / ``three_day_min`` None = no such
    rule (werewolf-12 has no three-day rule; leaving the key out used to switch one on)."""

    min_posts: int | None = None
    three_day_min: int | None = None
    three_day_span: int = 3
    no_vote_penalty: bool = False
    dead_not_out_exempt_from_vote: bool = False
    kidnapped_exempt_from_min_posts: bool = False
    accelerated_suspends: bool = True
    card: str = "yellow"
    clause_min_posts: str = ""
    clause_three_day: str = ""
    clause_no_vote: str = ""
    # werewolf-12 三、4 "纯表情/纯标点/“顶”“路过”之类无实质内容的帖不算": posts saying nothing else
    # than these words (or nothing, or only punctuation and emoji) are not counted. Empty = every
    # post counts (the seed posts say nothing of it).
    content_free_words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardRules:
    blue_to_yellow: int = 3
    yellow_to_red: int = 3
    red_consequence: RedConsequence = "benched"
    red_turns_role: str | None = None
    faction_loses_at_reds: int | None = None
    red_settled: RedSettled = "before_vote"
    out_players_carded: bool = True
    clause: str = ""


@dataclass(frozen=True, slots=True)
class PublicationRules:
    """What the director publishes and in which order (公示, 电梯楼).

    ``elevator``: "author" links each player's ID to Discuz's 只看该作者 view (107, M19, M160);
    "posts" links every post (213: 电梯包含每名角色当天所有发言的链接). ``out_order`` is how an
    出局 list is sorted: skill settlement order (107), elevator order (213), the order players went
    out (M19, M65). ``titles`` are the tags announced at each day's start (警长, 牧首, 神眷者).
    """

    elevator: Literal["author", "posts"] = "author"
    elevator_shuffle: bool = False
    out_order: Literal["settlement", "elevator", "chronological"] = "chronological"
    titles: tuple[str, ...] = ()
    clause: str = ""
    last_words: bool = True   # M160 "本局游戏没有遗言": no 遗言 line in the 公示


@dataclass(frozen=True, slots=True)
class DayRules:
    length_days: int = 2
    weekend_extension: int = 1
    first_day_extended: bool = True
    first_day_accelerated: bool = False
    auto_accelerate_at_living: int | None = None
    request_threshold: RequestThreshold = "half_living"
    request_cutoff_hours: float | None = 3.0
    requests: tuple[str, ...] = ("accelerate", "delay")
    close_time: str = "22:00"
    clause: str = ""


@dataclass(frozen=True, slots=True)
class PlayerSet:
    """Players matching every given filter (an empty filter matches all): 村民阵营的村民 = faction ∩ role."""

    factions: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Condition:
    """One test over the game state; ``sets`` are unioned, ``parts`` are for all/any."""

    kind: ConditionKind
    sets: tuple[PlayerSet, ...] = ()
    fraction: float = 0.0
    n: int = 0
    tag: str = ""
    name: str = ""
    parts: tuple[Condition, ...] = ()
    # red_cards_at_least: the rule's own faction holds ``n`` or more red cards (同一阵营的角色累计获得两张
    # 或以上红牌时，阵营判负), counted by the fold from the ledger's consequences.
    # living_at_most only: ``n`` grows by ``plus`` for each successful recorded action ``name``
    # (107 夜之牙 "每当此技能使一名亡灵阵营角色出局时，中立阵营判胜所需人数+2").
    plus: int = 0


@dataclass(frozen=True, slots=True)
class WinRule:
    id: str
    faction: str
    result: WinResult
    when: Condition
    clause: str
    text: str = ""
    only_if: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WinPolicy:
    """How the post resolves several results at once.

    ``priority``: rule ids or faction names, first wins (213: 狼人; 107: the later faction;
    M65 its listed order). ``last_standing_wins``: 场上仅有一个阵营尚未被判负时宣布此阵营胜利.
    ``co_win``: factions that may win alongside another (107 中立).
    ``check``: when the day's fold checks (after every event, or every batch of simultaneous ones).
    ``checks_at``: the points of a night's (or day phase's) settlement where the same check runs:
    ``start`` (before anything is settled), ``death`` (after each death and what it sets off),
    ``end`` (once the phase is settled), or a step of the post's order as the game's settlement
    names it (107's ``(17)``). ``stops``: a win reached there ends the settlement at once.
    ``losses_at``: points where only losses are judged (M65 优先判负 on every death; its wins at the end).
    """

    priority: tuple[str, ...] = ()
    last_standing_wins: bool = True
    co_win: tuple[str, ...] = ()
    check: CheckTiming = "same_time"
    surrender: tuple[str, ...] = ()
    clause: str = ""
    checks_at: tuple[str, ...] = ("end",)
    stops: bool = False
    losses_at: tuple[str, ...] = ()
    #: The post's sentence for ``last_standing_wins``, quoted with such a win (default: ``clause``).
    last_standing_clause: str = ""


@dataclass(frozen=True, slots=True)
class TagRule:
    """A non-identity title (警长, 牧首, 神眷者) and what happens to it when its holder goes."""

    name: str
    transfer: str | None = None                 # 殉职 / 殉道 / 传承: the holder picks a successor
    on_red: Literal["pass", "random", "lost"] = "pass"
    unique: bool = True                         # one holder at a time (情侣 has two)
    clause: str = ""
    vanishes_for: tuple[str, ...] = ()          # roles that cannot hold it: given to one, it is gone (107 神启者)


@dataclass(frozen=True, slots=True)
class SpeechRules:
    kidnap_allowed_words: tuple[str, ...] = ()
    kidnap_smilies_allowed: bool = True
    clause: str = ""


#: How an exit is named for 遗言 ([last_words] exits): the day's vote, a red card, a night's
#: settlement, anything else (a skill by day: 开枪, 殉情 …).
EXIT_KINDS: tuple[str, ...] = ("vote", "red_card", "night", "skill")


@dataclass(frozen=True, slots=True)
class LastWordsRules:
    """Which exits let the player post 遗言 themselves, how many posts and where (werewolf-12 三、1
    "死者如有遗言可在讨论帖发一帖遗言（第1夜死者有遗言，之后夜晚死亡无遗言；白天被放逐者有遗言）").

    ``exits`` empty (the default, and the five seed posts, whose 遗言 go to the director and are
    published by them): no exit gives one, so every post of a player out is 诈尸. ``nights``: for a
    ``night`` exit, the nights that give one (empty: every night). ``none_for``: causes (skill names)
    whose exit never gives one, whatever its kind (六、4 "开枪带走的人立即出局，无遗言")."""

    exits: tuple[str, ...] = ()
    nights: tuple[int, ...] = ()
    posts: int = 1
    thread: Literal["discussion", "process"] = "discussion"
    none_for: tuple[str, ...] = ()
    clause: str = ""

    def gives(self, exit_kind: str | None, night: int | None, cause: str = "") -> bool:
        """Whether an exit of this kind (on this night, for this cause) leaves 遗言."""
        if exit_kind is None or exit_kind not in self.exits or cause in self.none_for:
            return False
        return exit_kind != "night" or not self.nights or night in self.nights


@dataclass(frozen=True, slots=True)
class ForbiddenCategory:
    """One section of the post's 判罚依据 (1、发言 … 7、作弊) and its numbered items.

    ``lexicons``: the forbidden-phrase lists (``tracker/penalties/lexicons``, by category) that flag
    an item of this section, as category → item number. A ruleset that maps any list uses only the
    lists it maps, and its flags cite the item as the post words it (so "黄牌起步" in an item makes
    the suggested card yellow): 107 relaxes 马甲 ("提及【仅限场上存在马甲】的历史场次"), so it maps
    no 提及过去场次 list.
    """

    section: int
    name: str
    items: tuple[str, ...] = ()
    lexicons: tuple[tuple[str, int], ...] = ()

    def clause(self, item: int) -> str:
        """``2、贴脸（7）以违背阵营转变后利益的……（黄牌起步）``: what a flag cites."""
        return f"{self.section}、{self.name}（{item}）{self.items[item - 1]}"


#: What a post detector can find (:data:`tracker.penalties.findings.FLAG_KINDS`, kept equal by a test).
DETECTOR_KINDS: tuple[str, ...] = ("red_text", "large_font", "keyword", "posted_while_out", "posted_while_benched",
                                   "chat_log_evidence", "kidnapped_speech", "spam")
CardColor = Literal["blue", "yellow", "red"]


@dataclass(frozen=True, slots=True)
class DetectorRule:
    """One post detector a game uses (``[[detectors]]``), the clause its flags cite and the card it
    suggests: werewolf-12 三、5 "每发现一帖使用红字，该玩家得 1 张黄牌（同一帖多处红字只算 1 张）" is
    ``kind = "red_text"``, ``card = "yellow"``. ``categories``: for ``keyword``, the forbidden-phrase
    lists it uses (``oath`` …; empty = every list). ``card`` None: the usual suggestion (蓝牌 for a
    first offence under the clause, 黄牌 for a repeat); ``"none"``: the post names no card (werewolf-12
    三、2 "死者（遗言除外）、旁观者不得发言"), so the flag suggests none and the director chooses."""

    kind: str
    clause: str
    card: CardColor | Literal["none"] | None = None
    categories: tuple[str, ...] = ()

    def covers(self, kind: str, category: str) -> bool:
        return kind == self.kind and (not self.categories or category in self.categories)


@dataclass(frozen=True, slots=True)
class Option:
    """Room the rule post leaves; ``path`` (dotted) is the field the option sets, if any."""

    key: str
    default: Any
    choices: tuple[Any, ...] = ()
    description: str = ""
    clause: str = ""
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: str
    source: str
    players: int
    factions: tuple[Faction, ...]
    roles: tuple[Role, ...]
    voting: VotingRules
    lurk: LurkRules
    cards: CardRules
    days: DayRules
    win: tuple[WinRule, ...]
    win_policy: WinPolicy
    speech: SpeechRules = field(default_factory=SpeechRules)
    last_words: LastWordsRules = field(default_factory=LastWordsRules)
    publication: PublicationRules = field(default_factory=PublicationRules)
    tags: tuple[TagRule, ...] = ()
    role_groups: tuple[RoleGroup, ...] = ()
    forbidden_categories: tuple[ForbiddenCategory, ...] = ()
    # 107/213/M160 "每名角色仅限更换一次替补": how many 替补 one role may have; None = no limit written.
    substitutes_per_role: int | None = None
    # werewolf-12 "玩家按报名顺序编号 1—12 号，全程以号码称呼": tracker init writes each player's seat.
    numbered_players: bool = False
    # The post detectors this game uses ([[detectors]]); empty = every detector, citing its own clause.
    detectors: tuple[DetectorRule, ...] = ()

    def detector_rule(self, kind: str, category: str) -> DetectorRule | None:
        """The ``[[detectors]]`` entry a finding of ``kind`` (and lexicon ``category``) falls under."""
        return next((d for d in self.detectors if d.covers(kind, category)), None)

    def phrase_clauses(self) -> dict[str, str] | None:
        """Forbidden-phrase category → the clause its flags cite; None when the ruleset maps no list
        (every bundled list then applies, citing its own generic clause)."""
        out = {cat: f.clause(n) for f in self.forbidden_categories for cat, n in f.lexicons}
        return out or None
    hooks: str | None = None
    options: tuple[Option, ...] = ()
    option_values: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: The ruleset's night file (roles' skills as data) when it names one; bundled rulesets use
    #: ``rulesets/night/<id>.toml`` (see :mod:`tracker.engine.night.catalog`).
    night_path: Path | None = None
    #: The night written inline in the ruleset file (a ``[night]`` table): a sixth game as one file.
    night_catalog: Catalog | None = field(default=None, compare=False)

    @property
    def faction_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.factions)

    def faction(self, name: str) -> Faction:
        """The faction by name or alias (狼人阵营 → 狼人)."""
        for f in self.factions:
            if name == f.name or name in f.aliases:
                return f
        raise RulesetError(f"规则 {self.id} 中没有阵营 {name!r}",
                           hint=f"可用的阵营：{', '.join(self.faction_names)}")

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def tag_rule(self, name: str) -> TagRule | None:
        return next((t for t in self.tags if t.name == name), None)

    def option(self, key: str) -> Any:
        if key in self.option_values:
            return self.option_values[key]
        for o in self.options:
            if o.key == key:
                return o.default
        raise RulesetError(f"规则 {self.id} 没有选项 {key!r}",
                           hint=f"可用的选项：{', '.join(o.key for o in self.options) or '无'}")

    def with_options(self, values: Mapping[str, Any]) -> Ruleset:
        """The same ruleset read with some options set otherwise (validated against ``choices``)."""
        if not values:
            return self
        from tracker.engine.ruleset_reader import parse_ruleset  # the reader builds Rulesets: import at use

        return parse_ruleset(dict(self.raw), self.path, overrides=values)

