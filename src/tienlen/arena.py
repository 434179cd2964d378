"""Tournaments that measure bots honestly: duplicate deals, confidence intervals, parallel back ends.

Every deal is played once for each rotation of the bots around the seats, so
each bot plays every hand from every seat. Each hand's seeds come from the
tournament seed and the deal number alone, so the results are the same
whatever the number of workers or the back end.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.util
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TextIO

from .actions import Move
from .bots import Bot, bot_names, bot_options, get_bot
from .bots.external import BotFailure, ExternalBot
from .bots.simple import RandomBot
from .errors import ArgumentError, TienLenError, error, reason_of
from .fast.play import play_hand as fast_play_hand
from .game import Game
from .i18n import Msg, Num, msg, number, os_reason, pad, render, t, tn
from .i18n import width as text_width
from .rules import Rules
from .turns import Decision, Turns, bot_answers, view_for_decision
from .view import View

Z95 = 1.959963984540054
# Student's t, two-sided 95%, by degrees of freedom (1-30); beyond, a series in 1/df
_T95: Final = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
               2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
               2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_ALIAS = re.compile(r"^([A-Za-z_][\w.-]*)=(.+)$")


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


@dataclass(frozen=True)
class BotSpec:
    """A bot as named in a tournament: ``heuristic``, ``search:worlds=8``, ``cmd:python bot.py``,
    ``py:agent.py:bot`` (a bot written in Python, a trained agent among them), any of them after
    an alias that names it in the results: ``me=cmd:./bot.pl``."""

    text: str

    @property
    def alias(self) -> str | None:
        m = _ALIAS.match(self.text.strip())
        return m.group(1) if m and not self.text.startswith("cmd:") else None

    @property
    def spec(self) -> str:
        """The bot without its alias."""
        m = _ALIAS.match(self.text.strip())
        return m.group(2).strip() if m and not self.text.startswith("cmd:") else self.text.strip()

    @property
    def label(self) -> str:
        """The bot's name in the results: its alias, or the whole text."""
        return self.alias or self.spec

    @property
    def external(self) -> bool:
        return self.spec.startswith("cmd:")

    def make(self, seed: int, time_limit: float) -> Bot:
        text = self.spec
        if text.startswith("cmd:"):
            return ExternalBot(text[4:], seed=seed, time_limit=time_limit)
        if text.startswith("py:"):  # a bot written in Python (a trained agent: tienlen.rl.policy)
            return python_bot(text[len("py:"):])
        name, _, rest = text.partition(":")
        budget: dict[str, Any] = {}
        for part in filter(None, rest.split(":")):
            key, eq, raw = part.partition("=")
            if not eq:
                raise error(TienLenError, "err.bot.option_form", bot=repr(text))
            budget[key] = _number(raw)
        options = bot_options(name) if name in bot_names() else []
        for key in budget:
            if key not in options:
                raise error(TienLenError, "err.bot.no_option" if options else "err.bot.no_options",
                            bot=repr(text), name=name, key=repr(key),
                            suggest=_suggest(key, options), options=", ".join(options))
        if name not in bot_names():
            return get_bot(name)  # raises: no such bot, and the list of them
        try:
            return get_bot(name, seed=seed, **budget)
        except ArgumentError as exc:  # a bad option value, said by the bot in the catalogue's words
            raise error(TienLenError, "err.bot.value", bot=repr(text), reason=reason_of(exc)) \
                from None
        except TienLenError:
            raise
        except (TypeError, ValueError) as exc:  # pragma: no cover - a bot that checks nothing
            raise error(TienLenError, "err.bot.value", bot=repr(text), reason=str(exc)) from None


def python_maker(spec: str) -> Callable[[], Bot]:
    """What makes the bot ``MODULE:NAME`` (or ``path/to/file.py:NAME``) names, the module
    loaded once: ``NAME`` is an object with ``choose(view)`` (the same bot each time), or a
    function of no argument that makes one (a trained agent:
    ``tienlen.rl.policy.PolicyBot(policy)``, docs/rl.md), called once here to check it."""
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name:
        raise error(TienLenError, "err.bot.python_form", bot=repr(spec))
    try:
        if where.endswith(".py"):
            path = Path(where)
            loaded = importlib.util.spec_from_file_location(path.stem, path)
            if loaded is None or loaded.loader is None or not path.is_file():
                raise FileNotFoundError(f"no file {where}")
            module = importlib.util.module_from_spec(loaded)
            loaded.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        found = getattr(module, name)
        bot = found if hasattr(found, "choose") else found()
    except (ImportError, OSError, AttributeError, TypeError) as exc:
        raise error(TienLenError, "err.bot.python_load", bot=repr(spec), reason=str(exc)) from None
    if not hasattr(bot, "choose"):
        raise error(TienLenError, "err.bot.python_load", bot=repr(spec),
                    reason=f"{name} makes no object with choose(view)")
    if bot is found:
        return lambda: bot
    made: list[Bot] = [bot]  # the first one, made to check, is the first handed out

    def make() -> Bot:
        return made.pop() if made else found()

    return make


