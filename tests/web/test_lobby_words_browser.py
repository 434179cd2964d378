"""In real headless Chromium: the lobby's setup speaks a player's words: the presets by their
display names with a line each, in both languages; the rule changes (TOML) and the finer
timings behind "Advanced"; a refused table said beside its button."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from .conftest import Server

NAMES = "() => [...document.getElementById('rules').options].map((o) => [o.value, o.textContent])"


def test_presets_by_name_with_a_line_and_the_toml_behind_advanced(page: Page,
                                                                  server: Server) -> None:
    page.goto(server.base + "/")
    page.get_by_test_id("new-table").click()
    names = dict(page.evaluate(NAMES))
    assert names["mien-nam"] == "Miền Nam (Southern)" and names["mien-bac"] == "Miền Bắc (Northern)"
    assert names["pagat"] == "Pagat" and names["kenneth-lu"] == "Kenneth Lu"
    page.get_by_test_id("rules").select_option("mien-nam")
    expect(page.get_by_test_id("rules-line")).to_contain_text("chặt chồng")
    expect(page.get_by_test_id("rules")).to_have_accessible_description(
        page.get_by_test_id("rules-line").inner_text())
    expect(page.get_by_test_id("options")).to_be_hidden()  # behind Advanced
    page.get_by_test_id("advanced").locator("summary").first.click()
    page.get_by_test_id("options").fill("stake = 0")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("form-error")).to_contain_text("stake")  # beside the button
    page.get_by_test_id("lang").select_option("vi")
    page.get_by_test_id("new-table").wait_for()
    if page.get_by_test_id("rules").is_hidden():
        page.get_by_test_id("new-table").click()
    names = dict(page.evaluate(NAMES))
    assert names["mien-nam"] == "Miền Nam" and names["mien-bac"] == "Miền Bắc"
    page.get_by_test_id("rules").select_option("mien-bac")
    expect(page.get_by_test_id("rules-line")).to_contain_text("Luật miền Bắc")
