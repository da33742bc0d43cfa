"""Who the crawler is on the forum: a guest, a cookie file, or a Discuz login kept between runs.

Discuz proves a login with two cookies, ``<pre>saltkey`` and ``<pre>auth`` (the prefix differs per
install, so it is read from the cookie names, never hard-coded). A stored ``auth`` that the forum
no longer accepts is ignored silently: the pages just come back as a guest's. The crawler therefore
checks every first page against what it expected (:func:`check_member`).

The password is read from the environment variable named in the game file, or typed at a
terminal prompt; it is sent once in the login form and never logged, stored or put in a message.
Only the resulting cookies are saved (Netscape format, mode 0600) for the next run.
"""

from __future__ import annotations

import getpass
import os
import re
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from tracker.config import CrawlConfig, GameConfig
from tracker.errors import ConfigError, LoginError, TrackerWarning
from tracker.safefile import read_text_input, readable_by_others, write_atomic
from tracker.scraper.fetch import Fetched, Fetcher
from tracker.scraper.lean_httpx import httpx

LOGIN_PAGE = "member.php?mod=logging&action=login"
LOGIN_POST = "member.php?mod=logging&action=login&loginsubmit=yes{loginhash}&inajax=1"
# 自动登录: the auth cookie then lives 30 days instead of one browser session.
MAX_COOKIE_FILE_BYTES = 1024 * 1024  # a browser's whole cookies.txt is a few hundred KB
COOKIE_TIME = "2592000"

_FORMHASH = re.compile(r'name="formhash"\s+(?:id="formhash"\s+)?value="([0-9a-fA-F]{8})"')
_LOGIN_FORM = re.compile(r'<form[^>]*name="login"[^>]*id="loginform_(\w+)"|<form[^>]*id="loginform_(\w+)"')
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
_TAGS = re.compile(r"<script\b.*?</script>|<[^>]+>", re.S | re.I)
_ALERT = re.compile(r'id="messagetext"[^>]*class="alert_\w+"[^>]*>.*?<p>(.*?)</p>', re.S)
_TRIES = re.compile(r"尝试\s*(\d+)\s*次")

Mode = Literal["guest", "cookie_file", "saved", "login"]


@dataclass(frozen=True, slots=True)
class Session:
    """How this run is identified. ``expect_member``: pages must show a logged-in member."""

    mode: Mode
    expect_member: bool
    username: str | None = None
    cookie_prefix: str | None = None


@dataclass(frozen=True, slots=True)
class LoginAnswer:
    """What Discuz said to a login POST, read from cookies and the (ajax) message."""

    ok: bool
    reason: Literal["ok", "wrong_password", "locked_out", "stale_formhash", "captcha", "bad_password",
                    "unknown"]
    message: str = ""
    tries_left: int | None = None


@dataclass(slots=True)
class PasswordSource:
    """Where the password comes from: an environment variable, else a terminal prompt."""

    env_name: str
    username: str
    interactive: Callable[[], bool] = field(default=lambda: sys.stdin.isatty())
    prompt: Callable[[str], str] = getpass.getpass

    def __call__(self) -> str:
        value = os.environ.get(self.env_name)
        if value:
            return value
        if self.interactive():
            value = self.prompt(f"论坛账号 {self.username} 的密码（不会显示、不会保存）：")
            if value:
                return value
        raise LoginError(f"需要论坛账号 {self.username} 的密码才能登录",
                         hint=f"设置环境变量 {self.env_name}，或在终端里运行 tracker crawl 以输入密码")

    def __repr__(self) -> str:
        return f"PasswordSource(env_name={self.env_name!r}, username={self.username!r})"


# -- cookie files ---------------------------------------------------------------------------------

def session_path(game: GameConfig) -> Path:
    """Where the login cookies of this game are kept between runs (next to the game file)."""
    base = game.path if game.path is not None else Path("game.toml")
    return base.with_suffix(".session")


def _host(base_url: str) -> str:
    return urlsplit(base_url).hostname or ""


def parse_cookie_text(text: str, base_url: str, *, now: float | None = None) -> httpx.Cookies:
    """A Netscape cookie file (as browser extensions export) or a raw ``Cookie:`` header line."""
    now = time.time() if now is None else now
    cookies = httpx.Cookies()
    lines = [ln.rstrip("\r") for ln in text.splitlines()]
    netscape = any(ln.count("\t") >= 6 for ln in lines)
    if netscape:
        for ln in lines:
            if ln.startswith("#HttpOnly_"):
                ln = ln[len("#HttpOnly_"):]
            elif not ln.strip() or ln.startswith("#"):
                continue
            parts = ln.split("\t")
            if len(parts) < 7:
                continue
            domain, _sub, path, _secure, expires, name, value = parts[:7]
            if expires.strip() not in ("", "0") and expires.strip().isdigit() and int(expires) < now:
                continue
            cookies.set(name, value, domain=domain, path=path or "/")
        return cookies
    raw = " ".join(ln.strip() for ln in lines if ln.strip())
    if raw.lower().startswith("cookie:"):
        raw = raw[len("cookie:"):]
    host = _host(base_url)
    for pair in raw.split(";"):
        if "=" not in pair:
            continue
        name, value = pair.split("=", 1)
        if name.strip():
            cookies.set(name.strip(), value.strip(), domain=host, path="/")
    return cookies


