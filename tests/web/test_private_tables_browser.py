"""In real Chromium, a private table's records: the host shares a finished hand by a link of its
own (a page that replays it on a felt) and stops sharing it; a watcher who came by the table's
link is told the hands are its players' only."""

from __future__ import annotations

import re

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_chat_browser import table_of
from .test_rated_hands import play


def test_the_host_shares_a_hand_and_a_watcher_by_link_reads_none(browser: Browser,
                                                                 server: Server) -> None:
    lan = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table_id = table_of(lan, name="Lan", players=2, rules="mien-nam", quick=True, private=True)
    lan.goto(server.base + f"/t/{table_id}")
    play(server, table_id)
    records = lan.get_by_test_id("records")
    expect(records.get_by_test_id("record")).to_have_count(1)
    records.get_by_test_id("share-hand").click()
    link = records.get_by_test_id("share-link")
    expect(records).to_contain_text("Anyone with this link can read hand 1")
    url = link.input_value()  # the hand's replay on a page of its own
    assert url.startswith(f"{server.base}/shared/") and table_id not in url
    secret = url.rsplit("/", 1)[1]
    assert httpx.get(f"{server.base}/api/shared/{secret}", timeout=10).status_code == 200
    friend = browser.new_context().new_page()  # whoever has the link: the hand on a felt
    friend.goto(url)
    expect(friend.get_by_test_id("stage-seat")).to_have_count(2)
    # the hand's first moment in words (a Miền Nam deal may be won at once, by a claim)
    expect(friend.get_by_test_id("replay-last")).to_have_text(
        re.compile(r"^(The cards are dealt|Lan: claim |Bot 1: claim )"))
    expect(friend.get_by_test_id("replay-step")).to_be_visible()
    expect(friend.get_by_test_id("stage-record")).to_have_attribute("href", f"/api/shared/{secret}")
    records.get_by_test_id("unshare-hand").click()
    expect(records.get_by_test_id("share-hand")).to_be_visible()
    assert httpx.get(f"{server.base}/api/shared/{secret}", timeout=10).status_code == 404
    friend.reload()  # no longer shared: said where the hand was
    expect(friend.get_by_test_id("replay-last")).to_have_attribute("role", "alert")
    expect(friend.get_by_test_id("stage-seat")).to_have_count(0)

    watcher = browser.new_context().new_page()
    watcher.goto(server.base + f"/t/{table_id}")
    expect(watcher.get_by_test_id("records")).to_contain_text(
        "A private table's hands are shown only to those who played them.")
    expect(watcher.get_by_test_id("session-record")).to_be_hidden()
