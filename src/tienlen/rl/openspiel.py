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
RECENT = 16  # the information state's window: the last moves, newest first
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
    provides_information_state_string=True,
    provides_information_state_tensor=True,
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
        """The observation (the default), or with perfect recall asked (``information_state_*``)
        the information state: the observation and the last moves in order (the module text)."""
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return TienLenObserver(self, RECENT if recall else 0)


class _Settings:
    __slots__ = ("hand", "players", "reward", "rules", "space")

    def __init__(self, players: int, rules: Rules, reward: str, space: ActionSpace, hand: int) -> None:
        self.players, self.rules, self.reward, self.space, self.hand = players, rules, reward, space, hand

    def __deepcopy__(self, memo: dict[int, Any]) -> _Settings:
        return self  # never changed once made: shared by a state and its clones


class _Hand:
    """Everything a state changes as it is played, in one attribute. OpenSpiel clones a Python
    state by deep-copying its attributes one at a time, each on its own: a game and the
    :class:`~tienlen.turns.Turns` asking it, kept in two attributes, were copied apart, and the
    clone's moves went to a game it did not show. Here they travel together, copied by the
    engine's own :meth:`Game.copy` (the rules shared, the state copied), not by ``deepcopy``."""

    __slots__ = ("aside", "asking", "dealt", "game", "left", "legal", "moves", "played", "to_deal",
                 "turns")

    def __init__(self, players: int, to_deal: int) -> None:
        self.dealt: list[list[Card]] = [[] for _ in range(players)]
        self.left = dict.fromkeys(range(52), packs_for(players))
        self.played: np.ndarray[Any, Any] | None = None  # each seat's cards played, per key
        self.moves: list[tuple[int, tuple[int, ...]]] = []  # each play and pass: seat, keys
        self.to_deal = to_deal
        self.game: Game | None = None
        self.turns: Turns | None = None
        self.asking = 0
        self.aside = False  # the seat asked is asked out of turn (a chop it may make)
        self.legal: dict[int, Move] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        other = _Hand.__new__(_Hand)
        other.dealt = [list(cards) for cards in self.dealt]
        other.left = dict(self.left)
        other.played = self.played.copy() if self.played is not None else None
        other.moves = list(self.moves)
        other.to_deal = self.to_deal
        other.game = self.game.copy() if self.game is not None else None
        other.turns = (self.turns.copy(other.game)
                       if self.turns is not None and other.game is not None else None)
        other.asking, other.aside = self.asking, self.aside
        other.legal = self.legal  # replaced, never changed, at each decision
        return other


class TienLenState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TienLenGame) -> None:
        super().__init__(game)
        # the game's values, copied (a cloned state must not reach the game's Python side)
        self._g = _Settings(game.players, game.rules, game.reward, game.space, game.hand)
        self._h = _Hand(game.players, game.hand * game.players)

    @property
    def game_state(self) -> Game | None:
        """The hand being played (None while it is dealt)."""
        return self._h.game

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        game = self._h.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._h.asking

    def is_terminal(self) -> bool:
        return self._h.game is not None and self._h.game.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._h.left
        total = sum(left.values())
        return [(code, k / total) for code, k in left.items() if k]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._h.legal) if player == self._h.asking and not self.is_terminal() else []

    # ------------------------------------------------------------------ acting
    def _apply_action(self, action: int) -> None:
        h = self._h
        if h.game is None:
            dealt = self._g.hand * self._g.players - h.to_deal
            h.dealt[dealt % self._g.players].append(Card(action))
            h.left[action] -= 1
            h.to_deal -= 1
            if h.to_deal == 0:
                h.game = Game(self._g.rules, hands=h.dealt)
                h.played = np.zeros((self._g.players, 52), np.int16)
                h.turns = Turns(h.game)
                self._ask()
            return
        assert h.turns is not None
        move = h.legal[action]
        h.turns.answer(h.asking, move)
        # the moves every seat sees: a play, a pass on turn (a chop let go out of turn is
        # nobody else's to know: it would tell that the seat held a bomb)
        if isinstance(move, Play) and (move.keys or not h.aside):
            assert h.played is not None
            for key in move.keys:
                h.played[h.asking, key] += 1
            h.moves.append((h.asking, tuple(move.keys)))
        self._ask()

    def _ask(self) -> None:
        h = self._h
        assert h.game is not None and h.turns is not None
        if h.game.is_over:
            h.legal = {}
            return
        asked = h.turns.next()
        assert asked is not None
        h.asking, h.aside = asked.seat, asked.out_of_turn
        h.legal = self._g.space.legal(rl_moves(asked))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal {Card(action)}"
        move = self._h.legal.get(action)
        return str(move) if move is not None else self._g.space.describe(action)

    def returns(self) -> list[float]:
        game = self._h.game
        n = self._g.players
        if game is None or not game.is_over:
            return [0.0] * n
        if self._g.reward == "units":
            return [float(s) for s in game.scores]
        places = {seat: place for place, seat in enumerate(game.finish_order)}
        return [place_reward(places[s], n, self._g.reward) for s in range(n)]

    def __str__(self) -> str:
        game = self._h.game
        if game is None:
            return "dealing: " + " | ".join(" ".join(str(c) for c in h) for h in self._h.dealt)
        return repr(game)


class TienLenObserver:
    """A seat's observation as floats (``recent`` = 0), or its information state: the observation
    and its last ``recent`` plays and passes, and the seat's view in words."""

    def __init__(self, game: TienLenGame, recent: int = 0) -> None:
        self._n = game.players
        self._recent = recent
        self._size = observation_size(game.players)
        self.tensor = np.zeros(self._size + recent * move_size(game.players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TienLenState, player: int) -> None:
        h = state._h
        game = h.game
        self.tensor.fill(0.0)
        if game is None:
            for card in h.dealt[player]:
                self.tensor[card.key(state._g.rules.suit_order)] += 1.0
            return
        self.tensor[:self._size] = encode(_PublicView(game, player), h.played)
        if self._recent:
            at, width = self._size, move_size(self._n)
            for k, (seat, keys) in enumerate(reversed(h.moves[-self._recent:])):
                block = self.tensor[at + k * width: at + (k + 1) * width]
                block[(seat - player) % self._n] = 1.0
                if keys:
                    block[self._n:self._n + 52] = np.bincount(keys, minlength=52)
                else:
                    block[self._n + 52] = 1.0  # a pass

    def string_from(self, state: TienLenState, player: int) -> str:
        h = state._h
        game = h.game
        if game is None:
            return "hand: " + " ".join(str(c) for c in h.dealt[player])
        table = game.table
        text = (f"seat {player} hand: {game.hand_text(player)} | table: "
                f"{table if table is not None else '-'} | counts: {game.counts()}")
        if self._recent:  # the information state: the last moves seen, in order
            text += " | moves: " + " ".join(f"{seat}:{len(keys) or 'pass'}"
                                            for seat, keys in h.moves[-self._recent:])
        return text


def move_size(players: int) -> int:
    """One move of the information state's window: who (one-hot by seat relative to the
    observer), its cards (a count per key), and a pass."""
    return players + 53


pyspiel.register_game(_GAME_TYPE, TienLenGame)
