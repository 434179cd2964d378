"""The PettingZoo AEC environment: ``tienlen.rl.env(rules=..., players=4, reward="rank")``.

Agents ``player_0 .. player_{n-1}`` are the seats, in the order of play. Every decision
the engine offers is asked through ``agent_selection``, in the engine's order:

- on turn: the seat to act (plays, and the phase decisions before play: instant-win
  claims, trade answers, returns; see :mod:`tienlen.rl.actions`);
- out of turn: after every play, each seat that the rules let chop out of turn (§6, §11)
  is asked in priority order, whatever it holds, with its chops and ``pass`` (decline);
  the first to chop plays and the asking starts again; when all decline, the seat on
  turn is asked (the turn API, :mod:`tienlen.turns`).

Observations are ``{"observation": int8[...], "action_mask": int8[n]}``
(:mod:`tienlen.rl.observation`), the mask all zero for an agent that is not asked.
The info of the agent asked holds ``legal_ids`` (int64), ``legal_cards`` (one int8 row
of 52 per legal id: the card set the id plays, counted by card code ``rank * 4 + suit``
in standard suit order), ``legal_text`` and ``decision`` (``turn`` or ``out_of_turn``);
every info holds ``illegal`` (True when the agent's last action id was not legal).
An illegal id -- not in the mask, out of range, or None for a live agent -- is replaced
deterministically: by ``pass`` (or ``decline``) when that is legal, else by the lowest
legal id, and flagged in the info.

Rewards come at the end of the hand and sum to zero: ``rank`` (first +1 .. last -1,
evenly spaced), ``units`` (the rules' scoring, :attr:`tienlen.Game.scores`), ``first``
(``+1`` to the first out, ``-1/(n-1)`` to each other seat: the 1/0 of going out first,
centred).

A deal that ends before any decision (an automatic instant win, §7) is dealt again.
"""

from __future__ import annotations

from typing import Any, Final

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..actions import Move
from ..game import Game, check_players
from ..rules import Rules
from ..shapes import Play
from ..turns import Decision, Turns
from .actions import ActionSpace
from .asking import rl_moves
from .observation import HIGH, encode, observation_size
from .render import render_text

REWARDS: Final = ("rank", "units", "first")


def place_reward(place: int, players: int, kind: str) -> float:
    if kind == "rank":
        return (players - 1 - 2 * place) / (players - 1)
    return (1.0 if place == 0 else 0.0) * players / (players - 1) - 1 / (players - 1)


