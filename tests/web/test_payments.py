"""Payments at a web table (§8, §11): what a seat receives (structured, public, never the record's
English), a chop said as it is paid, the end panel's itemised list adding up to the units
shown, and a free-chop offer marked for the seat offered."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Rules
from tienlen.web.room.views import seat_view

MIEN_NAM = Rules.preset("mien-nam")
# a practice table whose first hand, with the human playing as human_move says, has the human
# chop Bot 3's two early on (the bots are deterministic; found by playing the table's flow offline)
SEED = 142


def human_move(legal: list[str], table: str | None) -> str:
    """Chop a two whenever one lies on the table and a chop is in hand, else pass when allowed,
    else the first legal play."""
    if table and all(card.startswith("2") for card in table.split()):
        for move in legal:
            if move != "pass" and not move.startswith("2"):
                return move
    return "pass" if "pass" in legal else legal[0]


# ---------------------------------------------------------------------- the seat view
def test_a_seat_view_carries_the_payments_and_a_free_chop_offer() -> None:
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(MIEN_NAM, hands, leader=0, first_hand=False)
    game.play("2h")
    offered = seat_view(game, 3)
    assert offered.decision is not None and offered.decision.kind == "free_chop"
    assert offered.legal == ["6s 6c 7s 7d 8s 8d 9s 9c"]
    assert seat_view(game, 2).decision is None  # asked too, but holds no free chop: nothing shown
    assert seat_view(game, 1).decision.kind == "play"  # type: ignore[union-attr]  # on turn
    assert seat_view(game, None).decision is None
    for move in ("3s 3c 4s 4c 5d 5h", "Js Jc Jd Jh", "pass", "pass", "pass"):
        game.play(move)
    for seat in (0, 1, 2, 3, None):
        view = seat_view(game, seat)
        [paid] = view.payments
        dumped = paid.model_dump()
        assert dumped == {
            "payer": 1, "payee": 2, "units": 4, "kind": "chop", "item": "chain", "cards": "",
            "count": 0, "places": [], "win": "", "at": 6,
            "chops": [{"chopper": 1, "owner": 0, "target": "2h", "bomb": "3s 3c 4s 4c 5d 5h",
                       "bomb_shape": "chain", "bomb_ranks": 3, "units": 2},
                      {"chopper": 2, "owner": 1, "target": "3s 3c 4s 4c 5d 5h",
                       "bomb": "Js Jc Jd Jh", "bomb_shape": "quad", "bomb_ranks": 1,
                       "units": 2}]}
        assert "reason" not in dumped and "chopped" not in str(dumped)


def test_the_end_payments_sum_to_the_scores_in_the_seat_view() -> None:
    from tienlen import Session
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    session = Session(MIEN_NAM, 4, seed=8)
    play_out(session.game, [get_bot("heuristic", seed=s) for s in range(4)])
    view = seat_view(session.game, 0)
    units = [0] * 4
    for p in view.payments:
        units[p.payer] -= p.units
        units[p.payee] += p.units
        assert (p.item and p.at == len(view.events)) or p.kind == "chop"
    assert units == view.scores and any(p.item == "place" for p in view.payments)


# ---------------------------------------------------------------------- in the browser
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, ViewportSize, expect  # noqa: E402

from .conftest import Server  # noqa: E402
from .test_browser import TABLE, version, wait_turn_or_over  # noqa: E402
from .waiting import settled  # noqa: E402

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def practice_table(page: Page, server: Server, seed: int = SEED) -> str:
    """A quick mien-nam table with a fixed deal, Lan at seat 0; the page opened at it."""
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "rules": "mien-nam",
                                       "seed": seed}).json()
    page.goto(server.base + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`tienlen-seat-${id}`, token)",
                  [made["id"], made["token"]])
    page.goto(server.base + made["invite"])
    expect(page.get_by_test_id("card").first).to_be_visible()
    return str(made["id"])


def play(page: Page, move: str) -> None:
    """Make the move by the page's buttons: select its cards and Play, or Pass."""
    before = version(page)
    if move == "pass":
        page.get_by_test_id("pass").click()
    else:
        page.evaluate(f"cards => {TABLE}.hand.select(cards)", move.split())
        expect(page.locator("[data-testid=card][aria-pressed=true]")).to_have_count(len(move.split()))
        page.get_by_test_id("play").click()
    page.wait_for_function(f"v => {TABLE}.state.version > v", arg=before)


