"""The Discuz corpus for the scraper tests: files, index entries, and expectations from scenario.json.

Expected colours and sizes are derived from each post's stored BBCode (``[color=..]``/``[size=..]``
outside ``[quote]``), so the parsers are checked against what the author typed, not against our
own reading of the rendered HTML.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from tests.captured_pages import PAGES

DISCUZ = Path(__file__).parent / "fixtures" / "discuz"
GROWTH = DISCUZ / "growth"

_QUOTE_BLOCK = re.compile(r"\[quote\].*?\[/quote\]", re.S | re.I)
_COLOR = re.compile(r"\[color=([^\]]+)\]", re.I)
_SIZE = re.compile(r"\[size=([^\]]+)\]", re.I)


@cache
def scenario() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DISCUZ / "scenario.json").read_text("utf-8"))
    return data


@cache
def growth_scenario() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GROWTH / "scenario.json").read_text("utf-8"))
    return data


def posts_by_pid() -> dict[int, dict[str, Any]]:
    return {p["pid"]: p for p in scenario()["posts"]}


def growth_posts_by_pid() -> dict[int, dict[str, Any]]:
    return {p["pid"]: p for p in growth_scenario()["posts"]}


@cache
def index(folder: Path = PAGES) -> dict[str, dict[str, Any]]:
    """file -> entry; a derived file (the GBK twin) takes its source's url and status, no header charset."""
    data = json.loads((folder / "index.json").read_text("utf-8"))
    entries = {f["file"]: f for f in data["files"]}
    for name, entry in entries.items():
        source = entries.get(entry.get("derived_from", ""))
        if source is not None:
            entries[name] = {**source, **entry, "content_type": "text/html"}
    return entries


def content_type(path: Path) -> str | None:
    entry = index(path.parent).get(path.name)
    return entry.get("content_type") if entry else None


def page_url(path: Path) -> str:
    entry = index(path.parent).get(path.name)
    return entry["url"] if entry else path.name


def expected_formatting(bbcode: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    outside = _QUOTE_BLOCK.sub("", bbcode)
    colors = tuple(dict.fromkeys(_COLOR.findall(outside)))
    sizes = tuple(dict.fromkeys(_SIZE.findall(outside)))
    return colors, sizes


def iso(value: str) -> datetime:
    return datetime.fromisoformat(value)


def desktop_thread_pages() -> list[Path]:
    """Every saved desktop viewthread page that shows posts (not the alert pages, not print/archive)."""
    out = []
    for path in sorted(PAGES.glob("*.html")):
        entry = index(PAGES).get(path.name)
        if path.name in ("members-only-guest.html", "nonexistent-tid.html"):
            continue
        if entry is not None and ("mod=viewthread" not in entry["url"] or "action=printable" in entry["url"]
                                  or entry["status"] != 200):
            continue
        if entry is None and not re.search(r"-p\d+\.", path.name):
            continue
        out.append(path)
    return out


def growth_files(pattern: str) -> list[Path]:
    return sorted(p for p in GROWTH.glob(f"epoch*/{pattern}") if "first-302" not in p.name)
