"""Anchors for the card ledger outside its database: public ones in the forum, a keyed seal locally.

The hash chain (:func:`tracker.penalties.ledger.verify`) shows that the rows agree with each other
and with the head row beside them. Whoever can write the database can rewrite a card and recompute
every hash and the head, delete the newest card and move the head back, or empty both: the chain
still verifies. A chain proves nothing if its head lives beside it, so the head is also kept where
a database writer cannot reach:

- **public anchors**: every 判罚公示 the tool writes ends with ``账本锚点：第 N 条 <16 hex>``, the
  hash of the ledger's newest entry when it was written. Posted in the process thread, the forum
  keeps it, dated, in public. ``tracker cards verify --anchor N:HEX`` (and every anchor a director
  posted in the crawled process thread) checks that entry N still has that hash: as each hash covers
  all entries before it, entries 1..N are then exactly as they were when the anchor was posted;
- **a local seal** (optional): with ``[ledger] key_file`` set, every append writes
  ``N HASH HMAC`` to ``KEY_FILE.seal``, the HMAC made with a key (0600) kept outside the database;
  verify checks each sealed line's HMAC, that entry N still has that hash, and that the newest line
  names the ledger's last entry: every entry is then covered by a seal only the key could make.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import re
import secrets
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tracker.errors import ConfigError, os_error_words
from tracker.penalties.ledger import Entry
from tracker.safefile import read_bounded

SHORT = 16  # hex digits printed: 64 bits, enough that no one can find another history to match
ANCHOR_WORD = "账本锚点"
_ANCHOR = re.compile(ANCHOR_WORD + r"[:：]\s*第\s*(\d+)\s*条\s*([0-9a-fA-F]{12,64})")
_GIVEN = re.compile(r"^\s*(?:#?(\d+)\s*[:：@]\s*)?([0-9a-fA-F]{12,64})\s*$")


@dataclass(frozen=True, slots=True)
class Anchor:
    entries: int | None  # None: any entry whose hash starts with ``prefix``
    prefix: str
    source: str = "--anchor"

    @property
    def words(self) -> str:
        return f"第 {self.entries} 条 {self.prefix}" if self.entries is not None else self.prefix


def anchor_line(entries: Sequence[Entry]) -> str:
    """The line a 判罚公示 ends with: the newest entry's number and the start of its hash."""
    if not entries:
        return f"{ANCHOR_WORD}：空账本"
    last = max(entries, key=lambda e: e.id)
    return f"{ANCHOR_WORD}：第 {last.id} 条 {last.hash[:SHORT]}"


def parse_anchor(text: str) -> Anchor:
    """``N:HEX``, ``HEX`` (at least 12 hex digits) or a whole ``账本锚点：第 N 条 HEX`` line."""
    m = _ANCHOR.search(text)
    if m is not None:
        return Anchor(int(m.group(1)), m.group(2).lower())
    g = _GIVEN.match(text)
    if g is None:
        raise ConfigError(f"锚点 {text!r} 的写法不对",
                          hint="写成 判罚公示末尾的“第 N 条 十六进制”：--anchor N:HEX，或只写 HEX（至少 12 位）")
    return Anchor(int(g.group(1)) if g.group(1) else None, g.group(2).lower())


def anchors_in(texts: Iterable[tuple[str, str]]) -> list[Anchor]:
    """Every anchor in (where, text) pairs: the posts a director made in the process thread."""
    out: list[Anchor] = []
    for where, text in texts:
        out += [Anchor(int(m.group(1)), m.group(2).lower(), where) for m in _ANCHOR.finditer(text)]
    return out


def check_anchor(entries: Sequence[Entry], anchor: Anchor) -> str | None:
    """None when the ledger still holds the anchored history, else why not (in Chinese)."""
    if anchor.entries is not None:
        e = next((x for x in entries if x.id == anchor.entries), None)
        if e is None:
            return f"锚点 {anchor.words}（{anchor.source}）记录的第 {anchor.entries} 条已不在账本中"
        if not e.hash.startswith(anchor.prefix):
            return f"锚点 {anchor.words}（{anchor.source}）与账本第 {anchor.entries} 条不符：第 1–{anchor.entries} 条曾被改写"
        return None
    if any(x.hash.startswith(anchor.prefix) for x in entries):
        return None
    return f"锚点 {anchor.words}（{anchor.source}）不在账本中：它记录的历史已被改写或删除"


# -- the local seal ---------------------------------------------------------------------------------
#
# Once a key is configured, the seal is the ledger's witness: its newest line must name the ledger's
# last entry (each hash covers every entry before it), so a card written into the database behind
# the tool's back is unsealed and fails verify, a missing or unreadable seal fails verify, and no
# card is appended over a ledger the seal does not cover (the next real card would seal the forgery).

KEY_LIMIT = 4096  # a key is 32 bytes; anything much larger is not a key
KEY_MIN = 16
SEAL_LIMIT = 32 << 20  # ~150 bytes a line: 200,000 decisions, far more than any game makes
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _key_error(path: Path, why: str) -> ConfigError:
    return ConfigError(f"无法读取账本密钥文件 {path}：{why}",
                       hint="[ledger] key_file 应是一个普通文件（第一次发牌时自动创建，32 字节，0600）")


