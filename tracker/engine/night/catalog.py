"""Roles' skills as data: one night file per ruleset (``rulesets/night/<id>.toml``).

Every legality rule a rule post states in the same shape for many skills — who holds the skill,
in which phase, how many targets, 限定 uses, "*" (not on the first night), not the same target
twice running, once every N nights, self-targeting — is a key of the skill's entry, with the
post's sentence beside it in ``clause``. :mod:`tracker.engine.night.checks` reads these keys and
nothing else decides them; what a key cannot say (the settlement order's interactions) is the
game's hook module under :mod:`tracker.engine.night.games`.

A night file::

    ruleset = "werewolf-12"
    exile_skill = "投票出局"      # tracker confirm submits the vote's exile as this skill
    red_card_skill = "红牌罚下"   # tracker card issue submits a red card's 出局 as this skill

    [[steps]]                # the post's settlement order, with its own step numbers
    n = "1"
    skills = ["守护"]

    [[skills]]
    name = "守护"
    roles = ["守卫"]
    phase = "night"          # night | day | 晨曦 | 正午 | 黄昏 | setup | passive | any
    kind = "普通"            # 强制 | 限定 | 普通 | 团队 | 被动 (the post's own mark)
    min_targets = 0          # or targets = N
    max_targets = 1
    no_repeat = "守护上次"
    clause = "每晚选择一名玩家（可以是自己）守护……"
    effects = [{ kind = "protect", stops = ["杀人"] }]   # what the generic engine does with it

A game without a hook package is settled from these keys alone (:mod:`tracker.engine.night.flow`):
``[[steps]]`` in the post's order, each skill's ``effects`` (:mod:`tracker.engine.night.effects`),
``trigger`` for what acts on its holder's exit, ``[[clashes]]`` for protections that kill (or fail) together;
a step written ``hook`` is the game's code (:mod:`tracker.engine.night.games`).

Every key, its type and default is in ``docs/ruleset.md``, written from the one model of the format
(:class:`tracker.engine.ruleset_model.NightT`) that also checks the file; a ruleset file outside the
package may carry the same keys inline as a ``[night]`` table (:func:`catalog_of`).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracker.engine.ruleset_model import (
    ClashT,
    EffectT,
    LastOfT,
    NightT,
    RecountT,
    SkillT,
    StepT,
    TargetIsT,
    TellOneT,
)
from tracker.engine.ruleset_reader import FileAt
from tracker.errors import RulesetError, os_error_words
from tracker.safefile import read_bounded

if TYPE_CHECKING:
    from tracker.engine.ruleset_schema import Option, Ruleset, VotingRules

MAX_NIGHT_FILE_BYTES = 1024 * 1024  # the largest bundled night file is ~60 KB
NIGHT_DIR = Path(__file__).resolve().parent.parent / "rulesets" / "night"


@dataclass(frozen=True, slots=True)
class TargetIs:
    """``when_target``: an effect takes hold only on a target whose ``of`` (faction, role or role group),
    actual or as a check of the 表面 sees it (``seen``), is one of ``values`` (M160 禁锢: 爪牙) — or, ``of``
    status, who holds one of them, on the table or for this phase; ``of`` tag, who bears one of them, on his seat
    or on his role in the ruleset (213 [群内])."""

    values: tuple[str, ...]
    of: str = "faction"
    seen: str = "actual"
    #: Only a target still in (M19 遗志 "若该角色当时仍存活").
    alive: bool = False


@dataclass(frozen=True, slots=True)
class UnlessTarget:
    """One entry of ``unless_target``: no hold on a target who is one of ``values`` (as :class:`TargetIs`), unless
    the user holds a skill of ``lifted_by`` (M160 夺魂 "你可以杀害爪牙"); ``benched_leave``: a benched player no
    longer bears the tag (挂机 "有群的角色从自已所在的群中立即移除")."""

    cond: TargetIs
    lifted_by: tuple[str, ...] = ()
    benched_leave: bool = False


@dataclass(frozen=True, slots=True)
class LastOf:
    """``when_last``/``unless_last``: the factions whose last living player the user is (or is not), the
    ``except_roles`` not counted (107 腐化 "注：腐尸结算腐化时不计夜行怪")."""

    factions: tuple[str, ...]
    except_roles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Effect:
    """One generic effect a skill composes (``effects``), with the post's sentence.

    ``damage``/``kill``: ``strength`` (a protection stops it only if at least as strong) and the
    ``cause`` a death records (default: the skill's name; 猎人's exceptions read it). ``protect``:
    ``stops`` (the skills whose damage it stops: 守护 stops 杀人, not 毒药) and ``only_if_hit_by``
    (解药 "救当晚被狼人杀的人": refused on anyone else); ``standing`` (held by the skill's holders
    with no submission, in its phases: 213 主宰黑夜) and ``from_factions`` (only damage dealt by
    those factions), held as its ``status`` (given as the first night begins) and, ``once``, spent with it
    after one hit (213 长寿之命), or ``delays``: the exit put off to a later submission of that skill, at
    ``when`` (213 坚强). ``block``: the skills of the target it voids
    for the rest of the phase (``["*"]``: all). ``refuses``: the post's reason those submissions are refused (M19 算计). ``inspect``: ``answer`` (``faction`` or ``role``) in
    the post's ``words`` (faction → word; ``otherwise`` for the rest), told as ``text``; ``seen``: ``actual`` or ``surface`` (表面). ``convert``: the new role and/or faction. ``mark``: ``tag``
    and, by the submission's ``choice``, ``give``/``take``/``pass``/``tear`` (or ``tags``: the ``choice`` names the tag). ``status``: a status
    on the target, for ``nights`` nights (0: until removed), or for this phase only (``for_phase``: 今晚).
    ``lose``: the actor's skill ``loses`` is gone. ``redirect``: later submissions this phase naming the
    target may name the actor instead (M160 抗议), or, with ``substitute``, the player his submission of that
    skill names; ``moves``: only those skills' submissions (107 诡辩: the day's exile). Any kind: ``when_target`` (see :class:`TargetIs`).
    ``log``: the log's line for it, in the post's words, instead of the engine's own.
    ``inspect`` with ``exits``: the players who went out on the day before by one of those causes,
    not the targets (M65 数据收集). ``tell``: the actor is told ``text``.
    ``vote``: the ruleset's ``[[voting.modifiers]]`` ``modifier`` (default: the skill's name) on the
    target for the next day, which that day's tally reads (107 流言). ``watch``: the target remembered in
    the ``state`` key until the skill's ``feedback`` step, which tells its holders ``text`` if he is then
    announced out (213 悬赏). ``extra``: the skill ``again`` may be used once more on the next night, recorded
    as ``{night}`` in ``state``; the living holders of ``tag`` are told ``text`` (M19 激励) — or, ``while_alive``,
    on every phase while enough of some roles live (107 集群).
    ``learn``: the actor is told one answer about the whole submission (:mod:`.learn`). ``counter``: the target's
    count in ``state`` grows by ``add``; at ``at_least`` he goes out (M19 空救).
    """

    kind: str
    strength: int = 1
    cause: str | None = None
    #: kill: the state the target takes instead of 出局 (M160 死亡), and the player field recording it.
    life: str | None = None
    stops: tuple[str, ...] = ()
    only_if_hit_by: str | None = None
    #: protect: its holders hold it themselves, in the skill's ``phases`` (213 主宰黑夜), unless ``voided_by``.
    standing: bool = False
    #: protect: only damage dealt by players of these (actual) factions (213 主宰黑夜 "仅针对村民阵营发动的技能").
    from_factions: tuple[str, ...] = ()
    #: concede: the factions that may give up, the submission's ``choice`` naming one (M19 投降), or the only one.
    factions: tuple[str, ...] = ()
    #: concede: every holder of the skill, out or not, must be among the submission's members (213 投降).
    unanimous: bool = False
    #: protect: spent by the first hit it stops — a standing one's ``status`` taken off (213 长寿之命), or its
    #: skill's ``uses`` (107 长寿); a guard taken off (107 祝福) — asked after the protections never spent.
    once: bool = False
    #: protect standing: the exit is put off to this skill's later submission, at ``when`` (213 坚强出局).
    delays: str | None = None
    when: str = ""
    #: protect, cover: the survival's reason in the post's words (``{skill}``, ``{actor}``, ``{target}``); None: the engine's.
    reason: str | None = None
    #: cover: the target's hit may fall on the user instead, this question asked of the director (M160 彷徨).
    stands_in: str | None = None
    #: protect: only the one target chosen most, and at least this often, is protected (107 祝福).
    top_at_least: int | None = None
    #: protect: the state key of the player it protected; not the same one the next night (107 祝福上次).
    no_repeat: str | None = None
    #: message: the state key of the first use it took hold for; set, it does nothing more (107 恩典首次).
    first_only: str | None = None
    #: redirect: only these skills' submissions are moved (107 诡辩: 投票出局); empty: any skill's.
    moves: tuple[str, ...] = ()
    #: redirect: the skill whose submission by the same actor names the player put in (107 诡辩替代).
    substitute: str | None = None
    voids: tuple[str, ...] = ()
    #: block: the kinds of skill it voids besides ``voids`` (107 牵制 "非团队的<普通>和<限定>技能无效").
    kinds: tuple[str, ...] = ()
    #: block: a voided submission is still 发动, its use spent (107 牵制 "当晚发动的……技能无效").
    spends: bool = False
    #: block: skills it never voids (M65 飞行头槌 "不包括……<绝对切割>").
    spares: tuple[str, ...] = ()
    #: block: kinds of skill it never voids (M65 天璇紫后 "不包括强制技能").
    spares_kinds: tuple[str, ...] = ()
    #: block: a passive reaction (a perception nobody submits) still works (M65 飞行头槌 "不包括被动技能").
    spares_passive: bool = False
    answer: str = "faction"
    words: Mapping[str, str] = field(default_factory=dict)
    text: str = "{target}：{answer}"
    seen: str = "actual"
    role: str | None = None
    faction: str | None = None
    tag: str | None = None
    #: mark: the tags the ``choice`` names one of, instead of ``tag`` (213 竞选: 警长 or 牧首).
    tags: tuple[str, ...] = ()
    choices: Mapping[str, str] = field(default_factory=dict)
    status: str | None = None
    #: status: the ``state`` list naming its holders, the target added (M160 丑角).
    listed: str | None = None
    nights: int = 0
    #: status: the statuses the targets share out, one each, and the rules of who takes which (M160 药剂):
    #: :mod:`tracker.engine.night.split`.
    split: tuple[str, ...] = ()
    split_record: str | None = None
    split_self: str | None = None
    split_spread: bool = False
    loses: str | None = None
    modifier: str | None = None
    #: watch: the ``state`` key remembering the target until the skill's ``feedback`` step (213 悬赏上次);
    #: extra: the ``state`` key recording the night of the extra use (M19 激励).
    state: str | None = None
    #: extra: the skill that may be used once more on the next night (M19 激励: 杀人).
    again: str | None = None
    #: extra: held on every phase while enough of some roles live, not once after it is settled (107 集群).
    while_alive: WhileAlive | None = None
    clause: str = ""
    for_phase: bool = False
    when_target: TargetIs | None = None
    #: damage: a target it names who would go out by the hit flips by ``[flip]`` instead (107 初拥).
    flips_instead: TargetIs | None = None
    #: Any kind but learn: only while its user is one of these (107 灾厄: an 亡灵 holder); None: whoever.
    when_actor: TargetIs | None = None
    #: Any kind: it takes hold only while its user is none of these (M160 寻觅: not the 恶魔's victim tonight).
    unless_actor: TargetIs | None = None
    #: Any kind but learn: no hold on a target who is one of these (M160 凶杀 "非【群内】", "非恶魔非爪牙").
    unless_target: tuple[UnlessTarget, ...] = ()
    #: damage: of the players chosen ONE candidate is struck, the director's pick if several (M160 凶杀).
    one_victim: bool = False
    #: inspect: the word for what ``words`` does not name (None: the name itself).
    otherwise: str | None = None
    #: inspect: the holder of this tag instead of the targets (107 夜之眼); count: see ``key``.
    holder_of: str | None = None
    #: inspect: each player of this role instead of the targets (M19 背叛 "得知人质马甲").
    players_of: str | None = None
    #: lose: the word the state after shows for the lost skill (None: its ``spent`` word, else its count).
    shown: str | None = None
    #: count: the number in ``tag``'s record that changes by ``add`` (107 灵能: 诅咒剩余次数 +1); ``absent``: the
    #: log's line when the tag has no record.
    key: str | None = None
    add: int = 1
    absent: str | None = None
    #: block: the post's reason the blocked player's later submissions are refused (None: the engine's).
    refuses: str | None = None
    #: The settlement log's line for the effect (None: the engine's own).
    log: str | None = None
    #: mark: what it does when the submission's ``choice`` is none of ``choices`` (None: pass/tear by default).
    act: str | None = None
    #: ``target`` (each target) or ``actor`` (the actor, once per target it takes hold on: 自保).
    to: str = "target"
    #: learn (:mod:`.learn`): the question, the players it asks about, what they must be, the words
    #: told for yes/no, who is told, a misreading and a distortion (None: none).
    ask: str = "any"
    among: str = "targets"
    match: TargetIs | None = None
    yes: str = "是"
    no: str = "否"
    told: str = "actor"
    misread: Misread | None = None
    distort: Distort | None = None
    consent: Consent | None = None
    declare: str | None = None
    #: learn: the questions the director picks one of per use, instead of the effect's own; nights paired.
    questions: tuple[Question, ...] = ()
    pairs: Pairs | None = None
    #: learn, ask = night_of: the answer's words; who else is told, and when.
    recount: Recount | None = None
    reveal: Reveal | None = None
    #: learn, ask = role_if_dies: the pending entry on each asked player still alive when answered, and until when.
    pending: str | None = None
    until: str = ""
    #: tell: once for the whole submission, ``{targets}`` the players it took hold on (M65 空之瞭望); ``pending``/``until``
    #: a pending entry on the actor, ``empty`` the log's line when it took hold on nobody.
    together: bool = False
    #: vote: ``next_day`` (the modifier on the next day) or ``game`` (from now on, no day: 票权掠夺).
    lasts: str = "next_day"
    #: inspect: the causes of exit whose players of the day before are inspected instead of the targets.
    exits: tuple[str, ...] = ()
    #: inspect with ``exits``: told when nobody went out so.
    empty: str = "无"
    #: convert: flip by the night file's ``[flip]`` (``strip``: flipping back, no counts kept); ``new_uses``: the
    #: new role's counted skills replace the target's ``uses``.
    flip: bool = False
    strip: bool = False
    new_uses: bool = False
    #: convert: what the target is told once converted; mark: what the player who gets the tag is told
    #: (``text`` written; None: nothing).
    told_text: str | None = None
    #: mark give with no target: the question to the director naming a living player at random (107 馈赠).
    at_random: str | None = None
    #: mark: the record the state starts keeping for the tag when it is given and has none (107 亡灵圣物).
    record: Mapping[str, int] = field(default_factory=dict)
    #: Any kind: its user must be (``when_last``) or must not be (``unless_last``) the last living player of
    #: some factions (107 腐化 "若其是当前亡灵阵营最后一名存活角色").
    when_last: LastOf | None = None
    unless_last: LastOf | None = None
    #: Any kind: the submission's ``choice`` must contain one of ``when_choice`` and none of ``unless_choice``.
    when_choice: tuple[str, ...] = ()
    unless_choice: tuple[str, ...] = ()
    #: convert: the user takes the chosen player's role and group (M160 克隆); ``unknowing``: he still believes his former role.
    copies: bool = False
    unknowing: bool = False
    #: convert: the target becomes the role he believes he has, with its group (M160 夺刀's 恶魔 → 善良 believed role).
    believed: bool = False
    #: convert: the role group (``type``) the target takes, his role kept unless changed too (M160 夺刀: 恶魔).
    group: str | None = None
    #: Any kind: only on a target no effect of the skill listed before it took hold on (the post's 否则).
    unless_before: bool = False
    #: Any kind: only for submissions by the skill's holders by role (``holders``), by anyone else (``others``), or ``any``.
    by: str = "any"
    #: counter: the count at which the target goes out at once (M19 空救: 2; None: it only counts), and the log's line then.
    at_least: int | None = None
    out_log: str | None = None
    #: Any kind: only on a target none of these skills was used on this phase (M19 空救 "若该角色没有成为指杀目标").
    unless_aimed_by: tuple[str, ...] = ()
    #: Any kind: it takes hold at the end of the next step numbered one of these, not where its skill settles (M19 空救 at (6)).
    settles_at: tuple[str, ...] = ()
    #: give_uses: what the user is told once the target has the uses, ``{left}`` his own left (213 亲传 "报复：剩余{left}次").
    told_actor: str | None = None
    #: send_off: the director's 判负 asked as a question (213), not read from the choice; a title passed at random.
    asks_loss: str | None = None
    titles_at_random: bool = True


@dataclass(frozen=True, slots=True)
class Consent:
    """``consent``: the answer only if the target agrees (the ``choice``, else ``question``); else ``refused``."""

    question: str
    refused: str


@dataclass(frozen=True, slots=True)
class Distort:
    """``distort``: while the user holds one of ``by`` the answer is wrong with ``chance``; a wrong
    number is one of 0 … ``upto`` (the true one left out), the director's pick (M160 醉酒/中毒)."""

    by: tuple[str, ...]
    chance: float = 0.9
    upto: int = 8