class TienLenEnv(AECEnv[str, dict[str, np.ndarray[Any, Any]], int | None]):  # type: ignore[misc]
    metadata: dict[str, Any] = {"name": "tienlen_v0", "render_modes": ["ansi", "human"],  # noqa: RUF012
                                "is_parallelizable": True}

    def __init__(self, rules: Rules | str = "pagat", players: int = 4, reward: str = "rank",
                 render_mode: str | None = None, engine: str = "auto") -> None:
        super().__init__()
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.rules = rules
        self.players = check_players(players)
        self.reward_kind = reward
        if engine not in ("auto", "pure", "fast"):
            raise ValueError(f"engine must be auto, pure or fast, not {engine!r}")
        from .. import fast

        if engine == "fast" and not fast.enabled(rules):
            raise ValueError("the fast path is not installed (extra fast) or does not support "
                             "these rules")
        # auto: the fast path wherever it is installed and supports the rules (bench_rl.py)
        self.use_fast = engine == "fast" or (engine == "auto" and fast.enabled(rules))
        self._fast: Any = None
        self.render_mode = render_mode
        self.space = ActionSpace(rules, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        size = observation_size(players)
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, HIGH, (size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (self.space.n,), dtype=np.int8),
        })
        act_space = spaces.Discrete(self.space.n)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self.game: Game | None = None
        self._rng = np.random.default_rng()
        self._legal: dict[int, Move] = {}
        self._asking = 0
        self._turns: Turns | None = None
        self._out_of_turn_now = False
        self._decision: Decision | None = None  # the decision asked now
        self._checking = True  # the move answered is one of the legal list (not checked again)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # ------------------------------------------------------------------ the hand
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new hand. ``options={"game": GAME}``: that hand, just dealt (its rules and players
        those of the environment), even one over at once (then nobody is asked anything)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        given = (options or {}).get("game")
        if given is not None:
            if not isinstance(given, Game) or given.rules != self.rules \
                    or given.players != self.players:
                raise ValueError("options['game'] is a hand just dealt under the environment's "
                                 "rules and number of players")
            self.game = given
        while given is None:  # a deal won at once (an automatic instant win): deal again
            self.game = Game.deal(self.rules, self.players, int(self._rng.integers(0, 2**62)))
            if not self.game.is_over:
                break
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"illegal": False} for a in self.agents}
        self._fast = None
        self._out_of_turn_now = False
        game = self.game
        assert game is not None
        self._turns = Turns(game, self._legal_of, lambda m, s: self._push(m, s, self._checking))
        if game.is_over:  # nobody is asked: every agent is done at once
            self.agent_selection = self.possible_agents[0]
            self._finish()
        else:
            self._next_decision()

    def _next_decision(self) -> None:
        """Point ``agent_selection`` at the seat asked next and list its legal ids."""
        game = self.game
        assert game is not None
        if game.is_over:
            self._legal = {}
            return
        assert self._turns is not None
        asked = self._turns.next()
        assert asked is not None
        decision = "out_of_turn" if asked.out_of_turn else "turn"
        self._asking = seat = asked.seat
        self._out_of_turn_now = asked.out_of_turn
        self._decision = asked
        self._legal = self.space.legal(rl_moves(asked))
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent] = {**self.infos[agent], **self._legal_info(decision)}

    def _legal_info(self, decision: str) -> dict[str, Any]:
        ids = np.fromiter(self._legal, dtype=np.int64, count=len(self._legal))
        cards = np.zeros((len(ids), 52), dtype=np.int8)
        text = []
        for row, move in enumerate(self._legal.values()):
            for card in getattr(move, "cards", ()):
                cards[row, card.code] += 1
            text.append(str(move))
        return {"legal_ids": ids, "legal_cards": cards, "legal_text": text, "decision": decision}

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        game = self.game
        assert game is not None
        seat = self.possible_agents.index(agent)
        played: list[list[int]] = [[] for _ in range(self.players)]
        for who, move in game.history:  # every play is public
            if isinstance(move, Play):
                played[who].extend(move.keys)
        obs = encode(_PublicView(game, seat), played)
        if self._out_of_turn_now and seat == self._asking:
            obs[-3] = 1  # the out-of-turn decision (the view's turn is the seat on turn)
        mask = np.zeros(self.space.n, dtype=np.int8)
        if seat == self._asking and not game.is_over and agent == self.agent_selection:
            mask[list(self._legal)] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        illegal = action is None or int(action) not in self._legal
        if illegal:
            pick = self.space.phase_base if self.space.phase_base in self._legal else 0
            chosen = pick if pick in self._legal else next(iter(self._legal))
        else:
            chosen = int(action)  # type: ignore[arg-type]
        self.apply_move(self._legal[chosen], illegal, checked=True)

    # ------------------------------------------------------------------ the engines
    def _fast_game(self) -> Any:
        """The fast path's mirror of the hand, once play has begun (None: pure engine)."""
        if self._fast is not None:
            return self._fast
        game = self.game
        assert game is not None
        if not self.use_fast or game.phase != "play":
            return None
        from ..fast.api import FastGame

        self._fast = FastGame.of(game)
        return self._fast

    def _legal_of(self, seat: int) -> list[Move]:
        fast = self._fast_game()
        assert self.game is not None
        return fast.legal_plays(seat) if fast is not None else list(self.game.legal_plays(seat))

    def _push(self, move: Move, seat: int, checked: bool) -> None:
        game = self.game
        assert game is not None
        fast = self._fast_game()
        if checked:
            game.push(move, seat)  # a move of the legal list
        else:
            game.play(move, seat)
        if fast is not None and isinstance(move, Play):
            fast.push(move, seat)

    def apply_move(self, move: Move, illegal: bool = False, checked: bool = False) -> None:
        """Make a concrete legal move for the agent asked (any card set, not only the lowest
        of its id): how the single-seat wrapper lets bots play their own choices."""
        game = self.game
        assert game is not None
        seat = self._asking
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {"illegal": False} for a in self.agents}
        self.infos[agent]["illegal"] = illegal
        assert self._turns is not None
        self._checking = checked
        self._turns.answer(seat, move)
        if game.is_over:  # nobody is asked: every agent is done at once
            self.agent_selection = self.possible_agents[0]
            self._finish()
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self._next_decision()
        self._accumulate_rewards()

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        n = self.players
        if self.reward_kind == "units":
            scores = game.scores
            self.rewards = {a: float(scores[i]) for i, a in enumerate(self.possible_agents)}
        else:
            places = {seat: place for place, seat in enumerate(game.finish_order)}
            self.rewards = {a: place_reward(places[i], n, self.reward_kind)
                            for i, a in enumerate(self.possible_agents)}
        self.terminations = {a: True for a in self.agents}
        self._out_of_turn_now = False  # nobody is asked anything more
        for a in self.agents:
            self.infos[a]["finish_order"] = list(game.finish_order)
            self.infos[a]["scores"] = list(game.scores)
        self._legal = {}

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """The hand as text (:mod:`.render`), the hand shown the seat's asked now."""
        if self.game is None:
            return None
        asked = None if self.game.is_over else self._asking
        text = render_text(self.game, self._asking, asked, self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class _PublicView:
    """The fields of :meth:`tienlen.Game.view` the observation reads, without listing the legal
    plays (the environment has them already): the same public values, and the seat's hand (as
    keys: no card objects made only to be counted)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.players = game.players
        self.rules = game.rules
        self.phase = game.phase
        self.turn = game.turn
        self.hand_keys = game.state.hands[seat]  # its keys, low to high: the encoder counts them
        self.counts = game.counts()
        self.table = game.table
        self.table_seat = game.table_seat
        self.passed = game.passed
        self.stacking = game.stacking
        self.finish_order = game.finish_order


def env(rules: Rules | str = "pagat", players: int = 4, reward: str = "rank",
        render_mode: str | None = None, engine: str = "auto") -> TienLenEnv:
    """A new AEC environment (see the module text). ``engine``: ``pure``, or ``fast`` (the
    compiled path's legal lists; extra ``fast``); ``auto``, the default, is ``fast`` where it
    is installed and supports the rules, else ``pure``."""
    return TienLenEnv(rules=rules, players=players, reward=reward, render_mode=render_mode,
                      engine=engine)


def raw_env(**kwargs: Any) -> TienLenEnv:
    return TienLenEnv(**kwargs)
