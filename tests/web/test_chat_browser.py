"""In real Chromium, two browsers (one page in Vietnamese) at a private table: a phrase and a
reaction are said in each reader's language by the seat, free words are shown as text, a mute
holds across a reload, and the host kicks the player who went away."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE
from .test_chat import away
from .test_fair_seats import grace_over
from .test_moderation_browser import admin_page, no_serious_axe_finding
from .test_rated_hands import IN_PLAY


def table_of(page: Page, **spec: Any) -> str:
    """A table of three made from ``page`` (its browser sits at seat 0 as the host); its id."""
    answer: dict[str, Any] = page.evaluate("""async (spec) => (await fetch("/api/tables", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(spec)})).json()""", spec)
    assert "id" in answer, answer
    return str(answer["id"])


def line(page: Page, text: str) -> Any:
    return page.get_by_test_id("chat-log").get_by_test_id("chat-line").filter(has_text=text)


def menu(page: Page, seat: int) -> Any:
    page.locator(f"[data-testid=seat][data-seat='{seat}'] [data-testid=report-seat]").click()
    return page.locator(f"[data-testid=seat][data-seat='{seat}'] [data-testid=seat-menu]")


def test_talking_muting_and_kicking_in_both_languages(browser: Browser, server: Server) -> None:
    lan = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table_id = table_of(lan, name="Lan", players=3, rules=IN_PLAY, private=True, away_timeout=1)
    lan.goto(server.base + f"/t/{table_id}")
    minh_context = browser.new_context(locale="vi-VN")
    minh = minh_context.new_page()
    minh.goto(server.base + f"/t/{table_id}")
    expect(minh.get_by_test_id("chat")).to_contain_text("Hãy ngồi vào bàn để trò chuyện.")
    minh.get_by_test_id("join-name").fill("Minh")
    minh.get_by_test_id("join").click()
    expect(lan.get_by_test_id("seats")).to_contain_text("Minh")
    lan.get_by_test_id("add-bot").click()
    lan.get_by_test_id("start").click()
    for page in (lan, minh):
        page.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")

    # a phrase: the key travels, each reader reads it in their language, by Lan's plate too
    lan.locator("[data-testid=chat-phrase][data-phrase=good_game]").click()
    expect(line(lan, "Good game")).to_contain_text("Lan")
    expect(line(minh, "Ván hay")).to_contain_text("Lan")
    expect(minh.locator("[data-testid=chat-bubble][data-seat='0']")).to_have_text("Ván hay")
    # free words at a private table, shown as the characters typed; a reaction
    minh.get_by_test_id("chat-text").fill("<i>xin chào</i> cả nhà")
    minh.get_by_test_id("chat-send").click()
    expect(line(lan, "<i>xin chào</i> cả nhà")).to_be_visible()
    expect(lan.locator("#chat-log i")).to_have_count(0)  # text, never markup
    # the reactions drawn, as the bot's face is (a system without an emoji font shows no empty
    # box), each named in the reader's words
    assert minh.evaluate("""() => [...document.querySelectorAll("[data-testid=chat-emoji]")]
        .every((b) => b.textContent.trim() === "" && b.querySelector("svg"))""")
    expect(minh.locator("[data-testid=chat-emoji][data-emoji='👏']")).to_have_accessible_name(
        "Bày tỏ vỗ tay")
    minh.locator("[data-testid=chat-emoji][data-emoji='👏']").click()
    expect(lan.locator("[data-testid=chat-bubble][data-seat='1'] svg[data-emoji='👏']")
           ).to_have_attribute("aria-label", "applause")  # the bubbles are seen; the log is read

    # Lan mutes Minh: Minh's words are hidden from Lan, and stay hidden after a reload
    opened = menu(lan, 1)
    for page in (lan, minh):  # the chat, its bubbles and the seat's menu open, in both languages
        no_serious_axe_finding(page)
    opened.get_by_test_id("seat-mute").click()
    expect(line(lan, "xin chào")).to_have_count(0)
    minh.locator("[data-testid=chat-phrase][data-phrase=thanks]").click()
    expect(line(minh, "Cảm ơn")).to_be_visible()
    lan.locator("[data-testid=chat-phrase][data-phrase=hello]").click()
    expect(line(lan, "Hello!")).to_be_visible()  # sent after Minh's: Minh's came first, unshown
    expect(line(lan, "Thanks")).to_have_count(0)
    lan.reload()
    lan.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")
    expect(menu(lan, 1).get_by_test_id("seat-mute")).to_have_text("Unmute")
    lan.locator("[data-testid=seat][data-seat='1'] [data-testid=report-seat]").click()  # closed
    minh.locator("[data-testid=chat-phrase][data-phrase=sorry]").click()
    expect(line(minh, "Xin lỗi")).to_be_visible()
    lan.locator("[data-testid=chat-emoji][data-emoji='🔥']").click()
    expect(line(lan, "Lan").locator("svg[data-emoji='🔥']")).to_have_accessible_name("on fire")
    expect(line(lan, "Sorry")).to_have_count(0)
    expect(lan.locator("[data-testid=chat-bubble][data-seat='1']")).to_have_count(0)

    # Lan reports Minh from the ⋯ menu: the admin reads the hand's chat with the report
    menu(lan, 1).get_by_test_id("seat-report").click()
    lan.get_by_test_id("report-reason").select_option("abuse")
    lan.get_by_test_id("report-send").click()
    expect(lan.get_by_test_id("report-done")).to_be_visible()
    lan.get_by_test_id("report-cancel").click()

    # Minh goes away; the host kicks Minh (confirmed) and every page is told who
    minh.close()
    lan_seat = lan.locator("[data-testid=seat][data-seat='1']")
    expect(lan_seat).to_contain_text("away")
    grace_over(server, table_id, 1)  # a rated table's grace, 40 s at least, has run out
    away(server, table_id, 1)
    lan.once("dialog", lambda dialog: dialog.accept())
    menu(lan, 1).get_by_test_id("seat-kick").click()
    expect(lan.get_by_test_id("toast")).to_contain_text("The host kicked Minh while away")
    expect(lan.get_by_test_id("chat-log").get_by_test_id("chat-note")).to_contain_text("kicked Minh")
    expect(lan_seat.get_by_test_id("report-seat")).to_have_count(0)  # a bot's seat now
    # Minh's page is offered nothing back
    again = minh_context.new_page()
    again.goto(server.base + f"/t/{table_id}")
    again.wait_for_function(f"() => {TABLE} && {TABLE}.state !== null")
    expect(again.get_by_test_id("chat")).to_contain_text("Hãy ngồi vào bàn để trò chuyện.")
    expect(again.get_by_test_id("take-back")).to_have_count(0)
    expect(again.get_by_test_id("toast")).to_contain_text("Chủ bàn đã mời bạn ra khỏi bàn này")

    boss = admin_page(browser, server)
    boss.get_by_test_id("report-item").get_by_test_id("report-chat-show").click()
    chat = boss.get_by_test_id("report-chat")
    expect(chat).to_contain_text("Lan: Good game")
    expect(chat).to_contain_text("Minh: <i>xin chào</i> cả nhà")
    expect(chat).to_contain_text("Minh: 👏")
    expect(chat.locator("i")).to_have_count(0)
