"""The two orders the terminal shows a hand in: by rank, or by combination (the best split).

>>> from tienlen import Rules, parse_cards
>>> hand = parse_cards("3s 4d 5c 9s 9h Ks")
>>> order, groups = by_combination(hand, Rules.preset("pagat"))
>>> [str(hand[i]) for i in order], groups
(['3s', '4d', '5c', '9s', '9h', 'Ks'], [0, 0, 0, 1, 1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots.split import best_split, counts_of
from ..cards import ACE, CODE_TO_KEY, TWO, Card
from ..rules import Rules


def by_rank(hand: Sequence[Card], rules: Rules) -> tuple[list[int], list[int]]:
    """Positions in card order (the rules' suit order breaks ties), all in one group."""
    to_key = CODE_TO_KEY[rules.suit_order]
    order = sorted(range(len(hand)), key=lambda i: (to_key[hand[i].code], i))
    return order, [0] * len(order)


def by_combination(hand: Sequence[Card], rules: Rules) -> tuple[list[int], list[int]]:
    """Positions grouped as the fewest combinations (runs, chains, sets), and each position's
    group number."""
    to_key = CODE_TO_KEY[rules.suit_order]
    ranked, _ = by_rank(hand, rules)
    run_top = TWO if rules.twos_in_runs else ACE
    chain_top = TWO if rules.twos_in_chains else ACE
    counts = counts_of([to_key[c.code] for c in hand])
    _, _, split = best_split(counts, run_top, chain_top)
    # low to high, as the hand reads: by the group's lowest rank, the longer group first
    groups = sorted(split, key=lambda g: (g[1], -g[2] * g[3]))
    pool: dict[int, list[int]] = {}
    for i in ranked:
        pool.setdefault(hand[i].rank, []).append(i)
    order: list[int] = []
    group_of: list[int] = []
    for number, (_shape, low, ranks, per_rank) in enumerate(groups):
        for rank in range(low, low + ranks):
            for _ in range(per_rank):
                if pool.get(rank):
                    order.append(pool[rank].pop(0))
                    group_of.append(number)
    leftover = [i for i in ranked if i not in order]  # never expected: keep every card shown
    order += leftover
    group_of += [len(groups)] * len(leftover)
    return order, group_of
