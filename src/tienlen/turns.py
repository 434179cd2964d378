"""Who decides now, and from which moves: one decision at a time, for every front end.

A hand asks its decisions in one order. After every move, the seats that may chop out of
turn (§6, §11 free chops) are asked first, one by one in the order that gives them priority,
each with its chops and ``pass`` (its decline); the first to chop plays, and the asking starts
again after that move; when all have declined, the seat on turn is asked, with its legal moves
(a play, a claim, a trade decision, a return).

:class:`Decision` is one such question; :class:`Turns` owns the queue of out-of-turn offers of
one game and the declines made to them, so that a seat that let a chop go is not asked again
until someone moves. A driver asks :meth:`Turns.next`, gets the answer from a bot, a network
or a person, and gives it to :meth:`Turns.answer`. A move made on the game by other means is
noticed at the next :meth:`Turns.next` (a new chance for every seat).

Under ``chop_out_of_turn`` the queue holds every seat that the rules let chop out of turn now
(:meth:`tienlen.game.Game.out_of_turn_asked`), in turn order after the player of the
target, *whatever it holds*, as free chops already are: a seat without a chop is asked with
``pass`` alone. So the order of asking reveals no hidden card.
:meth:`~tienlen.game.Game.out_of_turn_seats` still names the seats that hold a chop.

Every front end asks :func:`asked` who is asked now (or what one seat is asked), and builds
what a bot or a hint decides from with :func:`view_for_decision`. Where they differ, in how a *person*
is asked out of turn, they name their :class:`OutOfTurn` policy: the arena and the RL
environments ask everyone in the queue (:attr:`OutOfTurn.QUEUED`), the terminal asks its
player only when holding a chop (:attr:`OutOfTurn.HOLDING`), and the web room never waits for
a person out of turn but takes their chop at any moment (:attr:`OutOfTurn.ANY_TIME`).

The arena, the terminal and the web room let their bots play through the one loop,
:func:`bot_answers`: each names who is a person and its policy, how a bot answers a decision,
and makes the moves its own way (checked on the game, said in words, or stored first).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar

from .actions import Move, TradeDecision
from .game import Game
from .legal import legal_now
from .shapes import PASS, Play
from .view import View


class Kind(StrEnum):
    """The kind of a decision: what the seat asked is choosing."""

    PLAY = "play"  # a turn in play (§4): a play or pass
    CHOP = "chop"  # out of turn (§6): a chop, or pass to let it go
    FREE_CHOP = "free_chop"  # out of turn, offered under free_chops (§11)
    CLAIM = "claim"  # an instant win to claim or decline (§7)
    OFFER = "offer"  # mutual trading (§9): an offer to a partner, or done
    ANSWER = "answer"  # mutual trading: answer an offer with cards, or refuse
    SETTLE = "settle"  # mutual trading: accept or refuse the answer
    RETURN = "return"  # the president exchange: the cards given back


OUT_OF_TURN = frozenset({Kind.CHOP, Kind.FREE_CHOP})
_PHASE_KIND = {kind.value: kind for kind in Kind}  # the phases' kinds, read without Enum's call


class Decision(NamedTuple):
    """One question: the seat asked, its kind, the moves it may answer with, whether it is
    asked out of turn, and what it answers (the play on the table, for a chop out of turn;
    the trade, for a trade answer or settling; None otherwise).

    ``moves`` is the game's legal list (a mutual-trading offer: the lazy
    :class:`~tienlen.actions.TradeOffers`); out of turn: the seat's chops, then ``pass``."""

    seat: int
    kind: Kind
    moves: Sequence[Move]
    out_of_turn: bool
    answers: Play | TradeDecision | None = None


def is_decline(move: Move) -> bool:
    """Whether an answer out of turn lets the chop go (``pass``)."""
    return isinstance(move, Play) and not move.keys


