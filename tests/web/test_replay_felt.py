"""A finished hand replayed on a felt of its own, in real Chromium: from the end panel, from its
own page (a profile's link) and from a shared link (test_private_tables_browser.py). Every seat round
the felt holds its cards face up, the play to beat lies in the middle, and the moment is said in
words: who played what over whose cards, who won the round, a chop and what it paid."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE, practice_hand_played_out
from .test_replays import play_practice_hand

CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[scdh]\b")


def replay_of(server: Server, table_id: str, lang: str = "en") -> dict[str, Any]:
    return dict(httpx.get(f"{server.base}/api/tables/{table_id}/records/1/replay",
                          headers={"Accept-Language": lang}, timeout=30).json())


def test_each_step_says_its_chop_and_what_it_paid_in_the_askers_language(
        server: Server) -> None:
    table_id = play_practice_hand(server)  # Lan chops a two (chặt chồng: paid as the round ends)
    data = replay_of(server, table_id)
    steps = data["steps"]
    [chopped] = [i for i, s in enumerate(steps) if s["chop"]]
    chop = steps[chopped]["chop"]
    assert steps[chopped]["event"]["kind"] == "play" and chop["target"].startswith("2")
    assert steps[chopped - 1]["table"] == chop["target"]  # the two it beat lay on the table
    [paid_at] = [i for i, s in enumerate(steps) if any(p["kind"] == "chop" for p in s["paid"])]
    assert paid_at >= chopped and not any(s["paid"] for s in steps[1:paid_at])
    [paid] = steps[paid_at]["paid"]
    assert paid["words"].startswith(f"{data['names'][paid['payer']]} pays")
    assert paid["payer"] == chop["owner"] and paid["units"] >= chop["units"]
    assert steps[-1]["paid"]  # the settlement, at the last step
    vi = replay_of(server, table_id, "vi")
    assert " trả " in vi["steps"][paid_at]["paid"][0]["words"]
    # the bots by their names in the asker's words, as at the table
    assert "Bot 1" in data["names"] and vi["names"] == [n.replace("Bot", "Máy") for n in data["names"]]
    # the play to beat comes with who made it
    played = [s for s in steps if s["table"]]
    assert played and all(s["table_seat"] is not None for s in played)


def test_the_end_panels_replay_draws_the_hand_on_a_felt(browser: Browser, server: Server) -> None:
    table_id = play_practice_hand(server)
    data = replay_of(server, table_id)
    [at] = [i for i, s in enumerate(data["steps"]) if s["chop"]]
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.base}/t/{table_id}")
    page.get_by_test_id("end-replay").click()
    stage = page.get_by_test_id("stage")
    expect(stage).to_be_visible()
    seats = stage.get_by_test_id("stage-seat")
    expect(seats).to_have_count(4)
    # the deal: every hand face up, 13 cards each, and who leads
    expect(stage.locator("[data-testid=stage-seat] .card-static")).to_have_count(52)
    said = page.get_by_test_id("replay-last")
    expect(said).to_have_text(re.compile(r"^The cards are dealt: \w+ leads$"))
    page.get_by_test_id("replay-forward").click()
    first = data["steps"][1]["event"]
    expect(said).to_contain_text(f"{data['names'][first['seat']]} plays ")
    expect(stage.get_by_test_id("stage-centre").locator(".card-static")).to_have_count(
        len(first["cards"].split()))
    assert not CARD_CODE.search(said.inner_text())  # cards as cards
    # the chop: stamped on the felt, said with whose cards it beat
    page.get_by_test_id("replay-step").fill(str(at))
    expect(stage.get_by_test_id("stage-stamp")).to_have_text("Chop!")
    expect(said).to_have_text(re.compile(r"^\w+ chops [\w ]+'s 2[♠♣♦♥] with "))
    page.get_by_test_id("replay-forward").click()
    expect(stage.get_by_test_id("stage-stamp")).to_have_count(0)
    # the end: the places, the settlement
    page.keyboard.press("End")
    expect(said).to_contain_text("the hand is over")
    expect(stage.locator(".mark.out")).to_have_count(4)
    page.keyboard.press("Escape")
    expect(stage).to_be_hidden()
    expect(page.get_by_test_id("end-replay")).to_be_focused()


def replay_page(page: Page) -> None:
    """The replay's own page: the felt with its seats, no dialog to close."""
    expect(page.get_by_test_id("replay-page")).to_be_visible()
    expect(page.get_by_test_id("stage-seat")).to_have_count(4)
    expect(page.get_by_test_id("stage-close")).to_be_hidden()
    expect(page.get_by_test_id("replay-step")).to_be_visible()


def test_a_hand_has_a_replay_page_of_its_own(browser: Browser, server: Server) -> None:
    # (test_profiles.py: a profile links it, and it replays once the table has closed too)
    table_id = play_practice_hand(server)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.base}/replay/{table_id}/1?seat=2")
    replay_page(page)
    # seat 2 at the bottom: drawn where your own seat sits
    low = page.locator("[data-testid=stage-seat][data-seat='2']")
    felt = page.get_by_test_id("stage-felt").bounding_box()
    box = low.bounding_box()
    assert felt and box and box["y"] + box["height"] > felt["y"] + 0.7 * felt["height"]
    page.get_by_test_id("replay-play").click()  # it plays by itself
    expect(page.get_by_test_id("replay-step")).not_to_have_value("0")
    page.goto(f"{server.base}/replay/{table_id}/99")  # no such hand: said where it would be
    expect(page.get_by_test_id("replay-last")).to_have_text(re.compile(r"^[A-Z].*\b99\b"))
    expect(page.get_by_test_id("replay-step")).to_be_hidden()


def test_your_turn_at_the_table_calls_you_back_from_a_replay(browser: Browser,
                                                            server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    practice_hand_played_out(page, server, 2, "pagat", seed=5)
    page.get_by_test_id("end-replay").click()
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    # the table's keys are not the dialog's: N (next hand) sends nothing while it is open
    page.evaluate(f"""() => {{ const conn = {TABLE}.conn, send = conn.send.bind(conn);
        window.sent = []; conn.send = (m) => {{ window.sent.push(m.type); return send(m); }}; }}""")
    page.keyboard.press("n")
    assert page.evaluate("window.sent") == []
    call = page.get_by_test_id("stage-call")
    expect(call).to_be_hidden()
    page.evaluate(f"{TABLE}.send({{type: 'next_hand', version: {TABLE}.state.version}})")
    page.wait_for_function(f"() => {TABLE}.state.info.hand_no === 2 && {TABLE}.state.view.decision"
                           f" && !{TABLE}.state.view.decision.out_of_turn", timeout=60_000)
    expect(call).to_have_text("Your turn at the table: back to it")
    call.click()
    expect(page.get_by_test_id("stage")).to_be_hidden()
    expect(page.get_by_test_id("play")).to_be_visible()