@dataclass(frozen=True, slots=True)
class Question:
    """One of a ``learn``'s ``questions``: its words (``label``) and its own ``ask``, ``among``, ``match``."""

    label: str
    ask: str
    among: str
    match: TargetIs


@dataclass(frozen=True, slots=True)
class Pairs:
    """``pairs``: nights pair up; the ``state`` key remembers each actor's last question, ``text`` names both."""

    state: str
    text: str


@dataclass(frozen=True, slots=True)
class Recount:
    """``recount``: the words of a ``night_of`` answer (whom the player chose, what he was told), and its log line."""

    chose: str
    chose_none: str
    heard: str
    heard_none: str
    log: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """``reveal``: the player a ``night_of`` answer is about is told ``text`` if ``match`` holds, unless the
    actor holds one of ``unless``."""

    match: TargetIs
    text: str
    unless: tuple[str, ...]
    log: str


@dataclass(frozen=True, slots=True)
class Misread:
    """``misread``: the actor and one player the director names may be taken for a match (M160 拷问):
    ``who`` asks for that player, ``whether`` whether they are mistaken this time."""

    who: str
    whether: str


@dataclass(frozen=True, slots=True)
class WhileAlive:
    """``extra`` with ``while_alive``: the more use holds while at least ``at_least`` living players hold one
    of ``roles`` (107 集群 "当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>")."""

    roles: tuple[str, ...]
    at_least: int


