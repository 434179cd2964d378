"""The ``search`` bot: determinized Monte-Carlo search (PIMC) with heuristic rollouts.

For each decision it deals the cards it has not seen to the other seats at
random, consistent with what it knows (each seat's card count, every card
already played, and its own hand), replays the hand's public history on that
deal, and plays each candidate action out to the end of the hand with the
heuristic bot at every seat. The same sampled deals are used for every
candidate, so the comparison is fair; the candidate with the best mean result
is played, unless it beats the heuristic's own choice by less than ``margin``
(a share of the sampled deals): small differences are noise. The margin is smaller
on the fast path (``FAST_MARGIN``), where many more deals are sampled.

With ``learned`` (a number, 0 by default) the learned network's best plays (see
:mod:`.learned`) join the candidates right after the heuristic's choice, that many of them
(within ``candidates`` in all); without numpy the option does nothing.

With ``inference`` (a share of the budget, 0 by default) the deals are not
blind: they are the deals that best explain the other seats' plays and passes
(see :mod:`.inference`), kept and brought up to date from one decision to the
next.

The budget is counted in simulated decisions (``steps``), so a decision near
the end of a hand, whose playouts are short, samples more deals than one at
the start; ``worlds`` caps the deals and ``seconds`` (off by default, so that
a seeded bot is reproducible on any machine) caps the time. The default
budget decides within a quarter of a second here; larger budgets play
stronger. With the fast path installed (``tienlen[fast]``) and supporting the
rules, the rollouts are compiled (:mod:`.fast_rollout`) and the default budget
is larger, with inference (``FAST_STEPS``, ``FAST_WORLDS``, ``FAST_INFERENCE``);
without it nothing changes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final

from ..actions import TRADE_KINDS, Action, Hidden
from ..cards import ACE, CODE_TO_KEY, TWO
from ..errors import ArgumentError, error
from ..game import Game
from ..shapes import Play
from .fast_inference import FastHistory
from .fast_inference import usable as fast_history_usable
from .fast_rollout import FAST_INFERENCE, FAST_MARGIN, FAST_STEPS, FAST_WORLDS, FastRollouts, usable
from .heuristic import HeuristicBot, decide, situation_of
from .inference import Beliefs, Deal, History
from .learned import learned_net, ranked_plays
from .rollout import playout
from .split import counts_of, groups_after

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View
    from .features import MLP

PURE_STEPS: Final = 3000  # the default budget on the pure engine (FAST_*: on the fast path)
PURE_WORLDS: Final = 200
PURE_INFERENCE: Final = 0.0
PURE_MARGIN: Final = 0.05


class SearchBot:
    """PIMC search over the unseen cards with heuristic rollouts (see the module text)."""

    name = "search"
    # the options whose default (None) depends on the path: (pure engine, fast path)
    path_defaults: ClassVar[dict[str, tuple[float, float]]] = {
        "steps": (PURE_STEPS, FAST_STEPS), "worlds": (PURE_WORLDS, FAST_WORLDS),
        "inference": (PURE_INFERENCE, FAST_INFERENCE), "margin": (PURE_MARGIN, FAST_MARGIN)}

    def __init__(self, seed: int | None = None, steps: int | None = None, worlds: int | None = None,
                 seconds: float | None = None, candidates: int = 6, objective: str = "rules",
                 margin: float | None = None, inference: float | None = None, learned: int = 0) -> None:
        if objective not in _OBJECTIVES:
            raise error(ArgumentError, "err.bot.objective", choices=", ".join(_OBJECTIVES),
                        value=repr(objective))
        for label, count in (("steps", steps), ("worlds", worlds), ("candidates", candidates)):
            if count is None and label != "candidates":
                continue  # the default: path_defaults
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise error(ArgumentError, "err.bot.count", option=label, value=repr(count))
        if isinstance(learned, bool) or not isinstance(learned, int) or learned < 0:
            raise error(ArgumentError, "err.bot.count0", option="learned", value=repr(learned))
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or seconds <= 0):
            raise error(ArgumentError, "err.bot.seconds", value=repr(seconds))
        if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))):
            raise error(ArgumentError, "err.bot.number", option="margin", value=repr(margin))
        if inference is not None and (isinstance(inference, bool)
                                      or not isinstance(inference, (int, float))
                                      or not 0 <= inference < 1):
            raise error(ArgumentError, "err.bot.inference", value=repr(inference))
        self._rng = random.Random(seed)
        self.steps = steps
        self.worlds = worlds
        self.seconds = seconds
        self.candidates = candidates
        self.objective = objective
        self.margin = margin
        self.inference = inference
        self.learned = learned
        self._net = learned_net() if learned else None
        self._fallback = HeuristicBot(seed)
        self._beliefs = Beliefs()

    def choose(self, view: View) -> Move:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if unsearched(view) is not None:
            # trades move hidden cards, and an out-of-turn chop offer is a moment no replay
            # reaches: the heuristic decides those
            return self._fallback.choose(view)
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        aim = _objective_for(self.objective, view)
        fast = (FastRollouts(view.rules, view.seat, view.players, candidates,
                             _WEIGHTS.get(aim, 0.0), units=aim == "units")
                if usable(view.rules, aim) else None)
        steps = self.steps or (FAST_STEPS if fast else PURE_STEPS)
        worlds = self.worlds or (FAST_WORLDS if fast else PURE_WORLDS)
        history = (FastHistory(view) if fast is not None and fast_history_usable(view)
                   else History(view))
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        spent = 0
        deals: list[Deal] = []
        inference = self.inference if self.inference is not None else \
            (FAST_INFERENCE if fast else PURE_INFERENCE)
        if inference:
            deals, spent = self._beliefs.deals(history, self._rng, int(steps * inference),
                                               worlds, deadline)
        totals = [0.0] * len(candidates)
        objective = _OBJECTIVES[aim]
        done = 0
        for index in range(worlds):
            if index < len(deals):
                deal: Deal | None = deals[index]
            elif inference:
                break  # every deal found is played
            else:
                deal = blind_deal(history, self._rng)
                if deal is None:
                    continue  # a deal the history rules out: the next one
            assert deal is not None
            if fast is not None:
                spent += fast.play(deal, totals)
            for i, move in enumerate(candidates if fast is None else ()):
                trial, simulated = played_out(deal, move, view.seat)
                spent += simulated
                totals[i] += objective(trial, view.seat)
            done += 1
            if spent >= steps or (deadline is not None and time.perf_counter() > deadline):
                break
        if not done:
            return self._fallback.choose(view)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        margin = self.margin if self.margin is not None else (FAST_MARGIN if fast else PURE_MARGIN)
        if totals[best] - totals[0] < margin * done:
            best = 0  # not clearly better than the heuristic's own choice: keep that
        return candidates[best]

    def _candidates(self, view: View) -> list[Move]:
        return candidates_for(view, self.candidates, self._net, self.learned)


def candidates_for(view: View, count: int = 6, net: MLP | None = None,
                   learned: int = 0) -> list[Move]:
    """Search's candidates at a decision, ``count`` at most: the heuristic's choice, with
    ``net`` its ``learned`` best plays by the learned network, a pass when allowed, then for
    each kind of combination its cleanest low play, then each kind's strongest play."""
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
    if net is not None and len(plays) > 1:
        for p in ranked_plays(view, plays, net):
            if len(out) > learned or len(out) >= count:
                break
            if p not in out:
                out.append(p)
    for p in [*(q for q in plays if not q.keys), *lowest.values(), *strongest.values(),
              *ranked]:
        if len(out) >= count:
            break
        if p not in out:
            out.append(p)
    return out


