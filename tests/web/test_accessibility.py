"""axe-core, the accessibility checker, run in real headless Chromium on every screen a player
meets — the lobby, the new table form, a table being set up (for its host, a guest and a
watcher), a table mid-hand at your turn, the end of a hand (also while the next hand waits for
a player) and the replay of a stored hand — in English and in Vietnamese: no violation it
rates serious or critical."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import IN_CI, UNRATED, Server, running
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over
from .test_next_hand import play_out, two_players

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("TIENLEN_AXE") or ROOT / ".cache/axe/node_modules/axe-core/axe.min.js")
LANGS = ["en", "vi"]
SERIOUS = ("serious", "critical")

# axe.run in the page: the serious and critical violations, each with the elements that fail
# the page as it rests: the moments that fade in (a deal, a toast) finish first, so that axe-core
# judges the colours a player reads, not a frame of an animation (the endless ones, a pulse, go on)
RUN_AXE = """async () => {
  await Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => {})));
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => (
      { target: n.target.join(" "), html: n.html.slice(0, 120) })) }));
}"""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    if not AXE.is_file():
        why = f"no axe-core at {AXE}: scripts/test.sh installs it with npm (TIENLEN_AXE)"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)
    return AXE


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module, with two tables in its lobby: one open, one being played."""
    url = f"sqlite:///{tmp_path_factory.mktemp('axe') / 'tienlen.sqlite3'}"
    for srv in running(url):
        srv.browser().post("/api/tables", {"rules": "pagat", "name": "Hoa", "table_name": "Friday night"})
        srv.browser().post("/api/tables", {"quick": True, "name": "Minh", "rules": "mien-nam"})
        yield srv


def open_context(browser: Browser, lang: str) -> BrowserContext:
    """A browser asking for ``lang``, 1280x800, no motion (no screen caught mid-animation)."""
    return browser.new_context(extra_http_headers={"Accept-Language": lang},
                               viewport={"width": 1280, "height": 800}, reduced_motion="reduce",
                               bypass_csp=True)


@pytest.fixture(params=LANGS)
def lang(request: pytest.FixtureRequest, axe_script: Path) -> str:
    return str(request.param)


@pytest.fixture
def context(browser: Browser, lang: str) -> Iterator[BrowserContext]:
    ctx = open_context(browser, lang)
    yield ctx
    ctx.close()


class Audit:
    """The serious and critical violations axe finds, screen by screen."""

    def __init__(self) -> None:
        self.found: dict[str, list[dict[str, Any]]] = {}

    def check(self, page: Page, screen: str) -> None:
        if not page.evaluate("typeof window.axe === 'object'"):
            page.add_script_tag(path=str(AXE))
        violations = page.evaluate(RUN_AXE)
        if violations:
            self.found[screen] = violations
        shots = os.environ.get("TIENLEN_SCREENSHOTS")
        if shots:  # the screens checked, for a person to look at
            Path(shots).mkdir(parents=True, exist_ok=True)
            lang = page.evaluate("document.documentElement.lang")
            page.screenshot(path=str(Path(shots) / f"axe-{screen.replace(' ', '-')}-{lang}.png"))

    def report(self) -> str:
        lines = []
        for screen, violations in self.found.items():
            for v in violations:
                lines.append(f"{screen}: {v['id']} ({v['impact']}): {v['help']}")
                lines += [f"    {n['target']}    {n['html']}" for n in v["nodes"]]
        return "\n".join(lines)

    def assert_clean(self) -> None:
        assert not self.found, "axe-core found serious or critical violations:\n" + self.report()


def test_the_lobby_and_the_new_table_form(context: BrowserContext, site: Server) -> None:
    page = context.new_page()
    audit = Audit()
    page.goto(site.base + "/")
    expect(page.get_by_test_id("tables")).to_contain_text("Friday night")
    audit.check(page, "lobby")
    page.get_by_test_id("new-table").click()
    expect(page.get_by_test_id("create")).to_be_visible()
    expect(page.locator("#preset-text")).not_to_be_empty()
    audit.check(page, "new table form")
    audit.assert_clean()


def test_a_table_being_set_up_for_its_host_and_for_a_watcher(
        context: BrowserContext, browser: Browser, lang: str, site: Server) -> None:
    host = context.new_page()
    audit = Audit()
    host.goto(site.base + "/")
    host.get_by_test_id("name").fill("Lan")
    host.get_by_test_id("new-table").click()
    host.get_by_test_id("players").fill("4")
    host.get_by_test_id("create").click()
    host.wait_for_url("**/t/*")
    host.get_by_test_id("add-bot").click()
    expect(host.get_by_test_id("remove-seat")).to_have_count(1)
    audit.check(host, "setup (host)")
    elsewhere = open_context(browser, lang)  # another browser: not the host's token
    watcher = elsewhere.new_page()
    watcher.goto(host.url)
    expect(watcher.get_by_test_id("sit-here")).to_have_count(2)
    audit.check(watcher, "setup (watcher)")
    elsewhere.close()
    audit.assert_clean()


