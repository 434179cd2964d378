"""The ``search`` bot: determinized Monte-Carlo search (PIMC) with heuristic rollouts.

For each decision it deals the cards it has not seen to the other seats at
random, consistent with what it knows (each seat's card count, every card
already played, and its own hand), replays the hand's public history on that
deal, and plays each candidate action out to the end of the hand with the
heuristic bot at every seat. The same sampled deals are used for every
candidate, so the comparison is fair; the candidate with the best mean result
is played, unless it beats the heuristic's own choice by less than ``margin``
(a share of the sampled deals): small differences are noise.

The budget is counted in simulated decisions (``steps``), so a decision near
the end of a hand, whose playouts are short, samples more deals than one at
the start; ``worlds`` caps the deals and ``seconds`` (off by default, so that
a seeded bot is reproducible on any machine) caps the time. The default
budget decides within a quarter of a second here; larger budgets play
stronger.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from ..actions import Action, parse_move
from ..cards import ACE, CODE_TO_KEY, TWO
from ..game import Game
from ..shapes import Play
from .heuristic import HeuristicBot, Situation, decide, situation_of
from .split import counts_of, groups_after

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View


def rollout_situation(game: Game, seat: int, total: list[int]) -> Situation:
    """The heuristic's situation for ``seat`` inside a sampled world, where it sees all;
    ``total`` counts the cards of each rank still held by anyone."""
    hands = game._hands
    own = hands[seat]
    rest = list(total)
    for k in own:
        rest[k >> 2] -= 1
    top = -1
    others = []
    for s, h in enumerate(hands):
        if s != seat and h:
            others.append(len(h))
            if h[-1] > top:
                top = h[-1]
    return Situation(tuple(own), game.legal_plays(seat), game._table, tuple(others), tuple(rest),
                     top, game.rules)


def playout(game: Game, max_steps: int = 2000) -> int:
    """Play a sampled world to the end with the heuristic at every seat; return the steps."""
    total = [0] * 13
    for hand in game._hands:
        for k in hand:
            total[k >> 2] += 1
    steps = 0
    while game._turn is not None and steps < max_steps:
        seat = game._turn
        move = decide(rollout_situation(game, seat, total))
        game.push(move, seat)
        if isinstance(move, Play):
            for k in move.keys:
                total[k >> 2] -= 1
        steps += 1
    return steps


class SearchBot:
    """PIMC search over the unseen cards with heuristic rollouts (see the module text)."""

    name = "search"

    def __init__(self, seed: int | None = None, steps: int = 3000, worlds: int = 200,
                 seconds: float | None = None, candidates: int = 6, objective: str = "first",
                 margin: float = 0.05, evidence: int = 0) -> None:
        if objective not in _OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(_OBJECTIVES)}, not {objective!r}")
        for label, count in (("steps", steps), ("worlds", worlds), ("candidates", candidates)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"{label} must be a whole number, 1 or more, not {count!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or seconds <= 0):
            raise ValueError(f"seconds must be a positive number or none, not {seconds!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise ValueError(f"margin must be a number, not {margin!r}")
        self._rng = random.Random(seed)
        self.steps = steps
        self.worlds = worlds
        self.seconds = seconds
        self.candidates = candidates
        self.objective = objective
        self.margin = margin
        self.evidence = evidence  # how many recent actions weigh each sampled deal
        self._fallback = HeuristicBot(seed)

    def choose(self, view: View) -> Move:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if (view.phase != "play" or view.turn != view.seat
                or any(text.split()[0] in _TRADE_WORDS for _, text in view.history)):
            # trades move hidden cards, and an out-of-turn chop offer is a moment no replay
            # reaches: the heuristic decides those
            return self._fallback.choose(view)
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        weights = 0.0
        spent = 0
        for _ in range(self.worlds):
            sampled = self._sample(view)
            if sampled is None:
                continue  # a deal the history rules out: the next one
            world, weight = sampled
            for i, move in enumerate(candidates):
                trial = world.copy()
                trial.push(move, view.seat)
                spent += playout(trial) + 1
                totals[i] += weight * _OBJECTIVES[self.objective](trial, view.seat)
            done += 1
            weights += weight
            if spent >= self.steps or (deadline is not None and time.perf_counter() > deadline):
                break
        if not done:
            return self._fallback.choose(view)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        if totals[best] - totals[0] < self.margin * weights:
            best = 0  # not clearly better than the heuristic's own choice: keep that
        return candidates[best]

    def _candidates(self, view: View) -> list[Move]:
        """Diverse options: the heuristic's choice, a pass when allowed, then for each kind of
        combination its cleanest low play, then each kind's strongest play."""
        first = decide(situation_of(view))
        plays = [m for m in view.legal if isinstance(m, Play)]
        rules = view.rules
        run_top = TWO if rules.twos_in_runs else ACE
        chain_top = TWO if rules.twos_in_chains else ACE
        to_key = CODE_TO_KEY[rules.suit_order]
        counts = counts_of([to_key[c.code] for c in view.hand])
        ranked = sorted((p for p in plays if p.keys),
                        key=lambda p: (groups_after(counts, p.keys, run_top, chain_top),
                                       p.keys[-1] >> 2, -len(p.keys)))
        lowest: dict[tuple[str | None, int], Play] = {}
        strongest: dict[tuple[str | None, int], Play] = {}
        for p in ranked:
            kind = (p.shape, len(p.keys))
            lowest.setdefault(kind, p)
            if kind not in strongest or p.keys[-1] > strongest[kind].keys[-1]:
                strongest[kind] = p
        out: list[Move] = [first]
        for p in [*(q for q in plays if not q.keys), *lowest.values(), *strongest.values(),
                  *ranked]:
            if len(out) >= self.candidates:
                break
            if p not in out:
                out.append(p)
        return out

    def _sample(self, view: View) -> tuple[Game, float] | None:
        """A deal of the unseen cards consistent with the view, replayed to the present, with
        its weight: how well the other seats' recent plays and passes fit that deal (the
        plays the heuristic would have made there count as likely; others as unlikely)."""
        unseen = view.unseen()
        self._rng.shuffle(unseen)
        played: list[list[str]] = [[] for _ in range(view.players)]
        moves = _history_moves(view)
        for seat, move in moves:
            if isinstance(move, Play):
                played[seat].extend(str(c) for c in move.cards)
        dealt: list[list[str]] = []
        pos = 0
        for seat in range(view.players):
            if seat == view.seat:
                now = [str(c) for c in view.hand]
            else:
                now = [str(c) for c in unseen[pos:pos + view.counts[seat]]]
                pos += view.counts[seat]
            dealt.append(now + played[seat])
        weight = 1.0
        judged = len(moves) - self.evidence
        try:
            game = Game(view.rules, dealt, leader=view.leader if not view.lowest_start else None,
                        dealer=view.dealer, first_hand=view.first_hand)
            if game.is_over:
                return None  # an automatic instant win that the real deal did not hold
            for index, (seat, move) in enumerate(moves):
                if isinstance(move, Action) and move.kind in ("claim", "decline"):
                    if game.phase != "claim":
                        continue  # an automatic claim
                    move = Action("decline")  # others' answers are hidden: they declined
                elif (index >= judged and seat != view.seat and game._turn == seat
                      and game.phase == "play"):
                    total = [0] * 13
                    for hand in game._hands:
                        for k in hand:
                            total[k >> 2] += 1
                    expected = decide(rollout_situation(game, seat, total))
                    weight *= _FITS if expected == move else _MISFITS
                game.push(move, seat)
        except (ValueError, AssertionError):
            return None
        return (game, weight) if game._turn == view.seat else None


