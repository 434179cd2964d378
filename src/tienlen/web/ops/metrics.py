"""``/metrics``: this process's figures in Prometheus's text format, through prometheus-client,
on a :class:`~prometheus_client.CollectorRegistry` of each app's own (a test process runs many
apps; the library's global registry is never used).

Most figures are read when scraped, from what the server counts anyway: the lobby's tables, the
committer's stats (the moves stored, the writes refused), the bot pool's (the decisions asked,
the CPU its workers' work took, what waits). What only the WebSocket loop sees is counted there,
one integer increment each (:class:`Metrics`' attributes): the connections open, the commands
received, the events sent, and each command's wait for the first event after it (a
:class:`Latency`, observed with one bisection). The process's own (``process_*``: CPU, memory,
open files), Python's (``python_info``) and the garbage collector's (``python_gc_*``) figures
are there too.

Nothing here names a table, a player or an address: every figure is a count of this process.
A scrape may come from another thread (the listener of ``--metrics-address`` is
prometheus-client's own, in a thread; ``/metrics`` on the main port is answered in the thread
pool): what is read here is one integer, a ``len`` or a copy made under a lock, never a walk
over the event loop's tables.

**Take-overs.** The table leases' code (a server of several processes, each table served by the
one holding its lease) counts each table it takes over from a process whose lease lapsed with
:meth:`Metrics.took_over` (``services.metrics.took_over()``); where it holds no ``Services``
(below them), it is given that bound method as a plain callable.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence

from prometheus_client import GCCollector, PlatformCollector, ProcessCollector, start_http_server
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector, CollectorRegistry

from ...errors import TienLenError, error
from ...i18n import os_reason
from ..lobby.lobby import Lobby
from .options import url_of

# seconds, for a command's wait until the first event after it: a pass of the committer takes
# about a millisecond, a loaded server's p99 tens of them (docs/web.md)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LATENCY_HELP = ("Seconds from a command's arrival on a WebSocket to the first event its "
                "connection is handed after the table read it and stored what it changed")


class Latency:
    """A histogram with fixed buckets (``le`` bounds, seconds), observed on the event loop with
    one bisection and two additions; read whole at a scrape."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: Sequence[float] = LATENCY_BUCKETS) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.total += seconds

    def family(self, name: str, documentation: str) -> HistogramMetricFamily:
        counts = list(self.counts)  # one copy: a scrape from another thread sees one moment
        cumulative, buckets = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), counts, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        return HistogramMetricFamily(name, documentation, buckets=buckets, sum_value=self.total)


class Metrics:
    """The figures of one server (one app): what the WebSocket loop counts, the hook for the
    table leases' take-overs, and the registry ``/metrics`` is read from (:meth:`watch` adds the
    lobby's figures to it)."""

    def __init__(self) -> None:
        self.connections = 0  # WebSocket connections open (being served)
        self.commands_accepted = 0  # commands handed to their table
        self.commands_refused = 0  # messages refused before a table saw them (a rate limit,
        # unreadable, a banned player's act, the table closed meanwhile)
        self.events = 0  # messages sent to the clients
        self.latency = Latency()  # each command's wait for its event (routes/socket.py)
        self.takeovers = 0  # tables taken over from a process whose lease lapsed
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.registry.register(_Counted(self))

    def took_over(self, tables: int = 1) -> None:
        """The table leases' hook: ``tables`` taken over by this process from one whose lease
        lapsed (``tienlen_lease_takeovers_total``). On the event loop, as every count here is
        made (a thread of the leases' own: ``loop.call_soon_threadsafe(metrics.took_over)``)."""
        self.takeovers += tables

    def watch(self, lobby: Lobby, role: Callable[[], str] = lambda: "single") -> None:
        """Serve the figures of ``lobby`` (its tables, its committer, its bot pool) and this
        process's ``role`` (``single``; with leader election, ``leader`` or ``follower``)."""
        self.registry.register(_Served(lobby, role))

    def text(self, accept: str = "") -> tuple[bytes, str]:
        """Every figure, in the format a scraper's ``Accept`` asks for (OpenMetrics, or
        Prometheus's text format: prometheus-client's choice, as its own listener makes it),
        and its media type."""
        encoder, media_type = choose_encoder(accept)
        return encoder(self.registry), media_type


