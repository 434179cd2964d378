"""A finished hand reviewed for one seat: each of its decisions, graded by the coach.

For each decision of the seat the review makes the coach's appraisal of the position
(:func:`tienlen.coach.appraise`) with the move made added to search's candidates: every
candidate played out on the same sampled deals, judged by what the rules pay (the expected
units; the chance of going out first where the rules pay nothing), the deals drawn from the
position itself. The hint (:func:`tienlen.hints.suggest`) is that appraisal's best move, so a
move the hint gave is the review's best and is never called a mistake; the review marks such a
move (``hinted``). Each decision says what the move made cost against the best, with its 95%
interval, and its grade: good, inaccuracy, mistake or blunder (:data:`tienlen.coach.GRADES`).
A forced move (one legal move) is neither appraised nor graded; the decisions the coach does
not appraise (an out-of-turn chop offer, a phase other than the play, a hand with trades) are
listed with the reason. The record holds every dealt hand, so each decision carries every
seat's cards at that moment.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from .actions import Move
from .bots.search import unsearched
from .cards import Card
from .coach import GRADES, Cost, Estimate, appraise, rewards_first
from .errors import ArgumentError, RecordError, error
from .game import Game
from .i18n import display_name, rules_name, t, tn
from .record import load_hands
from .shapes import Play
from .stepping import iter_states

# what a decision is: appraised, or why it is not
EVALUATED = "evaluated"
KINDS = ("evaluated", "forced", "phase", "out_of_turn", "trades")
MARKED = GRADES[2:]  # the grades the review counts against the player: mistake, blunder


@dataclass(frozen=True)
class Decision:
    """One of the seat's decisions: the move made (``number``: its place in the hand's
    history, from 1), and either the coach's estimates after it and after the best move, with
    what it cost and its grade, or the reason there are none (``kind``)."""

    number: int
    move: Move
    kind: str  # one of KINDS
    hands: tuple[tuple[Card, ...], ...]  # every seat's cards before the decision
    table: Play | None  # the play to beat, if any
    played: Estimate | None = None
    best: Estimate | None = None
    cost: Cost | None = None

    @property
    def grade(self) -> str | None:
        """good, inaccuracy, mistake or blunder (None: not appraised)."""
        return None if self.cost is None else self.cost.grade

    @property
    def hinted(self) -> bool:
        """The move made is the coach's best: the move the hint gives here."""
        return self.best is not None and self.best.move == self.move

    @property
    def loss(self) -> bool:
        """A mistake or a blunder."""
        return self.grade in MARKED


@dataclass(frozen=True)
class Review:
    """A hand's decisions of one seat, reviewed; ``judged_by``: ``units`` (what the rules pay)
    or ``first`` (the chance of going out first, where the rules pay nothing);
    ``first_shown``: the rules reward going out first, so its chance is shown beside."""

    seat: int
    hand: int  # the hand's number in its record, from 1
    hands: int  # the hands in the record
    names: tuple[str, ...]
    rules: str
    judged_by: str
    first_shown: bool
    decisions: tuple[Decision, ...]
    finish_order: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def losses(self) -> list[Decision]:
        """The mistakes and blunders."""
        return [d for d in self.decisions if d.loss]

    def graded(self, grade: str) -> list[Decision]:
        return [d for d in self.decisions if d.grade == grade]


Progress = Callable[[int, int], None]  # (decisions reviewed, decisions in all)


