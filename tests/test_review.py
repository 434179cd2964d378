"""The review of a finished hand (tienlen.review) and the search estimates it stands on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tienlen import Game, Rules, fast
from tienlen.bots import get_bot
from tienlen.bots.search import SearchBot, unsearched
from tienlen.coach import (
    DEALS_PURE,
    THRESHOLDS,
    Appraisal,
    Estimate,
    appraise,
    budget,
    rewards_first,
)
from tienlen.errors import TienLenError
from tienlen.hints import suggest
from tienlen.record import load_game
from tienlen.review import (
    Review,
    decision_numbers,
    review_game,
    review_json,
    review_record,
    review_text,
)
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


# ---------------------------------------------------------------------- the coach's appraisal
def test_every_candidate_is_played_on_the_same_deals_with_the_move_added() -> None:
    view = _before(4).view(0)
    extra = [m for m in view.legal if isinstance(m, Play) and m.keys][-1]
    appraisal = appraise(view, [extra], fast=False)
    assert appraisal.estimates[-1].move == extra or extra in [e.move for e in appraisal.estimates]
    assert {e.deals for e in appraisal.estimates} == {budget(view, compiled=False)}
    assert all(len(v) == appraisal.deals for v in appraisal.values)  # a value per deal each
    for e in appraisal.estimates:
        assert e.first_ci[0] <= e.first <= e.first_ci[1]
        assert e.units_ci[0] <= e.units <= e.units_ci[1]
    assert appraisal.best.units == max(e.units for e in appraisal.estimates)


def test_a_move_added_changes_nothing_else_so_the_hint_is_the_reviews_best() -> None:
    """The hint is the appraisal without the move made, the review the appraisal with it: the
    same position draws the same deals, so every other candidate's figures are the same."""
    view = _before(4).view(0)
    alone = appraise(view, fast=False)
    outside = [m for m in view.legal if m not in [e.move for e in alone.estimates]]
    assert outside, "a legal move outside search's candidates"
    added = appraise(view, [outside[0]], fast=False)
    assert added.estimates[:-1] == alone.estimates
    assert added.values[:-1] == alone.values
    assert appraise(view, fast=False) == alone  # and again: the same deals
    if added.best.move == alone.best.move:
        assert added.cost(alone.best.move).grade == "good"


def test_the_budget_plays_more_deals_as_the_hand_shortens() -> None:
    game = _opening()
    early = budget(game.view(game.turn), compiled=False)
    late_game = _before(12)
    late = budget(late_game.view(late_game.turn), compiled=False)
    assert early < late <= DEALS_PURE[1]
    assert budget(game.view(game.turn), compiled=True) > early  # the compiled path affords more
    assert appraise(game.view(game.turn), fast=False, deals=40).deals == 40


@pytest.mark.skipif(not fast.enabled(Rules.preset("pagat")), reason="the fast extra")
def test_the_fast_path_appraises_as_the_pure_one() -> None:
    game = _opening()
    view = game.view(game.turn)
    pure = appraise(view, fast=False, deals=200)
    compiled = appraise(view, fast=True, deals=200)
    assert pure.estimates == compiled.estimates


def test_a_decision_the_coach_does_not_appraise_is_refused_in_words() -> None:
    game = _opening()
    waiting = (game.turn + 1) % 4
    view = game.view(waiting)
    assert unsearched(view) in ("out_of_turn", "forced")
    with pytest.raises(TienLenError, match="does not appraise"):
        appraise(view)
    with pytest.raises(TienLenError, match="is not a legal move here"):
        appraise(game.view(game.turn), [Play.parse("3s 3c 3d 3h")])


def _judged(gaps: list[float], stake: int = 1, judged_by: str = "units") -> str:
    """The grade of a move that brings ``gaps`` less than the best on each deal."""
    best = Estimate(Play.parse("3s"), 0.5, (0.4, 0.6), 1.0, (0.9, 1.1), len(gaps))
    other = Estimate(Play.parse("4s"), 0.5, (0.4, 0.6), 0.5, (0.4, 0.6), len(gaps))
    values = (tuple(1.0 for _ in gaps), tuple(1.0 - g for g in gaps))
    return Appraisal(judged_by, stake, (best, other), values, best).cost(other.move).grade


def test_a_cost_is_graded_by_the_thresholds_in_stakes_and_only_beyond_the_noise() -> None:
    steady = [0.0, 0.1] * 200  # what a move costs on each deal: the mean, with a little spread
    assert _judged(steady) == "good"  # 0.05 units: below an inaccuracy
    assert _judged([g + 0.15 for g in steady]) == "inaccuracy"
    assert _judged([g + 0.5 for g in steady]) == "mistake"
    assert _judged([g + 1.5 for g in steady]) == "blunder"
    assert _judged([g + 1.5 for g in steady], stake=10) == "inaccuracy"  # 1.55 of 10 a stake
    assert _judged([4.0, -4.0] * 5 + [2.0]) == "good"  # a mean of 0.18, but noise
    assert _judged([g + 0.1 for g in steady], judged_by="first") == "mistake"  # 15 points
    assert THRESHOLDS["units"] == tuple(sorted(THRESHOLDS["units"]))


def test_the_review_judges_by_what_the_rules_pay_and_shows_first_place_where_it_pays() -> None:
    assert not rewards_first(Rules.preset("pagat"))  # only the last player pays
    assert rewards_first(Rules.preset("kenneth-lu"))  # the winner is paid by the cards left
    assert rewards_first(Rules.preset("mien-nam"))  # the places' points, first the most
    assert rewards_first(Rules.preset("pagat").replace(scoring="none"))


