"""In real headless Chromium: a chop is a moment when the bomb lands. Under ``chop_pay =
"each"`` the stamp and the payment's chips come at once; under ``"chain"`` (chặt chồng) the
stamp comes with the bomb, the table says what is at stake, and the chips move when the round
ends and it is paid. The page is fed the states a server sends (its socket set aside), so the
moment is seen whatever the deal."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from .conftest import Server
from .test_browser import quick_game
from .test_moments_browser import WATCH

BOMB = "8s 8c 8d 8h"
CHOP = {"chopper": 2, "owner": 1, "target": "2h", "bomb": BOMB, "bomb_shape": "quad",
        "bomb_ranks": 1, "units": 2}

# the page's state now, a play of 2♥ by seat 1 on the table; then feed(change) sends the next
# state: ``change`` applied to a copy (events added, payments, what is at stake)
SETUP = """() => { const t = window.tienlenTable; t.conn.ws.onmessage = () => {};
  const base = JSON.parse(JSON.stringify(t.state));
  base.view.events = [{ seat: 1, kind: "play", cards: "2h" }];
  base.view.table = "2h"; base.view.table_seat = 1; base.view.turn = 2;
  base.view.decision = null; base.view.prompt = null; base.view.legal = [];
  base.view.payments = []; base.view.at_stake = []; base.view.finish_order = []; base.view.is_over = false;
  window.feed = (change) => { const s = JSON.parse(JSON.stringify(window.fed || base));
    s.version += 1; change(s); window.fed = s; t.receive(s); };
  window.feed(() => {}); }"""


def land(page: Page, stake: bool) -> None:
    payment = "" if stake else f"""s.view.payments.push({{ payer: 1, payee: 2, units: 2, kind: "chop",
        item: "chop", chops: [{CHOP!r}], at: 2 }});"""
    page.evaluate(f"""() => window.feed((s) => {{
        s.view.events.push({{ seat: 2, kind: "play", cards: "{BOMB}" }});
        s.view.table = "{BOMB}"; s.view.table_seat = 2; s.view.turn = 3;
        {payment} {"s.view.at_stake = [" + repr(CHOP) + "];" if stake else ""} }})""")


def moments(page: Page) -> list[str]:
    return list(page.evaluate("window.moments"))


def test_under_each_the_stamp_and_the_chips_come_with_the_bomb(page: Page,
                                                                server: Server) -> None:
    quick_game(page, server)
    page.evaluate(SETUP)
    page.evaluate(WATCH)
    land(page, stake=False)
    assert sorted(moments(page)) == ["chips", "stamp"]
    expect(page.locator(".stamp")).to_have_text("Chop!")
    expect(page.get_by_test_id("at-stake")).to_be_hidden()


def test_under_chain_the_stake_is_shown_and_paid_with_chips_at_the_rounds_end(
        page: Page, server: Server) -> None:
    quick_game(page, server)
    page.evaluate(SETUP)
    page.evaluate(WATCH)
    land(page, stake=True)
    assert moments(page) == ["stamp"]  # the bomb lands: nothing paid yet
    stake = page.get_by_test_id("at-stake")
    expect(stake).to_be_visible()
    expect(stake).to_have_text("Chặt chồng: 2 units at stake. Bot 1 pays Bot 2 when the round "
                               "ends, unless chopped again.")
    page.evaluate("window.moments.length = 0")
    page.evaluate(f"""() => window.feed((s) => {{  // the others pass: the round ends, paid
        s.view.events.push({{ seat: 3, kind: "pass" }}, {{ seat: 0, kind: "pass" }},
                           {{ seat: 1, kind: "pass" }});
        s.view.table = null; s.view.table_seat = null; s.view.turn = 2; s.view.at_stake = [];
        s.view.payments.push({{ payer: 1, payee: 2, units: 2, kind: "chop", item: "chop",
                                chops: [{CHOP!r}], at: 5 }}); }})""")
    assert "chips" in moments(page) and "stamp" not in moments(page)
    expect(stake).to_be_hidden()
