"""The end of a hand (§8): finish order when the first out ends it, penalties, and the scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import KEY_TO_CODE, TWO

if TYPE_CHECKING:
    from .game import Game
    from .rules import Rules


def finish_order_first_out(winner: int, hands: Sequence[Sequence[int]], n: int) -> list[int]:
    """**Resolution**: when the first out ends the hand, the others place by cards left
    (fewest first), ties in turn order after the winner."""
    others = [(winner + i) % n for i in range(1, n)]
    return [winner, *sorted(others, key=lambda s: (len(hands[s]), others.index(s)))]


def bombs_in(keys: Sequence[int], rules: Rules) -> int:
    """Quads plus maximal chains of three or more pairs in a hand (each counted once)."""
    counts = [0] * 13
    for k in keys:
        counts[k >> 2] += 1
    quads = sum(1 for c in counts if c >= 4)
    chains = 0
    run = 0
    top = TWO if rules.twos_in_chains else TWO - 1
    for r in range(top + 1):
        if counts[r] >= 2:
            run += 1
        else:
            chains += run >= 3
            run = 0
    chains += run >= 3
    return quads + chains


def penalty(keys: Sequence[int], rules: Rules, played_any: bool) -> int:
    """Units a player left with these cards pays the winner (§8 penalties)."""
    units = 0
    if rules.penalty_two:
        back = KEY_TO_CODE[rules.suit_order]
        for k in keys:
            if k >> 2 == TWO:
                red = (back[k] & 3) in (2, 3)  # diamonds, hearts
                units += rules.penalty_two * (2 if red and rules.red_twos_double else 1)
    if rules.penalty_bomb:
        units += rules.penalty_bomb * bombs_in(keys, rules)
    if rules.penalty_no_play and not played_any:
        units += rules.penalty_no_play
    return units


def hand_scores(game: Game) -> list[int]:
    """Units per seat for a finished hand; they sum to zero."""
    rules = game.rules
    n = game.players
    scores = [0] * n
    finish = game.finish_order
    instant = game.instant_win
    if rules.scoring == "none":
        return scores  # finish order only: no units change hands, not even for an instant win
    if instant is not None:
        seat = instant[0]
        for s in range(n):
            if s != seat:
                scores[s] -= rules.instant_win_stake
                scores[seat] += rules.instant_win_stake
        return scores
    if not finish:
        return scores
    winner = finish[0]
    stake = rules.stake
    if rules.scoring == "loser_pays":
        loser = finish[-1]
        for s in range(n):
            if s != loser:
                scores[s] += stake
                scores[loser] -= stake
    elif rules.scoring == "cards_left":
        counts = game._counts_at_first_out or [0] * n
        for s in range(n):
            if s != winner:
                scores[s] -= stake * counts[s]
                scores[winner] += stake * counts[s]
    for s in range(n):
        if s != winner:
            owed = penalty(game._hands[s], rules, game._played_any[s])
            scores[s] -= owed
            scores[winner] += owed
    return scores
