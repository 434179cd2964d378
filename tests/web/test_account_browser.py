"""Accounts in real headless Chromium, two browsers (contexts) at once: a guest plays a hand,
claims its name, signs in from another browser and finds its seat and its own page; a recovery
code resets a forgotten password in the page."""

from __future__ import annotations

import os
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Locator, Page, expect

from .conftest import Server
from .test_accessibility import AXE, Audit
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over

PASSWORD = "a long pass phrase"
SHOTS = os.environ.get("TIENLEN_SHOTS")  # a folder: the dialogs and /me are photographed there


AUDIT = Audit()  # axe-core's serious and critical findings on the account's screens


@pytest.fixture(autouse=True)
def audit() -> None:
    AUDIT.found.clear()  # each test answers for its own screens


def shot(page: Page, name: str) -> None:
    """Check the screen with axe-core (where it is installed); photograph it (TIENLEN_SHOTS)."""
    if AXE.is_file():
        AUDIT.check(page, name)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def claim(page: Page, password: str = PASSWORD) -> list[str]:
    """Claim the guest's name from the header; the recovery codes shown (acknowledged)."""
    page.get_by_test_id("claim").click()
    dialog = page.get_by_test_id("claim-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Name")).to_be_focused()
    dialog.get_by_label("Password").fill("short")
    dialog.get_by_test_id("claim-form-submit").click()
    expect(dialog.get_by_role("alert")).not_to_be_empty()  # too short: said, nothing sent
    shot(page, "claim-refused")
    dialog.get_by_label("Password").fill(password)
    dialog.get_by_test_id("claim-form-submit").click()
    codes = page.get_by_test_id("codes-dialog")
    expect(codes).to_be_visible()
    shot(page, "codes")
    page.keyboard.press("Escape")  # the codes do not go away unseen
    expect(codes).to_be_visible()
    shown = [c.strip() for c in codes.get_by_test_id("recovery-codes").locator("li").all_inner_texts()]
    assert len(shown) == 10 and all(re.fullmatch(r"[a-z1-9]{4}(-[a-z1-9]{4}){3}", c) for c in shown)
    codes.get_by_test_id("codes-done").click()
    page.wait_for_load_state()
    return shown



def sign_in(page: Page, name: str, password: str,
            labels: tuple[str, str] = ("Name", "Password")) -> Locator:
    """Open the sign-in dialog from the header and send ``name`` and ``password`` (its fields
    found by their ``labels`` in the page's language); the dialog."""
    page.get_by_test_id("sign-in").click()
    dialog = page.get_by_test_id("signin-dialog")
    dialog.get_by_label(labels[0]).fill(name)
    dialog.get_by_label(labels[1]).fill(password)
    dialog.get_by_test_id("signin-form-submit").click()
    return dialog

def test_a_guest_claims_its_name_and_finds_its_seat_from_another_browser(
        browser: Browser, server: Server) -> None:
    desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    quick_game(desk, server, "Lan")
    while not wait_turn_or_over(desk):
        take_turn(desk)
    table_url = desk.url
    expect(desk.get_by_test_id("account-name")).to_have_text("Lan")  # the guest
    claim(desk)
    expect(desk.get_by_test_id("account-name")).to_have_attribute("href", "/me")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True).new_page()
    phone.goto(table_url)
    expect(phone.get_by_test_id("account-name")).to_have_count(0)  # nobody yet
    phone.wait_for_function(f"() => {TABLE} && {TABLE}.state")
    assert phone.evaluate(f"{TABLE}.seat") is None  # a spectator
    dialog = sign_in(phone, "lan", "not the password")
    expect(dialog.get_by_role("alert")).to_have_text("wrong name or password")
    shot(phone, "signin-refused-phone")
    dialog.get_by_label("Password").fill(PASSWORD)
    dialog.get_by_test_id("signin-form-submit").click()
    expect(phone.get_by_test_id("account-name")).to_have_text("Lan")
    phone.wait_for_function(f"() => {TABLE} && {TABLE}.seat === 0")  # the same seat, no token
    phone.get_by_test_id("account-name").click()
    phone.wait_for_url("**/me")
    sessions = phone.get_by_test_id("session")
    expect(sessions).to_have_count(2)
    expect(phone.get_by_test_id("session-this")).to_have_count(1)
    shot(phone, "me-phone")
    phone.get_by_test_id("sign-out-others").click()
    expect(sessions).to_have_count(1)
    desk.reload()
    expect(desk.get_by_test_id("claim")).to_be_visible()  # signed out there
    AUDIT.assert_clean()


def test_a_recovery_code_resets_a_forgotten_password_in_the_page(
        browser: Browser, server: Server) -> None:
    vi = browser.new_context(viewport={"width": 1280, "height": 800}, locale="vi-VN").new_page()
    vi.goto(server.base + "/")
    expect(vi.get_by_test_id("claim")).to_have_text("Giữ tên của bạn")
    vi.get_by_test_id("name").fill("Minh")
    codes = claim_in_vietnamese(vi)
    shot(vi, "header-vi")
    vi.goto(server.base + "/me")
    expect(vi.get_by_test_id("account-heading")).to_have_text("Tài khoản Minh")
    shot(vi, "me-vi")
    vi.get_by_test_id("sign-out").click()
    expect(vi.get_by_test_id("sign-in")).to_be_visible()
    vi.get_by_test_id("sign-in").click()
    vi.get_by_test_id("forgot").click()
    dialog = vi.get_by_test_id("recover-dialog")
    expect(dialog.get_by_label("Tên")).to_be_focused()
    dialog.get_by_label("Tên").fill("Minh")
    dialog.get_by_label("Mã khôi phục").fill(codes[0])
    dialog.get_by_label("Mật khẩu mới").fill("my new pass phrase")
    shot(vi, "recover-vi")
    dialog.get_by_test_id("recover-form-submit").click()
    expect(vi.get_by_test_id("account-name")).to_have_text("Minh")
    vi.get_by_test_id("sign-out").click()
    sign_in(vi, "Minh", "my new pass phrase", ("Tên", "Mật khẩu"))
    expect(vi.get_by_test_id("account-name")).to_have_text("Minh")
    AUDIT.assert_clean()


def claim_in_vietnamese(page: Page) -> list[str]:
    page.get_by_test_id("claim").click()
    dialog = page.get_by_test_id("claim-dialog")
    dialog.get_by_label("Tên").fill("Minh")
    dialog.get_by_label("Mật khẩu").fill(PASSWORD)
    dialog.get_by_test_id("claim-form-submit").click()
    codes = page.get_by_test_id("codes-dialog")
    expect(codes).to_contain_text("Mã khôi phục của bạn")
    shot(page, "codes-vi")
    shown = [c.strip() for c in codes.get_by_test_id("recovery-codes").locator("li").all_inner_texts()]
    codes.get_by_test_id("codes-done").click()
    expect(page.get_by_test_id("account-name")).to_have_text("Minh")
    return shown
