"""In real headless Chromium: the Hint button thinks while the bot pool chooses the hint (and
refuses a second ask meanwhile), then the hint's cards are selected and its reason shown beside
them.

The pool's worker is stood in for by an executor the test releases by hand (the same function
runs, in the test's thread), so the thinking moment is seen for sure, not by timing."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from tienlen.web.workers import botpool
from tienlen.web.workers.botpool import BotPool

from .conftest import Server
from .test_browser import quick_game, wait_turn_or_over
from .waiting import poll

TABLE = "window.tienlenTable"


class Held(Executor):
    """A worker that runs nothing until the test lets it (:meth:`release`)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []
        self.lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        with self.lock:
            self.jobs.append((fn, args, done))
        return done

    def count(self) -> int:
        with self.lock:
            return len(self.jobs)

    def release(self) -> None:
        with self.lock:
            fn, args, done = self.jobs.pop(0)
        done.set_result(fn(*args))


def test_the_hint_thinks_then_shows_its_cards_and_its_reason(page: Page, server: Server) -> None:
    quick_game(page, server)
    assert not wait_turn_or_over(page)
    held = Held()

    def hold() -> None:
        server.app.state.services.lobby.committer.pool = BotPool(1, executor=lambda: held)

    server.call(hold)
    hint = page.get_by_test_id("hint")
    hint.click()
    expect(hint).to_have_text("Thinking…")
    expect(hint).to_have_attribute("aria-busy", "true")
    expect(hint).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("h")  # a second ask while it thinks: refused by the page
    hint.click(force=True)
    poll(held.count, lambda n: n >= 1)  # the ask reaches the server (the page thinks at once)
    assert held.count() == 1
    fn, args, _ = held.jobs[0]
    assert fn is botpool.hint and args[0].seat == page.evaluate(f"{TABLE}.seat")
    held.release()
    reason = page.get_by_test_id("hint-reason")
    expect(reason).not_to_be_empty()
    expect(hint).to_have_text("Hint")
    expect(hint).to_have_attribute("aria-busy", "false")
    move = page.evaluate(f"{TABLE}.lastHint")
    view = args[0]
    assert move in [str(m) for m in view.legal]
    if move != "pass":
        selected = page.locator("[data-testid=card][aria-pressed=true]")
        expect(selected).to_have_count(len(move.split()))
        expect(page.get_by_test_id("status")).to_contain_text(f"Hint: {with_suits(move)}")
    from tienlen.hints import reason_for, reason_words
    from tienlen.shapes import Play

    # its cards named as cards ("Q♣ Q♦"), never in the engine's codes ("Qc Qd")
    expect(reason).to_have_text(with_suits(reason_words(reason_for(view, Play.parse(move)), "en")))
    assert not re.search(r"\b(?:10|[2-9TJQKA])[scdh]\b", reason.inner_text())


def with_suits(text: str) -> str:
    """Card codes in ``text`` with their suits' symbols: "Ts Qd" -> "10♠ Q♦"."""
    return re.sub(r"\b(10|[2-9TJQKA])([scdh])\b", lambda m: ("10" if m[1] == "T" else m[1])
                  + "♠♣♦♥"["scdh".index(m[2])], text)
