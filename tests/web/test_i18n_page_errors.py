"""The page shows the server's errors in its own language (a rate limit, a bad house rule) and the
bots' names in its words; screenshots on a phone for a person to look at."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .manual_time import ManualTime
from .test_browser import TABLE
from .test_i18n_page import shot
from .test_limits import clock, limited
from .waiting import closed_practice_table

__all__ = ["clock"]  # the fixture, used by name


@pytest.fixture
def vi_phone(browser: Browser) -> Iterator[Page]:
    """A phone-sized browser that asks for Vietnamese."""
    context = browser.new_context(extra_http_headers={"Accept-Language": "vi-VN,vi;q=0.9"},
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    yield context.new_page()
    context.close()


def test_a_rate_limit_is_shown_in_vietnamese_on_a_phone(vi_phone: Page, sqlite_url: str,
                                                        clock: ManualTime) -> None:
    page = vi_phone
    with limited(sqlite_url, clock, messages_per_second=3) as server:
        page.goto(server.base + "/")
        page.get_by_test_id("name").fill("Lan")
        page.get_by_test_id("quick-rules").select_option("pagat")
        page.get_by_test_id("quick-game").click()
        page.wait_for_url("**/t/*")
        page.wait_for_function(f"() => {TABLE} && {TABLE}.state")
        page.evaluate(f"() => {{ for (let i = 0; i < 6; i++) {TABLE}.send({{type: 'ping'}}); }}")
        reason = page.get_by_test_id("reason")
        expect(reason).to_contain_text("quá nhiều yêu cầu: mỗi kết nối tối đa 3 tin mỗi giây")
        expect(reason).to_contain_text("thử lại sau 1 giây")
        shot(page, "rate-limit-vi-phone.png")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0


def test_a_bad_house_rule_is_shown_in_vietnamese_on_a_phone(vi_phone: Page,
                                                            server: Server) -> None:
    page = vi_phone
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill("Lan")
    page.get_by_test_id("new-table").click()
    page.get_by_test_id("advanced").locator("summary").first.click()  # the rule changes' box
    page.get_by_test_id("options").fill('stake = 0\nchops = ["quad > 2"]')
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("form-error")).to_have_text(
        re.compile("stake phải từ 1 trở lên"))
    shot(page, "rules-error-vi-phone.png")


def test_the_bots_are_named_in_the_page_language(vi_phone: Page, server: Server,
                                                 page: Page) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 3}).json()
    vi_phone.goto(f"{server.base}/t/{made['id']}")
    names = vi_phone.locator(".seat-name")
    expect(names).to_have_text(["Máy 1", "Máy 2", "Máy 3"])
    shot(vi_phone, "bots-vi-phone.png")
    page.goto(f"{server.base}/t/{made['id']}")
    expect(page.locator(".seat-name")).to_have_text(["Bot 1", "Bot 2", "Bot 3"])


def test_a_closed_table_is_explained_in_vietnamese_on_a_phone(vi_phone: Page, sqlite_url: str,
                                                              clock: ManualTime) -> None:
    with limited(sqlite_url, clock) as server:
        table_id = closed_practice_table(server)
        vi_phone.goto(f"{server.base}/t/{table_id}")
        why = vi_phone.locator("#missing-why")
        expect(why).to_contain_text(f"Bàn '{table_id}' đã đóng (một lúc lâu không có ai)")
        shot(vi_phone, "closed-vi-phone.png")
