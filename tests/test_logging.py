"""The diagnostics log (tracker.logs): one configuration, what crawl and watch say, never a secret.

The journal of a `tracker watch` that runs for days is read by whoever looks after the machine;
a password or a session cookie in it would hand the director's forum account to anyone who can
read the journal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
import respx

from tests.test_auth_login import BASE, LOGIN_PAGE, LOGIN_POST, SECRET, game, replay
from tracker.cli import main
from tracker.demo.run import prepare
from tracker.demo.server import DEMO_PAGES, ReplayForum
from tracker.logs import Redact, configure
from tracker.scraper.auth import open_session
from tracker.scraper.fetch import Fetcher, FetchPolicy
from tracker.watch import WatchLog


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "tracker.log"
    configure("DEBUG", path)
    yield path
    configure("WARNING")  # back to stderr for the tests after this one


@respx.mock
async def test_a_login_and_a_retried_crawl_log_no_password_and_no_cookie(
        tmp_path: Path, log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    post = respx.post(LOGIN_POST).mock(return_value=replay("02-login-POST-ajax-director-success.json"))
    thread = respx.get(BASE + "forum.php?mod=viewthread&tid=2").mock(side_effect=[
        httpx.Response(503, text="busy"), replay("04a-viewthread-tid2-logged-in-director.json")])
    monkeypatch.setenv("FORUM_PW", SECRET)
    async with Fetcher(BASE, FetchPolicy(delay=0.0, retries=2, backoff=0.0)) as f:
        await open_session(f, game(tmp_path, username="导演A", password_env="FORUM_PW"))
        await f.get("forum.php?mod=viewthread&tid=2")
    cookie = thread.calls[-1].request.headers["cookie"]
    values = [SECRET, *parse_qs(post.calls[0].request.content.decode())["password"],
              *(c.split("=", 1)[1] for c in cookie.split("; "))]
    secrets = [v for v in values if len(v) >= 8]  # the password and the session's auth/saltkey (not "1")
    assert len(secrets) >= 3
    text = log_file.read_text(encoding="utf-8")
    assert "DEBUG" in text and "INFO" in text and "重试" in text  # the requests and the retry are there
    assert not [s for s in secrets if s in text]


def test_what_looks_like_a_credential_is_masked_whatever_logged_it(log_file: Path) -> None:
    logging.getLogger("tracker.anything").warning("登录 password=%s cookie: %s token=%s", SECRET, "abc123", "t0k")
    text = log_file.read_text(encoding="utf-8")
    assert SECRET not in text and "abc123" not in text and "t0k" not in text and "password=***" in text
    record = logging.LogRecord("tracker", logging.INFO, __file__, 1, "auth=%s", ("zzz",), None)
    assert Redact().filter(record) and record.getMessage() == "auth=***"


def test_crawl_at_info_logs_its_requests_to_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "crawl.log"
    try:
        with ReplayForum(DEMO_PAGES) as forum:
            path = prepare(tmp_path, forum.base_url)
            assert main(["--log-level", "INFO", "--log-file", str(log), "crawl", str(path), "--json"]) == 0
    finally:
        configure("WARNING")
    text = log.read_text(encoding="utf-8")
    assert "INFO tracker.service.crawling: 抓取 ok：" in text and "次请求" in text
    assert "INFO" not in capsys.readouterr().err  # the file, not stderr


def test_watch_lines_reach_the_log_at_their_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tracker")
    w = WatchLog()
    w("第 2 日 关门后结算报告 已写出：day2-lurkers.md")
    w("抓取失败：无法连接论坛", logging.WARNING)
    assert [(r.levelname, r.name) for r in caplog.records] == [("INFO", "tracker.watch"), ("WARNING", "tracker.watch")]
    assert w.lines[0].startswith("第 2 日")


def test_an_unknown_level_is_a_config_error() -> None:
    assert main(["--log-level", "LOUD", "rulesets"]) == 2
