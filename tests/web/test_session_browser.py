"""In real headless Chromium: a browser that sits down over the table's WebSocket becomes a guest
signed in by the secret that socket's handshake gave it (never by the cookie it came with), and
its next page is that guest."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from tienlen.web.accounts.session import digest

from .conftest import Server


def test_a_guest_made_by_the_socket_is_signed_in_by_the_handshakes_cookie(
        browser: Browser, server: Server) -> None:
    host = server.visitor()
    host.visit()
    table = host.post("/api/tables", {"players": 3}).json()["id"]
    context = browser.new_context()
    page = context.new_page()
    answer = page.goto(f"{server.base}/t/{table}")
    assert answer is not None
    given = (answer.header_value("set-cookie") or "").split(";")[0].removeprefix("tienlen_sid=")
    assert len(given) == 43
    expect(page.get_by_test_id("join")).to_be_visible()

    def cookie() -> str:
        return next(c["value"] for c in context.cookies() if c["name"] == "tienlen_sid")

    page.get_by_test_id("join-name").fill("Lan")
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("seats")).to_contain_text("Lan")
    guest = server.app.state.services.identities.by_session(digest(cookie()))
    assert guest is not None and guest.name == "Lan" and cookie() != given
    page.evaluate("localStorage.clear()")  # no seat token: the cookie alone finds the seat
    page.reload()
    expect(page.get_by_test_id("join")).to_be_hidden()
    assert page.evaluate("fetch('/api/me').then((r) => r.json())")["name"] == "Lan"
