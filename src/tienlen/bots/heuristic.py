"""The ``heuristic`` bot: plans its hand and plays it out sensibly.

It splits the hand into the fewest combinations (see :mod:`split`) and judges
each candidate play by what it does to that plan: it leads its weakest groups,
beats with whole groups rather than breaking runs and pairs for a small card,
keeps twos and bombs for when they matter (bombs chop twos), counts the cards
that are gone to know when a play cannot be beaten, blocks a player about to
go out, and plays its twos before it can be caught with them.

Under the Vietnamese rules (§11) it also knows that a beat must keep the suit
(``follow_suit``: a card is unbeatable when no unseen card of its suit, nor a
two, is higher), that a free chop can come at any moment (it takes one when
offered against twos or a bomb, which also earns the chop payment), what being
left with twos and bombs costs (it spends them when a player is about to go out
and penalties are played), and that a player who has put down no card when the
first goes out is cóng (it plays rather than passes while it has played nothing).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import Action, TradeOffers
from ..cards import ACE, CODE_TO_KEY, KEY_TO_CODE, TWO
from ..payments import is_bomb
from ..shapes import PASS, Play
from .simple import phase_choice
from .split import Counts, best_split, counts_of, groups_after

if TYPE_CHECKING:
    from ..actions import Move
    from ..rules import Rules
    from ..view import View


@dataclass(slots=True)
class Situation:
    """What the heuristic looks at: one seat's knowledge, as keys (rules' card order)."""

    hand: tuple[int, ...]  # sorted keys
    legal: Sequence[Move]
    table: Play | None
    others: tuple[int, ...]  # card counts of the other seats still holding cards
    unseen: Counts  # per rank: cards not in this hand and not yet played
    unseen_top: int  # the highest unseen key (-1 when none)
    rules: Rules
    unseen_keys: frozenset[int] | None = None  # the unseen cards (for follow_suit), when known
    played_any: bool = True  # has this seat put down a card in the hand (cóng)


def situation_of(view: View) -> Situation:
    order = view.rules.suit_order
    to_key = CODE_TO_KEY[order]
    hand = tuple(sorted(to_key[c.code] for c in view.hand))
    unseen_keys = [to_key[c.code] for c in view.unseen()]
    others = tuple(c for s, c in enumerate(view.counts) if s != view.seat and c > 0)
    played_any = any(s == view.seat and isinstance(move, Play) and not move.is_pass
                     for s, move in view.events)
    return Situation(hand, view.legal, view.table, others, counts_of(unseen_keys),
                     max(unseen_keys, default=-1), view.rules,
                     frozenset(unseen_keys) if view.rules.follow_suit else None, played_any)


def _precious(play: Play) -> bool:
    """Twos and bombs: cards that win control or chop twos, kept for when they matter."""
    if play.keys[-1] >> 2 == TWO:
        return True
    return play.shape == "quad" or (play.shape == "chain" and len(play.keys) >= 6) or \
        play.shape in ("triple_chain", "quad_chain")


def _is_boss(play: Play, s: Situation) -> bool:
    """Whether no unseen cards could beat this play in its own shape (counting cards gone)."""
    top = play.keys[-1]
    if play.shape == "single" and s.rules.follow_suit and s.unseen_keys is not None \
            and top >> 2 != TWO:
        # a beat keeps the suit: only a higher card of its suit, or a two, beats it
        suit = _suit_of(top, s.rules)
        return not any(k > top and (k >> 2 == TWO or _suit_of(k, s.rules) == suit)
                       for k in s.unseen_keys)
    if play.shape == "single":
        return s.unseen_top < top
    size = len(play.keys)
    if play.shape in ("pair", "triple", "quad"):
        return not any(s.unseen[r] >= size for r in range((top >> 2) + 1, 13))
    return False


def plan_tops(rules: Rules) -> tuple[int, int]:
    """The highest ranks runs and chains may reach when planning a hand on rank counts
    (under ``follow_suit`` no run or chain: those plans are made per colour instead)."""
    if rules.follow_suit:
        return -1, -1
    return (TWO if rules.twos_in_runs else ACE), (TWO if rules.twos_in_chains else ACE)


def _colour_plan(hand: tuple[int, ...], rules: Rules) -> tuple[
        int, tuple[tuple[str, int, int, int], ...], Callable[[tuple[int, ...]], int]]:
    """The plan under ``follow_suit``: each colour's cards split on their own (pairs and
    chains are of one colour; runs, of one suit, are left out), and how many groups are left
    once some cards are played."""
    chain_top = TWO if rules.twos_in_chains else ACE
    back = KEY_TO_CODE[rules.suit_order]

    def split(keys: Sequence[int]) -> tuple[Counts, Counts]:
        black = [0] * 13
        red = [0] * 13
        for k in keys:
            (red if back[k] & 2 else black)[k >> 2] += 1
        return tuple(black), tuple(red)

    black, red = split(hand)
    b = best_split(black, -1, chain_top)
    r = best_split(red, -1, chain_top)

    def after(keys: tuple[int, ...]) -> int:
        gone_black, gone_red = split(keys)
        left_black = tuple(x - y for x, y in zip(black, gone_black, strict=True))
        left_red = tuple(x - y for x, y in zip(red, gone_red, strict=True))
        if min(left_black) < 0 or min(left_red) < 0:
            return 99
        return best_split(left_black, -1, chain_top)[0] + best_split(left_red, -1, chain_top)[0]

    return b[0] + r[0], b[2] + r[2], after


def _suit_of(key: int, rules: Rules) -> int:
    return KEY_TO_CODE[rules.suit_order][key] & 3


def _penalised(rules: Rules) -> bool:
    return rules.scoring != "none" and bool(rules.penalty_two or rules.penalty_bomb)


def out_of_turn_choice(chops: Sequence[Move], table: Play | None, rules: Rules) -> Move | None:
    """An out-of-turn (or free) chop worth taking, or None: against twos or a bomb, which
    wins the round's control and, with ``chop_pay``, the chopped combination's worth."""
    real = [m for m in chops if isinstance(m, Play) and m.keys]
    if not real or table is None or not table.keys:
        return None
    if all(k >> 2 == TWO for k in table.keys) or is_bomb(table):
        return min(real, key=lambda p: (len(p.keys), p.keys[-1]))
    return None


def decide(s: Situation) -> Move:
    """The heuristic's choice in a situation (the hot path of search rollouts)."""
    legal = s.legal
    real = [m for m in legal if isinstance(m, Play) and m.keys]
    if not real:
        for m in legal:
            if isinstance(m, Play):
                return m  # a pass
        return legal[0]
    hand = s.hand
    n = len(hand)
    rules = s.rules
    for p in real:
        if len(p.keys) == n and not (rules.no_two_last and p.keys[0] >> 2 == TWO
                                     and len(s.others) > 1):
            return p  # going out (on twos only when that is not the last place)
    run_top, chain_top = plan_tops(rules)
    counts = counts_of(hand)
    if rules.follow_suit:
        base, plan, broken_by = _colour_plan(hand, rules)
    else:
        base, _singles, plan = best_split(counts, run_top, chain_top)
        broken_by = None
    danger = min(s.others, default=99)
    can_pass = any(isinstance(m, Play) and not m.keys for m in legal)
    # twos and bombs left cost penalties: spend them when a player is about to go out
    spend = _penalised(rules) and danger <= 2

    def broken(p: Play) -> int:
        if broken_by is not None:
            return broken_by(p.keys) - (base - 1)
        return groups_after(counts, p.keys, run_top, chain_top) - (base - 1)

    table = s.table
    if table is None:
        # a group of the plan is named by (lowest rank, highest rank, cards)
        planned = {(g[1], g[1] + g[2] - 1, g[2] * g[3]) for g in plan}
        clean = [p for p in real if (p.keys[0] >> 2, p.keys[-1] >> 2, len(p.keys)) in planned]
        if len(clean) < len(real) and not clean:
            clean = [p for p in real if broken(p) == 0]
        if base <= 2:
            bosses = [p for p in clean if _is_boss(p, s)]
            if bosses:  # win control with an unbeatable group, then go out
                return min(bosses, key=lambda p: -len(p.keys))
        candidates = clean or real
        if danger == 1:
            multi = [p for p in candidates if len(p.keys) > 1]
            if multi:
                candidates = multi
            else:  # block with the highest single
                return max(real, key=lambda p: (len(p.keys) == 1, p.keys[-1]))
        return min(candidates, key=lambda p: (_precious(p) and n > len(p.keys) + 2 and not spend,
                                              p.keys[-1] >> 2, -len(p.keys), p.keys[-1]))

    # following: the table's target is a two, and a bomb can chop it
    bombs = [p for p in real if p.shape != table.shape or len(p.keys) != len(table.keys)]
    plain = [p for p in real if p not in bombs] if bombs else real
    if bombs and table.keys[-1] >> 2 == TWO:
        return min(bombs, key=lambda p: (broken(p), len(p.keys), p.keys[-1]))
    # cóng (§11): a seat that has put down no card is placed last when the first goes out
    cong_risk = rules.cong and not s.played_any and danger <= 4
    urgent = danger <= len(table.keys) or base <= 2 or cong_risk or spend
    if rules.follow_suit and not urgent:
        # a beat must keep the suit: the chance to beat is rare and a pass locks out, so
        # take it with the cheapest card that is no two
        cheap = [p for p in plain if p.keys[-1] >> 2 != TWO]
        if cheap:
            return min(cheap, key=lambda p: (broken(p), p.keys[-1]))
    best: Play | None = None
    best_key: tuple[int, int, int] | None = None
    table_rank = table.keys[-1] >> 2
    for p in plain:
        brk = broken(p)
        top_rank = p.keys[-1] >> 2
        precious = _precious(p)
        if not urgent:
            if brk > (1 if base <= 4 else 0):
                continue
            if precious and top_rank == TWO:
                # a two is spent on a high card, late in the hand, or when it wins the hand
                if table_rank < 9 and base > 3 and len(p.keys) == 1:
                    continue
                if len(p.keys) > 1 and base > 3:
                    continue
            elif precious:
                continue
            if top_rank - table_rank > 6 and base > 4:
                continue  # too strong a card for so small a play
        key = (brk, int(precious), top_rank)
        if best_key is None or key < best_key:
            best, best_key = p, key
    if best is None:
        if urgent and not can_pass:
            return min(real, key=lambda p: p.keys[-1])
        if urgent:
            return max(real, key=lambda p: p.keys[-1])  # block
        return PASS if can_pass else min(real, key=lambda p: p.keys[-1])
    if urgent and danger <= len(table.keys):
        # block: the highest beat of the same shape
        return max(plain, key=lambda p: (broken(p) <= 1, p.keys[-1]))
    return best


class HeuristicBot:
    """Plans the hand into the fewest combinations and plays it out (see the module text)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        if view.phase == "play" and view.turn != view.seat:  # an out-of-turn or free chop
            return out_of_turn_choice(view.legal, view.table, view.rules) or PASS
        if isinstance(view.legal, TradeOffers) or not any(isinstance(m, Play) for m in view.legal):
            return self._phase(view)
        return decide(situation_of(view))

    def _phase(self, view: View) -> Move:
        returns = [m for m in view.legal if isinstance(m, Action) and m.kind == "return"]
        if returns:  # give back what hurts the plan least, lowest first
            s = situation_of(view)
            rules = view.rules
            run_top = TWO if rules.twos_in_runs else ACE
            chain_top = TWO if rules.twos_in_chains else ACE
            counts = counts_of(s.hand)
            to_key = CODE_TO_KEY[rules.suit_order]

            def cost(m: Action) -> tuple[int, list[int]]:
                keys = tuple(sorted(to_key[c.code] for c in m.cards))
                return groups_after(counts, keys, run_top, chain_top), sorted(keys)

            return min(returns, key=cost)
        return phase_choice(view)
