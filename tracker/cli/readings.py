"""Which readings of the rule post apply: the ruleset's options as the game file sets them.

Rule posts leave room (`village_gods`: 神职 all out or any out; `exile_tie`: a tie exiles the first
to the top or nobody). `tracker rulesets` advertises them and the game file sets them in
``[options]``; `state` and `tally` say which reading each option has and where it came from, so a
result is never read under a reading the director did not know was in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tracker.cli.json_docs import value_words

if TYPE_CHECKING:
    from tracker.engine.ruleset_schema import Ruleset


def reading_lines(ruleset: Ruleset, game_options: Mapping[str, object]) -> list[str]:
    out = []
    for o in ruleset.options:
        value = ruleset.option(o.key)
        where = "游戏文件 [options]" if o.key in game_options else "默认"
        shown = value_words(value)
        out.append(f"规则读法：{o.key} = {shown}（{where}）{o.description.split('：')[0]}")
    return out
