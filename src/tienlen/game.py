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
from .state import Exchange as Exchange
from .state import PlayState, check_names, check_seat, seats_from
from .state import packs_for as packs_for

if TYPE_CHECKING:
    from .view import View

_CHECKED_DIRECTLY: Final[frozenset[ActionKind]] = frozenset(
    ("offer", "answer", "accept", "refuse", "done", "return"))


def hand_size(rules: Rules, players: int) -> int:
    """How many cards each player is dealt under these rules."""
    if players == 2:
        return rules.hand_size_two
    if players == 3:
        return rules.hand_size_three
    if players == 4:
        return 13
    return 104 // players if rules.hand_size_big == "even" else 13


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
        self.names = check_names(names, n)
        self.dealer = check_seat(dealer, n, "dealer")
        self.first_hand = first_hand
        if rules.place_points and len(rules.place_points) != n:
            raise error(RulesError, "err.rules.place_points_players",
                        places=len(rules.place_points), players=n)
        order = rules.suit_order
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
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in hand_keys)
        st = self.state = PlayState(hand_keys, ChopLedger(rules))
        st.order = order
        st.one_pack = packs_for(n) == 1
        st.mg = MoveGenerator(rules, packs_for(n))
        st.named = names is not None
        st.lowest_start = leader is None
        if leader is None:
            leader = _lowest_holder_of(hand_keys, self.dealer)
        st.leader = st.trade_seat = check_seat(leader, n, "leader")
        st.opening_lowest = None
        if st.lowest_start and (first_hand or rules.next_leader == "lowest"):
            st.opening_lowest = min(hand_keys[leader])
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
        check_seat(dealer, n, "dealer")
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
        st = self.state
        return _lowest_holder_of(st.hands, self.dealer)

    def _begin(self, exchange: Sequence[Exchange]) -> None:
        st = self.state
        n = self.players
        if exchange:
            for giver, receiver, count in exchange:
                check_seat(giver, n, "exchange giver")
                check_seat(receiver, n, "exchange receiver")
                hand = st.hands[giver]
                if not isinstance(count, int) or not 0 < count <= len(hand):
                    raise ArgumentError(f"exchange: seat {giver} cannot give {count!r} cards")
                gift = tuple(hand[-count:])
                self._move_cards(giver, receiver, gift)
                self._log(giver, Action("give", receiver, self._cards(gift)))
                st.returns.append((receiver, giver, count))
            st.phase = "return"
            st.turn = st.returns[0][0]
            return
        self._after_exchange()

    def _after_exchange(self) -> None:
        st = self.state
        if self.rules.trading == "mutual":
            st.phase = "trade"
            st.turn = st.trade_seat
            return
        self._start_claims()

    def _allowed_wins(self) -> tuple[str, ...]:
        """The instant wins this hand may be won by: ``four_threes`` only in a hand whose
        opening names the lowest card (§11)."""
        st = self.state
        wins = self.rules.instant_wins
        if "four_threes" in wins and st.opening_lowest is None:
            wins = tuple(w for w in wins if w != "four_threes")
        return wins

    def _start_claims(self) -> None:
        st = self.state
        rules = self.rules
        if not rules.instant_wins or rules.trading != "none" or not st.one_pack:
            self._start_play()  # §7: no instant wins after a trade, nor with two packs
            return
        allowed = self._allowed_wins()
        claims = {}
        for s in self._seats_from(st.leader):
            if len(self.dealt[s]) == 13:
                wins = instant_wins_of(st.hands[s], allowed, st.order)
                if wins:
                    claims[s] = wins[0]
        if rules.instant_win_optional:
            if claims:  # only a seat that holds an instant win is asked to claim or decline
                st.phase = "claim"
                st.claim_queue = list(claims)
                st.turn = st.claim_queue[0]
                return
        elif claims:
            self._resolve_claims(claims, auto=True)
            return
        self._start_play()

    def _resolve_claims(self, claims: dict[int, str], auto: bool = False) -> None:
        st = self.state
        if not claims:
            self._start_play()
            return
        seats = self._seats_from(st.leader)
        winner = min(claims, key=lambda s: win_priority(
            claims[s], st.hands[s], self.rules.instant_wins, seats.index(s)))
        if auto:
            self._log(winner, Action("claim", win=claims[winner]))
        st.instant = (winner, claims[winner])
        st.finish = [winner] + [s for s in seats if s != winner]
        self._end()

    def _start_play(self) -> None:
        st = self.state
        st.phase = "play"
        low = st.opening_lowest
        if low is not None and low not in st.hands[st.leader]:
            # trading or an exchange moved the lowest card: its holder now leads (§3)
            st.leader = self._lowest_holder()
        st.turn = st.leader

    # ================================================================== reading the state
    @property
    def phase(self) -> Phase:
        """``claim``, ``trade``, ``return``, ``play`` or ``over``."""
        st = self.state
        return st.phase

    @property
    def turn(self) -> int | None:
        """The seat to act, None when the hand is over."""
        st = self.state
        return st.turn

    @property
    def is_over(self) -> bool:
        st = self.state
        return st.phase == "over"

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
        st = self.state
        return list(st.payments)

    @property
    def cong(self) -> list[int]:
        """The seats that were cóng (§11): placed last at once for never playing a card."""
        st = self.state
        return list(st.cong)

    def is_out(self, seat: int) -> bool:
        """Whether a seat has taken its place (played out, cóng, or out on twos)."""
        st = self.state
        return st.out[seat]

    @property
    def winner(self) -> int | None:
        st = self.state
        return st.finish[0] if st.finish else None

    @property
    def instant_win(self) -> tuple[int, str] | None:
        """(seat, win) when the hand was won by an instant win."""
        st = self.state
        return st.instant

    @property
    def scores(self) -> list[int]:
        """Units won (+) or paid (-) per seat in this hand; all zero until it is over."""
        st = self.state
        return list(st.scores) if st.scores is not None else [0] * self.players

    @property
    def table(self) -> Play | None:
        """The play to beat, None when the next play is a lead."""
        st = self.state
        return st.table

    @property
    def table_seat(self) -> int | None:
        """The seat that made the play to beat."""
        st = self.state
        return st.table_seat

    @property
    def passed(self) -> list[bool]:
        """Per seat: has it passed in this round."""
        st = self.state
        return list(st.passed)

    @property
    def stacking(self) -> bool:
        """Whether the turn now is a stacking turn (§5): higher plays of the same shape, or pass."""
        st = self.state
        return st.stacking

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every action so far as (seat, action), automatic ones (gifts, claims) included."""
        st = self.state
        return list(st.history)

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted low to high in the rules' card order."""
        st = self.state
        check_seat(seat, self.players, "seat")
        back = KEY_TO_CODE[st.order]
        return [Card(back[k]) for k in st.hands[seat]]

    def hand_text(self, seat: int) -> str:
        st = self.state
        check_seat(seat, self.players, "seat")
        return " ".join(KEY_TEXT[st.order][k] for k in st.hands[seat])

    def counts(self) -> list[int]:
        """How many cards each seat holds."""
        st = self.state
        return [len(h) for h in st.hands]

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
            return list(self._legal_now(seat))  # a list of its own: the caller may change it
        return self._legal_other(seat)

    def _legal_now(self, seat: int) -> list[Move]:
        """The play phase's legal plays of ``seat``, made once for each action (``play`` checks
        a move against the list its caller just asked for)."""
        st = self.state
        memo = st.legal_memo
        if memo is not None and memo[0] == seat:
            return memo[1]
        legal: list[Move] = (self._legal_in_turn(seat) if seat == st.turn  # type: ignore[assignment]
                             else self._legal_out_of_turn(seat))
        st.legal_memo = (seat, legal)
        return legal

    def _legal_other(self, seat: int) -> list[Move]:
        """The legal actions of the phases before play (claims, returns, trades)."""
        st = self.state
        phase = st.phase
        if seat != st.turn:
            return []
        if phase == "claim":
            wins = instant_wins_of(st.hands[seat], self._allowed_wins(), st.order)
            return [*(Action("claim", win=w) for w in wins), Action("decline")]
        if phase == "return":
            count, giver = st.returns[0][2], st.returns[0][1]
            return [Action("return", giver, self._cards(c))
                    for c in _distinct_subsets(st.hands[seat], count)]
        if phase == "trade":
            return self._legal_trade(seat)
        return []

    def _groups_of(self, seat: int) -> list[tuple[int, ...]]:
        st = self.state
        groups = st.groups[seat]
        if groups is None:
            groups = st.groups[seat] = group_keys(st.hands[seat])
        return groups

    def _locked(self, seat: int) -> bool:
        st = self.state
        return st.passed[seat] and (self.rules.pass_locks_out or st.stack_seq)

    def _legal_in_turn(self, seat: int) -> list[Play]:
        st = self.state
        mg = st.mg
        groups = st.groups[seat]
        if groups is None:
            groups = st.groups[seat] = group_keys(st.hands[seat])
        table = st.table
        if table is None:
            if st.opening and st.opening_lowest is not None:
                low = st.opening_lowest
                if self.rules.opening == "lowest_single":
                    plays = [Play((low,), "single", st.order)]
                elif self.rules.opening == "contains_lowest":
                    plays = [p for p in mg.leads(groups) if low in p.keys]
                else:
                    plays = mg.leads(groups)
            else:
                plays = self._leads(seat, groups)  # the seat's cache: not to be changed here
            if st.first_play and self.rules.opening_no_chain:
                plays = [p for p in plays if p.shape != "chain"]
            if self._may_pass_lead():
                plays = [*plays, PASS]
            return plays
        if st.stacking:
            plays = mg.same_shape_beats(groups, table)
        elif st.passed[seat] and (self.rules.pass_locks_out or st.stack_seq):
            plays = mg.chops(groups, table)
        else:
            plays = mg.beats(groups, table, st.hands[seat])
        plays.append(PASS)
        return plays

    def _leads(self, seat: int, groups: list[tuple[int, ...]]) -> list[Play]:
        st = self.state
        if not st.one_pack:
            return st.mg.leads(groups)
        cache = st.lead_cache[seat]
        if cache is None:
            cache = st.lead_cache[seat] = st.mg.leads(groups)
            st.lead_gone[seat].clear()
        else:
            gone = st.lead_gone[seat]
            if gone:
                cache = st.lead_cache[seat] = [p for p in cache if gone.isdisjoint(p.keys)]
                gone.clear()
        return cache

    def _may_pass_lead(self) -> bool:
        st = self.state
        return (st.opening and st.opening_lowest is not None and self.rules.opening_may_pass
                and not st.no_pass_lead)

    def _out_of_turn_open(self, seat: int) -> bool:
        st = self.state
        if not (st.window and st.phase == "play" and st.table is not None):
            return False
        if seat == st.turn or seat == st.table_seat or st.out[seat]:
            return False
        return not (self._locked(seat) and not self.rules.chop_after_pass)

    def _free_open(self, seat: int) -> bool:
        """§11 free chops: whether ``seat`` is offered one now (whatever it holds)."""
        st = self.state
        table = st.table
        if not self.rules.free_chops or st.phase != "play" or table is None:
            return False
        if seat == st.turn or seat == st.table_seat or st.out[seat]:
            return False
        return st.mg.is_free_target(table)

    def free_chop_offered(self, seat: int) -> bool:
        """Whether ``seat`` (not on turn) is offered a free chop now (§11 ``free_chops``):
        every such seat is asked, whatever it holds."""
        return self._free_open(seat)

    def _legal_out_of_turn(self, seat: int) -> list[Play]:
        st = self.state
        found: list[Play] = []
        if self._out_of_turn_open(seat):
            assert st.table is not None
            found = st.mg.chops(self._groups_of(seat), st.table, four_twos=False)
        if self._free_open(seat):
            assert st.table is not None
            seen = {p.keys for p in found}
            found += [p for p in st.mg.free_chops(self._groups_of(seat), st.table)
                      if p.keys not in seen]
        return found

    def out_of_turn_seats(self) -> list[int]:
        """Seats offered a chop out of turn right now, in the order that gives them priority:
        those that hold one (the turn API asks :meth:`out_of_turn_asked`).

        Out-of-turn chops (``chop_out_of_turn``, §6): the seats that hold one, in turn order
        after the player of the target. Free chops (``free_chops``, §11): every seat the rule
        names, whatever it holds (so that the offer reveals nothing), in turn order from the
        seat to act; such a seat may answer with no chop."""
        return [s for s in self.out_of_turn_asked()
                if self._free_open(s) or self._legal_out_of_turn(s)]

    def out_of_turn_asked(self) -> list[int]:
        """Seats asked out of turn right now, in the order that gives them priority: those the
        turn API (:mod:`tienlen.turns`) asks before the seat on turn, each with its chops (maybe
        none) and ``pass``. Unlike :meth:`out_of_turn_seats` it reads only what every seat
        sees: under ``chop_out_of_turn`` (§6) every seat the rules let chop now, whatever it
        holds, in turn order after the player of the target; under ``free_chops`` (§11) every
        seat offered a free chop, and those, in turn order from the seat to act."""
        st = self.state
        if st.phase != "play" or st.table_seat is None:
            return []
        if self.rules.free_chops and st.turn is not None and \
                st.mg.is_free_target(st.table):  # type: ignore[arg-type]
            return [s for s in self._seats_from(st.turn)[1:]
                    if self._free_open(s) or self._out_of_turn_open(s)]
        if not st.window:
            return []
        return [s for s in self._seats_from(st.table_seat)[1:] if self._out_of_turn_open(s)]

    def _legal_trade(self, seat: int) -> list[Move]:
        st = self.state
        pending = st.pending
        if pending is not None:
            offerer, target, gift, answer = pending
            if answer is None:  # the target answers
                return [*(Action("answer", offerer, self._cards(c))
                          for c in _distinct_subsets(st.hands[seat], len(gift))),
                        Action("refuse", offerer)]
            return [Action("accept", target), Action("refuse", target)]
        partners = tuple(o for o in self._seats_from(seat)[1:] if (seat, o) not in st.offered)
        return TradeOffers(partners, self._cards(st.hands[seat]))  # type: ignore[return-value]

    def trade_decision(self, seat: int | None = None) -> TradeDecision | None:
        """The mutual-trading decision of ``seat`` (default: the seat to act) as a small
        structure, or None when it has none: what :meth:`legal_plays` lists one by one."""
        st = self.state
        if seat is None:
            seat = st.turn
        if seat is None or st.phase != "trade" or seat != st.turn:
            return None
        hand = tuple(self.hand(seat))  # in the rules' card order
        pending = st.pending
        if pending is None:
            partners = tuple(o for o in self._seats_from(seat)[1:]
                             if (seat, o) not in st.offered)
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
            if not self._action_legal(seat, move):
                raise self._illegal(seat, move)
            self._apply(seat, move)
            return
        legal = self._legal_now(seat) if st.phase == "play" else self._legal_other(seat)
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
        st = self.state
        hand = list(st.hands[seat])
        try:
            for k in self._keys(cards):
                hand.remove(k)
        except ValueError:
            return False
        return True

    def _action_legal(self, seat: int, action: Action) -> bool:
        """Whether a trade or return action is legal now, without listing every one."""
        st = self.state
        if seat != st.turn:
            return False
        kind, other, cards = action.kind, action.other, action.cards
        if st.phase == "return":
            _receiver, giver, count = st.returns[0]
            return (kind == "return" and other == giver and len(cards) == count
                    and self._holds(seat, cards))
        if st.phase != "trade":
            return False
        pending = st.pending
        if pending is None:
            if kind == "done":
                return True
            return (kind == "offer" and other is not None and 0 <= other < self.players
                    and other != seat and (seat, other) not in st.offered and bool(cards)
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
        st = self.state
        if seat is None:
            seat = st.turn
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
            ok = self._action_legal(seat, move)
        else:
            ok = move in self.legal_plays(seat)
        if not ok:
            raise self._illegal(seat, move)

    def _normalize(self, action: str | Move) -> Move:
        st = self.state
        if isinstance(action, str):
            try:
                return parse_move(action, self.rules)
            except CardError as exc:
                unreadable = UnreadableAction(str(exc))
                unreadable.reason = exc.reason
                raise unreadable from None
        if isinstance(action, Play):
            if action.order == st.order and (action.shape is not None or not action.keys):
                return action
            return Play.from_cards(action.cards, self.rules)
        if isinstance(action, Action):
            return action
        raise error(UnreadableAction, "err.action.object", text=repr(action))

    def _apply(self, seat: int, move: Move) -> None:
        st = self.state
        st.legal_memo = None
        if isinstance(move, Play):
            self._apply_play(seat, move)
        else:
            self._apply_action(seat, move)

    def _apply_play(self, seat: int, play: Play) -> None:
        st = self.state
        st.history.append((seat, play))
        rules = self.rules
        if play.keys:
            free = (seat != st.turn and bool(rules.free_chops) and self._free_open(seat)
                    and any(p.matches(play) for p in rules.free_chops))
            if rules.chop_pay != "none" and st.table_seat is not None \
                    and st.table_seat != seat and is_chop(play, st.table):
                self._chopped(seat, st.table_seat, st.table, play)  # type: ignore[arg-type]
            if free:  # §11: after a free chop every pass mark clears
                st.passed = [False] * self.players
            hand = st.hands[seat]
            groups = st.groups[seat]
            st.lead_gone[seat].update(play.keys)
            for k in play.keys:
                hand.remove(k)
                if groups is not None:
                    g = list(groups[k >> 2])
                    g.remove(k)
                    groups[k >> 2] = tuple(g)
            st.played_any[seat] = True
            if st.stacking:
                st.stack_seq = True
            st.stacking = False
            st.table = play
            st.table_seat = seat
            st.opening = False
            st.first_play = False
            st.no_pass_lead = False
            if not rules.pass_locks_out and not st.stack_seq:
                st.passed = [False] * self.players
            st.window = rules.chop_out_of_turn and st.mg.is_entry_target(play)
            if not hand:
                self._went_out(seat, play)
                if st.phase == "over":
                    return
            self._advance(seat)
            return
        # a pass
        st.window = False
        if st.stacking:
            self._end_round(seat)
            return
        if st.table is None:  # the opener passes (opening_may_pass)
            st.passed[seat] = True
            st.opening = False
            st.no_pass_lead = True
            st.turn = self._next_with_cards(seat)
            return
        st.passed[seat] = True
        self._advance(seat)

    def _advance(self, after: int) -> None:
        """Give the turn to the next seat that may act, or end the round."""
        st = self.state
        n = self.players
        stop = st.table_seat
        rules = self.rules
        # §5: a passer keeps a chop-or-pass turn while a chop target is on the table with
        # chop_after_pass, and (the resolution for stacks) after a stacked play when passes
        # do not lock out
        chop_turns = (rules.chop_after_pass or (st.stack_seq and not rules.pass_locks_out)) \
            and st.table is not None and st.mg.is_entry_target(st.table)
        out, passed = st.out, st.passed
        locks = not chop_turns and (rules.pass_locks_out or st.stack_seq)
        s = after
        for _ in range(n):
            s = (s + 1) % n
            if s == stop:
                break
            if out[s] or (locks and passed[s]):
                continue
            st.turn = s
            return
        self._round_over()

    def _round_over(self) -> None:
        st = self.state
        last = st.table_seat
        assert last is not None
        if self.rules.stacking and not st.out[last]:
            st.turn = last
            st.stacking = True
            return
        self._end_round(last)

    def _end_round(self, last: int) -> None:
        st = self.state
        self._settle_chops()
        st.table = None
        st.table_seat = None
        st.passed = [False] * self.players
        st.stacking = False
        st.stack_seq = False
        st.window = False
        st.turn = last if not st.out[last] else self._next_with_cards(last)

    def _next_with_cards(self, seat: int) -> int:
        st = self.state
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not st.out[s]:
                return s
        return seat

    def _went_out(self, seat: int, play: Play) -> None:
        st = self.state
        rules = self.rules
        st.out[seat] = True
        if places.takes_bottom_place(rules, play.keys):
            st.bottom.append(seat)  # §11: out on twos takes the lowest free place
        else:
            st.finish.append(seat)
            if len(st.finish) == 1:
                st.counts_at_first_out = [len(h) for h in st.hands]
                if rules.end_at == "first_out":
                    st.finish = finish_order_first_out(seat, st.hands, self.players)
                    self._end()
                    return
                if rules.cong:
                    self._place_cong(seat)
        holding = [s for s in self._seats_from(seat) if not st.out[s]]
        if len(holding) <= 1:
            st.finish.extend(holding)
            self._end()

    def _place_cong(self, winner: int) -> None:
        """§11 cóng: every player who has put down no card takes the lowest free place at once
        (several: the first in turn order after the winner takes the higher)."""
        st = self.state
        cong = places.cong_seats(self._seats_from(winner)[1:], st.out, st.played_any)
        for s in reversed(cong):
            st.bottom.append(s)
            st.out[s] = True
        st.cong = cong

    # ------------------------------------------------------------------ payments
    def _chopped(self, chopper: int, owner: int, table: Play, bomb: Play) -> None:
        """A chop (§11 chop_pay): paid at once (``each``) or kept for the round's end."""
        st = self.state
        paid = st.ledger.chopped(chopper, owner, table, bomb)
        if paid is not None:
            self._pay([paid])

    def _settle_chops(self) -> None:
        """The round is over: chặt chồng is settled (§11)."""
        st = self.state
        paid = st.ledger.settle()
        if paid is not None:
            self._pay([paid])

    def _pay(self, payments: Iterable[Payment]) -> None:
        """Make payments now (each marked with the length of the history so far)."""
        st = self.state
        at = len(st.history)
        st.payments.extend(dataclasses.replace(p, at=at) for p in payments)

    def _end(self) -> None:
        st = self.state
        self._settle_chops()  # the end of the hand ends the round
        if st.bottom:
            st.finish = places.order(st.finish, st.bottom)
            st.bottom = []
        st.phase = "over"
        st.turn = None
        st.window = False
        st.stacking = False
        self._pay(end_payments(self))
        st.scores = hand_scores(self)

    def _apply_action(self, seat: int, action: Action) -> None:
        st = self.state
        self._log(seat, action)
        kind = action.kind
        if kind in CLAIM_KINDS:
            if kind == "claim" and action.win is not None:
                st.claims[seat] = action.win
            st.claim_queue.pop(0)
            if st.claim_queue:
                st.turn = st.claim_queue[0]
            else:
                self._resolve_claims(dict(st.claims))
            return
        if kind == "return":
            receiver, giver, _count = st.returns.pop(0)
            self._move_cards(receiver, giver, self._keys(action.cards))
            if st.returns:
                st.turn = st.returns[0][0]
            else:
                self._after_exchange()
            return
        self._apply_trade(seat, action)

    def _apply_trade(self, seat: int, action: Action) -> None:
        st = self.state
        kind = action.kind
        if kind == "done":
            st.trade_done[seat] = True
            self._next_trader()
            return
        if kind == "offer":
            assert action.other is not None
            st.offered.add((seat, action.other))
            st.pending = (seat, action.other, self._keys(action.cards), None)
            st.turn = action.other
            return
        assert st.pending is not None
        offerer, target, gift, _answer = st.pending
        if kind == "answer":
            st.pending = (offerer, target, gift, self._keys(action.cards))
            st.turn = offerer
            return
        if kind == "accept":
            answer = st.pending[3]
            assert answer is not None
            self._move_cards(offerer, target, gift)
            self._move_cards(target, offerer, answer)
        st.pending = None  # accepted or refused: the trade is settled
        self._next_trader()

    def _next_trader(self) -> None:
        st = self.state
        start = st.trade_seat
        for s in [*self._seats_from(start)[1:], start]:
            if not st.trade_done[s]:
                st.trade_seat = s
                st.turn = s
                return
        self._start_claims()

    # ================================================================== helpers
    def _log(self, seat: int, move: Move) -> None:
        st = self.state
        st.history.append((seat, move))

    def _cards(self, keys: Iterable[int]) -> tuple[Card, ...]:
        st = self.state
        back = KEY_TO_CODE[st.order]
        return tuple(sorted(Card(back[k]) for k in keys))

    def _keys(self, cards: Iterable[Card]) -> tuple[int, ...]:
        st = self.state
        to_key = CODE_TO_KEY[st.order]
        return tuple(sorted(to_key[c.code] for c in cards))

    def _move_cards(self, giver: int, receiver: int, keys: Iterable[int]) -> None:
        st = self.state
        for k in keys:
            st.hands[giver].remove(k)
            st.hands[receiver].append(k)
        st.hands[receiver].sort()
        st.groups[giver] = st.groups[receiver] = None
        st.lead_cache[giver] = st.lead_cache[receiver] = None

    def _seats_from(self, seat: int) -> list[int]:
        """All seats in turn order starting with ``seat``."""
        return seats_from(seat, self.players)

    def copy(self) -> Game:
        """An independent copy of the game (for search): the rules shared, the state copied."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        return other

    @property
    def leader(self) -> int:
        """The seat that leads the first round."""
        return self.state.leader

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
        st = self.state
        return [f"{seat} {move}" for seat, move in st.history]

    def __repr__(self) -> str:
        st = self.state
        state = "over" if self.is_over else f"{st.phase}, turn {st.turn}"
        return f"<Game {self.rules.name} {self.players} players, {state}>"



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

