"""The tracker's diagnostics log: one configuration for every command, never a secret in it.

Why a log beside the Chinese messages: ``tracker watch`` runs for days under systemd, and what it
did (crawls, request counts, retries, report slots written) must be findable afterwards in the
journal, at levels the journal can filter. The messages a director reads stay on stdout/stderr as
before; the log is for whoever looks after the machine.

Configured once per process by :func:`configure` from ``--log-level`` / ``--log-file`` or the
``TRACKER_LOG_LEVEL`` / ``TRACKER_LOG_FILE`` environment; stderr by default, at WARNING — INFO
for ``tracker watch``, whose stderr is the journal. (``tracker crawl`` stays at WARNING by default:
its stderr carries the progress line and the ``错误：`` line the TUI and scripts read; ask for
INFO with ``--log-level INFO``.)

Secrets: nothing logs a password, a cookie or a form body, and :class:`Redact` masks what looks
like one anyway (``password=…``, ``cookie: …``, ``auth=…``) before a record is written.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from datetime import datetime, tzinfo
from pathlib import Path

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLER_NAME = "tracker"

_SECRET = re.compile(r"(?i)\b(password|passwd|pwd|cookie|set-cookie|auth|saltkey|formhash|token|secret)"
                     r"(\s*[=:]\s*)([^\s&;,]+)")


class Redact(logging.Filter):
    """Masks values that look like credentials, whatever the message they ended up in."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = _SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}***", message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class _Stderr(logging.Handler):
    """stderr as it is when a record is written (a test's capture, a redirected stream)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # a log line must never break the command that wrote it
            self.handleError(record)


class _Zoned(logging.Formatter):
    """Timestamps in one zone (the game's, once a command knows it: :func:`use_zone`), its offset
    written, so a journal read on a machine elsewhere shows the forum's clock."""

    zone: tzinfo | None = None

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if self.zone is None:
            return super().formatTime(record, datefmt)
        at = datetime.fromtimestamp(record.created, self.zone)
        return f"{at:%Y-%m-%d %H:%M:%S},{int(record.msecs):03d}{at:%z}"


def use_zone(zone: tzinfo) -> None:
    """The ``tracker`` log's timestamps from now on in ``zone`` (`tracker watch`: the game's)."""
    for h in logging.getLogger("tracker").handlers:
        if h.get_name() == _HANDLER_NAME and isinstance(h.formatter, _Zoned):
            h.formatter.zone = zone


def configure(level: str | None = None, file: str | Path | None = None, *, default: str = "WARNING") -> None:
    """Point the ``tracker`` loggers at stderr or ``file``, at ``level`` (or the environment's, or
    ``default``). Called again (another command in the same process), it replaces its handler."""
    chosen = (level or os.environ.get("TRACKER_LOG_LEVEL") or default).upper()
    if chosen not in LEVELS:
        from tracker.errors import ConfigError

        raise ConfigError(f"日志级别 {chosen!r} 无效", hint=f"可选：{'、'.join(LEVELS)}")
    target = file or os.environ.get("TRACKER_LOG_FILE") or None
    handler: logging.Handler = logging.FileHandler(target, encoding="utf-8") if target else _Stderr()
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(_Zoned(FORMAT))
    handler.addFilter(Redact())
    root = logging.getLogger("tracker")
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(chosen)
    # propagate stays on: nothing handles the root logger in the CLI, and a test's caplog still sees records