def listen(metrics: Metrics, address: tuple[str, int]) -> Callable[[], None]:
    """Serve ``metrics`` at ``address`` (``tienlen serve --metrics-address``), on
    prometheus-client's own HTTP server, in a thread; what stops it. An address that cannot be
    listened on is a :class:`~tienlen.errors.TienLenError` saying why."""
    host, port = address
    try:
        server, thread = start_http_server(port, host, registry=metrics.registry)
    except OSError as exc:
        raise error(TienLenError, "err.serve.metrics_address", url=url_of(host, port),
                    error=os_reason(exc)) from None

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(5)

    return stop


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


class _Counted(Collector):
    """What the WebSocket loop and the leases count (:class:`Metrics`' attributes)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        yield _gauge("tienlen_connections", "WebSocket connections open on this process",
                     m.connections)
        commands = CounterMetricFamily(
            "tienlen_commands", "Messages received from clients over WebSockets: accepted "
            "(handed to their table, which may still refuse them by its rules) or refused "
            "before it (a rate limit, unreadable, a banned player's act)", labels=["outcome"])
        commands.add_metric(["accepted"], m.commands_accepted)
        commands.add_metric(["refused"], m.commands_refused)
        yield commands
        yield _counter("tienlen_events", "Messages sent to clients over WebSockets", m.events)
        yield m.latency.family("tienlen_event_latency_seconds", LATENCY_HELP)
        yield _counter("tienlen_lease_takeovers", "Tables this process took over from a "
                       "process whose lease on them lapsed", m.takeovers)


class _Served(Collector):
    """The lobby's figures: its tables, its committer's stats, its bot pool's."""

    def __init__(self, lobby: Lobby, role: Callable[[], str]) -> None:
        self.lobby = lobby
        self.role = role

    def collect(self) -> Iterator[Metric]:
        lobby = self.lobby
        committer = lobby.committer
        stats, pool = committer.stats, committer.pool  # the pool read now: a test replaces it
        yield _gauge("tienlen_tables_owned", "Open tables this process serves", len(lobby.rooms))
        role = GaugeMetricFamily("tienlen_role", "This process's role (1 for the one it has): "
                                 "single, or leader or follower", labels=["role"])
        role.add_metric([self.role()], 1)
        yield role
        # each its own counter (not people's as the difference): a scrape between the two
        # additions of one batch must not see a count go back
        yield _counter("tienlen_moves_stored", "The hands' moves stored (people's and bots')",
                       stats.moves)
        yield _counter("tienlen_bot_moves_stored", "Of the moves stored, a bot's or the turn "
                       "timer's (for a player out of time)", stats.bot_moves)
        yield _counter("tienlen_commit_batches", "Transactions that stored tables' writes "
                       "(each holds the writes of every table read in one pass)", stats.batches)
        yield _counter("tienlen_refused_writes", "Tables whose writes the database refused "
                       "(each rebuilt from what is stored, and tried again)", stats.refused)
        yield _counter("tienlen_fenced_writes", "Tables whose writes were refused by their lease: "
                       "another process had taken them (each let go here)", stats.fenced)
        yield _counter("tienlen_bot_decisions", "Bots' decisions asked of the bot pool",
                       stats.pooled)
        yield _counter("tienlen_bot_answers_stale", "The bot pool's answers dropped: their "
                       "table had moved on", stats.stale)
        cpu = CounterMetricFamily(
            "tienlen_bot_cpu_seconds", "CPU seconds the bot pool's workers spent on their work, "
            "as each worker timed it (its thread's CPU time) and sent back with the answer: "
            "decision, hint, records (reviews, replays, whole-table records), engine "
            "(compiling and loading the compiled engine)", labels=["work"])
        for kind, seconds in pool.cpu.seconds().items():
            cpu.add_metric([kind], seconds)
        yield cpu
        yield _gauge("tienlen_bot_pool_queued", "Work waiting for a free worker of the bot pool",
                     pool.queued)
        yield _gauge("tienlen_bot_pool_workers", "The bot pool's worker processes at most",
                     pool.workers)
        engine = GaugeMetricFamily("tienlen_bot_engine", "The engine the bot pool's workers "
                                   "play on (1 for the one in use): compiled, preparing or pure",
                                   labels=["engine"])
        engine.add_metric([pool.engine], 1)
        yield engine
