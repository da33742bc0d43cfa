"""贴证: formatted chat or 树洞 records pasted into a public thread (发言（3）).

The rule posts' example is ``取酒 21:15:03 反馈：村民阵营``: a sender, a clock time with seconds,
then the message. QQ and WeChat exports also put a date before the time (``2025-03-01 21:15:03``)
or the sender after it, and often put the message on the next line. A time with seconds next to a
name is what sets such a line apart from "截止时间 22:00": players write deadlines without
seconds. Quoted text is never the quoter's.
"""

from __future__ import annotations

import re

from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

CLAUSE = "发言：在公开的帖子内贴出（或伪造）带有格式的聊天记录、树洞记录（贴证）"

_TIME = r"(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d"
_DATE = r"(?:\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?)"
_NAME = r"[^\s:：,，。!！?？\d][^\s:：,，。!！?？]{0,15}"
_LINE = re.compile(
    rf"^\s*(?:【[^】]{{1,10}}】)?(?P<name>{_NAME})\s+(?:{_DATE}\s+)?(?P<time>{_TIME})(?:\s+|$)"
    rf"|^\s*(?:{_DATE}\s+)?(?P<time2>{_TIME})\s+(?P<name2>{_NAME})\s*$",
    re.M,
)


def detect_chat_log(post: Post) -> list[Finding]:
    """At most one finding per post, listing every chat-log line seen."""
    lines = [m for m in _LINE.finditer(post.text)]
    if not lines:
        return []
    first = lines[0]
    shown = [post.text[m.start() : post.text.find("\n", m.end()) if "\n" in post.text[m.end():] else None].strip()
             for m in lines]
    ev = f"{len(lines)} 行聊天记录格式（发送者 + 带秒的时间）：" + " / ".join(s[:40] for s in shown[:3])
    return [make_finding(post, kind="chat_log_evidence", category="chat_log", clause=CLAUSE,
                         matched=shown[0][:60], evidence=ev,
                         excerpt_text=excerpt(post.text, first.start(), first.end()))]
