"""Helpers the web tests share: waiting for a server that moves on by itself, counting rows."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from tienlen.i18n import catalogue
from tienlen.web.schema import open_repository

from .conftest import Server

if TYPE_CHECKING:
    from playwright.sync_api import Page

T = TypeVar("T")


def in_a_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own, its result or its exception: the
    browser tests keep an event loop running in the main thread, where it cannot be called."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result(120)


def poll(fetch: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 60) -> Any:
    """Fetch until ``done`` holds (the server's tables move on by themselves)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r}")
        time.sleep(0.05)


# every animation and transition on the page that ends (a panel's entrance, a toast's fade-in),
# awaited; an endless one (a turn timer's ring) is left running, a cancelled one counts as ended
SETTLED = """() => Promise.all(document.getAnimations()
    .filter((a) => a.effect !== null && Number.isFinite(a.effect.getComputedTiming().endTime))
    .map((a) => a.finished.catch(() => null)))"""


def settled(page: Page) -> None:
    """Wait until ``page``'s entrances and fades have ended: a picture taken or a size measured
    then sees the page at rest."""
    page.evaluate(SETTLED)


def stored(server: Server) -> dict[str, int]:
    """How many rows each table of the server's database holds."""
    repo = open_repository(server.db_url)
    try:
        return repo.count_rows()
    finally:
        repo.close()


def closed_practice_table(server: Server) -> str:
    """A watched 2-player practice table that finishes a hand, then closes as idle: its id."""
    made = server.post("/api/tables", {"quick": True, "players": 2, "seed": 3}).json()
    table_id: str = made["id"]
    watcher = server.ws(table_id)
    watcher.hello()
    poll(lambda: server.get(f"/api/tables/{table_id}").json(), lambda t: t["records"] >= 1)
    watcher.close()
    lobby = server.app.state.lobby
    later = time.monotonic() + server.limits.idle_expiry + 1
    assert server.call(lambda: lobby.expire_idle(later)) == [table_id]
    return table_id


KEYS = frozenset(catalogue("en"))
# every text of the page and every label a reader is told, shown now or not
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) out.push(walk.currentNode.textContent);
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]"))
    for (const name of ["aria-label", "title", "placeholder"])
      if (el.hasAttribute(name)) out.push(el.getAttribute(name));
  return out;
}"""


def keys_shown(page: Page) -> list[str]:
    """The catalogue's keys the page shows as they are (a word it was not sent: the page is
    sent only its own words, ``tienlen.web.http.page_words``)."""
    texts: list[str] = page.evaluate(TEXTS)
    return sorted({word for text in texts
                   for word in re.findall(r"[a-z][a-z0-9_]*(?:\.\w+)+", text)
                   if word in KEYS})