class Turns:
    """The decisions of one game, asked one at a time (see the module's text).

    ``legal_of`` (a seat's legal moves) and ``push`` (make a move, unchecked) default to the
    game's own; the RL environment passes those of the fast path's mirror of the hand."""

    __slots__ = ("_declined", "_free", "_legal", "_mark", "_push", "_queue", "game")

    def __init__(self, game: Game, legal_of: Callable[[int], Sequence[Move]] | None = None,
                 push: Callable[[Move, int], object] | None = None) -> None:
        self.game = game
        self._legal = legal_of  # None: the game's own (a copy of the object copies no method)
        self._push = push
        self._queue: list[int] = []
        self._declined: list[int] = []
        self._mark = -1  # the length of the history when the queue was made
        self._free = bool(game.rules.free_chops)

    def copy(self, game: Game) -> Turns:
        """These decisions asked of ``game`` (a copy of this one's game, made by
        :meth:`Game.copy`): the queue of seats asked out of turn carried over."""
        other = Turns.__new__(Turns)
        other.game, other._legal, other._push = game, self._legal, self._push
        other._queue, other._declined = list(self._queue), list(self._declined)
        other._mark, other._free = self._mark, self._free
        return other

    def _legal_of(self, seat: int) -> Sequence[Move]:
        return self._legal(seat) if self._legal is not None else self.game.legal_plays(seat)

    # ------------------------------------------------------------------ the queue
    def _sync(self) -> None:
        st = self.game.state
        mark = len(st.history)  # the state read, not a copy
        if mark != self._mark:  # someone moved: a new chance for every seat
            self._mark = mark
            self._declined = []
            # only a chop window (§6) or free chops (§11) ask anyone out of turn
            asks = (st.window or self._free) and st.phase == "play"
            self._queue = self.game.out_of_turn_asked() if asks else []

    @property
    def queue(self) -> list[int]:
        """The seats still to be asked out of turn now, first first."""
        self._sync()
        return list(self._queue)

    @property
    def declined(self) -> list[int]:
        """The seats that let the present chance of a chop out of turn go, in order."""
        self._sync()
        return list(self._declined)

    def waiting_for(self) -> int | None:
        """The seat asked next (None: the hand is over), without listing its moves."""
        if self.game.is_over:
            return None
        self._sync()
        return self._queue[0] if self._queue else self.game.turn

    # ------------------------------------------------------------------ asking
    def next(self) -> Decision | None:
        """The decision asked next, None when the hand is over."""
        game = self.game
        st = game.state
        if st.phase == "over":
            return None
        if len(st.history) != self._mark:
            self._sync()
        if self._queue:
            seat = self._queue[0]
            kind = Kind.FREE_CHOP if game.free_chop_offered(seat) else Kind.CHOP
            moves: Sequence[Move] = [*(m for m in self._legal_of(seat) if isinstance(m, Play)),
                                     PASS]
            return Decision(seat, kind, moves, True, game.table)
        seat = st.turn  # type: ignore[assignment]
        assert seat is not None
        phase = st.phase
        answers: TradeDecision | None = None
        if phase == "trade":
            answers = game.trade_decision(seat)
            assert answers is not None
            kind = Kind(answers.kind)
            if kind is Kind.OFFER:
                answers = None
        else:
            kind = _PHASE_KIND[phase]
        legal = self._legal
        if legal is not None:
            moves = legal(seat)
        elif phase == "play":  # the game's own list, made once for this action: read, not changed
            moves = legal_now(game.rules, st, seat)
        else:
            moves = game.legal_plays()
        return Decision(seat, kind, moves, False, answers)

    def answer(self, seat: int, move: Move) -> None:
        """Take the answer of ``seat``, the seat asked: out of turn, a chop is made and the
        asking starts again, ``pass`` is a decline (the next seat of the queue is asked);
        on turn, the move is made."""
        game = self.game
        st = game.state
        if len(st.history) != self._mark:
            self._sync()
        queue = self._queue
        if queue:
            if seat != queue[0]:
                raise ValueError(f"seat {seat} is not asked now (seat {queue[0]} is)")
            if is_decline(move):
                self._declined.append(queue.pop(0))
                return
        elif seat != st.turn:
            raise ValueError(f"seat {seat} is not asked now (seat {st.turn} is)")
        push = self._push
        if push is not None:
            push(move, seat)
        else:
            game.push(move, seat)

    def decline(self, seat: int) -> None:
        """``seat``, asked out of turn, lets the chop go."""
        self.answer(seat, PASS)


class OutOfTurn(StrEnum):
    """How a person (not a bot) is asked out of turn: the policy where the front ends differ.
    A bot is always asked in the queue's order, whatever it holds."""

    QUEUED = "queued"  # in the queue's order, whatever it holds, as a bot is (arena, RL)
    HOLDING = "holding"  # in the queue's order when holding a chop, else let go at once (terminal)
    ANY_TIME = "any_time"  # never waited for (let go at once); chops whenever it holds one (web)


