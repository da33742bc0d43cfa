"""Import hygiene: the core is usable without the TUI, and the engine without the network or the database.

import-linter checks the static imports (scripts/check.sh); this checks what really gets loaded,
which also catches an import hidden behind a function call at module level.
"""

from __future__ import annotations

import subprocess
import sys


def loaded_after(imports: str) -> set[str]:
    code = f"import sys\n{imports}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_core_and_cli_do_not_load_textual() -> None:
    mods = loaded_after("import tracker.service, tracker.cli, tracker.engine.ruleset\n"
                        "from tracker.cli import _register_all; _register_all()")
    assert not {m for m in mods if m == "textual" or m.startswith(("textual.", "tui"))}


def test_the_engine_loads_neither_network_nor_database() -> None:
    mods = loaded_after("import tracker.engine.ruleset, tracker.engine.ballots")
    assert not {m for m in mods if m.split(".")[0] in {"httpx", "sqlalchemy", "sqlmodel", "textual"}}


def test_every_command_is_found_by_name_and_registered_by_its_module() -> None:
    import click

    from tracker.cli import COMMANDS, _register_all, cli

    _register_all()
    assert set(cli.commands) == set(COMMANDS)
    assert all(isinstance(cli.get_command(click.Context(cli), n), click.Command) for n in COMMANDS)


def test_a_read_only_command_loads_only_its_own_area() -> None:
    """`tracker state` is called many times a day by cron and the director: it pays for no crawler,
    no word segmentation, no TUI and, on an up-to-date database, no alembic."""
    mods = loaded_after("import click\nfrom tracker.cli import cli\n"
                        "cli.get_command(click.Context(cli), 'state')")
    heavy = {m for m in mods if m.split(".")[0] in {"textual", "jieba", "rjieba", "alembic", "httpx", "selectolax"}
             or m.startswith(("tracker.scraper", "tracker.cli.crawl", "tracker.cli.penalties"))}
    assert heavy == set()
