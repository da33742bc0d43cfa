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
  verify checks each sealed line's HMAC and that entry N still has that hash.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tracker.errors import ConfigError, os_error_words
from tracker.penalties.ledger import Entry

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

def load_key(path: Path, *, create: bool) -> bytes:
    """The HMAC key; created (32 random bytes, 0600, never over an existing file) when asked."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if not create:
            raise ConfigError(f"找不到账本密钥文件 {path}", hint="检查 [ledger] key_file；第一次发牌时会自动创建") from None
    except OSError as exc:
        raise ConfigError(f"无法读取账本密钥文件 {path}：{os_error_words(exc)}") from None
    key = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def seal_path(key_file: Path) -> Path:
    return key_file.with_name(key_file.name + ".seal")


def _mac(key: bytes, n: int, h: str) -> str:
    return hmac.new(key, f"{n}:{h}".encode(), hashlib.sha256).hexdigest()


def seal(key_file: Path, last: Entry) -> None:
    """Append the new head, keyed, to the seal file beside the key (0600)."""
    key = load_key(key_file, create=True)
    fd = os.open(seal_path(key_file), os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0),
                 0o600)
    with os.fdopen(fd, "a", encoding="ascii") as fh:
        fh.write(f"{last.id} {last.hash} {_mac(key, last.id, last.hash)}\n")


def check_seals(key_file: Path, entries: Sequence[Entry]) -> tuple[int, str | None]:
    """(lines checked, the first problem or None): each sealed head must still be in the ledger."""
    key = load_key(key_file, create=False)
    try:
        lines = seal_path(key_file).read_text(encoding="ascii").splitlines()
    except FileNotFoundError:
        return 0, None
    by_id = {e.id: e.hash for e in entries}
    for i, line in enumerate(lines, 1):
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit():
            return i, f"本地封印第 {i} 行格式不对"
        n, h, mac = int(parts[0]), parts[1], parts[2]
        if not hmac.compare_digest(mac, _mac(key, n, h)):
            return i, f"本地封印第 {i} 行的 HMAC 不对（封印文件被改动，或密钥不是当初那把）"
        if by_id.get(n) != h:
            return i, f"本地封印记录的第 {n} 条 {h[:SHORT]} 已不在账本中：第 1–{n} 条曾被改写或删除"
    return len(lines), None
