"""The captured Discuz! pages the tests read, stored once.

The demo game's own captures live in the package (tracker/demo/data/pages, what `tracker demo`
serves); tests/fixtures/discuz/pages keeps only what the demo does not ship (logged-in views, GBK,
the archiver, the forum listing …) and the index of the whole corpus, whose ``more`` names the
demo's folder for the rest (the replay server reads both). :data:`PAGES` reads as one folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from tracker.demo.server import DEMO_PAGES

FIXTURE_PAGES = Path(__file__).parent / "fixtures" / "discuz" / "pages"


class Pages(os.PathLike[str]):
    """Several folders read as one: a name is found in the first that has it (the fixtures' own
    first); as a path (``ReplayForum(PAGES)``) it is the fixtures' folder, whose index names the rest."""

    def __init__(self, *folders: Path) -> None:
        self.folders = folders

    def __fspath__(self) -> str:
        return str(self.folders[0])

    def __truediv__(self, name: str) -> Path:
        for folder in self.folders:
            if (folder / name).exists():
                return folder / name
        return self.folders[0] / name  # missing everywhere: reading it says which file

    def _union(self, found: dict[str, Path], paths: list[Path]) -> None:
        for p in paths:
            found.setdefault(p.name, p)

    def glob(self, pattern: str) -> list[Path]:
        found: dict[str, Path] = {}
        for folder in self.folders:
            self._union(found, sorted(folder.glob(pattern)))
        return sorted(found.values(), key=lambda p: p.name)

    def iterdir(self) -> list[Path]:
        return self.glob("*")


PAGES = Pages(FIXTURE_PAGES, DEMO_PAGES)
