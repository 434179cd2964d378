"""The review of a finished hand (tienlen.review) and the search estimates it stands on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tienlen import Game, Rules, fast
from tienlen.bots.search import SearchBot, unsearched
from tienlen.errors import TienLenError
from tienlen.record import load_game
from tienlen.review import Review, decision_numbers, review_record
from tienlen.shapes import Play
from tienlen.stepping import states

BLUNDER = (Path(__file__).parent / "data" / "review_blunder.toml").read_text(encoding="utf-8")


def _opening(seed: int = 3, plays: int = 3) -> Game:
    """A 4-player hand after ``plays`` moves or more, at a decision search evaluates with a
    few choices."""
    game = Game.deal(Rules.preset("pagat"), 4, seed=seed)
    bot = SearchBot(seed=0, steps=300)
    while len(game.history) < plays or unsearched(game.view(game.turn)) is not None \
            or len(game.view(game.turn).legal) < 3:
        game.play(bot.choose(game.view(game.turn)))
    return game


def _before(number: int) -> Game:
    """The blunder record's 2-player hand just before its action ``number`` (from 1)."""
    game = load_game(BLUNDER, Game)
    return states(game)[number - 1]


# ---------------------------------------------------------------------- the estimates
def test_every_candidate_is_estimated_on_the_same_deals_with_the_move_added() -> None:
    view = _before(4).view(0)
    others = [m for m in view.legal if isinstance(m, Play) and m.keys]
    extra = others[-1]
    estimates = SearchBot(seed=1).estimates(view, [extra], fast=False)
    assert extra in [e.move for e in estimates]
    assert len({e.deals for e in estimates}) == 1  # common random numbers: every deal for all
    for e in estimates:
        assert e.first_ci[0] <= e.first <= e.first_ci[1]
        assert e.units_ci[0] <= e.units <= e.units_ci[1]


def test_the_deals_stop_once_every_first_place_interval_is_within_three_points() -> None:
    game = _before(4)
    estimates = SearchBot(seed=1).estimates(game.view(game.turn), fast=False)
    deals = estimates[0].deals
    assert deals < 2000  # it stopped before the cap
    assert all((e.first_ci[1] - e.first_ci[0]) / 2 <= 0.03 for e in estimates)
    capped = SearchBot(seed=1).estimates(game.view(game.turn), fast=False, deals=120)
    assert capped[0].deals == 120
    assert any((e.first_ci[1] - e.first_ci[0]) / 2 > 0.03 for e in capped)


def test_only_the_moves_given_are_estimated_when_asked() -> None:
    view = _before(4).view(0)
    played = next(m for m in view.legal if str(m) == "2c")
    estimates = SearchBot(seed=2).estimates(view, [played], only=True, deals=150)
    assert [str(e.move) for e in estimates] == ["2c"] and estimates[0].deals == 150


@pytest.mark.skipif(not fast.enabled(Rules.preset("pagat")), reason="the fast extra")
def test_the_fast_path_estimates_as_the_pure_one() -> None:
    game = _opening()
    view = game.view(game.turn)
    pure = SearchBot(seed=4).estimates(view, fast=False, deals=200)
    compiled = SearchBot(seed=4).estimates(view, fast=True, deals=200)
    assert [(str(e.move), e.first, e.units) for e in pure] == \
        [(str(e.move), e.first, e.units) for e in compiled]


def test_a_decision_search_does_not_evaluate_is_refused_in_words() -> None:
    game = _opening()
    waiting = (game.turn + 1) % 4
    view = game.view(waiting)
    assert unsearched(view) in ("out_of_turn", "forced")
    with pytest.raises(TienLenError, match="does not evaluate"):
        SearchBot(seed=0).estimates(view)


# ---------------------------------------------------------------------- the review
@pytest.fixture(scope="module")
def blunder_review() -> Review:
    """Seat 0's review of the blunder record, on the pure path (a few seconds: made once)."""
    return review_record(BLUNDER, seat=0, fast=False)


def test_a_two_broken_for_nothing_in_an_easy_win_is_marked_and_a_forced_pass_is_not(
        blunder_review: Review) -> None:
    review = blunder_review
    by_number = {d.number: d for d in review.decisions}
    blunder = by_number[4]  # 2c, out of the pair of twos, on a lead seat 0 was winning
    assert str(blunder.move) == "2c" and blunder.loss
    assert blunder.best is not None and blunder.played is not None
    assert str(blunder.best.move) != "2c"
    assert blunder.played.first_ci[1] < blunder.best.first_ci[0]
    forced = by_number[6]  # a pass: nothing beats the three pairs
    assert forced.kind == "forced" and not forced.loss and forced.played is None
    assert all(d.played is None or d.played.deals == d.best.deals  # type: ignore[union-attr]
               for d in review.decisions)
    # the record holds every hand: each decision shows both seats' cards
    assert [len(h) for h in by_number[2].hands] == [13, 11]


