"""Posting through the fetcher: the formhash comes from the same session, one POST, refusals explained."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
import respx

from tracker.config import parse_game
from tracker.scraper.reply import ReplyRefused, post_reply

EXCHANGES = Path(__file__).parent / "fixtures" / "discuz" / "exchanges"
BASE = "http://127.0.0.1:8080/"


def recorded(name: str) -> httpx.Response:
    """A recorded answer, scripts put back, as respx serves it."""
    resp = json.loads((EXCHANGES / f"{name}.json").read_text(encoding="utf-8"))["response"]
    payloads = iter(resp.get("script_payload") or [])
    body = re.sub(r"(<script\b[^>]*>)(</script>)", lambda m: m.group(1) + next(payloads, "") + m.group(2),
                  resp["body"] or "")
    headers = [(k, v) for k, v in resp["headers"] if k.lower() in ("content-type", "location")]
    return httpx.Response(resp["status"], headers=headers, content=body.encode("utf-8"))


def game(tmp_path: Path, **login: str) -> object:
    cookie = tmp_path / "cookies.txt"
    cookie.write_text("Cookie: dz35_2132_saltkey=abc; dz35_2132_auth=xyz\n", encoding="utf-8")
    data = {"game": {"name": "g", "ruleset": "luoluo-m19", "forum": BASE, "directors": ["导演A"]},
            "crawl": {"delay": 0, "cookie_file": str(cookie)}}
    return parse_game(data, tmp_path / "game.toml")


@respx.mock
async def test_a_logged_in_director_posts_once_and_gets_the_pid(tmp_path: Path) -> None:
    page = respx.get(f"{BASE}forum.php?mod=viewthread&tid=2").mock(
        return_value=recorded("04a-viewthread-tid2-logged-in-director"))
    post = respx.post(url__regex=r".*mod=post&action=reply.*handlekey=fastpost.*").mock(
        return_value=recorded("06c-reply-POST-ajax-fastpost-director-success-admin-not-flood-limited"))
    result = await post_reply(game(tmp_path), 2, "[b]测试[/b]", now=1795968965)  # type: ignore[arg-type]
    assert result.pid == 576
    assert page.call_count == 1 and post.call_count == 1
    sent = httpx.QueryParams(post.calls[0].request.content.decode())
    assert sent["formhash"] == "4bab1b7a" and sent["message"] == "[b]测试[/b]"


@respx.mock
async def test_an_expired_login_is_refused_before_anything_is_posted(tmp_path: Path) -> None:
    respx.get(f"{BASE}forum.php?mod=viewthread&tid=2").mock(
        return_value=recorded("04b-viewthread-tid2-garbage-auth-cookie"))
    post = respx.post(url__regex=r".*mod=post.*").mock(return_value=httpx.Response(500))
    with pytest.raises(ReplyRefused) as err:
        await post_reply(game(tmp_path), 2, "x", now=0)  # type: ignore[arg-type]
    assert err.value.code == "not_logged_in" and post.call_count == 0


@respx.mock
@pytest.mark.parametrize(("answer", "code"), [
    ("06x2-reply-POST-ajax-fastpost-director-refused-post-captcha-on", "captcha"),
    ("06g-reply-POST-ajax-fastpost-director-stale-formhash", "stale_formhash"),
    ("06e-reply-POST-ajax-fastpost-player-flood", "flood"),
])
async def test_refusals_are_reported_without_a_retry(tmp_path: Path, answer: str, code: str) -> None:
    respx.get(f"{BASE}forum.php?mod=viewthread&tid=2").mock(
        return_value=recorded("04a-viewthread-tid2-logged-in-director"))
    post = respx.post(url__regex=r".*mod=post.*").mock(return_value=recorded(answer))
    with pytest.raises(ReplyRefused) as err:
        await post_reply(game(tmp_path), 2, "x", now=0)  # type: ignore[arg-type]
    assert err.value.code == code and post.call_count == 1
