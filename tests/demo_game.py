"""A private copy of the demo game the session crawled once (``demo_crawled`` in conftest.py)."""

from __future__ import annotations

import shutil
from pathlib import Path


def copy_demo(crawled: Path, dest: Path) -> Path:
    """Copy the crawled demo's SQLite file and game file into ``dest``: a test's writes stay its own."""
    for name in ("demo.toml", "demo.db"):
        shutil.copy(crawled / name, dest / name)
    return dest / "demo.toml"
