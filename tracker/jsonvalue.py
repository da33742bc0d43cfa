"""A JSON value as a type, so the ``--json`` documents and the services' event data are checked.

``JSON`` is what ``json.dumps`` writes: an object, an array, a string, a number, a boolean or null.
Its containers are read-only (``Mapping``, ``Sequence``), so a ``list`` of objects or a ``tuple`` of
names is a JSON value as it stands; ``Doc`` is an object still being built (its keys assigned).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, Union

JSON: TypeAlias = Union[Mapping[str, "JSON"], Sequence["JSON"], str, int, float, bool, None]  # noqa: UP007
Doc: TypeAlias = dict[str, JSON]
