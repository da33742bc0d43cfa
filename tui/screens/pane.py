"""What every one of the seven screens shares: a key, a title, and reloading from the service.

Panes never touch the database: they call :class:`tui.gateway.Gateway` (the service) from thread
workers and receive plain values back, so a slow read never freezes the keyboard.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Concatenate, ParamSpec, TypeVar, TypeVarTuple, cast

from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static
from textual.worker import get_current_worker

from tracker.errors import TrackerError

if TYPE_CHECKING:
    from tracker.service import Service
    from tui.app import TrackerApp
    from tui.gateway import Gateway


P = ParamSpec("P")
Ts = TypeVarTuple("Ts")
PaneT = TypeVar("PaneT", bound="Pane")


def reported(work: Callable[Concatenate[PaneT, P], None]) -> Callable[Concatenate[PaneT, P], None]:
    """A thread worker's failure is told on the UI thread (:meth:`Pane.failed`), never a crash:
    every screen's worker asks the service and shows the answer, or says why it could not."""
    @functools.wraps(work)
    def run(pane: PaneT, /, *args: P.args, **kwargs: P.kwargs) -> None:
        try:
            work(pane, *args, **kwargs)
        except Exception as exc:
            pane.app.call_from_thread(pane.failed, exc)
    return run


class Pane(Vertical):
    KEY: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""

    DEFAULT_CSS = "Pane { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__(id=self.KEY)

    @property
    def tracker(self) -> TrackerApp:
        from tui.app import TrackerApp

        return cast(TrackerApp, self.app)

    @property
    def gateway(self) -> Gateway:
        return self.tracker.gateway

    @property
    def service(self) -> Service:
        """The tracker's services, reached directly for what needs no thread lock or cache."""
        return self.tracker.gateway.service

    def reload(self) -> None:
        """Fetch fresh data (in a worker) and redraw; called when shown and after crawls/decisions."""

    def focus_main(self) -> None:
        """Focus the screen's main widget when the screen is shown (each screen names its own)."""

    def deliver(self, show: Callable[[*Ts], object], *args: *Ts) -> None:
        """From a thread worker: run ``show`` on the UI thread unless a newer load replaced this one.

        An exclusive worker is only *marked* cancelled when the next one starts; its thread still
        finishes, and without this check a slow earlier page could land after the newer one.
        """
        worker = get_current_worker()

        def apply() -> None:
            if not worker.is_cancelled:
                show(*args)
            self.tracker.first_load_done()

        self.app.call_from_thread(apply)

    def set_text(self, selector: str, text: Text) -> None:
        """Update a Static only when its text changed: every update re-lays out the screen."""
        static = self.query_one(selector, Static)
        old = static.content
        if isinstance(old, Text) and (old.plain, old.spans, old.style) == (text.plain, text.spans, text.style):
            return
        static.update(text)

    def failed(self, exc: BaseException) -> None:
        """A worker's failure (see :func:`reported`); a pane with a status line says it there too."""
        self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        """A service error in the director's words, never a traceback on the screen."""
        self.tracker.first_load_done()  # a first screen that failed must not hold the badges back
        msg = exc.message if isinstance(exc, TrackerError) else f"{type(exc).__name__}: {exc}"
        hint = getattr(exc, "hint", None)
        self.notify(msg + (f"\n{hint}" if hint else ""), title="出错了", severity="error", timeout=8, markup=False)