_FITS, _MISFITS = 0.65, 0.35  # how likely a seat's play is when it fits the sampled deal, or not
_TRADE_WORDS = frozenset(("offer", "answer", "accept", "refuse", "done", "give", "return"))


def _history_moves(view: View) -> list[tuple[int, Move]]:
    out: list[tuple[int, Move]] = []
    for seat, text in view.history:
        if text == "answered":
            out.append((seat, Action("decline")))
        else:
            out.append((seat, parse_move(text, view.rules)))
    return out


def _first(game: Game, seat: int) -> float:
    """Going out first is worth 1; a better place breaks ties between hopeless lines."""
    finish = game.finish_order
    if seat not in finish:
        return 0.0
    place = finish.index(seat)
    return (1.0 if place == 0 else 0.0) + 0.1 * (1 - place / (game.players - 1))


def _units(game: Game, seat: int) -> float:
    """The units the seat wins or pays in the hand."""
    return float(game.scores[seat])


def _place(game: Game, seat: int) -> float:
    """First place is worth 1, and each place above last half as much again in steps."""
    finish = game.finish_order
    if seat not in finish:
        return 0.0
    place = finish.index(seat)
    return (1.0 if place == 0 else 0.0) + 0.5 * (1 - place / (game.players - 1))


_OBJECTIVES = {"first": _first, "place": _place, "units": _units}