def test_a_pagat_decision_after_someone_is_out_is_still_judged_by_its_units() -> None:
    """Once a player is out, nobody at a pagat table can go out first any more, but the
    last place still pays: the appraisal tells the moves apart by their units."""
    for seed in range(40):
        game = Game.deal(Rules.preset("pagat"), 4, seed=seed)
        bot = get_bot("heuristic", seed=seed)
        while not game.is_over:
            view = game.view(game.turn)
            if game.finish_order and unsearched(view) is None and len(view.legal) >= 3:
                appraisal = appraise(view, fast=False, deals=60)
                if len({e.units for e in appraisal.estimates}) > 1:
                    assert all(e.first == 0.0 for e in appraisal.estimates)
                    assert appraisal.judged_by == "units"
                    worst = min(appraisal.estimates, key=lambda e: e.units)
                    assert appraisal.cost(worst.move).mean > 0
                    return
            game.play(bot.choose(view))
    raise AssertionError("no such position in 40 hands")


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
    assert str(blunder.move) == "2c" and blunder.loss and not blunder.hinted
    assert blunder.best is not None and blunder.played is not None and blunder.cost is not None
    assert str(blunder.best.move) != "2c"
    assert blunder.grade in ("mistake", "blunder") and blunder.cost.ci[0] > 0
    assert blunder.cost.mean == pytest.approx(blunder.best.units - blunder.played.units)
    forced = by_number[6]  # a pass: nothing beats the three pairs
    assert forced.kind == "forced" and not forced.loss and forced.played is None
    assert forced.grade is None and not forced.hinted
    assert all(d.played is None or d.played.deals == d.best.deals  # type: ignore[union-attr]
               for d in review.decisions)
    # the record holds every hand: each decision shows both seats' cards
    assert [len(h) for h in by_number[2].hands] == [13, 11]
    assert review.judged_by == "units" and not review.first_shown


def test_the_best_move_played_is_the_hints_and_never_marked(blunder_review: Review) -> None:
    review = blunder_review
    best = [d for d in review.decisions if d.best is not None and d.move == d.best.move]
    assert best
    for d in best:
        assert d.hinted and d.grade == "good" and d.cost is not None and d.cost.mean == 0
        view = states(load_game(BLUNDER, Game))[d.number - 1].view(0)
        assert suggest(view, fast=False).move == d.move


def _hinted_hand(preset: str, seed: int) -> Game:
    """A 4-player hand where seat 0 plays the hint at every decision, the others the
    heuristic."""
    game = Game.deal(Rules.preset(preset), 4, seed=seed)
    bot = get_bot("heuristic", seed=seed)
    while not game.is_over:
        view = game.view(game.turn)
        game.play(suggest(view).move if game.turn == 0 else bot.choose(view))
    return game


@pytest.mark.parametrize("preset", ["pagat", "mien-nam"])
def test_no_move_the_hint_gave_is_called_a_mistake(preset: str) -> None:
    game = _hinted_hand(preset, seed=7)
    review = review_game(game, 0)
    appraised = [d for d in review.decisions if d.cost is not None]
    assert appraised
    for d in appraised:
        assert d.hinted and d.grade == "good" and not d.loss, d
    text = review_text(review)
    assert "★ the coach's best move: the hint's move here" in text
    assert f"{len(appraised)} the hint's move" in text


def test_the_review_in_words_grades_each_decision_and_counts_the_grades(
        blunder_review: Review) -> None:
    text = review_text(blunder_review)
    assert "judged by the units the rules pay" in text
    assert re.search(r"^4\. 2c: units [+-]\d\.\d\d \[", text, re.MULTILINE)
    assert re.search(r"^    ✗+ a (mistake|blunder): \d\.\d\d units below the best \[", text,
                     re.MULTILINE)
    assert re.search(r"\d+ decisions appraised: \d+ good, \d+ inaccurac(y|ies), "
                     r"\d+ mistakes?, \d+ blunders?; \d+ the hint's moves?;", text)
    data = review_json(blunder_review)
    four = next(d for d in data["decisions"] if d["number"] == 4)
    assert four["grade"] in ("mistake", "blunder") and four["loss"] and not four["hinted"]
    assert four["cost"]["ci"][0] > 0 and data["judged_by"] == "units"


def test_a_review_made_a_decision_at_a_time_is_the_review_made_whole() -> None:
    """The web makes a review in the bot pool a decision at a time (so that the tables' bots
    are not kept waiting for a whole review): each position draws its own deals, so the parts
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
        assert "Review · hand 1 of 1 · pagat.com · Player 1" in shown  # the record's names
        assert "Decision 1 of 8 · #2" in shown
        assert re.search(r"You played +5♠ 5♣\n +units [+-]\d", shown), shown
        assert "★ The hint's move: the coach's best here" in shown
        assert "The coach's best  " not in shown  # the same move: one row
        await pilot.press("right")
        await pilot.pause()
        shown = text()
        assert "Decision 2 of 8 · #4" in shown
        assert re.search(r"You played +2♣\n +units [+-]\d", shown)
        assert re.search(r"✗ A mistake: \d\.\d\d units below the best \[", shown), shown
        assert re.search(r"The coach's best +\S", shown)  # the move it would have made
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
