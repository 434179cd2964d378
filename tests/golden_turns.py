"""Golden traces of today's decision loops (issue 20, point 1): the drivers and the data format.

"Who decides now, and from which moves" is written several times today. This module drives
seeded hands to their end through each of those loops that runs headless, with one
deterministic chooser, and records every decision the loop asks:
``(seat, kind, moves, chosen)``: the seat asked, the kind of decision, the sorted texts of the
moves it is offered, and the text of the move chosen. ``tests/test_golden_turns.py`` replays
the same hands and holds each loop to its recorded trace; ``scripts/record_golden_turns.py``
writes the data (``tests/data/golden_turns/traces.jsonl.gz``).

The loops (the keys of :data:`LOOPS`):

- ``arena``: :func:`tienlen.arena.play_out`, every seat a bot;
- ``asking``: :class:`tienlen.turns.Turns` on the pure engine, with the RL environments' moves
  (:func:`tienlen.rl.asking.rl_moves`: an offer moment asks ``done`` alone), what OpenSpiel's
  game and the AEC environment with ``engine="pure"`` run;
- ``asking_fast``: the same, fed by the fast path's mirror of the hand, exactly as the
  AEC environment wires them with ``engine="fast"`` (:class:`tienlen.fast.api.FastGame` from
  the start of play); only where numba is installed and the fast path takes the rules;
- ``controller``: the terminal's :class:`tienlen.play.controller.Controller` without Textual:
  :meth:`~Controller.bot_step` for the bots (seats 1..n-1); for the human (seat 0)
  :meth:`~Controller.decision`, then :meth:`~Controller.decline` to let a chop go or
  :meth:`~Controller.play_text` for any other answer;
- ``room``: a web :class:`tienlen.web.room.room.Room` on an in-memory SQLite repository, a
  practice table (fixed seed) of bots only with one watcher: :meth:`~Room.bot_action`, the
  staged write stored, then :meth:`~Room.install`, as the driver does (the next hand dealt by
  ``bot_action`` too);
- ``room_human``: the same table with a player at seat 0 who is never connected (the away
  timeout is an hour): the bots' decisions come from ``bot_action``; the player's, whenever
  ``bot_action`` owes nothing (the table waits for seat 0), from the page's view
  (:func:`tienlen.web.room.views.seat_view` via :meth:`~Room.view_for`: its ``legal`` list and its
  ``decision``), answered with ``TableState.apply_move``; before each bot move the player also
  answers any out-of-turn chop their view offers (a model: a player who answers at once),
  and asks for the next hand (``TableState.ask_next_hand``). The bots are asked in the order
  of the hand's ``turns.Turns``, the player passed over out of turn (the page offers a chop
  only to a player who holds one); while the table waits for the player on turn, asking
  again asks nobody (a bot that let a chop go is not asked again until someone moves);
- ``train``: :func:`tienlen.rl.train.self_play_hand` with a bot at every seat (the network
  never asked), the phase decisions (claims, trades, returns) made by the chooser in place of
  :func:`~tienlen.bots.simple.phase_choice` (patched in ``tienlen.rl.train`` while it runs);
- ``rollout``: :func:`tienlen.bots.rollout.playout` (search's pure rollouts) with the chooser
  in place of the heuristic (``decide`` and ``out_of_turn_choice`` patched in
  ``tienlen.bots.rollout`` while it runs), from the start of each hand.

The chooser (:class:`Chooser`) picks uniformly from the sorted texts of the moves offered,
with a generator seeded by the configuration, the session seed, the hand, the length of the
history, the seat and whether it is asked out of turn -- the state, not the loop's past
questions -- so that two loops that offer the same moves at the same moment choose the same,
and a hand played through them takes the same course.

Kinds, as the terminal's ``Decision`` names them (the loops that do not name them themselves
get them from the game state at the moment of asking, out of turn or not as the loop asks):
``play`` (a turn in play), ``chop`` (out of turn, §6), ``free_chop`` (out of turn, offered
under ``free_chops``, §11), ``claim`` (§7), ``offer`` / ``answer`` / ``settle`` (mutual
trading, §9), ``return`` (the president exchange). ``room_human``'s own decisions carry the
page's ``decision`` in their kind, its facts without its buttons: ``offer seats=1,2,3`` (the
seats not offered to yet), ``answer count=1 to=2``, ``settle to=3``, ``return count=2 to=3``,
``play`` (a play in turn: whether it may pass, like whether a chop is out of turn, the moves
say), and the page's ``legal`` list as their moves. The ``pass`` of an out-of-turn decision is its
decline; the terminal's human declines with ``p``, which the trace writes ``pass`` too.

A mutual-trading turn offers tens of thousands of moves (a lazy ``TradeOffers``): the trace
writes them ``offer P (any of N card sets)`` per partner, plus ``done``; the chooser, when it
picks one of them, offers one or two cards drawn by the same generator.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tienlen import Game, Rules, Session
from tienlen.actions import Action, Move, TradeOffers
from tienlen.errors import TienLenError
from tienlen.shapes import PASS, Play

DATA = Path(__file__).resolve().parent / "data" / "golden_turns" / "traces.jsonl.gz"
PLAYER_COUNTS = (2, 3, 4, 5, 8)

Decision = tuple[int, str, tuple[str, ...], str]  # seat, kind, sorted move texts, chosen
Trace = list[Decision]


# ---------------------------------------------------------------------- configurations
@dataclass(frozen=True)
class Config:
    """One rule set at one number of players, and the session seeds played under it."""

    name: str  # "pagat/4", "house:chop_out_of_turn/4"
    rules: Rules
    players: int
    seeds: tuple[int, ...] = (1,)
    hands: int = 1  # hands played in a row in each session (the later ones dealt by Session)


def _house() -> list[tuple[str, Rules, int, int]]:
    """The house rules only tests use: (name, rules, players, hands)."""
    pagat = Rules.preset("pagat")
    return [
        ("chop_out_of_turn", pagat.replace(chop_out_of_turn=True), 4, 1),
        ("chop_out_of_turn", pagat.replace(chop_out_of_turn=True), 8, 1),
        ("thirteen+chop_out_of_turn", Rules.preset("thirteen").replace(chop_out_of_turn=True), 4, 1),
        ("viet-cong+chop_out_of_turn", Rules.preset("viet-cong").replace(chop_out_of_turn=True), 4, 1),
        ("chop_out_of_turn+chop_after_pass+four_twos_bomb",
         pagat.replace(four_twos_bomb=True, chop_after_pass=True, chop_out_of_turn=True), 4, 1),
        ("free_chops", pagat.replace(free_chops=["chain:4+", "quad"], chop_pay="each"), 4, 1),
        ("free_chops+chop_out_of_turn",
         pagat.replace(free_chops=["quad"], chop_out_of_turn=True), 4, 1),
        ("mutual", pagat.replace(trading="mutual"), 4, 1),
        ("mutual", pagat.replace(trading="mutual"), 3, 1),
        ("viet-cong+mutual", Rules.preset("viet-cong").replace(trading="mutual"), 4, 1),
        ("optional_claims",
         pagat.replace(instant_wins=["four_twos", "dragon", "six_pairs", "same_colour"],
                       instant_win_optional=True), 4, 1),
        ("mien-nam+optional_claims", Rules.preset("mien-nam").replace(instant_win_optional=True),
         4, 1),
        ("president", pagat.replace(trading="president"), 4, 2),
        ("president", pagat.replace(trading="president"), 3, 2),
    ]


def base_configs() -> list[Config]:
    """Every preset at 2, 3, 4, 5 and 8 players (where it allows that many), then the house
    rules, each with seed 1 (the seeds recorded are chosen by the script, see
    :func:`pick_seeds`)."""
    out = []
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        for n in PLAYER_COUNTS:
            try:
                Session(rules, n, 0)
            except TienLenError:
                continue
            out.append(Config(f"{preset}/{n}", rules, n, hands=2 if n == 4 else 1))
    for name, rules, n, hands in _house():
        out.append(Config(f"house:{name}/{n}", rules, n, hands=hands))
    return out


# ---------------------------------------------------------------------- the chooser
def moves_text(moves: Sequence[Move]) -> tuple[str, ...]:
    """The sorted texts of the moves offered (a mutual-trading turn: one line per partner)."""
    if isinstance(moves, TradeOffers):
        sets = (len(moves) - 1) // max(1, len(moves.partners))
        return tuple(sorted([*(f"offer {p} (any of {sets} card sets)" for p in moves.partners),
                             "done"]))
    return tuple(sorted(str(m) for m in moves))


class Chooser:
    """A move among those offered, drawn from the state (see the module's text)."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def pick(self, game: Game, seat: int, out_of_turn: bool, moves: Sequence[Move]) -> Move:
        rng = random.Random(f"{self.tag}|{len(game.history)}|{seat}|{int(out_of_turn)}")
        if isinstance(moves, TradeOffers):
            options = ["done", *(f"offer {p}" for p in moves.partners)]
            choice = rng.choice(sorted(options))
            if choice == "done":
                return Action("done")
            hand = list(moves.hand)
            size = rng.randint(1, min(2, len(hand)))
            return Action("offer", int(choice.split()[1]), tuple(sorted(rng.sample(hand, size))))
        by_text: dict[str, Move] = {}
        for move in moves:
            by_text.setdefault(str(move), move)
        return by_text[rng.choice(sorted(by_text))]


def kind_of(game: Game, seat: int, out_of_turn: bool) -> str:
    """The kind of the decision ``seat`` is asked now (see the module's text)."""
    if out_of_turn:
        return "free_chop" if game.free_chop_offered(seat) else "chop"
    phase = game.phase
    if phase == "trade":
        trade = game.trade_decision(seat)
        assert trade is not None
        return trade.kind
    return phase  # play, claim, return


class TraceBot:
    """A bot that asks the chooser and writes down each decision it is asked."""

    name = "trace"

    def __init__(self, game: Callable[[], Game], run: Run) -> None:
        self._game = game
        self._run = run

    def choose(self, view: Any) -> Move:
        game = self._game()
        seat = view.seat
        out_of_turn = view.turn != seat
        return self._run.decide(game, seat, out_of_turn, view.legal)


class Run:
    """The traces of one session played through one loop: one list of decisions per hand."""

    def __init__(self, config: Config, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.traces: list[Trace] = []
        self.chooser = Chooser("")

    def hand(self, number: int) -> None:
        """Hand ``number`` (0: the first) begins."""
        self.traces.append([])
        self.chooser = Chooser(f"{self.config.name}|{self.seed}|{number}")

    def decide(self, game: Game, seat: int, out_of_turn: bool, moves: Sequence[Move],
               kind: str | None = None, shown: Sequence[str] | None = None) -> Move:
        """The chooser's move, written down with the decision (``kind``: the loop's own name
        for it; ``shown``: the moves as the loop shows them, when not ``moves``)."""
        move = self.chooser.pick(game, seat, out_of_turn, moves)
        kind = kind if kind is not None else kind_of(game, seat, out_of_turn)
        texts = tuple(sorted(shown)) if shown is not None else moves_text(moves)
        self.traces[-1].append((seat, kind, texts, str(move)))
        return move


# ---------------------------------------------------------------------- the loops
def session_hands(config: Config, seed: int, run: Run) -> Iterator[Game]:
    """Each hand of the configuration's session in turn, the run told which one it is."""
    session = Session(config.rules, config.players, seed)
    for number in range(config.hands):
        if number:
            session.next_hand()
        run.hand(number)
        yield session.game


def drive_arena(config: Config, seed: int) -> list[Trace]:
    from tienlen.arena import play_out

    run = Run(config, seed)
    for game in session_hands(config, seed, run):
        failures = play_out(game, [TraceBot(lambda g=game: g, run) for _ in range(config.players)])
        assert not failures and game.is_over
    return run.traces


def drive_asking(config: Config, seed: int, fast: bool = False) -> list[Trace]:
    from tienlen.rl.asking import rl_moves
    from tienlen.turns import Turns

    run = Run(config, seed)
    for game in session_hands(config, seed, run):
        mirror: list[Any] = []  # the fast path's mirror of the hand, once play has begun

        def fast_game(game: Game = game, mirror: list[Any] = mirror) -> Any:
            if not mirror and game.phase == "play":
                from tienlen.fast.api import FastGame

                mirror.append(FastGame.of(game))
            return mirror[0] if mirror else None

        def legal_of(seat: int, game: Game = game) -> list[Move]:
            mirror = fast_game()
            return mirror.legal_plays(seat) if mirror is not None else list(game.legal_plays(seat))

        def push(move: Move, seat: int, game: Game = game) -> None:
            mirror = fast_game()
            game.push(move, seat)
            if mirror is not None and isinstance(move, Play):
                mirror.push(move, seat)

        turns = Turns(game, legal_of, push) if fast else Turns(game)
        for _ in range(100_000):
            asked = turns.next()
            if asked is None:
                break
            move = run.decide(game, asked.seat, asked.out_of_turn, rl_moves(asked))
            turns.answer(asked.seat, move)
        assert game.is_over
    return run.traces


def fast_supported(config: Config) -> bool:
    """Whether the fast path is installed and plays these rules."""
    try:
        from tienlen import fast
    except ImportError:  # pragma: no cover - the fast path's package itself is always there
        return False
    return bool(fast.enabled(config.rules))


def drive_asking_fast(config: Config, seed: int) -> list[Trace]:
    return drive_asking(config, seed, fast=True)


def drive_controller(config: Config, seed: int) -> list[Trace]:
    from tienlen.play.controller import HUMAN, Controller

    run = Run(config, seed)
    c = Controller(config.rules, players=config.players, bots=("random",), seed=seed)
    c.bots = {seat: TraceBot(lambda: c.game, run) for seat in c.bots}
    for number in range(config.hands):
        if number:
            c.next_hand()
        run.hand(number)
        for _ in range(100_000):
            if c.game.is_over:
                break
            d = c.decision()
            if d is None:
                assert c.bot_step() is not None
                continue
            chop = d.kind == "chop"
            kind = "free_chop" if chop and d.free else d.kind
            moves = (*d.legal, PASS) if chop else d.legal
            move = run.decide(c.game, HUMAN, chop, moves, kind=kind)
            if chop and move == PASS:
                assert c.decline() is None
            else:
                c.play_text(str(move))
        assert c.game.is_over
    return run.traces


class _Wake:
    def cancel(self) -> None:
        pass


class _StillTime:
    """A time that stands still and never wakes anyone: the trace makes every move itself."""

    def __call__(self) -> float:
        return 1000.0

    def wall(self) -> float:
        return 1_700_000_000.0

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> _Wake:
        return _Wake()

    def call_soon(self, callback: Callable[..., object], *args: Any) -> _Wake:
        return _Wake()


@contextmanager
def _table(config: Config, seed: int, human: bool) -> Iterator[Any]:
    from tienlen.web.room.room import Client, Room
    from tienlen.web.schema import open_repository
    from tienlen.web.table.committer import Committer
    from tienlen.web.tablelog.writes import TableSettings

    repo = open_repository("sqlite://")
    settings = TableSettings("golden", config.rules.to_toml(), config.players, seed,
                             away_timeout=3600.0, turn_timer=0.0, name="golden", bot_level="random",
                             host_seat=0 if human else None, fixed_seed=True, next_hand_after=0.0)
    room = Room(repo, settings, bot_delay=0.0, committer=Committer(repo, time=_StillTime()))
    table = room.table
    table.hold_writes()
    if human:
        table.join_seat("Ann", 0)
    while any(s.kind == "empty" for s in table.seats):
        table.add_bot(None)
    table.start()
    entries, seats = table.take_writes()
    repo.create_table(settings, seats, entries, (table.version, table.snapshot()))
    if not human:
        room.attach(Client(lambda body: None))  # a watched bots-only table deals by itself
    try:
        yield room, repo
    finally:
        repo.engine.dispose()


def drive_room(config: Config, seed: int, human: bool = False) -> list[Trace]:
    run = Run(config, seed)
    with _table(config, seed, human) as (room, _):
        # the bots the table would make (get_bot(level, seed=...)) replaced by the chooser's
        room.table._bots = {seat: TraceBot(lambda: room.game, run)
                            for seat, s in enumerate(room.table.seats) if s.kind == "bot"}

        def step() -> bool:
            staged = room.clock.owed()
            if staged is None:
                return False
            room.act(lambda: room.table.make(staged))  # stored by the committer, then told
            return True

        for number in range(config.hands):
            if number:
                if human:
                    room.act(lambda: room.table.ask_next_hand(0, room.version))
                else:
                    assert step()
            run.hand(number)
            answered = -1  # the version at which the player last let an out-of-turn chop go
            for _ in range(100_000):
                game = room.game
                if game.is_over:
                    break
                if human and game.turn != 0 and answered != room.version:
                    page = room.view_for(0)
                    assert page is not None
                    if page.legal:  # the page offers seat 0 a chop out of turn
                        assert page.decision is not None and page.decision.out_of_turn
                        kind = page.decision.kind
                        move = run.decide(game, 0, True, [*game.legal_plays(0), PASS],
                                          kind=kind, shown=[*page.legal, "pass"])
                        if move == PASS:
                            answered = room.version
                        else:
                            room.act(functools.partial(room.table.apply_move, 0, str(move)))
                        continue
                if step():
                    continue
                assert human and game.turn == 0, "the table waits for nobody"
                assert not step()  # the bots that let a chop go are not asked again
                view = room.view_for(0)
                assert view is not None
                # the buttons are the legal list and the fills; what the page may do (out of
                # turn, a pass among the moves) the moves say
                facts = {} if view.decision is None else view.decision.model_dump(
                    exclude={"kind", "choices", "out_of_turn", "may_pass"})
                kind = game.phase if view.decision is None else " ".join(
                    [view.decision.kind, *(f"{k}={_words(v)}" for k, v in sorted(facts.items())
                                           if v not in (None, 0, []))])
                move = run.decide(game, 0, False, game.legal_plays(0), kind=kind,
                                  shown=view.legal)
                room.act(functools.partial(room.table.apply_move, 0, str(move)))
            assert room.game.is_over
    return run.traces


def _words(value: Any) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def drive_room_human(config: Config, seed: int) -> list[Trace]:
    return drive_room(config, seed, human=True)


def drive_train(config: Config, seed: int) -> list[Trace]:
    from tienlen.rl import train

    run = Run(config, seed)
    original = train.phase_choice
    try:
        for game in session_hands(config, seed, run):

            def phase(view: Any, game: Game = game) -> Move:
                seat = game.turn
                assert seat is not None
                return run.decide(game, seat, False, view.legal)

            train.phase_choice = phase
            bots = {s: TraceBot(lambda g=game: g, run) for s in range(config.players)}
            net: Any = SimpleNamespace(input_size=0)  # never asked: a bot plays every seat
            train.self_play_hand(game, net, random.Random(0), 0.0, bots)
            assert game.is_over
    finally:
        train.phase_choice = original
    return run.traces


def drive_rollout(config: Config, seed: int) -> list[Trace]:
    from tienlen.bots import rollout

    run = Run(config, seed)
    decide, out_of_turn_choice = rollout.decide, rollout.out_of_turn_choice
    try:
        for game in session_hands(config, seed, run):
            asked: list[int | None] = [None]  # the seat whose legal plays were listed last
            listed = game.legal_plays

            def legal_plays(seat: int | None = None, listed: Any = listed,
                            asked: list[int | None] = asked) -> list[Move]:
                asked[0] = seat
                return listed(seat)

            def turn(situation: Any, game: Game = game) -> Move:
                seat = game.turn
                assert seat is not None
                return run.decide(game, seat, False, situation.legal)

            def chop(chops: Sequence[Move], table: Any, rules: Any, game: Game = game,
                     asked: list[int | None] = asked) -> Move | None:
                seat = asked[0]
                assert seat is not None and seat != game.turn
                move = run.decide(game, seat, True, [*chops, PASS])
                return None if move == PASS else move

            game.legal_plays = legal_plays  # type: ignore[method-assign]
            rollout.decide, rollout.out_of_turn_choice = turn, chop
            try:
                rollout.playout(game, max_steps=100_000)
            finally:
                del game.legal_plays
            assert game.is_over
    finally:
        rollout.decide, rollout.out_of_turn_choice = decide, out_of_turn_choice
    return run.traces


# the packages a loop needs beyond the engine (the test skips it without them)
REQUIRES: dict[str, tuple[str, ...]] = {
    "asking_fast": ("numba",),
    "room": ("sqlalchemy", "pydantic"),
    "room_human": ("sqlalchemy", "pydantic"),
    "train": ("numpy",),
}

LOOPS: dict[str, Callable[[Config, int], list[Trace]]] = {
    "arena": drive_arena,
    "asking": drive_asking,
    "asking_fast": drive_asking_fast,
    "controller": drive_controller,
    "room": drive_room,
    "room_human": drive_room_human,
    "train": drive_train,
    "rollout": drive_rollout,
}


def loops_for(config: Config) -> list[str]:
    """The loops a configuration is recorded through (``asking_fast`` where the fast path plays
    the rules)."""
    return [name for name in LOOPS if name != "asking_fast" or fast_supported(config)]


# ---------------------------------------------------------------------- the data
def encode(config: Config, seed: int, runs: dict[str, list[Trace]]) -> dict[str, Any]:
    """One line of the data: the session, every distinct decision of each hand once, and each
    loop's trace as indices into them (runs ``[start, length]`` of consecutive indices)."""
    hands = []
    for number in range(config.hands):
        table: dict[Decision, int] = {}
        loops: dict[str, list[list[int]]] = {}
        for loop, traces in runs.items():
            indices = [table.setdefault(d, len(table)) for d in traces[number]]
            loops[loop] = _runs(indices)
        hands.append({"decisions": [[s, k, list(m), c] for s, k, m, c in table], "loops": loops})
    return {"config": config.name, "rules": config.rules.to_toml(), "players": config.players,
            "seed": seed, "hands": hands}


def _runs(indices: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][0] + out[-1][1] == i:
            out[-1][1] += 1
        else:
            out.append([i, 1])
    return out


@dataclass(frozen=True)
class Recorded:
    """One recorded session: its configuration and seed, and each loop's traces."""

    config: Config
    seed: int
    traces: dict[str, list[Trace]]

    @property
    def id(self) -> str:
        return f"{self.config.name}#{self.seed}"


def decode(line: dict[str, Any]) -> Recorded:
    config = Config(line["config"], Rules.from_toml(line["rules"]), line["players"],
                    (line["seed"],), len(line["hands"]))
    traces: dict[str, list[Trace]] = {}
    for hand in line["hands"]:
        table = [(s, k, tuple(m), c) for s, k, m, c in hand["decisions"]]
        for loop, runs in hand["loops"].items():
            traces.setdefault(loop, []).append(
                [table[start + i] for start, length in runs for i in range(length)])
    return Recorded(config, line["seed"], traces)


def load(path: Path = DATA) -> list[Recorded]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [decode(json.loads(line)) for line in f if line.strip()]


def save(lines: list[dict[str, Any]], path: Path = DATA) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n"
                   for line in lines)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                compresslevel=9) as f:
        f.write(text.encode("utf-8"))


