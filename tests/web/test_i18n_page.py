"""The page in Vietnamese: chosen from Accept-Language, a whole quick game played with the
Vietnamese labels, the switch remembered across a reload; screenshots for a person to look at
(TIENLEN_SHOTS: a folder)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE, take_turn, wait_turn_or_over
from .waiting import keys_shown, settled

SHOTS = os.environ.get("TIENLEN_SHOTS")  # a folder: the pages are photographed there


@pytest.fixture
def vi_page(browser: Browser) -> Iterator[Page]:
    """A browser that asks for Vietnamese (Accept-Language: vi) and nothing else."""
    context = browser.new_context(extra_http_headers={"Accept-Language": "vi"},
                                  viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()


def shot(page: Page, name: str) -> None:
    """Photograph the page into TIENLEN_SHOTS, when set (no fixed folder that two runs share,
    and no time spent on pictures nobody asked for)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def test_the_page_speaks_vietnamese_from_accept_language(vi_page: Page, server: Server) -> None:
    page = vi_page
    page.goto(server.base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.locator(".hero h1")).to_have_text("Chơi Tiến Lên")
    expect(page.get_by_test_id("quick-game")).to_have_text("Chơi nhanh với máy")
    expect(page.get_by_test_id("new-table")).to_have_text("Tạo bàn…")
    expect(page.get_by_test_id("lang")).to_have_value("vi")
    page.get_by_test_id("new-table").click()
    expect(page.get_by_test_id("create")).to_have_text("Tạo bàn")
    expect(page.locator("#preset-text")).to_contain_text("Tiến Lên: luật")
    assert keys_shown(page) == []
    shot(page, "lobby-vi-desktop.png")


def test_a_whole_quick_game_with_the_vietnamese_labels(vi_page: Page, server: Server) -> None:
    page = vi_page
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill("Lan")
    page.get_by_test_id("quick-rules").select_option("pagat")  # no instant win ends the deal at once
    page.get_by_role("button", name="Chơi nhanh với máy").click()
    page.wait_for_url("**/t/*")
    card = page.get_by_test_id("card").first
    expect(card).to_have_accessible_name(re.compile(r"^quân \S+ \S+$"))
    expect(page.get_by_role("button", name="Gợi ý")).to_be_visible()
    expect(page.get_by_test_id("pass")).to_have_text("Bỏ lượt")
    expect(page.get_by_test_id("play")).to_have_text("Đánh")
    expect(page.get_by_role("heading", name="Ván này")).to_be_visible()
    wait_turn_or_over(page)
    assert keys_shown(page) == []
    shot(page, "table-vi-desktop.png")
    refused = False
    while not wait_turn_or_over(page):
        if not refused and page.evaluate(f"{TABLE}.state.view.table") is None:
            # a refusal said in Vietnamese by the server (the hello told it the language)
            page.evaluate(f"{TABLE}.act('pass')")
            expect(page.get_by_test_id("reason")).to_contain_text("không được bỏ lượt")
            refused = True
        take_turn(page)
    panel = page.get_by_test_id("end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("#end-title")).to_contain_text("thắng ván này")
    expect(page.get_by_test_id("next-hand")).to_have_text("Ván tiếp")
    expect(panel.locator("th").first).to_have_text("Hạng")
    expect(page.get_by_test_id("status")).to_contain_text("Hết ván")
    assert keys_shown(page) == []
    shot(page, "end-vi-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    settled(page)
    shot(page, "end-vi-phone.png")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, "the page scrolls sideways on a phone"


def test_the_switch_is_remembered_across_a_reload(vi_page: Page, server: Server) -> None:
    page = vi_page
    page.goto(server.base + "/")
    expect(page.locator(".hero h1")).to_have_text("Chơi Tiến Lên")
    page.get_by_test_id("lang").select_option("en")
    page.wait_for_load_state()
    expect(page.locator(".hero h1")).to_have_text("Play Tiến Lên")
    page.reload()
    expect(page.locator(".hero h1")).to_have_text("Play Tiến Lên")  # though the browser asks for vi
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_test_id("lang").select_option("vi")
    page.wait_for_load_state()
    expect(page.locator(".hero h1")).to_have_text("Chơi Tiến Lên")
    page.reload()
    expect(page.get_by_test_id("quick-game")).to_have_text("Chơi nhanh với máy")


def test_the_lobby_on_a_phone_in_vietnamese(browser: Browser, server: Server) -> None:
    context = browser.new_context(extra_http_headers={"Accept-Language": "vi-VN,vi;q=0.9"},
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.base + "/")
        expect(page.get_by_test_id("quick-game")).to_have_text("Chơi nhanh với máy")
        page.get_by_test_id("new-table").click()
        shot(page, "lobby-vi-phone.png")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        page.get_by_test_id("quick-rules").select_option("pagat")
        page.get_by_test_id("quick-game").click()
        page.wait_for_url("**/t/*")
        wait_turn_or_over(page)
        shot(page, "table-vi-phone.png")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
    finally:
        context.close()


def test_english_stays_the_default(page: Page, server: Server) -> None:
    page.goto(server.base + "/")
    expect(page.locator(".hero h1")).to_have_text("Play Tiến Lên")
    expect(page.get_by_test_id("quick-game")).to_have_text("Quick game against bots")