def review_game(game: Game, seat: int, *, hand: int = 1, hands: int = 1,
                fast: bool | None = None, deals: int | None = None,
                progress: Progress | None = None,
                numbers: Collection[int] | None = None) -> Review:
    """Review ``seat``'s decisions in the finished ``game`` (see the module text). ``fast``
    and ``deals``: as for :func:`tienlen.coach.appraise` (None: its defaults; a review with
    other ``deals`` than the hint's no longer sees the hint's deals); ``progress`` is told
    after each decision; ``numbers``: only the decisions of these numbers
    (:func:`decision_numbers`; a review made a few decisions at a time, as the web's is, is the
    same as one made whole: each position draws its own deals)."""
    mine = {n for n in decision_numbers(game, seat) if numbers is None or n in numbers}
    if not game.is_over:
        raise error(ArgumentError, "review.err.unfinished", n=hand)
    states = iter_states(game)
    state = next(states)
    out: list[Decision] = []
    for number, (_, move) in enumerate(game.history[len(state.history):],
                                           len(state.history) + 1):
        if number in mine:
            view = state.view(seat)
            hands_now = tuple(tuple(state.hand(s)) for s in range(game.players))
            why = unsearched(view) if move in view.legal else "phase"
            if why is not None:
                out.append(Decision(number, move, why, hands_now, view.table))
            else:
                appraisal = appraise(view, [move], fast=fast, deals=deals)
                out.append(Decision(number, move, EVALUATED, hands_now, view.table,
                                    appraisal.of(move), appraisal.best, appraisal.cost(move)))
            if progress is not None:
                progress(len(out), len(mine))
        state = next(states)
    rules = game.rules
    return Review(seat, hand, hands, tuple(game.names), rules.name,
                  "first" if rules.scoring == "none" else "units", rewards_first(rules),
                  tuple(out), tuple(game.finish_order), tuple(game.scores))


def decision_numbers(game: Game, seat: int) -> list[int]:
    """The numbers (places in the hand's history, from 1) of ``seat``'s decisions that a review
    of the finished ``game`` lists: the seat's moves after the deal's own (a president
    exchange's gifts are made by the deal)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise error(ArgumentError, "review.err.seat", seat=repr(seat), players=game.players,
                    last=game.players - 1)
    dealt = len(next(iter_states(game)).history)
    return [number for number, (actor, _) in enumerate(game.history, 1)
            if actor == seat and number > dealt]


def record_hand(text: str, hand: int | None = None) -> tuple[Game, int, int]:
    """Hand ``hand`` (from 1; None: the last) of a record's text: the hand, its number and the
    hands the record holds. A bad record or hand number raises a
    :class:`~tienlen.errors.TienLenError` saying what is wrong."""
    games = load_hands(text, Game).games
    number = len(games) if hand is None else hand
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(games):
        raise error(RecordError, "review.err.hand", n=repr(hand), hands=len(games))
    return games[number - 1], number, len(games)


def review_record(text: str, seat: int = 0, hand: int | None = None, **options: Any) -> Review:
    """Review ``seat``'s decisions in hand ``hand`` (from 1; None: the last) of a record's
    text; ``options``: as for :func:`review_game`. A bad record, seat or hand number raises a
    :class:`~tienlen.errors.TienLenError` saying what is wrong."""
    game, number, hands = record_hand(text, hand)
    return review_game(game, seat, hand=number, hands=hands, **options)


def estimate_json(estimate: Estimate | None) -> dict[str, Any] | None:
    """An estimate as JSON: the move, first-place chance and units with their intervals."""
    if estimate is None:
        return None
    return {"move": str(estimate.move), "first": round(estimate.first, 4),
            "first_ci": [round(x, 4) for x in estimate.first_ci],
            "units": round(estimate.units, 3),
            "units_ci": [round(x, 3) for x in estimate.units_ci], "deals": estimate.deals}


def cost_json(cost: Cost | None) -> dict[str, Any] | None:
    """A decision's cost as JSON: its mean, its 95% interval and its grade."""
    if cost is None:
        return None
    return {"mean": round(cost.mean, 4), "ci": [round(x, 4) for x in cost.ci],
            "grade": cost.grade}


def review_json(review: Review) -> dict[str, Any]:
    """A review as JSON (``tienlen review --json``, the web's review; docs/api.md)."""
    return {
        "seat": review.seat, "hand": review.hand, "hands": review.hands,
        "names": list(review.names), "rules": review.rules,
        "judged_by": review.judged_by, "first_shown": review.first_shown,
        "finish_order": list(review.finish_order), "scores": list(review.scores),
        "decisions": [{
            "number": d.number, "move": str(d.move), "kind": d.kind,
            "table": None if d.table is None else str(d.table),
            "hands": [" ".join(str(c) for c in h) for h in d.hands],
            "played": estimate_json(d.played), "best": estimate_json(d.best),
            "cost": cost_json(d.cost), "grade": d.grade, "hinted": d.hinted, "loss": d.loss,
        } for d in review.decisions],
    }


def move_words(move: Move, lang: str = "en") -> str:
    """A move as a review says it: its cards, or "pass" in ``lang``."""
    if isinstance(move, Play) and not move.keys:
        return t("move.pass", lang)
    return str(move)


