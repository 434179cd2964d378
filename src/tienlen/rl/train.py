"""``tienlen train``: Deep Monte-Carlo self-play from scratch (extra ``train``: CPU torch).

With ``init`` (``--init shipped`` or ``--init PATH.npz``) training starts from those weights
instead of random ones (a fresh optimizer; the layer widths must match ``--hidden``). Weights
trained before the hand-plan inputs are widened with zero weights for them
(:meth:`MLP.widened`): the network starts scoring exactly as they did.

With ``league`` (``--league heuristic,greedy --league-share 0.5``) that share of the hands
has the network at one seat against bots of the ladder, the rest self-play: the network
still learns from its own decisions only, with no imitation of the bots.

The method is DouZero's, in its simplest form: one network ``Q(state, action)`` with the
action as input (:mod:`tienlen.bots.features`), shared by every seat; actors play whole
hands with it (epsilon-greedy over the legal plays), and every decision of a seat is
regressed on that seat's reward at the end of the hand (a Monte-Carlo target: no
bootstrapping). Actors play with the numpy copy of the network -- the very code the
``learned`` bot plays with -- refreshed after every batch of learner steps; the learner is
torch. The actors are compiled where the fast path runs the rules (:mod:`.actors`: ``envs``
hands at once), on Ray with ``backend="ray"`` (:mod:`.cluster`), else the pure loop of
:func:`self_play_hand`, one hand at a time; the first progress line (``"kind": "start"``) says
which.

Progress lines report frames (decisions made, forced ones included), frames/s, the
loss, ``split`` (the shares of the time so far spent in the environment, the features, the
inference and the learning: :class:`FrameClock`), and every ``eval_every`` seconds the
first-place share of the current network against three ``greedy`` and three ``heuristic`` bots
over duplicate deals. Checkpoints
are npz files of the numpy network (``latest.npz``, ``best.npz`` by the heuristic line,
and ``learned.npz`` in float16, the form the package ships), plus ``state.pt`` to resume.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TextIO, cast

import numpy as np

from ..actions import Action
from ..arena import Z95, play_out
from ..bots import get_bot
from ..bots.features import INPUT_SIZE, MLP, STATE_SIZE, action_matrix, state_vector
from ..bots.heuristic import plan_tops
from ..bots.learned import LearnedBot, load_net
from ..bots.simple import phase_choice
from ..errors import ArgumentError, error
from ..game import Game, packs_for
from ..rules import Rules, load_rules
from ..shapes import Play
from ..turns import Turns
from .frameclock import FrameClock

if TYPE_CHECKING:
    from .actors import Ended

REWARDS = ("first", "rank", "mix")


def hand_reward(place: int, players: int, kind: str) -> float:
    """Zero-sum end-of-hand reward of a place (0 = first out)."""
    first = (players if place == 0 else 0) / (players - 1) - 1 / (players - 1)
    rank = (players - 1 - 2 * place) / (players - 1)
    if kind == "first":
        return first
    if kind == "rank":
        return rank
    return first + 0.25 * rank


@dataclass
class Frames:
    """The decisions of one hand: inputs, seats, and how many decisions were forced."""

    inputs: list[np.ndarray[Any, np.dtype[np.float32]]]
    seats: list[int]
    total: int


def self_play_hand(game: Game, net: MLP, rng: random.Random, epsilon: float,
                   bots: dict[int, Any] | None = None, clock: FrameClock | None = None) -> Frames:
    """Play one hand with ``net`` at every seat (but the seats of ``bots``, which play by their
    views); every unforced decision of the network is recorded. ``clock``: the hand's time
    added to it by part (the features and the inference timed, the environment the rest)."""
    began = time.process_time()
    features = inference = 0.0
    bots = bots or {}
    n = game.players
    packs = packs_for(n)
    played: list[list[int]] = [[] for _ in range(n)]
    inputs: list[np.ndarray[Any, np.dtype[np.float32]]] = []
    seats: list[int] = []
    total = 0
    hands = game.state.hands  # keys under the rules' suit order, read-only here
    tops = plan_tops(game.rules)
    plan = net.input_size == INPUT_SIZE

    def decide(seat: int, legal: list[Play]) -> Play:
        nonlocal features, inference
        if len(legal) == 1:
            return legal[0]
        if seat in bots:
            view = dataclasses.replace(game.view(seat), legal=tuple(legal))
            return cast(Play, bots[seat].choose(view))
        table = game.table
        hand = hands[seat]
        t0 = time.process_time()
        state = state_vector(seat, n, hand, played, game.counts(), game.finish_order,
                             game.passed, table.keys if table is not None else None,
                             table.shape if table is not None else None, game.table_seat,
                             game.stacking, packs)
        actions = action_matrix(hand, [(p.keys, p.shape) for p in legal], tops, state[52:104],
                                plan)
        t1 = time.process_time()
        features += t1 - t0
        if rng.random() < epsilon:
            index = rng.randrange(len(legal))
        else:
            index = int(net.scores(state, actions).argmax())
            inference += time.process_time() - t1
        row = np.empty(INPUT_SIZE, dtype=np.float32)
        row[:STATE_SIZE] = state
        row[STATE_SIZE:] = actions[index]
        inputs.append(row)
        seats.append(seat)
        return legal[index]

    turns = Turns(game)
    for _ in range(200_000):
        asked = turns.next()
        if asked is None:
            break
        seat, legal = asked.seat, asked.moves
        if not asked.out_of_turn and (any(isinstance(m, Action) for m in legal) or not legal):
            total += 1
            turns.answer(seat, phase_choice(cast(Any, SimpleNamespace(legal=legal))))
            continue
        move = decide(seat, cast(list[Play], list(legal)))
        if asked.out_of_turn and not move.keys:
            turns.answer(seat, move)  # the chop let go
            continue
        total += 1
        turns.answer(seat, move)
        played[seat].extend(move.keys)
    if clock is not None:
        clock.add("features", features)
        clock.add("inference", inference)
        clock.add("environment", time.process_time() - began - features - inference)
    return Frames(inputs, seats, total)


def first_share(net: MLP, opponent: str, rules: Rules, players: int, deals: int, seed: int,
                weights: str | None = None) -> tuple[float, float, float, int]:
    """First-place share of the network against ``players - 1`` ``opponent`` bots over duplicate
    deals (each deal once per seat of the learner): (share, low, high) of a 95% interval, hands."""
    per_deal: list[float] = []
    for deal in range(deals):
        deal_seed = random.Random(f"tienlen-rl:{seed}:{deal}").getrandbits(63)
        wins = 0
        for seat in range(players):
            bots: list[Any] = [get_bot(opponent, seed=deal_seed + 7919 * s) for s in range(players)]
            bots[seat] = LearnedBot(seed=deal_seed, net=net)
            game = Game.deal(rules, players, deal_seed)
            play_out(game, bots)
            wins += game.finish_order[0] == seat
        per_deal.append(wins / players)
    mean = sum(per_deal) / len(per_deal)
    if len(per_deal) < 2:
        return mean, mean, mean, deals * players
    var = sum((x - mean) ** 2 for x in per_deal) / (len(per_deal) - 1)
    half = Z95 * math.sqrt(var / len(per_deal))
    return mean, mean - half, mean + half, deals * players


Player = Callable[[MLP, FrameClock], "Ended"]  # the hands played with a network


def _actors(cfg: TrainConfig, rules: Rules, rng: random.Random, cleanup: contextlib.ExitStack
            ) -> tuple[Player, str]:
    """What plays the hands -- the compiled actors here or on Ray, or the pure loop one hand
    at a time -- and its words for the first progress line."""
    from .actors import Actors, unsupported

    why = "--envs 0" if cfg.envs <= 0 else unsupported(rules, cfg.league)
    if cfg.backend == "ray":
        if why is not None:
            raise error(ArgumentError, "err.train.ray_actors", why=why)
        from ..arena import ray_session
        from .cluster import RayActors

        ray = cleanup.enter_context(ray_session(cfg.address, cfg.actors + 1))
        remote = RayActors(ray, cfg.actors, rules, cfg.players, cfg.envs, cfg.seed, cfg.league,
                           cfg.league_share, cfg.epsilon)
        cleanup.callback(remote.close)
        return remote.next, f"compiled, {cfg.actors} on ray"
    if why is not None:
        return (lambda net, clock: _pure_hand(cfg, rules, net, rng, clock)), f"pure ({why})"
    actors = Actors(rules, cfg.players, cfg.envs, cfg.seed, cfg.league, cfg.league_share)
    return (lambda net, clock: actors.step(net, cfg.epsilon, clock)), "compiled"


def _pure_hand(cfg: TrainConfig, rules: Rules, net: MLP, rng: random.Random,
               clock: FrameClock) -> Ended:
    """One hand on the pure engine (:func:`self_play_hand`, a league's bots drawn for it at
    ``league_share``): the network's inputs and the place of the seat that made each."""
    from .actors import Ended

    game = Game.deal(rules, cfg.players, rng.getrandbits(63))
    bots: dict[int, Any] = {}
    if cfg.league and rng.random() < cfg.league_share:
        opponent = rng.choice(cfg.league)
        learner = rng.randrange(cfg.players)
        bots = {s: get_bot(opponent, seed=rng.getrandbits(31)) for s in range(cfg.players)
                if s != learner}
    played = self_play_hand(game, net, rng, cfg.epsilon, bots, clock)
    places = {seat: place for place, seat in enumerate(game.finish_order)}
    rows = np.stack(played.inputs) if played.inputs else np.zeros((0, INPUT_SIZE), np.float32)
    return Ended(rows, np.array([places[seat] for seat in played.seats], dtype=np.int64), 1,
                 played.total)


