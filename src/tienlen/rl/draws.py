"""The environments' counter-based draws: every random choice of a hand as a function of a key.

A draw is ``mix64(key + hand * G + index * H)`` (SplitMix64's finaliser over a 64-bit
counter): the same ``(key, hand, index)`` gives the same number on any machine, in any
order, in Python here and in compiled code (:mod:`tienlen.fast.draws`, its twin, held equal
by ``tests/test_rl_vector.py``). So the single environment and the batched one
(:mod:`tienlen.rl.vector`) deal the same cards, seat the learner at the same place and let
their ``random`` opponents make the same choices, and a differential test can compare them
byte for byte.

``key`` is the environment's seed; ``hand`` counts the deals since that seed (a deal that
ends at once, an automatic instant win, uses one too). The indices of one hand:

=====================  ====================================================================
index                  draws
=====================  ====================================================================
0                      the dealer: ``draw % players``
1 .. 52·packs - 1      the shuffle (Fisher-Yates from the end: index ``j`` swaps position
                       ``j`` with ``draw % (j + 1)``) of the keys in order, each ``packs``
                       times
:data:`SEAT_INDEX`     the learner's seat, when the environment seats it at random
:data:`BOT_SEED_INDEX` + i  the seed of the i-th opponent made by name (a ladder bot)
:data:`PICK_INDEX` + k the k-th choice of a ``random`` opponent in the hand: uniform among
                       the legal action ids (``draw % count``, the ids in increasing order)
=====================  ====================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import Rules

M64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15  # the hand's step
STEP: Final = 0xD1B54A32D192ED03  # the index's step
SEAT_INDEX: Final = 120
BOT_SEED_INDEX: Final = 121
PICK_INDEX: Final = 256


def mix64(x: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit numbers that scatters every bit."""
    x &= M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def draw(key: int, hand: int, index: int) -> int:
    """The draw ``index`` of deal ``hand`` under ``key``: a 64-bit number."""
    return mix64(key + hand * GOLDEN + index * STEP)


def below(key: int, hand: int, index: int, n: int) -> int:
    """A draw as a number in ``0 .. n - 1``."""
    return draw(key, hand, index) % n


def shuffled(key: int, hand: int, packs: int) -> list[int]:
    """The deck of deal ``hand`` as keys (``rank * 4 + strength``), shuffled."""
    deck = [k for k in range(52) for _ in range(packs)]
    for j in range(len(deck) - 1, 0, -1):
        r = below(key, hand, j, j + 1)
        deck[j], deck[r] = deck[r], deck[j]
    return deck


def deal(rules: Rules, players: int, key: int, hand: int) -> Game:
    """Deal ``hand`` under ``key``: the dealer and the shuffle drawn, the cards dealt as
    :meth:`tienlen.Game.deal` deals them (a first hand, the holder of the lowest card leading)."""
    from ..cards import KEY_TO_CODE, Card
    from ..dealing import distribute
    from ..game import Game
    from ..seats import packs_for

    dealer = below(key, hand, 0, players)
    to_code = KEY_TO_CODE[rules.suit_order]
    deck = [Card(to_code[k]) for k in shuffled(key, hand, packs_for(players))]
    return Game(rules, distribute(rules, players, deck, dealer), dealer=dealer)


def key_of(seed: int) -> int:
    """A seed (any int, negative too) as a key."""
    return seed & M64


__all__ = ["BOT_SEED_INDEX", "PICK_INDEX", "SEAT_INDEX", "below", "deal", "draw", "key_of",
           "mix64", "shuffled"]
