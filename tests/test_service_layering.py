"""The services meet only through their constructors (issue #11).

import-linter's contract lists the "is given" edges between the services (pyproject.toml); this
checks they are type-only: outside ``if TYPE_CHECKING:`` no service module imports another, so a
service cannot reach another except through what :class:`tracker.service.Service` hands it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE_DIR = Path(__file__).resolve().parent.parent / "tracker" / "service"
SERVICES = ["gamelog", "votes", "cards", "flag_review", "lurking", "reporting", "status", "crawling", "browsing",
            "night_desk"]


def _runtime_imports(tree: ast.Module) -> set[str]:
    """Modules imported at run time: every import not inside an ``if TYPE_CHECKING:`` block."""
    out: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                visit(node.orelse)
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                out.add(node.module)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])

    visit(tree.body)
    return out


@pytest.mark.parametrize("name", SERVICES)
def test_a_service_imports_no_other_service_at_run_time(name: str) -> None:
    tree = ast.parse((SERVICE_DIR / f"{name}.py").read_text(encoding="utf-8"))
    services = {f"tracker.service.{n}" for n in SERVICES}
    others = {m for m in _runtime_imports(tree) if m in services} - {"tracker.service.context"}
    assert not others  # helper modules of the package (card_place, roster_check …) are not services


def test_the_check_sees_a_runtime_import() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import tracker.service.votes\n"
                     "def f():\n    from tracker.service.gamelog import GameLog\n")
    assert _runtime_imports(tree) == {"typing", "tracker.service.gamelog"}


def test_opening_the_service_loads_no_crawler_and_no_detectors() -> None:
    """`tracker state` opens the service many times a day: the crawler (httpx, selectolax) and the
    detectors' word lists load only for the commands that crawl or detect."""
    from tests.test_layering import loaded_after

    mods = loaded_after("import tracker.service")
    heavy = {m for m in mods if m.split(".")[0] in {"textual", "jieba", "rjieba", "httpx", "selectolax", "ahocorasick"}
             or m.startswith(("tracker.scraper", "tracker.penalties.detect", "tracker.penalties.phrases"))}
    assert heavy == set()


def test_the_facade_loads_a_service_only_when_it_is_asked_for() -> None:
    """Every command opens the service; each area's module (the night engine, the report renderers,
    post search, the vote counter) loads when that area is first used (issue 13: start-up)."""
    from tests.test_layering import loaded_after

    mods = loaded_after("import tracker.service")
    # the log (and the engine's fold it loads) too: `tracker crawl` reads none (tests/test_crawl_loads.py);
    # request.py is the one-request decorator the services' calls share (no imports of its own)
    assert {m for m in mods if m.startswith("tracker.service.")} == {"tracker.service.context",
                                                                      "tracker.service.request"}
    assert not {m for m in mods if m.startswith(("tracker.engine.night", "tracker.reports.html"))}
