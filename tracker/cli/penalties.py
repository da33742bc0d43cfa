"""`tracker flags`, `tracker lurkers`, `tracker cards`, `tracker card`: review, ledger, lurking.

Thin: parse the arguments, call the service, print JSON (``--json``) or Chinese lines. Every
decision prints the entry it wrote; `cards verify` exits 1 when the chain is broken.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracker.cli.common import (
    COLOR_WORDS_IN,
    FLAG_STATUS_WORDS_IN,
    WordChoice,
    db_option,
    echo,
    emit_json,
    game_argument,
    json_option,
    service,
)
from tracker.cli.json_docs import (
    Places,
    cards_json,
    decisions_json,
    flag_json,
    flags_json,
    history_json,
    lurkers_json,
    placed_decision_json,
    verify_json,
)
from tracker.engine.state import STATUS_WORDS
from tracker.penalties.findings import KIND_WORDS
from tracker.penalties.ledger import ACTION_WORDS, COLOR_WORDS, LADDER_ISSUER
from tracker.penalties.place import place_words

if TYPE_CHECKING:
    from tracker.penalties import ledger as L
    from tracker.penalties.review import Flag
    from tracker.service import Service
    from tracker.service.cards import CardDecision

COLOR_CHOICE = WordChoice(COLOR_WORDS_IN)


def _entry_line(e: L.Entry, places: Places, tz: tzinfo | None = None) -> str:
    """One ledger entry: its game day, its place (帖 and 楼, once), and when the director recorded it
    (记于, in the forum's zone; the store keeps UTC) — the one time every ledger line of the command
    line shows (the 判罚公示 shows the violation's instead, and says so)."""
    color = COLOR_WORDS.get(e.color or "", "")
    ref = f"（针对第 {e.ref} 条）" if e.ref else ""
    clause = f" [{e.clause}]" if e.clause else ""
    at = e.at
    if tz is not None and at.tzinfo is not None:
        at = at.astimezone(tz)
    issuer = "自动" if e.issuer == LADDER_ISSUER else e.issuer
    day = f"第{e.day}日 " if e.day is not None else ""
    place = places.get(e.post) if e.post is not None else None
    if place is not None:
        where = f"（{place_words(place[0], place[1])}）"
    elif e.post is not None and e.action in ("issue", "amend"):
        where = f"（帖子 pid {e.post}）"
    else:
        where = ""
    return (f"#{e.id} {day}记于 {at:%Y-%m-%d %H:%M} {ACTION_WORDS.get(e.action, e.action)} {e.player} "
            f"{color}{clause}{ref}：{e.reason}{where}（{issuer}）")


def _print_decision(d: CardDecision, places: Places, tz: tzinfo | None) -> None:
    for e in d.written:
        echo(_entry_line(e, places, tz))
    for ev in d.events:
        echo(f"  → {ev}")


def _flag_line(f: Flag) -> str:
    """One flag as the director reads it: the kind in Chinese and the rule post's clause."""
    status = {"open": "待审", "dismissed": "已驳回", "carded": "已判罚"}.get(f.status, f.status)
    return (f"[{f.id}] {status} 帖 {f.tid} 第 {f.floor} 楼 {f.author} "
            f"{KIND_WORDS.get(f.kind, f.kind)}｜{f.clause}：{f.excerpt}")


class CardGroup(click.Group):
    """`tracker card GAME.toml issue …`: the game file comes before the subcommand, so
    `tracker card issue --help` would read ``issue`` as the game file and print the group's help.
    Asked for a subcommand's help without a game file, show that subcommand's help."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in self.commands and any(a in ("--help", "-h") for a in args):
            args = ["GAME.toml", *args]
        # `tracker card GAME.toml --db URL issue …`: a group stops reading options at its first
        # argument, so an option after the game file is moved in front of it
        sub = next((i for i, a in enumerate(args) if a in self.commands), len(args))
        head, moved, i = [], [], 0
        while i < sub:
            if args[i] == "--db" and i + 1 < sub:
                moved += args[i:i + 2]
                i += 2
                continue
            if args[i].startswith("--db="):
                moved.append(args[i])
            else:
                head.append(args[i])
            i += 1
        return super().parse_args(ctx, [*moved, *head, *args[sub:]])



# ---------------------------------------------------------------------------------- flags
@click.command("flags")
@game_argument
@click.argument("action", required=False, type=click.Choice(["dismiss"]), metavar="[dismiss ID]")
@click.argument("flag_id", required=False, type=int, metavar="")
@click.option("--reason", default=None, help="驳回理由（dismiss 时必填）")
@click.option("--by", default=None, help="操作的导演（默认游戏文件中的第一位导演）")
@click.option("--status", type=WordChoice(FLAG_STATUS_WORDS_IN), default=None,
              help="只列出某种状态的违规记录（open 待审 / dismissed 已驳回 / carded 已判罚）")
@click.option("--no-detect", is_flag=True, help="不先运行检测，只列出已保存的违规记录")
@db_option
@json_option
def flags(game_path: Path, action: str | None, flag_id: int | None, reason: str | None, by: str | None,
          status: str | None, no_detect: bool, db_url: str | None, as_json: bool) -> None:
    """待审违规：先检测新帖与改动过的帖子（只扫描新增或改动的帖子），再列出全部违规记录、证据和建议的牌。

    `tracker flags GAME.toml dismiss ID --reason 理由` 驳回一条违规记录。
    """
    if action == "dismiss":
        if flag_id is None or reason is None:
            raise click.UsageError("驳回需要违规记录的编号和理由：tracker flags GAME.toml dismiss ID --reason 理由")
        with service(game_path, db_url) as svc:
            f = svc.flag_review.dismiss_flag(flag_id, reason, by=by)
        if as_json:
            emit_json(flag_json(f))
        else:
            echo(_flag_line(f))
            echo(f"驳回理由：{f.decision_reason}（{f.decided_by}）")
        return
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken
    from tracker.penalties.review import suggest_card

    with service(game_path, db_url) as svc:
        ledger_ok = check_ledger(svc)  # the suggested cards read the ledger
        run = None if no_detect else svc.flag_review.detect_flags()
        found = svc.flag_review.flags(detect=False, status=status)
        ledger = svc.cards.ledger()
        # what the TUI shows beside each flag: the evidence and, for an open one, the suggested card
        rules = svc.ctx.ruleset.detectors
        suggested = {f.id: suggest_card(f, ledger, rules=rules) for f in found if f.status == "open"}
    if as_json:
        emit_json(flags_json(found))
        fail_if_broken(ledger_ok)
        return
    if run is not None:
        echo(f"本次检测 {run.scanned} 帖，新增违规记录 {len(run.new_flags)} 条。")
    for f in found:
        echo(_flag_line(f))
        if f.evidence:
            echo(f"    证据：{f.evidence}")
        sug = suggested.get(f.id)
        if sug is not None:
            clause = f" [{sug.clause}]" if sug.clause else ""
            color = "" if sug.written else " --color 蓝|黄|红"  # the post names no card: the director's
            echo(f"    {sug.why}{clause}：tracker card {game_path} from-flag {f.id}{color}")
    if not found:
        echo("没有待审违规。" if status == "open" else "没有违规记录。")
    fail_if_broken(ledger_ok)

# -------------------------------------------------------------------------------- lurkers
@click.command("lurkers")
@game_argument
@click.option("--day", "day", type=int, required=True, help="第几日")
@db_option
@json_option
@click.option("--bbcode", is_flag=True, help="输出可贴到论坛的 BBCode 潜水名单")
def lurkers(game_path: Path, day: int, db_url: str | None, as_json: bool, bbcode: bool) -> None:
    """潜水统计：当日每位玩家的发言数、是否投票，以及应判的黄牌。"""
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken
    from tracker.penalties.lurk_cards import lurk_findings

    with service(game_path, db_url) as svc:
        if bbcode:
            echo(svc.lurking.lurkers_announcement(day), nl=False)
            return
        ledger_ok = check_ledger(svc)  # the 已判罚 column reads the ledger
        rep = svc.lurking.lurkers(day)
        found = lurk_findings(day, rep.penalties, svc.cards.ledger())
    if as_json:
        emit_json(lurkers_json(rep, found))
        fail_if_broken(ledger_ok)
        return
    echo(f"第 {day} 日潜水统计" + ("（加速日，不判罚）" if rep.accelerated else ""))
    for name, n in sorted(rep.posts.items(), key=lambda kv: (kv[1], kv[0])):
        voted = "已投票" if rep.voted.get(name) else "仅有无效票" if name in rep.invalid_only else "未投票"
        echo(f"  {name}：{n} 帖，{voted}")
    for f in found:
        p = f.penalty
        echo(f"应判{COLOR_WORDS.get(p.card, p.card)}：{p.player} —— {p.clause}（{p.detail}）｜{f.status_words}")
    if any(f.card is None for f in found):
        echo(f"发牌：tracker card {game_path} from-lurker --day {day}（全部待判罚），或在末尾写玩家名只判其中几人")
    fail_if_broken(ledger_ok)

# ---------------------------------------------------------------------------------- cards
@click.command("cards")
@game_argument
@click.argument("action", required=False, type=click.Choice(["verify", "announce", "history"]),
                metavar="[verify | announce --day N | history ID]")
@click.argument("card_id", required=False, type=int, metavar="")
@click.option("--day", "day", type=int, default=None, help="announce：第几日")
@click.option("--anchor", "anchors", multiple=True, metavar="N:HASH",
              help="verify：核对判罚公示末尾的账本锚点（第 N 条 + 哈希开头；可重复）")
@click.option("--anchors-from-forum", "from_forum", is_flag=True,
              help="verify：直接从论坛读取进程帖，核对导演贴出的账本锚点（不用数据库里的副本）")
@db_option
@json_option
def cards(game_path: Path, action: str | None, card_id: int | None, day: int | None,
          anchors: tuple[str, ...], from_forum: bool, db_url: str | None, as_json: bool) -> None:
    """记牌账本与每位玩家的当前判罚。

    `verify` 校验账本的哈希链，并核对账本锚点（--anchor、进程帖里导演贴出的判罚公示）和本地密钥封印；
    损坏时退出码为 1。`announce --day N` 输出当日判罚公示（BBCode，末尾带账本锚点）；
    `history ID` 一张牌的完整记录。
    """
    from tracker.cli.ledger_guard import check_ledger, fail_if_broken

    if action == "verify":
        _verify(game_path, db_url, as_json, anchors, from_forum)
        return
    if anchors or from_forum:
        raise click.UsageError("--anchor 和 --anchors-from-forum 只用于 verify")
    if action == "announce":
        if day is None:
            raise click.UsageError("公示需要 --day N")
        with service(game_path, db_url) as svc:
            v = check_ledger(svc)
            echo(svc.cards.cards_announcement(day), nl=False)
        fail_if_broken(v)
        return
    if action == "history":
        if card_id is None:
            raise click.UsageError("需要牌的编号：tracker cards GAME.toml history ID")
        with service(game_path, db_url) as svc:
            v = check_ledger(svc)
            history = svc.cards.card_history(card_id)
            places = svc.cards.post_places([e.post for e in history])
            tz = svc.game.tz
        if as_json:
            emit_json(history_json(history, places))
        else:
            for e in history:
                echo(_entry_line(e, places, tz))
        fail_if_broken(v)
        return
    with service(game_path, db_url) as svc:
        v = check_ledger(svc)
        ledger = svc.cards.ledger()
        standing = svc.cards.standing()
        places = svc.cards.post_places([e.post for e in ledger])
        tz = svc.game.tz
    if as_json:
        emit_json(cards_json(ledger, standing, places, verified=v))
        fail_if_broken(v)
        return
    for e in ledger:
        echo(_entry_line(e, places, tz))
    if not ledger:
        echo("账本为空。")
    echo("")
    for name, s in standing.items():
        echo(f"{name}：蓝牌 {s.blue}，黄牌 {s.yellow}，红牌 {s.red}"
             f"（{STATUS_WORDS.get(s.status, s.status)}）")
    fail_if_broken(v)

def _verify(game_path: Path, db_url: str | None, as_json: bool, given: tuple[str, ...],
            from_forum: bool = False) -> None:
    """The ledger's audit (`Cards.audit`) in the director's words; the process thread read
    from the forum when asked (the network is the command's to touch, not the service's)."""
    from tracker.errors import LedgerBrokenError
    from tracker.penalties.anchor import parse_anchor, seal_path

    wanted = [parse_anchor(a) for a in given]
    with service(game_path, db_url) as svc:
        game = svc.game
        if from_forum and game.process_thread is None:
            raise click.UsageError("--anchors-from-forum 需要游戏文件 [game] 里的 process_thread")
        if from_forum and game.process_thread is not None:
            from tracker.scraper.live import thread_posts_sync

            audit = svc.cards.audit(wanted, thread_posts_sync(game, game.process_thread),
                                        f"论坛上的进程帖（帖 {game.process_thread}，刚刚读取）")
        else:
            audit = svc.cards.audit(wanted)
    v, problems, anchored, posted = audit.chain, audit.problems, audit.anchored, audit.posted
    key_file, sealed, covers = audit.key_file, audit.sealed, audit.covers
    checked = [f"哈希链：{v.entries} 条记录与账本摘要（都在数据库里）"]
    if wanted:
        checked.append(f"--anchor 给出的锚点 {len(wanted)} 个")
    if audit.source:
        checked.append(f"{audit.source}中导演贴出的锚点 {posted} 个")
    if key_file is not None:
        checked.append(f"本地密钥封印 {sealed} 行（{seal_path(key_file)}，密钥 {key_file}），覆盖到第 {covers} 条")
    if as_json:
        emit_json(verify_json(v, problems, anchored=anchored, posted=posted,
                              source="forum" if from_forum else "database" if audit.source else None,
                              sealed=sealed, covers=covers,
                              extended=bool(anchored or key_file is not None or from_forum)))
    elif not problems:
        echo(f"账本完好：共 {v.entries} 条记录。")
        echo("已核对：" + "；".join(checked) + "。")
        if anchored:
            echo(f"已核对账本锚点 {anchored} 个（进程帖中 {posted} 个）：锚点记录的历史都还在账本里。")
        if sealed:
            echo(f"已核对本地密钥封印 {sealed} 条：第 1–{covers} 条都有封印。")
        if posted and not from_forum:
            echo("注意：进程帖的锚点读自数据库里的副本；能写数据库的人也能改它。"
                 "加 --anchors-from-forum 直接从论坛读取。")
        if not anchored and not sealed:
            echo("注意：没有核对任何锚点，这只证明账本自身前后一致；能写数据库的人可以整体改写账本而不被发现。"
                 "用 --anchor 核对判罚公示末尾的“账本锚点”（见 README）。")
    else:
        for p in problems:
            echo(f"账本已损坏：{p}")
        echo(f"共 {v.entries} 条记录。已核对：" + "；".join(checked) + "。")
    if problems:
        raise LedgerBrokenError(f"记牌账本校验失败：{problems[0]}",
                                hint="账本在记牌工具之外被改动；请从备份恢复数据库")

# ----------------------------------------------------------------------------------- card
@dataclass(frozen=True, slots=True)
class CardTarget:
    """What ``tracker card GAME [--db]`` names for its subcommands: typed, so a misspelt field is
    mypy's error rather than a KeyError at a director's prompt."""

    game_path: Path
    db_url: str | None


@click.group("card", cls=CardGroup)
@game_argument
@db_option
@click.pass_context
def card(ctx: click.Context, game_path: Path, db_url: str | None) -> None:
    """发牌、撤销、更正（每个操作都是账本中的一条新记录）。"""
    ctx.obj = CardTarget(game_path, db_url)


def _decision(obj: CardTarget, db_url: str | None, as_json: bool,
              call: Callable[[Service], CardDecision]) -> None:
    with service(obj.game_path, db_url or obj.db_url) as svc:
        d = call(svc)
        places = svc.cards.post_places([e.post for e in d.written])
        tz = svc.game.tz
    if as_json:
        emit_json(placed_decision_json(d, places))
    else:
        _print_decision(d, places, tz)

@card.command("issue")
@click.argument("player")
@click.option("--color", type=COLOR_CHOICE, required=True, help="blue 或 蓝 / yellow 或 黄 / red 或 红")
@click.option("--clause", default=None, help='判罚依据条款，例如 "5-(1)"')
@click.option("--reason", required=True, help="判罚理由（必填）")
@click.option("--post", "post", default=None, metavar="PID|TID#FLOOR",
              help="证据帖子：pid，或 帖子编号#楼层（如 3#17）")
@click.option("--day", "day", type=int, default=None,
              help="违规发生在第几日（默认：证据帖所在的那一日，没有证据帖则为当前这一日）")
@click.option("--by", default=None, help="发牌的导演（默认游戏文件中的第一位导演）")
@click.option("--at", "at", default=None, metavar="ISO",
              help="判罚结算的时间（默认现在）；关门后补发当天的红牌时写关门时刻")
@db_option
@json_option
@click.pass_obj
def issue(obj: CardTarget, player: str, color: str, clause: str | None, reason: str, post: str | None,
          day: int | None, by: str | None, at: str | None, db_url: str | None, as_json: bool) -> None:
    """给玩家发牌；满三张自动合并，红牌按规则罚下。牌记在违规那一日的公示里。"""
    def call(svc: Service) -> CardDecision:
        return svc.cards.issue_card(player, color, clause, reason, post=post, by=by, day=day,
                              at=_when(at, svc.game.tz))

    _decision(obj, db_url, as_json, call)

@card.command("revoke")
@click.argument("card_id", type=int, metavar="ID")
@click.option("--reason", required=True, help="撤销理由（必填）")
@click.option("--by", default=None, help="操作的导演")
@db_option
@json_option
@click.pass_obj
def revoke(obj: CardTarget, card_id: int, reason: str, by: str | None, db_url: str | None,
           as_json: bool) -> None:
    """撤销一张牌（新记录；它参与的合并随之撤销）。"""
    _decision(obj, db_url, as_json, lambda svc: svc.cards.revoke_card(card_id, reason, by=by))

@card.command("amend")
@click.argument("card_id", type=int, metavar="ID")
@click.option("--reason", required=True, help="更正理由（必填）")
@click.option("--color", type=COLOR_CHOICE, default=None, help="更正后的牌色")
@click.option("--clause", default=None, help="更正后的条款")
@click.option("--by", default=None, help="操作的导演")
@db_option
@json_option
@click.pass_obj
def amend(obj: CardTarget, card_id: int, reason: str, color: str | None, clause: str | None,
          by: str | None, db_url: str | None, as_json: bool) -> None:
    """更正一张牌的牌色或条款（新记录，原记录保留）。"""
    _decision(obj, db_url, as_json, lambda svc: svc.cards.amend_card(card_id, reason, color=color, clause=clause, by=by))

@card.command("from-flag")
@click.argument("flag_id", type=int, metavar="FLAG_ID")
@click.option("--color", type=COLOR_CHOICE, default=None, help="牌色（默认按违规记录的建议）")
@click.option("--clause", default=None, help="条款（默认取自违规记录）")
@click.option("--reason", default=None, help="理由（默认取自违规记录）")
@click.option("--day", "day", type=int, default=None, help="违规发生在第几日（默认：帖子所在的那一日）")
@click.option("--by", default=None, help="发牌的导演")
@click.option("--reported", is_flag=True, help="由其他演员举报（条款规定“被举报者加倍判罚”时发两张）")
@db_option
@json_option
@click.pass_obj
def from_flag(obj: CardTarget, flag_id: int, color: str | None, clause: str | None, reason: str | None,
              day: int | None, by: str | None, reported: bool, db_url: str | None, as_json: bool) -> None:
    """把一条违规记录转为判罚（牌色、条款按违规记录预填）。"""
    _decision(obj, db_url, as_json, lambda svc: svc.flag_review.card_from_flag(flag_id, color=color, clause=clause,
                                                           reason=reason, by=by, day=day, reported=reported))

@card.command("from-lurker")
@click.argument("players", nargs=-1, metavar="[玩家…]")
@click.option("--day", "day", type=int, required=True, help="第几日的潜水")
@click.option("--by", default=None, help="发牌的导演")
@db_option
@json_option
@click.pass_obj
def from_lurker(obj: CardTarget, players: tuple[str, ...], day: int, by: str | None, db_url: str | None,
                as_json: bool) -> None:
    """把当日的潜水判罚转为牌（默认全部待判罚的；写玩家名只判这几人）。已判过的不会重复发牌。"""
    from tracker.service.lurk_cards import card_lurkers

    with service(obj.game_path, db_url or obj.db_url) as svc:
        out = card_lurkers(svc, day, players, by=by)
        tz = svc.game.tz
    if as_json:
        emit_json(decisions_json(out))
        return
    for d in out:
        _print_decision(d, {}, tz)
    echo(f"第 {day} 日潜水：发牌 {len(out)} 张。" if out else f"第 {day} 日没有待判罚的潜水。")


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
    for cmd in (flags, lurkers, cards, card):
        group.add_command(cmd)


def _when(at: str | None, tz: tzinfo) -> datetime | None:
    """``--at``: an ISO time, in the game's zone when it names none; None = now."""
    if not at:
        return None
    from tracker.errors import ConfigError

    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        raise ConfigError(f"--at {at!r} 不是时间", hint="例如：2025-03-02T21:00:00+08:00") from None
    return when if when.tzinfo else when.replace(tzinfo=tz)
