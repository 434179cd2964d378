"""The strongest bots decide in the bot pool's worker processes, off the event loop: a table of
search bots waiting for its decision holds no other table back, the worker is given the seat's
view and nothing more, an answer for a table that moved on is dropped, a player's hint is
chosen there too, a player's move is acknowledged while a search decision is being made, and
``tienlen serve --bot-workers N`` sizes the pool.

The pool's worker is stood in for by an executor the test releases by hand (the same functions
run, in this process), so what is shown is the order of events, not a timing."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Rules
from tienlen.bots.search import unsearched
from tienlen.cli import build_parser, main
from tienlen.coach import appraise
from tienlen.hints import reason_words, suggest
from tienlen.view import View
from tienlen.web.limits import Limits
from tienlen.web.lobby.lobby import Lobby, NewTable
from tienlen.web.refusal import Refused
from tienlen.web.room.protocol import AddBot, BotLevel, Command, Hello, Hint, PlayMove, Start
from tienlen.web.room.room import Client, Room
from tienlen.web.schema import open_repository
from tienlen.web.server import limits_from
from tienlen.web.services import Offload
from tienlen.web.workers import botpool
from tienlen.web.workers.botpool import BotPool

from .waiting import in_a_thread


class Held(Executor):
    """A worker that runs nothing until the test lets it (:meth:`release`)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        self.jobs.append((fn, args, done))
        return done

    def release(self) -> None:
        """Run the oldest job held (its answer goes back as a worker's would)."""
        fn, args, done = self.jobs.pop(0)
        done.set_result(fn(*args))


class Outbox:
    def __init__(self) -> None:
        self.bodies: list[str] = []

    def client(self) -> Client:
        return Client(self.bodies.append)


def lobby_with(held: Held) -> Lobby:
    lobby = Lobby(open_repository("sqlite://"), bot_delay=0.0)
    lobby.committer.pool = BotPool(1, executor=lambda: held)
    return lobby


def watch(room: Room) -> Outbox:
    out = Outbox()
    room.attach(out.client())
    room.schedule()
    return out


def said(room: Room, client: Client, command: Command) -> None:
    """``client`` sends ``command``: posted to the table's inbox, and the inbox read now (as the
    committer's next pass would)."""
    room.handle(client, command)
    room.committer.flush()


def ann_and_a_bot(lobby: Lobby, level: BotLevel,
                  also: Sequence[Client] = ()) -> tuple[Room, Outbox, Client]:
    """Ann at a started 2-seat table with a bot of ``level``, her page's outbox and client
    (``also``: more pages of hers, seated by her token too)."""
    room, _, token = lobby.create(NewTable(name="Ann", players=2, level=level), owner="ann")
    out = Outbox()
    ann = out.client()
    for client in (ann, *also):
        room.attach(client)
        said(room, client, Hello(type="hello", seq=1, token=token))
    said(room, ann, AddBot(type="add_bot", seq=2))
    said(room, ann, Start(type="start", seq=3))
    return room, out, ann


async def ann_to_play(held: Held) -> tuple[Lobby, Room, Outbox, Client]:
    """Ann at a started table with a heuristic bot, the pool's work held, her turn come."""
    lobby = lobby_with(held)
    room, out, ann = ann_and_a_bot(lobby, "heuristic")
    assert room.game is not None
    await until(lambda: room.game.turn == 0,  # type: ignore[union-attr]
                what=lambda: waiting_for(room))
    return lobby, room, out, ann


def waiting_for(room: Room) -> str:
    """What the table is doing (said when a wait for it runs out)."""
    game = room.game
    clock = room.clock
    return (f"turn {None if game is None else game.turn}, over {game is not None and game.is_over},"
            f" moves {None if game is None else [f'{seat}: {move}' for seat, move in game.history]},"
            f" version {room.version}, clock armed {clock.armed}, closed {clock.closed},"
            f" asked {room.table.asked()}, thinking {room._thinking}, inbox {list(room._inbox)},"
            f" due {len(room.committer._due)}, soon {room.committer._soon},"
            f" pooled {room.committer.stats.pooled}")


