"""The post's two settlement orders ("游戏流程（行动顺序分前后）"), as the steps the hook walks.

The post numbers its flow 0–4 (1 = 首夜, 4 = 其他夜) and lists each night's actions one per line
without numbers; a log line "(4.5)" is flow step 4, fifth line (药师【药剂】), "(1.5)" the fifth
line of the first night. The other-nights list is the ruleset's ``order`` (data); the first night
is written here, verbatim, because a catalog has one ``order``.
"""

from __future__ import annotations

import re

FIRST_NIGHT: tuple[str, ...] = (
    "群内爪牙【窥天】", "告死邪魔【预告】", "安保人员【禁锢】", "无政府主义者【抗议】", "药师【药剂】",
    "化梦师【占卜】", "模仿者【克隆】", "阴谋论者【密谋】", "审讯官【拷问】", "冰恋者【守墓】",
    "幕后黑手【洞悉】", "幕后黑手【夺刀】", "煤气灯人【寻觅】", "漫步者【神游】",
)

#: The step the vote line of the other nights stands for (it names no skill).
VOTES = "投票结算"
#: The second 护士长【诊断】 line: the 晨曦 feedback.
DAWN_DIAGNOSIS = "诊断反馈"

_SKILL = re.compile(r"【([^】]+)】$")


def steps(lines: tuple[str, ...]) -> list[tuple[str, str]]:
    """(step number, skill) for each line: '药师【药剂】' → ('4.5', '药剂') in the other nights."""
    flow = "1" if lines == FIRST_NIGHT else "4"
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, line in enumerate(lines, 1):
        m = _SKILL.search(line)
        name = m.group(1) if m else ""
        if line.startswith("结算投票"):
            name = VOTES
        elif name in seen and name == "诊断":
            name = DAWN_DIAGNOSIS
        seen.add(name)
        out.append((f"{flow}.{i}", name))
    return out
