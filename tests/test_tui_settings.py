"""The terminal game's choices kept between runs (the pace, auto-pass, the deck's colours: in
play/settings.py's file), Esc clearing a selection, and a lead said as a player says it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from tienlen.play.controller import Controller
from tienlen.play.settings import PlaySettings, load_settings
from tienlen.tui.app import TienLenApp
from tui_pilot import PAGAT, drive, footer, position, rows


def test_the_pace_auto_pass_and_colours_chosen_are_kept_for_the_next_run(tmp_path: Path) -> None:
    kept = tmp_path / "config" / "tienlen" / "play.toml"
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0.8, save_dir=tmp_path,
                     settings_file=kept)

    async def script(pilot: Pilot[Any]) -> None:
        assert not kept.exists()  # nothing chosen yet: nothing written
        await pilot.press("plus", "A", "C")
        assert load_settings(kept) == (PlaySettings(pace=0.4, auto_pass=True, four_colour=True),
                                       None)
        await pilot.press("minus", "minus", "A")
        assert load_settings(kept)[0] == PlaySettings(pace=1.6, auto_pass=False, four_colour=True)

    drive(app, script)


def test_a_settings_file_that_cannot_be_written_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0, save_dir=tmp_path,
                     settings_file=tmp_path / "file" / "play.toml")

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("A")
        assert app.auto_pass  # the choice holds for this run
        said = [n.message for n in app._notifications]
        assert any("could not be kept" in m for m in said), said

    drive(app, script)


def test_a_notice_about_the_settings_file_is_shown_at_the_start(tmp_path: Path) -> None:
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0, save_dir=tmp_path,
                     notice="the settings in /x/play.toml are not TOML")

    async def script(pilot: Pilot[Any]) -> None:
        assert [n.message for n in app._notifications] == ["the settings in /x/play.toml are not TOML"]

    drive(app, script)


def test_esc_clears_the_selection_and_is_offered_only_when_cards_are_selected(tmp_path: Path) -> None:
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0, save_dir=tmp_path)

    async def script(pilot: Pilot[Any]) -> None:
        if app.controller.decision() is None:
            pytest.skip("seed 5 no longer gives Ana the first move")
        assert "Clear" not in await footer(pilot, app)
        await pilot.press("space", "right", "space")
        assert len(app.selected) == 2
        assert "Clear" in await footer(pilot, app)
        await pilot.press("escape")
        assert app.selected == set()
        assert "Clear" not in await footer(pilot, app)

    drive(app, script)


def test_your_lead_is_said_you_lead() -> None:
    game = position(PAGAT, ["3s 4d 9h", "5c 6c", "7c 8c", "8d 9d"], leader=0, first_hand=False)
    c = Controller(game.rules, game.players, ("heuristic",), seed=1, name="You")
    c.session.games[-1] = game
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        app.refresh_screen()
        felt = "\n".join(rows(app.query_one("#felt")))
        assert "You lead" in felt and "You leads" not in felt

    drive(app, script)