async def until(check: Callable[[], bool], seconds: float = 30.0,
                what: Callable[[], str] | None = None) -> None:
    """Await ``check`` (``what``: the state to say if it does not hold in time)."""
    for _ in range(int(seconds / 0.005)):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("not within the time" + ("" if what is None else f": {what()}"))


def test_a_search_table_waiting_for_its_decision_holds_no_heuristic_table_back() -> None:
    held = Held()

    async def play() -> None:
        lobby = lobby_with(held)
        search, _, _ = lobby.create(NewTable(quick=True, level="search", players=4))
        normal, _, _ = lobby.create(NewTable(quick=True, level="heuristic", players=4))
        watch(search)
        watch(normal)
        await until(lambda: len(held.jobs) == 1)  # the search table's first decision asked
        start = search.version
        await until(lambda: normal.version >= 12)  # the heuristic table plays on meanwhile
        assert search.version == start and len(held.jobs) == 1  # one decision, still waited for
        fn, args, _ = held.jobs[0]
        assert fn is botpool.decide
        key, view = args
        assert key[:3] == (search.id, search.game.turn, "search")  # type: ignore[union-attr]
        # the worker is told the seat's view: its own hand, the others' card counts only
        assert isinstance(view, View) and view.seat == key[1]
        assert list(view.hand) == search.game.hand(key[1])  # type: ignore[union-attr]
        assert view.revealed is None
        held.release()
        await until(lambda: search.version == start + 1)  # its move, once the answer is back
        assert lobby.committer.stats.stale == 0
        for room in (search, normal):
            room.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_a_players_move_is_acknowledged_while_a_search_decision_is_being_made() -> None:
    held = Held()

    async def play() -> None:
        lobby = lobby_with(held)
        search, _, _ = lobby.create(NewTable(quick=True, level="search", players=4))
        watch(search)
        await until(lambda: len(held.jobs) == 1)  # a search decision in the worker, unanswered
        room, out, ann = ann_and_a_bot(lobby, "greedy")
        game = room.game
        assert game is not None
        await until(lambda: game.turn == 0)
        version, sent = room.version, len(out.bodies)
        move = str(game.legal_plays(0)[0])
        said(room, ann, PlayMove(type="play", seq=4, version=version, move=move))
        # Ann's move is made and her state sent before the search table's answer is back
        assert room.version == version + 1
        assert any(f'"version":{version + 1}' in b for b in out.bodies[sent:])
        assert len(held.jobs) == 1 and not held.jobs[0][2].done()
        held.release()
        for r in (search, room):
            r.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_an_answer_for_a_table_that_moved_on_is_dropped() -> None:
    held = Held()

    async def play() -> None:
        lobby = lobby_with(held)
        room, seat, token = lobby.create(
            NewTable(quick=True, name="Ann", level="search", players=4), owner="ann")
        assert seat == 0 and room.game is not None
        out = Outbox()
        ann = out.client()
        room.attach(ann)
        said(room, ann, Hello(type="hello", seq=1, token=token))  # her seat, by its token
        assert ann.seat == 0
        if room.game.turn == 0:  # Ann leads: then a bot is on turn
            said(room, ann, PlayMove(type="play", seq=2, version=room.version,
                                      move=str(room.game.legal_plays(0)[0])))
        await until(lambda: len(held.jobs) == 1)
        version = room.version
        room.act(lambda: room.leave(0))  # the table moves on (Ann's seat is a bot's now) before the answer
        assert room.version == version + 1
        held.release()  # the answer for the state gone
        await until(lambda: lobby.committer.stats.stale == 1)
        assert room.version == version + 1  # nothing made from it
        await until(lambda: len(held.jobs) == 1)  # asked anew, for the table as it is
        assert held.jobs[0][1][1].history == room.game.view(room.game.turn).history  # type: ignore[union-attr]
        held.release()
        await until(lambda: room.version == version + 2)
        room.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_a_hint_is_chosen_in_the_pool_from_the_players_view() -> None:
    held = Held()

    async def play() -> None:
        lobby, room, out, ann = await ann_to_play(held)
        sent = len(out.bodies)
        said(room, ann, Hint(type="hint", seq=4))
        assert len(held.jobs) == 1 and len(out.bodies) == sent  # asked, not answered on the loop
        fn, args, _ = held.jobs[0]
        assert fn is botpool.hint
        assert isinstance(args[0], View) and args[0].seat == 0
        assert list(args[0].hand) == room.game.hand(0)
        held.release()
        await until(lambda: any('"hint"' in b for b in out.bodies[sent:]))
        hint = json.loads(next(b for b in out.bodies[sent:] if '"hint"' in b))
        assert hint["move"] in [str(m) for m in room.game.legal_plays(0)]
        # the hint from the seat's view (the coach's best move, or the only one), and why, in
        # Ann's language
        view = args[0]
        expected = suggest(view)
        assert hint["move"] == str(expected.move)
        assert unsearched(view) is not None or expected.move == appraise(view).best.move
        assert hint["reason"] == reason_words(expected.reason, "en")
        room.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_one_hint_at_a_time_and_none_for_a_spectator() -> None:
    held = Held()

    async def play() -> None:
        lobby, room, out, ann = await ann_to_play(held)
        said(room, ann, Hint(type="hint", seq=4))
        sent = len(out.bodies)
        said(room, ann, Hint(type="hint", seq=5))  # the first is still being chosen
        assert len(held.jobs) == 1
        refusal = json.loads(out.bodies[sent])
        assert (refusal["type"], refusal["ref"]) == ("error", 5)
        assert refusal["reason"] == "A hint is on its way: one at a time"
        held.release()
        await until(lambda: any('"hint"' in b for b in out.bodies[sent:]))
        said(room, ann, Hint(type="hint", seq=6))  # answered: she may ask again
        assert len(held.jobs) == 1
        held.release()
        watcher = Outbox()
        spectator = watcher.client()
        room.attach(spectator)
        said(room, spectator, Hint(type="hint", seq=1))
        assert held.jobs == []
        assert '"error"' in watcher.bodies[-1]
        room.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_one_hint_at_a_time_for_a_seat_however_many_pages_it_has() -> None:
    """Ten pages of one seat cannot queue ten searches ahead of every bot's decision."""
    held = Held()

    async def play() -> None:
        lobby = lobby_with(held)
        pages = [Outbox() for _ in range(2)]
        others = [page.client() for page in pages]
        room, _, ann = ann_and_a_bot(lobby, "heuristic", also=others)
        assert room.game is not None
        await until(lambda: room.game.turn == 0)  # type: ignore[union-attr]
        for client in (ann, *others):
            said(room, client, Hint(type="hint", seq=9))
        assert len(held.jobs) == 1  # the first page's; the others refused
        for page in pages:
            assert "A hint is on its way" in page.bodies[-1]
        held.release()
        room.stop()
        lobby.committer.pool.close()

    in_a_thread(play())