def python_bot(spec: str) -> Bot:
    """The bot ``MODULE:NAME`` (or ``path/to/file.py:NAME``) names (:func:`python_maker`)."""
    return python_maker(spec)()


def _suggest(word: str, names: list[str]) -> Msg | str:
    """" (did you mean 'x'?)" when a name is close to ``word``, else nothing."""
    close = difflib.get_close_matches(word, names, n=1)
    return msg("err.rules.did_you_mean", name=repr(close[0])) if close else ""


def _number(raw: str) -> int | float | str | None:
    """A bot option's value: none, a whole number, a number, or else the text itself."""
    if raw.lower() == "none":
        return None
    try:
        return int(raw)
    except ValueError:
        try:
            return float(raw)
        except ValueError:
            return raw


@dataclass(frozen=True)
class Failure:
    """An external bot's failure in one hand: its seat, the reason, the end of its stderr."""

    seat: int
    what: Msg | str  # the reason (a message, for the results in any language)
    stderr: str = ""

    @property
    def reason(self) -> str:
        """The reason in English, as the ``--json`` report keeps it."""
        return render(self.what)

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.reason}; random plays for it for the rest of the hand"


@dataclass(frozen=True)
class HandResult:
    """One hand of a deal at one rotation: for each seat, its bot, place and units."""

    deal: int
    rotation: int
    bots: tuple[str, ...]
    places: tuple[int, ...]
    units: tuple[int, ...]
    failures: tuple[Failure, ...] = ()


@dataclass(frozen=True)
class Tournament:
    rules: Rules
    players: int
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    time_limit: float = 5.0

    def __post_init__(self) -> None:
        if len(self.bots) != self.players:
            raise error(TienLenError, "err.arena.bots_count", players=self.players,
                        n=len(self.bots))
        if self.deals < 1:
            raise error(TienLenError, "err.arena.no_deals")
        if not self.time_limit > 0:
            raise error(TienLenError, "err.arena.time_limit", value=f"{self.time_limit:g}")
        for spec in self.bots:
            if not BotSpec(spec).external:
                BotSpec(spec).make(0, self.time_limit)  # fail early on a bad name

    def check_external_bots(self) -> None:
        """Start each external bot and ask it the first decision of its seat in deal 0; a bot
        that cannot answer it fails the tournament before any hand, with its stderr."""
        seen: set[str] = set()
        for index, text in enumerate(self.bots):
            spec = BotSpec(text)
            if not spec.external or spec.spec in seen:
                continue
            seen.add(spec.spec)
            game = Game.deal(self.rules, self.players, self.deal_seed(0))
            others = RandomBot(seed=1)
            bot = spec.make(self.deal_seed(0) + 7919 * index, self.time_limit)
            assert isinstance(bot, ExternalBot)
            try:
                while not game.is_over:
                    turn = game.turn
                    assert turn is not None
                    if turn == index:
                        bot.choose(game.view(turn))
                        break
                    game.play(others.choose(game.view(turn)), seat=turn)
            except BotFailure as exc:
                what = exc.what or _without_name(bot, str(exc))
                raise _start_failure(spec.label, what, exc.stderr) from None
            finally:
                bot.close()

    def deal_seed(self, deal: int) -> int:
        return random.Random(f"tienlen:{self.seed}:{deal}").getrandbits(63)

    def play_deal(self, deal: int) -> list[HandResult]:
        """Every rotation of one deal."""
        return [self.play_hand(deal, rotation) for rotation in range(self.players)]

    def play_hand(self, deal: int, rotation: int) -> HandResult:
        n = self.players
        seat_bots = tuple(self.bots[(seat - rotation) % n] for seat in range(n))
        seed = self.deal_seed(deal)
        bots = [BotSpec(spec).make(seed + 7919 * seat, self.time_limit)
                for seat, spec in enumerate(seat_bots)]
        failed: list[Failure] = []
        try:
            game = Game.deal(self.rules, n, seed)
            done = fast_play_hand(game, seat_bots)  # None unless the fast path can play it
            if done is None:
                play_out(game, bots, failed=failed)
            else:
                game = done
        finally:
            for bot in bots:
                if isinstance(bot, ExternalBot):
                    bot.close()
        places = [0] * n
        for place, seat in enumerate(game.finish_order):
            places[seat] = place
        labels = tuple(BotSpec(spec).label for spec in seat_bots)
        return HandResult(deal, rotation, labels, tuple(places), tuple(game.scores),
                          tuple(failed))