def estimate_words(review: Review, estimate: Estimate, lang: str = "en") -> str:
    """An estimate in a line: the units with their interval, and the first-place chance with
    its own where the rules reward it (that alone where the rules pay nothing)."""
    key = "review.estimate_only_first" if review.judged_by == "first" else \
        "review.estimate_first" if review.first_shown else "review.estimate"
    return t(key, lang, first=f"{estimate.first:.1%}",
             first_low=f"{estimate.first_ci[0]:.1%}", first_high=f"{estimate.first_ci[1]:.1%}",
             units=f"{estimate.units:+.2f}", units_low=f"{estimate.units_ci[0]:+.2f}",
             units_high=f"{estimate.units_ci[1]:+.2f}", deals=estimate.deals)


def cost_figures(review: Review, cost: Cost, lang: str = "en") -> dict[str, str]:
    """A cost's figures as a review says them: ``cost`` (with its unit), ``low``, ``high``."""
    if review.judged_by == "first":
        return {"cost": t("review.cost.first", lang, n=f"{cost.mean * 100:.1f}"),
                "low": f"{cost.ci[0] * 100:.1f}", "high": f"{cost.ci[1] * 100:.1f}"}
    return {"cost": t("review.cost.units", lang, n=f"{cost.mean:.2f}"),
            "low": f"{cost.ci[0]:.2f}", "high": f"{cost.ci[1]:.2f}"}


def decision_lines(review: Review, decision: Decision, lang: str = "en",
                   cards: bool = True) -> list[str]:
    """One decision in words: the move and its estimate, the coach's best and its estimate,
    the grade and the cost; or why it was not appraised; with ``cards``, every seat's cards at
    that moment."""
    move = move_words(decision.move, lang)
    if decision.played is None or decision.best is None or decision.cost is None:
        lines = [t(f"review.kind.{decision.kind}", lang, number=decision.number, move=move)]
    else:
        lines = [t("review.line", lang, number=decision.number, move=move,
                   estimate=estimate_words(review, decision.played, lang))]
        if decision.hinted:
            lines.append(t("review.best_same", lang))
        else:
            lines.append(t("review.best", lang, move=move_words(decision.best.move, lang),
                           estimate=estimate_words(review, decision.best, lang)))
            lines.append(t(f"review.grade.{decision.cost.grade}", lang,
                           **cost_figures(review, decision.cost, lang)))
    if cards:
        names = [display_name(n, lang) for n in review.names]
        lines.append(t("review.cards", lang, hands="; ".join(
            f"{names[s]}: {' '.join(str(c) for c in hand) or '-'}"
            for s, hand in enumerate(decision.hands))))
    return lines


def review_title(review: Review, lang: str = "en") -> str:
    return t("review.title", lang, hand=review.hand, hands=review.hands,
             rules=rules_name(review.rules, lang),
             name=display_name(review.names[review.seat], lang), seat=review.seat,
             judged=t(f"review.judged.{review.judged_by}", lang))


def grade_counts(review: Review, lang: str = "en") -> str:
    """How many appraised decisions had each grade, in words: "5 good, 1 inaccuracy, …"."""
    return ", ".join(tn(f"review.graded.{grade}", len(review.graded(grade)), lang)
                     for grade in GRADES)


def review_summary(review: Review, lang: str = "en") -> str:
    names = [display_name(n, lang) for n in review.names]
    evaluated = sum(1 for d in review.decisions if d.played is not None)
    return t("review.summary", lang, evaluated=tn("review.decisions", evaluated, lang),
             grades=grade_counts(review, lang),
             hinted=tn("review.hinted", sum(d.hinted for d in review.decisions), lang),
             order=", ".join(names[s] for s in review.finish_order),
             units=", ".join(f"{names[s]} {u:+d}" for s, u in enumerate(review.scores)))


def review_text(review: Review, lang: str = "en") -> str:
    """The whole review in words (``tienlen review``)."""
    lines = [review_title(review, lang)]
    for decision in review.decisions:
        lines += decision_lines(review, decision, lang)
    if not review.decisions:
        lines.append(t("review.none", lang))
    lines.append(review_summary(review, lang))
    return "".join(line + "\n" for line in lines)
