"""One request per service call, opened by the service itself.

Callers reach each service directly (``svc.votes.confirm_day(1)``): there is no facade method to
open the request for them, so each public call a service answers from the event log opens one
:meth:`~tracker.service.gamelog.GameLog.request` (a caller's own request, e.g. a TUI screen asking
for a tally, its day and what is confirmed at once, is joined). A helper module, not a service: the
services import it at run time without meeting one another.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Concatenate, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class _Requests(Protocol):
    """What is asked of the log here (:class:`~tracker.service.gamelog.GameLog`, named by shape so
    that this module imports no service: import-linter keeps the services apart)."""

    def request(self) -> AbstractContextManager[None]: ...


class _Logged(Protocol):
    @property
    def log(self) -> _Requests: ...


S = TypeVar("S", bound=_Logged)


def one_request(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """The call reads the event log once and folds each state once, however many services it crosses."""
    @functools.wraps(method)
    def within(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.log.request():
            return method(self, *args, **kwargs)
    return within
