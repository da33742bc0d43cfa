"""Which readings of the rule post apply: the ruleset's options as the game file sets them.

Rule posts leave room (`village_gods`: 神职 all out or any out; `exile_tie`: a tie exiles the first
to the top or nobody). `tracker rulesets` advertises them and the game file sets them in
``[options]``; `state` and `tally` say which reading each option has and where it came from, so a
result is never read under a reading the director did not know was in force.
"""

from __future__ import annotations

import json
from typing import Any


def reading_lines(ruleset: Any, game_options: dict[str, Any]) -> list[str]:
    out = []
    for o in ruleset.options:
        value = ruleset.option(o.key)
        where = "游戏文件 [options]" if o.key in game_options else "默认"
        shown = json.dumps(value, ensure_ascii=False)
        out.append(f"规则读法：{o.key} = {shown}（{where}）{o.description.split('：')[0]}")
    return out


def readings_json(ruleset: Any, game_options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": o.key, "value": ruleset.option(o.key), "default": o.default,
             "from_game_file": o.key in game_options} for o in ruleset.options]
