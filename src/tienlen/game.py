"""Game: one hand of Tiến Lên as a state machine (claims, trading, play, over).

>>> from tienlen import Game, Rules
>>> game = Game(Rules.preset("pagat"), hands=["3s 4s", "5h 6h", "7d 8d", "9c Tc"])
>>> game.turn, [str(p) for p in game.legal_plays()]
(0, ['3s'])
>>> game.play("3s"); game.turn
1
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Final

from . import places
from .actions import CLAIM_KINDS, Action, ActionKind, Move, Phase, TradeDecision, TradeOffers, parse_move
from .cards import CODE_TO_KEY, KEY_TEXT, KEY_TO_CODE, Card, full_deck, parse_cards
from .errors import ArgumentError, CardError, IllegalPlay, RulesError, UnreadableAction, error, reason_of
from .explain import explain_message
from .i18n import render
from .instant import instant_wins_of, win_priority
from .movegen import MoveGenerator, group_keys
from .payments import ChopLedger, Payment, end_payments, is_chop
from .rules import Rules
from .scoring import finish_order_first_out, hand_scores
from .shapes import PASS, Play

if TYPE_CHECKING:
    from .view import View

_CHECKED_DIRECTLY: Final[frozenset[ActionKind]] = frozenset(
    ("offer", "answer", "accept", "refuse", "done", "return"))
Exchange = tuple[int, int, int]  # (giver, receiver, number of cards)


def hand_size(rules: Rules, players: int) -> int:
    """How many cards each player is dealt under these rules."""
    if players == 2:
        return rules.hand_size_two
    if players == 3:
        return rules.hand_size_three
    if players == 4:
        return 13
    return 104 // players if rules.hand_size_big == "even" else 13


def packs_for(players: int) -> int:
    """One pack for 2-4 players, two packs shuffled together for 5-8."""
    return 1 if players <= 4 else 2


def check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise error(ArgumentError, "err.players", value=repr(players))
    return players


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
        self._named = names is not None
        self.names = _check_names(names, n)
        self.dealer = _check_seat(dealer, n, "dealer")
        self.first_hand = first_hand
        if rules.place_points and len(rules.place_points) != n:
            raise error(RulesError, "err.rules.place_points_players",
                        places=len(rules.place_points), players=n)
        self._mg = MoveGenerator(rules, packs_for(n))
        order = rules.suit_order
        self._order = order
        to_key = CODE_TO_KEY[order]
        hand_keys: list[list[int]] = []
        for seat, hand in enumerate(hands):
            try:
                cards = parse_cards(hand)
            except CardError as exc:
                raise error(CardError, "err.hand.seat", seat=seat, reason=reason_of(exc)) from None
            if not cards:
                raise error(CardError, "err.hand.empty", seat=seat)
            hand_keys.append(sorted(to_key[c.code] for c in cards))
        _check_copies(hand_keys, packs_for(n), order)
        self._hands = hand_keys
        self._groups: list[list[tuple[int, ...]] | None] = [None] * n
        # each seat's leads, filtered as its cards go (one pack only: keys never repeat)
        self._lead_cache: list[list[Play] | None] = [None] * n
        # the last seat's legal plays in the play phase, until the next action (see legal_plays)
        self._legal_memo: tuple[int, list[Move]] | None = None
        self._lead_gone: list[set[int]] = [set() for _ in range(n)]
        self._one_pack = packs_for(n) == 1
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in hand_keys)

        self._lowest_start = leader is None
        if leader is None:
            leader = self._lowest_holder()
        self.leader = _check_seat(leader, n, "leader")
        self._opening_lowest: int | None = None
        if self._lowest_start and (first_hand or rules.next_leader == "lowest"):
            self._opening_lowest = min(hand_keys[self.leader])

        # play state
        self._phase: Phase = "play"
        self._turn: int | None = None
        self._table: Play | None = None
        self._table_seat: int | None = None
        self._passed = [False] * n
        self._stacking = False  # the turn now is a stacking turn (§5)
        self._stack_seq = False  # a stack was played this round: the others only chop
        self._opening = True  # the next lead is the hand's opening lead
        self._first_play = True  # no cards have been played yet
        self._no_pass_lead = False  # the opener passed: the next leader must lead
        self._window = False  # an out-of-turn chop may be made now (§6)
        self._finish: list[int] = []  # places from the top, first out first
        self._bottom: list[int] = []  # places from the bottom (cóng, no_two_last): last first
        self._out = [False] * n  # placed: played out, cóng, or out on twos
        self._cong: list[int] = []
        self._payments: list[Payment] = []
        self._ledger = ChopLedger(rules)  # the chops of the round (§11 chop_pay)
        self._played_any = [False] * n
        self._counts_at_first_out: list[int] | None = None
        self._history: list[tuple[int, Move]] = []
        self._instant: tuple[int, str] | None = None
        self._scores: list[int] | None = None
        # claims
        self._claim_queue: list[int] = []
        self._claims: dict[int, str] = {}
        # mutual trading
        self._trade_done = [False] * n
        self._offered: set[tuple[int, int]] = set()
        self._pending: tuple[int, int, tuple[int, ...], tuple[int, ...] | None] | None = None
        self._trade_seat = self.leader
        # president returns: (receiver, giver, count)
        self._returns: list[Exchange] = []

        self._begin(exchange)

    # ================================================================== construction
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
        n = check_players(players)
        rng = random.Random(seed)
        if dealer is None:
            dealer = rng.randrange(n)
        _check_seat(dealer, n, "dealer")
        deck = full_deck(packs_for(n))
        rng.shuffle(deck)
        size = hand_size(rules, n)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(size * n):
            hands[(dealer + 1 + i) % n].append(deck[i])
        left = deck[size * n:]
        if rules.odd_card_to_leader and len(left) == 1:
            # the leader found from the dealt cards takes the odd card (and still holds the lowest)
            taker = leader if leader is not None else _lowest_holder_of(
                [sorted(CODE_TO_KEY[rules.suit_order][c.code] for c in h) for h in hands], dealer)
            hands[taker].append(left[0])
        return cls(rules, hands, leader=leader, dealer=dealer, first_hand=first_hand, names=names,
                   exchange=exchange)

    def _lowest_holder(self) -> int:
        return _lowest_holder_of(self._hands, self.dealer)

    def _begin(self, exchange: Sequence[Exchange]) -> None:
        n = self.players
        if exchange:
            for giver, receiver, count in exchange:
                _check_seat(giver, n, "exchange giver")
                _check_seat(receiver, n, "exchange receiver")
                hand = self._hands[giver]
                if not isinstance(count, int) or not 0 < count <= len(hand):
                    raise ArgumentError(f"exchange: seat {giver} cannot give {count!r} cards")
                gift = tuple(hand[-count:])
                self._move_cards(giver, receiver, gift)
                self._log(giver, Action("give", receiver, self._cards(gift)))
                self._returns.append((receiver, giver, count))
            self._phase = "return"
            self._turn = self._returns[0][0]
            return
        self._after_exchange()

    def _after_exchange(self) -> None:
        if self.rules.trading == "mutual":
            self._phase = "trade"
            self._turn = self._trade_seat
            return
        self._start_claims()

    def _allowed_wins(self) -> tuple[str, ...]:
        """The instant wins this hand may be won by: ``four_threes`` only in a hand whose
        opening names the lowest card (§11)."""
        wins = self.rules.instant_wins
        if "four_threes" in wins and self._opening_lowest is None:
            wins = tuple(w for w in wins if w != "four_threes")
        return wins

    def _start_claims(self) -> None:
        rules = self.rules
        if not rules.instant_wins or rules.trading != "none" or not self._one_pack:
            self._start_play()  # §7: no instant wins after a trade, nor with two packs
            return
        allowed = self._allowed_wins()
        claims = {}
        for s in self._seats_from(self.leader):
            if len(self.dealt[s]) == 13:
                wins = instant_wins_of(self._hands[s], allowed, self._order)
                if wins:
                    claims[s] = wins[0]
        if rules.instant_win_optional:
            if claims:  # only a seat that holds an instant win is asked to claim or decline
                self._phase = "claim"
                self._claim_queue = list(claims)
                self._turn = self._claim_queue[0]
                return
        elif claims:
            self._resolve_claims(claims, auto=True)
            return
        self._start_play()

    def _resolve_claims(self, claims: dict[int, str], auto: bool = False) -> None:
        if not claims:
            self._start_play()
            return
        seats = self._seats_from(self.leader)
        winner = min(claims, key=lambda s: win_priority(
            claims[s], self._hands[s], self.rules.instant_wins, seats.index(s)))
        if auto:
            self._log(winner, Action("claim", win=claims[winner]))
        self._instant = (winner, claims[winner])
        self._finish = [winner] + [s for s in seats if s != winner]
        self._end()

    def _start_play(self) -> None:
        self._phase = "play"
        low = self._opening_lowest
        if low is not None and low not in self._hands[self.leader]:
            # trading or an exchange moved the lowest card: its holder now leads (§3)
            self.leader = self._lowest_holder()
        self._turn = self.leader

    # ================================================================== reading the state
    @property
    def phase(self) -> Phase:
        """``claim``, ``trade``, ``return``, ``play`` or ``over``."""
        return self._phase

    @property
    def turn(self) -> int | None:
        """The seat to act, None when the hand is over."""
        return self._turn

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def finish_order(self) -> list[int]:
        """Seats by place, first first; complete when the hand is over. During the hand:
        the places taken from the top, then those taken from the bottom (§11 cóng,
        ``no_two_last``)."""
        return places.order(self._finish, self._bottom)

    @property
    def payments(self) -> list[Payment]:
        """Every payment of the hand so far (chop payments as they happen; places, stakes and
        penalties once it is over): who pays whom, how many units, and why."""
        return list(self._payments)

    @property
    def cong(self) -> list[int]:
        """The seats that were cóng (§11): placed last at once for never playing a card."""
        return list(self._cong)

    def is_out(self, seat: int) -> bool:
        """Whether a seat has taken its place (played out, cóng, or out on twos)."""
        return self._out[seat]

    @property
    def winner(self) -> int | None:
        return self._finish[0] if self._finish else None

    @property
    def instant_win(self) -> tuple[int, str] | None:
        """(seat, win) when the hand was won by an instant win."""
        return self._instant

    @property
    def scores(self) -> list[int]:
        """Units won (+) or paid (-) per seat in this hand; all zero until it is over."""
        return list(self._scores) if self._scores is not None else [0] * self.players

    @property
    def table(self) -> Play | None:
        """The play to beat, None when the next play is a lead."""
        return self._table

    @property
    def table_seat(self) -> int | None:
        """The seat that made the play to beat."""
        return self._table_seat

    @property
    def passed(self) -> list[bool]:
        """Per seat: has it passed in this round."""
        return list(self._passed)

    @property
    def stacking(self) -> bool:
        """Whether the turn now is a stacking turn (§5): higher plays of the same shape, or pass."""
        return self._stacking

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every action so far as (seat, action), automatic ones (gifts, claims) included."""
        return list(self._history)

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted low to high in the rules' card order."""
        _check_seat(seat, self.players, "seat")
        back = KEY_TO_CODE[self._order]
        return [Card(back[k]) for k in self._hands[seat]]

    def hand_text(self, seat: int) -> str:
        _check_seat(seat, self.players, "seat")
        return " ".join(KEY_TEXT[self._order][k] for k in self._hands[seat])

    def counts(self) -> list[int]:
        """How many cards each seat holds."""
        return [len(h) for h in self._hands]

    # ================================================================== legal actions
    def legal_plays(self, seat: int | None = None) -> list[Move]:
        """Every distinct legal action of ``seat`` (default: the seat to act) now.

        For a seat that is not on turn this lists its out-of-turn chops (§6) and
        free chops (§11), and in a trade the answers it owes; otherwise it is empty.
        In a mutual-trading turn the offers come as a lazy :class:`TradeOffers`
        sequence (see :meth:`trade_decision` for the same choice as a structure).
        """
        if seat is None:
            seat = self._turn
            if seat is None:
                return []
        else:
            _check_seat(seat, self.players, "seat")
        if self._phase == "play":
            return list(self._legal_now(seat))  # a list of its own: the caller may change it
        return self._legal_other(seat)

    def _legal_now(self, seat: int) -> list[Move]:
        """The play phase's legal plays of ``seat``, made once for each action (``play`` checks
        a move against the list its caller just asked for)."""
        memo = self._legal_memo
        if memo is not None and memo[0] == seat:
            return memo[1]
        legal: list[Move] = (self._legal_in_turn(seat) if seat == self._turn  # type: ignore[assignment]
                             else self._legal_out_of_turn(seat))
        self._legal_memo = (seat, legal)
        return legal

    def _legal_other(self, seat: int) -> list[Move]:
        """The legal actions of the phases before play (claims, returns, trades)."""
        phase = self._phase
        if seat != self._turn:
            return []
        if phase == "claim":
            wins = instant_wins_of(self._hands[seat], self._allowed_wins(), self._order)
            return [*(Action("claim", win=w) for w in wins), Action("decline")]
        if phase == "return":
            count, giver = self._returns[0][2], self._returns[0][1]
            return [Action("return", giver, self._cards(c))
                    for c in _distinct_subsets(self._hands[seat], count)]
        if phase == "trade":
            return self._legal_trade(seat)
        return []

    def _groups_of(self, seat: int) -> list[tuple[int, ...]]:
        groups = self._groups[seat]
        if groups is None:
            groups = self._groups[seat] = group_keys(self._hands[seat])
        return groups

    def _locked(self, seat: int) -> bool:
        return self._passed[seat] and (self.rules.pass_locks_out or self._stack_seq)

    def _legal_in_turn(self, seat: int) -> list[Play]:
        mg = self._mg
        groups = self._groups_of(seat)
        table = self._table
        if table is None:
            if self._opening and self._opening_lowest is not None:
                low = self._opening_lowest
                if self.rules.opening == "lowest_single":
                    plays = [Play((low,), "single", self._order)]
                elif self.rules.opening == "contains_lowest":
                    plays = [p for p in mg.leads(groups) if low in p.keys]
                else:
                    plays = mg.leads(groups)
            else:
                plays = self._leads(seat, groups)  # the seat's cache: not to be changed here
            if self._first_play and self.rules.opening_no_chain:
                plays = [p for p in plays if p.shape != "chain"]
            if self._may_pass_lead():
                plays = [*plays, PASS]
            return plays
        if self._stacking:
            plays = mg.same_shape_beats(groups, table)
        elif self._locked(seat):
            plays = mg.chops(groups, table)
        else:
            plays = mg.beats(groups, table, self._hands[seat])
        plays.append(PASS)
        return plays

    def _leads(self, seat: int, groups: list[tuple[int, ...]]) -> list[Play]:
        if not self._one_pack:
            return self._mg.leads(groups)
        cache = self._lead_cache[seat]
        if cache is None:
            cache = self._lead_cache[seat] = self._mg.leads(groups)
            self._lead_gone[seat].clear()
        else:
            gone = self._lead_gone[seat]
            if gone:
                cache = self._lead_cache[seat] = [p for p in cache if gone.isdisjoint(p.keys)]
                gone.clear()
        return cache

    def _may_pass_lead(self) -> bool:
        return (self._opening and self._opening_lowest is not None and self.rules.opening_may_pass
                and not self._no_pass_lead)

    def _out_of_turn_open(self, seat: int) -> bool:
        if not (self._window and self._phase == "play" and self._table is not None):
            return False
        if seat == self._turn or seat == self._table_seat or self._out[seat]:
            return False
        return not (self._locked(seat) and not self.rules.chop_after_pass)

    def _free_open(self, seat: int) -> bool:
        """§11 free chops: whether ``seat`` is offered one now (whatever it holds)."""
        table = self._table
        if not self.rules.free_chops or self._phase != "play" or table is None:
            return False
        if seat == self._turn or seat == self._table_seat or self._out[seat]:
            return False
        return self._mg.is_free_target(table)

    def free_chop_offered(self, seat: int) -> bool:
        """Whether ``seat`` (not on turn) is offered a free chop now (§11 ``free_chops``):
        every such seat is asked, whatever it holds."""
        return self._free_open(seat)

    def _legal_out_of_turn(self, seat: int) -> list[Play]:
        found: list[Play] = []
        if self._out_of_turn_open(seat):
            assert self._table is not None
            found = self._mg.chops(self._groups_of(seat), self._table, four_twos=False)
        if self._free_open(seat):
            assert self._table is not None
            seen = {p.keys for p in found}
            found += [p for p in self._mg.free_chops(self._groups_of(seat), self._table)
                      if p.keys not in seen]
        return found

    def out_of_turn_seats(self) -> list[int]:
        """Seats offered a chop out of turn right now, in the order that gives them priority:
        those that hold one (the turn API asks :meth:`out_of_turn_asked`).

        Out-of-turn chops (``chop_out_of_turn``, §6): the seats that hold one, in turn order
        after the player of the target. Free chops (``free_chops``, §11): every seat the rule
        names, whatever it holds (so that the offer reveals nothing), in turn order from the
        seat to act; such a seat may answer with no chop."""
        if self._phase != "play" or self._table_seat is None:
            return []
        if self.rules.free_chops and self._turn is not None and \
                self._mg.is_free_target(self._table):  # type: ignore[arg-type]
            return [s for s in self._seats_from(self._turn)[1:]
                    if self._free_open(s) or (self._out_of_turn_open(s)
                                              and self._legal_out_of_turn(s))]
        if not self._window:
            return []
        return [s for s in self._seats_from(self._table_seat)[1:]
                if self._out_of_turn_open(s) and self._legal_out_of_turn(s)]

    def out_of_turn_asked(self) -> list[int]:
        """Seats asked out of turn right now, in the order that gives them priority: those the
        turn API (:mod:`tienlen.turns`) asks before the seat on turn, each with its chops (maybe
        none) and ``pass``. Unlike :meth:`out_of_turn_seats` it reads only what every seat
        sees: under ``chop_out_of_turn`` (§6) every seat the rules let chop now, whatever it
        holds, in turn order after the player of the target; under ``free_chops`` (§11) every
        seat offered a free chop, and those, in turn order from the seat to act."""
        if self._phase != "play" or self._table_seat is None:
            return []
        if self.rules.free_chops and self._turn is not None and \
                self._mg.is_free_target(self._table):  # type: ignore[arg-type]
            return [s for s in self._seats_from(self._turn)[1:]
                    if self._free_open(s) or self._out_of_turn_open(s)]
        if not self._window:
            return []
        return [s for s in self._seats_from(self._table_seat)[1:] if self._out_of_turn_open(s)]

    def _legal_trade(self, seat: int) -> list[Move]:
        pending = self._pending
        if pending is not None:
            offerer, target, gift, answer = pending
            if answer is None:  # the target answers
                return [*(Action("answer", offerer, self._cards(c))
                          for c in _distinct_subsets(self._hands[seat], len(gift))),
                        Action("refuse", offerer)]
            return [Action("accept", target), Action("refuse", target)]
        partners = tuple(o for o in self._seats_from(seat)[1:] if (seat, o) not in self._offered)
        return TradeOffers(partners, self._cards(self._hands[seat]))  # type: ignore[return-value]

    def trade_decision(self, seat: int | None = None) -> TradeDecision | None:
        """The mutual-trading decision of ``seat`` (default: the seat to act) as a small
        structure, or None when it has none: what :meth:`legal_plays` lists one by one."""
        if seat is None:
            seat = self._turn
        if seat is None or self._phase != "trade" or seat != self._turn:
            return None
        hand = tuple(self.hand(seat))  # in the rules' card order
        pending = self._pending
        if pending is None:
            partners = tuple(o for o in self._seats_from(seat)[1:]
                             if (seat, o) not in self._offered)
            return TradeDecision("offer", hand, partners=partners)
        offerer, target, gift, answer = pending
        if answer is None:
            offered = tuple(sorted(self._cards(gift), key=self.rules.key))
            return TradeDecision("answer", hand, other=offerer, count=len(gift), offered=offered)
        return TradeDecision("settle", hand, other=target, count=len(gift))

    # ================================================================== acting
    def play(self, action: str | Move, seat: int | None = None) -> None:
        """Make an action for ``seat`` (default: the seat to act).

        Raises :class:`IllegalPlay` with the reason, leaving the game unchanged,
        when the action is not allowed now.
        """
        if seat is None:
            if self._turn is None:
                raise IllegalPlay("the hand is over: no more plays")
            seat = self._turn
        else:
            _check_seat(seat, self.players, "seat", IllegalPlay)
        move = self._normalize(action)
        if isinstance(move, Action) and move.kind in _CHECKED_DIRECTLY:
            # trades and returns are checked directly: listing them all is costly
            if not self._action_legal(seat, move):
                raise self._illegal(seat, move)
            self._apply(seat, move)
            return
        legal = self._legal_now(seat) if self._phase == "play" else self._legal_other(seat)
        try:
            index = legal.index(move)
        except ValueError:
            raise self._illegal(seat, move) from None
        self._apply(seat, legal[index])

    def _illegal(self, seat: int, move: Move) -> IllegalPlay:
        reason = explain_message(self, seat, move)
        err = IllegalPlay(render(reason))
        err.reason = reason
        return err

    def _holds(self, seat: int, cards: tuple[Card, ...]) -> bool:
        hand = list(self._hands[seat])
        try:
            for k in self._keys(cards):
                hand.remove(k)
        except ValueError:
            return False
        return True

    def _action_legal(self, seat: int, action: Action) -> bool:
        """Whether a trade or return action is legal now, without listing every one."""
        if seat != self._turn:
            return False
        kind, other, cards = action.kind, action.other, action.cards
        if self._phase == "return":
            _receiver, giver, count = self._returns[0]
            return (kind == "return" and other == giver and len(cards) == count
                    and self._holds(seat, cards))
        if self._phase != "trade":
            return False
        pending = self._pending
        if pending is None:
            if kind == "done":
                return True
            return (kind == "offer" and other is not None and 0 <= other < self.players
                    and other != seat and (seat, other) not in self._offered and bool(cards)
                    and self._holds(seat, cards))
        offerer, target, gift, answer = pending
        if answer is None:
            if kind == "refuse":
                return other == offerer
            return (kind == "answer" and other == offerer and len(cards) == len(gift)
                    and self._holds(seat, cards))
        return kind in ("accept", "refuse") and other == target

    def push(self, move: Move, seat: int | None = None) -> None:
        """Apply an action taken from :meth:`legal_plays` without checking it (for search)."""
        if seat is None:
            seat = self._turn
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
        if seat is None:
            if self._turn is None:
                raise IllegalPlay("the hand is over: no more plays")
            seat = self._turn
        else:
            _check_seat(seat, self.players, "seat", IllegalPlay)
        move = self._normalize(action)
        if isinstance(move, Action) and move.kind in _CHECKED_DIRECTLY:
            ok = self._action_legal(seat, move)
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
            if action.order == self._order and (action.shape is not None or not action.keys):
                return action
            return Play.from_cards(action.cards, self.rules)
        if isinstance(action, Action):
            return action
        raise error(UnreadableAction, "err.action.object", text=repr(action))

    def _apply(self, seat: int, move: Move) -> None:
        self._legal_memo = None
        if isinstance(move, Play):
            self._apply_play(seat, move)
        else:
            self._apply_action(seat, move)

    def _apply_play(self, seat: int, play: Play) -> None:
        self._history.append((seat, play))
        rules = self.rules
        if play.keys:
            free = (seat != self._turn and bool(rules.free_chops) and self._free_open(seat)
                    and any(p.matches(play) for p in rules.free_chops))
            if rules.chop_pay != "none" and self._table_seat is not None \
                    and self._table_seat != seat and is_chop(play, self._table):
                self._chopped(seat, self._table_seat, self._table, play)  # type: ignore[arg-type]
            if free:  # §11: after a free chop every pass mark clears
                self._passed = [False] * self.players
            hand = self._hands[seat]
            groups = self._groups[seat]
            self._lead_gone[seat].update(play.keys)
            for k in play.keys:
                hand.remove(k)
                if groups is not None:
                    g = list(groups[k >> 2])
                    g.remove(k)
                    groups[k >> 2] = tuple(g)
            self._played_any[seat] = True
            if self._stacking:
                self._stack_seq = True
            self._stacking = False
            self._table = play
            self._table_seat = seat
            self._opening = False
            self._first_play = False
            self._no_pass_lead = False
            if not rules.pass_locks_out and not self._stack_seq:
                self._passed = [False] * self.players
            self._window = rules.chop_out_of_turn and self._mg.is_entry_target(play)
            if not hand:
                self._went_out(seat, play)
                if self._phase == "over":
                    return
            self._advance(seat)
            return
        # a pass
        self._window = False
        if self._stacking:
            self._end_round(seat)
            return
        if self._table is None:  # the opener passes (opening_may_pass)
            self._passed[seat] = True
            self._opening = False
            self._no_pass_lead = True
            self._turn = self._next_with_cards(seat)
            return
        self._passed[seat] = True
        self._advance(seat)

    def _advance(self, after: int) -> None:
        """Give the turn to the next seat that may act, or end the round."""
        n = self.players
        stop = self._table_seat
        rules = self.rules
        # §5: a passer keeps a chop-or-pass turn while a chop target is on the table with
        # chop_after_pass, and (the resolution for stacks) after a stacked play when passes
        # do not lock out
        chop_turns = (rules.chop_after_pass or (self._stack_seq and not rules.pass_locks_out)) \
            and self._table is not None and self._mg.is_entry_target(self._table)
        s = after
        for _ in range(n):
            s = (s + 1) % n
            if s == stop:
                break
            if self._out[s]:
                continue
            if self._locked(s) and not chop_turns:
                continue
            self._turn = s
            return
        self._round_over()

    def _round_over(self) -> None:
        last = self._table_seat
        assert last is not None
        if self.rules.stacking and not self._out[last]:
            self._turn = last
            self._stacking = True
            return
        self._end_round(last)

    def _end_round(self, last: int) -> None:
        self._settle_chops()
        self._table = None
        self._table_seat = None
        self._passed = [False] * self.players
        self._stacking = False
        self._stack_seq = False
        self._window = False
        self._turn = last if not self._out[last] else self._next_with_cards(last)

    def _next_with_cards(self, seat: int) -> int:
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not self._out[s]:
                return s
        return seat

    def _went_out(self, seat: int, play: Play) -> None:
        rules = self.rules
        self._out[seat] = True
        if places.takes_bottom_place(rules, play.keys):
            self._bottom.append(seat)  # §11: out on twos takes the lowest free place
        else:
            self._finish.append(seat)
            if len(self._finish) == 1:
                self._counts_at_first_out = [len(h) for h in self._hands]
                if rules.end_at == "first_out":
                    self._finish = finish_order_first_out(seat, self._hands, self.players)
                    self._end()
                    return
                if rules.cong:
                    self._place_cong(seat)
        holding = [s for s in self._seats_from(seat) if not self._out[s]]
        if len(holding) <= 1:
            self._finish.extend(holding)
            self._end()

    def _place_cong(self, winner: int) -> None:
        """§11 cóng: every player who has put down no card takes the lowest free place at once
        (several: the first in turn order after the winner takes the higher)."""
        cong = places.cong_seats(self._seats_from(winner)[1:], self._out, self._played_any)
        for s in reversed(cong):
            self._bottom.append(s)
            self._out[s] = True
        self._cong = cong

    # ------------------------------------------------------------------ payments
    def _chopped(self, chopper: int, owner: int, table: Play, bomb: Play) -> None:
        """A chop (§11 chop_pay): paid at once (``each``) or kept for the round's end."""
        paid = self._ledger.chopped(chopper, owner, table, bomb)
        if paid is not None:
            self._pay([paid])

    def _settle_chops(self) -> None:
        """The round is over: chặt chồng is settled (§11)."""
        paid = self._ledger.settle()
        if paid is not None:
            self._pay([paid])

    def _pay(self, payments: Iterable[Payment]) -> None:
        """Make payments now (each marked with the length of the history so far)."""
        at = len(self._history)
        self._payments.extend(dataclasses.replace(p, at=at) for p in payments)

    def _end(self) -> None:
        self._settle_chops()  # the end of the hand ends the round
        if self._bottom:
            self._finish = places.order(self._finish, self._bottom)
            self._bottom = []
        self._phase = "over"
        self._turn = None
        self._window = False
        self._stacking = False
        self._pay(end_payments(self))
        self._scores = hand_scores(self)

    def _apply_action(self, seat: int, action: Action) -> None:
        self._log(seat, action)
        kind = action.kind
        if kind in CLAIM_KINDS:
            if kind == "claim" and action.win is not None:
                self._claims[seat] = action.win
            self._claim_queue.pop(0)
            if self._claim_queue:
                self._turn = self._claim_queue[0]
            else:
                self._resolve_claims(dict(self._claims))
            return
        if kind == "return":
            receiver, giver, _count = self._returns.pop(0)
            self._move_cards(receiver, giver, self._keys(action.cards))
            if self._returns:
                self._turn = self._returns[0][0]
            else:
                self._after_exchange()
            return
        self._apply_trade(seat, action)

    def _apply_trade(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "done":
            self._trade_done[seat] = True
            self._next_trader()
            return
        if kind == "offer":
            assert action.other is not None
            self._offered.add((seat, action.other))
            self._pending = (seat, action.other, self._keys(action.cards), None)
            self._turn = action.other
            return
        assert self._pending is not None
        offerer, target, gift, _answer = self._pending
        if kind == "answer":
            self._pending = (offerer, target, gift, self._keys(action.cards))
            self._turn = offerer
            return
        if kind == "accept":
            answer = self._pending[3]
            assert answer is not None
            self._move_cards(offerer, target, gift)
            self._move_cards(target, offerer, answer)
        self._pending = None  # accepted or refused: the trade is settled
        self._next_trader()

    def _next_trader(self) -> None:
        start = self._trade_seat
        for s in [*self._seats_from(start)[1:], start]:
            if not self._trade_done[s]:
                self._trade_seat = s
                self._turn = s
                return
        self._start_claims()

    # ================================================================== helpers
    def _log(self, seat: int, move: Move) -> None:
        self._history.append((seat, move))

    def _cards(self, keys: Iterable[int]) -> tuple[Card, ...]:
        back = KEY_TO_CODE[self._order]
        return tuple(sorted(Card(back[k]) for k in keys))

    def _keys(self, cards: Iterable[Card]) -> tuple[int, ...]:
        to_key = CODE_TO_KEY[self._order]
        return tuple(sorted(to_key[c.code] for c in cards))

    def _move_cards(self, giver: int, receiver: int, keys: Iterable[int]) -> None:
        for k in keys:
            self._hands[giver].remove(k)
            self._hands[receiver].append(k)
        self._hands[receiver].sort()
        self._groups[giver] = self._groups[receiver] = None
        self._lead_cache[giver] = self._lead_cache[receiver] = None

    def _seats_from(self, seat: int) -> list[int]:
        """All seats in turn order starting with ``seat``."""
        n = self.players
        return [(seat + i) % n for i in range(n)]

    def copy(self) -> Game:
        """An independent copy of the game (for search)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._groups = [None if g is None else list(g) for g in self._groups]
        other._lead_cache = list(self._lead_cache)
        other._legal_memo = None
        other._lead_gone = [set(g) for g in self._lead_gone]
        other._passed = list(self._passed)
        other._finish = list(self._finish)
        other._bottom = list(self._bottom)
        other._out = list(self._out)
        other._cong = list(self._cong)
        other._payments = list(self._payments)
        other._ledger = self._ledger.copy()
        other._played_any = list(self._played_any)
        other._history = list(self._history)
        other._claim_queue = list(self._claim_queue)
        other._claims = dict(self._claims)
        other._trade_done = list(self._trade_done)
        other._offered = set(self._offered)
        other._returns = list(self._returns)
        if self._scores is not None:
            other._scores = list(self._scores)
        return other

    # ================================================================== views and records
    def view(self, seat: int) -> View:
        """What ``seat`` may know now: its own hand, the others' counts, the table, history."""
        from .view import make_view

        return make_view(self, seat)

    def record(self) -> str:
        """This hand as a TOML record (docs/api.md §Records)."""
        from .record import game_record

        return game_record(self)

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a one-hand record, checking every action (a session record of several
        hands is refused: read it with :meth:`Session.from_record`)."""
        from .record import load_game

        return load_game(text)

    def action_texts(self) -> list[str]:
        """The history as record lines: ``"SEAT ACTION"``."""
        return [f"{seat} {move}" for seat, move in self._history]

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self._phase}, turn {self._turn}"
        return f"<Game {self.rules.name} {self.players} players, {state}>"



def _check_seat(seat: object, n: int, what: str,
                error: type[Exception] = ArgumentError) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise error(f"{what} must be a seat number from 0 to {n - 1}, not {seat!r}")
    return seat


def _check_names(names: Sequence[str] | None, n: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Player {i + 1}" for i in range(n))
    if isinstance(names, str) or len(names) != n or not all(isinstance(x, str) and x for x in names):
        raise ArgumentError(f"names must be {n} non-empty names, one per seat")
    return tuple(names)


def _check_copies(hands: list[list[int]], packs: int, order: str) -> None:
    seen: dict[int, int] = {}
    for hand in hands:
        for k in hand:
            seen[k] = seen.get(k, 0) + 1
    for k, count in seen.items():
        if count > packs:
            form = "one" if packs == 1 else "other"
            raise error(CardError, f"err.hand.copies.{form}", card=KEY_TEXT[order][k], count=count,
                        packs=packs)


def _lowest_holder_of(hands: list[list[int]], dealer: int) -> int:
    n = len(hands)
    best: tuple[int, int] | None = None
    for i in range(n):
        seat = (dealer + 1 + i) % n  # dealing order: the first in dealing order wins ties
        if hands[seat]:
            low = min(hands[seat])
            if best is None or low < best[0]:
                best = (low, seat)
    assert best is not None
    return best[1]


def _distinct_subsets(keys: list[int], size: int) -> list[tuple[int, ...]]:
    return list(dict.fromkeys(combinations(keys, size)))

