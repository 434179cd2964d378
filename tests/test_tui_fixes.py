"""The terminal game's fixes of issue 25: the results' own key, gaps between groups, the units
as they are paid, keys that work where they are offered, the minimum size, where records go
and the command that replays them, the replay's places, the four-colour deck."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Input

from tienlen import Session, cli
from tienlen.play.controller import HUMAN, Controller, records_dir, replay_command
from tienlen.tui.app import EndScreen, RulesScreen, SaveScreen, TienLenApp
from tienlen.tui.replay import ReplayApp
from tienlen.tui.widgets import CardView
from tui_pilot import MIEN_NAM, PAGAT, controller_with, drive, footer, position, render


def colours(app: TienLenApp) -> dict[str, set[str]]:
    """Each suit symbol the hand shows, and the colours it is drawn in."""
    out: dict[str, set[str]] = {}
    strips = [strip for card in app.query(CardView) if card.display
              for strip in card.render_lines(card.region.reset_offset)]
    for strip in strips:
        for segment in strip:
            for suit in "♠♣♦♥":
                if suit in segment.text and segment.style and segment.style.color:
                    out.setdefault(suit, set()).add(segment.style.color.name)
    return out


def _ana_last() -> Controller:
    """The bots go out one after another; Ana is left holding 3♠ K♦."""
    return controller_with(position(PAGAT, ["3s Kd", "4s", "5c", "6c"], leader=1,
                                    first_hand=False))


def test_e_brings_the_results_back_without_picking_the_card_lettered_e() -> None:
    c = controller_with(position(PAGAT, ["3s 4d 5c 6h 7s 9d", "4s", "5d", "6c"], leader=1,
                                 first_hand=False))
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert c.game.is_over and isinstance(app.screen, EndScreen)
        await pilot.press("escape")
        assert "e Results" in await footer(pilot, app)
        for word in ("Select", "Play", "Pass", "Hint"):  # no turn to take
            assert word not in await footer(pilot, app)
        await pilot.press("e")
        assert isinstance(app.screen, EndScreen)
        assert app.selected == set()  # 7♠, lettered e, is not picked
        await pilot.press("escape", "e", "escape")
        assert app.selected == set()

    drive(app, script)


def test_during_a_hand_e_picks_its_card_and_no_results_are_offered() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert "Results" not in await footer(pilot, app)
        await pilot.press("e")
        assert app.selected == {app._order[4]}
        assert not isinstance(app.screen, EndScreen)

    drive(app, script)


def test_r_shows_the_rules_over_the_results_and_esc_goes_back_to_them() -> None:
    app = TienLenApp(_ana_last(), delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, EndScreen)
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)

    drive(app, script)


def test_a_chop_payment_shows_in_the_units_when_it_is_paid() -> None:
    hands = ["2h 7c 8d 9s Jc", "5s 5c 6s 6c 7d 7h Kd", "3c 4d Qh Ah", "4s 8c Td Kh"]
    c = controller_with(position(MIEN_NAM, hands, leader=0, first_hand=False))
    c.confirm([x for x in c.view().hand if str(x) == "2h"])
    c.run_bots()  # Bot 1 chops Ana's 2♥ with three pairs
    c.decline()  # Ana passes: the chop wins the round, and Ana pays 2 units now
    assert not c.game.is_over and c.view().payments
    app = TienLenApp(c, delay=60)  # the bots wait: the hand goes on

    def units(name: str) -> str:
        """The units the felt shows under the seat's name."""
        rows = render(app.query_one("#felt")).splitlines()
        row = next(i for i, r in enumerate(rows) if f"{name} ·" in r)
        return rows[row + 1][rows[row].index(f"{name} ·"):].split()[0]

    async def script(pilot: Pilot[Any]) -> None:
        assert units("Ana") == "-2" and units("Bot 1") == "+2"
        assert units("Bot 2") == "+0"

    drive(app, script)


