"""The bytes a browser receives to open the room: a first visit, a table, and the table again.

    python benchmarks/bench_page_weight.py [--against REV] [--chromium /usr/bin/chromium]

A server (``tienlen serve`` on SQLite, in a process of its own) and headless Chromium (the
tests' one: ``TIENLEN_CHROMIUM``, else /usr/bin/chromium), for English and Vietnamese
(Accept-Language), each in a fresh browser context (an empty cache):

- **first load**: ``/`` until the lobby's "Quick game" button shows;
- **to the table**: the quick game pressed, until the dealt hand shows (the page, its files and
  its words already in the browser's cache);
- **warm table**: that table's page loaded again (as a returning player's).

Counted: every HTTP answer's bytes as they crossed the wire (Chromium's ``encodedDataLength``:
headers and the body as sent, compressed or not), not the WebSocket's. Targets (issue 36): a
first load under 120 KB, a warm table load under 20 KB. With ``--against REV`` the same for the
server of git revision REV first (checked out in a temporary folder), then this one, and the
ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

from bench_web import checkout, free_port  # (this folder: the room's benchmark)

ROOT = Path(__file__).resolve().parent.parent
FIRST_TARGET, WARM_TARGET = 120_000, 20_000
STEPS = ("first load", "to the table", "warm table")


# the table's hand dealt and drawn (a Miền Nam deal may be over at once, by an instant win: then
# its end panel shows instead of the cards)
DEALT = "() => window.tienlenTable && window.tienlenTable.state && window.tienlenTable.state.view"


@contextlib.contextmanager
def serving(code: Path) -> Iterator[str]:
    """A server run from ``code`` (a ``src`` folder) on a fresh SQLite file: its address."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="tienlen-weight-"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tienlen.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{folder / 'room.sqlite3'}", "--bot-workers", "1"],
        env={**os.environ, "PYTHONPATH": str(code), "TIENLEN_PURE": "1"}, cwd=folder,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the server stopped: {proc.stderr.read().decode()[-2000:]}"
                                 if proc.stderr else "the server stopped")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer within 120 s")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
        if proc.poll() is None:
            proc.kill()


class Received:
    """The bytes each finished HTTP answer brought the page (from Chromium's network events)."""

    def __init__(self, page: Page) -> None:
        self.total = 0
        self.answers = 0
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.loadingFinished", self._finished)

    def _finished(self, event: dict[str, Any]) -> None:
        self.total += int(event.get("encodedDataLength", 0))
        self.answers += 1

    def take(self) -> tuple[int, int]:
        """The bytes and answers since the last take."""
        got = self.total, self.answers
        self.total = self.answers = 0
        return got


def weigh(base: str, chromium: str, lang: str) -> dict[str, tuple[int, int]]:
    """Each step's (bytes, answers) for a browser that asks for ``lang``."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        context = browser.new_context(extra_http_headers={"Accept-Language": lang},
                                      viewport={"width": 1280, "height": 800})
        page = context.new_page()
        received = Received(page)
        got: dict[str, tuple[int, int]] = {}
        page.goto(base + "/")
        page.get_by_test_id("quick-game").wait_for(state="visible")
        page.wait_for_load_state("networkidle")
        got["first load"] = received.take()
        page.get_by_test_id("name").fill("Lan")
        page.get_by_test_id("quick-game").click()
        page.wait_for_url("**/t/*")
        page.wait_for_function(DEALT)
        page.wait_for_load_state("networkidle")
        got["to the table"] = received.take()
        page.reload()
        page.wait_for_function(DEALT)
        page.wait_for_load_state("networkidle")
        got["warm table"] = received.take()
        browser.close()
    return got


def kb(n: int) -> str:
    return f"{n / 1000:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", metavar="REV", help="a git revision to weigh first")
    parser.add_argument("--chromium", default=os.environ.get("TIENLEN_CHROMIUM",
                                                             "/usr/bin/chromium"))
    args = parser.parse_args()
    if not Path(args.chromium).exists():
        parser.error(f"no Chromium at {args.chromium} (--chromium PATH)")
    servers: list[tuple[str, Any]] = []
    if args.against:
        servers.append((f"before ({args.against})", lambda: checkout(args.against)))
    servers.append(("now", lambda: contextlib.nullcontext(ROOT / "src")))
    figures: dict[str, dict[str, dict[str, tuple[int, int]]]] = {}
    for label, code_of in servers:
        with code_of() as code, serving(code) as base:
            figures[label] = {lang: weigh(base, args.chromium, lang) for lang in ("en", "vi")}
        for lang, steps in figures[label].items():
            said = ", ".join(f"{step} {kb(b)} ({n} answers)" for step, (b, n) in steps.items())
            print(f"{label}, {lang}: {said}")
    now = figures["now"]
    if len(figures) == 2:
        before = next(iter(figures.values()))
        for lang in ("en", "vi"):
            print(f"after / before, {lang}: " + ", ".join(
                f"{step} {now[lang][step][0] / max(1, before[lang][step][0]):.2f}"
                for step in STEPS))
    met = all(now[lang]["first load"][0] < FIRST_TARGET and now[lang]["warm table"][0] < WARM_TARGET
              for lang in now)
    print(f"targets (first load < {kb(FIRST_TARGET)}, warm table < {kb(WARM_TARGET)}, both "
          f"languages): {'MET' if met else 'NOT MET'}")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
