"""What the terminal game's tests share: a position to play from, the app driven by Textual's
Pilot, and the text a widget shows."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer

from tienlen import Game, Rules, coach
from tienlen.play.controller import Controller
from tienlen.tui.widgets import FeltPanel

PAGAT = Rules.preset("pagat")
MIEN_NAM = Rules.preset("mien-nam")


def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach's appraisal on a few deals, for tests that play hands out by hints and judge
    something else (the screen, the log, the results): the same appraisal from the seat's view,
    a small share of its work. The hint at its real budget is tests/test_hints.py's."""
    monkeypatch.setattr(coach, "DEALS_PURE", (8, 16))
    monkeypatch.setattr(coach, "DEALS_COMPILED", (8, 16))


def controller_with(game: Game, bots: str = "heuristic") -> Controller:
    """A controller whose current hand is the given position (seat 0 is the human)."""
    c = Controller(game.rules, game.players, (bots,), seed=1, name="Ana")
    c.session.games[-1] = game
    return c


def position(rules: Rules, hands: list[str], **kw: Any) -> Game:
    names = ["Ana"] + [f"Bot {i}" for i in range(1, len(hands))]
    return Game(rules, hands, names=names, **kw)


def drive(app: App[Any], script: Callable[[Pilot[Any]], Awaitable[None]],
          size: tuple[int, int] = (80, 24)) -> None:
    """Run ``app`` at ``size`` and ``script`` against it, on an event loop of its own (in a
    thread of its own where one runs already: Playwright's sync tests keep one in the main
    thread)."""
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await settled(pilot, app)
            await script(pilot)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(main())
        return
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # re-raised in the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


async def settled(pilot: Pilot[Any], app: App[Any], timeout: float = 30) -> None:
    """Let ``app`` run until every felt on its screen is drawn at its own size: laid out and
    resized (on a loaded machine the first resize comes after the first paint)."""
    deadline = time.monotonic() + timeout
    while not all(felt.settled for felt in app.screen.query(FeltPanel)):
        if time.monotonic() > deadline:
            raise AssertionError("the felt was never drawn at its own size")
        await pilot.pause(0.02)


async def ask_hint(pilot: Pilot[Any], app: App[Any]) -> None:
    """h, and the hint's thread done: its move selected or named."""
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def follow_hints(pilot: Pilot[Any], app: App[Any], stop: Callable[[], bool]) -> None:
    """Play by keys only: h (hint), then Enter when it selected cards, else p."""
    for _ in range(200):
        if stop():
            return
        await ask_hint(pilot, app)
        await pilot.press("enter" if app.selected else "p")  # type: ignore[attr-defined]
    raise AssertionError("the hand did not end")


def rows(widget: Widget) -> list[str]:
    """The lines a widget shows now."""
    return [strip.text for strip in widget.render_lines(widget.region.reset_offset)]


def render(widget: Widget) -> str:
    """The text a widget shows now."""
    return "\n".join(rows(widget))


def shown(app: App[Any], selector: str) -> str:
    return render(app.query_one(selector))


def info(app: App[Any]) -> str:
    """The message line, in one line."""
    return " ".join(line.strip() for line in rows(app.query_one("#info"))).strip()


def footer_keys(app: App[Any]) -> list[Widget]:
    return list(app.query_one(Footer).query("FooterKey"))


async def footer(pilot: Pilot[Any], app: App[Any]) -> str:
    """The footer's keys, as shown once they are laid out. The footer makes its keys anew a
    refresh after the bindings change, so a reading taken at once may find keys without a size
    yet (blank on a loaded machine): wait, up to a generous bound, until every key has a size
    and two readings agree."""
    last = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        await pilot.pause()
        keys = footer_keys(app)
        text = " ".join(render(key) for key in keys)
        if keys and all(key.region.width > 0 for key in keys) and text.strip() and text == last:
            return text
        last = text
        await pilot.pause(0.02)
    raise AssertionError(f"the footer's keys were not laid out: {last!r}")
