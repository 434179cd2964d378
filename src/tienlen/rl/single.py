"""A Gymnasium single-seat environment: the learner plays one seat, bots play the others.

``SingleSeatEnv(rules="pagat", players=4, opponents="heuristic", seat=None, reward="rank")``:
observations, actions, masks and infos are those of the AEC environment
(:mod:`tienlen.rl.aec`) for the learner's seat. ``opponents`` is a bot name of the ladder
(``random``, ``greedy``, ``heuristic``, ``learned``, ...), a list of them (one per other
seat), or callables taking a :class:`~tienlen.view.View` and returning one of its
``legal`` moves (any object with ``choose(view)`` works too). Out of turn, a bot's view
lists its chops and ``pass``. The bots' moves are played as they choose them (any card
set), except ``random``'s: it draws uniformly among the legal action ids and plays the
id's lowest card set. ``seat=None`` seats the learner at random on each reset.

Every random choice -- the deal, the learner's seat, the ``random`` opponents' picks, the
other bots' seeds -- is a counter-based draw (:mod:`.draws`) from the reset's seed and the
number of hands since, the very draws of the batched environment (:mod:`.vector`): seeded
alike, the two play the same hands. The reward is the
learner's, at the end of the hand. ``infos="fixed"`` (the registered id's) keeps each info of
one shape, for the vector environments: ``illegal``, ``decision`` and ``legal_count`` (the
legal ids are the mask's); ``"full"`` adds the AEC environment's ``legal_ids``,
``legal_cards`` and ``legal_text``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium.vector import AutoresetMode
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..actions import Move
from ..bots import get_bot
from ..rules import Rules
from ..turns import view_for_decision
from .aec import TienLenEnv
from .draws import BOT_SEED_INDEX, PICK_INDEX, SEAT_INDEX, below, deal, draw, key_of
from .render import render_text

Opponent = str | Callable[[Any], Move] | Any


INFOS: Final = ("full", "fixed")


def fixed_info(info: dict[str, Any]) -> dict[str, Any]:
    """An info of fixed shape (the vector environments stack each key across environments):
    the legal ids are the mask's, the cards of each id and their text left out."""
    return {"illegal": bool(info.get("illegal", False)), "decision": info.get("decision", "turn"),
            "legal_count": len(info.get("legal_ids", ()))}


class SingleSeatEnv(gym.Env[dict[str, np.ndarray[Any, Any]], int]):
    # a finished hand is reset by the vector environments at the next step (Gymnasium's default)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4,  # noqa: RUF012
                                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, rules: Rules | str = "pagat", players: int = 4,
                 opponents: Opponent | Sequence[Opponent] = "greedy", seat: int | None = None,
                 reward: str = "rank", render_mode: str | None = None, infos: str = "full") -> None:
        if infos not in INFOS:
            raise ValueError(f"infos must be full or fixed, not {infos!r}")
        self.infos = infos
        self.aec = TienLenEnv(rules=rules, players=players, reward=reward, render_mode=render_mode)
        self.players = players
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"name one opponent per other seat: {players - 1}, not {len(opponents)}")
        self.opponents = list(opponents)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self._bots: dict[int, Any] = {}
        self._key = -1  # the counter's key (:mod:`.draws`; -1: none yet), its deal and picks
        self._hand = -1
        self._picks = 0

    def _make_bots(self) -> None:
        self._bots = {}
        others = [s for s in range(self.players) if s != self.seat]
        for index, (other, spec) in enumerate(zip(others, self.opponents, strict=True)):
            if spec == "random":  # the counter's draws among the legal ids (None here)
                self._bots[other] = None
            elif isinstance(spec, str):
                bot_seed = draw(self._key, self._hand, BOT_SEED_INDEX + index) % 2**31
                self._bots[other] = get_bot(spec, seed=bot_seed)
            else:
                self._bots[other] = spec

    def _bot_move(self, seat: int) -> Move:
        aec = self.aec
        game = aec.game
        assert game is not None
        asked = aec._decision
        assert asked is not None and asked.seat == seat
        bot = self._bots[seat]
        if bot is None:  # random: uniform among the legal ids, the id's lowest card set played
            ids = list(aec._legal)  # in increasing order
            pick = ids[below(self._key, self._hand, PICK_INDEX + self._picks, len(ids))]
            self._picks += 1
            return aec._legal[pick]
        view = view_for_decision(game, asked)  # out of turn: its chops and pass
        move: Move = bot.choose(view) if hasattr(bot, "choose") else bot(view)
        return move

    def _advance(self) -> None:
        aec = self.aec
        assert aec.game is not None
        while not aec.game.is_over and aec._asking != self.seat:
            aec.apply_move(self._bot_move(aec._asking))

    def _out(self) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        agent = self.aec.possible_agents[self.seat]
        info = self.aec.infos[agent]
        return self.aec.observe(agent), fixed_info(info) if self.infos == "fixed" else dict(info)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """A new hand: the first under ``seed`` (the counter's key), else the next hand of the
        key (the first reset without a seed draws a key)."""
        super().reset(seed=seed)
        if seed is not None or self._key < 0:
            self._key = key_of(seed if seed is not None else
                               int(self.np_random.integers(0, 2**63 - 1)))
            self._hand = -1
        for _ in range(1000):  # a deal over before the learner is asked: the next one
            self._hand += 1
            if self.fixed_seat is None:
                self.seat = below(self._key, self._hand, SEAT_INDEX, self.players)
            self.aec.reset(options={"game": deal(self.aec.rules, self.players, self._key,
                                                 self._hand)})
            self._make_bots()
            self._picks = 0
            self._advance()
            assert self.aec.game is not None
            if not self.aec.game.is_over:
                break
        return self._out()

    def step(self, action: int) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        assert aec.game is not None
        illegal = action is None or int(action) not in aec._legal
        aec.step(action)
        self._advance()
        over = aec.game.is_over
        reward = float(aec.rewards[aec.possible_agents[self.seat]]) if over else 0.0
        obs, info = self._out()
        info["illegal"] = illegal  # the learner's action (the bots' moves since reset the AEC's)
        return obs, reward, over, False, info

    def render(self) -> str | None:
        """The hand as text (:mod:`.render`), the learner's cards shown."""
        game = self.aec.game
        if game is None:
            return None
        asked = None if game.is_over else self.aec._asking
        return render_text(game, self.seat, asked, self.aec.possible_agents)
