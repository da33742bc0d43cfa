"""Snapshots of each screen on the demo game at 120×36 (and 80×24) with the clock frozen on day 2.

Regenerate after a deliberate change with ``pytest tests/test_tui_snapshots.py --snapshot-update``
and look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_demo import open_demo

from tui.app import TrackerApp


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("key", ["1", "2", "3", "4", "5", "6", "7"])
def test_screen_snapshot(key: str, tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), press=[key], terminal_size=(120, 36),
                            run_before=_settle)
    finally:
        service.close()


def test_narrow_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), press=["7"], terminal_size=(80, 24),
                            run_before=_settle)
    finally:
        service.close()


def test_help_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), press=["question_mark"],
                            terminal_size=(120, 36), run_before=_settle)
    finally:
        service.close()


def test_night_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    """8 夜晚 on the demo's night 1 as the desk settled it (screen 8 opens on night 2, still open)."""
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), press=["8", "left_square_bracket"],
                            terminal_size=(120, 36), run_before=_settle)
    finally:
        service.close()
