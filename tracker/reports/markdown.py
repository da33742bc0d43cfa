"""Markdown rendering of a day's reports: what a director reads in a terminal, an editor or a chat.

Player text (names, targets, reasons, excerpts) is escaped as Markdown *and* as HTML: a Markdown
viewer renders raw HTML, so a name such as ``<img src=x onerror=…>`` would run in the director's
browser, and ``![](http://…)`` would load the player's image. Control and bidi characters are made
visible (:func:`tracker.visible.visible`).
"""

from __future__ import annotations

import html
import re

from tracker.reports.model import CardsSection, DayReport, LurkSection, TallySection
from tracker.visible import visible

COLOR_NAMES = {"blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def md_text(text: object) -> str:
    """Text from players inert in Markdown: HTML escaped, Markdown punctuation backslashed, one line."""
    one_line = " ".join(str(text).split())
    # visible() last: its <U+200B> tokens are no HTML tag and read plainly in the raw file
    return visible(_MD_SPECIAL.sub(r"\\\1", html.escape(one_line, quote=False)))


_cell = md_text


def _fmt(n: float) -> str:
    return f"{n:g}"


def render_lurk(sec: LurkSection) -> list[str]:
    out = ["## 潜水统计", ""]
    if sec.accelerated:
        out += ["> 本日已加速：发言与投票的潜水判罚暂停。", ""]
    out += ["| 玩家 | 发言 | 最低 | 投票 | 备注 |", "|---|---:|---:|---|---|"]
    for r in sorted(sec.rows, key=lambda r: (r.posts - r.minimum, r.player)):
        voted = "—" if r.voted is None else ("是" if r.voted else ("仅无效票" if r.invalid_only else "否"))
        mark = "⚠ 不足" if r.posts < r.minimum and not r.exempt else ""
        out.append(f"| {_cell(r.player)} | {r.posts} | {r.minimum} | {voted} | {_cell(r.exempt or mark)} |")
    out += ["", "### 潜水判罚", ""]
    if not sec.penalties:
        out.append("无。")
    for p in sec.penalties:
        out.append(f"- {_cell(p.player)}：{_cell(p.rule)}（{_cell(p.clause)}），{COLOR_NAMES.get(p.card, p.card)}")
    return out


def render_tally(sec: TallySection) -> list[str]:
    out = [f"## 票型（{sec.purpose}）", "", "| 投票对象 | 公开票数 | 实际票数 |", "|---|---:|---:|"]
    true = dict(sec.true_totals)
    for target, n in sec.public_totals:
        out.append(f"| {_cell(target)} | {_fmt(n)} | {_fmt(true.get(target, n))} |")
    for target, n in sec.true_totals:
        if target not in dict(sec.public_totals):
            out.append(f"| {_cell(target)} | 0 | {_fmt(n)} |")
    out += ["", f"**结果：{md_text(sec.outcome)}**", "", "| 楼层 | 投票人 | 类型 | 投票对象 | 结果 |", "|---:|---|---|---|---|"]
    kinds = {"vote": "投票", "change": "改票", "proxy": "代投"}
    for b in sec.ballots:
        verdict = "有效" if b.valid else f"无效：{b.reason or ''}"
        out.append(f"| {b.floor} | {_cell(b.voter)} | {kinds.get(b.kind, b.kind)} | {_cell(b.target or '—')} | "
                   f"{_cell(verdict)} |")
    return out


def render_cards(sec: CardsSection) -> list[str]:
    out = ["## 判罚", "", "| 玩家 | 蓝牌 | 黄牌 | 红牌 | 状态 |", "|---|---:|---:|---:|---|"]
    for s in sec.standing:
        out.append(f"| {_cell(s.player)} | {s.blue} | {s.yellow} | {s.red} | {_cell(s.status)} |")
    out += ["", "### 记录", ""]
    if not sec.entries:
        out.append("无。")
    for e in sec.entries:
        note = f"（{md_text(e.note)}）" if e.note else ""
        out.append(f"- #{e.id} {e.at:%m-%d %H:%M} {_cell(e.player)} {COLOR_NAMES.get(e.color, e.color)} "
                   f"{_cell(e.clause)}：{_cell(e.reason)} —— {_cell(e.issuer)}{note}")
    return out


def render_markdown(report: DayReport) -> str:
    when = "关门后结算" if report.final else "关门前预警"
    lines = [f"# {md_text(report.game)} · 第 {report.day} 日 · {when}", "",
             f"规则：{md_text(report.ruleset)} · 关门：{report.closes_at:%Y-%m-%d %H:%M} · "
             f"生成：{report.generated_at:%Y-%m-%d %H:%M}", ""]
    for note in report.notes:
        lines += [f"> {md_text(note)}", ""]
    for section in (report.tally and render_tally(report.tally), report.lurk and render_lurk(report.lurk),
                    report.cards and render_cards(report.cards)):
        if section:
            lines += [*section, ""]
    return "\n".join(lines).rstrip() + "\n"
