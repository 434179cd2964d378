"""Self-play actors at compiled speed: many hands played at once by one network (``tienlen train``).

:class:`Actors` keeps N hands in play in the fast form (:mod:`tienlen.fast.selfplay`). Each
:meth:`Actors.step` moves every hand on until the network is asked, writes the inputs of every
decision asked (a state vector a decision, an action vector a legal move), scores them in one
forward pass of the numpy network (:meth:`~tienlen.bots.features.MLP.batch_scores`: the state's
part of the first layer once a decision), and makes each hand's choice (the best score, or with
``epsilon`` a move drawn at random): one crossing into compiled code for the game and one for the
features per batch, not per decision. It returns the hands that ended: each decision of the network
with the place of the seat that made it -- what :func:`tienlen.rl.train.self_play_hand` returns a
hand at a time on the pure engine, which stays the reference (and the path for what this does not
run: :func:`unsupported`).

At a league's table (``league``: bots of the ladder, ``league_share``: the share of the N tables
that seat them) one seat is the network's and the others are compiled bots; every other table is
the network at every seat. Deals come from the counter (:mod:`tienlen.rl.draws`) keyed by ``seed``
and the table's number.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..bots.features import ACTION_SIZE, INPUT_SIZE, MLP, STATE_SIZE
from ..bots.heuristic import plan_tops
from ..game import check_players
from ..rules import Rules
from .draws import key_of

if TYPE_CHECKING:
    from .frameclock import FrameClock

LEAGUE_BOTS = ("random", "greedy", "heuristic")  # the compiled bots, tienlen.fast.policies' order
KEPT = 64  # a hand's decisions kept at first (doubled when a hand makes more)


def unsupported(rules: Rules, league: Sequence[str] = ()) -> str | None:
    """Why the compiled actors cannot play these settings (None: they can), in words."""
    from .. import fast

    if not fast.available():
        return "the fast path is not installed (pip install -e '.[fast]')"
    from ..fast.deal import dealt_in_play

    if not fast.supports(rules):
        return "the fast path does not support these rules"
    if not dealt_in_play(rules):
        return "these rules ask decisions before the play (trading or instant-win claims)"
    for name in league:
        if name not in LEAGUE_BOTS:
            return f"the league's bot {name!r} ({', '.join(LEAGUE_BOTS)} are compiled)"
    return None


@dataclass
class Ended:
    """The hands that ended in one step: the network's decisions (inputs, float32 rows), the
    place of the seat that made each, how many hands, and their count of decisions made."""

    inputs: np.ndarray[Any, np.dtype[np.float32]]
    places: np.ndarray[Any, np.dtype[np.int64]]  # the place (0 first) of each row's seat
    hands: int = 0
    frames: int = 0


class Actors:
    """N hands of self-play in compiled code (see the module text)."""

    def __init__(self, rules: Rules, players: int, envs: int = 64, seed: int = 0,
                 league: Sequence[str] = (), league_share: float = 0.0) -> None:
        from ..fast import selfplay as kernels
        from ..fast import vector
        from ..fast.encoding import fast_rules
        from ..fast.layout import S_SIZE
        from ..fast.split import new_memo
        from .actions import ActionSpace

        why = unsupported(rules, league)
        if why is not None:
            raise ValueError(f"the compiled actors cannot run {why}")
        if envs < 1:
            raise ValueError(f"envs is a whole number from 1, not {envs!r}")
        if not 0 <= league_share <= 1:
            raise ValueError(f"league_share is a share from 0 to 1, not {league_share!r}")
        players = check_players(players)
        self._k = kernels
        self._v = vector
        self.players = players
        self.envs = envs
        fr = fast_rules(rules)
        self._cfg, self._chops = fr.cfg, fr.chops
        selfish = vector.settings(rules, players, fr.cfg, 0, [-1] * (players - 1))
        tables = [selfish]
        for name in league:
            bot = LEAGUE_BOTS.index(name)
            tables.append(vector.settings(rules, players, fr.cfg, None, [bot] * (players - 1)))
        self._ecs = np.stack(tables)
        leagued = round(envs * league_share) if league else 0
        self._tables = np.zeros(envs, dtype=np.int64)
        for e in range(leagued):  # the league's tables, its bots in turn
            self._tables[e] = 1 + e % len(league)
        self._idt = vector.id_table(ActionSpace(rules, players).entries)
        self._tops = np.array(plan_tops(rules), dtype=np.int64)
        self._memo = new_memo()
        self._states = np.zeros((envs, S_SIZE), dtype=np.int64)
        self._metas = np.zeros((envs, vector.M_SIZE), dtype=np.int64)
        self._owns = np.zeros((envs, kernels.A_SIZE), dtype=np.int64)
        self._played = np.zeros((envs, players + 1, 52), dtype=np.int8)
        self._totals = np.zeros((envs, 13), dtype=np.int64)
        self._moves = np.zeros((envs, 256, 3), dtype=np.int64)
        self._state_rows = np.zeros((envs, STATE_SIZE), dtype=np.float32)  # a hand's decision
        self._action_rows = np.zeros((envs * 16, ACTION_SIZE), dtype=np.float32)  # its moves
        self._owner = np.zeros(envs * 16, dtype=np.int64)  # each move's hand
        self._choices = np.zeros(envs, dtype=np.int64)
        self._places = np.zeros((envs, players), dtype=np.int64)
        for e in range(envs):
            key = key_of(seed * 1_000_003 + e)
            self._metas[e, vector.M_KEY] = key - (1 << 64) if key >= 1 << 63 else key
        self._metas[:, vector.M_HAND] = -1
        self._metas[:, vector.M_DONE] = 1
        self._owns[:, kernels.A_DEAL] = 1
        self._rng = np.random.default_rng(seed)
        # each hand's decisions so far, as the learner reads them, and the seat of each
        self._kept = np.zeros((envs, KEPT, INPUT_SIZE), dtype=np.float32)
        self._kept_seats = np.zeros((envs, KEPT), dtype=np.int64)
        self._counts = np.zeros(envs, dtype=np.int64)

    def step(self, net: MLP, epsilon: float = 0.0, clock: FrameClock | None = None) -> Ended:
        """Every hand moved on to the network's next decision and that decision made; the
        hands that ended meanwhile returned (and dealt again at the next step). ``clock``:
        the step's CPU time added to it by part (the game and the bots, the features, the
        network's scores)."""
        k = self._k
        t0 = time.process_time()
        while True:
            need = k.move_all(self._states, self._cfg, self._chops, self._ecs, self._tables,
                              self._metas, self._owns, self._played, self._totals, self._moves,
                              self._idt, self._memo)
            if not need:
                break
            grown = np.zeros((self.envs, 2 * need, 3), dtype=np.int64)
            grown[:, :self._moves.shape[1]] = self._moves
            self._moves = grown
        ended = self._ended()
        t1 = time.process_time()
        rows = self._inputs(k)
        if rows < 0:
            self._action_rows = np.zeros((2 * -rows, ACTION_SIZE), dtype=np.float32)
            self._owner = np.zeros(2 * -rows, dtype=np.int64)
            rows = self._inputs(k)
        t2 = time.process_time()
        if rows:
            scores = net.batch_scores(self._state_rows, self._action_rows[:rows],
                                      self._owner[:rows])
            explore = self._rng.random(self.envs) < epsilon
            draws = self._rng.random(self.envs)
            k.pick(scores, self._owns, explore, draws, self._choices)
            self._keep(k)
        t3 = time.process_time()
        k.answer(self._states, self._cfg, self._chops, self._ecs, self._tables, self._metas,
                 self._owns, self._played, self._totals, self._moves, self._choices)
        t4 = time.process_time()
        if clock is not None:
            clock.add("environment", (t1 - t0) + (t4 - t3))
            clock.add("features", t2 - t1)
            clock.add("inference", t3 - t2)
        return ended

    def _inputs(self, k: Any) -> int:
        return int(k.inputs(self._states, self._ecs, self._tables, self._metas, self._owns,
                            self._played, self._moves, self._tops, self._memo, self._state_rows,
                            self._action_rows, self._owner))

    def _keep(self, k: Any) -> None:
        """Each decision made, its inputs kept with its hand's (:func:`~tienlen.fast.selfplay.keep`;
        a hand's rows doubled when they are full)."""
        while True:
            need = k.keep(self._state_rows, self._action_rows, self._owns, self._metas,
                          self._choices, self._kept, self._kept_seats, self._counts)
            if not need:
                return
            rows = max(need, 2 * self._kept.shape[1])
            kept = np.zeros((self.envs, rows, INPUT_SIZE), dtype=np.float32)
            kept[:, :self._kept.shape[1]] = self._kept
            seats = np.zeros((self.envs, rows), dtype=np.int64)
            seats[:, :self._kept_seats.shape[1]] = self._kept_seats
            self._kept, self._kept_seats = kept, seats

    def _ended(self) -> Ended:
        """The hands over since the last step, read (and marked to be dealt again)."""
        k, v = self._k, self._v
        over = np.flatnonzero((self._metas[:, v.M_DONE] != 0) & (self._owns[:, k.A_DEAL] == 0))
        if over.size == 0:
            return Ended(np.zeros((0, INPUT_SIZE), dtype=np.float32),
                         np.zeros(0, dtype=np.int64))
        k.places(self._states, self._metas, self._owns, self.players, self._places)
        rows: list[np.ndarray[Any, Any]] = []
        places: list[np.ndarray[Any, Any]] = []
        for e, n in zip(over.tolist(), self._counts[over].tolist(), strict=True):
            rows.append(self._kept[e, :n])
            places.append(self._places[e, self._kept_seats[e, :n]])
        frames = int(self._owns[over, k.A_FRAMES].sum())
        self._counts[over] = 0
        self._owns[over, k.A_DEAL] = 1
        return Ended(np.concatenate(rows), np.concatenate(places).astype(np.int64, copy=False),
                     int(over.size), frames)