@pytest.mark.parametrize("size", [(79, 24), (80, 23), (60, 20)])
def test_below_80x24_the_game_asks_for_a_larger_window(size: tuple[int, int]) -> None:
    app = TienLenApp(Controller(PAGAT, 8, seed=3, name="Ana"), delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        message = app.query_one("#too-small")
        assert message.display and message.region.width == size[0]
        assert "Make the window at least 80x24" in render(message)
        assert not app.query_one("#top").display and not app.query_one("#hand").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not message.display and app.query_one("#hand").display

    drive(app, script, size)


def test_at_exactly_80x24_eight_seats_fit() -> None:
    app = TienLenApp(Controller(PAGAT, 8, seed=3, name="Ana"), delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert not app.query_one("#too-small").display
        players = render(app.query_one("#felt"))
        for name in ["Ana"] + [f"Bot {i}" for i in range(1, 8)]:
            assert f"{name} ·" in players
        for selector in ("#table", "#felt", "#prompt", "#hand"):
            region = app.query_one(selector).region
            assert region.height > 0 and region.right <= 80 and region.bottom <= 24

    drive(app, script)


def test_records_go_to_the_users_data_folder(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert records_dir() == tmp_path / "data" / "tienlen" / "records"
    assert records_dir({"HOME": "/home/lan"}).parts[-4:] == (".local", "share", "tienlen",
                                                             "records")
    app = TienLenApp(_ana_last(), delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("q")  # from the results: quit, asked where to save
        assert isinstance(app.screen, SaveScreen)
        assert app.screen.query_one(Input).value.startswith(
            str(tmp_path / "data" / "tienlen" / "records" / "tienlen-"))
        await pilot.press("enter")

    drive(app, script)
    saved = app.return_value
    assert saved is not None and saved.parent == tmp_path / "data" / "tienlen" / "records"
    assert Session.from_record(saved.read_text(encoding="utf-8")).games[0].is_over


def test_the_replay_command_works_from_any_folder(tmp_path: Path) -> None:
    folder = tmp_path / "my records"
    folder.mkdir()
    record = folder / "hand 1.toml"
    c = _ana_last()
    c.run_bots()
    record.write_text(c.record(), encoding="utf-8")
    command = replay_command(record, argv0="python")  # not a tienlen executable
    assert shlex.split(command) == [sys.executable, "-m", "tienlen", "replay", str(record)]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([*shlex.split(command), "--text"], cwd=elsewhere, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Bot 1: 4s" in done.stdout
    program = tmp_path / "bin" / "tienlen"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    assert shlex.split(replay_command(record, argv0=str(program)))[0] == str(program)


def test_play_says_the_replay_command_after_saving(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "a b.toml"
    monkeypatch.setattr(cli, "_terminal", lambda: True)
    monkeypatch.setattr(TienLenApp, "run", lambda self: saved)
    assert cli.main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"replay it with: {replay_command(saved)}" in out
    assert shlex.quote(str(saved.resolve())) in out


def test_the_replay_gives_the_last_player_a_place_not_out() -> None:
    c = _ana_last()
    c.run_bots()
    session = c.session
    replay = ReplayApp(session, "x.toml")

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("end")
        rows = render(replay.query_one("#seats")).splitlines()
        ana = next(r for r in rows if " Ana " in r)
        assert "4th" in ana and " out " not in f" {ana} "
        assert "1st" in next(r for r in rows if " Bot 1 " in r)

    drive(replay, script)


def test_the_four_colour_deck_by_option_and_by_key() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    two = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        seen = colours(two)
        assert seen["♣"] == seen["♠"] and seen["♦"] == seen["♥"] != seen["♠"]  # red and black
        await pilot.press("C")
        seen = colours(two)
        assert len({frozenset(seen[suit]) for suit in "♠♣♦♥"}) == 4  # clubs and diamonds apart
        assert seen["♥"] != seen["♠"]

    drive(two, script)
    four = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0, four_colour=True)

    async def on(pilot: Pilot[Any]) -> None:
        seen = colours(four)
        assert len({frozenset(seen[suit]) for suit in "♠♣♦♥"}) == 4

    drive(four, on)


def test_no_pause_and_its_old_name_fast_and_four_colour_are_options() -> None:
    parser = cli.build_parser()
    assert parser.parse_args(["play", "--no-pause"]).no_pause
    assert parser.parse_args(["play", "--fast"]).no_pause
    assert not parser.parse_args(["play"]).no_pause
    assert parser.parse_args(["play", "--four-colour"]).four_colour
    assert HUMAN == 0
