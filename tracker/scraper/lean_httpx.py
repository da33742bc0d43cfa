"""httpx without its command-line client: the one import of httpx in the tracker.

``import httpx`` also imports ``httpx._main``, the ``httpx`` command's code, and with it rich's
progress bars and pygments' lexers whenever they are installed (Textual brings rich): ~0.04 s of
CPU at the start of every crawl, which cron starts every few minutes, for code the tracker never
runs. httpx imports that module inside ``try … except ImportError`` (it is optional: the
``httpx[cli]`` extra), so marking it absent in ``sys.modules`` before the first import of httpx
leaves httpx whole, with a ``main`` that says the command is not installed. A process that
imported httpx already keeps it as it was.
"""

from __future__ import annotations

import sys

sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]  # None: "not importable"

import httpx  # noqa: E402

__all__ = ["httpx"]
