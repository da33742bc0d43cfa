"""One error tree for everything a director can meet.

The CLI catches :class:`TrackerError` at the top, prints ``message`` (Chinese, with the fix) to
stderr and exits with ``exit_code``: a director never sees a traceback for a problem they can fix.
Anything else escaping is a bug: one Chinese line, the traceback in a log file, exit 9.

    TrackerError
    ├── ConfigError            bad or missing game.toml / ruleset key        (exit 2)
    ├── ParseError             a page that is not what we expected           (exit 3)
    │   └── NotAThreadError    the answer is not a Discuz thread page        (exit 3)
    ├── ForumError             the forum answered, but not with the thread   (exit 4)
    │   ├── ThreadMissingError    404 / thread_nonexistence
    │   ├── NoPermissionError     200 alert page / thread_nopermission
    │   ├── LoginError            wrong password, locked out, login expired
    │   ├── PostRefusedError      captcha, flood control, stale formhash, not logged in
    │   └── ResponseTooLargeError an answer larger than [crawl] max_page_mb once unpacked
    ├── NetworkError           forum unreachable after retries               (exit 5)
    ├── StoreError             the database cannot be opened or migrated     (exit 6)
    ├── RulesetError           a ruleset file is invalid                     (exit 2)
    ├── GameRuleError          an action the rules forbid (ValueError too)   (exit 7)
    └── LedgerBrokenError      the card ledger's hash chain does not verify  (exit 1)

Anything else escaping a command is a bug: exit UNEXPECTED_EXIT (9), one line and a log path.
"""

from __future__ import annotations

#: The exit code of an error no other code describes: a bug, or memory running out (the CLI prints
#: one line and the path of the log holding the traceback). Never the ledger's 1.
UNEXPECTED_EXIT = 9


class TrackerError(Exception):
    """Base of every error the CLI turns into a message and an exit code."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n提示：{self.hint}"


class TrackerWarning(UserWarning):
    """Something the director should fix but that does not stop the command (a readable cookie file).

    The CLI prints it as ``注意：…`` on stderr (visible characters only), once per message."""


class ConfigError(TrackerError):
    exit_code = 2


class RulesetError(TrackerError):
    exit_code = 2
    #: The finding behind the message when the reader knows its key and line
    #: (a :class:`tracker.engine.ruleset_errors.Problem`; typed loosely so this module imports nothing).
    problem: object | None = None


class ParseError(TrackerError):
    """A page or document could not be parsed; names the page and, when known, the pid."""

    exit_code = 3

    def __init__(self, message: str, *, page: str | None = None, pid: int | None = None,
                 hint: str | None = None) -> None:
        where = ", ".join(x for x in (f"页面 {page}" if page else "", f"pid {pid}" if pid else "") if x)
        super().__init__(f"{message}（{where}）" if where else message, hint=hint)
        self.page = page
        self.pid = pid



#: What a page parser may still raise on a hostile page (the crawl and the live read of a thread
#: turn it into a ParseError naming the page: exit 3, never a traceback).
UNPARSABLE = (RecursionError, OverflowError, UnicodeError)

class NotAThreadError(ParseError):
    pass


class ForumError(TrackerError):
    exit_code = 4


class ThreadMissingError(ForumError):
    pass


class NoPermissionError(ForumError):
    pass


class LoginError(ForumError):
    pass


class PostRefusedError(ForumError):
    pass


class ResponseTooLargeError(ForumError):
    pass


class NetworkError(TrackerError):
    exit_code = 5


class StoreError(TrackerError):
    exit_code = 6


class GameRuleError(TrackerError, ValueError):
    exit_code = 7


class UnknownIdError(TrackerError):
    """A number the director typed names nothing (a flag, a card): a usage error, not a game rule (7)."""

    exit_code = 2


class EntryError(TrackerError):
    """A line the director typed is not in the shape asked for (a night submission without its
    skill): a usage error, said in the same words by the command line and the TUI."""

    exit_code = 2


class LedgerBrokenError(TrackerError):
    exit_code = 1


_TOML_WORDS = (
    ("Expected ']' at the end of a table declaration", "表头少了右方括号 ]"),
    ("Expected ']]' at the end of an array declaration", "表头少了 ]]"),
    ("Expected '=' after a key in a key/value pair", "键后面少了等号 ="),
    ("Invalid value", "值的写法不对（字符串要加引号，时间写成 2025-03-01T10:00:00+08:00）"),
    ("Unterminated string", "字符串没有结束的引号"),
    ("Illegal character", "有不允许的字符"),
    ("Cannot declare", "同一个表或键写了两次"),
    ("Cannot overwrite a value", "同一个键写了两次"),
    ("Unclosed array", "数组少了右方括号 ]"),
    ("Invalid initial character for a key part", "键名的写法不对"),
    ("Expected newline or end of document after a statement", "一行只能写一个 键 = 值"),
)


def toml_syntax_words(exc: Exception, text: str, *, quote_line: bool = True) -> str:
    """A TOML syntax error as the director reads it: where (行/列), what in Chinese when known, the line.

    ``exc`` is a ``tomllib.TOMLDecodeError``; Python 3.11's carries the place only in its message
    ("… (at line 3, column 7)").
    """
    import re

    msg = str(exc)
    place = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    what = msg[: place.start()].strip() if place else msg
    words = next((zh for en, zh in _TOML_WORDS if what.startswith(en)), None)
    out = f"{words}（{what}）" if words else what
    if place:
        n = int(place.group(1))
        lines = text.splitlines()
        # quote_line=False for files named on the director's behalf (a ruleset path may be any file)
        shown = lines[n - 1].strip() if quote_line and 0 < n <= len(lines) else ""
        shown = shown if len(shown) <= 80 else shown[:80] + "…"
        out = f"第 {n} 行第 {place.group(2)} 列：{out}" + (f"：{shown}" if shown else "")
    elif "end of document" in msg:
        out = f"文件末尾：{out}"
    return out


def os_error_words(exc: OSError) -> str:
    """Why a file could not be read or written, in Chinese when the cause is a common one."""
    import errno

    words = {errno.ENOENT: "路径不存在", errno.EEXIST: "已有同名文件", errno.EACCES: "没有权限",
             errno.EPERM: "没有权限", errno.ENOSPC: "磁盘已满", errno.ENOTDIR: "路径中有一段不是目录",
             errno.EISDIR: "这是一个目录", errno.EROFS: "文件系统是只读的"}.get(exc.errno or -1)
    return words or str(exc.strerror or exc)