# ---------------------------------------------------------------------- comparing
def first_difference(expected: list[Trace], found: list[Trace]) -> str | None:
    """Where two runs of a session first differ, in words (None: they are equal)."""
    for number, (want, got) in enumerate(zip(expected, found, strict=False)):
        for index, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                return (f"hand {number}, decision {index}:\n  expected {_said(a)}\n"
                        f"  found    {_said(b)}")
        if len(want) != len(got):
            index = min(len(want), len(got))
            extra = want[index] if len(want) > len(got) else got[index]
            return (f"hand {number}: {len(want)} decisions expected, {len(got)} found; "
                    f"decision {index} {'missing' if len(want) > len(got) else 'extra'}: "
                    f"{_said(extra)}")
    if len(expected) != len(found):
        return f"{len(expected)} hands expected, {len(found)} found"
    return None


def _said(d: Decision) -> str:
    seat, kind, moves, chosen = d
    shown = ", ".join(moves[:12]) + (f", ... ({len(moves)} moves)" if len(moves) > 12 else "")
    return f"seat {seat} {kind} [{shown}] -> {chosen}"


# the legitimate differences between the loops, as filters of the arena's trace
def without_single_moves(trace: Trace) -> Trace:
    """``train`` makes a play decision that has one move itself (asks nobody), and lets a seat
    offered only ``pass`` out of turn go unasked; phase decisions go to its phase policy."""
    return [d for d in trace if not (d[1] in ("play", "chop", "free_chop") and len(d[2]) == 1)]


def without_human_empty_offers(trace: Trace) -> Trace:
    """The terminal asks the human (seat 0) out of turn only when holding a chop (the bots are
    asked whatever they hold, as the turn API asks)."""
    return [d for d in trace if not (d[0] == 0 and d[1] in ("chop", "free_chop")
                                     and d[2] == ("pass",))]

