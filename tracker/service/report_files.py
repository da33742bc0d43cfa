"""Report files the tool writes, and the ones a director edited by hand, told apart.

The reports directory is the director's too: a 判罚公示 polished by hand, a tally annotated before
posting. Replacing such a file silently loses the work. So every report written records its hash
in ``.tracker-written.json`` beside it, and a file is replaced only when it is still exactly what
the tool wrote and still writable by its owner (a file made read-only is a file to keep). Anything
else — edited, made read-only, or never written by the tool — is refused (``report --write``,
exit 2, unless ``--force``), or the new report goes beside it (the watcher: ``NAME.new.EXT``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path

from tracker.errors import ConfigError, os_error_words
from tracker.safefile import read_bounded, write_atomic

MANIFEST = ".tracker-written.json"
_MANIFEST_LIMIT = 1 << 20
_REPORT_LIMIT = 64 << 20


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _manifest(out_dir: Path) -> dict[str, str]:
    try:
        doc = json.loads(read_bounded(out_dir / MANIFEST, _MANIFEST_LIMIT))
    except (OSError, ValueError, RecursionError):
        return {}
    return {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(doc, dict) else {}


def _ours(path: Path, recorded: str | None, new: bytes) -> bool:
    """True when ``path`` may be replaced: absent, or exactly what the tool wrote (or is about to)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return True
    if not stat.S_ISREG(st.st_mode):
        return False
    if not st.st_mode & stat.S_IWUSR:
        return False  # made read-only: kept, whatever it holds
    try:
        current = read_bounded(path, _REPORT_LIMIT)
    except OSError:
        return False
    return current == new or (recorded is not None and _digest(current) == recorded)


def write_report(out_dir: Path, name: str, text: str, *, force: bool = False, beside: bool = False) -> Path:
    """Write one report as ``out_dir/name`` (atomically), unless a director's file is in its place:
    then ConfigError, or with ``beside`` the report goes to ``NAME.new.EXT``; ``force`` replaces it."""
    data = text.encode("utf-8")
    manifest = _manifest(out_dir)
    path = out_dir / name
    if not force and not _ours(path, manifest.get(name), data):
        if not beside:
            raise ConfigError(f"报告 {path} 已被手动修改、设为只读，或不是本工具写的：没有覆盖",
                              hint="确认可以覆盖后加 --force；或先把它改名另存")
        stem, dot, ext = name.rpartition(".")
        name = f"{stem}.new.{ext}" if dot else f"{name}.new"
        path = out_dir / name
    try:
        if force:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o644)  # a read-only file is replaced with the usual mode
        write_atomic(path, data)
    except OSError as exc:
        raise ConfigError(f"无法写入报告 {path}：{os_error_words(exc)}",
                          hint="检查 [schedule] reports_dir 指向的目录是否存在、可写（默认：游戏文件旁的 reports/）") from exc
    manifest[name] = _digest(data)
    with contextlib.suppress(OSError):
        write_atomic(out_dir / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=0, sort_keys=True))
    return path
