"""A saved login the forum has forgotten: the crawl notices the guest view, logs in again, and only
then stores anything. Replayed from recorded exchanges (respx; no network)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
import respx
from test_auth_login import BASE, LOGIN_PAGE, LOGIN_POST, SECRET, replay

from tests.captured_pages import PAGES
from tracker.config import load_game
from tracker.errors import LoginError
from tracker.scraper.auth import save_cookies
from tracker.scraper.crawl import crawl_game
from tracker.store.db import Store
from tracker.store.posts import all_posts

LISTING = re.compile(re.escape(BASE + "api/mobile/index.php?version=4&module=viewthread&tid=2") + ".*")
DESKTOP = BASE + "forum.php?mod=viewthread&tid=2&page=1"


def listing(member: bool) -> httpx.Response:
    doc = json.loads((PAGES / "process.mobile-ppp200.json").read_text(encoding="utf-8"))
    if member:
        doc["Variables"].update(member_uid="1", member_username="导演A")
    return httpx.Response(200, json=doc)


def game_with_saved_session(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(f'[game]\nname = "演示局"\nruleset = "luoluo-m19"\nforum = "{BASE}"\nprocess_thread = 2\n'
                    '[crawl]\ndelay = 0\n[login]\nusername = "导演A"\npassword_env = "FORUM_PW"\n', encoding="utf-8")
    old = httpx.Cookies()
    old.set("dz35_2132_saltkey", "OLDSALT1", domain="127.0.0.1")
    old.set("dz35_2132_auth", "OLD" * 20, domain="127.0.0.1")
    save_cookies(old, tmp_path / "game.session")
    return path


@respx.mock
async def test_an_expired_saved_session_is_renewed_before_anything_is_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORUM_PW", raising=False)  # the caller's password source is used (a TUI prompt)
    game = load_game(game_with_saved_session(tmp_path))
    listed = respx.get(LISTING).mock(side_effect=[listing(member=False), listing(member=True)])
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    login = respx.post(LOGIN_POST).mock(return_value=replay("02-login-POST-ajax-director-success.json"))
    respx.get(DESKTOP).mock(return_value=replay("04a-viewthread-tid2-logged-in-director.json"))
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    try:
        report = await crawl_game(game, store, password=lambda: SECRET)
        with store.session() as s:
            posts = all_posts(s)
    finally:
        store.close()
    assert report.status == "ok" and login.call_count == 1 and listed.call_count == 2
    assert len(posts) == 8 and all(p.has_desktop for p in posts)
    # The renewed session replaced the stale one; the password is nowhere on disk.
    saved = (tmp_path / "game.session").read_text(encoding="utf-8")
    assert "OLDOLD" not in saved and "dz35_2132_auth\t" + "A" * 84 in saved and SECRET not in saved
    # The retried listing carried the new login.
    assert "A" * 84 in listed.calls[1].request.headers["cookie"]


@respx.mock
async def test_a_session_still_guest_after_renewal_is_a_login_error(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORUM_PW", SECRET)
    game = load_game(game_with_saved_session(tmp_path))
    respx.get(LISTING).mock(return_value=listing(member=False))
    respx.get(LOGIN_PAGE).mock(return_value=replay("01-login-page-GET-guest.json"))
    respx.post(LOGIN_POST).mock(return_value=replay("02-login-POST-ajax-director-success.json"))
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    try:
        with pytest.raises(LoginError, match="登录已过期"):
            await crawl_game(game, store)
        with store.session() as s:
            assert all_posts(s) == []
    finally:
        store.close()
