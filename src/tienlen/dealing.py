"""The deal (§2, §3): hand sizes, shuffling and dealing, the hands checked, the leader found
from the lowest card, and the dealer, leader and president exchange of the next hand."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import CODE_TO_KEY, KEY_TEXT, Card, full_deck, parse_cards
from .errors import ArgumentError, CardError, error, reason_of
from .rules import Rules
from .seats import check_seat, packs_for
from .state import Exchange

if TYPE_CHECKING:
    from .hand import Hand


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


def deal_hands(rules: Rules, players: int, seed: int | None, dealer: int | None,
               leader: int | None) -> tuple[list[list[Card]], int]:
    """Shuffled hands from ``seed``, and the dealer (drawn from the seed when None).

    Cards go one at a time from the seat after the dealer; leftover cards are set aside
    unseen, or the odd one goes to the leader (``odd_card_to_leader``)."""
    n = check_players(players)
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(n)
    check_seat(dealer, n, "dealer")
    deck = full_deck(packs_for(n))
    rng.shuffle(deck)
    return distribute(rules, n, deck, dealer, leader), dealer


def distribute(rules: Rules, players: int, deck: Sequence[Card], dealer: int,
               leader: int | None = None) -> list[list[Card]]:
    """A shuffled ``deck`` dealt to ``players`` seats one card at a time from the seat after
    ``dealer``, :func:`hand_size` cards each; the leftover cards are set aside, or the odd one
    goes to the leader (``odd_card_to_leader``; the holder of the lowest card when ``leader``
    is None)."""
    n = players
    size = hand_size(rules, n)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    left = deck[size * n:]
    if rules.odd_card_to_leader and len(left) == 1:
        # the leader found from the dealt cards takes the odd card (and still holds the lowest)
        taker = leader if leader is not None else lowest_holder_of(
            [sorted(CODE_TO_KEY[rules.suit_order][c.code] for c in h) for h in hands], dealer)
        hands[taker].append(left[0])
    return hands


def hand_keys(hands: Sequence[str | Iterable[Card | str]], order: str) -> list[list[int]]:
    """Each seat's cards as sorted keys under the suit ``order``, checked: no hand empty, no
    card more often than the packs hold it."""
    to_key = CODE_TO_KEY[order]
    keys: list[list[int]] = []
    for seat, hand in enumerate(hands):
        try:
            cards = parse_cards(hand)
        except CardError as exc:
            raise error(CardError, "err.hand.seat", seat=seat, reason=reason_of(exc)) from None
        if not cards:
            raise error(CardError, "err.hand.empty", seat=seat)
        keys.append(sorted(to_key[c.code] for c in cards))
    packs = packs_for(len(hands))
    seen: dict[int, int] = {}
    for hand_ in keys:
        for k in hand_:
            seen[k] = seen.get(k, 0) + 1
    for k, count in seen.items():
        if count > packs:
            form = "one" if packs == 1 else "other"
            raise error(CardError, f"err.hand.copies.{form}", card=KEY_TEXT[order][k], count=count,
                        packs=packs)
    return keys


def lowest_holder_of(hands: Sequence[Sequence[int]], dealer: int) -> int:
    """The seat holding the lowest key; ties go to the first in dealing order."""
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


def next_deal(rules: Rules, prev: Hand) -> tuple[int, int | None, list[Exchange]]:
    """Dealer, leader (None: the holder of the lowest card) and exchange for the hand after ``prev``."""
    n = prev.players
    finish = prev.finish_order
    if prev.instant_win is not None:
        dealer = (prev.instant_win[0] + 1) % n
    elif rules.next_dealer == "loser":
        dealer = finish[-1]
    else:
        dealer = (prev.dealer + 1) % n
    leader: int | None
    if rules.next_leader == "winner":
        leader = finish[0]
    elif rules.next_leader == "loser":
        leader = finish[-1]
    else:
        leader = None
    exchange: list[Exchange] = []
    if rules.trading == "president":
        exchange.append((finish[-1], finish[0], 2))
        if n >= 4:
            exchange.append((finish[-2], finish[1], 1))
    return dealer, leader, exchange