def load_cookie_file(path: Path, base_url: str) -> httpx.Cookies:
    # a regular file of bounded size: a FIFO or /dev/zero named here must not hang or fill memory
    text = read_text_input(path, MAX_COOKIE_FILE_BYTES, "cookie 文件", hint="检查 game.toml 中 cookie_file 的路径")
    if readable_by_others(path):
        warnings.warn(TrackerWarning(
            f"cookie 文件 {path} 其他用户也能读取（它等于你的登录）；建议执行 chmod 600 {path}"), stacklevel=2)
    cookies = parse_cookie_text(text, base_url)
    if not list(cookies.jar):
        raise ConfigError(f"cookie 文件 {path} 里没有可用的 cookie",
                          hint="导出 Netscape 格式的 cookies.txt，或粘贴浏览器里的整行 Cookie: 请求头")
    return cookies


def save_cookies(cookies: httpx.Cookies, path: Path) -> None:
    """Write the jar in Netscape format, readable by the owner only (it is a login)."""
    lines = ["# Netscape HTTP Cookie File", "# forum-game-tracker session: delete this file to log out", ""]
    for c in cookies.jar:
        domain = c.domain or ""
        lines.append("\t".join([
            domain, "TRUE" if domain.startswith(".") else "FALSE", c.path or "/",
            "TRUE" if c.secure else "FALSE", str(int(c.expires)) if c.expires else "0", c.name, c.value or "",
        ]))
    path.parent.mkdir(parents=True, exist_ok=True)
    # A fresh O_EXCL temporary, 0600 from its creation: a pre-existing world-readable
    # game.session.tmp (or a symlink by that name) is never written through.
    write_atomic(path, "\n".join(lines) + "\n", secret=True)


def cookie_prefix(cookies: httpx.Cookies) -> str | None:
    """``dz35_2132_`` from ``dz35_2132_saltkey``: the install's random cookie prefix."""
    for c in cookies.jar:
        if c.name.endswith("saltkey"):
            return c.name[: -len("saltkey")]
    return None


def has_login(cookies: httpx.Cookies) -> bool:
    """``auth`` + its ``saltkey`` (same prefix): the pair that proves a login; one alone is worthless."""
    names = {c.name: c.value for c in cookies.jar}
    for name, value in names.items():
        if name.endswith("auth") and value and value != "deleted":
            prefix = name[: -len("auth")]
            if f"{prefix}saltkey" in names:
                return True
    return False


# -- the login exchange ---------------------------------------------------------------------------

def _message(text: str) -> str:
    m = _CDATA.search(text)
    if m is not None:
        return _TAGS.sub("", m.group(1)).strip()
    m = _ALERT.search(text)
    if m is not None:
        return _TAGS.sub("", m.group(1)).strip()
    return ""


def classify_login(answer: Fetched) -> LoginAnswer:
    """Read a login answer. Success is a ``Set-Cookie: <pre>auth=…`` that is not ``deleted``."""
    for name, value in answer.headers:
        if name.lower() != "set-cookie":
            continue
        cname, _, rest = value.partition("=")
        cvalue = rest.split(";", 1)[0]
        if cname.strip().endswith("auth") and cvalue and cvalue != "deleted":
            return LoginAnswer(ok=True, reason="ok")
    text = answer.text
    if answer.status == 503 and "非法字符" in text:
        return LoginAnswer(ok=False, reason="stale_formhash", message="您当前的访问请求当中含有非法字符，已经被系统拒绝")
    msg = _message(text)
    if "密码错误次数过多" in msg:
        return LoginAnswer(ok=False, reason="locked_out", message=msg)
    tries = _TRIES.search(msg)
    if tries is not None:
        return LoginAnswer(ok=False, reason="wrong_password", message=msg, tries_left=int(tries.group(1)))
    if "验证码" in msg:
        return LoginAnswer(ok=False, reason="captcha", message=msg)
    if "密码空或包含非法字符" in msg:
        return LoginAnswer(ok=False, reason="bad_password", message=msg)
    return LoginAnswer(ok=False, reason="unknown", message=msg or f"HTTP {answer.status}")