def play_hand(page: Page, shots: Path | None = None, size: str = "") -> bool:
    """Play the hand to its end as human_move says; True if a chop was said at the table."""
    toast_seen = False
    while not wait_turn_or_over(page):
        view: Any = page.evaluate(f"{TABLE}.state.view")
        play(page, human_move(view["legal"], view["table"]))
        if not toast_seen and page.get_by_test_id("toast").is_visible():
            toast_seen = True
            # said over the table's title, above the felt: it hides nothing played, no seat
            toast, felt = page.get_by_test_id("toast").bounding_box(), page.locator("#felt").bounding_box()
            assert toast is not None and felt is not None
            assert toast["y"] + toast["height"] <= felt["y"], (toast, felt)
            if shots is not None:
                settled(page)  # the toast's fade-in
                page.screenshot(path=shots / f"payments-chop-{size}.png")
    return toast_seen


def check_end_panel(page: Page) -> None:
    """Every payment is listed, and each player's listed payments add up to the units shown."""
    view: Any = page.evaluate(f"{TABLE}.state.view")
    panel = page.get_by_test_id("end-panel")
    expect(panel).to_be_visible()
    rows = panel.get_by_test_id("payment")
    expect(rows).to_have_count(len(view["payments"]))
    units = [0] * len(view["scores"])
    for row in rows.all():
        n = int(row.get_attribute("data-units") or "0")
        units[int(row.get_attribute("data-payer") or "-1")] -= n
        units[int(row.get_attribute("data-payee") or "-1")] += n
    for row in panel.get_by_test_id("end-row").all():
        seat = int(row.get_attribute("data-seat") or "-1")
        expect(row.get_by_test_id("end-units")).to_have_text(
            f"{'+' if units[seat] > 0 else ''}{units[seat]}")
    texts = rows.all_inner_texts()
    assert any("Bot 3 pays you 2 units: You chopped Bot 3's 2♥" in text for text in texts), texts
    assert any("place pays" in text for text in texts), texts


def test_a_mien_nam_table_says_a_chop_and_itemises_the_payments(page: Page, server: Server) -> None:
    practice_table(page, server)
    assert play_hand(page), "the chop was not said at the table"
    history = page.get_by_test_id("history-payment")
    expect(history.first).to_contain_text("Bot 3 pays you")
    expect(history.first).to_contain_text("You chopped Bot 3's 2")
    check_end_panel(page)


def test_on_a_phone_the_chop_is_said_above_the_felt(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    practice_table(page, server)
    assert play_hand(page), "the chop was not said at the table"  # and above the felt


def test_the_free_chop_offer_is_marked_for_the_seat_offered(page: Page, server: Server) -> None:
    """The page marks a free-chop offer from the seat view alone (the table does not wait for
    a human's free chop, so the view is set here as the server would send it)."""
    practice_table(page, server)
    wait_turn_or_over(page)
    page.evaluate(f"""() => {{ const t = {TABLE}; const v = t.state.view;
        t.state = {{ ...t.state, view: {{ ...v, turn: (t.seat + 1) % v.counts.length,
            table: "2h", table_seat: (t.seat + 2) % v.counts.length, prompt: "free_chop",
            decision: {{ kind: "free_chop", out_of_turn: true, to: (t.seat + 2) % v.counts.length }},
            legal: ["5s 5c 6s 6c 7d 7h 8s 8c"] }} }};
        t.render(t.state); }}""")
    expect(page.get_by_test_id("free-chop-mark")).to_be_visible()
    expect(page.get_by_test_id("status")).to_contain_text("Free chop: you may chop Bot 2's 2♥")
    expect(page.get_by_test_id("play")).to_be_enabled()
    folder = os.environ.get("TIENLEN_SCREENSHOTS")
    if folder:  # for a person to judge
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=Path(folder) / "payments-free-chop-1280x720.png")


def test_payments_screenshots_for_a_person_to_judge(browser: Browser, server: Server) -> None:
    """With TIENLEN_SCREENSHOTS=/some/folder: a chop said at the table and the end panel's
    payments, at 1280x800 and 390x844, in English and Vietnamese."""
    folder = os.environ.get("TIENLEN_SCREENSHOTS")
    if not folder:
        pytest.skip("set TIENLEN_SCREENSHOTS to a folder to write the screenshots")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("1280x800", DESKTOP), ("390x844", PHONE)):
        for lang in ("en", "vi"):
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            page.goto(server.base + "/")
            page.evaluate("lang => localStorage.setItem('tienlen-lang', lang)", lang)
            practice_table(page, server)
            play_hand(page, out, f"{lang}-{size}")
            expect(page.get_by_test_id("end-panel")).to_be_visible()
            settled(page)  # the panel's fade-in
            page.screenshot(path=out / f"payments-end-{lang}-{size}.png")
            page.screenshot(path=out / f"payments-end-{lang}-{size}-full.png", full_page=True)
            paid = page.get_by_test_id("history-payment").first
            paid.scroll_into_view_if_needed()
            paid.locator("xpath=ancestor::li[contains(@class, 'round')]").screenshot(
                path=out / f"payments-history-{lang}-{size}.png")
            context.close()
