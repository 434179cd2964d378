"""The limits of a server of several processes, counted in one Redis (``web/shared/``): what a
player does through one process counts in every other, a refusal spends nothing anywhere, the
buckets fill up again, the connections per address are capped across the processes and a
process that dies has its connections forgotten, and a Redis that does not answer refuses
the action saying so (a 503, never a 500). Against a real redis-server (scripts/test.sh starts
one): each "process" here is a counting of its own, with its own client."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

pytest.importorskip("redis")

from tienlen.web.accounts.accounts import Accounts
from tienlen.web.limiter import Limiter
from tienlen.web.limits import Bucket, Limits, Rate, Rates
from tienlen.web.refusal import Refused
from tienlen.web.shared.counting import InRedis
from tienlen.web.shared.store import DOWN_FOR, Store, connect

from .conftest import NO_CLIENT_LIMITS, UNRATED, Server, free_port, running
from .waiting import poll

PLAYER = "lan-player-key-0123456789abcdef"  # a script's player key (X-Tienlen-Player)
served = contextlib.contextmanager(running)


def process(url: str, prefix: str, ttl: float = 30.0) -> InRedis:
    """One server process's counts: a client of its own on the shared Redis."""
    return InRedis(Store(connect(url), prefix), ttl)


def limiter(counting: InRedis, **rates: Rate) -> Limiter:
    return Limiter(replace(NO_CLIENT_LIMITS, rates=Rates(**rates)), counting=counting)


def refusal(fn: Callable[..., object], *args: object) -> Refused:
    """What ``fn(*args)`` is refused with."""
    with pytest.raises(Refused) as refused:
        fn(*args)
    return refused.value


# ---------------------------------------------------------------------- rate limits
def test_tables_made_through_one_process_count_in_the_other(redis_url: str,
                                                            redis_prefix: str) -> None:
    limits = replace(NO_CLIENT_LIMITS, creates_per_minute=3, creates_per_address=100)
    one = Limiter(limits, counting=process(redis_url, redis_prefix))
    other = Limiter(limits, counting=process(redis_url, redis_prefix))
    for _ in range(3):
        one.take("create", "p:lan", "address-a")
    refused = refusal(other.take, "create", "p:lan", "address-a")
    assert refused.status == 429 and refused.code == "rate_limited"
    assert "at most 3 new tables a minute from one player" in str(refused)
    assert refused.retry_after == pytest.approx(20.0, abs=1.0)  # a table every 20 s
    assert "try again in 20 s" in str(refused)
    other.take("create", "p:minh", "address-a")  # another player is counted apart
    refusal(one.take, "create", "p:lan", "address-b")  # wherever she comes from


def test_a_refusal_spends_nothing_of_the_player_s_own_count(redis_url: str,
                                                            redis_prefix: str) -> None:
    """Refused by the address's ceiling on one process, the player has her whole count from
    another address, on the other process."""
    one = limiter(process(redis_url, redis_prefix), friend=Rate(2, 3, 600.0))
    other = limiter(process(redis_url, redis_prefix), friend=Rate(2, 3, 600.0))
    one.take("friend", "p:lan", "cafe")
    one.take("friend", "p:lan", "cafe")
    other.take("friend", "p:minh", "cafe")
    refused = refusal(one.take, "friend", "p:hoa", "cafe")
    assert "too many requests from one address: at most 3" in str(refused)
    other.take("friend", "p:hoa", "home")
    other.take("friend", "p:hoa", "home")
    refused = refusal(one.take, "friend", "p:hoa", "home")
    assert "too many friend requests and removals: at most 2 in 10 min" in str(refused)


def test_a_bucket_fills_up_again_and_is_then_forgotten(redis_url: str, redis_prefix: str) -> None:
    counting = process(redis_url, redis_prefix)
    bucket = counting.bucket("say.player", 2, 0.4)  # two things said in 0.4 s
    assert [bucket.take("lan"), bucket.take("lan")] == [0.0, 0.0]
    wait = bucket.take("lan")
    assert 0.0 < wait <= 0.2
    assert bucket.wait("lan") > 0.0 and bucket.wait("minh") == 0.0  # looking spends nothing
    poll(lambda: bucket.wait("lan"), lambda left: left == 0.0, timeout=10)
    assert bucket.take("lan") == 0.0
    # once full again it is as if new: Redis forgets it
    poll(lambda: counting.store.client.exists(bucket.key("lan")), lambda n: n == 0, timeout=10)
    assert counting.bucket("say.player", 0, 1.0).take("lan") == 0.0  # 0: no limit


