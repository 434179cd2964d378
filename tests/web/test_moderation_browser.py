"""Moderation in real headless Chromium: a player reports another from the table, the admin
(made by the command line) reads it on /admin and bans them, and the banned page may only
watch, told why."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect
from sqlalchemy import update

from tienlen.web.accounts.names import account_key, confusable_key
from tienlen.web.accounts.rows import IdentityRow
from tienlen.web.accounts.session import digest
from tienlen.web.admin import set_admin

from .conftest import Server
from .test_accessibility import AXE, RUN_AXE
from .test_browser import sit_with_bots


def no_serious_axe_finding(page: Page) -> None:
    """axe-core (when installed: scripts/test.sh) finds nothing serious or critical."""
    if AXE.is_file():
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(RUN_AXE) == []


def new_table(page: Page, server: Server, name: str) -> str:
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("new-table").click()
    page.get_by_test_id("players").fill("3")
    page.get_by_test_id("rules").select_option("pagat")  # no instant win ends a random deal
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("invite-link")).to_have_attribute("href", re.compile(r"/t/"))
    link = page.get_by_test_id("invite-link").get_attribute("href")
    assert link
    return link


def admin_page(browser: Browser, server: Server) -> Page:
    """A browser whose guest became the account Boss, made admin by the command line's function."""
    context = browser.new_context()
    page = context.new_page()
    new_table(page, server, "Boss")
    secret = next(c["value"] for c in context.cookies() if c["name"] == "tienlen_sid")
    who = server.app.state.services.identities.by_session(digest(secret))
    with server.app.state.services.repo.engine.begin() as conn:  # as the accounts' claim does
        conn.execute(update(IdentityRow).where(IdentityRow.id == who.id).values(
            name="Boss", account_key=account_key("Boss"), look_key=confusable_key("Boss")))
    set_admin(server.db_url, "Boss")
    page.goto(server.base + "/admin")
    return page


def test_a_report_from_the_table_is_read_and_acted_on_at_admin(browser: Browser,
                                                                server: Server) -> None:
    minh = browser.new_context().new_page()
    link = new_table(minh, server, "Minh")
    lan = browser.new_context().new_page()
    lan.goto(link)
    sit_with_bots(minh, lan, "Lan")

    # Minh reports Lan from Lan's seat
    minh.locator("[data-testid=seat][data-seat='1'] [data-testid=report-seat]").click()  # ⋯
    minh.get_by_test_id("seat-menu").get_by_test_id("seat-report").click()
    dialog = minh.get_by_test_id("report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Report Lan")
    dialog.get_by_test_id("report-reason").select_option("abuse")
    dialog.get_by_test_id("report-text").fill("<i>rude</i> all hand")
    no_serious_axe_finding(minh)
    dialog.get_by_test_id("report-send").click()
    expect(dialog.get_by_test_id("report-done")).to_contain_text("your report about Lan was sent")
    dialog.get_by_test_id("report-cancel").click()
    expect(dialog).to_have_count(0)
    expect(lan.get_by_test_id("seats").locator("[data-testid=report-seat]")).to_have_count(1)

    # a player who is no admin is told so on /admin
    lan.goto(server.base + "/admin")
    expect(lan.get_by_test_id("admin-error")).to_contain_text("only the room's admins")
    lan.go_back()

    boss = admin_page(browser, server)
    report = boss.get_by_test_id("report-item")
    expect(report).to_contain_text("Lan, reported by Minh")
    expect(report).to_contain_text("Abuse")
    expect(report.get_by_test_id("report-text")).to_have_text("<i>rude</i> all hand")  # as text
    report.get_by_test_id("report-ban").click()
    boss.get_by_test_id("ban-amount").fill("2")
    boss.get_by_test_id("ban-reason").fill("abusive chat")
    boss.get_by_test_id("ban-send").click()
    expect(boss.get_by_test_id("ban-form-status")).to_contain_text("Lan is banned until")
    expect(boss.get_by_test_id("bans")).to_contain_text("Lan until")
    expect(boss.get_by_test_id("audit").get_by_test_id("audit-row").first).to_contain_text("ban")
    expect(boss.get_by_test_id("audit").get_by_test_id("audit-row").first).to_contain_text("Lan")
    no_serious_axe_finding(boss)
    report.get_by_test_id("report-handled").click()
    expect(boss.get_by_test_id("reports")).to_contain_text("No open reports")

    # Lan's page: its seat is left to the away bot, and a seat is refused with the reason
    lan.reload()
    expect(lan.get_by_test_id("banned")).to_contain_text("banned until")
    expect(lan.get_by_test_id("banned")).to_contain_text("abusive chat")
    lan.get_by_test_id("sit-here").click()
    expect(lan.get_by_test_id("banned")).to_contain_text("abusive chat")
    assert lan.evaluate("window.tienlenTable.seat") is None
