"""Messages that travel up to the app: crawl progress from the worker, decisions made on a screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class CrawlProgressed(Message):
    """A step of a running crawl; only the latest one matters to the header."""

    detail: str

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, CrawlProgressed)


@dataclass
class CrawlFinished(Message):
    ok: bool
    detail: str = ""


@dataclass
class DataChanged(Message):
    """A decision was written (card, dismissal, confirmation): badges and other screens reload."""

    what: str = ""
