"""BBCode the director pastes into the 进程帖: the day's cards with their clauses, and the lurker list.

Worded as the rule posts word it (蓝牌/黄牌/红牌, 合并, 红牌罚下, 挂机, 出局, 潜水). Text that came
from players (excerpts, names) has its square brackets made full-width so it can never open a
BBCode tag in the director's post.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from tracker.engine.state import STATUS_WORDS
from tracker.penalties.ledger import COLOR_WORDS, Entry, Standing
from tracker.reports.bbcode import bbcode_text

COLOR_BBCODE = {"blue": "Blue", "yellow": "DarkOrange", "red": "Red"}


safe = bbcode_text  # the one BBCode escape (tracker.reports.bbcode), under the name these writers use


def _card(color: str | None) -> str:
    if color is None:
        return ""
    return f"[color={COLOR_BBCODE[color]}][b]{COLOR_WORDS[color]}[/b][/color]"


def _clause(clause: str | None) -> str:
    return f"（判罚依据 {safe(clause)}）" if clause else ""


#: The one time the 判罚公示 shows, said once above its list.
TIME_BASIS = "[size=2]时间为违规帖子的发帖时间[/size]"


def entry_line(e: Entry, *, places: Mapping[int, tuple[int, int, datetime]] | None = None,
               tz: tzinfo | None = None) -> str:
    """One ledger entry as a sentence of the announcement: a card with a post names 帖 and 楼 once
    and carries the post's time (the violation's) — its correction and its revocation too, which
    name the same post. An entry without a post (潜水, a merge) has no violation time, and the
    time the director decided would be a second basis in one list: it carries none."""
    who = safe(e.player)
    where = ""
    at: datetime | None = None
    if e.post is not None:
        place = (places or {}).get(e.post)
        if place is not None:
            where = f"（帖 {place[0]} 第 {place[1]} 楼）"
            at = place[2]
        else:
            where = f"（帖子 pid {e.post}）"
    when = at.astimezone(tz).strftime("%m-%d %H:%M") if tz is not None and at is not None else ""
    stamp = f"[size=2]{when}[/size] " if when else ""
    if e.action == "issue":
        return f"{stamp}{who} {_card(e.color)}{_clause(e.clause)}：{safe(e.reason)}{where}"
    if e.action == "convert":
        return f"{stamp}{who} {safe(e.reason)}，获得一张{_card(e.color)}"
    if e.action == "revoke":
        return f"{stamp}撤销 {who} 的{_card(e.color)}（第 {e.ref} 条）：{safe(e.reason)}"
    if e.action == "amend":
        return f"{stamp}更正 {who} 的判罚（第 {e.ref} 条）为{_card(e.color)}{_clause(e.clause)}：{safe(e.reason)}"
    return f"{stamp}{who} 的合并（第 {e.ref} 条）随之撤销"


@dataclass(frozen=True, slots=True)
class RedOff:
    """A player sent off by a red card, and what that means under this ruleset."""

    player: str
    consequence: str  # "benched" | "out"
    faction_lost: str | None = None


def cards_bbcode(day: int, entries: Sequence[Entry], standings: Mapping[str, Standing], *,
                 reds: Sequence[RedOff] = (), lost_factions: Sequence[str] = (),
                 places: Mapping[int, tuple[int, int, datetime]] | None = None, tz: tzinfo | None = None,
                 title: str | None = None, anchor: str | None = None) -> str:
    """The day's 判罚公示: each decision of the day, then everyone's cards, then the reds' effect,
    then the ledger's ``anchor`` (tracker.penalties.anchor): posted, the forum keeps the head public."""
    lines = [f"[b]{safe(title) if title else f'第 {day} 日 判罚公示'}[/b]", ""]
    if entries:
        items = [entry_line(e, places=places, tz=tz) for e in entries]
        if any(i.startswith("[size=2]") for i in items):
            lines.append(TIME_BASIS)
        lines.append("[list=1]")
        lines += [f"[*]{i}" for i in items]
        lines.append("[/list]")
    else:
        lines.append("本日无判罚。")
    held = [s for s in standings.values() if s.blue or s.yellow or s.red]
    if held:
        lines += ["", "[b]累计判罚[/b]", "[list]"]
        for s in sorted(held, key=lambda s: (-s.red, -s.yellow, -s.blue, s.player)):
            parts = [f"{COLOR_WORDS[c]} {n} 张" for c, n in (("red", s.red), ("yellow", s.yellow), ("blue", s.blue))
                     if n]
            lines.append(f"[*]{safe(s.player)}：{'，'.join(parts)}")
        lines.append("[/list]")
    for r in reds:
        lines.append(f"{safe(r.player)} 受到{_card('red')}判罚，{STATUS_WORDS.get(r.consequence, r.consequence)}"
                     f"（红牌罚下）。")
    for f in lost_factions:
        lines.append(f"{safe(f)}阵营累计获得两张或以上{_card('red')}，阵营判负。")
    if anchor:
        lines += ["", f"[size=2]{anchor}（核对：tracker cards GAME.toml verify）[/size]"]
    return "\n".join(lines).rstrip() + "\n"


@dataclass(frozen=True, slots=True)
class LurkLine:
    """One player's row of the lurker list."""

    player: str
    posts: int
    voted: bool | None
    penalties: tuple[tuple[str, str], ...] = ()
    """(rule code, clause) pairs; empty when the player is fine."""
    note: str = ""


def lurkers_bbcode(day: int, rows: Sequence[LurkLine], *, min_posts: int, accelerated: bool = False,
                   final: bool = True, as_of: datetime | None = None, tz: tzinfo | None = None) -> str:
    """The day's 潜水 list: posts and votes for every player, the penalised ones first.

    Before the close (``final=False``) it is a warning, not a ruling: the words say so.
    """
    head = f"第 {day} 日 潜水统计" if final else f"第 {day} 日 潜水预警"
    lines = [f"[b]{head}[/b]"]
    if as_of is not None:
        when = as_of.astimezone(tz) if tz is not None else as_of
        lines.append(f"[size=2]统计截至 {when.strftime('%Y-%m-%d %H:%M')}[/size]")
    if accelerated:
        lines.append("本日执行加速，发言不足或未投票者不判罚。")
    lines.append("")
    guilty = [r for r in rows if r.penalties]
    if guilty:
        verb = "判罚" if final else "若不补足将判罚"
        lines.append("[list]")
        for r in sorted(guilty, key=lambda r: r.player):
            why = "；".join(safe(c) for _, c in r.penalties)
            lines.append(f"[*]{safe(r.player)}：{verb}{_card('yellow')}（潜水）——{why}")
        lines.append("[/list]")
    elif not accelerated:
        lines.append("本日无人潜水。")
    lines += ["", "[table]", "[tr][td][b]玩家[/b][/td][td][b]发言数[/b][/td][td][b]投票[/b][/td][td][b]备注[/b][/td][/tr]"]
    for r in sorted(rows, key=lambda r: (r.posts, r.player)):
        voted = "—" if r.voted is None else ("已投" if r.voted else "[color=Red]未投[/color]")
        posts = f"[color=Red]{r.posts}[/color]" if r.posts < min_posts and not accelerated else str(r.posts)
        lines.append(f"[tr][td]{safe(r.player)}[/td][td]{posts}[/td][td]{voted}[/td][td]{safe(r.note)}[/td][/tr]")
    lines.append("[/table]")
    return "\n".join(lines) + "\n"