def test_sign_in_tries_count_across_the_processes(redis_url: str, redis_prefix: str) -> None:
    limits = Limits(signins_per_name=3)
    one, other = (Accounts(None, time.monotonic, limits,  # type: ignore[arg-type]
                           process(redis_url, redis_prefix)) for _ in range(2))
    for _ in range(3):
        one.count(one.tries("lan", "cafe", None, None))
    refused = refusal(other.count, other.tries("lan", "cafe", None, None))
    assert "too many sign-in tries for this name from here: at most 3 in 10 minutes" in str(refused)
    other.count(other.tries("lan", "home", None, None))  # from elsewhere: the name's own tries


# ---------------------------------------------------------------------- connections held
def test_connections_are_capped_across_the_processes(redis_url: str, redis_prefix: str) -> None:
    one = process(redis_url, redis_prefix).held("connections", 3)
    other = process(redis_url, redis_prefix).held("connections", 3)
    assert one.take("cafe") and one.take("cafe") and other.take("cafe")
    assert other.full("cafe") and not other.take("cafe") and not one.take("cafe")
    assert one.total == 2 and other.total == 1  # each process counts what it holds
    assert other.take("home")  # another address is counted apart
    one.give("cafe")
    assert not one.full("cafe") and other.take("cafe")


def test_a_process_that_stops_has_its_connections_forgotten(redis_url: str,
                                                            redis_prefix: str) -> None:
    """Two processes hold the address's two connections; one stops renewing (it died): after
    its time the address may connect again, and the living one's connection still counts."""
    # a holding lasts 1.5 s unless renewed: longer than a loaded machine's pause between the
    # living process's renewals here
    living = process(redis_url, redis_prefix, ttl=1.5)
    dead = process(redis_url, redis_prefix, ttl=1.5)
    newcomer = process(redis_url, redis_prefix, ttl=1.5)
    held = living.held("connections", 2)
    assert held.take("cafe") and dead.held("connections", 2).take("cafe")
    joining = newcomer.held("connections", 2)
    assert not joining.take("cafe")
    started = time.monotonic()

    def renewed_then_join() -> bool:
        living.refresh()
        newcomer.refresh()
        return joining.take("cafe")

    poll(renewed_then_join, bool, timeout=10)
    assert time.monotonic() - started > 1.0  # not before the dead one's time was out
    assert held.full("cafe")  # the living process's connection, renewed, still counts


