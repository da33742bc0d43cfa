"""Forum game tracker: crawl Discuz! game threads, count votes and posts, keep the card ledger.

The core (everything under ``tracker``) is importable without Textual; the terminal UI lives in
the sibling package ``tui`` and talks to the core only through :class:`tracker.service.Service`.
"""

__version__ = "0.1.0"
