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
