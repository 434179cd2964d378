"""A finished hand reviewed for one seat: each of its decisions, with what the search bot
expects after the move made and after its own best move (``tienlen review RECORD``).

For each decision of the seat the review asks search (:meth:`SearchBot.estimates
<tienlen.bots.search.SearchBot.estimates>`) from the seat's view at that moment, the move made
added to search's candidates, every candidate played out on the same sampled deals: a first
look on a few deals finds search's best; that move and the move made are then played out
together on fresh deals until their intervals are within the target width: the chance of
going out first and the units, with their 95% intervals. A decision is marked a loss only
where the interval of the move made and that of search's best move do not overlap: first
place, or the units where the rules pay for more than the finish order (search's ``rules``
objective). A forced move (one legal move) is neither evaluated nor marked; the decisions
search does not evaluate (an out-of-turn chop offer, a phase other than the play, a hand with
trades) are listed with the reason. The record holds every dealt hand, so each decision carries
every seat's cards at that moment.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Move
from .bots.search import Estimate, SearchBot, scores_units, unsearched
from .cards import Card
from .errors import ArgumentError, RecordError, error
from .game import Game
from .i18n import display_name, rules_name, t, tn
from .record import load_hands
from .shapes import Play
from .stepping import iter_states

# what a decision is: search's estimates, or why there are none
EVALUATED = "evaluated"
KINDS = ("evaluated", "forced", "phase", "out_of_turn", "trades")


@dataclass(frozen=True)
class Decision:
    """One of the seat's decisions: the move made (``number``: its place in the hand's
    history, from 1), and either search's estimates after it and after search's best move, or
    the reason there are none (``kind``)."""

    number: int
    move: Move
    kind: str  # one of KINDS
    hands: tuple[tuple[Card, ...], ...]  # every seat's cards before the decision
    table: Play | None  # the play to beat, if any
    played: Estimate | None = None
    best: Estimate | None = None
    loss: bool = False  # the two intervals do not overlap, the move made below


@dataclass(frozen=True)
class Review:
    """A hand's decisions of one seat, reviewed; ``units``: judged by the units (else by the
    chance of going out first)."""

    seat: int
    hand: int  # the hand's number in its record, from 1
    hands: int  # the hands in the record
    names: tuple[str, ...]
    rules: str
    units: bool
    decisions: tuple[Decision, ...]
    finish_order: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def losses(self) -> list[Decision]:
        return [d for d in self.decisions if d.loss]


Progress = Callable[[int, int], None]  # (decisions reviewed, decisions in all)


def review_game(game: Game, seat: int, *, hand: int = 1, hands: int = 1, seed: int = 0,
                fast: bool | None = None, target: float | None = None,
                deals: int | None = None, progress: Progress | None = None,
                numbers: Collection[int] | None = None) -> Review:
    """Review ``seat``'s decisions in the finished ``game`` (see the module text). ``seed``
    makes the review reproducible (each decision is searched with a seed of its own, so a
    decision's figures do not depend on the others); ``fast``, ``target`` and ``deals``: as
    for :meth:`SearchBot.estimates <tienlen.bots.search.SearchBot.estimates>` (None: its
    defaults); ``progress`` is told after each decision; ``numbers``: only the decisions of
    these numbers (:func:`decision_numbers`; a review made a few decisions at a time, as the
    web's is, is the same as one made whole)."""
    mine = {n for n in decision_numbers(game, seat) if numbers is None or n in numbers}
    if not game.is_over:
        raise error(ArgumentError, "review.err.unfinished", n=hand)
    options: dict[str, Any] = {"fast": fast}
    if target is not None:
        options["target"] = target
    if deals is not None:
        options["deals"] = deals
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
                bot = SearchBot(seed=seed * 1_000_003 + number)
                out.append(_judged(bot, view, move, number, hands_now, options))
            if progress is not None:
                progress(len(out), len(mine))
        state = next(states)
    return Review(seat, hand, hands, tuple(game.names), game.rules.name,
                  scores_units(game.view(seat)), tuple(out), tuple(game.finish_order),
                  tuple(game.scores))


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


SCREEN_DEALS = 100  # the first look at every candidate: deals each


def _judged(bot: SearchBot, view: Any, move: Move, number: int,
            hands: tuple[tuple[Card, ...], ...], options: dict[str, Any]) -> Decision:
    """A decision search evaluates: the move made against search's best. Every candidate is
    looked at first on a few deals (:data:`SCREEN_DEALS`); the leader and the move made are
    then estimated together, on deals of their own, to the target width (the cost of a
    review is the deals of those two, not of every candidate)."""
    units = scores_units(view)
    screen = bot.estimates(view, [move], **{**options, "deals": min(
        SCREEN_DEALS, options.get("deals") or SCREEN_DEALS)})
    leader = best_of(screen, units).move
    estimates = bot.estimates(view, [leader] if leader == move else [leader, move], only=True,
                              **options)
    best = best_of(estimates, units)
    played = next(e for e in estimates if e.move == move)
    worse = (played.units < best.units) if units else (played.first < best.first)
    loss = played is not best and worse and not played.overlaps(best, units)
    return Decision(number, move, EVALUATED, hands, view.table, played, best, loss)


def best_of(estimates: Sequence[Estimate], units: bool = False) -> Estimate:
    """Search's best move among ``estimates``: the highest first-place chance (or mean units),
    the earlier candidate on a tie (the heuristic's own choice first)."""
    return max(estimates, key=lambda e: e.units if units else e.first)


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


def review_json(review: Review) -> dict[str, Any]:
    """A review as JSON (``tienlen review --json``, the web's review; docs/api.md)."""
    return {
        "seat": review.seat, "hand": review.hand, "hands": review.hands,
        "names": list(review.names), "rules": review.rules,
        "judged_by": "units" if review.units else "first",
        "finish_order": list(review.finish_order), "scores": list(review.scores),
        "decisions": [{
            "number": d.number, "move": str(d.move), "kind": d.kind,
            "table": None if d.table is None else str(d.table),
            "hands": [" ".join(str(c) for c in h) for h in d.hands],
            "played": estimate_json(d.played), "best": estimate_json(d.best), "loss": d.loss,
        } for d in review.decisions],
    }


def move_words(move: Move, lang: str = "en") -> str:
    """A move as a review says it: its cards, or "pass" in ``lang``."""
    if isinstance(move, Play) and not move.keys:
        return t("move.pass", lang)
    return str(move)


def estimate_words(estimate: Estimate, lang: str = "en") -> str:
    """An estimate in a line: first-place chance and units, each with its interval."""
    return t("review.estimate", lang, first=f"{estimate.first:.1%}",
             first_low=f"{estimate.first_ci[0]:.1%}", first_high=f"{estimate.first_ci[1]:.1%}",
             units=f"{estimate.units:+.2f}", units_low=f"{estimate.units_ci[0]:+.2f}",
             units_high=f"{estimate.units_ci[1]:+.2f}", deals=estimate.deals)


def decision_lines(review: Review, decision: Decision, lang: str = "en",
                   cards: bool = True) -> list[str]:
    """One decision in words: the move and its estimate, search's best and its estimate, the
    mark; or why it was not evaluated; with ``cards``, every seat's cards at that moment."""
    move = move_words(decision.move, lang)
    if decision.played is None or decision.best is None:
        lines = [t(f"review.kind.{decision.kind}", lang, number=decision.number, move=move)]
    else:
        lines = [t("review.line", lang, number=decision.number, move=move,
                   estimate=estimate_words(decision.played, lang))]
        if decision.best is decision.played:
            lines.append(t("review.best_same", lang))
        else:
            lines.append(t("review.best", lang, move=move_words(decision.best.move, lang),
                           estimate=estimate_words(decision.best, lang)))
        if decision.loss:
            lines.append(t("review.loss", lang))
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
             judged=t(f"review.judged.{'units' if review.units else 'first'}", lang))


def review_summary(review: Review, lang: str = "en") -> str:
    names = [display_name(n, lang) for n in review.names]
    evaluated = sum(1 for d in review.decisions if d.played is not None)
    return t("review.summary", lang, losses=tn("review.losses", len(review.losses), lang),
             evaluated=tn("review.decisions", evaluated, lang),
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