def _without_name(bot: Bot, reason: str) -> str:
    """A failure's reason without the bot's name in front (the results name the bot)."""
    name = getattr(bot, "name", "")
    return reason[len(name) + 1:] if name and reason.startswith(name + " ") else reason


def _start_failure(label: str, what: Msg | str, stderr: str) -> TienLenError:
    """A bot that failed before any hand: what it did, and the end of its stderr."""
    if stderr:
        return error(TienLenError, "err.arena.start_failure_stderr", bot=repr(label), what=what,
                     stderr=" | ".join(stderr.splitlines()[-3:]))
    return error(TienLenError, "err.arena.start_failure", bot=repr(label), what=what)


def play_out(game: Game, bots: list[Bot], max_steps: int = 100_000,
             failed: list[Failure] | None = None) -> list[str]:
    """Play a hand to its end, asking each seat's bot every decision the rules give it,
    out-of-turn chops included. Returns the failures of external bots in words (each
    replaced by ``random`` for the rest of the hand); ``failed`` gets them as objects."""
    failures: list[Failure] = [] if failed is None else failed
    bots = list(bots)
    turns = Turns(game, push=lambda move, seat: game.play(move, seat=seat))

    def answer(asked: Decision) -> Move:
        return _ask(bots, asked.seat, view_for_decision(game, asked), failures)

    for steps, step in enumerate(bot_answers(turns, answer)):
        if steps >= max_steps:
            raise error(TienLenError, "err.arena.no_end")
        if not step.declined:
            turns.answer(step.decision.seat, step.move)
    return [str(f) for f in failures]


def _ask(bots: list[Bot], seat: int, view: View, failures: list[Failure]) -> Move:
    try:
        return bots[seat].choose(view)
    except BotFailure as exc:
        failures.append(Failure(seat, exc.what or _without_name(bots[seat], str(exc)), exc.stderr))
        bot = bots[seat]
        if isinstance(bot, ExternalBot):
            bot.close()
        bots[seat] = RandomBot(seed=seat)
        return bots[seat].choose(view)


# ---------------------------------------------------------------------- statistics
@dataclass
class BotStats:
    """One bot's hands in a tournament: (first, last, place, units) of each, by deal."""

    name: str
    hands: int = 0
    per_deal: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)

    def add(self, deal: int, place: int, players: int, units: int) -> None:
        first, last = int(place == 0), int(place == players - 1)
        self.hands += 1
        self.per_deal.setdefault(deal, []).append((first, last, place + 1, units))

    def _ci(self, index: int, low: float = -math.inf,
            high: float = math.inf) -> tuple[float, list[float] | None]:
        """Mean and 95% interval (clipped to [low, high]) of one measure, deals as independent
        clusters, with Student's t for the number of deals; no interval from fewer than 2."""
        means = [sum(r[index] for r in rows) / len(rows) for rows in self.per_deal.values()]
        weights = [len(rows) for rows in self.per_deal.values()]
        total = sum(weights)
        mean = sum(m * w for m, w in zip(means, weights, strict=True)) / total
        k = len(means)
        if k < 2:
            return mean, None
        var = sum(w * w * (m - mean) ** 2 for m, w in zip(means, weights, strict=True))
        se = math.sqrt(var * k / (k - 1)) / total
        t = t95(k - 1)
        return mean, [max(low, mean - t * se), min(high, mean + t * se)]

    def summary(self) -> dict[str, Any]:
        first, first_ci = self._ci(0, 0.0, 1.0)
        last, last_ci = self._ci(1, 0.0, 1.0)
        place, place_ci = self._ci(2)
        units, units_ci = self._ci(3)
        return {
            "name": self.name, "hands": self.hands,
            "first_rate": first, "first_ci": first_ci,
            "last_rate": last, "last_ci": last_ci,
            "mean_place": place, "place_ci": place_ci,
            "mean_units": units, "units_ci": units_ci,
        }


def summarize(results: Iterable[HandResult], players: int) -> list[dict[str, Any]]:
    stats: dict[str, BotStats] = {}
    for r in sorted(results, key=lambda r: (r.deal, r.rotation)):
        for seat, name in enumerate(r.bots):
            stats.setdefault(name, BotStats(name)).add(r.deal, r.places[seat], players,
                                                       r.units[seat])
    return [s.summary() for s in stats.values()]


