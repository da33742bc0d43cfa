"""The README's command table and game-file section against the real command line and game-file
parser: every command and option the README names exists, every command is in the table, and
every key the parser accepts is documented (a director follows the README, not the source)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from tracker.cli import _register_all, cli

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _spans(text: str) -> list[list[str]]:
    """The code spans of each table row."""
    rows = []
    for line in text.splitlines():
        if line.startswith("| `"):
            first_cell = line.replace("\\|", "¦").split("|")[1]
            rows.append(re.findall(r"`([^`]+)`", first_cell))
    return rows


def _options(cmd: click.Command) -> set[str]:
    return {o for p in cmd.params if isinstance(p, click.Option) for o in (*p.opts, *p.secondary_opts)}


def test_every_command_and_option_in_the_readme_exists() -> None:
    _register_all()
    checked = 0
    for row in _spans(_section("Commands")):
        prefix: list[str] = []
        for span in row:
            words = span.replace("¦", " ").replace("[", " ").replace("]", " ").split()
            if words[0] == "tracker":
                prefix, words = [], words[1:]
            else:
                words = prefix + words
            cmd: click.Command = cli
            chain: list[click.Command] = [cli]
            path: list[str] = []
            for w in words:
                if isinstance(cmd, click.Group) and w in cmd.commands:
                    cmd = cmd.commands[w]
                    chain.append(cmd)
                    path.append(w)
                    if isinstance(cmd, click.Group):
                        prefix = [*path]
                    continue
                if isinstance(cmd, click.Group) and "desk" in cmd.commands and not w.startswith("-"):
                    cmd = cmd.commands["desk"]  # `tracker night GAME.toml …` (NightGroup routes it so)
                    chain.append(cmd)
                    continue
                if w.startswith("--"):
                    known = set().union(*(_options(c) for c in chain))
                    assert w in known, f"README names `{w}` for `tracker {' '.join(path)}`, which has {sorted(known)}"
                    checked += 1
            assert path, f"README row names no command: {span}"
    assert checked > 30


def test_every_command_is_in_the_readme_table() -> None:
    _register_all()
    named = {re.match(r"tracker (\S+)", s).group(1)  # type: ignore[union-attr]
             for row in _spans(_section("Commands")) for s in row if s.startswith("tracker ")}
    assert named == set(cli.commands)


def test_every_game_file_key_is_documented() -> None:
    from tracker import config_model as config

    table = _section("A game file")
    groups = {"[game]": config._GameT, "[[players]]": config._PlayerT, "[[days]]": config._DayT,
              "[crawl]": config._CrawlT, "[login]": config._LoginT, "[schedule]": config._ScheduleT,
              "[ledger]": config._LedgerT}
    for head, model in groups.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `{head}`"))
        missing = [k for k in model.model_fields if f"`{k}`" not in row]
        assert not missing, f"{head}: {missing} not in the README"
    for top in config._GameFileT.model_fields:
        assert f"`[{top}]`" in table or f"`[[{top}]]`" in table, top


def test_the_readme_own_ruleset_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's block for a game of one's own, line by line in an empty folder, as a new director types
    it: it once ended in "无法写入 games/g.toml：路径不存在" because the folder was never made."""
    import shlex

    from tracker.cli import main

    block = README.split("A game the five bundled rulesets do not cover", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [shlex.split(line, comments=True) for line in block.splitlines()]
    assert [w[:2] for w in lines if w][-1] == ["tracker", "init"]
    monkeypatch.chdir(tmp_path)
    for words in filter(None, lines):
        if words[:2] == ["mkdir", "-p"]:
            Path(words[2]).mkdir(parents=True, exist_ok=True)
            continue
        assert words[0] == "tracker", words
        assert main(words[1:]) == 0, words
    assert 'ruleset = "../my-game.toml"' in (tmp_path / "games" / "g.toml").read_text("utf-8")