def unsearched(view: View) -> str | None:
    """Why search does not evaluate this decision, in a word (None: it does): ``forced`` (one
    legal move), ``phase`` (not the play: an exchange, a trade, a claim), ``out_of_turn`` (a
    chop or free chop offered out of turn: a moment no replay of the history reaches), or
    ``trades`` (the hand had trades, which move hidden cards)."""
    if len(view.legal) == 1:
        return "forced"
    if view.phase != "play":
        return "phase"
    if view.turn != view.seat:
        return "out_of_turn"
    if any(isinstance(move, (Action, Hidden)) and move.kind in TRADE_KINDS
           for _, move in view.events):
        return "trades"
    return None


def scores_units(view: View) -> bool:
    """Whether search plays for units at this table by default (the rules pay for more than
    the finish order: ``objective=rules``), rather than for first place."""
    return _objective_for("rules", view) == "units"


def blind_deal(history: History, rng: random.Random) -> Deal | None:
    """A blind deal of the unseen cards with the history replayed on it (None: the history
    rules it out)."""
    deal, _ = history.replay(history.random_deal(rng), judge=False)
    return deal


def played_out(deal: Deal, move: Move, seat: int) -> tuple[Game, int]:
    """``move`` made by ``seat`` on a copy of the deal, played out to the end with the heuristic
    everywhere: the finished game, and the steps simulated."""
    trial = deal.game.copy()
    trial.push(move, seat)
    return trial, playout(trial, deal.aside) + 1


def _by_place(weight: float) -> Callable[[Game, int], float]:
    """An objective where going out first is worth 1, and the places above last up to
    ``weight`` more, in equal steps."""

    def value(game: Game, seat: int) -> float:
        finish = game.finish_order
        if seat not in finish:
            return 0.0
        place = finish.index(seat)
        return (1.0 if place == 0 else 0.0) + weight * (1 - place / (game.players - 1))

    return value


def _units(game: Game, seat: int) -> float:
    """The units the seat wins or pays in the hand."""
    return float(game.scores[seat])


def _objective_for(name: str, view: View) -> str:
    """``rules``: the objective the rules' scoring asks for. Where units change hands for
    more than the finish order (places with penalties, chop payments, cóng: §11; penalties of
    §8), the units; otherwise going out first, as before."""
    if name != "rules":
        return name
    rules = view.rules
    if rules.scoring == "none":
        return "place"
    if rules.scoring == "places" or rules.chop_pay != "none" or rules.penalty_two \
            or rules.penalty_bomb or rules.penalty_no_play:
        return "units"
    return "first"


_WEIGHTS = {
    "first": 0.1,  # a better place only breaks ties between hopeless lines
    "place": 0.5,
}
_OBJECTIVES = {
    "first": _by_place(_WEIGHTS["first"]),
    "place": _by_place(_WEIGHTS["place"]),
    "units": _units,
    "rules": _units,  # resolved per view by _objective_for
}
