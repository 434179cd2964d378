"""Per-seat views as protocol objects: a seat gets its own hand and nothing of the others'.

What a seat is asked is the engine's decision (:class:`tienlen.turns.Decision`: a kind and
its moves), sent as that kind and its facts (:class:`DecisionView`: out of turn or not, a pass
among the moves, the other seat, the cards to select, a button for each choice), a play in
turn too: the page reads from it alone what the seat may do now, and says it in its own words.
The history goes as the engine's typed events as the seat sees them (``events``), not as
text. A spectator (seat None) gets no hand, no legal actions, nothing asked,
and the history with every trade's and every unanswered claim's cards hidden. Each payment is
sent as facts and, once the room knows the connection's language, in the terminal's words
(:func:`worded`, by :mod:`tienlen.paywords`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, get_args

from ... import Action, Game, Move, Play
from ...actions import ActionKind, Hidden, TradeOffers
from ...cards import cards_text
from ...i18n import display_name, t
from ...payments import Chop, Payment
from ...paywords import payment_line
from ...turns import Decision, Kind, OutOfTurn, Turns, is_decline
from ...turns import asked as asked_now
from ...view import events_for
from .protocol import (
    ChoiceView,
    ChopView,
    DecisionKind,
    DecisionView,
    EventView,
    PaymentView,
    SeatInfo,
    SeatView,
)

MAX_LEGAL = 400  # the page lists legal plays for the hint and for decisions
# each decision's kind as the page gets it (the same values)
KINDS: Final[dict[Kind, DecisionKind]] = {Kind(k): k for k in get_args(DecisionKind)}


def asked(game: Game, seat: int) -> Decision | None:
    """The engine's decision for ``seat`` now, None when it is asked nothing: the room takes a
    chop from any seat at any time (:attr:`~tienlen.turns.OutOfTurn.ANY_TIME`)."""
    return asked_now(Turns(game), seat, person=_everyone, policy=OutOfTurn.ANY_TIME)


def _everyone(seat: int) -> bool:
    return True


def _choice(move: Action) -> ChoiceView:
    return ChoiceView(move=str(move), kind=move.kind, other=move.other, win=move.win)


def _with_cards(kind: ActionKind, other: int | None, count: int) -> ChoiceView:
    """A button for the ``kind`` action to ``other`` made with the selected cards."""
    return ChoiceView(move=str(Action(kind, other)), kind=kind, other=other, cards=True,
                      count=count)


def choices(moves: Sequence[Move]) -> list[ChoiceView]:
    """A decision's actions as buttons: each action without cards as it is (claims, decline,
    done, accept, refuse), then one for each kind and seat of those made with cards (an
    offer, an answer, a return), made with the cards the player selects (``count``: how many,
    0 when any number will do). Plays are none of them (the page plays selected cards)."""
    if isinstance(moves, TradeOffers):  # tens of thousands of offers: any cards, to a partner
        return [_choice(Action("done")), *(_with_cards("offer", p, 0) for p in moves.partners)]
    whole: list[ChoiceView] = []
    filled: dict[tuple[ActionKind, int | None], ChoiceView] = {}
    for move in moves:
        if not isinstance(move, Action):
            continue
        if not move.cards:
            whole.append(_choice(move))
            continue
        seen = filled.setdefault((move.kind, move.other),
                                 _with_cards(move.kind, move.other, len(move.cards)))
        if seen.count != len(move.cards):
            seen.count = 0  # as many as one likes
    return [*whole, *filled.values()]


def decision_view(game: Game, decision: Decision) -> DecisionView:
    """The page's facts of ``decision``: a play in turn says only whether a pass is among its
    moves; a chop out of turn has no buttons (Play makes it, and letting it go is no move)."""
    kind = KINDS[decision.kind]
    if decision.kind is Kind.PLAY:
        return DecisionView(kind=kind, may_pass=any(is_decline(m) for m in decision.moves))
    buttons = choices(decision.moves) if not decision.out_of_turn else []
    filled = [c for c in buttons if c.cards]
    seats = [c.other for c in filled if c.other is not None]
    offer = decision.kind is Kind.OFFER
    answers = decision.answers
    to = (game.table_seat if isinstance(answers, Play) else answers.other if answers is not None
          else seats[0] if len(seats) == 1 and not offer else None)
    return DecisionView(kind=kind, out_of_turn=decision.out_of_turn, to=to,
                        count=filled[0].count if len(filled) == 1 else 0,
                        seats=seats if offer else [], choices=buttons)


def event_view(seat: int, move: Play | Action | Hidden) -> EventView:
    """One action of the history, as the seat that looks sees it, as facts."""
    if isinstance(move, Play):
        return EventView(seat=seat, kind="pass") if move.is_pass else \
            EventView(seat=seat, kind="play", cards=str(move), count=len(move.keys))
    if isinstance(move, Hidden):
        return EventView(seat=seat, kind=move.kind or "answered", count=move.count,
                         other=move.other)
    return EventView(seat=seat, kind=move.kind, cards=cards_text(move.cards) if move.cards else None,
                     count=len(move.cards), other=move.other, win=move.win)


def seat_names(seats: Sequence[SeatInfo], lang: str) -> list[str]:
    """Every seat's name as the page shows it in ``lang`` (table.js ``names``): a bot's "Bot 2"
    in the language's words ("Máy 2"), a player's as chosen, an empty seat by its number."""
    return [(display_name(s.name, lang) if s.kind == "bot" else s.name) if s.name
            else t("web.seat.numbered", lang, n=s.seat + 1) for s in seats]


def worded(view: SeatView, payments: Sequence[Payment], names: Sequence[str],
           lang: str) -> SeatView:
    """``view`` with each of its payments said in ``lang`` by
    :func:`tienlen.paywords.payment_line`, the terminal's words, "you" being the view's seat
    (``payments``: the hand's, from which the view's were made: they only grow; ``names``:
    every seat's, as :func:`seat_names` gives them): the lines the page shows."""
    if not view.payments:
        return view
    seats = tuple(names)
    made = payments[:len(view.payments)]
    said = [shown.model_copy(update={"words": _payment_line(p, seats, lang, view.seat)})
            for shown, p in zip(view.payments, made, strict=True)]
    return view.model_copy(update={"payments": said})


@lru_cache(maxsize=4096)
def _payment_line(p: Payment, names: tuple[str, ...], lang: str, you: int | None) -> str:
    """:func:`tienlen.paywords.payment_line`, kept: a payment stays in every later view of its
    hand, said again for each seat and language at every move."""
    return payment_line(p, names, lang, you)


def chop_view(c: Chop) -> ChopView:
    return ChopView(chopper=c.chopper, owner=c.owner, target=str(c.target), bomb=str(c.bomb),
                    bomb_shape=c.bomb.shape or "", bomb_ranks=c.bomb.length, units=c.units)


def payment_view(p: Payment) -> PaymentView:
    """A payment as the page gets it: the structured facts, not the record's English."""
    chops = [chop_view(c) for c in p.chops]
    return PaymentView(payer=p.payer, payee=p.payee, units=p.units, kind=p.kind,
                       item=p.item or p.kind, cards=p.cards, count=p.count,
                       places=list(p.places) if p.item == "place" else [], win=p.win,
                       chops=chops, at=p.at)


class PlayTexts:
    """Every play of one hand's history as an event (marked as the turn timer's or a bot's),
    kept from one view to the next: a play is public and never changes, so only actions
    (trades, claims) are looked at again each time. A kept event is the same object in every
    view, which makes a view quick to compare with the last one sent (deltas.py)."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._plays: list[EventView | None] = []

    def of(self, game: Game, history: Sequence[tuple[int, Move]], timer: frozenset[int],
           bots: frozenset[int]) -> list[EventView | None]:
        if self._game is not game:
            self._game, self._plays = game, []
        for i, (seat, move) in enumerate(history[len(self._plays):], len(self._plays)):
            self._plays.append(_marked(event_view(seat, move), i, timer, bots)
                               if isinstance(move, Play) else None)
        return self._plays


def _marked(event: EventView, i: int, timer: frozenset[int], bots: frozenset[int]) -> EventView:
    """The ``i``-th event of the history, marked when the turn timer or a bot made it."""
    if i in timer or i in bots:
        return event.model_copy(update={"timed_out": i in timer, "bot": i in bots})
    return event


def seat_view(game: Game, seat: int | None, plays: PlayTexts | None = None,
              round_starts: list[int] | None = None,
              timer: frozenset[int] = frozenset(),
              bots: frozenset[int] = frozenset()) -> SeatView:
    """What ``seat`` may know of ``game`` (a spectator when ``seat`` is None); ``round_starts``:
    where each round begins in its history (kept by the table as the moves are made);
    ``timer``: the moves of its history the turn timer made (marked ``timed_out``, for all);
    ``bots``: those a bot made (marked ``bot``)."""
    seen = events_for(game, seat)
    kept = plays.of(game, game.history, timer, bots) if plays is not None else [None] * len(seen)
    events = [play if play is not None else _marked(event_view(s, move), i, timer, bots)
              for i, ((s, move), play) in enumerate(zip(seen, kept, strict=True))]
    decision = asked(game, seat) if seat is not None else None
    legal: list[str] = []
    facts: DecisionView | None = None
    if decision is not None:
        facts = decision_view(game, decision)
        if game.phase == "play":
            legal = [str(m) for m in decision.moves[:MAX_LEGAL]
                     if not (decision.out_of_turn and is_decline(m))]
        else:
            legal = [c.move for c in facts.choices if not c.cards]
    table = game.table
    instant = game.instant_win
    return SeatView(
        seat=seat, phase=game.phase, turn=game.turn, dealer=game.dealer, leader=game.leader,
        hand=[str(c) for c in game.hand(seat)] if seat is not None else [],
        counts=game.counts(), table=str(table) if isinstance(table, Play) and table.cards else None,
        table_seat=game.table_seat, passed=list(game.passed), stacking=game.stacking,
        finish_order=list(game.finish_order), events=events,
        round_starts=list(round_starts or []), legal=legal,
        prompt=facts.kind if facts is not None and facts.kind != "play" else None,
        decision=facts, is_over=game.is_over, scores=list(game.scores),
        revealed=[[str(c) for c in game.hand(s)] for s in range(game.players)] if game.is_over
        else None,
        instant_win=f"{game.names[instant[0]]}: {instant[1]}" if instant else None,
        payments=[payment_view(p) for p in game.payments],
        at_stake=[chop_view(c) for c in game.chops_at_stake],
    )
