"""Deals of the unseen cards that explain what the other seats have done.

A uniform deal of the cards a seat has not seen ignores what the others' plays
and passes reveal. Here a deal is judged by replaying the hand's history on it
and counting the other seats' decisions that the heuristic (the model of a
sensible player) would not have made holding those cards: its *misfits*.

:func:`explaining_deals` walks a Markov chain over deals: each step swaps two
unseen cards between two holders (the other seats, and the cards set aside),
and is kept when the new deal has no more misfits than the current one. The
chain descends to the deals that explain the history best and then wanders
among them; with symmetric swaps and that rule it samples the best-explaining
deals uniformly. Against players who are not the heuristic the best deals may
still have misfits: they are then the most plausible ones the model finds.

:class:`Beliefs` keeps the deals from one decision to the next within a hand
(a particle filter): each is brought up to date with the few actions since,
the ones those actions contradict are dropped, and the chain tops them up.
Everything here is computed from the seat's view alone.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import Action, Hidden
from ..cards import CODE_TO_KEY
from ..game import Game
from ..shapes import Play
from .heuristic import decide
from .rollout import rollout_situation, unplayed

if TYPE_CHECKING:
    from ..actions import Move
    from ..cards import Card
    from ..view import View

_ASIDE = -1  # the holder of cards set aside (never dealt, or not yet shown)
_HOPELESS = 1 << 30  # a deal the history rules out altogether


@dataclass(frozen=True, slots=True)
class Deal:
    """A sampled deal replayed to the present: the game, and how many of the others'
    decisions it fails to explain."""

    game: Game
    misfits: int
    aside: tuple[int, ...] = ()  # the keys of the cards set aside in this deal


class History:
    """One seat's view of the hand, ready to replay on sampled deals."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.moves = history_moves(view)
        self.played: list[list[Card]] = [[] for _ in range(view.players)]
        for seat, move in self.moves:
            if isinstance(move, Play):
                self.played[seat].extend(move.cards)
        # who holds unseen cards, and how many: the other seats, then the cards set aside
        self.holders = [s for s in range(view.players) if s != view.seat and view.counts[s] > 0]
        self.sizes = [view.counts[s] for s in self.holders]
        unseen = len(view.unseen())
        if unseen > sum(self.sizes):
            self.holders.append(_ASIDE)
            self.sizes.append(unseen - sum(self.sizes))

    def hidden_of(self, deal: Deal) -> list[list[Card]]:
        """The unseen cards each holder has in a replayed deal (set-aside cards last)."""
        game = deal.game
        out = [game.hand(s) if s != _ASIDE else [] for s in self.holders]
        if self.holders and self.holders[-1] == _ASIDE:
            left = Counter(self.view.unseen())
            for hand in out:
                left.subtract(hand)
            out[-1] = list(left.elements())
        return out

    def signature(self, deal: Deal) -> tuple[tuple[int, ...], ...]:
        """What tells deals apart: the other seats' hands."""
        hands = deal.game.state.hands
        return tuple(tuple(hands[s]) for s in self.holders if s != _ASIDE)

    def extend(self, deal: Deal, done: int) -> tuple[Deal | None, int]:
        """A deal replayed to an earlier point of this history (its first ``done`` actions),
        brought up to the present; None when the new actions do not fit it as well."""
        game = deal.game
        misfits = deal.misfits
        work = 0
        try:
            for seat, move in self.moves[done:]:
                work += 1
                fits, move = self._step(game, seat, move, deal.aside)
                if not fits:
                    return None, work  # the deals that still explain everything are kept
        except (ValueError, AssertionError):
            return None, work
        if game.state.turn != self.view.seat:
            return None, work
        return Deal(game, misfits, deal.aside), work

    def _step(self, game: Game, seat: int, move: Move, aside: tuple[int, ...],
              total: list[int] | None = None, judge: bool = True) -> tuple[bool, Move]:
        """Replay one action on a deal: whether it fits (the heuristic would have made it,
        for another seat's decision in turn), and the action as replayed."""
        fits = True
        if isinstance(move, Action) and move.kind in ("claim", "decline"):
            if game.phase != "claim":
                return True, move  # an automatic claim
            move = Action("decline")  # the others' answers are hidden: they declined
        elif judge and seat != self.view.seat and game.state.turn == seat and game.phase == "play":
            if total is None:
                total = unplayed(game, aside)
            fits = decide(rollout_situation(game, seat, total, max(aside, default=-1))) == move
        game.push(move, seat)
        return fits, move

    def random_deal(self, rng: random.Random) -> list[list[Card]]:
        """The unseen cards shuffled and shared out among the holders."""
        unseen = self.view.unseen()
        rng.shuffle(unseen)
        out = []
        pos = 0
        for size in self.sizes:
            out.append(unseen[pos:pos + size])
            pos += size
        return out

    def replay(self, hidden: list[list[Card]], cap: int = _HOPELESS,
               judge: bool = True) -> tuple[Deal | None, int]:
        """Replay the history on the deal giving ``hidden[i]`` to ``holders[i]``.

        Returns the replayed deal (None when it has more than ``cap`` misfits or the history
        rules it out) and the number of decisions replayed (the work done). Without ``judge``
        the others' decisions are not judged (no misfits are counted)."""
        view = self.view
        by_seat = dict(zip(self.holders, hidden, strict=True))
        to_key = CODE_TO_KEY[view.rules.suit_order]
        aside = tuple(sorted(to_key[c.code] for c in by_seat.get(_ASIDE, ())))
        dealt = []
        for seat in range(view.players):
            now = list(view.hand) if seat == view.seat else by_seat.get(seat, [])
            dealt.append([*now, *self.played[seat]])
        work = 0
        misfits = 0
        try:
            game = Game(view.rules, dealt, leader=view.leader if not view.lowest_start else None,
                        dealer=view.dealer, first_hand=view.first_hand)
            if game.is_over:
                return None, 1  # an automatic instant win that the real deal did not hold
            total = unplayed(game, aside) if judge else None
            for seat, move in self.moves:
                work += 1
                fits, move = self._step(game, seat, move, aside, total, judge)
                if not fits:
                    misfits += 1
                    if misfits > cap:
                        return None, work
                if total is not None and isinstance(move, Play):
                    for k in move.keys:
                        total[k >> 2] -= 1
        except (ValueError, AssertionError):
            return None, work
        if game.state.turn != view.seat:
            return None, work
        return Deal(game, misfits, aside), work


