"""A settled night in the director's words: one rendering for `tracker night`, its simulate form and
the TUI's 夜晚 screen, so the three never disagree about what a night said.

A death is named with the post's own word: 出局, or M160's 死亡 (which is not 出局) — read from the
table after settlement, where the game's hooks set it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tracker.engine.night.model import Settlement


@dataclass(frozen=True, slots=True)
class Section:
    """A titled block of lines; ``tone`` tells a screen how to colour it (plain, bad, warn, good)."""

    title: str
    lines: tuple[str, ...]
    tone: str = "plain"


def life_word(result: Settlement, player: str) -> str:
    after = result.table_after
    seat = after.players.get(player) if after is not None else None
    return "死亡" if seat is not None and seat.life == "死亡" else "出局"


def deaths_line(result: Settlement) -> str:
    if not result.deaths:
        return "无人出局"
    return "、".join(f"{d.player}{life_word(result, d.player)}（{d.cause}）" for d in result.deaths)


def announcement_lines(result: Settlement) -> list[str]:
    """The 公示 draft: the post's lines, led by who is out (or 死亡) in the announced order unless
    the game's hooks wrote that list in the post's own words."""
    out: list[str] = []
    if result.outs_in_lines:
        pass  # the hooks' own words (夜晚出局 …) are among result.lines
    elif result.out_order:
        groups: dict[str, list[str]] = {}
        for p in result.out_order:
            groups.setdefault(life_word(result, p), []).append(p)
        out.extend(f"{word}：{'、'.join(names)}" for word, names in groups.items())
    else:  # 平安夜 is a night's word: a day phase that took nobody out says so plainly
        day = result.table_after is not None and result.table_after.night is None
        out.append("无人出局" if day else "平安夜")
    out.extend(result.lines)
    return out


def sections(result: Settlement) -> list[Section]:
    """Steps, refusals, deaths, private feedback (ready to paste), the 公示 draft, open questions, the win."""
    out = [Section("结算步骤", tuple(result.log) or ("（还没有提交的行动）",))]
    if result.rejected:
        out.append(Section("不能结算的行动", tuple(f"{r.actor}<{r.skill}>：{r.reason}" for r in result.rejected), "bad"))
    out.append(Section("结果", (deaths_line(result), *tuple(f"{s.player}存活：{s.reason}" for s in result.survivals)),
                       "bad" if result.deaths else "plain"))
    if result.feedback:
        out.append(Section("私信反馈（可直接复制）", tuple(f"【{f.to}】{f.content}" for f in result.feedback)))
    out.append(Section("公示草稿", tuple(announcement_lines(result))))
    if result.questions:
        out.append(Section("待定（可用 --decide 键=值 改）", tuple(
            f"{q.key}：{q.question} → {q.taken}（{'导演指定' if q.by == 'director' else '随机'}；可选 {' / '.join(q.options)}）"
            for q in result.questions), "warn"))
    if result.outcome is not None:
        out.append(Section("胜负", (f"{result.outcome.winner}获胜（{result.outcome.reason}）",), "good"))
    return out


def render(result: Settlement) -> str:
    """Plain text for the terminal (the caller makes control characters visible)."""
    lines: list[str] = []
    for s in sections(result):
        lines.append(f"{s.title}：")
        lines.extend(f"  {line}" for line in s.lines)
    return "\n".join(lines)


def submitted_line(seq: int, actor: str, skill: str, targets: Sequence[str]) -> str:
    """A submission said back (`tracker night … add`, the TUI's 夜晚 entry line): the skill as the
    desk recorded it (its canonical name), the targets as typed."""
    return f"已提交（事件 {seq}）：{actor}<{skill}> {'、'.join(targets)}".rstrip()


def withdrawn_line(seq: int, actor: str, skill: str) -> str:
    """A submission withdrawn (`tracker night … remove`, the TUI's 夜晚 `d`)."""
    return f"已撤回（事件 {seq}）：{actor}<{skill}>"


def exit_lines(words: str, result: Settlement) -> list[str]:
    """A day's exit settled with what it set off, in a few lines under the command that caused it
    (`tracker confirm`, `tracker card issue`): who went out and why, who survived, open questions, the win."""
    lines = [f"{words}结算：{deaths_line(result)}"]
    lines += [f"{s.player}存活：{s.reason}" for s in result.survivals]
    lines += [f"{t.tag}：{t.from_player or '无人'} → {t.to_player or '无人'}（{t.via}）" for t in result.tags_moved]
    lines += [f"待定：{q.question} → {q.taken}（{'导演指定' if q.by == 'director' else '随机，导演可撤销后改'}）"
              for q in result.questions]
    if result.outcome is not None:
        lines.append(f"胜负：{result.outcome.winner}获胜（{result.outcome.reason}）")
    return lines