def test_a_bots_decision_waits_for_two_hints_at_most() -> None:
    """Hints go first, but a bot's decision waiting in the queue starts after two of them."""
    held = Held()

    async def play() -> None:
        pool = BotPool(1, executor=lambda: held)
        view = Game.deal(Rules.preset("pagat"), 2, seed=1).view(0)
        pool.hint(view)  # running
        decision = pool.decide(("t", 1, "search", 1), view)
        hints = [pool.hint(view) for _ in range(2, 6)]
        started = []
        for _ in range(6):
            await until(lambda: bool(held.jobs))
            started.append(held.jobs[0][0].__name__)
            held.release()
        # the first hint ran when the decision came: it waited for one more
        assert started == ["hint", "hint", "decide", "hint", "hint", "hint"]
        await until(lambda: decision.done() and all(h.done() for h in hints))
        pool.close()

    in_a_thread(play())


def replay(text: str) -> str:
    """Stands in for a replay (the records' work) in the held worker."""
    return text.upper()


def test_a_replay_waits_behind_the_hints_and_the_bots_decisions() -> None:
    """The records' work (replays, whole-table records) shares the one pool, after every hint
    and bot decision, even those asked after it."""
    held = Held()

    async def play() -> None:
        pool = BotPool(1, executor=lambda: held)
        view = Game.deal(Rules.preset("pagat"), 2, seed=1).view(0)
        pool.hint(view)  # running
        replayed = asyncio.ensure_future(pool.run(replay, "hand 1"))
        await asyncio.sleep(0)
        later = [pool.hint(view), pool.decide(("t", 1, "search", 1), view)]
        started = []
        for _ in range(4):
            await until(lambda: bool(held.jobs))
            started.append(held.jobs[0][0].__name__)
            held.release()
        assert started == ["hint", "hint", "decide", "replay"]
        assert await replayed == "HAND 1" and all(f.done() for f in later)
        pool.close()

    in_a_thread(play())


