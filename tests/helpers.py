"""Small helpers the test modules share."""

from __future__ import annotations

from tienlen import parse_cards
from tienlen.cards import full_deck


def deal_with(given: dict[int, str], players: int = 4, size: int = 13) -> list[str]:
    """Hands where the given seats hold the given cards; the rest of the pack fills up, low first."""
    taken = [c for text in given.values() for c in parse_cards(text)]
    rest = [c for c in full_deck() if c not in taken]
    hands = []
    for seat in range(players):
        hand = list(parse_cards(given.get(seat, "")))
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(" ".join(str(c) for c in hand))
    return hands
