"""The review of a finished hand over HTTP: made in the bot pool, off the event loop; a seated
player reviews their own seat (by its seat token), a spectator of a public table any seat, and
nobody but its players a private table's hands."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server
from .test_rated_hands import browser, play
from .waiting import in_a_thread


def finished_table(server: Server, **spec: Any) -> tuple[str, str]:
    """A 2-player pagat table, Lan at seat 0 and a bot, its first hand played out: its id and
    Lan's seat token."""
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 2, "rules": "pagat",
                                    "away_timeout": 3600, **spec}).json()
    host = lan.ws(made["id"])
    host.hello()
    host.send(type="add_bot", level="greedy")
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    play(server, made["id"])
    return made["id"], made["token"]


def review(server: Server, table_id: str, token: str | None = None, seat: int | None = None,
           lang: str = "en") -> Any:
    import httpx

    headers = {"Accept-Language": lang, **({"X-Tienlen-Seat": token} if token else {})}
    query = "" if seat is None else f"?seat={seat}"
    return httpx.get(f"{server.base}/api/tables/{table_id}/records/1/review{query}",
                     headers=headers, timeout=120)


def test_a_player_reviews_their_own_seat_and_only_theirs(server: Server) -> None:
    table_id, token = finished_table(server)
    answer = review(server, table_id, token)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["seat"] == 0 and data["hand"] == 1
    assert data["decisions"], "Lan made decisions"
    for d in data["decisions"]:
        assert d["kind"] in ("evaluated", "forced", "phase", "out_of_turn", "trades")
        assert (d["played"] is None) == (d["kind"] != "evaluated")
        assert len(d["hands"]) == 2  # the record shows both hands
    refused = review(server, table_id, token, seat=1)
    assert refused.status_code == 403
    assert "own seat" in refused.json()["detail"]


def test_a_spectator_reviews_any_seat_of_a_public_table_but_not_of_a_private_one(
        server: Server) -> None:
    public, _ = finished_table(server)
    watched = review(server, public, seat=1)
    assert watched.status_code == 200 and watched.json()["seat"] == 1
    private, token = finished_table(server, private=True)
    refused = review(server, private, seat=0, lang="vi")  # as if there were no such hand
    assert refused.status_code == 404
    assert "bàn riêng" in refused.json()["detail"]
    assert review(server, private, token).status_code == 200
    assert review(server, public, seat=None).status_code == 400  # whose review, unsaid


class Gate(Executor):
    """A worker whose jobs wait until the test opens the gate, then fail as a dead worker's
    would."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.jobs = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        done: Future[Any] = Future()

        def later() -> None:
            self.open.wait(60)
            done.set_exception(BrokenProcessPool("a worker died"))

        threading.Thread(target=later, daemon=True).start()
        return done


def test_reviews_from_one_address_are_counted_and_a_failed_one_is_said_and_made_anew(
        server: Server) -> None:
    table_id, token = finished_table(server)
    other, _ = finished_table(server)
    pool = server.app.state.services.lobby.committer.pool
    gate = Gate()
    pool._make = lambda: gate
    answers: dict[str, Any] = {}

    def ask(name: str, *args: Any, **kw: Any) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.__setitem__(name, review(*args, **kw)))
        thread.start()
        return thread

    waiting = [ask("mine", server, table_id, token), ask("watched", server, table_id, seat=1)]
    try:
        deadline = time.monotonic() + 30
        while server.app.state.services.reviews.making < 2:  # both being made: held
            assert time.monotonic() < deadline
            time.sleep(0.02)
        third = review(server, other, seat=0)  # a third from the same address: refused at once
        assert third.status_code == 429 and third.headers["Retry-After"]
        assert "2 reviews being made" in third.json()["detail"]
        assert gate.jobs + pool.queued == 2  # the third queued nothing
    finally:
        gate.open.set()  # the workers die: said, not a traceback
    for thread in waiting:
        thread.join(60)
    for name in ("mine", "watched"):
        assert answers[name].status_code == 503, answers[name].text
        assert "could not be made" in answers[name].json()["detail"]
    pool._make = lambda: ThreadPoolExecutor(1)  # a worker again: the review is made anew
    pool._executor = None
    again = review(server, table_id, token)
    assert again.status_code == 200 and again.json()["decisions"]


def test_past_the_limit_in_all_a_new_review_is_refused_and_a_shared_one_is_not() -> None:
    from tienlen.web.records.reviews import Reviews
    from tienlen.web.refusal import Refused

    class Stuck:
        """A pool whose work never ends."""

        def __init__(self) -> None:
            self.asked = 0

        def review_head(self, text: str, seat: int) -> Future[Any]:
            self.asked += 1
            return Future()

    async def main() -> None:
        pool = Stuck()
        reviews = Reviews(pool, per_address=0, at_once=1)  # type: ignore[arg-type]
        first = asyncio.create_task(reviews.review(("a", 1, 0), "text", 0, "10.0.0.1"))
        await asyncio.sleep(0.01)
        with pytest.raises(Refused) as refused:
            await reviews.review(("b", 1, 0), "text", 0, "10.0.0.2")
        assert refused.value.status == 503
        shared = asyncio.create_task(reviews.review(("a", 1, 0), "text", 0, "10.0.0.3"))
        await asyncio.sleep(0.01)
        assert pool.asked == 1 and reviews.making == 1  # the one being made, shared
        reviews._made[("a", 1, 0)].cancel()
        for task in (first, shared):
            with pytest.raises(asyncio.CancelledError):
                await task

    in_a_thread(main())  # the browser tests keep a loop in this thread
