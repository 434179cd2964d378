"""The ``learned`` bot: a value network trained by self-play (``tienlen train``), played with numpy.

It scores every legal play with the network of :mod:`tienlen.bots.features` (the state and
the play as inputs, the expected end-of-hand reward as output) and makes the best one.
Phase decisions (claims, trades, returns) are the simple bots' (:func:`phase_choice`).
The shipped weights (``tienlen/bots/data/learned.npz``, float16) were trained on 4-player
``pagat``; the inputs are defined for any rules and 2-8 players. numpy is the only need.
"""

from __future__ import annotations

import random
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ArgumentError, TienLenError, error
from ..i18n import os_reason
from ..shapes import Play
from .simple import phase_choice

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View
    from .features import MLP

WEIGHTS = "learned.npz"


@cache
def _shipped() -> MLP:
    from .features import MLP

    ref = resources.files("tienlen.bots") / "data" / WEIGHTS
    with resources.as_file(ref) as path:
        return MLP.load(path)


def load_net(weights: str | Path | None = None) -> MLP:
    """The shipped network, or the one saved at ``weights`` (an ``.npz`` from ``tienlen train``)."""
    try:
        import numpy  # noqa: F401
    except ImportError:  # pragma: no cover - numpy is everywhere the rl extra is
        raise error(TienLenError, "err.bot.numpy") from None
    if weights is None:
        return _shipped()
    from .features import MLP

    try:
        return MLP.load(str(weights))
    except OSError as exc:
        raise error(ArgumentError, "err.bot.weights", path=repr(str(weights)),
                    error=os_reason(exc)) from None
    except (ValueError, KeyError):  # not an .npz of tienlen train
        raise error(ArgumentError, "err.bot.not_weights", path=repr(str(weights))) from None


def learned_net() -> MLP | None:
    """The shipped network, or none where numpy is missing (search's ``learned`` candidates)."""
    try:
        return load_net()
    except TienLenError:
        return None


def view_inputs(view: View, plays: list[Play], plan: bool = True) -> tuple[object, object]:
    """The state vector and the action matrix of a view's decision among ``plays`` (``plan``:
    with the hand-plan entries, which a network trained before them does not read)."""
    from ..game import packs_for
    from .features import action_matrix, played_by_seat, state_vector
    from .heuristic import plan_tops

    hand = [c.key(view.rules.suit_order) for c in view.hand]
    played = played_by_seat(view)
    table = view.table
    state = state_vector(view.seat, view.players, hand, played, view.counts, view.finish_order,
                         view.passed, table.keys if table is not None else None,
                         table.shape if table is not None else None, view.table_seat,
                         view.stacking, packs_for(view.players))
    actions = action_matrix(hand, [(p.keys, p.shape) for p in plays], plan_tops(view.rules),
                            state[52:104], plan)
    return state, actions


def _plans(net: MLP) -> bool:
    from .features import LEGACY_INPUT_SIZE

    return net.input_size > LEGACY_INPUT_SIZE


def ranked_plays(view: View, plays: list[Play], net: MLP) -> list[Play]:
    """``plays`` (two or more) best first by the network's scores of the view's decision."""
    state, actions = view_inputs(view, plays, _plans(net))
    scores = net.scores(state, actions)  # type: ignore[arg-type]
    order = sorted(range(len(plays)), key=lambda i: (-float(scores[i]), i))
    return [plays[i] for i in order]


class LearnedBot:
    """The best play by the learned value network (``epsilon``: a random play that often)."""

    name = "learned"

    def __init__(self, seed: int | None = None, weights: str | Path | None = None,
                 epsilon: float = 0.0, net: MLP | None = None) -> None:
        self._rng = random.Random(seed)
        self.net = net if net is not None else load_net(weights)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float):
            raise error(ArgumentError, "err.bot.number", option="epsilon", value=repr(epsilon))
        self.epsilon = float(epsilon)
        self._plan = _plans(self.net)

    def choose(self, view: View) -> Move:
        if view.phase != "play":  # claims, trades, returns (a trade's offers are a lazy list)
            return phase_choice(view)
        plays = [m for m in view.legal if isinstance(m, Play)]
        if not plays:
            return phase_choice(view)
        if len(plays) == 1:
            return plays[0]
        if self.epsilon and self._rng.random() < self.epsilon:
            return self._rng.choice(plays)
        state, actions = view_inputs(view, plays, self._plan)
        scores = self.net.scores(state, actions)  # type: ignore[arg-type]
        return plays[int(scores.argmax())]
