"""In real headless Chromium: at your turn the cards no legal play holds are dimmed (and said
to be so to a screen reader), none while another player is to play; a seat with one card
left is marked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tienlen.web.room.views import MAX_LEGAL

from .conftest import Server, running
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over

STATIC = Path(__file__).resolve().parents[2] / "src" / "tienlen" / "web" / "static"
DIMMED = "[...document.querySelectorAll('[data-testid=card].unusable')].map((b) => b.dataset.card)"


def test_the_page_knows_the_servers_cap_on_legal_plays() -> None:
    found = re.search(r"const MAX_LEGAL = (\d+);", (STATIC / "table" / "status.js").read_text())
    assert found is not None and int(found.group(1)) == MAX_LEGAL


def test_cards_no_legal_play_holds_are_dimmed_at_your_turn(page: Page, server: Server) -> None:
    quick_game(page, server)
    seen_dimmed = False
    for _ in range(30):  # turns until one where a play must be beaten
        if wait_turn_or_over(page):
            break
        state = page.evaluate(f"{TABLE}.state.view")
        hand, legal = state["hand"], state["legal"]
        usable = {c for m in legal if m != "pass" for c in m.split(" ")}
        expected = sorted(c for c in hand if c not in usable)
        assert sorted(page.evaluate(DIMMED)) == expected
        if expected:
            seen_dimmed = True
            card = page.locator(f"[data-testid=card][data-card='{expected[0]}']").first
            expect(card).to_have_accessible_description("cannot be played now")  # said so
            expect(card).to_be_enabled()  # still selectable
        take_turn(page)
        theirs, dimmed = page.evaluate(f"""() => [!{TABLE}.state.view.is_over &&
            !["play", "free_chop"].includes({TABLE}.state.view.decision?.kind), {DIMMED}]""")
        if theirs:
            assert dimmed == []  # another's turn: nothing dimmed
    assert seen_dimmed


def test_a_seat_with_one_card_left_is_marked(page: Page, server: Server) -> None:
    quick_game(page, server)
    marked = page.evaluate("""async () => {
        const { renderSeats } = await import("/static/table/seats.js");
        const box = document.createElement("div");
        const seat = (i) => ({ seat: i, kind: "bot", name: `Bot ${i}`, level: "greedy" });
        const info = { players: 3, status: "playing", seats: [0, 1, 2].map(seat), ready: [] };
        const view = { is_over: false, turn: 0, counts: [5, 1, 2], finish_order: [],
                       passed: [false, false, false], table: null, table_seat: null, dealer: 0 };
        renderSeats(box, { info, view, me: null });
        return [...box.querySelectorAll("[data-testid=seat]")].map((s) => [
            s.classList.contains("last-card"), s.getAttribute("aria-label"),
            s.querySelector("[data-testid=last-card]")?.textContent ?? null]);
    }""")
    assert [m[0] for m in marked] == [False, True, False]
    assert "one card left" in marked[1][1] and marked[1][2] == "1 card left"
    assert marked[0][2] is None and "one card left" not in marked[2][1]


@pytest.mark.parametrize("only", [False, True], ids=["3s among plays", "3s the only lead"])
def test_the_first_lead_says_the_card_it_must_hold(page: Page, server: Server,
                                                   only: bool) -> None:
    page.goto(server.base + "/")
    for seed in range(200):  # a practice deal where Lan, at seat 0, leads the first round
        made = page.evaluate("""async (seed) => (await fetch("/api/tables", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify(
            {name: "Lan", players: 4, rules: "pagat", quick: true, seed})})).json()""", seed)
        game = server.app.state.lobby.get(made["id"]).game
        if game.turn == 0 and game.table is None and (len(game.legal_plays(0)) == 1) == only:
            break  # (only: 3♠ alone may be led; it said "lead anything")
    else:
        pytest.fail("no deal of 200 where seat 0 leads first so")
    page.goto(server.base + f"/t/{made['id']}")
    expect(page.get_by_test_id("status")).to_have_text("Your turn: lead a play with 3♠ in it")
    assert page.evaluate(DIMMED) and "3s" not in page.evaluate(DIMMED)


@pytest.fixture
def slow_bots(sqlite_url: str) -> Iterator[Server]:
    """A server whose bots take 3 s a move: the bot's turn lasts long enough to be seen."""
    yield from running(sqlite_url, bot_delay=3.0)


def test_the_turn_timer_drains_a_ring_round_the_seat_and_counts_in_your_dock(
        page: Page, slow_bots: Server) -> None:
    server = slow_bots
    page.goto(server.base + "/")
    made = page.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(
        {name: "Lan", players: 2, rules: "thirteen", quick: true, turn_timer: 40})})).json()""")
    page.goto(server.base + f"/t/{made['id']}")  # thirteen: no instant win ends the deal
    ring = "() => { const s = document.querySelector('[data-testid=seat].timed');" \
           " return s ? [Number(s.dataset.seat), Number(s.style.getPropertyValue('--left'))] : null; }"
    page.wait_for_function(ring)
    assert not wait_turn_or_over(page)
    seat, first = page.evaluate(ring)
    assert seat == page.evaluate(f"{TABLE}.seat") and 0.5 < first <= 1  # our turn: ours drains
    timer = page.get_by_test_id("dock-timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"^0:[0-4]\d$"))
    # the ring drains as the time runs out
    page.wait_for_function(f"first => {{ const r = ({ring})(); return r !== null && r[1] < first; }}",
                           arg=first)
    take_turn(page)
    # the bot's turn (3 s), or the hand over: no timer for a bot, none in our dock
    page.wait_for_function(f"{TABLE}.state.view.is_over || {TABLE}.state.view.turn !== {TABLE}.seat")
    expect(timer).to_be_hidden()
