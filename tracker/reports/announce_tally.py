"""BBCode the director pastes into the vote thread at close: the count, the invalid ballots, the result.

Worded as the rule posts word it (投票对象, 改票, 代投, 弃权 or the ruleset's own 弃票, 平票, 出局, 当选). The count is the
*public* one (what players may know: 警长's 1.5, 流言's announced +2); hidden effects (暗记) never
appear. Where the rule post keeps ballots secret until the end (107: "游戏结束前，具体投票状况不会
公布"), ``show_voters=False`` lists only the totals and how many abstained, did not vote or voted
only invalidly — never a name but the result's. Player text has its brackets made full-width so it
can never open a tag in the director's post.
"""

from __future__ import annotations

from datetime import tzinfo

from tracker.engine.tally import CountedBallot, Tally, number
from tracker.reports.bbcode import bbcode_text as safe

PURPOSE_WORDS = {"exile": "放逐投票", "election": "竞选投票"}


def _n(x: float) -> str:
    return str(number(x))


def _ballot_line(cb: CountedBallot, tz: tzinfo | None) -> str:
    at = cb.ballot.posted_at.astimezone(tz) if tz else cb.ballot.posted_at
    who = safe(cb.voter)
    if cb.ballot.proxy_by:
        who += f"（{safe(cb.ballot.proxy_by)} 代投）"
    why = safe(cb.verdict.message) if cb.verdict else ""
    if cb.verdict is not None and cb.verdict.code.value in ("missing_label", "bad_label"):
        return f"{cb.ballot.floor}# {who}（{at:%m-%d %H:%M}）—— {why}"
    label = "改票对象" if cb.ballot.change else "投票对象"
    target = safe(cb.ballot.target) if cb.ballot.target else "（未写明）"
    return f"{cb.ballot.floor}# {who}（{at:%m-%d %H:%M}）{label}：{target} —— {why}"


def _reason_words(cb: CountedBallot) -> str:
    """The rule's reason for an invalid ballot without the ballot's own details (names, targets)."""
    if cb.verdict is None:
        return "无效"
    from tracker.engine.verdicts import WORDS

    words = WORDS.get(cb.verdict.code)
    return safe(words) if words else cb.verdict.code.value


def announce_tally_bbcode(t: Tally, *, title: str | None = None, show_voters: bool = True,
                          tz: tzinfo | None = None) -> str:
    """The whole post. Totals highest first; voters listed after each total when ``show_voters``."""
    w = t.window
    # 第1日警长竞选结果 (the office names the election), 第2日放逐投票结果
    what = f"{w.office}竞选" if w.purpose == "election" and w.office else PURPOSE_WORDS[w.purpose]
    closes = w.closes.astimezone(tz) if tz else w.closes
    lines = [f"[b]{safe(title) if title else f'第{t.day}日{what}结果'}[/b]",
             f"投票截止：{closes:%Y-%m-%d %H:%M}" + ("（已执行加速）" if w.accelerated else ""), ""]

    lines.append("[b]票数统计[/b]")
    voters_of: dict[str, list[str]] = {}
    for cb in t.ballots:
        if cb.final and cb.target and cb.target != t.abstain_word and cb.public_weight:
            voters_of.setdefault(cb.target, []).append(
                safe(cb.voter) + (f"×{_n(cb.public_weight)}" if cb.public_weight != 1 else ""))
    if not t.public_totals:
        lines.append("无有效票")
    for target, total in t.public_totals.items():
        who = f"（{'、'.join(voters_of.get(target, []))}）" if show_voters and voters_of.get(target) else ""
        lines.append(f"{safe(target)}：{_n(total)} 票{who}")
    # the post's own word for an abstention (werewolf-12 "视为弃票"; the seed posts' 弃权)
    word = t.abstain_word
    for label, names in ((word, t.abstained), (f"未投票，视为{word}", t.auto_abstain), ("未投票", t.silent),
                         ("仅有无效票", t.only_invalid)):
        if names:
            lines.append(f"{label}：{'、'.join(map(safe, names))}" if show_voters else f"{label}：{len(names)} 人")

    invalid = [cb for cb in t.ballots if not cb.valid]
    if invalid and show_voters:
        lines += ["", "[b]无效票[/b]"]
        lines += [_ballot_line(cb, tz) for cb in invalid]
    elif invalid:
        # ballots secret until the end: how many were invalid and why, never whose or for whom
        # (a floor number or a target would give the ballot away)
        why: dict[str, int] = {}
        for cb in invalid:
            reason = _reason_words(cb)
            why[reason] = why.get(reason, 0) + 1
        lines += ["", "[b]无效票[/b]",
                  f"共 {len(invalid)} 张：" + "；".join(f"{r} {n} 张" for r, n in why.items())]

    lines += ["", "[b]结果[/b]", safe(t.outcome.message) + "。"]
    return "\n".join(lines)
