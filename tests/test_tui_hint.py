"""The terminal's hint: the default search bot's move from your view (tienlen.hints.suggest),
computed in a thread with a "thinking" mark while the screen keeps answering, shown with its
reason; and the fast engine prepared at start-up with a line saying so."""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from tienlen import Play, hints
from tienlen.play import controller as controller_module
from tienlen.play.controller import HUMAN, Controller
from tienlen.tui.app import TienLenApp
from tienlen.view import View
from tui_pilot import PAGAT, controller_with, drive, info, position


def test_the_hint_is_the_coachs_best_move_from_your_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[View] = []
    real = hints.appraise

    def spy(view: View, **options: Any) -> Any:
        asked.append(view)
        return real(view, **{**options, "deals": 8})

    monkeypatch.setattr(hints, "appraise", spy)
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    c.run_bots()
    hint = c.suggest()
    view, = asked
    assert view == c.game.view(HUMAN)  # what Ana may know, nothing more
    assert hint.move == real(view, deals=8).best.move and c.reason_words(hint)


@pytest.fixture
def go(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The hint's search held until the test sets this event."""
    held = threading.Event()

    def slow(view: View, fast: bool | None = None) -> hints.Hint:
        assert held.wait(30)
        return hints.suggest(view, fast)

    monkeypatch.setattr(controller_module, "suggest", slow)
    return held


def test_the_screen_answers_while_the_hint_thinks_then_shows_it_with_its_reason(
        go: threading.Event) -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("h")
        assert app.thinking() and "Hint: thinking…" in info(app)
        await pilot.press("s")  # the keys still work
        assert "by combination" in str(app.query_one("#hand").border_title)
        await pilot.press("right")
        assert app.cursor == 1
        await pilot.press("h")  # asked again: the same hint is on its way
        assert len(app.workers) == 1
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.thinking()
        said = info(app)
        assert said.startswith("Hint: ") and " — " in said
        view = c.view()
        move = Play.from_cards([view.hand[i] for i in sorted(app.selected)], PAGAT) \
            if app.selected else Play.parse("pass")
        hint = hints.suggest(view)
        assert move == hint.move
        assert said.split(" — ", 1)[1].split()[0] == c.reason_words(hint).split()[0]

    drive(app, script)


def test_a_hint_for_a_moment_gone_by_is_dropped(go: threading.Event) -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=10_000)

    async def script(pilot: Pilot[Any]) -> None:
        c.run_bots()
        app.refresh_screen()
        await pilot.press("h")
        hand = c.view().hand
        lowest = app._letters[hand.index(min(hand))]
        await pilot.press(lowest, "enter")  # Ana plays before the hint comes
        played = len(c.game.history)
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(c.game.history) == played and app.selected == set()
        assert "Hint:" not in info(app)

    drive(app, script)


def test_the_fast_engine_is_prepared_at_start_up_with_a_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    go = threading.Event()
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    monkeypatch.setattr(c, "fast_engine", lambda: True)
    monkeypatch.setattr(c, "prepare", lambda: go.wait(30))
    app = TienLenApp(c, delay=0, prepare=True)

    async def script(pilot: Pilot[Any]) -> None:
        assert app.preparing and "Preparing the fast engine" in info(app)
        title = app.query_one("#title")
        assert "Preparing the fast engine" in " ".join(
            s.text for s in title.render_lines(title.region.reset_offset))
        await pilot.press("s")  # no freeze meanwhile
        assert "by combination" in str(app.query_one("#hand").border_title)
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.preparing and "The fast engine is ready" in info(app)

    drive(app, script)


def test_a_hint_asked_while_the_fast_engine_is_prepared_comes_from_the_pure_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    go = threading.Event()
    asked: list[bool | None] = []

    def pure(view: View, fast: bool | None = None) -> hints.Hint:
        asked.append(fast)
        return hints.Hint(view.legal[0], hints.Reason("hint.search"))

    monkeypatch.setattr(controller_module, "suggest", pure)
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    monkeypatch.setattr(c, "fast_engine", lambda: True)
    monkeypatch.setattr(c, "prepare", lambda: go.wait(30))
    app = TienLenApp(c, delay=0, prepare=True)

    async def script(pilot: Pilot[Any]) -> None:
        assert app.preparing
        await pilot.press("h")
        for _ in range(600):  # the hint, while the preparation is held
            if "Hint: " in info(app):
                break
            await pilot.pause(0.05)
        assert asked == [False] and "Hint: " in info(app)  # it did not wait for the engine
        assert app.preparing
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("escape", "h")
        await app.workers.wait_for_complete()
        assert asked[-1] is None  # the compiled engine, where the rules allow it

    drive(app, script)


def test_without_the_fast_engine_nothing_is_prepared(monkeypatch: pytest.MonkeyPatch) -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    monkeypatch.setattr(c, "fast_engine", lambda: False)
    app = TienLenApp(c, delay=0, prepare=True)

    async def script(pilot: Pilot[Any]) -> None:
        assert not app.preparing and "Preparing" not in info(app)

    drive(app, script)


def test_a_hint_asked_before_a_take_back_is_dropped_at_the_same_length_of_history(
        go: threading.Event) -> None:
    """Ana plays, the bot answers, she asks a hint, then takes her move back and plays another:
    the bot's answer brings the hand to as many moves as when she asked, but it is another
    position, and the hint on its way is for the one gone by."""
    c = controller_with(position(PAGAT, ["3s 5d 9h Kc", "4c 6h Th Ah"], leader=0,
                                 first_hand=False))
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        c.confirm(Play.parse("3s").cards)
        app._advance()
        await pilot.pause()
        asked_at = len(c.game.history)
        await pilot.press("h")  # held
        await pilot.press("backspace")
        assert c.game.history == []
        c.confirm(Play.parse("5d").cards)
        app._advance()
        await pilot.pause()
        assert len(c.game.history) == asked_at and c.decision() is not None
        go.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.selected == set() and "Hint:" not in info(app)

    drive(app, script)