def _nobody(seat: int) -> bool:
    return False


def asked(turns: Turns, seat: int | None = None, *, person: Callable[[int], bool] = _nobody,
          policy: OutOfTurn = OutOfTurn.QUEUED) -> Decision | None:
    """Who is asked now, and the decision they face: with ``seat`` None, the decision the hand
    waits for (None: the hand is over), in the order of ``turns``, each person (``person``:
    default nobody) asked out of turn and not waited for under ``policy`` let go at once (a
    decline, noted in ``turns``); with ``seat``, the decision that seat faces now (None: it is
    asked nothing): the one the hand waits for when it is that seat's, or, for a person under
    :attr:`OutOfTurn.ANY_TIME`, whatever it may do now (on turn, its turn; in the play, a chop
    it holds, out of turn, as a free chop where the rules offer one, §11)."""
    if seat is not None and policy is OutOfTurn.ANY_TIME and person(seat):
        return _any_time(turns, seat)
    decision = turns.next()
    while decision is not None and decision.out_of_turn and person(decision.seat) \
            and _let_go(decision, policy):
        turns.decline(decision.seat)
        decision = turns.next()
    if seat is not None and decision is not None and decision.seat != seat:
        return None
    return decision


def _let_go(decision: Decision, policy: OutOfTurn) -> bool:
    """Whether a person asked out of turn is let go at once under ``policy``."""
    if policy is OutOfTurn.HOLDING:
        return all(is_decline(m) for m in decision.moves)  # its decline alone: no chop held
    return policy is OutOfTurn.ANY_TIME


def _any_time(turns: Turns, seat: int) -> Decision | None:
    """What a person at ``seat`` may decide now when a chop is taken from any seat at any
    moment: before the play only the seat on turn is asked (nobody out of turn); in the play
    the seat on turn plays and any other seat holding a chop may make it."""
    game = turns.game
    if game.is_over:
        return None
    if game.phase != "play":
        return turns.next() if seat == game.turn else None
    if seat == game.turn:
        return Decision(seat, Kind.PLAY, game.legal_plays(seat), False)
    chops = game.legal_plays(seat)
    if not chops:
        return None
    kind = Kind.FREE_CHOP if game.free_chop_offered(seat) else Kind.CHOP
    return Decision(seat, kind, [*chops, PASS], True, game.table)


A = TypeVar("A")  # what a bot answers with: a move, or what stands for one still to come


class BotAnswer(NamedTuple, Generic[A]):
    """A bot's answer to the decision it was asked (:func:`bot_answers`)."""

    decision: Decision
    move: A

    @property
    def declined(self) -> bool:
        """Whether the answer let a chop out of turn go (already noted in the turns)."""
        return self.decision.out_of_turn and isinstance(self.move, Play) and is_decline(self.move)


def _everyone(decision: Decision) -> bool:
    return True


def bot_answers(turns: Turns, answer: Callable[[Decision], A], *,
                by_bot: Callable[[Decision], bool] = _everyone,
                person: Callable[[int], bool] = _nobody,
                policy: OutOfTurn = OutOfTurn.QUEUED) -> Iterator[BotAnswer[A]]:
    """The bots' answers, one decision after another, until a person decides or the hand is
    over: who is asked comes from :func:`asked` (``person`` and ``policy`` as there);
    ``by_bot(decision)`` says whether a bot answers it here (default: every decision; when
    not, the hand waits for a person and the loop ends) and ``answer(decision)`` gives the
    bot's answer.

    A decline out of turn is noted in ``turns`` before it is yielded (the next seat is asked);
    any other answer is the caller's to make before it asks for the next one (on the game, in
    words, stored first: each front end its own way), else the same decision is asked again.
    The one loop of the arena, the terminal and the web room."""
    while (decision := asked(turns, person=person, policy=policy)) is not None \
            and by_bot(decision):
        step = BotAnswer(decision, answer(decision))
        if step.declined:
            turns.decline(decision.seat)
        yield step


def view_for_decision(game: Game, decision: Decision) -> View:
    """What the seat asked decides from (a bot's choice, a hint): its own view, nothing more
    of the others than it may know, its legal moves those of ``decision``: asked out of turn,
    its chops and ``pass`` (its decline)."""
    view = game.view(decision.seat)
    if decision.out_of_turn:
        return dataclasses.replace(view, legal=(*view.legal, PASS))
    return view
