"""Login, cookie files and session reuse, replayed from recorded exchanges with the real forum.

The answers in ``exchanges/*.json`` are what Discuz X3.5 sent (tokens redacted to placeholders of the
same length, which we turn back into opaque values). respx replays them; no network.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
import respx

from tests.captured_pages import PAGES
from tracker.config import parse_game
from tracker.errors import ConfigError, LoginError
from tracker.scraper.auth import (
    PasswordSource,
    classify_login,
    cookie_prefix,
    has_login,
    is_guest_view,
    login,
    open_session,
    parse_cookie_text,
    save_cookies,
)
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.fetch import Fetched, Fetcher, FetchPolicy
from tracker.scraper.mobile import parse_viewthread

BASE = "http://127.0.0.1:8080/"
EXCHANGES = Path(__file__).parent / "fixtures" / "discuz" / "exchanges"
LOGIN_PAGE = BASE + "member.php?mod=logging&action=login"
LOGIN_POST = re.compile(re.escape(BASE + "member.php?mod=logging&action=login&loginsubmit=yes") + r".*inajax=1")
SECRET = "s3cret-不要记录"
_TOKEN = re.compile(r"<(auth|saltkey|garbage-auth):(\d+) chars>")


def exchange(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXCHANGES / name).read_text(encoding="utf-8"))
    return data


def _untoken(text: str) -> str:
    return _TOKEN.sub(lambda m: ("A" if m.group(1) == "auth" else "S") * int(m.group(2)), text)


def replay(name: str) -> httpx.Response:
    """The recorded answer as httpx would have received it (hop-by-hop headers dropped)."""
    r = exchange(name)["response"]
    headers = [(k, _untoken(v)) for k, v in r["headers"]
               if k.lower() not in ("content-length", "transfer-encoding", "connection", "host", "content-encoding")]
    return httpx.Response(r["status"], headers=headers, content=_untoken(r["body"]).encode("utf-8"))


def fetched(name: str) -> Fetched:
    resp = replay(name)
    return Fetched(url=BASE, status=resp.status_code, content_type=resp.headers.get("content-type"),
                   body=resp.content, headers=tuple(resp.headers.multi_items()))


def new_fetcher() -> Fetcher:
    return Fetcher(BASE, FetchPolicy(delay=0.0, retries=0))


def game(tmp_path: Path, **login_keys: str) -> Any:
    data: dict[str, Any] = {"game": {"name": "测试局", "ruleset": "x", "forum": BASE}}
    if login_keys:
        data["login"] = dict(login_keys)
    return parse_game(data, tmp_path / "game.toml")


# -- reading the forum's answers ---------------------------------------------------------------------

@pytest.mark.parametrize(("name", "reason", "tries"), [
    ("02-login-POST-ajax-director-success.json", "ok", None),
    ("02b-login-POST-ajax-bare-no-cookies-no-formhash-player-success.json", "ok", None),
    ("02c-login-POST-nonajax-player-success-cookietime.json", "ok", None),
    ("02d-login-POST-ajax-stale-formhash-503.json", "stale_formhash", None),
    ("03a-login-POST-ajax-wrong-password-try1.json", "wrong_password", 4),
    ("03d-login-POST-ajax-wrong-password-try4.json", "wrong_password", 1),
    ("03e-login-POST-ajax-wrong-password-try5.json", "locked_out", None),
    ("03f-login-POST-ajax-correct-password-while-locked-out.json", "locked_out", None),
])
def test_login_answers_are_read_as_the_forum_meant_them(name: str, reason: str, tries: int | None) -> None:
    answer = classify_login(fetched(name))
    assert answer.reason == reason and answer.ok == (reason == "ok") and answer.tries_left == tries


# -- the login exchange ------------------------------------------------------------------------------

@respx.mock
async def test_login_succeeds_and_the_session_is_kept_without_the_password(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    post = respx.post(LOGIN_POST).mock(return_value=replay("02-login-POST-ajax-director-success.json"))
    monkeypatch.setenv("FORUM_PW", SECRET)
    g = game(tmp_path, username="导演A", password_env="FORUM_PW")
    async with new_fetcher() as f:
        session = await open_session(f, g)
    assert session.mode == "login" and session.expect_member and session.cookie_prefix == "dz35_2132_"
    sent = parse_qs(post.calls[0].request.content.decode())
    # The formhash comes from the login page of the same cookie jar; 自动登录 keeps it for 30 days.
    assert sent["formhash"] == ["52e9cc5c"] and sent["username"] == ["导演A"] and sent["cookietime"] == ["2592000"]
    assert "loginhash=Lp7lp" in str(post.calls[0].request.url)
    saved = tmp_path / "game.session"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    text = saved.read_text(encoding="utf-8")
    assert "dz35_2132_auth" in text and "dz35_2132_saltkey" in text and SECRET not in text


@respx.mock
async def test_the_saved_session_is_reused_without_logging_in_again(tmp_path: Path) -> None:
    cookies = httpx.Cookies()
    cookies.set("dz35_2132_saltkey", "S" * 8, domain="127.0.0.1")
    cookies.set("dz35_2132_auth", "A" * 84, domain="127.0.0.1")
    save_cookies(cookies, tmp_path / "game.session")
    login_page = respx.get(LOGIN_PAGE)
    thread = respx.get(BASE + "forum.php?mod=viewthread&tid=2").mock(
        return_value=replay("04a-viewthread-tid2-logged-in-director.json"))
    async with new_fetcher() as f:
        session = await open_session(f, game(tmp_path, username="导演A"),
                                     password=lambda: pytest.fail("no password needed"))
        await f.get("forum.php?mod=viewthread&tid=2")
    assert session.mode == "saved" and login_page.call_count == 0
    sent = thread.calls[0].request.headers["cookie"]
    assert "dz35_2132_auth=" + "A" * 84 in sent and "dz35_2132_saltkey=SSSSSSSS" in sent


@respx.mock
async def test_a_wrong_password_is_reported_with_the_tries_left_and_not_retried(tmp_path: Path) -> None:
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    post = respx.post(LOGIN_POST).mock(return_value=replay("03a-login-POST-ajax-wrong-password-try1.json"))
    async with new_fetcher() as f:
        with pytest.raises(LoginError) as err:
            await login(f, "导演A", SECRET)
    assert post.call_count == 1
    assert "还可以尝试 4 次" in err.value.message and err.value.exit_code == 4
    assert SECRET not in str(err.value)
    assert not (tmp_path / "game.session").exists()


@respx.mock
async def test_a_lock_out_says_to_wait(tmp_path: Path) -> None:
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    respx.post(LOGIN_POST).mock(return_value=replay("03f-login-POST-ajax-correct-password-while-locked-out.json"))
    async with new_fetcher() as f:
        with pytest.raises(LoginError) as err:
            await login(f, "导演A", SECRET)
    assert "错误次数过多" in err.value.message and "15 分钟" in (err.value.hint or "")


@respx.mock
async def test_a_stale_formhash_503_gets_one_fresh_try(tmp_path: Path) -> None:
    page = respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    post = respx.post(LOGIN_POST).mock(side_effect=[replay("02d-login-POST-ajax-stale-formhash-503.json"),
                                                    replay("02-login-POST-ajax-director-success.json")])
    async with new_fetcher() as f:
        await login(f, "导演A", SECRET)
        assert has_login(f.cookies)
    assert page.call_count == 2 and post.call_count == 2


@respx.mock
async def test_a_stale_formhash_twice_is_a_login_error() -> None:
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    post = respx.post(LOGIN_POST).mock(return_value=replay("02d-login-POST-ajax-stale-formhash-503.json"))
    async with new_fetcher() as f:
        with pytest.raises(LoginError, match="formhash"):
            await login(f, "导演A", SECRET)
    assert post.call_count == 2


# -- guest or member: how an expired login shows -----------------------------------------------------

def test_a_forged_or_orphaned_auth_cookie_gives_a_guest_page() -> None:
    member = parse_thread_page(replay("04a-viewthread-tid2-logged-in-director.json").content,
                               page_url=BASE + "forum.php?mod=viewthread&tid=2")
    assert not is_guest_view(member.member_uid, member.member_name)
    for name in ("04b-viewthread-tid2-garbage-auth-cookie.json", "04c-viewthread-tid2-auth-without-saltkey.json"):
        page = parse_thread_page(replay(name).content, page_url=BASE + "forum.php?mod=viewthread&tid=2")
        assert is_guest_view(page.member_uid, page.member_name)


def test_the_mobile_api_tells_a_guest_by_member_uid_zero() -> None:
    member = parse_viewthread(replay("05c-mobile-v4-session-after-503-login-is-valid.json").content)
    assert not is_guest_view(member.member_uid, member.member_name)
    guest = json.loads((PAGES / "day1-discussion.mobile-ppp200.json")
                       .read_text(encoding="utf-8"))
    assert guest["Variables"]["member_uid"] == "0"
    page = parse_viewthread(guest)
    assert is_guest_view(page.member_uid, page.member_name)


# -- cookie files and passwords ----------------------------------------------------------------------

NETSCAPE = """# Netscape HTTP Cookie File
#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tdz35_2132_auth\tAAAA
127.0.0.1\tFALSE\t/\tFALSE\t4102444800\tdz35_2132_saltkey\tSSSSSSSS
127.0.0.1\tFALSE\t/\tFALSE\t1000\tdz35_2132_old\texpired
"""


@respx.mock
@pytest.mark.parametrize("text", [NETSCAPE, "Cookie: dz35_2132_saltkey=SSSSSSSS; dz35_2132_auth=AAAA\n",
                                  "dz35_2132_saltkey=SSSSSSSS; dz35_2132_auth=AAAA"])
async def test_cookie_files_in_either_format_reach_the_forum(tmp_path: Path, text: str) -> None:
    path = tmp_path / "cookies.txt"
    path.write_text(text, encoding="utf-8")
    g = parse_game({"game": {"name": "测", "ruleset": "x", "forum": BASE}, "login": {"cookie_file": "cookies.txt"}},
                   tmp_path / "game.toml")
    route = respx.get(BASE + "forum.php?mod=viewthread&tid=2").mock(return_value=httpx.Response(200))
    async with new_fetcher() as f:
        session = await open_session(f, g)
        await f.get("forum.php?mod=viewthread&tid=2", kind="any")
    assert session.mode == "cookie_file" and session.expect_member
    sent = route.calls[0].request.headers["cookie"]
    assert "dz35_2132_auth=AAAA" in sent and "dz35_2132_saltkey=SSSSSSSS" in sent and "expired" not in sent


def test_auth_without_its_saltkey_is_no_login() -> None:
    c = parse_cookie_text("dz35_2132_auth=AAAA", BASE)
    assert not has_login(c) and cookie_prefix(c) is None
    c = parse_cookie_text("a1B2_9f3c_auth=AAAA; a1B2_9f3c_saltkey=SSSS", BASE)
    assert has_login(c) and cookie_prefix(c) == "a1B2_9f3c_"


async def test_a_missing_cookie_file_is_a_config_error(tmp_path: Path) -> None:
    g = parse_game({"game": {"name": "测", "ruleset": "x", "forum": BASE}, "login": {"cookie_file": "nope.txt"}},
                   tmp_path / "game.toml")
    async with new_fetcher() as f:
        with pytest.raises(ConfigError, match="cookie"):
            await open_session(f, g)


def test_the_password_comes_from_the_environment_or_a_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORUM_PW", raising=False)
    source = PasswordSource("FORUM_PW", "导演A", interactive=lambda: False)
    with pytest.raises(LoginError, match="密码") as err:
        source()
    assert "FORUM_PW" in (err.value.hint or "")
    prompted = PasswordSource("FORUM_PW", "导演A", interactive=lambda: True, prompt=lambda _: SECRET)
    assert prompted() == SECRET
    monkeypatch.setenv("FORUM_PW", "from-env")
    assert source() == "from-env"
    assert "from-env" not in repr(source) and SECRET not in repr(prompted)


async def test_a_game_without_login_settings_crawls_as_a_guest(tmp_path: Path) -> None:
    async with new_fetcher() as f:
        session = await open_session(f, game(tmp_path))
    assert session.mode == "guest" and not session.expect_member
    assert f.stats.requests == 0 and not (tmp_path / "game.session").exists()
