"""Replays of stored hands: every hand a record holds replays, payments and all, in one pass over
its actions, in a worker process that leaves the tables' event loop free; a failure is said."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

pytest.importorskip("fastapi")

from tienlen import Game, Rules, Session
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.record import payment_lines
from tienlen.web.records.replays import replay_steps
from tienlen.web.refusal import Refused
from tienlen.web.schema import open_repository
from tienlen.web.services import Offload
from tienlen.web.tablelog.rows import RecordRow
from tienlen.web.workers.botpool import BotPool

from .conftest import NO_CLIENT_LIMITS, Server, running
from .test_payments import SEED, human_move


def finished_with_payments(preset: str, players: int = 4) -> Game:
    """A hand of ``preset`` played by bots whose record lists payments (chops or penalties)."""
    for seed in range(200):
        session = Session(Rules.preset(preset), players, seed=seed)
        play_out(session.game, [get_bot("heuristic", seed=s) for s in range(players)])
        if payment_lines(session.game):
            return session.game
    raise AssertionError(f"no {preset} hand with payments in 200 deals")


@pytest.mark.parametrize(("preset", "players"), [("mien-nam", 4), ("mien-bac", 4),
                                                 ("mien-nam", 8)])
def test_a_hand_with_payments_replays_to_its_end(preset: str, players: int) -> None:
    # failed before: each shortened replay was checked against the whole list of payments
    game = finished_with_payments(preset, players)
    data = replay_steps(game.record())
    steps = data["steps"]
    assert len(steps) == len(game.history) + 1
    assert steps[0]["last"] is None and not steps[0]["over"]
    assert [len(h) for h in steps[0]["hands"]] == [len(h) for h in game.dealt]
    last = steps[-1]
    assert last["over"] and last["scores"] == game.scores
    seat, move = game.history[-1]
    assert last["last"] == f"{game.names[seat]}: {move}"


def test_a_replay_makes_each_action_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear in the hand's length: the record is loaded (every action checked) once, then each
    # action is made once more on one game; before, every step replayed the whole prefix again
    game = finished_with_payments("mien-nam", 8)
    made = 0
    apply = Game._apply  # what every action made goes through, checked or not

    def counting(self: Game, seat: int, move: Any) -> None:
        nonlocal made
        made += 1
        apply(self, seat, move)

    monkeypatch.setattr(Game, "_apply", counting)
    text = game.record()
    Game.from_record(text)
    one_load = made
    made = 0
    replay_steps(text)
    assert one_load >= len(game.history) // 2
    assert made <= 2 * one_load + 2


def play_practice_hand(server: Server) -> str:
    """Lan at a mien-nam practice table (seed SEED) plays its first hand to the end, chopping a
    two on the way (see test_payments); the table's id."""
    made = server.browser().post("/api/tables", {"quick": True, "name": "Lan", "rules": "mien-nam",
                                       "seed": SEED}).json()
    me = server.ws(made["id"])
    state = me.hello(made["token"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = state["view"]
        if view["is_over"]:
            me.close()
            return str(made["id"])
        if view["legal"] and view["decision"] and view["decision"]["kind"] in ("play", "free_chop"):
            me.send(type="play", version=state["version"],
                    move=human_move(view["legal"], view["table"]))
        state = me.until(lambda m: m["type"] == "state")
    raise AssertionError("the hand did not end")


def spoil_record(server: Server, table_id: str) -> None:
    """Overwrite the table's first stored record with one that cannot be replayed."""
    repo = open_repository(server.db_url)
    with repo.engine.begin() as conn:
        conn.execute(update(RecordRow).where(RecordRow.table_id == table_id)
                     .values(text='format = "tienlen/1"\nrules = "x"\n'))
    repo.close()


def test_the_replay_of_a_hand_with_a_chop_is_served(server: Server) -> None:
    table_id = play_practice_hand(server)
    record = server.get(f"/api/tables/{table_id}/records/1").text
    assert "payments = [" in record and "chop" in record  # the hand Lan chopped in
    answer = server.get(f"/api/tables/{table_id}/records/1/replay")
    assert answer.status_code == 200, answer.text
    steps = answer.json()["steps"]
    assert steps[-1]["over"] and steps[-1]["scores"] == Game.from_record(record).scores


def test_a_record_that_cannot_be_replayed_is_a_problem_in_the_askers_language(
        server: Server) -> None:
    table_id = play_practice_hand(server)
    spoil_record(server, table_id)
    for lang, words in (("en", "the record cannot be replayed"),
                        ("vi", "không xem lại được biên bản")):
        answer = httpx.get(f"{server.base}/api/tables/{table_id}/records/1/replay",
                           headers={"accept-language": lang}, timeout=10)
        assert answer.status_code == 400
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json()["detail"].startswith(words)


def test_the_page_says_why_a_hand_cannot_be_replayed(server: Server, page: Any) -> None:
    from playwright.sync_api import expect

    table_id = play_practice_hand(server)
    spoil_record(server, table_id)
    page.goto(f"{server.base}/t/{table_id}")
    page.get_by_test_id("replay-hand").first.click()
    said = page.get_by_test_id("replay-last")
    expect(said).to_have_text("The record cannot be replayed: the record's rules must be a preset "
                              "name, not 'x'")
    expect(page.get_by_test_id("replay-step")).to_be_hidden()
    if os.environ.get("TIENLEN_SHOTS"):
        page.screenshot(path=str(Path(os.environ["TIENLEN_SHOTS"]) / "replay-failed.png"))


# ---------------------------------------------------------------------- off the event loop
def in_own_loop(coro: Any) -> Any:
    """Run a coroutine on an event loop of its own, in a thread (the browser tests keep one
    running in this thread)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(60)


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_work_runs_in_worker_processes_while_the_loop_goes_on() -> None:
    async def scenario() -> tuple[list[float], int, float]:
        offload = Offload(BotPool(2), per_client=1)  # the records' work on one of two workers
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        beat = asyncio.create_task(ticker())
        try:
            first = asyncio.create_task(offload.run("a", _slow, 0.6))
            await asyncio.sleep(0.05)
            with pytest.raises(Refused):  # the same client's second, while its first runs
                await offload.run("a", _slow, 0.0)
            other = await offload.run("b", _slow, 0.3)  # another client's goes ahead
            done = [await first, other]
            return done, ticks, await offload.run("a", _slow, 0.0)  # its first is done: again
        finally:
            beat.cancel()
            offload.pool.close()

    done, ticks, again = in_own_loop(scenario())
    assert done == [0.6, 0.3] and again == 0.0
    assert ticks >= 10  # the loop went on ticking while the workers slept


def test_too_many_replays_at_once_from_one_address_are_answered_429(sqlite_url: str) -> None:
    limits = replace(NO_CLIENT_LIMITS, replays_per_client=1)
    with contextlib.contextmanager(running)(sqlite_url, limits=limits) as srv:
        table_id = play_practice_hand(srv)
        url = f"{srv.base}/api/tables/{table_id}/records/1/replay"

        async def many(url: str) -> list[int]:
            async with httpx.AsyncClient(timeout=30) as client:
                answers = await asyncio.gather(*(client.get(url) for _ in range(8)))
            return [a.status_code for a in answers]

        codes = in_own_loop(many(url))
        assert 200 in codes and 429 in codes and set(codes) <= {200, 429}
        assert httpx.get(url, timeout=30).status_code == 200  # once they are done, the next one is served