def load_key(path: Path, *, create: bool) -> bytes:
    """The HMAC key; created (32 random bytes, 0600, never over an existing file) when asked.

    Read as a regular file of at most KEY_LIMIT bytes (a FIFO or /dev/zero is refused at once, never
    read); a dangling symlink is an error, not a place to create the key (it could point anywhere).
    """
    try:
        key = read_bounded(path, KEY_LIMIT)
    except FileNotFoundError:
        if path.is_symlink():
            raise _key_error(path, "它是指向不存在文件的符号链接") from None
        if not create:
            raise ConfigError(f"找不到账本密钥文件 {path}", hint="检查 [ledger] key_file；第一次发牌时会自动创建") from None
    except OSError as exc:
        raise _key_error(path, os_error_words(exc)) from None
    else:
        if len(key) < KEY_MIN:
            raise _key_error(path, f"只有 {len(key)} 字节，不像一把密钥（至少 {KEY_MIN} 字节）")
        return key
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    except OSError as exc:
        raise _key_error(path, os_error_words(exc)) from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def seal_path(key_file: Path) -> Path:
    return key_file.with_name(key_file.name + ".seal")


def _mac(key: bytes, n: int, h: str) -> str:
    return hmac.new(key, f"{n}:{h}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class SealCheck:
    lines: int  # seal lines whose HMAC was checked
    covers: int  # the newest entry the seal names (0: none)
    problem: str | None
    at: int | None = None  # the first entry the problem concerns


def _read_seal(path: Path) -> str | None:
    """The seal's text; None when there is none. Not a regular file, a symlink, too large: SealError."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SealError("符号链接（封印文件不跟随链接）" if exc.errno == errno.ELOOP else os_error_words(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SealError("不是普通文件")
        data = os.read(fd, SEAL_LIMIT + 1)
        if len(data) > SEAL_LIMIT:
            raise SealError(f"文件太大（超过 {SEAL_LIMIT} 字节）")
    finally:
        os.close(fd)
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise SealError("含有非 ASCII 字节") from None


class SealError(Exception):
    """The seal file cannot be read as a seal; the message says why, in Chinese."""


def check_seals(key: bytes, key_file: Path, entries: Sequence[Entry]) -> SealCheck:
    """Every sealed head must still be in the ledger and the newest must be the ledger's last entry."""
    path = seal_path(key_file)
    last = max((e.id for e in entries), default=0)
    try:
        text = _read_seal(path)
    except SealError as exc:
        return SealCheck(0, 0, f"本地封印文件 {path} 不可读：{exc}", 1 if last else None)
    if text is None:
        if not last:
            return SealCheck(0, 0, None)
        return SealCheck(0, 0, f"本地封印文件 {path} 不存在，账本却有 {last} 条记录：封印被删除，"
                               "或这些记录不是记牌工具写入的", 1)
    by_id = {e.id: e.hash for e in entries}
    covers = 0
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit() or len(parts[0]) > 18:
            return SealCheck(i, covers, f"本地封印第 {i} 行格式不对", covers + 1)
        n, h, mac = int(parts[0]), parts[1], parts[2]
        if not hmac.compare_digest(mac.encode(), _mac(key, n, h).encode()):
            return SealCheck(i, covers, f"本地封印第 {i} 行的 HMAC 不对（封印文件被改动，或密钥不是当初那把）", n)
        if by_id.get(n) != h:
            return SealCheck(i, covers, f"本地封印记录的第 {n} 条 {h[:SHORT]} 已不在账本中：第 1–{n} 条曾被改写或删除", n)
        covers = max(covers, n)
    if covers < last:
        return SealCheck(len(lines), covers,
                         f"第 {covers + 1}–{last} 条没有本地封印：不是记牌工具写入的（或封印文件被截短）", covers + 1)
    return SealCheck(len(lines), covers, None)


class SealPen:
    """The seal file opened for one append, before the append is committed.

    Opening it checks everything that could stop the seal from being written (the key readable, the
    seal a regular file and not a symlink), so a card is never committed without its seal; the line
    itself is written once the card is committed (:meth:`write`), or the file is closed untouched.
    """

    def __init__(self, key_file: Path) -> None:
        self.fresh = not key_file.exists() and not key_file.is_symlink()
        self.key = load_key(key_file, create=True)
        self.key_file = key_file
        path = seal_path(key_file)
        try:
            self.fd: int | None = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | _NOFOLLOW,
                                          0o600)
        except OSError as exc:
            why = "符号链接（封印文件不跟随链接）" if exc.errno == errno.ELOOP else os_error_words(exc)
            raise ConfigError(f"无法写入本地封印文件 {path}：{why}", hint="发牌已取消，账本未改动") from None
        if not stat.S_ISREG(os.fstat(self.fd).st_mode):
            self.close()
            raise ConfigError(f"无法写入本地封印文件 {path}：不是普通文件", hint="发牌已取消，账本未改动")

    def write(self, last: Entry) -> None:
        if self.fd is None:
            return
        os.write(self.fd, f"{last.id} {last.hash} {_mac(self.key, last.id, last.hash)}\n".encode("ascii"))
        os.fsync(self.fd)
        self.close()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