# ---------------------------------------------------------------------- running
def _play_deal_task(args: tuple[Tournament, int]) -> list[HandResult]:
    tournament, deal = args
    return tournament.play_deal(deal)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the main process, which stops the workers itself."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(t: Tournament, workers: int = 1) -> Iterator[list[HandResult]]:
    """The deals' results as they finish, in local processes."""
    tasks = [(t, d) for d in range(t.deals)]
    if workers <= 1:
        for task in tasks:
            yield _play_deal_task(task)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.imap_unordered(_play_deal_task, tasks)


def run_ray(t: Tournament, address: str | None = None,
            num_cpus: int | None = None) -> Iterator[list[HandResult]]:
    """The deals' results as they finish, on a Ray cluster (``pip install -e '.[ray]'``).

    Without ``address`` it starts a local Ray for the tournament (with ``num_cpus`` CPUs,
    default all) and stops it at the end; an already started Ray is used as it is.
    """
    with ray_session(address, num_cpus) as ray:
        remote = ray.remote(_play_deal_task)
        pending = [remote.remote((t, d)) for d in range(t.deals)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])


@contextlib.contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, connected to the cluster at ``address`` (checked first: one line when nothing
    answers there), or a local Ray of ``num_cpus`` CPUs (default all) started for the block and
    stopped after it; an already started Ray is used as it is. Yields the ``ray`` module."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise error(TienLenError, "err.arena.no_ray") from None
    started = False
    if not ray.is_initialized():
        if address is not None:
            check_address(address)
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 include_dashboard=False, num_cpus=num_cpus if address is None else None)
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_tournament(t: Tournament, workers: int = 1, backend: str = "local",
                   address: str | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   num_cpus: int | None = None) -> dict[str, Any]:
    """Play the whole tournament and return its results (the ``--json`` document).
    ``num_cpus``: the CPUs of a local Ray that the ray back end starts (default all)."""
    if backend not in ("local", "ray"):
        raise error(TienLenError, "err.arena.backend", backend=repr(backend))
    if workers < 1:
        raise error(TienLenError, "err.arena.workers", n=workers)
    t.check_external_bots()
    batches = run_local(t, workers) if backend == "local" else run_ray(t, address, num_cpus)
    results: list[HandResult] = []
    done = 0
    interrupted = False
    try:
        for batch in batches:
            results.extend(batch)
            done += 1
            if progress is not None:
                progress(done, t.deals)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(batches, "close", None)
        if close is not None:
            close()  # stops the workers
    results.sort(key=lambda r: (r.deal, r.rotation))
    report: dict[str, Any] = {
        "rules": t.rules.name,
        "options": t.rules.differences(),
        "players": t.players,
        "seed": t.seed,
        "deals": t.deals,
        "deals_played": done,
        "partial": interrupted,
        "hands": len(results),
        "bots": summarize(results, t.players),
        "failures": [
            {"bot": r.bots[f.seat], "deal": r.deal, "rotation": r.rotation, "seat": f.seat,
             "reason": f.reason, "stderr": f.stderr, **_reason_code(f.what)}
            for r in results for f in r.failures
        ],
    }
    return report


def _reason_code(what: Msg | str) -> dict[str, Any]:
    """A failure's reason as a language-neutral code and its values (``reason_key``,
    ``reason_params``) when it has one: what the results table says in any language."""
    if isinstance(what, str):
        return {}
    return {"reason_key": what.key, "reason_params": dict(what.params)}


def check_address(address: str, timeout: float = 3.0) -> None:
    """Fail at once, in one line, when nothing answers at a Ray cluster's address."""
    import socket

    if address in ("auto", "local"):
        return
    target = address.split("://", 1)[-1]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        host, port = target, "6379"
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise error(TienLenError, "err.arena.no_cluster", address=repr(address),
                    error=os_reason(exc)) from None


