"""A table named by the room (no name given) is named for its people in each reader's words,
never by its id: "Lan's table" to an English page is "Bàn của Lan" to a Vietnamese one, in the
lobby and at the table; a quick match's table is named for its rules; a name its creator gave
is said as it is."""

from __future__ import annotations

import pytest

from tienlen.web.tablelog.names import Title, named_for, quick_match_name, title_of, unnamed

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server


def test_a_name_the_room_made_is_read_back_as_what_it_says() -> None:
    assert title_of(named_for("Lan", "t1", 40), "t1") == Title("of", "Lan")
    assert title_of(quick_match_name("t1"), "t1") == Title("quick")
    assert title_of(unnamed("t1"), "t1") == Title("table")
    assert title_of("Friday night", "t1") is None  # a name its creator gave
    assert title_of("Table t2", "t1") is None  # another table's id is a name like any
    assert named_for("L" * 40, "t1", 40) == unnamed("t1")  # too long: the table's own


def test_a_table_is_named_for_its_people_in_each_readers_words(browser: Browser,
                                                                server: Server) -> None:
    english = browser.new_context(extra_http_headers={"Accept-Language": "en"}).new_page()
    english.goto(server.base + "/")
    made = english.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 3})})).json()""")
    named = english.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 3, table_name: "Friday night"})})).json()""")
    english.goto(server.base + f"/t/{made['id']}")
    expect(english.get_by_test_id("table-title")).to_have_text("Lan's table")
    vietnamese = browser.new_context(extra_http_headers={"Accept-Language": "vi"}).new_page()
    vietnamese.goto(server.base + "/")
    rows = vietnamese.get_by_test_id("table-row")
    expect(rows.filter(has_text="Bàn của Lan")).to_have_count(1)
    expect(rows.filter(has_text="Friday night")).to_have_count(1)  # given: as it is
    expect(rows.filter(has_text="Lan's table")).to_have_count(0)
    expect(rows.filter(has_text=made["id"])).to_have_count(0)
    vietnamese.goto(server.base + f"/t/{made['id']}")
    expect(vietnamese.get_by_test_id("table-title")).to_have_text("Bàn của Lan")
    vietnamese.goto(server.base + f"/t/{named['id']}")
    expect(vietnamese.get_by_test_id("table-title")).to_have_text("Friday night")
