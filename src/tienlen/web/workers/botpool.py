"""The strongest bots' decisions and the players' hints, made in worker processes, so that a
table of ``search`` bots never holds another table back.

A hint is :func:`tienlen.hints.suggest`: the default ``search`` bot's move from the seat's view
at its default budget, with the reason it comes with.

Every table lives on the event loop. A ``search`` decision takes tens to hundreds of
milliseconds of CPU (docs/bots.md): made there, it would hold every table back that long. The
pool makes it in one of ``workers`` processes (``tienlen serve --bot-workers N``; default: the
cores less one, at least 1), started when first needed. Work waits in a queue when every
worker is busy, first come first served, a player's hint ahead of the bots' decisions (but a
waiting decision goes after two hints), the records' work last (the reviews of finished hands,
a decision at a time; replays and whole-table records, a few at a time per client: see
:class:`~.services.Offload`), never on the last free worker. A
worker is given only the seat's view (``Game.view(seat)``: its own hand, the others' counts,
what was played), never the deal. A worker runs at a lower CPU priority than the server
(``nice`` :data:`NICE`), so that where cores are short the search bots wait, not the other
tables; it keeps each table seat's bot between decisions (a ``search`` bot keeps the deals it
inferred within a hand) while that bot is among its last :data:`KEPT`.

With the fast extra installed, :meth:`BotPool.prepare` (``tienlen serve`` calls it at start)
compiles the fast path in a process of its own (about a minute the first time on a machine;
numba's on-disk cache makes later starts take a second, ``fast/cache.py`` says where it is
kept): meanwhile the workers answer on the pure engine, so a hint or a search bot is never kept
waiting for the compiler; once it is compiled, the workers are replaced by ones on the
compiled engine (a decision running on an old worker still gives its answer).

The cheap levels (random, greedy, heuristic, learned) decide on the event loop: a round trip
to a worker (about 0.6 ms) costs more than their decision (0.1 ms for heuristic, about 1 ms for
learned). A level decided here is a :class:`PooledBot` at the table: until the pool's answer for that very
view is back, the table asks the pool (staged.py ``Asking``); the answer is posted to the
table's inbox (room.py), which makes the move, unless the table moved on meanwhile.

Each worker times its work (:func:`timed`: the CPU its thread used, ``time.thread_time``) and
sends the seconds back with the answer; :attr:`BotPool.cpu` adds them up by the kind of work
(``/metrics``' ``tienlen_bot_cpu_seconds_total``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ... import Move, fast
from ...bots import Bot, get_bot
from ...errors import TienLenError, reason_of
from ...hints import Hint, prepare, suggest
from ...i18n import Msg, msg
from ...rules import Rules
from ...view import View
from ..limits import default_bot_workers

log = logging.getLogger("tienlen.web")
T = TypeVar("T")

KEPT = 256  # table seats' bots a worker keeps between their decisions
HINTS_IN_A_ROW = 2  # hints started one after another while a bot's decision waits


# ---------------------------------------------------------------------- in the worker process
NICE = 10  # the workers' lower CPU priority: where cores are short, the event loop goes first


def start_worker(compiled: bool = True) -> None:
    """A worker's start: a lower priority than the server's event loop, so that on a machine
    short of cores the search bots wait for CPU, not every table; ``compiled`` False: it
    answers on the pure engine (while the compiled one is being prepared)."""
    with contextlib.suppress(AttributeError, OSError):  # not on this system: the same priority
        os.nice(NICE)
    if not compiled:
        os.environ["TIENLEN_PURE"] = "1"


def prepare_compiled() -> bool:
    """In a process of its own, at the server's start: compile the fast path (or load it from
    numba's cache) with one small search, as a hint's (:func:`tienlen.hints.prepare`; the
    kernels are the same for every preset); False when it is not installed."""
    start_worker()
    return warm()


def warm() -> bool:
    """In a worker: load the compiled fast path (:func:`tienlen.hints.prepare`), before it is
    given work."""
    return prepare(Rules.preset("pagat"))


CPU_SECONDS = "tienlen_cpu_seconds"  # what a failed work's exception carries back: its CPU


def timed(fn: Callable[..., T], *args: Any) -> tuple[T, float]:
    """In a worker: ``fn(*args)`` and the CPU seconds it took (its thread's, so that in a test's
    worker thread too it is this work's alone); a failure carries them as its
    :data:`CPU_SECONDS` attribute (an exception's attributes cross to the server with it)."""
    start = time.thread_time()
    try:
        return fn(*args), time.thread_time() - start
    except BaseException as exc:
        vars(exc)[CPU_SECONDS] = time.thread_time() - start
        raise


_bots: OrderedDict[tuple[str, int, str, int], Bot] = OrderedDict()


def decide(key: tuple[str, int, str, int], view: View) -> Move:
    """The move of the bot ``key`` (table, seat, level, seed) for ``view``, in a worker."""
    bot = _bots.pop(key, None)
    if bot is None:
        bot = get_bot(key[2], seed=key[3])
    _bots[key] = bot
    while len(_bots) > KEPT:
        _bots.popitem(last=False)
    return bot.choose(view)


def hint(view: View) -> Hint:
    """The hint for ``view`` (:func:`tienlen.hints.suggest`: the coach's best move from the
    seat's view, with its reason), in a worker."""
    return suggest(view)


ReviewHead = tuple[dict[str, Any] | None, list[int], Msg | None]


def review_head(text: str, seat: int) -> ReviewHead:
    """In a worker, the start of a finished hand's review for ``seat`` (its stored record,
    ``tienlen.review``): the review as JSON without its decisions and the numbers of the
    decisions to review (:func:`review_decision` each), or why it cannot be made (a message,
    said in the asker's language once back)."""
    from ...review import decision_numbers, record_hand, review_game, review_json

    try:
        game, number, hands = record_hand(text)
        head = review_game(game, seat, hand=number, hands=hands, numbers=())
        return review_json(head), decision_numbers(game, seat), None
    except TienLenError as exc:
        return None, [], msg("err.web.replay", reason=reason_of(exc))


def review_decision(text: str, seat: int, number: int) -> dict[str, Any]:
    """In a worker, one decision of a finished hand's review (:func:`review_head` checked the
    record): its JSON."""
    from ...review import record_hand, review_game, review_json

    game, hand, hands = record_hand(text)
    decisions: list[dict[str, Any]] = review_json(review_game(
        game, seat, hand=hand, hands=hands, numbers={number}))["decisions"]
    return decisions[0]


# ---------------------------------------------------------------------- on the event loop
# the kind of each work, for its CPU seconds (the rest, the records' work: "records")
WORK_KINDS: dict[Callable[..., Any], str] = {decide: "decision", hint: "hint",
                                             prepare_compiled: "engine", warm: "engine"}


class CpuUse:
    """The CPU seconds the workers' work took, by kind (``decision``, ``hint``, ``records``: the
    reviews, replays and whole-table records, ``engine``: compiling and loading the compiled
    engine), added up as their answers come back (in the executors' threads: under a lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds = dict.fromkeys(("decision", "hint", "records", "engine"), 0.0)

    def add(self, fn: Callable[..., Any], seconds: float) -> None:
        kind = WORK_KINDS.get(fn, "records")
        with self._lock:
            self._seconds[kind] += seconds

    def seconds(self) -> dict[str, float]:
        """Each kind's seconds so far (a copy: read from any thread)."""
        with self._lock:
            return dict(self._seconds)


class TimedProcesses(ProcessPoolExecutor):
    """The workers: each work runs :func:`timed`, its answer comes back alone and its CPU
    seconds go to ``cpu`` (so the pool and its tests see the work as it was given)."""

    def __init__(self, workers: int, cpu: CpuUse, **options: Any) -> None:
        super().__init__(workers, **options)
        self.cpu = cpu

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        assert not kwargs, "the pool's work is given positional arguments only"
        answer: Future[T] = Future()
        work = super().submit(timed, fn, *args)

        def back(work: Future[tuple[T, float]]) -> None:
            if work.cancelled():
                answer.cancel()
                answer.set_running_or_notify_cancel()
                return
            exc = work.exception()
            if exc is not None:
                self.cpu.add(fn, vars(exc).get(CPU_SECONDS, 0.0))
                answer.set_exception(exc)
                return
            value, seconds = work.result()
            self.cpu.add(fn, seconds)
            answer.set_result(value)

        work.add_done_callback(back)
        return answer


class BotPool:
    """Runs decisions and hints in worker processes, at most ``workers`` at once, the rest
    queued (hints first)."""

    def __init__(self, workers: int | None = None,
                 executor: Callable[[], Executor] | None = None) -> None:
        self.workers = workers if workers is not None else default_bot_workers()
        self._make = executor or self._processes
        self._executor: Executor | None = None
        self._queue: deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = deque()
        self._hints: deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = deque()
        # the records' work (reviews of finished hands, seconds each; replays; whole-table
        # records): after every hint and bot decision, never on the last free worker
        self._records: deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = deque()
        self._running = 0
        self._hints_in_a_row = 0
        # the workers' engine: "compiled" (where installed: compiled on first use, or by
        # prepare()), "preparing" (compiled meanwhile in a process of its own: the workers
        # answer on the pure engine) or "pure" (no fast extra, or its preparation failed)
        self.engine = "compiled" if fast.available() else "pure"
        self._compiled = True  # whether workers started now play on the compiled engine
        self._preparing: list[Executor] = []  # compiling, or warming workers on its result
        self._closed = False
        self.cpu = CpuUse()  # what the workers' work took (TimedProcesses)

    def prepare(self, done: Callable[[float | None], None] | None = None,
                preparer: Callable[[], Executor] | None = None) -> bool:
        """Compile the fast path now, in a process of its own (``preparer``'s), the workers
        answering on the pure engine meanwhile; then start workers on the compiled engine,
        and once they have loaded it give them the work and call ``done(seconds it all
        took)`` (None: compiling failed, the pure engine stays). False (nothing done): the
        fast extra is not installed. Called on the event loop."""
        if self.engine != "compiled":
            return False
        self.engine = "preparing"
        self._compiled = False
        self._retire()  # workers started before now would compile on their first work
        executor = (preparer or self._one_process)()
        self._preparing.append(executor)
        started = time.monotonic()

        def compiled(work: Future[bool]) -> None:
            self._preparing.remove(executor)
            executor.shutdown(wait=False)
            if self._closed:
                return
            if work.exception() is not None or not work.result():
                log.warning("compiling the fast path failed (%r): the pure engine stays",
                            work.exception())
                self.engine = "pure"
                if done is not None:
                    done(None)
                return
            self._compiled = True
            fresh = self._make()
            self._preparing.append(fresh)
            warming = [fresh.submit(warm) for _ in range(self.workers)]
            self._when_all(warming, lambda: ready(fresh))

        def ready(fresh: Executor) -> None:
            if self._closed:
                return
            self._preparing.remove(fresh)
            self._retire()  # what the pure workers are making still comes back
            self._executor = fresh
            self.engine = "compiled"
            if done is not None:
                done(time.monotonic() - started)

        job = executor.submit(prepare_compiled)
        self._when_all([job], lambda: compiled(job))
        return True

    @staticmethod
    def _when_all(works: list[Future[Any]], then: Callable[[], None]) -> None:
        """Call ``then`` on the event loop once every one of ``works`` is done."""
        loop = asyncio.get_running_loop()
        left = [len(works)]

        def one_done(_: Future[Any]) -> None:
            left[0] -= 1
            if left[0] == 0:
                loop.call_soon_threadsafe(then)

        for work in works:
            work.add_done_callback(one_done)

    def _retire(self) -> None:
        """Stop giving work to the workers there are now (what they are making still comes
        back); the next work starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None

    @property
    def queued(self) -> int:
        return len(self._queue) + len(self._hints) + len(self._records)

    def decide(self, key: tuple[str, int, str, int], view: View) -> Future[Move]:
        """The bot ``key``'s move for ``view``, once a worker has made it."""
        return self._submit(self._queue, decide, key, view)

    def hint(self, view: View) -> Future[Hint]:
        """A hint for ``view``, ahead of every bot's decision in the queue."""
        return self._submit(self._hints, hint, view)

    def review_head(self, text: str, seat: int) -> Future[ReviewHead]:
        """The start of a finished hand's review for ``seat`` (:func:`review_head`)."""
        return self._submit(self._records, review_head, text, seat)

    def review_decision(self, text: str, seat: int, number: int) -> Future[dict[str, Any]]:
        """One decision of a review (:func:`review_decision`). A review's parts come behind
        every hint and bot decision in the queue, and with more than one worker never take
        the last free one: a table's bot waits at most for one decision of a review."""
        return self._submit(self._records, review_decision, text, seat, number)

    def record_work(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """``fn(*args)`` (a replay, a whole table's record: CPU work the event loop must not
        do), queued with the reviews' parts: behind every hint and bot decision."""
        return self._submit(self._records, fn, *args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`record_work`'s answer, awaited; where a worker died (killed, out of memory)
        on the way, once more on new workers."""
        try:
            return await asyncio.wrap_future(self.record_work(fn, *args))
        except BrokenProcessPool:
            return await asyncio.wrap_future(self.record_work(fn, *args))

    def _submit(self, queue: deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]],
                fn: Callable[..., Any], *args: Any) -> Future[Any]:
        answer: Future[Any] = Future()
        queue.append((answer, fn, args))
        self._next()
        return answer

    def _next(self) -> None:
        while True:
            queue = self._pick()
            if queue is None:
                return
            answer, fn, args = queue.popleft()
            if not answer.set_running_or_notify_cancel():
                continue
            self._running += 1
            try:
                work = self._pool().submit(fn, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool
                self._executor = None
                work = self._pool().submit(fn, *args)
            loop = asyncio.get_running_loop()  # the pool's state is the event loop's alone
            work.add_done_callback(functools.partial(self._back, loop, answer))

    def _pick(self) -> deque[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] | None:
        """The queue whose work starts next, if a worker is free: the hints first, but never
        more than :data:`HINTS_IN_A_ROW` while a bot's decision waits; then the decisions;
        then the records' work, on a worker that leaves another free (where there are two or more)."""
        if self._running >= self.workers:
            return None
        if self._hints and not (self._queue and self._hints_in_a_row >= HINTS_IN_A_ROW):
            self._hints_in_a_row += 1
            return self._hints
        self._hints_in_a_row = 0
        if self._queue:
            return self._queue
        if self._records and (self.workers == 1 or self._running < self.workers - 1):
            return self._records
        return None

    def _back(self, loop: asyncio.AbstractEventLoop, answer: Future[Any],
              work: Future[Any]) -> None:
        """A worker's answer (in the executor's thread): dealt with on the event loop."""
        loop.call_soon_threadsafe(self._done, work, answer)

    def _done(self, work: Future[Any], answer: Future[Any]) -> None:
        self._running -= 1
        exc = work.exception()
        if isinstance(exc, BrokenProcessPool):
            self._executor = None
        if exc is not None:
            answer.set_exception(exc)
        else:
            answer.set_result(work.result())
        self._next()

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = self._make()
        return self._executor

    def _processes(self) -> Executor:
        # spawned, not forked: the server's threads stay behind
        return TimedProcesses(self.workers, self.cpu, mp_context=multiprocessing.get_context("spawn"),
                              initializer=start_worker, initargs=(self._compiled,))

    def _one_process(self) -> Executor:
        return TimedProcesses(1, self.cpu, mp_context=multiprocessing.get_context("spawn"))

    def close(self) -> None:
        """Stop the workers; a compilation under way is ended, not waited for (the server
        stops at once, even during its first start)."""
        self._closed = True
        for executor in [*self._preparing, *([self._executor] if self._executor else [])]:
            # a ProcessPoolExecutor's processes: shutting down waits for their work at exit
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
        self._preparing = []
        self._executor = None


class PooledBot:
    """A table seat's bot whose decisions the pool makes: it has a move for a view only once the
    pool answered that very view (:meth:`answered`, :meth:`answer`); the table asks the pool
    meanwhile (``Asking``: staged.py)."""

    def __init__(self, key: tuple[str, int, str, int]) -> None:
        self.key = key
        self.name = key[2]
        self._answer: tuple[View, Move | BaseException] | None = None

    def answer(self, view: View) -> Move | None:
        """The pool's answer for ``view``, taken (None: not answered; a failed decision raises,
        and the table makes its fallback move)."""
        answer, self._answer = self._answer, None
        if answer is None or not _same(answer[0], view):
            return None
        if isinstance(answer[1], BaseException):
            raise RuntimeError(f"the bot's decision failed: {answer[1]!r}")
        return answer[1]

    def choose(self, view: View) -> Move:
        """The pool's answer for ``view``: a table asks :meth:`answer` (this is the bot protocol's
        way, for a caller that does not know the pool)."""
        move = self.answer(view)
        if move is None:
            raise RuntimeError(f"bot {self.name}: its decision for this view is the pool's to make")
        return move

    def answered(self, view: View, move: Move | BaseException) -> None:
        """The pool's answer for ``view`` (a failure: the table's fallback move is made)."""
        self._answer = (view, move)


def _same(asked: View, now: View) -> bool:
    """Whether ``now`` is the decision ``asked`` was (the same seat at the same point of the
    hand; the table has checked that it did not move on)."""
    return (asked.seat, asked.turn, asked.phase, asked.history, asked.free_chop) == (
        now.seat, now.turn, now.phase, now.history, now.free_chop)
