"""Screenshots of the web table as players see it, for looking at (not a test).

    python scripts/screenshots.py [--out DIR] [--lang en,vi] [--size desktop,phone]

Starts a server on a throwaway SQLite database (loopback, a free port), opens the tests'
Chromium (``TIENLEN_CHROMIUM``, default /usr/bin/chromium) at 1280x800 and 390x844, and saves
for each language and size: the lobby, a hand in play, a chop (the state a server sends when a
bomb lands, fed to the page), the end of a hand with its payments, an eight-seat table before
the start, and a spectator's view. The files are named ``{state}-{size}-{lang}.png``.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tienlen.web.app import create_app
from tienlen.web.limits import Limits

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "vi": "vi-VN"}
TABLE = "window.tienlenTable"
NO_LIMITS = Limits(tables_per_client=0, tables_per_address=0, creates_per_minute=0,
                   creates_per_address=0, messages_per_second=0, messages_per_address=0,
                   connections_per_address=0, replays_per_client=0)
# a bomb (8♠8♣8♦8♥ by seat 2) on seat 1's 2♥, paid at once: the state a server sends, fed to the
# page with its socket set aside (as tests/web/test_chop_moment_browser.py does)
CHOP = """() => { const t = window.tienlenTable; t.conn.ws.onmessage = () => {};
  const s = JSON.parse(JSON.stringify(t.state)); const v = s.view;
  const chop = {chopper: 2, owner: 1, target: "2h", bomb: "8s 8c 8d 8h", bomb_shape: "quad",
                bomb_ranks: 1, units: 2};
  v.events = [...v.events, {seat: 1, kind: "play", cards: "2h"}];
  v.table = "2h"; v.table_seat = 1; v.turn = 2; v.is_over = false; v.finish_order = [];
  v.decision = null; v.prompt = null; v.legal = [];  // another's turn: this seat is asked nothing
  v.payments = []; v.at_stake = []; s.version += 1; t.receive(s);
  const u = JSON.parse(JSON.stringify(s)); u.version += 1;
  u.view.events = [...u.view.events, {seat: 2, kind: "play", cards: chop.bomb}];
  u.view.table = chop.bomb; u.view.table_seat = 2; u.view.turn = 3;
  u.view.payments = [{payer: 1, payee: 2, units: 2, kind: "chop", item: "chop", chops: [chop],
                      at: u.view.events.length}];
  u.view.counts = u.view.counts.map((n, i) => i === 2 ? n - 4 : n);
  setTimeout(() => t.receive(u), 50); }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path) -> str:
    port = free_port()
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, limits=NO_LIMITS)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            sys.exit("the server did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}"


def new_page(browser: Browser, size: str, lang: str, motion: bool = False) -> Page:
    """A page of its own (a browser context: its own cookies); still unless ``motion``."""
    context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang],
                                  extra_http_headers={"Accept-Language": LOCALES[lang]},
                                  is_mobile=size == "phone", has_touch=size == "phone",
                                  reduced_motion="no-preference" if motion else "reduce")
    return context.new_page()


def my_turn_or_over(page: Page) -> bool:
    page.wait_for_function(f"""() => {{ const t = {TABLE};
        return t && t.state && t.state.view && (t.state.view.is_over || t.state.view.turn === t.seat); }}""",
                           timeout=60_000)
    return bool(page.evaluate(f"{TABLE}.state.view.is_over"))


def take_turn(page: Page) -> None:
    """The hint's move, by clicks."""
    before = page.evaluate(f"{TABLE}.state.version")
    page.evaluate(f"{TABLE}.lastHint = null")
    page.get_by_test_id("hint").click()
    page.wait_for_function(f"() => {TABLE}.lastHint !== null", timeout=60_000)
    if page.evaluate(f"{TABLE}.lastHint") == "pass":
        page.get_by_test_id("pass").click()
    else:
        page.get_by_test_id("play").click()
    page.wait_for_function(f"v => {TABLE}.state.version > v", arg=before, timeout=60_000)


def shoot(page: Page, out: Path, name: str) -> None:
    page.wait_for_timeout(400)  # what is fading in settles
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    print(path)


def quick_game(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("quick-game").click()
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("card").first).to_be_visible()


def states(browser: Browser, base: str, out: Path, size: str, lang: str) -> None:
    tag = f"{size}-{lang}"
    name = "Lan" if lang == "vi" else "Ana"
    page = new_page(browser, size, lang)
    quick_game(page, base, name)  # a table in play, so that the lobby lists one
    page.goto(base + "/")
    expect(page.get_by_test_id("tables")).not_to_be_empty()
    shoot(page, out, f"lobby-{tag}")
    page.go_back()
    expect(page.get_by_test_id("card").first).to_be_visible()
    for _ in range(3):
        if my_turn_or_over(page):
            break
        take_turn(page)
    my_turn_or_over(page)
    shoot(page, out, f"mid-hand-{tag}")
    while not my_turn_or_over(page):
        take_turn(page)
    expect(page.get_by_test_id("scores")).to_be_visible()
    shoot(page, out, f"end-{tag}")
    watcher = new_page(browser, size, lang)
    watcher.goto(page.url)
    expect(watcher.get_by_test_id("seats")).to_contain_text(name)
    shoot(watcher, out, f"spectator-{tag}")
    watcher.context.close()
    page.context.close()

    page = new_page(browser, size, lang, motion=True)
    quick_game(page, base, name)
    my_turn_or_over(page)
    page.wait_for_timeout(1600)  # the deal's cards settle in the hand
    page.evaluate(CHOP)
    page.wait_for_function(f"() => {TABLE}.state.view.table_seat === 2")
    page.wait_for_timeout(250)  # the stamp lands, the chips are on their way
    page.screenshot(path=str(out / f"chop-{tag}.png"))
    print(out / f"chop-{tag}.png")
    page.context.close()

    page = new_page(browser, size, lang)
    page.goto(base + "/")
    made = page.evaluate("""async (name) => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(
        {name, players: 8, rules: "mien-nam", turn_timer: 30})})).json()""", name)
    page.goto(base + f"/t/{made['id']}")
    for bots in range(1, 8):
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("seats")).to_contain_text(f" {bots}")
    shoot(page, out, f"eight-seats-{tag}")
    page.get_by_test_id("start").click()
    my_turn_or_over(page)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, out, f"eight-in-play-{tag}")
    page.context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tienlen-shots")
    parser.add_argument("--lang", default="en,vi", help="languages, comma-separated (en, vi)")
    parser.add_argument("--size", default="desktop,phone", help="sizes: desktop, phone")
    args = parser.parse_args(argv)
    langs = [x for x in args.lang.split(",") if x]
    sizes = [x for x in args.size.split(",") if x]
    for word, known in ((langs, LOCALES), (sizes, SIZES)):
        wrong = [x for x in word if x not in known]
        if wrong:
            parser.error(f"unknown {', '.join(wrong)}: choose from {', '.join(known)}")
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TIENLEN_CHROMIUM", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        base = serve(Path(tmp) / "shots.sqlite3")
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        for lang in langs:
            for size in sizes:
                states(browser, base, args.out, size, lang)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