def _split(clock: FrameClock) -> dict[str, float]:
    """The shares of a frame's time so far, rounded for the progress lines."""
    return {part: round(share, 3) for part, share in clock.shares().items()}


def _torch_net(hidden: tuple[int, ...]) -> Any:
    import torch

    layers: list[Any] = []
    width = INPUT_SIZE
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    return torch.nn.Sequential(*layers)


def _to_numpy(model: Any) -> MLP:
    linears = [m for m in model if hasattr(m, "weight")]
    return MLP([(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears])


def _load_weights(model: Any, net: MLP) -> None:
    """Set the torch network's layers to a numpy network's (the same widths)."""
    import torch

    linears = [m for m in model if hasattr(m, "weight")]
    if [tuple(m.weight.shape) for m in linears] != [w.T.shape for w, _ in net.layers]:
        raise ValueError("the weights to start from have other layer widths than --hidden")
    with torch.no_grad():
        for m, (w, b) in zip(linears, net.layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.astype(np.float32)))
            m.bias.copy_(torch.from_numpy(b.astype(np.float32)))


@dataclass
class TrainConfig:
    rules: str = "pagat"
    players: int = 4
    seconds: float = 60.0
    out: str = "runs/learned"
    seed: int = 0
    hidden: tuple[int, ...] = (256, 256, 128)
    lr: float = 5e-4
    batch: int = 256
    reuse: float = 2.0  # gradient samples per new frame
    buffer: int = 65536
    epsilon: float = 0.05
    reward: str = "mix"
    eval_every: float = 300.0
    eval_deals: int = 30
    log_every: float = 30.0
    resume: bool = False
    threads: int = 1
    league: tuple[str, ...] = ()  # ladder bots some hands are played against
    league_share: float = 0.0  # the share of those hands (the network plays one seat)
    init: str | None = None  # an .npz to start from ("shipped": the learned bot's weights)
    envs: int = 64  # hands played at once by the compiled actors (0: the pure engine's loop)
    backend: str = "local"  # or "ray": the compiled actors on a Ray cluster
    address: str | None = None  # the Ray cluster's (none: a local Ray)
    actors: int = 2  # Ray actors (backend "ray")


