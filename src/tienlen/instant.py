"""Instant wins (§7): which a dealt hand holds, and the order that settles several claims."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, KEY_TO_CODE, TWO


def rank_counts(keys: Sequence[int]) -> list[int]:
    counts = [0] * 13
    for k in keys:
        counts[k >> 2] += 1
    return counts


def holds(win: str, keys: Sequence[int], order: str = "standard") -> bool:
    """Whether a hand holds one instant win (only full 13-card dealt hands are asked)."""
    counts = rank_counts(keys)
    if win == "four_twos":
        return counts[TWO] >= 4
    if win == "dragon":  # a card of every rank 3..A (a 13-card run with the 2 is included)
        return all(counts[r] for r in range(ACE + 1))
    if win == "six_pairs":  # a triple holds one pair, a quad two
        return sum(c // 2 for c in counts) >= 6
    if win == "all_sets":  # pairs, triples and quads only: no rank held once
        return all(c != 1 for c in counts)
    if win == "five_pair_chain":  # §11: five consecutive ranks below the two, each twice or more
        return any(all(counts[r + i] >= 2 for i in range(5)) for r in range(ACE - 3))
    if win == "same_colour":  # §11: all red or all black
        colours = {(KEY_TO_CODE[order][k] & 3) >> 1 for k in keys}
        return len(colours) == 1
    if win == "four_threes":  # §11 (the game asks only where the opening names the lowest card)
        return counts[0] >= 4
    raise ValueError(f"unknown instant win {win!r}")


def instant_wins_of(keys: Sequence[int], allowed: Sequence[str],
                    order: str = "standard") -> list[str]:
    """The instant wins a hand holds, in the resolution order of ``allowed``."""
    if len(keys) != 13:
        return []
    return [w for w in allowed if holds(w, keys, order)]


def win_priority(win: str, keys: Sequence[int], allowed: Sequence[str],
                 distance: int) -> tuple[int, int, int]:
    """Sort key of a claim: the list order, then (dragons) the higher ace, then turn order."""
    ace = max((k for k in keys if k >> 2 == ACE), default=-1) if win == "dragon" else 0
    return (allowed.index(win), -ace, distance)