@dataclass(frozen=True, slots=True)
class Trigger:
    """A skill that acts on an event (``on``) — its holder going out (猎人 开枪, 警长 警徽), or a player coming to
    hold it by taking its role (``gain``: 107 灵能 "恶灵诞生时", :mod:`tracker.engine.night.gains`), or a step that
    lists it being reached (``step``, forced: 107 夜之心<锁定>, every living holder acting unsubmitted), or a player his
    submission names going out (``target_exit``: 107 权术, :meth:`tracker.engine.night.flow.Flow.trigger`), or the player
    its holder chose and keeps in the field ``keeps`` going out (``chosen_exit``: M19 遇难, :meth:`.flow.Flow.chosen`), or
    a faction of ``losers`` being judged lost (``loss``: M19 寡妇刀, :mod:`tracker.engine.night.losses`).

    ``unless``: the causes of exit that forbid it (被毒死、红牌出局的猎人不能开枪) — a cause is a skill
    name or one of its aliases, with any detail after it in （…）. ``missing``: the ``choice`` taken when the holder who went out in this
    settlement submitted nothing (逾期未指定视为撕警徽); None: nothing happens — or, with ``asks``, he is
    told ``asks`` and the skill waits for his submission (a pending entry; M19 殉职 须选择继任者). ``forced``
    (强制): nobody submits it; it acts by itself (M19 激励). ``at``: when after the exit — ``"after"`` once what
    took him out is settled, ``"now"`` inside the exit (立即, M19 殉情), ``"next_point"`` at the next point skills
    can be used (213 殉职; a step listing the skill or a hook's call of :meth:`tracker.engine.night.flow.Flow.points`),
    where ``tells`` is told first, or the steps (their ``n``) of which the first reached acts (107 传承 (14)/(20)).
    """

    unless: tuple[str, ...] = ()
    missing: str | None = None
    clause: str = ""
    #: ``exit``: at the holder's exit; ``gain``: when a player comes to hold it by taking its role; ``step``: at
    #: each step listing it (forced, unsubmitted); ``idle``: at each step listing it, on every player who had to act
    #: this phase and did not (:mod:`tracker.engine.night.idle`).
    on: str = "exit"
    asks: str | None = None
    #: 强制: it acts by itself, nobody submits it (M19 激励).
    forced: bool = False
    #: The only causes that allow it (107 虚体, 腐化: 投票出局); empty: every cause but ``unless``.
    only: tuple[str, ...] = ()
    #: When it acts after the exit: "after", "now", "next_point", or the steps of which the first reached.
    at: str | tuple[str, ...] = "after"
    #: What its holder is told when it acts, ``{living}`` the living players (107 传承 "其得知存活角色名单").
    tells: str | None = None
    #: With ``on = "gain"``: its holder coming to carry one of these marks sets it off, not taking its role
    #: (M19 背叛 "当绑匪成为情侣时": :func:`tracker.engine.night.gains.marked`).
    marks: tuple[str, ...] = ()
    #: Only an exit whose cause a player of these factions dealt (107 神恩 "被亡灵阵营角色击杀"); empty: any.
    by_factions: tuple[str, ...] = ()
    #: With ``by_factions``: causes that allow it too, whoever dealt them (213 村镇之殇 "因投票或……村民阵营的角色的技能").
    or_causes: tuple[str, ...] = ()
    #: With ``on = "chosen_exit"``: the holder's field keeping the player his submission chose (M19 遇难: 英雄).
    keeps: str | None = None
    #: With ``on = "loss"``: the factions whose loss sets it off (M19 寡妇刀: 狼人; :mod:`tracker.engine.night.losses`).
    losers: tuple[str, ...] = ()
    #: With ``chosen_exit``: a new choice in play only once the kept player is out (M19 设计).
    anew: bool = False
    #: With ``chosen_exit``: the state after of the holder's skill once his chosen player is out (``{chosen}``).
    shown: str | None = None

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps it waits for (107 传承 (14)/(20)); empty: it names none."""
        return self.at if isinstance(self.at, tuple) else ()

    @property
    def at_exit(self) -> bool:
        """It acts at an exit's own settlement (not 立即 inside it, nor at the next point): the exits' queue."""
        return self.on == "exit" and self.at not in ("now", "next_point")


@dataclass(frozen=True, slots=True)
class Spares:
    """``spares``: the holders do not go out on ``days`` (game days) but by a cause in ``unless``; the exit
    is a survival with ``reason`` (:meth:`tracker.engine.night.board.Board.kill`)."""

    days: tuple[int, ...]
    unless: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Hears:
    """``hears``: the holders are told ``exit`` / ``flip`` (``{player}``) when another player of ``factions`` goes
    out or flips (:meth:`tracker.engine.night.board.Board.hear`); None: that event is not heard."""

    factions: tuple[str, ...]
    exit: str | None = None
    flip: str | None = None


@dataclass(frozen=True, slots=True)
class OnUse:
    """``on_use``: the skill acts on each use of ``of`` by one of its holders that takes effect, on that use's
    targets which are ``when_target`` (None: every one) — :meth:`tracker.engine.night.flow.Flow.ride`."""

    of: str
    when_target: TargetIs | None = None
    #: The use's own damage/kill does not take hold on that target, this skill's effects do (M160 毒害 "改为"):
    #: the survival's words.
    instead: str | None = None


@dataclass(frozen=True, slots=True)
class JoinsTeam:
    """``joins_team``: the holders share ``team``'s group — as its members (``acts``) or in its chat only (``chat``), as
    the ruleset's ``option`` says (:mod:`tracker.engine.night.joins`)."""

    team: str
    option: str
    told: str = "{players}"
    told_team: str = "{player}"


#: The two readings a ``joins_team`` option chooses between (its ``choices``).
JOIN_READINGS = ("acts", "chat")


def unread_option(skill: Skill, options: Sequence[Option]) -> str | None:
    """Why the ruleset cannot answer the option a skill's ``joins_team`` reads: it is not declared, or its
    ``choices`` are not the two readings — found where the night meets the ruleset, not first at a night that
    needs it; None when it can."""
    if skill.joins_team is None:
        return None
    key = skill.joins_team.option
    opt = next((o for o in options if o.key == key), None)
    if opt is None:
        return f"技能 {skill.name} 的 joins_team 读选项 {key}，但规则的 [[options]] 没有声明它"
    if not opt.choices or not set(opt.choices) <= set(JOIN_READINGS) or opt.default not in JOIN_READINGS:
        return (f"技能 {skill.name} 的 joins_team 读选项 {key}：它的 choices 须是 {' / '.join(JOIN_READINGS)}"
                f"（现为 {list(opt.choices)}，默认 {opt.default!r}）")
    return None


