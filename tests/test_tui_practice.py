"""Practice in the terminal (only bots besides you): take back your last move, play this deal
again, and ``tienlen play --resume RECORD`` to go on with a saved session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from tienlen import Game, Session, cli
from tienlen.play.controller import HUMAN, Controller
from tienlen.tui.app import EndScreen, TienLenApp
from tui_pilot import PAGAT, ask_hint, drive, follow_hints, info, quick_hints, rows


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_hints(monkeypatch)


def test_backspace_takes_back_your_move_and_the_bots_after_it() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("backspace")  # nothing of Ana's yet
        assert "No move of yours to take back" in info(app)
        before = list(c.game.history)
        hand = c.view().hand
        await ask_hint(pilot, app)
        await pilot.press("enter")  # Ana plays; the bots answer
        assert len(c.game.history) > len(before) + 1
        assert c.view().hand != hand
        await pilot.press("backspace")
        assert list(c.game.history) == before  # the bots' later moves undone too
        assert c.view().hand == hand and c.decision() is not None
        assert "taken back" in info(app)
        assert Session.from_record(c.record()).games[0].history == c.game.history

    drive(app, script)


def test_play_this_deal_again_from_the_results() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=0)
    dealt = c.game.dealt

    async def script(pilot: Pilot[Any]) -> None:
        await follow_hints(pilot, app, lambda: c.game.is_over)
        assert isinstance(app.screen, EndScreen)
        assert "d: play this deal again" in " ".join(rows(app.screen.query_one("#end-practice")))
        await pilot.press("d")
        assert not isinstance(app.screen, EndScreen)
        assert c.hand_number == 1 and not c.game.is_over and c.game.dealt == dealt
        assert "Hand 1 again" in info(app)
        assert len(c.view().hand) == 13 or any(seat != HUMAN for seat, _ in c.game.history)
        for _ in range(200):  # and the results come again at its end
            if c.game.is_over:
                break
            await ask_hint(pilot, app)
            await pilot.press("enter" if app.selected else "p")
        assert isinstance(app.screen, EndScreen)

    drive(app, script)


def _saved_mid_hand(tmp_path: Path) -> tuple[Path, Controller]:
    c = Controller(PAGAT, 4, seed=3, name="Ana")
    c.run_bots()
    move = c.hint()
    c.confirm(move.cards) if move.cards else c.decline()
    c.run_bots()
    path = tmp_path / "session.toml"
    c.save(path)
    return path, c


def test_resume_goes_on_with_a_saved_session(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path, before = _saved_mid_hand(tmp_path)
    started: list[TienLenApp] = []
    monkeypatch.setattr(cli, "_terminal", lambda: True)
    monkeypatch.setattr(TienLenApp, "run", lambda self: started.append(self))
    assert cli.main(["play", "--resume", str(path)]) == 0
    c = started[0].controller
    assert c.names == ("Ana", "Bot 1", "Bot 2", "Bot 3")
    assert c.game.history == before.game.history and not c.game.is_over
    assert c.decision() is not None and c.view().hand == before.view().hand


def test_resume_after_a_finished_hand_deals_the_next(tmp_path: Path) -> None:
    c = Controller(PAGAT, 4, seed=3, name="Ana")
    while not c.game.is_over:
        c.run_bots()
        if c.decision() is not None:
            move = c.hint()
            c.confirm(move.cards) if move.cards else c.decline()
    resumed = Controller.resume(Session.from_record(c.record()))
    assert resumed.hand_number == 2 and not resumed.game.is_over
    assert resumed.session.totals == c.session.totals


def test_resume_mid_hand_keeps_the_rounds_the_call_outs_and_your_name_marked() -> None:
    c = Controller(PAGAT, 4, seed=3, name="Máy 1", lang="vi")  # a name that reads as a bot's
    while len(c.game.history) < 18:  # rounds over, and one under way
        c.run_bots()
        if c.decision() is not None:
            move = c.hint()
            c.confirm(move.cards) if move.cards else c.decline()
    said = [text for seat, text in c.log() if seat is None]  # round breaks, call-outs
    assert len(said) >= 2 and not c.game.is_over and c.round_plays()
    resumed = Controller.resume(Session.from_record(c.record()), lang="vi")
    assert resumed.names == c.names and resumed.names[0] == "Máy 1 (bạn)"
    assert resumed.log() == c.log()  # the round breaks and the call-outs, as they were
    assert resumed.round_plays() == c.round_plays()  # this round's plays only
    assert resumed.game.history == c.game.history


@pytest.mark.parametrize(("text", "said"), [
    (None, "cannot read"),
    ("format = 'tienlen/1'\nrules = 'pagat'\nplayers = [", "TOML"),
    ("players = ['a']", "format"),
])
def test_resume_of_a_bad_record_says_what_is_wrong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, said: str) -> None:
    path = tmp_path / "bad.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert cli.main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tienlen: ") and said in err and "Traceback" not in err


def test_resume_of_a_foreign_record_names_the_seat(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    session = Session(PAGAT, 4, seed=2, names=["Lan", "Minh", "Hoa", "Tuan"])
    path = tmp_path / "web.toml"
    path.write_text(session.record(), encoding="utf-8")
    assert cli.main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "seat 1 is 'Minh', not Bot 1" in err
    assert isinstance(Game, type)


def test_the_rules_screen_lists_every_key() -> None:
    app = TienLenApp(Controller(PAGAT, 4, seed=5, name="Ana"), delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("r")
        text = str(app.screen.query_one("#rules-text").render())
        for words in ("+ and - the bots' pace", "A auto-pass", "> skip to the hand's end",
                      "backspace takes back", "C four-colour deck"):
            assert words in text

    drive(app, script)


def test_backspace_in_the_results_takes_back_your_last_move_of_the_hand() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await follow_hints(pilot, app, lambda: c.game.is_over)
        assert isinstance(app.screen, EndScreen)
        last = max(i for i, (seat, _) in enumerate(c.game.history) if seat == HUMAN)
        await pilot.press("backspace")
        assert not isinstance(app.screen, EndScreen) and not c.game.is_over
        assert len(c.game.history) == last and c.decision() is not None

    drive(app, script)
