"""An OpenSpiel Python game: ``python_tienlen`` (optional: ``pip install open_spiel``).

>>> import pyspiel, tienlen.rl.openspiel          # registers the game
>>> game = pyspiel.load_game("python_tienlen", {"players": 4, "rules": "pagat"})

The deal is explicit chance: one chance action per card dealt, round the table from
seat 0 (the action is the card's code ``rank * 4 + suit``, with the probability of
the copies left). Then the players' actions are the canonical ids of
:mod:`tienlen.rl.actions` and the decisions are asked in the order of the AEC
environment (:mod:`tienlen.rl.aec`; out-of-turn chops included). Returns are the
``rank`` reward (or ``reward`` = ``first`` / ``units``), zero-sum, at the end. The
observation tensor is the environment's int8 observation (:mod:`tienlen.rl.observation`)
as floats; the observation string is the seat's view in words.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc, "openspiel") from None

from ..actions import Move
from ..cards import Card
from ..game import Game, hand_size, packs_for
from ..rules import Rules
from ..shapes import Play
from ..turns import Turns
from .actions import ActionSpace
from .aec import _PublicView, place_reward
from .asking import rl_moves
from .observation import encode, observation_size

_MAX_PLAYERS = 8
_PARAMS = {"players": 4, "rules": "pagat", "reward": "rank"}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_tienlen",
    long_name="Python Tien Len",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class TienLenGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        players = int(params["players"])
        rules = Rules.preset(str(params["rules"]))
        reward = str(params["reward"])
        space = ActionSpace(rules, players)
        hand = hand_size(rules, players)
        low, high = (-1.0, 1.0) if reward != "units" else (-1000.0, 1000.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.n,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=hand * players * 4 + 64,
        )
        super().__init__(_GAME_TYPE, info, params)
        # set after the base class is made (pybind drops attributes set before)
        self.players, self.rules, self.reward, self.space, self.hand = players, rules, reward, space, hand

    def new_initial_state(self) -> TienLenState:
        return TienLenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TienLenObserver:
        return TienLenObserver(self)


class _Settings:
    __slots__ = ("hand", "players", "reward", "rules", "space")

    def __init__(self, players: int, rules: Rules, reward: str, space: ActionSpace, hand: int) -> None:
        self.players, self.rules, self.reward, self.space, self.hand = players, rules, reward, space, hand


class TienLenState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TienLenGame) -> None:
        super().__init__(game)
        # the game's values, copied (a cloned state must not reach the game's Python side)
        self._g = _Settings(game.players, game.rules, game.reward, game.space, game.hand)
        self._dealt: list[list[Card]] = [[] for _ in range(game.players)]
        self._left = {code: packs_for(game.players) for code in range(52)}
        self._to_deal = game.hand * game.players
        self.game_state: Game | None = None
        self._turns: Turns | None = None
        self._asking = 0
        self._legal: dict[int, Move] = {}

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        if self.game_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game_state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._asking

    def is_terminal(self) -> bool:
        return self.game_state is not None and self.game_state.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self._left.values())
        return [(code, k / total) for code, k in self._left.items() if k]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal) if player == self._asking and not self.is_terminal() else []

    # ------------------------------------------------------------------ acting
    def _apply_action(self, action: int) -> None:
        if self.game_state is None:
            dealt = self._g.hand * self._g.players - self._to_deal
            self._dealt[dealt % self._g.players].append(Card(action))
            self._left[action] -= 1
            self._to_deal -= 1
            if self._to_deal == 0:
                self.game_state = Game(self._g.rules, hands=self._dealt)
                self._turns = Turns(self.game_state)
                self._ask()
            return
        assert self._turns is not None
        self._turns.answer(self._asking, self._legal[action])
        self._ask()

    def _ask(self) -> None:
        game = self.game_state
        assert game is not None
        if game.is_over:
            self._legal = {}
            return
        assert self._turns is not None
        asked = self._turns.next()
        assert asked is not None
        self._asking = asked.seat
        self._legal = self._g.space.legal(rl_moves(asked))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal {Card(action)}"
        move = self._legal.get(action)
        return str(move) if move is not None else self._g.space.describe(action)

    def returns(self) -> list[float]:
        game = self.game_state
        n = self._g.players
        if game is None or not game.is_over:
            return [0.0] * n
        if self._g.reward == "units":
            return [float(s) for s in game.scores]
        places = {seat: place for place, seat in enumerate(game.finish_order)}
        return [place_reward(places[s], n, self._g.reward) for s in range(n)]

    def __str__(self) -> str:
        if self.game_state is None:
            return "dealing: " + " | ".join(" ".join(str(c) for c in h) for h in self._dealt)
        return repr(self.game_state)


class TienLenObserver:
    """The environment's observation of one seat, as floats, and the seat's view in words."""

    def __init__(self, game: TienLenGame) -> None:
        self._n = game.players
        self.tensor = np.zeros(observation_size(game.players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TienLenState, player: int) -> None:
        game = state.game_state
        self.tensor.fill(0.0)
        if game is None:
            for card in state._dealt[player]:
                self.tensor[card.key(state._g.rules.suit_order)] += 1.0
            return
        played: list[list[int]] = [[] for _ in range(self._n)]
        for who, move in game.history:
            if isinstance(move, Play):
                played[who].extend(move.keys)
        self.tensor[:] = encode(_PublicView(game, player), played)

    def string_from(self, state: TienLenState, player: int) -> str:
        game = state.game_state
        if game is None:
            return "hand: " + " ".join(str(c) for c in state._dealt[player])
        table = game.table
        return (f"seat {player} hand: {game.hand_text(player)} | table: "
                f"{table if table is not None else '-'} | counts: {game.counts()}")


pyspiel.register_game(_GAME_TYPE, TienLenGame)
