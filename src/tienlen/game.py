"""Game: one hand of Tiến Lên as a state machine (claims, trading, play, over).

A :class:`Game` is the rules, the seats and the hand's play state (:mod:`tienlen.state`);
the phases that change the state are functions over the rules and the state, one module
each: the president exchange and mutual trading (:mod:`tienlen.trading`), instant-win claims
(:mod:`tienlen.claims`), the legal plays (:mod:`tienlen.legal`), a play applied
(:mod:`tienlen.playing`), and payments and the hand's end (:mod:`tienlen.ending`).

>>> from tienlen import Game, Rules
>>> game = Game(Rules.preset("pagat"), hands=["3s 4s", "5h 6h", "7d 8d", "9c Tc"])
>>> game.turn, [str(p) for p in game.legal_plays()]
(0, ['3s'])
>>> game.play("3s"); game.turn
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from . import places, trading
from .actions import CLAIM_KINDS, Action, ActionKind, Move, Phase, TradeDecision, parse_move
from .cards import KEY_TEXT, Card
from .claims import apply_claim, legal_claims
from .dealing import check_players as check_players
from .dealing import deal_hands, hand_keys, lowest_holder_of
from .dealing import hand_size as hand_size
from .errors import ArgumentError, CardError, IllegalPlay, RulesError, UnreadableAction, error
from .explain import explain_message
from .i18n import render
from .legal import free_open, legal_now, out_of_turn_asked, out_of_turn_seats
from .movegen import MoveGenerator
from .payments import Chop, ChopLedger, Payment
from .playing import apply_play
from .record import game_record, load_game
from .rules import Rules
from .seats import check_names, check_seat
from .seats import packs_for as packs_for
from .shapes import Play
from .state import Exchange as Exchange
from .state import PlayState
from .view import View, make_view

_CHECKED_DIRECTLY: Final[frozenset[ActionKind]] = frozenset(
    ("offer", "answer", "accept", "refuse", "done", "return"))


class Game:
    """One hand. Seats are numbered 0..n-1 in the order of play."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[str | Iterable[Card | str]],
        leader: int | None = None,
        dealer: int = 0,
        first_hand: bool = True,
        *,
        names: Sequence[str] | None = None,
        exchange: Sequence[Exchange] = (),
    ) -> None:
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be a Rules, such as Rules.preset('pagat'), not {rules!r}")
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise ArgumentError("hands is a list with one hand per seat, such as ['3s 4h', '5d 6c']")
        if not isinstance(first_hand, bool):
            raise ArgumentError(f"first_hand must be true or false, not {first_hand!r}")
        n = check_players(len(hands))
        self.rules = rules
        self.players = n
        self.names = check_names(names, n)
        dealer = check_seat(dealer, n, "dealer")
        self.first_hand = first_hand
        if rules.place_points and len(rules.place_points) != n:
            raise error(RulesError, "err.rules.place_points_players",
                        places=len(rules.place_points), players=n)
        keys = hand_keys(hands, rules.suit_order)
        st = self.state = PlayState(keys, ChopLedger(rules))
        st.order = rules.suit_order
        st.one_pack = packs_for(n) == 1
        st.mg = MoveGenerator(rules, packs_for(n))
        st.named = names is not None
        st.dealer = dealer
        st.dealt = tuple(tuple(h) for h in keys)
        st.lowest_start = leader is None
        if leader is None:
            leader = lowest_holder_of(keys, dealer)
        st.leader = st.trade_seat = check_seat(leader, n, "leader")
        st.opening_lowest = None
        if st.lowest_start and (first_hand or rules.next_leader == "lowest"):
            st.opening_lowest = min(keys[leader])
        trading.begin(rules, st, exchange)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int = 4,
        seed: int | None = None,
        *,
        dealer: int | None = None,
        leader: int | None = None,
        first_hand: bool = True,
        names: Sequence[str] | None = None,
        exchange: Sequence[Exchange] = (),
    ) -> Game:
        """Shuffle and deal a hand: the same seed gives the same deal.

        Cards go one at a time from the seat after the dealer; leftover cards are
        set aside unseen, or the odd one goes to the leader (``odd_card_to_leader``).
        """
        hands, dealer = deal_hands(rules, players, seed, dealer, leader)
        return cls(rules, hands, leader=leader, dealer=dealer, first_hand=first_hand, names=names,
                   exchange=exchange)

    # ================================================================== reading the state
    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        return self.state.dealer

    @property
    def dealt(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's cards as dealt (keys in the rules' card order), before any exchange."""
        return self.state.dealt

    @property
    def leader(self) -> int:
        """The seat that leads the first round."""
        return self.state.leader

    @property
    def phase(self) -> Phase:
        """``claim``, ``trade``, ``return``, ``play`` or ``over``."""
        return self.state.phase

    @property
    def turn(self) -> int | None:
        """The seat to act, None when the hand is over."""
        return self.state.turn

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def finish_order(self) -> list[int]:
        """Seats by place, first first; complete when the hand is over. During the hand:
        the places taken from the top, then those taken from the bottom (§11 cóng,
        ``no_two_last``)."""
        st = self.state
        return places.order(st.finish, st.bottom)

    @property
    def payments(self) -> list[Payment]:
        """Every payment of the hand so far (chop payments as they happen; places, stakes and
        penalties once it is over): who pays whom, how many units, and why."""
        return list(self.state.payments)

    @property
    def chops_at_stake(self) -> list[Chop]:
        """The chops of the round in play not paid yet: under ``chop_pay = "chain"`` (chặt
        chồng, §11) the owner of the last one pays the last chopper the worth of all of them
        when the round ends; empty under the other rules."""
        return list(self.state.ledger.chops)

    @property
    def cong(self) -> list[int]:
        """The seats that were cóng (§11): placed last at once for never playing a card."""
        return list(self.state.cong)

    def is_out(self, seat: int) -> bool:
        """Whether a seat has taken its place (played out, cóng, or out on twos)."""
        return self.state.out[seat]

    @property
    def winner(self) -> int | None:
        st = self.state
        return st.finish[0] if st.finish else None

    @property
    def instant_win(self) -> tuple[int, str] | None:
        """(seat, win) when the hand was won by an instant win."""
        return self.state.instant

    @property
    def scores(self) -> list[int]:
        """Units won (+) or paid (-) per seat in this hand; all zero until it is over."""
        st = self.state
        return list(st.scores) if st.scores is not None else [0] * self.players

    @property
    def table(self) -> Play | None:
        """The play to beat, None when the next play is a lead."""
        return self.state.table

    @property
    def table_seat(self) -> int | None:
        """The seat that made the play to beat."""
        return self.state.table_seat

    @property
    def passed(self) -> list[bool]:
        """Per seat: has it passed in this round."""
        return list(self.state.passed)

    @property
    def stacking(self) -> bool:
        """Whether the turn now is a stacking turn (§5): higher plays of the same shape, or pass."""
        return self.state.stacking

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every action so far as (seat, action), automatic ones (gifts, claims) included."""
        return list(self.state.history)

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted low to high in the rules' card order."""
        check_seat(seat, self.players, "seat")
        return self.state.held(seat)

    def hand_text(self, seat: int) -> str:
        st = self.state
        check_seat(seat, self.players, "seat")
        return " ".join(KEY_TEXT[st.order][k] for k in st.hands[seat])

    def counts(self) -> list[int]:
        """How many cards each seat holds."""
        return [len(h) for h in self.state.hands]

    # ================================================================== legal actions
    def legal_plays(self, seat: int | None = None) -> list[Move]:
        """Every distinct legal action of ``seat`` (default: the seat to act) now.

        For a seat that is not on turn this lists its out-of-turn chops (§6) and
        free chops (§11), and in a trade the answers it owes; otherwise it is empty.
        In a mutual-trading turn the offers come as a lazy :class:`TradeOffers`
        sequence (see :meth:`trade_decision` for the same choice as a structure).
        """
        st = self.state
        if seat is None:
            seat = st.turn
            if seat is None:
                return []
        else:
            check_seat(seat, self.players, "seat")
        if st.phase == "play":
            return list(legal_now(self.rules, st, seat))  # a list of its own: the caller may change it
        return self._legal_other(seat)

    def _legal_other(self, seat: int) -> list[Move]:
        """The legal actions of the phases before play (claims, returns, trades)."""
        st = self.state
        if seat != st.turn:
            return []
        if st.phase == "claim":
            return legal_claims(self.rules, st, seat)
        if st.phase == "return":
            return trading.legal_returns(st, seat)
        if st.phase == "trade":
            return trading.legal_trade(st, seat)
        return []

    def free_chop_offered(self, seat: int) -> bool:
        """Whether ``seat`` (not on turn) is offered a free chop now (§11 ``free_chops``):
        every such seat is asked, whatever it holds."""
        return free_open(self.rules, self.state, seat)

    def out_of_turn_seats(self) -> list[int]:
        """Seats offered a chop out of turn right now, in the order that gives them priority:
        those that hold one (the turn API asks :meth:`out_of_turn_asked`).

        Out-of-turn chops (``chop_out_of_turn``, §6): the seats that hold one, in turn order
        after the player of the target. Free chops (``free_chops``, §11): every seat the rule
        names, whatever it holds (so that the offer reveals nothing), in turn order from the
        seat to act; such a seat may answer with no chop."""
        return out_of_turn_seats(self.rules, self.state)

    def out_of_turn_asked(self) -> list[int]:
        """Seats asked out of turn right now, in the order that gives them priority: those the
        turn API (:mod:`tienlen.turns`) asks before the seat on turn, each with its chops (maybe
        none) and ``pass``. Unlike :meth:`out_of_turn_seats` it reads only what every seat
        sees: under ``chop_out_of_turn`` (§6) every seat the rules let chop now, whatever it
        holds, in turn order after the player of the target; under ``free_chops`` (§11) every
        seat offered a free chop, and those, in turn order from the seat to act."""
        return out_of_turn_asked(self.rules, self.state)

    def trade_decision(self, seat: int | None = None) -> TradeDecision | None:
        """The mutual-trading decision of ``seat`` (default: the seat to act) as a small
        structure, or None when it has none: what :meth:`legal_plays` lists one by one."""
        st = self.state
        return trading.trade_decision(self.rules, st, st.turn if seat is None else seat)

    # ================================================================== acting
    def play(self, action: str | Move, seat: int | None = None) -> None:
        """Make an action for ``seat`` (default: the seat to act).

        Raises :class:`IllegalPlay` with the reason, leaving the game unchanged,
        when the action is not allowed now.
        """
        st = self.state
        if seat is None:
            if st.turn is None:
                raise IllegalPlay("the hand is over: no more plays")
            seat = st.turn
        else:
            check_seat(seat, self.players, "seat", IllegalPlay)
        move = self._normalize(action)
        if isinstance(move, Action) and move.kind in _CHECKED_DIRECTLY:
            # trades and returns are checked directly: listing them all is costly
            if not trading.action_legal(st, seat, move):
                raise self._illegal(seat, move)
            self._apply(seat, move)
            return
        legal = legal_now(self.rules, st, seat) if st.phase == "play" else self._legal_other(seat)
        for listed in legal:  # most callers give back a move of the list: found by identity
            if listed is move:
                self._apply(seat, move)
                return
        try:
            index = legal.index(move)
        except ValueError:
            raise self._illegal(seat, move) from None
        self._apply(seat, legal[index])

    def push(self, move: Move, seat: int | None = None) -> None:
        """Apply an action taken from :meth:`legal_plays` without checking it (for search)."""
        if seat is None:
            seat = self.state.turn
            assert seat is not None
        self._apply(seat, move)

    def can_play(self, action: str | Move, seat: int | None = None) -> bool:
        """Whether an action is legal now (never raises for a well-formed action)."""
        try:
            self.verify(action, seat)
        except IllegalPlay:
            return False
        return True

    def verify(self, action: str | Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalPlay` with the reason if the action is not legal now."""
        st = self.state
        if seat is None:
            if st.turn is None:
                raise IllegalPlay("the hand is over: no more plays")
            seat = st.turn
        else:
            check_seat(seat, self.players, "seat", IllegalPlay)
        move = self._normalize(action)
        if isinstance(move, Action) and move.kind in _CHECKED_DIRECTLY:
            ok = trading.action_legal(st, seat, move)
        else:
            ok = move in self.legal_plays(seat)
        if not ok:
            raise self._illegal(seat, move)

    def _normalize(self, action: str | Move) -> Move:
        if isinstance(action, str):
            try:
                return parse_move(action, self.rules)
            except CardError as exc:
                unreadable = UnreadableAction(str(exc))
                unreadable.reason = exc.reason
                raise unreadable from None
        if isinstance(action, Play):
            if action.order == self.state.order and (action.shape is not None or not action.keys):
                return action
            return Play.from_cards(action.cards, self.rules)
        if isinstance(action, Action):
            return action
        raise error(UnreadableAction, "err.action.object", text=repr(action))

    def _illegal(self, seat: int, move: Move) -> IllegalPlay:
        reason = explain_message(self, seat, move)
        err = IllegalPlay(render(reason))
        err.reason = reason
        return err

    def _apply(self, seat: int, move: Move) -> None:
        """Make a legal move: every action made goes through here, checked or not."""
        st = self.state
        st.legal_memo = None
        if isinstance(move, Play):
            apply_play(self.rules, st, seat, move)
        elif move.kind in CLAIM_KINDS:
            apply_claim(self.rules, st, seat, move)
        elif move.kind == "return":
            trading.apply_return(self.rules, st, seat, move)
        else:
            trading.apply_trade(self.rules, st, seat, move)

    def copy(self) -> Game:
        """An independent copy of the game (for search): the rules shared, the state copied."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        return other

    # ================================================================== views and records
    def view(self, seat: int) -> View:
        """What ``seat`` may know now: its own hand, the others' counts, the table, history."""
        return make_view(self, seat)

    def record(self) -> str:
        """This hand as a TOML record (docs/api.md §Records)."""
        return game_record(self)

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a one-hand record, checking every action (a session record of several
        hands is refused: read it with :meth:`Session.from_record`)."""
        return load_game(text, Game)

    def action_texts(self) -> list[str]:
        """The history as record lines: ``"SEAT ACTION"``."""
        return [f"{seat} {move}" for seat, move in self.state.history]

    def __repr__(self) -> str:
        st = self.state
        state = "over" if self.is_over else f"{st.phase}, turn {st.turn}"
        return f"<Game {self.rules.name} {self.players} players, {state}>"