@dataclass(frozen=True, slots=True)
class Form:
    """One option of a skill its holder chooses once (``forms``; a ``choose`` effect): the player's ``choice``
    field then holds ``label``, the skill's uses ``count`` (None: as they were)."""

    name: str
    label: str
    count: int | None = None
    #: The targets a use in this form takes (M65 空之瞭望 持续 1, 枯竭 2); None: the skill's own.
    targets: int | None = None


@dataclass(frozen=True, slots=True)
class Reaction:
    """What happens when another player's skill is cast on a holder (``reacts``; :mod:`.react`): told
    ``tell``, then the cast reflected or redirected (``then``), only in the ``form`` the holder chose
    and, with ``declared``, only on the game day he declared; never for ``keeps``."""

    form: str | None = None
    to: tuple[str, ...] = ("*",)
    not_to: tuple[str, ...] = ()
    declared: str | None = None
    passive: bool = False
    tell: str | None = None
    log: str | None = None
    then: str = "none"
    answer: str = ""
    keeps: tuple[str, ...] = ()
    done: str | None = None
    missing: str | None = None
    clause: str = ""
    #: The phases it holds in (M19 主人 "夜间行动时"); empty: every phase.
    phases: tuple[str, ...] = ()

    def meets(self, skill: str) -> bool:
        """Whether a cast of ``skill`` sets this reaction off (``to``, ``not_to``)."""
        return skill in self.to or ("*" in self.to and skill not in self.not_to)


@dataclass(frozen=True, slots=True)
class Tell:
    """What the director tells a skill's holders at a step: the targets of another skill
    (女巫 is told 当晚狼人的刀口) and of those in ``also``, or (``count``) how many living players
    count in some factions (107 虔诚), only while that skill has uses left when ``while_uses``, never
    to a holder with a status in ``unless_status`` (213 [净化])."""

    to: str
    about: str | None
    text: str = "{targets}"
    empty: str = "无"
    while_uses: bool = False
    also: tuple[str, ...] = ()
    unless_status: tuple[str, ...] = ()
    #: Instead of ``about``'s targets: how many living players count in these factions (107 虔诚).
    count: tuple[str, ...] = ()
    #: The log line per holder told (``{step}``, ``{holder}``, ``{targets}``); None: the engine's own.
    log: str | None = None
    #: Instead of ``about``'s targets: roles nobody has, picked by the director (M160 窥天).
    pick: TellPick | None = None
    #: Instead of the holders: one living player of these factions, picked by the director (M160 预告).
    one_of: TellOne | None = None
    #: Instead of a line per holder: the step's one line (``{step}``, ``{told}``, ``{picked}``).
    summary: str | None = None
    #: Instead of ``about``'s targets: other living players' identities, picked at random (M65 四眼预知).
    reveal: TellReveal | None = None
    #: Instead of ``about``'s targets: the players the step's ``preview`` found about to go out (107 告死).
    going: bool = False
    #: The log's line when no living holder is told (``{step}``); None: no line.
    untold: str | None = None
    #: Instead of ``about``'s targets: the players those of these role groups chose this phase (M160 洞悉).
    chosen_by: tuple[str, ...] = ()
    #: With ``chosen_by``: the chance the holder is told ``wrong`` players instead (醉酒).
    distort: Distort | None = None
    wrong: TellWrong | None = None
    #: Instead of ``about``'s targets: the living players, ``{living}`` (107 灾厄 "得知存活角色名单").
    living: bool = False
    #: Only holders who count in one of these factions are told (107 灾厄: an 亡灵 holder); empty: all.
    factions: tuple[str, ...] = ()
    #: Instead of ``about``'s targets: the player who holds this tag now (107 追踪 "得知一次[亡灵圣物]的持有者").
    holder_of: str | None = None
    #: With ``holder_of``: the log's line when the holder is a member of ``to``'s team himself; None: told anyway.
    unless_team_holds: str | None = None
    #: Only while this many living players have these roles (107 追踪 "当恶徒只存活一人时，追踪失效"), else ``lapsed``.
    while_alive: WhileAlive | None = None
    lapsed: str | None = None


@dataclass(frozen=True, slots=True)
class TellReveal:
    """``reveal``: ``count`` other living players picked at random for each holder, one ``question`` each, told
    in ``each``'s words."""

    count: int
    question: str
    each: str = "{player}的身份：{role}"


@dataclass(frozen=True, slots=True)
class TellWrong:
    """``wrong``: ``picks`` players the director names among the living not chosen, one ``question`` each."""

    picks: int
    question: str


@dataclass(frozen=True, slots=True)
class TellPick:
    """``pick``: ``count`` roles of the ruleset's ``groups`` that no player has, one ``question`` each."""

    groups: tuple[str, ...]
    count: int
    question: str