def login_error(answer: LoginAnswer, username: str) -> LoginError:
    if answer.reason == "wrong_password":
        return LoginError(f"登录失败：账号 {username} 的密码不对，论坛说还可以尝试 {answer.tries_left} 次",
                          hint="连续输错 5 次会被论坛锁定 15 分钟；确认密码后再运行")
    if answer.reason == "locked_out":
        return LoginError(f"登录失败：账号 {username} 密码错误次数过多，论坛已锁定登录（{answer.message}）",
                          hint="等 15 分钟后再试，期间正确的密码也会被拒绝")
    if answer.reason == "captcha":
        return LoginError("登录失败：论坛要求填写验证码，程序无法代填",
                          hint="在浏览器里登录后导出 cookie，在 game.toml 的 [login] cookie_file 指定该文件")
    if answer.reason == "bad_password":
        return LoginError("登录失败：论坛认为密码为空或含有不允许的字符（引号、反斜杠）",
                          hint="检查密码环境变量的内容")
    if answer.reason == "stale_formhash":
        return LoginError("登录失败：论坛拒绝了登录表单（formhash 与 cookie 不匹配）",
                          hint="删除游戏文件旁的 .session 文件后重试")
    return LoginError(f"登录失败：{answer.message}", hint="检查 [login] username 与论坛地址")


def _formhash(html_text: str) -> str | None:
    m = _FORMHASH.search(html_text)
    return m.group(1) if m else None


def _loginhash(html_text: str) -> str | None:
    m = _LOGIN_FORM.search(html_text)
    return (m.group(1) or m.group(2)) if m else None


async def login(fetcher: Fetcher, username: str, password: str) -> None:
    """Log in through the desktop login form; raises LoginError with the forum's reason.

    The formhash is taken from the login page fetched in the same cookie jar (a formhash from
    another session gets a 503). A 503 "stale formhash" is retried once with a fresh page; a wrong
    password never is (five wrong tries lock the account for 15 minutes).
    """
    for attempt in (1, 2):
        page = await fetcher.get(LOGIN_PAGE, kind="html")
        text = page.text
        fields = {
            "referer": fetcher.base_url, "loginfield": "username", "username": username,
            "password": password, "questionid": "0", "answer": "", "cookietime": COOKIE_TIME,
        }
        formhash = _formhash(text)
        if formhash:
            fields = {"formhash": formhash, **fields}
        loginhash = _loginhash(text)
        url = LOGIN_POST.format(loginhash=f"&loginhash={loginhash}" if loginhash else "")
        answer = classify_login(await fetcher.post_form(url, fields))
        if answer.ok:
            return
        if answer.reason == "stale_formhash" and attempt == 1:
            continue
        raise login_error(answer, username)


async def open_session(fetcher: Fetcher, game: GameConfig, *,
                       password: Callable[[], str] | None = None,
                       store_path: Path | None = None) -> Session:
    """Load whatever identifies us, in order: cookie file, saved session, fresh login, guest."""
    crawl: CrawlConfig = game.crawl
    path = store_path or session_path(game)
    if crawl.cookie_file is not None:
        fetcher.cookies.update(load_cookie_file(crawl.cookie_file, fetcher.base_url))
        return Session(mode="cookie_file", expect_member=has_login(fetcher.cookies),
                       cookie_prefix=cookie_prefix(fetcher.cookies))
    if crawl.username:
        if path.exists():
            if readable_by_others(path):
                warnings.warn(TrackerWarning(
                    f"保存的登录 {path} 其他用户也能读取；建议执行 chmod 600 {path}（或删除它重新登录）"), stacklevel=2)
            saved = parse_cookie_text(read_text_input(path, MAX_COOKIE_FILE_BYTES, "保存的登录",
                                                      hint="删除它重新登录"), fetcher.base_url)
            fetcher.cookies.update(saved)
            if has_login(fetcher.cookies):
                return Session(mode="saved", expect_member=True, username=crawl.username,
                               cookie_prefix=cookie_prefix(fetcher.cookies))
        return await fresh_login(fetcher, game, password=password, store_path=path)
    return Session(mode="guest", expect_member=False)


async def fresh_login(fetcher: Fetcher, game: GameConfig, *, password: Callable[[], str] | None = None,
                      store_path: Path | None = None) -> Session:
    """Forget the old cookies, log in, keep the new session cookies for the next run."""
    username = game.crawl.username
    if not username:
        raise LoginError("登录已失效，且游戏文件没有配置论坛账号，无法重新登录",
                         hint="在 game.toml 的 [login] 中写 username，或更新 cookie 文件")
    path = store_path or session_path(game)
    fetcher.cookies.clear()
    secret = (password or PasswordSource(game.crawl.password_env, username))()
    await login(fetcher, username, secret)
    del secret
    save_cookies(fetcher.cookies, path)
    return Session(mode="login", expect_member=True, username=username,
                   cookie_prefix=cookie_prefix(fetcher.cookies))


def expired_error(session: Session) -> LoginError:
    if session.mode == "cookie_file":
        return LoginError("登录已过期：cookie 文件里的登录，论坛现在当作游客",
                          hint="在浏览器里重新登录并导出 cookie 文件，或在 [login] 中配置 username 让程序自己登录")
    return LoginError("登录已过期：保存的登录，论坛现在当作游客",
                      hint="删除游戏文件旁的 .session 文件后重新运行，会重新登录")


def is_guest_view(member_uid: int | None, member_name: str | None) -> bool:
    """A page rendered for a guest: no member name in the header and no (or a zero) member uid."""
    return not member_name and not member_uid
