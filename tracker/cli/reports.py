"""Commands of this area are registered by `register`; see tracker/cli/__init__.py."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this module's commands to the `tracker` group."""
