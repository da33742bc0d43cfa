"""Every recorded answer of Discuz to a reply POST is understood (exchanges/ recorded against X3.5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tracker.scraper.reply import ReplyRefused, fastpost_request, interpret_reply

EXCHANGES = Path(__file__).parent / "fixtures" / "discuz" / "exchanges"


def replay(name: str) -> tuple[int, str, str | None]:
    """The recorded answer with its emptied <script> bodies put back, as the forum really sent it."""
    data = json.loads((EXCHANGES / f"{name}.json").read_text(encoding="utf-8"))
    resp = data["response"]
    body: str = resp["body"] or ""
    payloads = iter(resp.get("script_payload") or [])
    body = re.sub(r"(<script\b[^>]*>)(</script>)", lambda m: m.group(1) + next(payloads, "") + m.group(2), body)
    location = next((v for k, v in resp["headers"] if k.lower() == "location"), None)
    return int(resp["status"]), body, location


def test_quick_reply_success_gives_the_new_pid() -> None:
    status, body, loc = replay("06c-reply-POST-ajax-fastpost-director-success-admin-not-flood-limited")
    assert interpret_reply(status, body, loc).pid == 576
    status, body, loc = replay("06d-reply-POST-ajax-fastpost-player-success")
    assert interpret_reply(status, body, loc).pid == 577


def test_full_form_success_is_a_relative_301() -> None:
    status, body, loc = replay("06b-reply-POST-nonajax-director-success")
    assert (status, interpret_reply(status, body, loc).pid) == (301, 575)


@pytest.mark.parametrize(("name", "code"), [
    ("06e-reply-POST-ajax-fastpost-player-flood", "flood"),
    ("06f-reply-POST-nonajax-player-flood", "flood"),
    ("06g-reply-POST-ajax-fastpost-director-stale-formhash", "stale_formhash"),
    ("06h-reply-POST-nonajax-director-wrong-formhash", "stale_formhash"),
    ("06g2-reply-POST-ajax-fastpost-director-formhash-missing", "invalid_submit"),
    ("06i-reply-POST-ajax-fastpost-director-foreign-referer", "invalid_submit"),
    ("06x1-reply-POST-nonajax-director-refused-post-captcha-on", "captcha"),
    ("06x2-reply-POST-ajax-fastpost-director-refused-post-captcha-on", "captcha"),
    ("07b-reply-POST-nonajax-guest", "not_logged_in"),
    ("07c-reply-POST-ajax-fastpost-guest", "not_logged_in"),
])
def test_every_refusal_has_a_code_and_chinese_words(name: str, code: str) -> None:
    status, body, loc = replay(name)
    with pytest.raises(ReplyRefused) as err:
        interpret_reply(status, body, loc)
    assert err.value.code == code
    assert err.value.exit_code != 0
    assert re.search(r"[\u4e00-\u9fff]", str(err.value))


def test_flood_says_how_long_to_wait() -> None:
    status, body, loc = replay("06e-reply-POST-ajax-fastpost-player-flood")
    with pytest.raises(ReplyRefused) as err:
        interpret_reply(status, body, loc)
    assert err.value.wait_seconds == 15


def test_the_request_matches_what_the_browser_sent() -> None:
    recorded = json.loads((EXCHANGES / "06c-reply-POST-ajax-fastpost-director-success-admin-not-flood-limited.json")
                          .read_text(encoding="utf-8"))["request"]
    req = fastpost_request(fid=2, tid=2, message=recorded["body"]["message"], formhash=recorded["body"]["formhash"],
                           posttime=int(recorded["body"]["posttime"]))
    assert "/" + req.path == recorded["url"].replace("%3D", "%3D")
    assert req.form == recorded["body"]
