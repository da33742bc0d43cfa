"""One event of the log in the director's words, one line: `tracker state --events`, `tracker event`.

The log's data is English keys for the code and the JSON; a director reading the list to find the
``seq`` to undo needs 第2夜, 原因 投票, 泡泡<预言> → 栗子 — and a settlement's confirmation summed
up (who went out, how many feedback messages, the win), not the whole table it stores.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tracker.engine.events import Payload, given

#: The kind's word in the rule posts' terms (`tracker event GAME.toml 挂机` accepts it too).
EVENT_WORDS = {
    "day_opened": "开门", "day_closed": "关门", "day_extended": "延长", "accelerated": "加速", "delayed": "延时",
    "eliminated": "出局", "died": "死亡", "last_vote_used": "已用最后一票", "benched": "挂机",
    "unbenched": "解除挂机", "revived": "复活", "substituted": "替补", "role_set": "设定身份",
    "faction_set": "阵营转变", "tag_given": "获得标记", "tag_passed": "移交标记", "tag_removed": "移除标记",
    "modifier": "暗记", "vote_right": "票权", "card_consequence": "红牌后果", "surrender": "投降",
    "faction_lost": "判负", "declared": "导演裁定", "action": "行动", "undo": "撤销", "note": "备注",
    "night_action": "提交技能", "night_setup": "技能设定", "night_settled": "结算确认",
}

#: Causes recorded in English codes (``--cause vote``), said as the posts say them.
CAUSE_WORDS = {"vote": "投票", "night": "夜晚", "skill": "技能", "red_card": "红牌", "card": "红牌",
               "election": "竞选", "auto": "自动", "request": "申请", "director": "导演"}

#: Data keys a line names in Chinese; keys not listed are shown as ``key=value``.
KEY_WORDS = {"reason": "说明", "text": "内容", "until": "延长至", "days": "天数", "by": "由", "to": "移交给",
             "role": "身份", "faction": "阵营", "group": "组", "tag": "标记", "condition": "条件",
             "value": "值", "name": "名称", "color": "颜色", "consequence": "后果", "ledger_id": "判罚",
             "instead_of": "代替", "success": "成功", "public": "公开"}

#: What a settlement's confirmation stores for the desk (read back by it), summed up instead.
_STORED = ("table", "table_before", "result", "seed", "submitted", "outs_in_lines", "via")


def _phase(key: str) -> str:
    from tracker.engine.night.desk import phase_words

    try:
        return phase_words(key)
    except (ValueError, IndexError):
        return key


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "是" if v else "否"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return "、".join(_value(x) for x in v)
    if isinstance(v, Mapping):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return str(v)


def _settled(data: Mapping[str, Any]) -> list[str]:
    payload = Payload.of(data)
    result = payload.result or {}
    deaths = result.get("deaths") or []
    parts = ["出局：" + "、".join(f"{d['player']}（{d['cause']}）" for d in deaths) if deaths else "无人出局"]
    survivals = result.get("survivals") or []
    if survivals:
        parts.append("存活：" + "、".join(s["player"] for s in survivals))
    for key, word in (("rejected", "未结算的行动"), ("feedback", "私信反馈"), ("conversions", "身份变化"),
                      ("questions", "待定")):
        if result.get(key):
            parts.append(f"{word} {len(result[key])} 条")
    outcome = result.get("outcome")
    if outcome:
        parts.append(f"胜负：{outcome['winner']}获胜")
    decisions = payload.decisions or {}
    if decisions:
        parts.append("导演决定 " + "，".join(f"{k}={v}" for k, v in decisions.items()))
    return parts


def event_line(kind: str, player: str | None, data: Mapping[str, Any]) -> str:
    """``挂机（benched） 泡泡 第2日``: the word, the key the director may type, the details in words."""
    d = Payload.of(data)
    word = EVENT_WORDS.get(kind)
    head = f"{word}（{kind}）" if word else kind
    parts: list[str] = []
    if d.phase:
        parts.append(_phase(str(d.phase)))
        if kind == "modifier" and d.day is not None:
            parts.append(f"作用于第{d.day}日")
    elif d.day is not None:
        parts.append(f"第{d.day}日")
    if "actor" in data:
        targets = "、".join(str(t) for t in d.targets or ())
        choice = f"（{d.choice}）" if d.choice else ""
        parts.append(f"{d.actor}<{given(d.skill, '?')}>" + (f" → {targets}" if targets else "") + choice)
    if kind == "night_setup":
        parts.append(f"{d.field} = {_value(d.value)}")
    if kind == "night_settled":
        parts.extend(_settled(data))
    if d.cause:
        cause = str(d.cause)
        parts.append(f"原因 {CAUSE_WORDS.get(cause, cause)}")
    if d.seq is not None:
        parts.append(f"撤销事件 #{d.seq}")
    if d.vote_tid is not None:
        parts.append(f"投票帖 {d.vote_tid}" + (f"（{_value(d.votes)} 票）" if d.votes is not None else ""))
    if kind == "vote_right" and "granted" in data:
        parts.append("恢复票权" if d.granted else "失去票权")
    shown = {"phase", "day", "actor", "skill", "targets", "choice", "field", "cause", "seq", "vote_tid", "votes",
             "decisions", "granted", *_STORED}
    if kind != "night_setup":
        shown.discard("value")
    for k, v in data.items():
        if k in shown or v is None or (kind == "night_setup" and k == "value"):
            continue
        parts.append(f"{KEY_WORDS[k]} {_value(v)}" if k in KEY_WORDS else f"{k}={_value(v)}")
    return " ".join(x for x in (head, player or "", "，".join(parts)) if x)
