"""A self-contained HTML page of a day's reports, with inline SVG charts (no scripts, no network).

Opens from a file in any browser: posts per player against the minimum (the lurk line drawn across)
and the vote tally, public and true side by side.
"""

from __future__ import annotations

from html import escape

from tracker.reports.markdown import COLOR_NAMES
from tracker.reports.model import CardsSection, DayReport, LurkSection, TallySection
from tracker.visible import visible

_CSS = """
body{font-family:"Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;margin:2em auto;max-width:980px;
color:#222;background:#fafafa}h1{font-size:1.5em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left}
th{background:#f0f0f0}td.n{text-align:right}.bad{color:#b00020;font-weight:bold}.ok{color:#1b5e20}
.meta{color:#666}.chart{background:#fff;border:1px solid #ddd}
"""


def _e(x: object) -> str:
    # escaped, and invisible/bidi characters shown (<U+200B>): a look-alike name reads as one here too
    return escape(visible(str(x)), quote=True)


def _bar_chart(rows: list[tuple[str, float, float | None]], *, line: float | None, title: str,
               colors: tuple[str, str] = ("#4a78c2", "#e0a030")) -> str:
    """Horizontal bars; a second value draws a second bar; ``line`` is drawn across (the minimum)."""
    if not rows:
        return ""
    bar_h, gap, left, width = 18, 8, 110, 820
    top = 30
    max_v = max([line or 0.0] + [max(a, b or 0.0) for _, a, b in rows]) or 1.0
    scale = (width - left - 60) / max_v
    per = bar_h * (2 if any(b is not None for _, _, b in rows) else 1) + gap
    height = top + per * len(rows) + 20
    parts = [f'<svg class="chart" role="img" aria-label="{_e(title)}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
             f'<text x="8" y="18" font-size="14" font-weight="bold">{_e(title)}</text>']
    for i, (name, a, b) in enumerate(rows):
        y = top + i * per
        parts.append(f'<text x="{left - 8}" y="{y + 13}" font-size="13" text-anchor="end">{_e(name)}</text>')
        fill = colors[0] if line is None or a >= line else "#c62828"
        parts.append(f'<rect x="{left}" y="{y}" width="{a * scale:.1f}" height="{bar_h - 2}" fill="{fill}"/>')
        parts.append(f'<text x="{left + a * scale + 4:.1f}" y="{y + 13}" font-size="12">{a:g}</text>')
        if b is not None:
            y2 = y + bar_h
            parts.append(f'<rect x="{left}" y="{y2}" width="{b * scale:.1f}" height="{bar_h - 2}" fill="{colors[1]}"/>')
            parts.append(f'<text x="{left + b * scale + 4:.1f}" y="{y2 + 13}" font-size="12">{b:g}</text>')
    if line is not None:
        x = left + line * scale
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 12}" stroke="#c62828" '
                     f'stroke-dasharray="4 3"/><text x="{x + 3:.1f}" y="{height - 4}" font-size="11" '
                     f'fill="#c62828">最低 {line:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _lurk(sec: LurkSection) -> str:
    rows = sorted(sec.rows, key=lambda r: (-r.posts, r.player))
    minimum = rows[0].minimum if rows else None
    chart = _bar_chart([(r.player, float(r.posts), None) for r in rows], line=minimum, title="今日发言数 / 最低要求")
    body = "".join(
        f"<tr><td>{_e(r.player)}</td><td class=n>{r.posts}</td><td class=n>{r.minimum}</td>"
        f"<td>{'—' if r.voted is None else ('是' if r.voted else ('仅无效票' if r.invalid_only else '否'))}</td>"
        f"<td class={'bad' if r.posts < r.minimum and not r.exempt else 'ok'}>"
        f"{_e(r.exempt or ('不足' if r.posts < r.minimum else ''))}</td></tr>"
        for r in rows)
    pens = "".join(f"<li>{_e(p.player)}：{_e(p.rule)}（{_e(p.clause)}），{_e(COLOR_NAMES.get(p.card, p.card))}</li>"
                   for p in sec.penalties) or "<li>无</li>"
    accel = "<p class=meta>本日已加速：发言与投票的潜水判罚暂停。</p>" if sec.accelerated else ""
    return (f"<h2>潜水统计</h2>{accel}{chart}<table><tr><th>玩家</th><th>发言</th><th>最低</th><th>投票</th>"
            f"<th>备注</th></tr>{body}</table><h3>潜水判罚</h3><ul>{pens}</ul>")


def _tally(sec: TallySection) -> str:
    true = dict(sec.true_totals)
    names = list(dict.fromkeys([t for t, _ in sec.public_totals] + [t for t, _ in sec.true_totals]))
    public = dict(sec.public_totals)
    chart = _bar_chart([(n, public.get(n, 0.0), true.get(n, 0.0)) for n in names], line=None,
                       title="票数（蓝：公开，橙：实际）")
    kinds = {"vote": "投票", "change": "改票", "proxy": "代投"}
    rows = "".join(
        f"<tr><td class=n>{b.floor}</td><td>{_e(b.voter)}</td><td>{kinds.get(b.kind, _e(b.kind))}</td>"
        f"<td>{_e(b.target or '—')}</td><td class={'ok' if b.valid else 'bad'}>"
        f"{'有效' if b.valid else '无效：' + _e(b.reason or '')}</td></tr>" for b in sec.ballots)
    return (f"<h2>票型（{_e(sec.purpose)}）</h2>{chart}<p><b>结果：{_e(sec.outcome)}</b></p><table><tr><th>楼层</th>"
            f"<th>投票人</th><th>类型</th><th>投票对象</th><th>结果</th></tr>{rows}</table>")


def _cards(sec: CardsSection) -> str:
    st = "".join(f"<tr><td>{_e(s.player)}</td><td class=n>{s.blue}</td><td class=n>{s.yellow}</td>"
                 f"<td class=n>{s.red}</td><td>{_e(s.status)}</td></tr>" for s in sec.standing)
    ent = "".join(f"<li>#{e.id} {e.at:%m-%d %H:%M} {_e(e.player)} {_e(COLOR_NAMES.get(e.color, e.color))} "
                  f"{_e(e.clause)}：{_e(e.reason)} —— {_e(e.issuer)}{'（' + _e(e.note) + '）' if e.note else ''}</li>"
                  for e in sec.entries) or "<li>无</li>"
    return (f"<h2>判罚</h2><table><tr><th>玩家</th><th>蓝牌</th><th>黄牌</th><th>红牌</th><th>状态</th></tr>{st}"
            f"</table><h3>记录</h3><ul>{ent}</ul>")


def render_html(report: DayReport) -> str:
    when = "关门后结算" if report.final else "关门前预警"
    title = f"{report.game} · 第 {report.day} 日 · {when}"
    parts = [f'<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>{_e(title)}</title>'
             f"<style>{_CSS}</style></head><body><h1>{_e(title)}</h1>"
             f"<p class=meta>规则：{_e(report.ruleset)} · 关门：{report.closes_at:%Y-%m-%d %H:%M} · "
             f"生成：{report.generated_at:%Y-%m-%d %H:%M}</p>"]
    parts += [f"<blockquote>{_e(n)}</blockquote>" for n in report.notes]
    if report.tally:
        parts.append(_tally(report.tally))
    if report.lurk:
        parts.append(_lurk(report.lurk))
    if report.cards:
        parts.append(_cards(report.cards))
    parts.append("</body></html>\n")
    return "".join(parts)