# ---------------------------------------------------------------------- Redis down
def test_a_redis_nobody_answers_at_refuses_saying_so() -> None:
    counting = InRedis(Store(connect(f"redis://127.0.0.1:{free_port()}/0")))
    refused = refusal(limiter(counting, hint=Rate(10, 200, 10.0)).take, "hint", "p:lan", "cafe")
    assert refused.status == 503 and refused.code == "unavailable"
    assert "shared store does not answer" in str(refused) and refused.retry_after
    held = counting.held("connections", 3)
    assert refusal(held.take, "cafe").status == 503
    held.give("cafe")  # a connection that ends is never refused


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """A redis-server of this test's own, which it may stop: its URL and its command line."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server: scripts/test.sh installs it")
    port = free_port()
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(tmp_path)]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    yield f"redis://127.0.0.1:{port}/0", command
    first.terminate()
    first.wait(10)


def test_a_stopped_redis_refuses_then_counts_again_once_back(
        own_redis: tuple[str, list[str]]) -> None:
    url, command = own_redis
    counting = InRedis(Store(connect(url), "t:"))
    bucket = counting.bucket("create.player", 2, 60.0)
    poll(lambda: _answers(url), bool, timeout=20)
    assert bucket.take("lan") == 0.0
    subprocess.run([*_cli(command), "shutdown", "nosave"], capture_output=True, timeout=10)
    poll(lambda: _answers(url), lambda up: not up, timeout=20)
    refused = refusal(bucket.take, "lan")
    assert refused.status == 503 and "shared store" in str(refused)
    again = subprocess.Popen(command, stdout=subprocess.DEVNULL)  # a new, empty one
    try:
        poll(lambda: _answers(url), bool, timeout=20)
        # refused at once for a moment after a failure (DOWN_FOR), then counting again (its
        # script sent again: the new Redis does not know it)
        assert poll(lambda: _taken(bucket, "lan"), lambda wait: wait is not None,
                    timeout=10 + DOWN_FOR) == 0.0
        assert bucket.take("lan") == 0.0 and bucket.take("lan") > 0.0
    finally:
        again.terminate()
        again.wait(10)


def _taken(bucket: Bucket, key: str) -> float | None:
    """``bucket.take(key)``; None when refused."""
    try:
        return bucket.take(key)
    except Refused:
        return None


def _cli(command: list[str]) -> list[str]:
    port = command[command.index("--port") + 1]
    cli = shutil.which("redis-cli") or "redis-cli"
    return [cli, "-h", "127.0.0.1", "-p", port]


def _answers(url: str) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


# ---------------------------------------------------------------------- two servers
def _make_table(server: Server) -> httpx.Response:
    return httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, timeout=10,
                      headers={"X-Tienlen-Player": PLAYER})


def test_tables_made_on_one_server_count_on_the_other(one_database: str, redis_url: str,
                                                      redis_prefix: str) -> None:
    """Two servers (two processes of one room) counting in one Redis: the player who made her
    two tables a minute on one is refused on the other, told how long to wait."""
    limits = replace(NO_CLIENT_LIMITS, creates_per_minute=2, creates_per_address=100)
    shared = {"limits": limits, "redis_url": redis_url, "redis_prefix": redis_prefix}
    with served(one_database, **shared) as one, served(one_database, **shared) as other:
        assert [_make_table(one).status_code for _ in range(2)] == [200, 200]
        refused = _make_table(other)
        assert refused.status_code == 429
        assert "at most 2 new tables a minute from one player" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 25


def test_a_server_whose_redis_does_not_answer_refuses_with_503(one_database: str) -> None:
    limits = replace(NO_CLIENT_LIMITS, connections_per_address=5)  # tables made uncounted
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    with served(one_database, limits=limits, redis_url=nobody) as server:
        table = _make_table(server)
        assert table.status_code == 200
        tried = httpx.post(server.base + "/api/account/signin", timeout=10,
                           json={"name": "Lan", "password": "not the password"},
                           headers={"Origin": server.base})
        assert tried.status_code == 503 and tried.json()["code"] == "unavailable"
        assert "shared store does not answer" in tried.json()["detail"]
        assert int(tried.headers["Retry-After"]) >= 1
        ws = server.ws(table.json()["id"])
        error = ws.error()
        assert error["code"] == "unavailable" and "shared store" in error["reason"]


def _first_answer(server: Server, table: str) -> str:
    """What a new connection to ``table`` is told first when it says hello: ``welcome``, or
    ``error`` (refused)."""
    ws = server.ws(table)
    try:
        ws.send(type="hello")
        return str(ws.recv()["type"])
    finally:
        ws.close()


def test_an_address_s_connections_are_capped_across_two_servers(
        one_database: str, redis_url: str, redis_prefix: str) -> None:
    limits = replace(NO_CLIENT_LIMITS, connections_per_address=2)
    shared = {"limits": limits, "redis_url": redis_url, "redis_prefix": redis_prefix}
    with served(one_database, **shared) as one, served(one_database, **shared) as other:
        here, there = _make_table(one).json()["id"], _make_table(other).json()["id"]
        mine, theirs = one.ws(here), other.ws(there)
        mine.hello()
        theirs.hello()
        refused = one.ws(here).error()
        assert refused["code"] == "rate_limited"
        assert "too many connections: at most 2 from one address" in refused["reason"]
        theirs.close()  # a tab closed on the other server: one more may connect here
        poll(lambda: _first_answer(one, here), lambda said: said == "welcome", timeout=20)
        mine.close()
