"""The batched environment: N single-seat hands stepped in compiled code, Python crossed once a batch.

``gymnasium.make_vec("tienlen/TienLen-v0", num_envs=N, vectorization_mode="vector_entry_point",
rules=..., players=..., opponents=..., seat=..., reward=...)`` (the id's default vectorization)
makes a :class:`TienLenVectorEnv`: the spaces, observations, masks, rewards and infos of N
:class:`~tienlen.rl.single.SingleSeatEnv` under Gymnasium's ``SyncVectorEnv``
(``autoreset_mode`` next step: the step after a hand's end deals the next hand and ignores
the action), but the learners' actions, the opponents' answers, the deals and the
observations are made by :mod:`tienlen.fast.vector`, all N environments in one call.

Both environments draw every random choice from the same counter (:mod:`.draws`): seeded
alike (environment ``i`` from ``seed + i``, as ``SyncVectorEnv`` seeds), they play the same
hands and return the same bytes (``tests/test_rl_vector.py`` compares them).

What it runs: rules the fast path supports (extra ``fast``: numba) without trading or claims
to ask (automatic instant wins are fine: such a deal is dealt again), opponents among
``random``, ``greedy`` and ``heuristic``, rewards ``rank`` and ``first``. Anything else --
callable opponents, the learned bot, ``units`` rewards, a render mode -- is the single
environment's: :func:`make_vector` then builds Gymnasium's ``SyncVectorEnv`` over it and warns
why (:func:`unsupported` says it beforehand).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..bots.features import SHAPES
from ..game import check_players
from ..rules import Rules
from .actions import ActionSpace
from .draws import key_of
from .observation import HIGH, observation_size

BATCHED_OPPONENTS = ("random", "greedy", "heuristic")  # tienlen.fast.policies' order
_DECISIONS = np.array(["turn", "out_of_turn"], dtype=object)  # the info's words, by the flag
ROWS_KEPT = 96  # the learner's moves kept between its mask and its action (more: listed again)


def _opponents(opponents: Any, players: int) -> list[Any]:
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        return [opponents] * (players - 1)
    return list(opponents)


def unsupported(rules: Rules | str = "pagat", players: int = 4, opponents: Any = "greedy",
                reward: str = "rank", render_mode: str | None = None) -> str | None:
    """Why the batched environment cannot run these settings (None: it can), in words."""
    from .. import fast
    from ..fast.deal import dealt_in_play

    if isinstance(rules, str):
        rules = Rules.preset(rules)
    if not fast.available():
        return "the fast path is not installed (pip install -e '.[fast]')"
    if not fast.supports(rules):
        return "the fast path does not support these rules"
    if not dealt_in_play(rules):
        return ("trading asks decisions before play" if rules.trading != "none" else
                "optional instant wins ask decisions before play")
    if reward not in ("rank", "first"):
        return f"the reward {reward!r} (rank and first are batched)"
    if render_mode is not None:
        return "rendering"
    for spec in _opponents(opponents, players):
        if spec not in BATCHED_OPPONENTS:
            return f"the opponent {spec!r} ({', '.join(BATCHED_OPPONENTS)} are batched)"
    return None


class TienLenVectorEnv(VectorEnv[dict[str, np.ndarray[Any, Any]], np.ndarray[Any, Any],
                                 np.ndarray[Any, Any]]):
    """N single-seat environments in compiled code (see the module text)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012
                                "render_modes": []}

    def __init__(self, num_envs: int, rules: Rules | str = "pagat", players: int = 4,
                 opponents: str | Sequence[str] = "greedy", seat: int | None = None,
                 reward: str = "rank", render_mode: str | None = None, infos: str = "fixed",
                 copy: bool = True) -> None:
        from ..fast import vector as kernels
        from ..fast.encoding import fast_rules
        from ..fast.layout import S_SIZE, SHAPE_CODES

        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number from 1, not {num_envs!r}")
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        players = check_players(players)
        if infos != "fixed":
            raise ValueError("the batched environment's infos are fixed (infos='fixed')")
        why = unsupported(rules, players, opponents, reward, render_mode)
        if why is not None:
            raise ValueError(f"the batched environment cannot run {why}: make_vec with "
                             "vectorization_mode='sync' runs every setting")
        opps = _opponents(opponents, players)
        if len(opps) != players - 1:
            raise ValueError(f"name one opponent per other seat: {players - 1}, not {len(opps)}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < players):
            raise ValueError(f"seat is None or a seat 0 .. {players - 1}, not {seat!r}")
        self.num_envs = num_envs
        self.rules = rules
        self.players = players
        self.copy = copy
        self.render_mode = None
        space = ActionSpace(rules, players)
        self.space = space
        size = observation_size(players)
        self.single_observation_space = gym.spaces.Dict({
            "observation": gym.spaces.Box(0, HIGH, (size,), dtype=np.int8),
            "action_mask": gym.spaces.Box(0, 1, (space.n,), dtype=np.int8),
        })
        self.single_action_space = gym.spaces.Discrete(space.n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

        self._k = kernels
        fr = fast_rules(rules)
        self._cfg, self._chops = fr.cfg, fr.chops
        self._ec = kernels.settings(rules, players, fr.cfg, seat,
                                    [BATCHED_OPPONENTS.index(spec) for spec in opps], reward)
        self._idt = kernels.id_table(space.entries)
        self._shape_index = np.array([SHAPES.index(name) for code, name in
                                      sorted((c, n) for n, c in SHAPE_CODES.items())],
                                     dtype=np.int64)
        self._states = np.zeros((num_envs, S_SIZE), dtype=np.int64)
        self._metas = np.zeros((num_envs, kernels.M_SIZE), dtype=np.int64)
        self._played = np.zeros((num_envs, players + 1, 52), dtype=np.int8)  # and their sum
        self._totals = np.zeros((num_envs, 13), dtype=np.int64)
        self._obs = np.zeros((num_envs, size), dtype=np.int8)
        self._masks = np.zeros((num_envs, space.n), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._rows = np.zeros((num_envs, ROWS_KEPT, 3), dtype=np.int64)  # the learner's moves
        self._rids = np.zeros((num_envs, ROWS_KEPT), dtype=np.int64)
        self._seeded = False

    # ------------------------------------------------------------------ stepping
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """Every environment's next hand; ``seed``: environment ``i`` starts from ``seed + i``
        (or the i-th of a list), its first hand."""
        from ..fast.split import shared_memo  # the heuristic's hand splits, renewed when big

        k = self._k
        if seed is not None or not self._seeded:
            if seed is None:
                seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
            seeds = list(seed) if isinstance(seed, Sequence) else \
                [seed + i for i in range(self.num_envs)]
            if len(seeds) != self.num_envs:
                raise ValueError(f"one seed per environment: {self.num_envs}, not {len(seeds)}")
            for i, s in enumerate(seeds):
                key = key_of(int(s))
                self._metas[i, k.M_KEY] = key - (1 << 64) if key >= 1 << 63 else key
            self._metas[:, k.M_HAND] = -1
            self._seeded = True
        k.reset_all(self._states, self._cfg, self._chops, self._ec, self._metas, self._played,
                    self._totals, self._idt, self._shape_index, shared_memo(), self._obs,
                    self._masks, self._rows, self._rids)
        return self._observations(), self._infos()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray[Any, Any]], np.ndarray[Any, Any],
                                          np.ndarray[Any, Any], np.ndarray[Any, Any],
                                          dict[str, Any]]:
        if not self._seeded:
            raise RuntimeError("reset the environment before stepping it")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"one action id per environment ({self.num_envs} integers), "
                             f"not {np.shape(actions)} of {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)
        from ..fast.split import shared_memo
        self._k.step_all(self._states, self._cfg, self._chops, self._ec, self._metas,
                         self._played, self._totals, self._idt, self._shape_index, shared_memo(),
                         acts, self._obs, self._masks, self._rewards, self._terminated,
                         self._rows, self._rids)
        pick = np.copy if self.copy else (lambda a: a)
        return (self._observations(), pick(self._rewards), pick(self._terminated),
                pick(self._truncated), self._infos())

    def _observations(self) -> dict[str, np.ndarray[Any, Any]]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._obs, "action_mask": self._masks}

    def _infos(self) -> dict[str, Any]:
        """The single environment's fixed infos, stacked as ``SyncVectorEnv`` stacks them."""
        k = self._k
        m = self._metas
        every = np.ones(self.num_envs, dtype=np.bool_)
        asked_out = (m[:, k.M_OOT] != 0) & (m[:, k.M_DONE] == 0)
        return {"illegal": m[:, k.M_ILLEGAL] != 0, "_illegal": every,
                "decision": _DECISIONS[asked_out.view(np.int8)],
                "_decision": every.copy(),
                "legal_count": m[:, k.M_NLEGAL].copy(), "_legal_count": every.copy()}

    @property
    def seats(self) -> np.ndarray[Any, Any]:
        """Each environment's learner seat in its present hand."""
        return self._metas[:, self._k.M_SEAT].copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass


def make_vector(num_envs: int = 1, **kwargs: Any) -> VectorEnv[Any, Any, Any]:
    """The id's vector entry point: :class:`TienLenVectorEnv` where it runs the settings, else
    Gymnasium's ``SyncVectorEnv`` over the single environment, with a warning that says why."""
    from .single import SingleSeatEnv

    why = unsupported(kwargs.get("rules", "pagat"), kwargs.get("players", 4),
                      kwargs.get("opponents", "greedy"), kwargs.get("reward", "rank"),
                      kwargs.get("render_mode"))
    if why is None:
        return TienLenVectorEnv(num_envs, **kwargs)
    warnings.warn(f"tienlen: the batched environment cannot run {why}; stepping "
                  f"{num_envs} single environments in SyncVectorEnv instead", stacklevel=2)
    return SyncVectorEnv([lambda: SingleSeatEnv(**kwargs) for _ in range(num_envs)])


__all__ = ["BATCHED_OPPONENTS", "TienLenVectorEnv", "make_vector", "unsupported"]
