"""Service operations of this area (filled in by the area's issue)."""

from __future__ import annotations

from tracker.service.base import ServiceBase


class PenaltyOps(ServiceBase):
    pass
