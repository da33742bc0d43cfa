"""Snapshots of each screen on the demo game at 120×36 (and 80×24) with the clock frozen on day 2.

Regenerate after a deliberate change with ``pytest tests/test_tui_snapshots.py --snapshot-update``
and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_demo import open_demo

from tui.app import TrackerApp


def _measuring(app: Any) -> bool:
    """A DataTable measures new rows and auto-sized columns on its next idle (Textual's
    ``_require_update_dimensions``); a frame taken before that shows rows cut to the old widths."""
    return any(t._require_update_dimensions or t._updated_cells for t in app.screen.query(DataTable))


async def _settle(pilot: Pilot[Any]) -> None:
    """Until a pause starts no new worker and leaves no table to measure (at most ten rounds): a
    worker's result posts a message whose handler may start another, and a full CI run caught the
    posts table of 7 at 80×24 with its 内容 column sized before its rows (now given its width by
    ``tui.widgets.lines.fill``; the cards and 潜水 tables still size theirs on idle)."""
    for _ in range(10):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        if not list(pilot.app.workers) and not _measuring(pilot.app):
            break


def _after(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Press the keys, then wait for the screen's workers: a screen fills its tables in a worker
    after the key, and a snapshot taken right after the key (snap_compare's own ``press``) caught
    it half drawn whenever the machine was busy."""
    async def run(pilot: Pilot[Any]) -> None:
        await _settle(pilot)
        for key in keys:
            await pilot.press(key)
            await _settle(pilot)
    return run


@pytest.mark.parametrize("key", ["1", "2", "3", "4", "5", "6", "7"])
def test_screen_snapshot(key: str, tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), terminal_size=(120, 36), run_before=_after(key))
    finally:
        service.close()


def test_narrow_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), terminal_size=(80, 24), run_before=_after("7"))
    finally:
        service.close()


def test_help_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), terminal_size=(120, 36),
                            run_before=_after("question_mark"))
    finally:
        service.close()


def test_night_snapshot(tmp_path: Path, snap_compare: Any) -> None:
    """8 夜晚 on the demo's night 1 as the desk settled it (screen 8 opens on night 2, still open)."""
    service = open_demo(tmp_path)
    try:
        assert snap_compare(TrackerApp(service, crawl_interval=0), terminal_size=(120, 36),
                            run_before=_after("8", "left_square_bracket"))
    finally:
        service.close()