def test_a_client_past_its_replays_at_once_is_refused_429_until_one_is_done() -> None:
    held = Held()

    async def play() -> None:
        offload = Offload(BotPool(1, executor=lambda: held), per_client=1)
        first = asyncio.ensure_future(offload.run("a", replay, "one"))
        await until(lambda: len(held.jobs) == 1)
        with pytest.raises(Refused) as refused:  # the same client's second, while its first runs
            await offload.run("a", replay, "two")
        assert (refused.value.status, refused.value.retry_after) == (429, 1)
        assert len(held.jobs) == 1  # the refused one queued nothing
        other = asyncio.ensure_future(offload.run("b", replay, "three"))  # another client's
        held.release()
        assert await first == "ONE"
        await until(lambda: len(held.jobs) == 1)
        held.release()
        assert await other == "THREE"
        again = asyncio.ensure_future(offload.run("a", replay, "four"))  # its first is done
        await until(lambda: len(held.jobs) == 1)
        held.release()
        assert await again == "FOUR"
        offload.pool.close()

    in_a_thread(play())


def test_a_replay_whose_worker_died_is_made_once_more_on_new_workers() -> None:
    made: list[Held] = []

    def workers() -> Executor:
        made.append(Held())
        return made[-1]

    async def play() -> None:
        pool = BotPool(1, executor=workers)
        replayed = asyncio.ensure_future(pool.run(replay, "hand 1"))
        await until(lambda: len(made) == 1 and bool(made[0].jobs))
        made[0].jobs.pop(0)[2].set_exception(BrokenProcessPool("killed"))  # out of memory, say
        await until(lambda: len(made) == 2 and bool(made[1].jobs))
        made[1].release()
        assert await replayed == "HAND 1"
        pool.close()

    in_a_thread(play())


def test_the_pool_is_sized_by_serve_bot_workers(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert Limits().bot_workers == max(1, (os.cpu_count() or 1) - 1)
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--bot-workers N" in text
    assert f"(default: {Limits().bot_workers}, the cores less one" in text
    monkeypatch.setenv("LC_ALL", "vi_VN.UTF-8")
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--bot-workers N số tiến trình phụ" in text
    assert f"(mặc định: {Limits().bot_workers}, số lõi trừ một" in text
    monkeypatch.delenv("LC_ALL")
    args = build_parser().parse_args(["serve", "--bot-workers", "3"])
    limits = limits_from(args)
    assert limits.bot_workers == 3
    assert Lobby(open_repository("sqlite://"), limits=limits).committer.pool.workers == 3
    assert main(["serve", "--bot-workers", "0"]) == 2
    assert "bot-workers must be 1 or more, not 0" in capsys.readouterr().err
