"""The WebSocket loop of one connection to a table: the connection limit per address, the
message limits (per connection and per address), reading and parsing each command, handing it
to the table, and the outbox pump that sends the table's events (a connection too slow to take
them is dropped). What only it sees is counted here for ``/metrics`` (ops/metrics.py): the
connections, the commands, the events sent, each command's wait for its event."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from ... import TienLenError
from ...i18n import msg, pick_lang
from ..accounts.session import Arrival, arrival, device_of, digest, owner_for, seated_as
from ..bus.remote import RemoteTable
from ..http.origin import other_site
from ..limits import RateLimit, wait_text
from ..ops.metrics import Metrics
from ..refusal import Refused
from ..room.protocol import (
    MAX_MESSAGE,
    Command,
    Hello,
    Join,
    Ping,
    ProtocolError,
    Welcome,
    parse_command,
    seq_of,
)
from ..room.room import Client, Room, error_of
from ..services import MAX_TABLE_ID, Services, Svc, address_of, services_of
from ..storage import StorageError

log = logging.getLogger("tienlen.web")

OUTBOX_LIMIT = 1000  # events waiting for one slow connection before it is dropped
HANG_UP = "\x00hang up"  # what the outbox is given when the connection's session ends
SIGNED_OUT = 4401  # the close code then
MOVE_ON = "\x00move on"  # what the outbox is given when another process serves the table now
MOVED = 4307  # the close code then: the page connects again (and reaches the table's server)
# the close code for another site's page: the handshake is answered (a refused handshake reaches
# a page as a bare failure, which it would retry for ever) and closed at once, nothing read,
# nothing sent, no session given; the page says why and does not knock again (static/lib/net.js)
REFUSED = 4403
TRY_AGAIN_LATER = 1013  # the close code when the database is away: the page knocks again
NOT_FOUND, BANNED = "not_found", "banned"  # the kinds of the refusals said here
TIMED = 256  # a connection's commands waiting for their event, timed at most (the oldest go)

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws(websocket: WebSocket, table_id: str, svc: Svc) -> None:
    if other_site(websocket.headers) is not None:  # another site's page: refused
        await websocket.accept()
        await websocket.close(code=REFUSED, reason="another site's page")
        return
    # a browser not known yet is given a new session secret here (never adopting the one sent)
    arrived = await run_in_threadpool(arrival, websocket, svc.identities)
    await websocket.accept(headers=arrived.headers)
    key = address_of(websocket)
    # the page names its language in the URL (?lang=vi), so even the refusals sent before
    # its hello are in that language; else the browser's Accept-Language
    lang = pick_lang(websocket.query_params.get("lang", "")[:20]
                     or websocket.headers.get("accept-language", "")[:200])
    try:
        room = await _served(svc, table_id)
        reason = None if room is not None else (await run_in_threadpool(svc.missing, table_id))[1] \
            if len(table_id) <= MAX_TABLE_ID else msg("err.web.no_such_table")
    except (StorageError, SQLAlchemyError):  # the database is away: the page knocks again
        await _refuse(websocket, Refused(msg("err.web.database_away"), "unavailable",
                                         status=503), lang, TRY_AGAIN_LATER)
        return
    if room is None:
        assert reason is not None
        await _refuse(websocket, Refused(reason, NOT_FOUND), lang, 4404)
        return
    try:
        taken = svc.connections.take(key)
    except Refused as exc:  # the shared counts cannot be reached: "try again later"
        await _refuse(websocket, exc, lang, TRY_AGAIN_LATER)
        return
    if not taken:
        await _refuse(websocket, Refused.too_many(msg(
            "err.web.connections", n=svc.limits.connections_per_address)), lang, 1008)
        return
    svc.metrics.connections += 1
    try:
        await _serve(websocket, svc, room, table_id, key, lang, arrived)
    finally:
        svc.metrics.connections -= 1
        svc.connections.give(key)


async def _served(svc: Services, table_id: str) -> Room | RemoteTable | None:
    """Where a connection to ``table_id`` is served: the table here (held, or taken now that
    nobody serves it), a link to the process of the room that serves it, or None."""
    if len(table_id) > MAX_TABLE_ID:
        return None
    if svc.cluster is not None:
        return await svc.cluster.link_for(table_id)
    return svc.lobby.find(table_id)


async def _refuse(websocket: WebSocket, exc: Refused, lang: str, code: int) -> None:
    """Refuse a connection before it is served: the refusal as its first event, then close."""
    await websocket.send_text(error_of(exc, lang).model_copy(update={"seq": 1})
                              .model_dump_json())
    services_of(websocket).metrics.events += 1
    await websocket.close(code=code)


async def _serve(websocket: WebSocket, svc: Services, room: Room | RemoteTable, table_id: str,
                 key: str, lang: str, arrived: Arrival) -> None:
    """Attach a client to ``room`` and read its messages until it leaves (or is dropped)."""
    limits, metrics = svc.limits, svc.metrics
    own = RateLimit(limits.messages_per_second, 1.0, svc.clock)  # this connection's messages
    outbox: asyncio.Queue[str] = asyncio.Queue()
    # the commands handed to the table and not answered yet: (seq, when it came). An event
    # handed over once the table has read a command (its seq is at most the client's in_seq:
    # the pass that read it has stored its writes and is sending what it held) ends its wait.
    waiting: deque[tuple[int, float]] = deque(maxlen=TIMED)

    def deliver(body: str) -> None:
        if waiting and waiting[0][0] <= client.in_seq:
            now = time.perf_counter()
            while waiting and waiting[0][0] <= client.in_seq:
                metrics.latency.observe(now - waiting.popleft()[1])
        outbox.put_nowait(body)
    identity, secret = arrived.identity, arrived.secret
    # a browser not known yet becomes a guest once it sits (a refused join leaves nothing)
    owner = owner_for(websocket, identity)
    mod = svc.moderation
    address = key  # what an address ban names too (never the address itself)
    if identity is not None:
        mod.seen(identity.id, address)

    def seated(name: str) -> None:
        nonlocal identity
        assert client.owner is not None and secret is not None
        try:
            identity = seated_as(websocket, svc.identities, identity, client.owner, name, secret)
            mod.seen(identity.id, address)
        except TienLenError:  # the seat is taken; the guest's row waits for the next sitting
            log.exception("the guest of table %s could not be stored", table_id,
                          extra={"table": table_id})

    client = Client(deliver, key, owner, seated if owner is not None else None,
                    device_of(websocket))
    client.account_name = identity.name if identity is not None and identity.account else None
    client.session = digest(secret) if secret is not None else None
    client.hang_up = lambda: outbox.put_nowait(HANG_UP)
    client.move_on = lambda: outbox.put_nowait(MOVE_ON)
    # whose chat it is not sent (Moderation.blocked_by: a block bites at the next line said)
    client.blocks = lambda: mod.blocked_by(identity.id) if identity is not None else frozenset()
    client.limiter = svc.limiter  # its hints and chat, counted with its player's elsewhere
    client.lang = lang
    room.attach(client)
    sender = asyncio.create_task(_pump(websocket, outbox, metrics))
    try:
        while not sender.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            came = time.perf_counter()
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            wait = own.take("")
            words, n = "err.web.messages", limits.messages_per_second
            if not wait:
                try:
                    wait = svc.address_messages.take(key)
                except Refused as exc:  # the shared counts cannot be reached
                    room.notify(client, exc, _seq_of(raw))
                    continue
                words, n = "err.web.messages_address", limits.messages_per_address
            if wait:
                metrics.commands_refused += 1
                room.notify(client, Refused.too_many(msg(words, n=n, wait=wait_text(wait)), wait),
                            _seq_of(raw))
                continue
            if room.moved:  # served by another process now: its page connects again
                break
            if isinstance(room, Room) and svc.lobby.get(table_id) is not room:  # closed meanwhile
                metrics.commands_refused += 1
                missing = await run_in_threadpool(svc.missing, table_id)
                client.refuse(Refused(missing[1], NOT_FOUND))
                break
            try:
                command = parse_command(raw)
            except ProtocolError as exc:  # a message it cannot read: refused, by its rules
                metrics.commands_refused += 1
                room.notify(client, Refused(exc.message), exc.ref)
                continue
            if isinstance(command, Join) and identity is None and secret is not None:
                # another tab of this browser may have made it a guest since it connected
                identity = await run_in_threadpool(svc.identities.by_session, digest(secret))
                if identity is not None:
                    client.owner = identity.id
                    client.account_name = identity.name if identity.account else None
            ban = None if isinstance(command, Ping) \
                else mod.ban_for(identity.id if identity is not None else None, address)
            if ban is not None:  # banned: it may watch, and nothing more
                watching = _watching(room, client, command)
                if watching is None:
                    metrics.commands_refused += 1
                    room.notify(client, Refused(mod.words(ban), BANNED, status=403), command.seq)
                    continue
                command = watching
            metrics.commands_accepted += 1
            waiting.append((command.seq, came))
            room.handle(client, command)  # to the table's inbox
            if ban is not None:  # told once it has its welcome (after it, in the inbox)
                room.notify(client, Refused(mod.words(ban), BANNED, status=403))
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(client)
        sender.cancel()


def _watching(room: Room | RemoteTable, client: Client, command: Command) -> Command | None:
    """What a banned client's ``command`` becomes: its hello, as a spectator's (no token, no
    seat found by its identity); anything else is refused (None). A seat it holds is left
    (as when it disconnects: the table's away bot plays it)."""
    if client.seat is not None:
        room.detach(client)
        client.seat = None
        room.attach(client)
        client.send(Welcome(table=room.id, seat=None))
    client.owner = None
    if isinstance(command, Hello):
        return command.model_copy(update={"token": None})
    return None


def _seq_of(raw: str | bytes) -> int | None:
    """The ``seq`` of a message not read yet, when it is cheap to find (for a refusal's ref)."""
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return seq_of(data)


async def _pump(websocket: WebSocket, outbox: asyncio.Queue[str], metrics: Metrics) -> None:
    with contextlib.suppress(Exception):
        while True:
            if outbox.qsize() > OUTBOX_LIMIT:
                await websocket.close(code=1008, reason="too slow: events were piling up")
                return
            body = await outbox.get()
            if body is HANG_UP:  # its session ended: the page connects again as who it is now
                await websocket.close(code=SIGNED_OUT, reason="the session ended")
                return
            if body is MOVE_ON:
                await websocket.close(code=MOVED, reason="the table is served elsewhere now")
                return
            await websocket.send_text(body)
            metrics.events += 1
