"""In real Chromium: two players at a rated table finish a hand, and each sees the rating it
moved on their own page (/me) and both of them on the leaderboard."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from tienlen.web.ratings.ratings import Rating, shown

from .conftest import Server
from .test_accessibility import AXE, RUN_AXE
from .test_browser import TABLE, sit_with_bots
from .test_rated_hands import owners, play
from .waiting import keys_shown


def rating_shown(page: Page, server: Server) -> str:
    """The southern rating and its rated hands, as the player's /me shows them."""
    page.goto(server.base + "/me")
    card = page.get_by_test_id("rating-southern")
    expect(card).to_be_visible()
    hands = card.locator("p.muted").inner_text().split(" ")[0]
    return f"{card.get_by_test_id('rating-value').inner_text()} after {hands}"


def test_two_players_see_their_ratings_move_on_me_and_on_the_leaderboard(
        browser: Browser, server: Server) -> None:
    host, guest = browser.new_context().new_page(), browser.new_context().new_page()
    host.goto(server.base + "/")
    made = host.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 4, rules: "mien-nam", level: "greedy"})})).json()""")
    host.goto(server.base + f"/t/{made['id']}")
    guest.goto(server.base + f"/t/{made['id']}")
    sit_with_bots(host, guest, "Minh", bots=2)
    ratings = server.app.state.services.ratings
    lan, minh = owners(server, made["id"])[:2]
    for player, mu in ((lan, 27.0), (minh, 26.0)):  # 19 rated hands before this one
        ratings.put(player, "southern", Rating(mu, 1.5, 19, 5))
    before = [rating_shown(page, server) for page in (host, guest)]
    assert before == [f"{shown(mu)}? after 19" for mu in (27.0, 26.0)]  # provisional: "?"
    expect(host.get_by_test_id("provisional")).to_be_visible()  # 19 of 20: still provisional
    host.goto(server.base + f"/t/{made['id']}")
    host.get_by_test_id("start").click()  # (a deal an instant win ends is rated at once)
    host.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")
    play(server, made["id"])
    now = [ratings.get(player, "southern") for player in (lan, minh)]
    # the end of the hand says how it moved Lan's rating, in the same number
    moved = now[0].shown - shown(27.0)
    change = f"+{moved}" if moved > 0 else f"\u2212{-moved}" if moved < 0 else "0"
    expect(host.get_by_test_id("end-rating")).to_have_text(
        f"Your rating: {now[0].shown} ({change})")
    after = [rating_shown(page, server) for page in (host, guest)]
    assert after == [f"{r.shown} after 20" for r in now]
    expect(host.get_by_test_id("provisional")).to_have_count(0)
    expect(host.get_by_test_id("hands-played")).to_have_text("1")
    expect(host.get_by_test_id("recent-hands")).to_contain_text("Minh")
    expect(host.get_by_test_id("recent-hands")).to_contain_text("Lan's table · hand 1")  # not its id
    # Lan's recent opponents: Minh, one hand together (the bots are nobody's)
    expect(host.get_by_test_id("recent-opponents").locator("tbody tr")).to_have_count(1)
    expect(host.get_by_test_id("recent-opponents").locator("tbody th")).to_have_text("Minh")
    guest.goto(server.base + "/leaderboard")
    board = guest.get_by_test_id("board")
    expect(board).to_contain_text("Lan")
    expect(board).to_contain_text("Minh")
    assert sorted(guest.get_by_test_id("board-rating").all_inner_texts()) == sorted(
        a.split(" ")[0] for a in after)
    assert keys_shown(guest) == [] and keys_shown(host) == []  # /leaderboard, /me
    if AXE.is_file():  # no serious or critical finding of axe-core on either page
        for page, path in ((host, "/me"), (guest, "/leaderboard"), (guest, "/p/Nobody")):
            page.goto(server.base + path)
            expect(page.locator("main:not([hidden]) h1").first).to_be_visible()
            page.add_script_tag(path=str(AXE))
            assert page.evaluate(RUN_AXE) == [], path