def test_the_best_move_played_is_never_marked(blunder_review: Review) -> None:
    review = blunder_review
    for d in review.decisions:
        if d.played is not None and d.best is not None and d.played.move == d.best.move:
            assert not d.loss


def test_a_review_made_a_decision_at_a_time_is_the_review_made_whole() -> None:
    """The web makes a review in the bot pool a decision at a time (so that the tables' bots
    are not kept waiting for a whole review): each decision has its own seed, so the parts
    are the whole."""
    whole = review_record(BLUNDER, seat=0, deals=300)
    game = load_game(BLUNDER, Game)
    numbers = decision_numbers(game, 0)
    assert numbers == [d.number for d in whole.decisions]
    parts = [review_record(BLUNDER, seat=0, deals=300, numbers={n}).decisions
             for n in reversed(numbers)]  # in any order
    assert tuple(d for part in reversed(parts) for d in part) == whole.decisions
    assert review_record(BLUNDER, seat=0, numbers=()).decisions == ()


def test_bad_seats_and_hands_are_refused_in_words() -> None:
    with pytest.raises(TienLenError, match="no seat 5: the hand has 2 seats, 0 to 1"):
        review_record(BLUNDER, seat=5)
    with pytest.raises(TienLenError, match="no hand 3: the record holds 1 hand"):
        review_record(BLUNDER, seat=0, hand=3)
    unfinished = BLUNDER.replace('  "1 Qh",\n', "")
    with pytest.raises(TienLenError, match="not finished"):
        review_record(unfinished, seat=0)


# ---------------------------------------------------------------------- the terminal's review
def test_the_terminal_opens_the_review_from_the_results_and_steps_through_it() -> None:
    pytest.importorskip("textual")
    from tienlen.play.controller import Controller
    from tienlen.tui.app import EndScreen, TienLenApp
    from tienlen.tui.review import ReviewScreen
    from tui_pilot import drive

    controller = Controller(Rules.preset("pagat"), 2, seed=1, name="Ana")
    controller.session.games[-1] = load_game(BLUNDER, Game)  # the hand just played: seat 0's
    app = TienLenApp(controller, delay=0, save_dir=Path("."))

    def text() -> str:
        widget = app.screen.query_one("#review-text")
        return str(widget.render())

    async def script(pilot: Any) -> None:
        app.action_results()
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        for _ in range(600):
            if app.screen.review is not None:  # type: ignore[attr-defined]
                break
            await pilot.pause(0.05)
        await pilot.pause()
        shown = text()
        assert "Review · hand 1 of 1 · Pagat · Player 1" in shown  # the record's names
        assert "Decision 1 of 8 · #2" in shown
        assert re.search(r"You played +5♠ 5♣\n +first place \d", shown), shown
        assert re.search(r"Search's best +\S", shown)
        await pilot.press("right")
        await pilot.pause()
        shown = text()
        assert "Decision 2 of 8 · #4" in shown
        assert re.search(r"You played +2♣\n +first place \d", shown)
        assert "✗ A loss: the two intervals do not overlap" in shown
        # every seat's cards at that moment, with their suits
        assert re.search(r"^Player 1 +[0-9JQKA♠♣♦♥ ]+$", shown, re.MULTILINE)
        await pilot.press("right")
        await pilot.pause()
        shown = text()
        assert re.search(r"You played +pass", shown)
        assert "Forced: the only legal move, not evaluated" in shown
        await pilot.press("left", "left")
        await pilot.pause()
        assert "Decision 1 of 8" in text()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)  # back to the results

    drive(app, script, size=(100, 30))


def test_the_terminal_says_it_is_working_while_the_review_is_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("textual")
    import threading

    from textual.app import App

    from tienlen.tui import review as tui_review
    from tui_pilot import drive

    release = threading.Event()

    def slow(game: Game, seat: int, **options: object) -> Review:
        told = options["progress"]
        assert callable(told)
        told(3, 8)
        release.wait(30)
        return real(game, seat, deals=100, hand=options["hand"], hands=options["hands"])

    real = tui_review.review_game
    monkeypatch.setattr(tui_review, "review_game", slow)
    screen = tui_review.ReviewScreen(load_game(BLUNDER, Game), 0, hand=3)  # a session's third
    app = App[None]()

    async def script(pilot: Any) -> None:
        pilot.app.push_screen(screen)
        await pilot.pause(0.2)
        assert "Reviewing… 3 of 8 decisions" in str(screen.query_one("#review-text").render())
        await pilot.press("right")  # the screen answers while the review is made
        monkeypatch.setattr(tui_review, "review_game", real)
        release.set()
        for _ in range(400):
            if screen.review is not None:
                break
            await pilot.pause(0.05)
        shown = str(screen.query_one("#review-text").render())
        assert "Decision 1 of 8" in shown and "hand 3 of 3" in shown

    drive(app, script, size=(100, 30))
