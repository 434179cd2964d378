"""In real headless Chromium: the lobby's setup speaks a player's words: the presets by their
display names with a line each, in both languages; the rule changes (TOML) and the finer
timings behind "Advanced"; a refused table said beside its button."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server

NAMES = "() => [...document.getElementById('rules').options].map((o) => [o.value, o.textContent])"


def test_presets_by_name_with_a_line_and_the_toml_behind_advanced(page: Page,
                                                                  server: Server) -> None:
    page.goto(server.base + "/")
    page.get_by_test_id("new-table").click()
    names = dict(page.evaluate(NAMES))
    assert names["mien-nam"] == "Miền Nam (Southern)" and names["mien-bac"] == "Miền Bắc (Northern)"
    assert names["pagat"] == "pagat.com" and names["kenneth-lu"] == "Kenneth Lu"
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


def test_the_lobby_says_how_to_play_and_who_leads_in_both_languages(page: Page,
                                                                    server: Server) -> None:
    page.goto(server.base + "/")
    howto = page.get_by_test_id("howto")
    expect(howto.locator("li")).to_have_count(5)
    expect(howto).to_contain_text("the aim is to be the first with none left")
    picture = howto.get_by_role("img", name="A run of three, 3 4 5 of spades, beaten by 4 5 6")
    expect(picture.locator("[data-card]")).to_have_count(6)
    expect(page.get_by_test_id("top-none")).to_contain_text("No one has 20 rated hands yet")
    expect(page.get_by_test_id("play-now")).to_be_visible()
    expect(page.get_by_test_id("lobby-counts")).to_contain_text("online")
    page.get_by_test_id("lang").select_option("vi")
    expect(page.get_by_test_id("howto")).to_contain_text("Cách chơi")
    expect(page.get_by_test_id("howto")).to_contain_text("Mỗi người 13 lá")


FIRST = """() => [...document.getElementById('quick-rules').children].map((o) =>
    o.tagName === 'OPTGROUP' ? [o.label, [...o.children].map((c) => c.value)] : o.value)"""


@pytest.mark.parametrize(("lang", "other", "south", "north"), [
    ("en", "Other rule books", "Miền Nam (Southern)", "Miền Bắc (Northern)"),
    ("vi", "Các bộ luật khác", "Miền Nam", "Miền Bắc")], ids=["en", "vi"])
def test_the_quick_game_deals_mien_nam_and_the_rules_are_one_choice(
        browser: Browser, server: Server, lang: str, other: str, south: str, north: str) -> None:
    context = browser.new_context(extra_http_headers={"Accept-Language": lang})
    page = context.new_page()

    def quick_game(rules_name: str) -> None:
        page.get_by_test_id("quick-game").click()
        page.wait_for_url("**/t/*")
        expect(page.locator("#rules-name")).to_have_text(rules_name)

    try:
        page.goto(server.base + "/")
        # Vietnam's own rules first, the published accounts after them as other rule books
        expect(page.get_by_test_id("quick-rules")).to_have_value("mien-nam")
        first = page.evaluate(FIRST)
        assert first[:2] == ["mien-nam", "mien-bac"]
        assert first[2][0] == other and "pagat" in first[2][1] and "mien-nam" not in first[2][1]
        expect(page.get_by_test_id("quick-line")).to_contain_text("chặt chồng" if lang == "en"
                                                                   else "Luật miền Nam")
        quick_game(south)  # a newcomer's one click deals Miền Nam
        # one choice, shown in two places: the quick game follows the new table's form
        page.goto(server.base + "/")
        page.get_by_test_id("new-table").click()
        page.get_by_test_id("rules").select_option("mien-bac")
        expect(page.get_by_test_id("quick-rules")).to_have_value("mien-bac")
        quick_game(north)
        page.goto(server.base + "/")  # and it is kept for the next visit
        expect(page.get_by_test_id("quick-rules")).to_have_value("mien-bac")
        page.get_by_test_id("quick-rules").select_option("mien-nam")
        page.get_by_test_id("new-table").click()
        expect(page.get_by_test_id("rules")).to_have_value("mien-nam")
    finally:
        context.close()