def test_a_hand_at_your_turn_at_its_end_and_in_replay(context: BrowserContext, site: Server) -> None:
    page = context.new_page()
    audit = Audit()
    quick_game(page, site)
    for _ in range(20):  # your turn, with moves in the history (a hand may end at the deal)
        if wait_turn_or_over(page):
            page.get_by_test_id("next-hand").click()
            page.wait_for_function(f"() => !{TABLE}.state.view.is_over")
            continue
        if page.evaluate(f"{TABLE}.state.view.events.length") >= 2:
            break
        take_turn(page)
    assert not wait_turn_or_over(page)
    page.get_by_test_id("card").first.click()  # a card chosen: Play says how many
    expect(page.locator("[data-testid=card][aria-pressed=true]")).to_have_count(1)
    audit.check(page, "mid-hand")
    while not wait_turn_or_over(page):
        take_turn(page)
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    audit.check(page, "end of hand")
    page.get_by_test_id("replay-hand").first.click()
    expect(page.get_by_test_id("replay")).to_be_visible()
    expect(page.get_by_test_id("replay-step")).to_be_visible()  # the hand loaded
    for _ in range(5):
        page.get_by_test_id("replay-step").press("ArrowRight")
    expect(page.get_by_test_id("replay-step")).to_have_value("5")
    said = page.get_by_test_id("replay-last").inner_text()  # its cards as cards, not codes
    assert re.search(r"[♠♣♦♥]", said) and not re.search(r"\b(?:10|[2-9TJQKA])[scdh]\b", said), said
    # its controls: a step back and forward, and playing by itself until paused
    step = page.get_by_test_id("replay-step")
    page.get_by_test_id("replay-back").click()
    expect(step).to_have_value("4")
    page.get_by_test_id("replay-forward").click()
    expect(step).to_have_value("5")
    page.get_by_test_id("replay-speed").select_option("4")
    playing = page.get_by_test_id("replay-play")
    playing.click()
    expect(playing).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay-step]').value) >= 7")
    playing.click()
    expect(playing).to_have_attribute("aria-pressed", "false")
    paused = step.input_value()
    page.get_by_test_id("replay-forward").focus()
    page.keyboard.press("ArrowLeft")  # the replay's keys
    expect(step).to_have_value(str(int(paused) - 1))
    audit.check(page, "replay")
    page.keyboard.press("Escape")  # the dialog closes, back to the table
    expect(page.get_by_test_id("stage")).to_be_hidden()
    audit.assert_clean()


def test_a_guests_setup_and_the_wait_for_the_next_hand(browser: Browser, lang: str,
                                                       site: Server) -> None:
    audit = Audit()
    made = site.browser().post("/api/tables", {"name": "Hoa", "players": 3}).json()
    guest_context = open_context(browser, lang)
    guest = guest_context.new_page()
    guest.goto(f"{site.base}/t/{made['id']}")
    guest.get_by_test_id("join").click()
    expect(guest.get_by_test_id("leave")).to_be_visible()
    expect(guest.get_by_test_id("start")).to_be_hidden()
    audit.check(guest, "setup (guest)")
    guest_context.close()
    # new browsers take the seats by their tokens: an unrated table (at a rated one a seat is
    # played from its own browser only)
    table, lan, minh = two_players(site, next_hand_after=600, **UNRATED)
    play_out(lan, minh)
    contexts = [open_context(browser, lang) for _ in range(2)]
    pages = []
    for ctx, client in zip(contexts, (lan, minh), strict=True):
        page = ctx.new_page()
        page.goto(site.base + "/")
        page.evaluate("([id, token]) => localStorage.setItem(`tienlen-seat-${id}`, token)",
                      [table, client.token])
        page.goto(f"{site.base}/t/{table}")
        expect(page.get_by_test_id("end-panel")).to_be_visible()
        pages.append(page)
    pages[0].get_by_test_id("next-hand").click()
    expect(pages[0].get_by_test_id("next-hand")).to_have_attribute("aria-disabled", "true")
    expect(pages[1].get_by_test_id("seat-ready")).to_have_count(1)
    audit.check(pages[0], "waiting for the next hand (asked)")
    audit.check(pages[1], "waiting for the next hand (not asked)")
    for ctx in contexts:
        ctx.close()
    audit.assert_clean()


def test_the_settings_the_watchers_dock_the_stake_and_a_phones_end_panel(
        browser: Browser, lang: str, site: Server) -> None:
    """The parts that make the table feel alive, each judged open: the settings dialog, a
    four-colour, high-contrast hand, a spectator's dock, the line of what is at stake under
    chặt chồng (on a desk in the felt, on a phone in the dock) and the end panel on a phone."""
    from .test_chop_moment_browser import SETUP, land

    audit = Audit()
    desk = open_context(browser, lang)
    page = desk.new_page()
    quick_game(page, site)
    page.get_by_test_id("prefs-open").click()
    expect(page.get_by_test_id("prefs-dialog")).to_be_visible()
    audit.check(page, "settings dialog")
    page.get_by_test_id("pref-deck").check()
    page.get_by_test_id("pref-contrast").check()
    page.get_by_test_id("prefs-close").click()
    expect(page.locator("html")).to_have_attribute("data-deck", "four")
    audit.check(page, "four-colour high-contrast hand")
    other = open_context(browser, lang)
    watcher = other.new_page()
    watcher.goto(page.url)
    expect(watcher.get_by_test_id("watch-dock")).to_be_visible()
    audit.check(watcher, "spectator's dock")
    other.close()
    page.evaluate(SETUP)
    land(page, stake=True)
    expect(page.get_by_test_id("at-stake")).to_be_visible()
    audit.check(page, "at stake (desk)")
    desk.close()
    phone = browser.new_context(extra_http_headers={"Accept-Language": lang},
                                viewport={"width": 390, "height": 844}, reduced_motion="reduce",
                                bypass_csp=True)
    page = phone.new_page()
    quick_game(page, site)
    page.evaluate(SETUP)
    land(page, stake=True)
    expect(page.locator("#dock > #at-stake")).to_be_visible()  # in the dock, clear of the seats
    audit.check(page, "at stake (phone)")
    page.reload()
    while not wait_turn_or_over(page):
        take_turn(page)
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    audit.check(page, "end of hand (phone)")
    phone.close()
    audit.assert_clean()
