"""What one seat may know: its own hand, the others' card counts, the table and the history.

A :class:`View` is built from a game for one seat and holds nothing that seat
may not see: other hands appear only as counts (and, once the hand is over,
as the cards they were left holding, which are shown for scoring); trade
offers, exchange gifts and unanswered instant-win calls between other seats
appear without their cards.

The history is there twice: ``history`` as ``(seat, text)`` (what the bot protocol
sends, records write and the front ends print) and ``events`` as ``(seat, move)``, each
move a :class:`~tienlen.shapes.Play`, an :class:`~tienlen.actions.Action` or, where this
seat may not see the action, a :class:`~tienlen.actions.Hidden` one (its kind, the other
seat, the number of cards). The two say the same: ``str(move)`` is the history's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from .actions import CARD_KINDS, CLAIM_KINDS, Action, Hidden, Move, Phase, TradeOffers
from .cards import Card
from .seats import check_seat, packs_for
from .shapes import Play

if TYPE_CHECKING:
    from .hand import Hand
    from .payments import Payment
    from .rules import Rules


# one action of the history as a seat sees it: (seat, move), the move hidden where the seat
# may not see it
Event = tuple[int, Play | Action | Hidden]


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a hand in progress."""

    seat: int
    players: int
    names: tuple[str, ...]
    rules: Rules
    phase: Phase
    turn: int | None
    dealer: int
    leader: int
    first_hand: bool
    lowest_start: bool  # the leader was found as the holder of the lowest card
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    table: Play | None
    table_seat: int | None
    passed: tuple[bool, ...]
    stacking: bool
    finish_order: tuple[int, ...]
    history: tuple[tuple[int, str], ...]
    played: tuple[Card, ...]
    # the legal actions; in a mutual-trading turn a lazy TradeOffers sequence (tens of
    # thousands of offers, built only as read: len, indexing, slicing, `in` and iteration work)
    legal: tuple[Move, ...]
    is_over: bool
    scores: tuple[int, ...]
    revealed: tuple[tuple[Card, ...], ...] | None  # every hand's cards left, once over
    # every payment so far (chop payments as they happen, places and penalties at the end):
    # who paid whom, how many units, and why (§8, §11)
    payments: tuple[Payment, ...] = ()
    cong: tuple[int, ...] = ()  # seats placed last for never playing a card (§11)
    out: tuple[bool, ...] = ()  # per seat: has it taken its place (out, cóng, out on twos)
    # this seat, not on turn, is offered a free chop now (§11 free_chops: asked whatever it
    # holds; ``legal`` holds its chops, if any)
    free_chop: bool = False
    # the history as moves: (seat, Play | Action | Hidden), the same actions as ``history``
    # (``str`` of each move is its text), with what this seat may not see hidden
    events: tuple[Event, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: not in its hand and not yet played (with two packs,
        each card as many times as it is unaccounted for). Set-aside cards are among them."""
        remaining: dict[Card, int] = {}
        from .cards import ALL_CARDS

        for card in ALL_CARDS:
            remaining[card] = packs_for(self.players)
        for card in self.hand + self.played:
            remaining[card] -= 1
        return [c for c, k in remaining.items() for _ in range(k)]


def _seen(game: Hand, seat: int, actor: int, move: Move, claims_open: bool) -> Play | Action | Hidden:
    """``actor``'s move as ``seat`` sees it."""
    if isinstance(move, Play) or actor == seat:
        return move
    if move.kind in CLAIM_KINDS:
        if move.kind == "claim" and not claims_open:
            return move  # claims are shown once everyone has answered
        return move.concealed()
    if move.kind in CARD_KINDS:
        party = move.other == seat
        if move.kind == "return":
            party = any(r[1] == seat for r in _gives(game) if r[0] == actor)
        return move if party else move.concealed()
    return move


def _gives(game: Hand) -> list[tuple[int, int]]:
    """(receiver, giver) of each exchange gift in the hand."""
    return [(m.other, s) for s, m in game.history
            if isinstance(m, Action) and m.kind == "give" and m.other is not None]


def events_for(game: Hand, seat: int | None) -> tuple[Event, ...]:
    """The history as ``seat`` sees it (None: a spectator, party to no trade or exchange)."""
    claims_open = game.phase == "claim"
    looking = -1 if seat is None else seat
    return tuple((s, _seen(game, looking, s, m, claims_open)) for s, m in game.history)


def make_view(game: Hand, seat: int) -> View:
    check_seat(seat, game.players, "seat")
    events = events_for(game, seat)
    history = tuple((s, str(m)) for s, m in events)
    played = tuple(c for _, m in game.history if isinstance(m, Play) for c in m.cards)
    found = game.legal_plays(seat) if not game.is_over else []
    # the offers of a trading turn stay a lazy sequence (tens of thousands of them)
    legal = cast("tuple[Move, ...]", found) if isinstance(found, TradeOffers) else tuple(found)
    revealed = tuple(tuple(game.hand(s)) for s in range(game.players)) if game.is_over else None
    return View(
        seat=seat, players=game.players, names=game.names, rules=game.rules,
        phase=game.phase, turn=game.turn, dealer=game.dealer, leader=game.leader,
        first_hand=game.first_hand, lowest_start=game.state.lowest_start,
        hand=tuple(game.hand(seat)), counts=tuple(game.counts()), table=game.table,
        table_seat=game.table_seat, passed=tuple(game.passed), stacking=game.stacking,
        finish_order=tuple(game.finish_order), history=history, played=played, legal=legal,
        is_over=game.is_over, scores=tuple(game.scores), revealed=revealed,
        payments=tuple(game.payments), cong=tuple(game.cong),
        out=tuple(game.is_out(s) for s in range(game.players)),
        free_chop=not game.is_over and game.free_chop_offered(seat), events=events,
    )
