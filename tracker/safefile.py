"""Files the tool writes and the files it reads on the director's say-so, done safely.

Writing: every file (reports, the session cookie, the game file) is written to a temporary created
with ``O_EXCL`` in the same directory under a random name (:func:`tempfile.mkstemp`: never an
existing file, never through a symlink someone left as ``report.md.tmp``), flushed, then renamed
over the target. Secrets are created 0600 and stay so; other files keep the mode of the file they
replace (0644 for a new one).

Reading: :func:`read_bounded` reads only a regular file, and at most ``limit`` bytes, so a path such
as ``/dev/zero`` or a FIFO cannot hang the tool or fill its memory.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path


class FileShapeError(OSError):
    """Not a regular file, or larger than allowed; ``strerror`` says which, in Chinese."""


def write_atomic(path: Path, data: str | bytes, *, secret: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically; ``secret`` files are readable by the owner only."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")  # O_EXCL, 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        if not secret:
            try:  # a file replaced keeps its mode (a game file the director made 0600 stays so)
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except OSError:
                mode = 0o644
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def readable_by_others(path: Path) -> bool:
    """True when group or others may read ``path`` (a session cookie should be 0600)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and bool(st.st_mode & (stat.S_IRGRP | stat.S_IROTH))


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; FileShapeError for anything else."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "这是一个目录")
        if not stat.S_ISREG(st.st_mode):
            raise FileShapeError(errno.EINVAL, "不是普通文件（设备、管道或目录不能作为输入文件）")
        if st.st_size > limit:
            raise FileShapeError(errno.EFBIG, f"文件太大（{st.st_size} 字节，上限 {limit} 字节）")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise FileShapeError(errno.EFBIG, f"文件太大（超过 {limit} 字节）")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_input(path: Path, limit: int, what: str, *, hint: str | None = None) -> str:
    """A UTF-8 file the director names (a scenario, a post, a cookie file), as text: a regular file
    of at most ``limit`` bytes, or a ConfigError (exit 2) saying which ``what`` and why."""
    from tracker.errors import ConfigError, os_error_words

    gap = " " if what[:1].isascii() else ""  # 找不到 cookie 文件, 找不到情景文件
    try:
        raw = read_bounded(path, limit)
    except FileNotFoundError:
        raise ConfigError(f"找不到{gap}{what} {path}", hint=hint) from None
    except OSError as exc:
        raise ConfigError(f"无法读取{gap}{what} {path}：{os_error_words(exc)}", hint=hint) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{what} {path} 不是 UTF-8 编码", hint="用 UTF-8 保存") from None
