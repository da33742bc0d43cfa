"""docs/architecture.md: "the JSON documents of the command line are built only in tracker/cli/json_docs.py".

A command module turns the services' typed answers into a document by calling one function there;
it neither serialises (``json.dumps``) nor hands ``emit_json`` a dict or list it assembled inline,
nor asks a value for its own JSON (``.to_json()`` / ``.as_json()``) to patch it.
"""

from __future__ import annotations

import re
from pathlib import Path

CLI = Path(__file__).resolve().parents[1] / "tracker" / "cli"
HOMES = {"json_docs.py", "common.py"}  # common.py holds emit_json, the one writer of the documents
INLINE = re.compile(r"json\.dumps\(|emit_json\(\s*[\[{]|\.to_json\(|\.as_json\(")


def test_the_command_modules_build_no_json_of_their_own() -> None:
    found = [f"{p.name}:{n}: {line.strip()}"
             for p in sorted(CLI.glob("*.py")) if p.name not in HOMES
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if INLINE.search(line)]
    assert found == []


def test_the_check_sees_an_inline_document() -> None:
    assert INLINE.search('emit_json({"day": day})') and INLINE.search("x = json.dumps(v)")
    assert INLINE.search("doc = rep.to_json()") and not INLINE.search("emit_json(state_json(s))")