def _clock(seconds: float) -> str:
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_bar(stream: TextIO | None = None, width: int = 30,
                 clock: Callable[[], float] = time.monotonic,
                 lang: str = "en") -> Callable[[int, int], None]:
    """Progress on ``stream`` (default: the standard error at the time it is shown), with the
    time so far and an estimate of the time left. On a terminal a bar redrawn in place; on
    anything else (a log file) a line at each tenth of the run."""
    start = clock()
    shown_tenths = [0]

    def show(done: int, total: int) -> None:
        out = stream if stream is not None else sys.stderr
        elapsed = clock() - start
        left = elapsed * (total - done) / done if done else 0.0
        times = t("arena.progress.times", lang, so_far=_clock(elapsed), left=_clock(left)) \
            if done < total else t("arena.progress.so_far", lang, so_far=_clock(elapsed))
        is_tty = getattr(out, "isatty", lambda: False)()
        if is_tty:
            filled = width * done // total
            out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                      + t("arena.progress.bar", lang, done=done, total=total, times=times)
                      + "\x1b[K")
            if done == total:
                out.write("\n")
        else:
            tenth = 10 * done // total
            if tenth <= shown_tenths[0] and done != total:
                return
            if done == total and shown_tenths[0] == 10:
                return
            shown_tenths[0] = tenth
            out.write(t("arena.progress.line", lang, done=done, total=total,
                        percent=100 * done // total, times=times) + "\n")
        out.flush()
    return show


def _interval(ci: list[float] | None, form: str, scale: float = 1.0, lang: str = "en") -> str:
    if ci is None:
        return t("arena.table.na", lang)
    return t("arena.table.interval", lang, low=Num(scale * ci[0], form), high=Num(scale * ci[1], form))


def format_table(report: dict[str, Any], lang: str = "en") -> str:
    """The results as a table in ``lang`` (the numbers written the reader's way, the bots' names
    as they are): a row per bot, its whole name; then the failures, a line per failing bot, with
    how many hands it failed in and the end of its stderr. Columns are padded by the terminal
    width of their text (:func:`tienlen.i18n.pad`), so wide or combining characters keep them
    aligned."""
    deals = report.get("deals_played", report["deals"])
    head = tn("arena.table.head", deals, lang, rules=report["rules"], players=report["players"],
              deals=Num(deals), hands=Num(report["hands"]))
    if report.get("partial"):
        head += t("arena.table.partial", lang, played=Num(deals), deals=Num(report["deals"]))
    bot = t("arena.table.bot", lang)
    column = max([text_width(bot)] + [text_width(b["name"]) for b in report["bots"]])
    lines = [head, " ".join([pad(bot, column)] + [
        pad(t(f"arena.table.{key}", lang), size, ">")
        for key, size in (("hands", 6), ("first", 17), ("last", 17), ("place", 6),
                          ("units", 22))])]
    def n(value: float, spec: str) -> str:
        return number(value, spec, lang)

    for b in report["bots"]:
        lines.append(
            f"{pad(b['name'], column)} {n(b['hands'], '6d')} "
            f"{n(100 * b['first_rate'], '5.1f')} "
            f"{pad(_interval(b['first_ci'], '4.1f', 100, lang), 11, '>')} "
            f"{n(100 * b['last_rate'], '5.1f')} "
            f"{pad(_interval(b['last_ci'], '4.1f', 100, lang), 11, '>')} "
            f"{n(b['mean_place'], '6.2f')} "
            f"{n(b['mean_units'], '+6.3f')} {pad(_interval(b['units_ci'], '+.3f', lang=lang), 15, '>')}")
    if any(b["first_ci"] is None for b in report["bots"]):
        lines.append(t("arena.table.na_note", lang, na=t("arena.table.na", lang)))
    lines.extend(failure_lines(report["failures"], lang))
    return "\n".join(lines)


def failure_lines(failures: list[dict[str, Any]], lang: str = "en") -> list[str]:
    """Each failing bot once: in how many hands it failed, the last reason, and the last
    lines of its stderr."""
    by_bot: dict[str, list[dict[str, Any]]] = {}
    for f in failures:
        by_bot.setdefault(f["bot"], []).append(f)
    lines = []
    for bot, fails in by_bot.items():
        hands = len({(f["deal"], f["rotation"]) for f in fails})
        last = fails[-1]
        reason = last["reason"]
        if last.get("reason_key"):
            reason = t(last["reason_key"], lang, **last.get("reason_params", {}))
        lines.append(tn("arena.failure", hands, lang, bot=repr(bot), deal=last["deal"],
                        seat=last["seat"], reason=reason))
        stderr = next((f["stderr"] for f in reversed(fails) if f.get("stderr")), "")
        if stderr:
            lines.append(t("arena.failure.stderr", lang))
            lines.extend(f"    {line}" for line in stderr.splitlines()[-5:])
    return lines


def parse_bots(text: str) -> tuple[str, ...]:
    """A comma-separated bot list, each part trimmed: ``heuristic, me=cmd:./bot.pl``."""
    return tuple(part.strip() for part in text.split(",") if part.strip())

