"""The terminal game's pacing: auto-pass when you cannot beat (an option and a key, off by
default), the bots' pace (+ and -), and skipping to the hand's end once you are out."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from tienlen import Game, Play, cli
from tienlen.play.controller import HUMAN, Controller
from tienlen.tui.app import TienLenApp
from tui_pilot import PAGAT, controller_with, drive, footer, info, position


def _cannot_beat() -> Game:
    """Bot 1 leads 2♥, which Ana's 3♠ 4♦ cannot beat."""
    return position(PAGAT, ["3s 4d", "2h 5c", "6c 7c", "8d 9d"], leader=1, first_hand=False)


def test_without_auto_pass_you_are_asked_even_when_you_cannot_beat() -> None:
    c = controller_with(_cannot_beat())
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        d = c.decision()
        assert d is not None and d.legal == (Play.parse("pass"),)
        assert (HUMAN, Play.parse("pass")) not in c.game.history

    drive(app, script)


def test_auto_pass_passes_for_you_and_says_so() -> None:
    c = controller_with(_cannot_beat())
    app = TienLenApp(c, delay=0, auto_pass=True)

    async def script(pilot: Pilot[Any]) -> None:
        mine = [move for seat, move in c.game.history if seat == HUMAN]
        assert mine and mine[0] == Play.parse("pass")  # made for Ana, who was not asked
        assert c.decision() is None or c.decision().legal != (Play.parse("pass"),)

    drive(app, script)


def test_the_a_key_turns_auto_pass_on_and_the_pass_is_made_then() -> None:
    c = controller_with(_cannot_beat())
    app = TienLenApp(c, delay=10_000)  # paced: the pass waits its turn like a bot's move

    async def script(pilot: Pilot[Any]) -> None:
        c.run_bots()
        app.refresh_screen()
        assert c.decision() is not None
        await pilot.press("A")
        assert app.auto_pass and "Auto-pass on" in info(app)
        app._timer.stop()  # the pause over: the pass is made
        app._timer = None
        app._bot_tick()
        await pilot.pause()
        assert (HUMAN, Play.parse("pass")) in c.game.history
        assert "Passed for you: nothing of yours beats Bot 1's 2♥." in info(app)
        await pilot.press("A")
        assert not app.auto_pass and "Auto-pass off" in info(app)

    drive(app, script)


def test_plus_and_minus_set_the_bots_pace() -> None:
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0.8)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("plus")
        assert app.delay == 0.4 and "0.4 s" in info(app)
        await pilot.press("plus", "plus")
        assert app.delay == 0 and "without a pause" in info(app)
        await pilot.press("plus")
        assert app.delay == 0
        await pilot.press("minus")
        assert app.delay == 0.15

    drive(app, script)


def test_once_you_are_out_the_hand_is_skipped_to_its_end() -> None:
    hands = ["3s", "4s 9h", "5s Th", "6s Jh", "7s Qh", "8s Kh", "9s Ah", "Ts 2h"]
    c = controller_with(position(PAGAT, hands, leader=0, first_hand=False))
    app = TienLenApp(c, delay=10_000)  # the bots would take hours

    async def script(pilot: Pilot[Any]) -> None:
        assert "Skip" not in await footer(pilot, app)
        await pilot.press("greater_than_sign")  # not offered yet: nothing happens
        assert not c.game.is_over
        await pilot.press("a", "enter")  # Ana plays her last card: out
        assert HUMAN in c.game.finish_order and not c.game.is_over
        assert "> Skip" in await footer(pilot, app) and "Hint" not in await footer(pilot, app)
        await pilot.press("greater_than_sign")
        assert c.game.is_over  # at once

    drive(app, script)


def test_auto_pass_is_an_option_of_play() -> None:
    assert cli.build_parser().parse_args(["play", "--auto-pass"]).auto_pass
    assert not cli.build_parser().parse_args(["play"]).auto_pass


def test_with_auto_pass_a_take_back_goes_back_past_the_passes_to_your_own_move() -> None:
    """Ana leads 3♠; the bot's twos are beyond her ace, so auto-pass passes for her to the
    hand's end. Backspace takes back her 3♠, not a pass that would only be made again."""
    c = controller_with(position(PAGAT, ["3s Ac", "2c 2d 2h"], leader=0, first_hand=False))
    app = TienLenApp(c, delay=0, auto_pass=True)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("a", "enter")  # 3♠, lettered a
        await pilot.pause()
        mine = [move for seat, move in c.game.history if seat == HUMAN]
        assert mine[0] == Play.parse("3s") and mine[-1] == Play.parse("pass")
        await pilot.press("escape")  # the results closed
        await pilot.press("backspace")
        await pilot.pause()
        assert c.game.history == [] and c.decision() is not None  # before her lead again

    drive(app, script)