class Beliefs:
    """The deals a seat finds plausible, kept from one decision to the next in a hand.

    At each decision the deals kept from the last one are brought up to date with the
    actions since (a few replayed decisions each, instead of a whole replay), those that no
    longer explain the history as well as the best are dropped, and the chain of
    :func:`explaining_deals` tops them up from the survivors: a particle filter over deals.
    """

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._moves: list[tuple[int, Move]] = []
        self._deals: list[Deal] = []

    def deals(self, history: History, rng: random.Random, budget: int, wanted: int,
              deadline: float | None = None) -> tuple[list[Deal], int]:
        """Up to ``wanted`` distinct deals that explain the history best, within about
        ``budget`` replayed decisions (and before the ``deadline`` of ``time.perf_counter``,
        if given); returns them and the work spent."""
        view = history.view
        own = sorted(c.code for c in (*view.hand, *history.played[view.seat]))
        key = (view.seat, view.players, view.rules, view.dealer, view.first_hand, tuple(own))
        spent = 0
        kept: list[Deal] = []
        old = len(self._moves)
        if key == self._key and history.moves[:old] == self._moves:
            for deal in self._deals:
                updated, work = history.extend(deal, old)
                spent += work
                if updated is not None:
                    kept.append(updated)
        found, work = explaining_deals(history, rng, max(0, budget - spent), wanted, kept, deadline)
        spent += work
        self._key = key
        self._moves = list(history.moves)
        self._deals = found
        return found, spent


def explaining_deals(history: History, rng: random.Random, budget: int, wanted: int,
                     start: list[Deal] | None = None,
                     deadline: float | None = None) -> tuple[list[Deal], int]:
    """Up to ``wanted`` distinct deals that explain the history best, found within about
    ``budget`` replayed decisions; returns them and the work spent.

    Given deals to ``start`` from, the chain steps from those at their best level; otherwise
    several chains from random deals share the budget, so that the deals are not all
    neighbours. Each chain keeps the deals it visits at the lowest misfit level reached."""
    spent = 0
    movable = [i for i, size in enumerate(history.sizes) if size > 0]
    if start:
        level = min(d.misfits for d in start)
        found = [d for d in start if d.misfits == level]
        seen = {history.signature(d) for d in found}
        tries = 0
        while spent < budget and len(found) < wanted and len(movable) > 1 and tries < 4 * wanted:
            tries += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            hidden = history.hidden_of(rng.choice(found))
            _swap(hidden, movable, rng)
            deal, work = history.replay(hidden, cap=level)
            spent += work + 1
            if deal is not None and deal.misfits == level:
                sign = history.signature(deal)
                if sign not in seen:
                    seen.add(sign)
                    found.append(deal)
        rng.shuffle(found)
        return found[:wanted], spent
    found = []
    level = _HOPELESS
    chains = 3
    per_chain = max(1, budget // chains)
    for _ in range(chains):
        hidden = history.random_deal(rng)
        deal, work = history.replay(hidden)
        spent += work
        begun = spent
        current = deal.misfits if deal is not None else _HOPELESS
        visited: list[Deal] = [deal] if deal is not None else []
        while spent - begun < per_chain and len(movable) > 1:
            if deadline is not None and time.perf_counter() > deadline:
                break
            undo = _swap(hidden, movable, rng)
            deal, work = history.replay(hidden, cap=current)
            spent += work + 1
            if deal is None:
                undo()
                continue
            if deal.misfits < current:
                visited = []
                current = deal.misfits
            visited.append(deal)
            if current == 0 and len(visited) >= 2 * wanted:
                break
        if current < level:
            found = []
            level = current
        if current == level:
            found.extend(visited[len(visited) // 2:] if len(visited) > wanted else visited)
    distinct = list({history.signature(d): d for d in found}.values())  # a chain can come back
    rng.shuffle(distinct)
    return distinct[:wanted], spent


def _swap(hidden: list[list[Card]], movable: list[int], rng: random.Random) -> Callable[[], None]:
    """Swap two cards between two random holders; returns the undo."""
    a, b = rng.sample(movable, 2)
    ia = rng.randrange(len(hidden[a]))
    ib = rng.randrange(len(hidden[b]))
    hidden[a][ia], hidden[b][ib] = hidden[b][ib], hidden[a][ia]

    def undo() -> None:
        hidden[a][ia], hidden[b][ib] = hidden[b][ib], hidden[a][ia]

    return undo


def history_moves(view: View) -> list[tuple[int, Move]]:
    """The hand's history as (seat, move), others' hidden answers read as declines. A trade
    between other seats (its cards hidden) cannot be replayed: a ValueError."""
    out: list[tuple[int, Move]] = []
    for seat, move in view.events:
        if isinstance(move, Hidden):
            if move.kind is not None:
                raise ValueError(f"cannot replay a hidden trade: {move}")
            move = Action("decline")
        out.append((seat, move))
    return out