@dataclass(frozen=True, slots=True)
class TellOne:
    """``one_of``: the player told is picked by the director among the living (of ``factions``), once or for
    ``each`` holder, never a holder (``not_holders``), never twice for a holder (``once_each``)."""

    factions: tuple[str, ...]
    question: str
    each: bool = False
    not_holders: bool = False
    once_each: str | None = None
    count_by_believed: Mapping[str, int] = field(default_factory=dict)
    exhausted: str | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the post's settlement order: the skills it settles, in the listed order; a
    ``tell``; ``resolve`` (pending damage meets the protections and the clashes: who goes out);
    ``hook``: a step only the game's hooks settle (M160's 投票结算), by the name they give it.
    ``n``: the post's own step number, shown in the log as ``(n)`` — the name the ruleset's
    ``[win_policy] checks_at`` may give to run the win check after this step. ``phase``: night,
    day, 晨曦 … (``phases``: several); ``nights``: all, first (首夜 only) or later (from night 2)."""

    n: str
    skills: tuple[str, ...] = ()
    tell: Tell | None = None
    resolve: bool = False
    hook: str | None = None
    phase: str = "night"
    nights: str = "all"
    clause: str = ""
    #: Every phase the step belongs to when the post runs it in several; empty: ``phase`` alone.
    phases: tuple[str, ...] = ()
    #: A skill with a ``watch`` effect whose remembered target is looked at here (213 悬赏 at 晨曦).
    feedback: str | None = None
    #: True: only in a settlement of submissions sent 游戏开始前; False: only in any other; None: both (M65).
    game_start: bool | None = None
    #: The pending damage as a dry run: who it would take out (107 (11) 初步结算), for ``going`` and ``target_going``.
    preview: bool = False
    #: Whose submissions by the phase they were sent in: ``day`` (a ``tonight`` skill's day casts), ``night``, ``setup``
    #: (游戏开始前), ``in_play`` (any other) or ``any``.
    sent: str = "any"
    #: Whose submissions it settles: ``holders`` (by role or tag as the phase begins), ``others`` or ``any`` (M65 0/1).
    by: str = "any"

    def runs(self, night: int | None, phase: str) -> bool:
        """Whether this step belongs to the phase being settled (night N, or a day phase)."""
        if phase not in (self.phases or (self.phase,)):
            return False
        if night is None or self.nights == "all":
            return True
        return (night == 1) == (self.nights == "first")


@dataclass(frozen=True, slots=True)
class Clash:
    """Protections that meet on one player (同守同救/奶穿): ``then`` ``kill`` — he goes out, as ``cause``;
    ``void`` — those protections fail, and the damage meets what else guards him."""

    protections: tuple[str, ...]
    cause: str
    clause: str = ""
    then: str = "kill"

@dataclass(frozen=True, slots=True)
class Skill:
    """One skill of a rule post, with the generic limits the post puts on it.

    ``uses``: the key of :attr:`Seat.uses` that counts it (a limited skill refuses at 0 / False);
    None when the post sets no count. ``count``: what that key holds when the game starts (the
    post's [X], 1 for 限一次, true for a skill held until lost); 1 when ``uses`` is set and it is not.
    ``no_repeat``: the ``state`` key holding ``{target, night}`` of its last use (守护上次), refused
    when the same target comes again the next night.
    ``cooldown``: at least this many nights (days) between two uses, counted from ``cooldown_key``
    (which the generic engine writes when it settles the skill). ``per_phase``: at most this many
    submissions of the skill take effect per phase, whoever sends them; later ones are refused.
    ``gained``: players outside ``roles`` may come to hold the skill in play (寡妇刀, 接刀, a lover's
    or a tag's skill such as 警长<殉职>); the generic holder check then lets the submission through
    and the game's ``refuse`` hook decides who holds it now.
    ``phases``: every phase the skill may be used in, for a skill the post marks with several
    (213's ``报复[晨曦][黄昏]``); empty means ``phase`` alone.
    ``tag``: a mark that carries the skill whoever holds it (107 亡灵圣物's 灾厄, 神眷者's 传承):
    the holder of the tag holds the skill, whatever the role.
    ``next_day``: a night submission that also acts in the next day's settlement (107's 陷阱 "次日
    白天被投票出局后", 诡辩 "次日投票阶段"): the desk hands it to that day with ``phase = "night"``.
    ``effects``, ``trigger``, ``not_with``: what the generic engine (:mod:`tracker.engine.night.flow`)
    settles the skill with, for a ruleset without hooks; ``not_with``: skills the same player may not
    also use in the same night (同一晚不能同时使用解药和毒药).
    """

    name: str
    roles: tuple[str, ...] = ()
    team: str | None = None
    phase: str = "night"
    kind: str = "普通"
    min_targets: int = 0
    max_targets: int = 0
    uses: str | None = None
    count: int | bool | None = None
    #: What the state after shows once a use leaves none (M19 毒药: 已失去); None: the count left.
    spent: str | None = None
    #: Lost once every one of these ``uses`` keys of its holder is spent (M19 设计: 灭口, 绑架).
    lost_with: tuple[str, ...] = ()
    #: Its targets only the player its user keeps in this field (M19 灭口/绑架: 设计目标).
    only_kept: str | None = None
    not_first_night: bool = False
    first_night_only: bool = False
    from_night: int | None = None
    self_target: str = "allowed"
    no_repeat: str | None = None
    #: Its holder may leave it unused: no idle phase for a ``trigger`` ``on = "idle"`` (M160 愚者 "可以尝试").
    may_skip: bool = False
    cooldown: int | None = None
    cooldown_key: str | None = None
    #: At most this many submissions of the skill take effect per phase, whoever sends them (107 偷袭).
    per_phase: int | None = None
    #: The ``state`` key listing the players it has taken, each only once a game (每名玩家仅可以被选择一次).
    once_per_target: str | None = None
    target_dead: bool = False
    target_alive_or_dead: bool = False
    actor_may_be_dead: bool = False
    lethal: bool = False
    gained: bool = False
    tag: str | None = None
    #: Marks any one of which carries the skill (M19 殉情: the lovers' 情侣:攻, 情侣:受, 情侣:忠犬).
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    clause: str = ""
    note: str = ""
    phases: tuple[str, ...] = ()
    next_day: bool = False
    #: Its target must be on this phase's ``preview`` list (107 死灵咒 "选择一名在当晚出局的角色").
    target_going: bool = False
    effects: tuple[Effect, ...] = ()
    trigger: Trigger | None = None
    not_with: tuple[str, ...] = ()
    #: Every submission of a player is settled, none replacing an earlier one (M65 时间回溯's extra use).
    every_submission: bool = False
    #: Skills whose targets this phase it may not take (213 捕杀: 与当晚[悬赏]不重复), refused at its step.
    distinct_from: tuple[str, ...] = ()
    #: What every target must be, refused at its step otherwise (213 亲传 "选择一名狼人阵营[群内]的角色"), and the words.
    only_targets: tuple[TargetIs, ...] = ()
    only_targets_reason: str | None = None
    #: A day submission that also acts in that night's settlement (107 牵制 "该角色当晚…", 教化 "其当夜
    #: 免疫诅咒", M65 飞行头槌/天璇紫后 "使得该玩家当晚无法使用任何技能"): the desk hands it to the
    #: night with ``phase = "day"``, and takes it at the night desk as the day's.
    tonight: bool = False
    #: Statuses of its user under which it does nothing at its step (M160 醉酒/中毒: "其他类型技能无效").
    voided_by: tuple[str, ...] = ()
    #: What its user is told when ``voided_by`` voids it (M160 密谋 "密谋失败"); None: nothing.
    voided_told: str | None = None
    #: ``choice`` words by which its user declines it: settled, no use spent (M160 夺刀: 不夺刀).
    declined_by: tuple[str, ...] = ()
    #: Skills that cannot be used while a holder of this one can use it this phase (M160 唆使 locks 凶杀: :mod:`.locks`).
    locks: tuple[str, ...] = ()
    #: The ``[voting]`` key by which the day's tally settles it (带队: ``weights``), checked set in the
    #: ruleset where the night meets it (:func:`check_tally`); never submitted, no night step.
    tally: str | None = None
    #: Skills whose effects do not take hold on its holders (107 神恩 "神启者不受<诅咒>技能影响").
    immune_to: tuple[str, ...] = ()
    #: With ``immune_to = ("*",)``: the skills that still take hold on its holders (M65 绝对切割).
    immune_except: tuple[str, ...] = ()
    #: Skills whose damage no protection stops on its holders (M19 弱受 "不论受到任何防卫性技能的保护……都将立即出局").
    unprotected_from: tuple[str, ...] = ()
    #: Its holders' exits leave no 遗言 nor take a place in the count: why (M19 难言 "忠犬出局时没有遗言，且不消耗遗言数量").
    no_last_words: str | None = None
    #: The exits it causes leave no 遗言 nor take a place in the count: why (M19 "红牌罚下出局的角色没有遗言权利").
    takes_last_words: str | None = None
    #: What a cast of another player's skill on its holders sets off (M65 净化之焰, 辐射炫惑: :mod:`.react`).
    reacts: tuple[Reaction, ...] = ()
    #: The options its holders choose between when roles are dealt (the post's 抉择; a ``choose`` effect).
    forms: tuple[Form, ...] = ()
    #: With ``immune_to``: what its holder is told when it stops a skill (``{actor}``, ``{skill}``; M19 警觉).
    immune_told: str | None = None
    #: Its holders do not go out on some game days (M65 天罡护体).
    spares: Spares | None = None
    #: Its holders are told of other players' exits and flips (107 灵魂链接).
    hears: Hears | None = None
    #: It acts on its holders' uses of another skill, never submitted (107 恩典 on a 村民's <祝福>).
    on_use: OnUse | None = None
    #: Its holders' submissions of that skill (``one_victim``) share one victim a phase (M160 镜像).
    shares_victim: str | None = None
    #: A player who becomes its role keeps his earlier identities' team skills (107 伪装: :func:`.flips.kept_team`).
    keeps_team: bool = False
    #: Its holders know a team's players and share its group, in the ruleset option's reading (107 统御).
    joins_team: JoinsTeam | None = None
    #: Its holders may leave 遗言 however they go out (213 绝笔 "牧首在任意时机出局都可以留下遗言").
    last_words: bool = False
    #: Roles whose players never believe they hold its roles, a rule of the deal (M160 觉醒 "你不可能是恶魔").
    never_believed_by: tuple[str, ...] = ()

    @property
    def allowed_phases(self) -> tuple[str, ...]:
        """The phases a submission of this skill may name: ``phases``, else ``phase``."""
        return self.phases or (self.phase,)


@dataclass(frozen=True, slots=True)
class Flip:
    """``[flip]``: the post's 翻转身份 (:mod:`.flips`) — each identity's paired one, the faction flipping joins,
    the player fields that keep a faction over a flip, and what a flipping player is told."""

    pairs: Mapping[str, str]
    faction: str
    kept_faction: Mapping[str, str] = field(default_factory=dict)
    told: str = ""
    told_back: str = ""
    told_stripped: str = ""
    asked: str = ""
    clause: str = ""


@dataclass(frozen=True, slots=True)
class Catalog:
    """A ruleset's skills, by name and alias, and the post's settlement order (``steps``)."""

    ruleset: str
    skills: Mapping[str, Skill]
    steps: tuple[Step, ...] = ()
    clashes: tuple[Clash, ...] = ()
    #: Statuses and state keys a scenario of this game may name beyond the skills' own
    #: (``uses``/``no_repeat`` keys) and the ruleset's tags: what a non-seed scenario is checked against.
    statuses: tuple[str, ...] = ()
    state_keys: tuple[str, ...] = ()
    scenario_game: str | None = None
    #: True where night N comes before day N (213: 首夜, then 第1天 the 竞选日); else night N follows day N.
    night_precedes_day: bool = False
    #: The skills the day's own results are submitted as, so what an exit sets off (殉情, 遇难, 接刀,
    #: 报复, 诡辩, a 决斗 voiding the vote, the win check) is settled by the same engine in the post's
    #: order: ``tracker confirm``'s exile (``exile_skill``) and a red card's 出局 (``red_card_skill``).
    #: None: the post settles that exit elsewhere (M160's vote deaths open the next night) or the
    #: director records what follows it.
    exile_skill: str | None = None
    red_card_skill: str | None = None
    #: A status → the statuses it cancels while held (M160 清醒 "免疫【醉酒】与【中毒】").
    status_cancels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: A submission whose actors all went out earlier in the settlement is not settled (M19 "如未出局").
    out_do_not_act: bool = False
    #: A skill's holders by role (or tag) settle before players who gained it (107 "学者拓印的技能在原版之后结算").
    originals_first: bool = False
    #: The post's 翻转身份 (``[flip]``); None: nobody flips.
    flip: Flip | None = None
    #: Marks that bind two players (``pairs``): the holder of one end is the other's partner (M19 情侣).
    pairs: tuple[tuple[str, str], ...] = ()

    def day_before(self, night: int) -> int:
        """The day just before night ``night``: day N-1 where night N opens day N (213's 首夜 is
        night 1 before day 1, so day 0: none), else day N (night N follows day N's vote)."""
        return night - 1 if self.night_precedes_day else night

    def night_before(self, day: int) -> int:
        """The night just before day ``day`` (night 0: none)."""
        return day if self.night_precedes_day else day - 1

    def exit_skill(self, kind: str) -> str | None:
        """The skill a day's exit is submitted as: ``exile`` (the vote's) or ``red_card``."""
        return self.exile_skill if kind == "exile" else self.red_card_skill

    def skill(self, name: str) -> Skill:
        found = self.skills.get(name)
        if found is not None:
            return found
        for s in self.skills.values():
            if name in s.aliases:
                return s
        near = difflib.get_close_matches(name, self.names(), n=3, cutoff=0.3)
        raise RulesetError(f"规则 {self.ruleset} 中没有技能 {name!r}",
                           hint=(f"最接近的：{'、'.join(near)}" if near else f"可用的技能：{'、'.join(self.names())}"))

    def names(self) -> list[str]:
        return list(self.skills)

    def skills_of(self, role: str) -> list[Skill]:
        return [s for s in self.skills.values() if role in s.roles]


def _skill(t: SkillT) -> Skill:
    lo, hi = t.target_range
    return Skill(
        name=t.name, roles=tuple(t.roles), team=t.team, phase=t.phase, kind=t.kind, min_targets=lo,
        max_targets=hi, uses=t.uses, spent=t.spent, lost_with=tuple(t.lost_with), only_kept=t.only_kept, count=t.count if t.count is not None else (1 if t.uses is not None else None),
        not_first_night=t.not_first_night, first_night_only=t.first_night_only, from_night=t.from_night,
        self_target=t.self_target, no_repeat=t.no_repeat, may_skip=t.may_skip, cooldown=t.cooldown, cooldown_key=t.cooldown_key,
        per_phase=t.per_phase,
        once_per_target=t.once_per_target,
        target_dead=t.target_dead, target_alive_or_dead=t.target_alive_or_dead,
        actor_may_be_dead=t.actor_may_be_dead or (t.trigger is not None and not t.trigger.forced
                                                   and t.trigger.on != "chosen_exit"), lethal=t.lethal, gained=t.gained, tag=t.tag, tags=tuple(t.tags),
        aliases=tuple(t.aliases), clause=t.clause, note=t.note, phases=tuple(t.phases), next_day=t.next_day,
        tonight=t.tonight, target_going=t.target_going,
        effects=tuple(_effect(e) for e in t.effects), not_with=tuple(t.not_with), every_submission=t.every_submission,
        distinct_from=tuple(t.distinct_from), only_targets=tuple(_target_is(c) for c in t.only_targets),
        only_targets_reason=t.only_targets_reason, voided_by=tuple(t.voided_by), voided_told=t.voided_told, locks=tuple(t.locks), declined_by=tuple(t.declined_by), tally=t.tally, immune_to=tuple(t.immune_to),
        immune_except=tuple(t.immune_except), immune_told=t.immune_told, unprotected_from=tuple(t.unprotected_from),
        no_last_words=t.no_last_words, takes_last_words=t.takes_last_words,
        reacts=tuple(Reaction(form=r.form, to=tuple(r.to), not_to=tuple(r.not_to), declared=r.declared,
                              passive=r.passive, tell=r.tell, log=r.log, then=r.then, answer=r.answer,
                              keeps=tuple(r.keeps), done=r.done, missing=r.missing, clause=r.clause,
                              phases=tuple(r.phases))
                     for r in t.reacts),
        spares=None if t.spares is None else Spares(days=tuple(t.spares.days), unless=tuple(t.spares.unless),
                                                    reason=t.spares.reason),
        hears=None if t.hears is None else Hears(factions=tuple(t.hears.factions), exit=t.hears.exit,
                                                 flip=t.hears.flip),
        on_use=None if t.on_use is None else OnUse(t.on_use.of, None if t.on_use.when_target is None
                                                   else _target_is(t.on_use.when_target), t.on_use.instead),
        keeps_team=t.keeps_team, shares_victim=t.shares_victim,
        joins_team=None if t.joins_team is None else JoinsTeam(t.joins_team.team, t.joins_team.option,
                                                               t.joins_team.told, t.joins_team.told_team),
        last_words=t.last_words,
        forms=tuple(Form(name=f.name, label=f.label or f.name, count=f.count, targets=f.targets) for f in t.forms),
        never_believed_by=tuple(t.never_believed_by),
        trigger=None if t.trigger is None else Trigger(unless=tuple(t.trigger.unless), missing=t.trigger.missing,
                                                         clause=t.trigger.clause, asks=t.trigger.asks,
                                                         forced=t.trigger.forced, only=tuple(t.trigger.only),
                                                         at=t.trigger.at if isinstance(t.trigger.at, str)
                                                         else tuple(t.trigger.at), tells=t.trigger.tells,
                                                         on=t.trigger.on, marks=tuple(t.trigger.marks),
                                                         by_factions=tuple(t.trigger.by_factions),
                                                         or_causes=tuple(t.trigger.or_causes),
                                                         keeps=t.trigger.keeps, losers=tuple(t.trigger.losers),
                                                         anew=t.trigger.anew, shown=t.trigger.shown))


def _effect(e: EffectT) -> Effect:
    return Effect(kind=e.kind, strength=e.strength, cause=e.cause, life=e.life, stops=tuple(e.stops),
                  only_if_hit_by=e.only_if_hit_by, standing=e.standing, from_factions=tuple(e.from_factions), once=e.once,
                  factions=tuple(e.factions), unanimous=e.unanimous,
                  delays=e.delays, when=e.when, reason=e.reason, stands_in=e.stands_in, top_at_least=e.top_at_least, no_repeat=e.no_repeat,
                  first_only=e.first_only,
                  moves=tuple(e.moves), substitute=e.substitute, voids=tuple(e.voids), kinds=tuple(e.kinds), spends=e.spends, spares=tuple(e.spares),
                  spares_kinds=tuple(e.spares_kinds), spares_passive=e.spares_passive, answer=e.answer, words=dict(e.words),
                  text=e.text, seen=e.seen,
                  role=e.role, faction=e.faction, tag=e.tag, tags=tuple(e.tags), choices=dict(e.choices), status=e.status,
                  nights=e.nights, split=tuple(e.split), split_record=e.split_record, split_self=e.split_self,
                  split_spread=e.split_spread, loses=e.loses, modifier=e.modifier, state=e.state, again=e.again,
                  while_alive=None if e.while_alive is None else WhileAlive(tuple(e.while_alive.roles), e.while_alive.at_least),
                  clause=e.clause, for_phase=e.for_phase, to=e.to, lasts=e.lasts,
                  exits=tuple(e.exits), empty=e.empty, holder_of=e.holder_of, players_of=e.players_of, shown=e.shown, key=e.key, add=e.add, absent=e.absent,
                  at_least=e.at_least, out_log=e.out_log, unless_aimed_by=tuple(e.unless_aimed_by),
                  settles_at=tuple(e.settles_at),
                  when_target=None if e.when_target is None else _target_is(e.when_target),
                  flips_instead=None if e.flips_instead is None else _target_is(e.flips_instead),
                  when_actor=None if e.when_actor is None else _target_is(e.when_actor),
                  unless_actor=None if e.unless_actor is None else _target_is(e.unless_actor),
                  unless_target=tuple(UnlessTarget(_target_is(u), tuple(u.lifted_by), u.benched_leave)
                                      for u in e.unless_target),
                  one_victim=e.one_victim,
                  otherwise=e.otherwise, refuses=e.refuses, log=e.log, act=e.act,
                  ask=e.ask, among=e.among, match=None if e.match is None else _target_is(e.match), yes=e.yes,
                  no=e.no, told=e.told,
                  misread=None if e.misread is None else Misread(who=e.misread.who, whether=e.misread.whether),
                  distort=None if e.distort is None else Distort(by=tuple(e.distort.by), chance=e.distort.chance,
                                                                 upto=e.distort.upto),
                  consent=None if e.consent is None else Consent(question=e.consent.question, refused=e.consent.refused),
                  questions=tuple(Question(q.label, q.ask, q.among, _target_is(q.match)) for q in e.questions),
                  pairs=None if e.pairs is None else Pairs(e.pairs.state, e.pairs.text),
                  declare=e.declare, recount=None if e.ask != "night_of" else _recount(e.recount or RecountT()),
                  reveal=None if e.reveal is None else Reveal(
                      match=_target_is(e.reveal.match), text=e.reveal.text, unless=tuple(e.reveal.unless), log=e.reveal.log),
                  pending=e.pending, until=e.until, together=e.together, listed=e.listed, flip=e.flip, strip=e.strip,
                  new_uses=e.new_uses, copies=e.copies, unknowing=e.unknowing, believed=e.believed, group=e.group, unless_before=e.unless_before,
                  told_text=e.text if e.kind in ("convert", "mark", "status") and "text" in e.model_fields_set else None,
                  record=dict(e.record), at_random=e.at_random, when_choice=tuple(e.when_choice), unless_choice=tuple(e.unless_choice),
                  when_last=_last_of(e.when_last), unless_last=_last_of(e.unless_last), by=e.by, told_actor=e.told_actor,
                  asks_loss=e.asks_loss, titles_at_random=e.titles_at_random)


def _last_of(t: LastOfT | None) -> LastOf | None:
    return None if t is None else LastOf(factions=tuple(t.factions), except_roles=tuple(t.except_roles))


def _recount(r: RecountT) -> Recount:
    return Recount(chose=r.chose, chose_none=r.chose_none, heard=r.heard, heard_none=r.heard_none, log=r.log)


def _target_is(t: TargetIsT) -> TargetIs:
    return TargetIs(values=tuple(t.values), of=t.of, seen=t.seen, alive=t.alive)


def _step(t: StepT) -> Step:
    tell = None if t.tell is None else Tell(to=t.tell.to, about=t.tell.about, text=t.tell.text,
                                             empty=t.tell.empty, while_uses=t.tell.while_uses,
                                             also=tuple(t.tell.also), unless_status=tuple(t.tell.unless_status),
                                             count=tuple(t.tell.count), log=t.tell.log, summary=t.tell.summary,
                                             living=t.tell.living, factions=tuple(t.tell.factions),
                                             pick=None if t.tell.pick is None else TellPick(
                                                 tuple(t.tell.pick.groups), t.tell.pick.count, t.tell.pick.question),
                                             one_of=None if t.tell.one_of is None else _tell_one(t.tell.one_of),
                                             reveal=None if t.tell.reveal is None else TellReveal(
                                                 t.tell.reveal.count, t.tell.reveal.question, t.tell.reveal.each),
                                             going=t.tell.going, untold=t.tell.untold,
                                             chosen_by=tuple(t.tell.chosen_by),
                                             distort=None if t.tell.distort is None else Distort(
                                                 by=tuple(t.tell.distort.by), chance=t.tell.distort.chance,
                                                 upto=t.tell.distort.upto),
                                             wrong=None if t.tell.wrong is None else TellWrong(
                                                 t.tell.wrong.picks, t.tell.wrong.question),
                                             holder_of=t.tell.holder_of, unless_team_holds=t.tell.unless_team_holds,
                                             while_alive=None if t.tell.while_alive is None else WhileAlive(
                                                 tuple(t.tell.while_alive.roles), t.tell.while_alive.at_least),
                                             lapsed=t.tell.lapsed)
    return Step(n=t.n, skills=tuple(t.skills), tell=tell, resolve=t.resolve, hook=t.hook, phase=t.phase,
                nights=t.nights, clause=t.clause, phases=tuple(t.phases), feedback=t.feedback, game_start=t.game_start,
                preview=t.preview, by=t.by, sent=t.sent)


def _tell_one(o: TellOneT) -> TellOne:
    return TellOne(tuple(o.factions), o.question, each=o.each, not_holders=o.not_holders, once_each=o.once_each,
                   count_by_believed=dict(o.count_by_believed), exhausted=o.exhausted)


def _clash(t: ClashT) -> Clash:
    return Clash(protections=tuple(t.protections), cause=t.cause, clause=t.clause, then=t.then)


def _names_known(doc: NightT, skills: Mapping[str, Skill], at: FileAt) -> None:
    """Every skill a step, a clash, a tell, a ``not_with`` or a ``delays`` names is one of the file's own."""

    def known(name: str, where: tuple[str | int, ...]) -> None:
        if name not in skills:
            near = difflib.get_close_matches(name, list(skills), n=1)
            raise at.error(where, f"{at.name(where)} 中的 {name!r} 不是本文件的技能",
                           hint=f"是不是想写 `{near[0]}`？" if near else f"本文件的技能：{'、'.join(skills)}")

    for i, st in enumerate(doc.steps):
        for name in st.skills:
            known(name, ("steps", i, "skills"))
        if st.feedback is not None:
            known(st.feedback, ("steps", i, "feedback"))
            if not any(e.kind == "watch" or (e.kind == "learn" and e.ask in ("role_if_dies", "night_of"))
                       for e in skills[st.feedback].effects):
                raise at.error(("steps", i, "feedback"), f"{at.name(('steps', i, 'feedback'))}：技能 {st.feedback} 没有 "
                               "watch 效果或 ask = \"role_if_dies\"、\"night_of\" 的 learn 效果，没有可反馈的目标",
                               hint='给该技能写 effects = [{ kind = "watch", state = … }]')
        if st.tell is not None:
            known(st.tell.to, ("steps", i, "tell", "to"))
            if st.tell.about is not None:
                known(st.tell.about, ("steps", i, "tell", "about"))
            for name in st.tell.also:
                known(name, ("steps", i, "tell", "also"))
    for i, t in enumerate(doc.skills):
        if t.on_use is not None:
            known(t.on_use.of, ("skills", i, "on_use", "of"))
        if t.shares_victim is not None:
            known(t.shares_victim, ("skills", i, "shares_victim"))
    answered = {st.feedback for st in doc.steps}
    for name, sk in skills.items():
        asks = next((e.ask for e in sk.effects if e.kind == "learn" and e.ask in ("role_if_dies", "night_of")), None)
        if name not in answered and asks is not None:
            where = ("skills", next(i for i, s in enumerate(doc.skills) if s.name == name), "effects")
            raise at.error(where, f"{at.name(where)}：ask = \"{asks}\" 的答案在 feedback = \"{name}\" 的步骤告知，"
                           "本文件没有这一步", hint=f'在夜晚死亡结算之后加一步 feedback = "{name}"')
    for i, c in enumerate(doc.clashes):
        for name in c.protections:
            known(name, ("clashes", i, "protections"))
    for i, t in enumerate(doc.skills):
        for j, e in enumerate(t.effects):
            if (e.flip or e.flips_instead is not None) and doc.flip is None:
                at_key: tuple[str | int, ...] = ("skills", i, "effects", j, "flip" if e.flip else "flips_instead")
                raise at.error(at_key, f"{at.name(at_key)}（{t.name}）"
                               "：本文件没有 [flip]，无从翻转", hint="写 [flip] 的 pairs 与 faction（每种身份对应的身份）")
        if t.target_going and not any(s.preview for s in doc.steps):
            raise at.error(("skills", i, "target_going"), f"{at.name(('skills', i, 'target_going'))}（{t.name}）：目标须在"
                           "即将出局者名单中，但本文件没有 preview 的步骤", hint="在它之前加一步 preview = true（初步结算）")
        for name in t.not_with:
            known(name, ("skills", i, "not_with"))
        for name in t.immune_except:
            known(name, ("skills", i, "immune_except"))
        for name in t.unprotected_from:
            known(name, ("skills", i, "unprotected_from"))
        for name in t.locks:
            known(name, ("skills", i, "locks"))
        cast = {r for s in doc.skills for r in s.roles}
        for k, role in enumerate(t.never_believed_by):
            if role not in cast:
                raise at.error(("skills", i, "never_believed_by", k), f"{at.name(('skills', i, 'never_believed_by', k))}"
                               f"（{t.name}）：本文件的技能没有身份“{role}”", hint="写本文件某个技能 roles 里的身份名")
        for name in (t.spares.unless if t.spares is not None else ()):
            if name not in skills and not any(name in s.aliases for s in skills.values()):
                known(name, ("skills", i, "spares", "unless"))
        if any(e.kind == "choose" for e in t.effects) and not any(
                s.forms and set(s.roles) & set(t.roles) for s in skills.values()):
            raise at.error(("skills", i, "effects"), f"{at.name(('skills', i, 'effects'))}（{t.name}）：choose 效果要选的是"
                           "同一身份的技能的 forms，但这些身份没有写了 forms 的技能", hint="给被抉择的技能写 forms = [{ name = … }]")
        for j, r in enumerate(t.reacts):
            for key in ("to", "not_to", "keeps"):
                for name in getattr(r, key):
                    if name != "*":
                        known(name, ("skills", i, "reacts", j, key))
        for j, e in enumerate(t.effects):
            if e.delays is not None:
                known(e.delays, ("skills", i, "effects", j, "delays"))
            if e.again is not None:
                known(e.again, ("skills", i, "effects", j, "again"))


def _unset_tally(skill: Skill, voting: VotingRules) -> str | None:
    """Why the ruleset's ``[voting]`` cannot settle ``skill`` by its ``tally`` key: the key is left at its
    default (no weight, no bonus, no day-1 vote …), so nothing would count it; None when it is set."""
    if skill.tally is None:
        return None
    value = getattr(voting, skill.tally)
    default = next(f for f in fields(voting) if f.name == skill.tally)
    unset = default.default if default.default is not MISSING else None
    if value and value != unset:
        return None
    return (f"技能 {skill.name} 写了 tally = {skill.tally!r}（由白天计票结算），但规则的 [voting] 没有设置 "
            f"{skill.tally}：计票不会结算它")


def check_options(catalog: Catalog, options: Sequence[Option], src: str) -> None:
    """Every option a skill reads (``joins_team``) is declared by the ruleset it is read with, with its readings."""
    for skill in catalog.skills.values():
        why = unread_option(skill, options)
        if why is not None:
            raise RulesetError(f"{src}：{why}", hint=_OPTION_HINT)


_OPTION_HINT = '在规则中写 [[options]] key = "…" default = "chat" choices = ["chat", "acts"]（两种读法，引用原句）'


def check_tally(catalog: Catalog, voting: VotingRules, src: str) -> None:
    """Every skill the night file says the tally settles (``tally``) has its ``[voting]`` key set in the
    ruleset it is read with; a night file alone cannot know it, so this runs where the two meet."""
    for skill in catalog.skills.values():
        why = _unset_tally(skill, voting)
        if why is not None:
            raise RulesetError(f"{src}：{why}", hint=f"在规则文件的 [voting] 中写 {skill.tally}，或删去技能的 tally")


def catalog_from(doc: NightT, rid: str, at: FileAt, roles: Sequence[str] = (),
                 voting: VotingRules | None = None, options: Sequence[Option] | None = None) -> Catalog:
    """A validated night (a night file, or a ruleset's ``[night]``) as a Catalog, after checking the
    names it uses: each skill once, its holders among the ruleset's ``roles``, the exit skills its own;
    with the ruleset's ``voting``, each ``tally`` key set there."""
    skills: dict[str, Skill] = {}
    for i, t in enumerate(doc.skills):
        if t.name in skills:
            raise at.error(("skills", i, "name"), f"技能 {t.name!r} 写了两次", hint="每个 [[skills]] 的 name 唯一")
        for r in t.roles:
            if roles and r not in roles:
                near = difflib.get_close_matches(r, list(roles), n=1)
                raise at.error(("skills", i, "roles"), f"{at.name(('skills', i, 'roles'))}（{t.name}）的身份 {r!r} 不在规则的 [[roles]] 中",
                               hint=f"是不是想写 `{near[0]}`？" if near else f"规则的身份：{'、'.join(roles)}")
        skills[t.name] = _skill(t)
        why = None if voting is None else _unset_tally(skills[t.name], voting)
        if why is not None:
            raise at.error(("skills", i, "tally"), f"{at.name(('skills', i, 'tally'))}：{why}",
                           hint=f"在规则的 [voting] 中写 {t.tally}，或删去 tally")
        why = None if options is None else unread_option(skills[t.name], options)
        if why is not None:
            raise at.error(("skills", i, "joins_team", "option"), why, hint=_OPTION_HINT)
    for key in ("exile_skill", "red_card_skill"):
        named = getattr(doc, key)
        if named is not None and named not in skills:
            raise at.error((key,), f"{at.name((key,))} = {named!r} 不是本文件的技能",
                           hint="写成 [[skills]] 中某个技能的 name（白天投票出局、红牌罚下作为该技能提交给结算）")
    red = skills.get(doc.red_card_skill or "")
    if red is not None and red.effects and not red.every_submission:
        # every red card is the director's own decision: with "the last submission counts", a second card the
        # same day would silently replace the first (the player sent off first would stay in the game)
        raise at.error(("red_card_skill",), f"{at.name(('red_card_skill',))} = {red.name!r}：红牌罚下须每一张都结算",
                       hint=f"在技能 {red.name} 中写 every_submission = true（同一阶段的两张红牌不能互相替换）")
    _names_known(doc, skills, at)
    return Catalog(ruleset=doc.ruleset or rid, skills=skills, scenario_game=doc.scenario_game,
                   steps=tuple(_step(x) for x in doc.steps), clashes=tuple(_clash(x) for x in doc.clashes),
                   statuses=tuple(doc.statuses), state_keys=tuple(doc.state_keys),
                   night_precedes_day=doc.night_precedes_day, exile_skill=doc.exile_skill,
                   red_card_skill=doc.red_card_skill,
                   status_cancels={k: tuple(v) for k, v in doc.status_cancels.items()},
                   out_do_not_act=doc.out_do_not_act, originals_first=doc.originals_first,
                   pairs=tuple((p[0], p[1]) for p in doc.pairs),
                   flip=None if doc.flip is None else Flip(
                       pairs=dict(doc.flip.pairs), faction=doc.flip.faction, kept_faction=dict(doc.flip.kept_faction),
                       told=doc.flip.told, told_back=doc.flip.told_back, told_stripped=doc.flip.told_stripped,
                       asked=doc.flip.asked, clause=doc.flip.clause))


def parse_catalog(data: Mapping[str, Any], src: str, roles: Sequence[str] = (), text: str | None = None,
                  voting: VotingRules | None = None) -> Catalog:
    """Validate a decoded night file; ``roles`` (the ruleset's) catch a misspelt holder, ``voting``
    (the ruleset's) a ``tally`` key the ruleset does not set."""
    at = FileAt(src, text)
    try:
        doc = NightT.model_validate(data)
    except ValidationError as exc:
        raise at.refused(exc, NightT) from None
    if doc.ruleset is None:
        raise at.error(("ruleset",), "缺少 ruleset（规则的 id）", hint='写成 ruleset = "luoluo-m19"')
    return catalog_from(doc, doc.ruleset, at, roles, voting)


def catalog_of(ruleset: Ruleset) -> Catalog:
    """A ruleset's night: inline in its file (checked as the ruleset was read), the file it names, or
    the bundled ``night/<id>.toml`` — each ``tally`` key checked against the ruleset's ``[voting]``."""
    if ruleset.night_catalog is not None:
        return ruleset.night_catalog
    catalog = load_catalog(ruleset.id, ruleset.night_path, tuple(r.name for r in ruleset.roles))
    src = (ruleset.night_path or NIGHT_DIR / f"{ruleset.id}.toml").name
    check_tally(catalog, ruleset.voting, src)
    check_options(catalog, ruleset.options, src)
    return catalog


@cache
def load_catalog(ruleset_id: str, path: Path | None = None, roles: tuple[str, ...] = ()) -> Catalog:
    """The night file of a ruleset: ``path`` when the ruleset names one, else the bundled file."""
    p = path if path is not None else NIGHT_DIR / f"{ruleset_id}.toml"
    try:
        text = read_bounded(p, MAX_NIGHT_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise RulesetError(f"规则 {ruleset_id} 还没有夜晚技能文件（{p.name}）",
                           hint="夜晚结算需要规则的技能数据：rulesets/night/<规则 id>.toml") from None
    except OSError as exc:
        raise RulesetError(f"无法读取夜晚技能文件 {p}：{os_error_words(exc)}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"夜晚技能文件 {p.name} 不是 UTF-8 编码") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"夜晚技能文件 {p.name} 的 TOML 语法错误：{exc}") from None
    except RecursionError:
        raise RulesetError(f"夜晚技能文件 {p.name} 的数组或表嵌套太深") from None
    return parse_catalog(data, p.name, roles, text)