def train(cfg: TrainConfig, stream: TextIO | None = None,
          on_eval: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run self-play training for ``cfg.seconds``; returns the last progress record."""
    import torch

    out = stream if stream is not None else sys.stdout
    if cfg.reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {cfg.reward!r}")
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    rules = load_rules(cfg.rules)
    folder = Path(cfg.out)
    folder.mkdir(parents=True, exist_ok=True)
    model = _torch_net(cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    frames = hands = steps = 0
    spent = 0.0
    best = -1.0
    if cfg.resume and (folder / "state.pt").exists():
        saved = torch.load(folder / "state.pt", weights_only=False)
        model.load_state_dict(saved["model"])
        opt.load_state_dict(saved["opt"])
        frames, hands, steps, spent, best = (saved["frames"], saved["hands"], saved["steps"],
                                             saved["seconds"], saved["best"])
    elif cfg.init:
        start_net = load_net(None if cfg.init == "shipped" else cfg.init)
        if start_net.input_size < INPUT_SIZE:  # trained before the plan inputs: zero weights
            start_net = start_net.widened()
        _load_weights(model, start_net)
    net = _to_numpy(model)
    cap = cfg.buffer
    xs = np.zeros((cap, INPUT_SIZE), dtype=np.float16)
    ys = np.zeros(cap, dtype=np.float32)
    filled = head = 0
    owed = 0.0
    losses: list[float] = []
    clock = FrameClock()  # where the frames' time goes, reported with the progress
    start = time.perf_counter()
    last_log = last_eval = start
    record: dict[str, Any] = {}

    def log(kind: str, **fields: Any) -> None:
        nonlocal record
        record = {"kind": kind, "seconds": round(spent + time.perf_counter() - start, 1),
                  "frames": frames, "hands": hands, "steps": steps, **fields}
        print(json.dumps(record), file=out, flush=True)
        with open(folder / "progress.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")

    def checkpoint() -> None:
        net.save(folder / "latest.npz")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "frames": frames,
                    "hands": hands, "steps": steps, "best": best,
                    "seconds": spent + time.perf_counter() - start}, folder / "state.pt")

    def evaluate() -> None:
        nonlocal best
        results: dict[str, Any] = {}
        for opponent in ("greedy", "heuristic"):
            share, lo, hi, count = first_share(net, opponent, rules, cfg.players, cfg.eval_deals,
                                               seed=1000 + hands)
            results[opponent] = [round(share, 4), round(lo, 4), round(hi, 4), count]
        log("eval", **results)
        if results["heuristic"][0] >= best:
            best = results["heuristic"][0]
            net.save(folder / "best.npz")
            net.save(folder / "learned.npz", half=True)
        checkpoint()
        if on_eval is not None:
            on_eval(record)

    def learn(rows: np.ndarray[Any, Any], rewards: np.ndarray[Any, Any]) -> MLP | None:
        """The decisions into the buffer, then the learner steps they pay for; the network
        after them (None: no step was due)."""
        nonlocal head, filled, owed, steps
        m = len(rows)
        if m:
            at = (head + np.arange(m)) % cap
            xs[at] = rows
            ys[at] = rewards
            head = (head + m) % cap
            filled = min(filled + m, cap)
        owed += m * cfg.reuse / cfg.batch
        learning = time.process_time()
        stepped = False
        while owed >= 1 and filled >= cfg.batch:
            owed -= 1
            pick = np.random.randint(0, filled, size=cfg.batch)
            x = torch.from_numpy(xs[pick].astype(np.float32))
            y = torch.from_numpy(ys[pick])
            loss = torch.nn.functional.mse_loss(model(x)[:, 0], y)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            losses.append(float(loss.detach()))
            steps += 1
            stepped = True
        clock.add("learning", time.process_time() - learning)
        return _to_numpy(model) if stepped else None

    first_eval = cfg.eval_every > 0 and cfg.eval_every < cfg.seconds
    stop: list[int] = []
    previous: Any = None
    if threading.current_thread() is threading.main_thread():  # SIGTERM: stop and checkpoint
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.append(signum))
    with contextlib.ExitStack() as cleanup:
        if previous is not None:  # the handler of before, back whatever happens
            cleanup.callback(signal.signal, signal.SIGTERM, previous)
        play, said = _actors(cfg, rules, rng, cleanup)
        log("start", actors=said, envs=cfg.envs, backend=cfg.backend)
        hands_before = hands  # a run plays at least one hand, however short its seconds
        place_rewards = np.array([hand_reward(p, cfg.players, cfg.reward)
                                  for p in range(cfg.players)], dtype=np.float32)
        while not stop and (time.perf_counter() - start < cfg.seconds or hands == hands_before):
            ended = play(net, clock)
            hands += ended.hands
            frames += ended.frames
            learned = learn(ended.inputs, place_rewards[ended.places])
            if learned is not None:
                net = learned
            now = time.perf_counter()
            if now - last_log >= cfg.log_every:
                elapsed = now - start
                log("progress", fps=round(frames / max(elapsed + spent, 1e-9), 1),
                    loss=round(sum(losses) / len(losses), 5) if losses else None,
                    split=_split(clock))
                losses.clear()
                last_log = now
            if first_eval and now - last_eval >= cfg.eval_every:
                evaluate()
                last_eval = time.perf_counter()
    log("progress", fps=round(frames / max(time.perf_counter() - start + spent, 1e-9), 1),
        loss=round(sum(losses) / len(losses), 5) if losses else None, split=_split(clock))
    if cfg.eval_deals > 0:
        evaluate()
    else:
        checkpoint()
        net.save(folder / "learned.npz", half=True)
    return record

