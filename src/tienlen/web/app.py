"""The FastAPI application: the page, the lobby's REST API, records, /healthz and the WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketDisconnect

from .. import Rules, TienLenError
from ..bots import bot_names
from ..i18n import LANGS, Msg, catalogue_text, msg, pick_lang, render, say_error, t, validation_reason
from ..rules_text import explain_text
from .bodylimit import BodyLimit
from .limits import MAX_PLAYER_KEY, MIN_PLAYER_KEY, Limits, RateLimit, client_key, player_key, wait_text
from .lobby import Lobby, NewTable, TooMany
from .offload import Offload
from .problems import answers, problem
from .protocol import BOT_LEVELS, MAX_MESSAGE, Error, ProtocolError, TableInfo, parse_command, seq_of
from .replays import replay_or_reason, session_text
from .room import Client, Room
from .storage import DEFAULT_DB, Repository

log = logging.getLogger("tienlen.web")
STATIC = Path(str(resources.files("tienlen.web") / "static"))
OUTBOX_LIMIT = 1000  # events waiting for one slow connection before it is dropped
GC_THRESHOLDS = (10_000, 10, 100)  # the garbage collector's, while serving (Python's: 700, 10, 10)


MAX_HAND_NO = 2**31 - 1  # hand numbers in URLs
MAX_TABLE_ID = 64  # characters of a table id in URLs
HandNo = Annotated[int, PathParam(ge=1, le=MAX_HAND_NO)]
TableId = Annotated[str, PathParam(min_length=1, max_length=MAX_TABLE_ID)]


PlayerKey = Annotated[str | None, Header(alias="X-Tienlen-Player", min_length=MIN_PLAYER_KEY,
                                         max_length=MAX_PLAYER_KEY, pattern=r"^[A-Za-z0-9_-]+$")]


def create_app(db_url: str | None = None, bot_delay: float = 0.5,
               limits: Limits | None = None,
               clock: Callable[[], float] = time.monotonic, api_docs: bool = False) -> FastAPI:
    """The server for ``db_url`` (default: an SQLite file in the working folder) under
    ``limits`` (default: :class:`~.limits.Limits`); the rate limits count time by ``clock``.
    ``api_docs``: serve the API's documentation page at /api/docs (its scripts come from a CDN,
    so it is off unless asked for; the schema itself is always at /openapi.json)."""
    limits = limits or Limits()
    repo = Repository(db_url or DEFAULT_DB)
    lobby = Lobby(repo, bot_delay, limits)
    creates = RateLimit(limits.creates_per_minute, 60.0, clock)  # per player
    address_creates = RateLimit(limits.creates_per_address, 60.0, clock)
    address_messages = RateLimit(limits.messages_per_address, 1.0, clock)
    offload = Offload(per_client=limits.replays_per_client)
    connections: Counter[str] = Counter()
    started = time.time()

    async def sweep() -> None:
        """Close the idle tables, every ``sweep_every`` seconds."""
        while True:
            await asyncio.sleep(limits.sweep_every)
            try:
                lobby.expire_idle()
            except Exception:  # the next sweep tries again; serving goes on
                log.exception("closing idle tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.restore()
        app.state.loop = asyncio.get_running_loop()
        for room in lobby.rooms.values():
            room.schedule()
        sweeper = asyncio.create_task(sweep())
        # Garbage collection pauses the whole server. What startup built (the rebuilt tables)
        # lives as long as the server: leave it out of every later collection. Collect the young
        # generation less often, so that the many short-lived objects of each move die before
        # a collection sees them instead of piling up in the old generation, whose full
        # collections (100 ms and more with hundreds of tables) would hold every table back.
        thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        yield
        sweeper.cancel()
        offload.close()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        repo.close()

    app = FastAPI(title="tienlen", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None)
    app.state.lobby = lobby
    app.state.limits = limits
    app.state.offload = offload
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # pydantic's words for a bad field, in the language the call asks for (Accept-Language)
        lang = request_lang(request)
        parts = [f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: "
                 f"{render(validation_reason(e), lang)}" for e in exc.errors()[:3]]
        return problem(422, "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)  # FastAPI's own and the router's (404, 405)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(getattr(exc, "headers", None) or {})
        detail = exc.detail
        if exc.status_code == 405 and request.method == "OPTIONS":  # what may be done here
            return Response(status_code=204, headers={"Allow": ", ".join(allowed(request))})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed(request))
            detail = t("err.web.method", request_lang(request), method=request.method,
                       allow=headers["Allow"])
        elif exc.status_code == 404 and detail == "Not Found":  # no such route
            detail = t("err.web.no_route", request_lang(request), path=repr(request.url.path[:100]))
        elif isinstance(exc.__cause__, RecursionError):  # a JSON body nested deeper than json reads
            detail = t("err.web.body_too_deep", request_lang(request))
        return problem(exc.status_code, str(detail), headers)

    def allowed(request: Request) -> list[str]:
        """Every method some route answers at this path (OPTIONS too)."""
        methods = {"OPTIONS"}
        scope = {"type": "http", "path": request.url.path, "root_path": "", "method": "OPTIONS"}
        for route in app.routes:
            if getattr(route, "methods", None) and route.matches(scope)[0] != Match.NONE:
                methods |= set(route.methods)  # type: ignore[attr-defined]
        return sorted(methods)

    def room_or_404(table_id: str, lang: str) -> Room:
        room = lobby.get(table_id)
        if room is None:
            status, reason = _missing(table_id)
            raise HTTPException(status, render(reason, lang))
        return room

    def _missing(table_id: str) -> tuple[int, Msg]:
        if repo.table_exists(table_id):
            return 410, msg("err.web.closed", id=repr(table_id),
                            url=f"/api/tables/{table_id}/records")
        return 404, msg("err.web.no_table", id=repr(table_id))

    def known_or_404(table_id: str, lang: str) -> None:
        """Tables open or closed (a closed table's records stay downloadable)."""
        if lobby.get(table_id) is None and not repo.table_exists(table_id):
            raise HTTPException(404, t("err.web.no_table", lang, id=repr(table_id)))

    # ------------------------------------------------------------------ pages
    page_html = (STATIC / "index.html").read_text(encoding="utf-8")

    def page(request: Request, status: int = 200) -> HTMLResponse:
        """The page, told the browser's Accept-Language (the page picks its language from it
        unless the player chose one with the switch)."""
        header = request.headers.get("accept-language", "")[:200]
        code = pick_lang(header, "")
        html = page_html.replace('<html lang="en">', f'<html lang="{code or "en"}" '
                                 f'data-accept-lang="{code}">', 1)
        return HTMLResponse(html, status_code=status, headers={"Vary": "Accept-Language"})

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index(request: Request) -> HTMLResponse:
        return page(request)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        """The page (it shows "no such table" with the way back when the table is unknown:
        answered 404 then)."""
        known = len(table_id) <= MAX_TABLE_ID and lobby.get(table_id) is not None
        return page(request, 200 if known else 404)

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalogue_file(lang: str) -> Response:
        """The page's words in one language (the catalogue the server speaks too)."""
        if lang not in LANGS:
            raise HTTPException(404, t("err.web.no_language", "en", lang=repr(lang)))
        return Response(catalogue_text(lang), media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "tables": len(lobby.rooms),
                "playing": sum(1 for r in lobby.rooms.values() if r.started),
                "connections": sum(len(r.clients) for r in lobby.rooms.values()),
                "database": repo.dialect, "uptime_s": round(time.time() - started, 1),
                "bot_moves": lobby.driver.stats.moves, "batches": lobby.driver.stats.batches}

    # ------------------------------------------------------------------ lobby
    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {"presets": Rules.presets(), "bots": [b for b in bot_names() if b in BOT_LEVELS]}

    @app.get("/api/presets/{name}", responses=answers(404, 422))
    async def preset(name: str, lang: str = "en") -> dict[str, Any]:
        """A preset: its options, and ``explain``, the rules in words in ``lang``."""
        try:
            rules = Rules.preset(name)
        except TienLenError as exc:
            raise HTTPException(404, say_error(exc, pick_lang(lang))) from None
        return {"name": name, "toml": rules.to_toml(), "options": rules.as_dict(),
                "describe": rules.describe(),
                "explain": explain_text(rules, width=None, lang=pick_lang(lang))}

    @app.get("/api/tables")
    async def tables() -> list[TableInfo]:
        return [room.info() for room in lobby.listing()[:200]]

    @app.post("/api/tables", responses=answers(400, 413, 422, 429))
    async def create_table(spec: NewTable, request: Request,
                           player: PlayerKey = None) -> dict[str, Any]:
        """A new table. ``X-Tienlen-Player`` (the page's player key, kept in the browser) is who
        it counts against (without it, the address): tables a minute and open tables per player,
        with a higher ceiling for everyone behind one address."""
        address = client_key(request.client.host if request.client else None)
        creator = player_key(player, address)
        lang = request_lang(request)  # refusals in the page's language (Accept-Language)
        for bucket, key, words, n in ((address_creates, address, "err.web.creates_address",
                                       limits.creates_per_address),
                                      (creates, creator, "err.web.creates", limits.creates_per_minute)):
            wait = bucket.take(key)
            if wait:
                raise HTTPException(429, t(words, lang, n=n, wait=wait_text(wait)),
                                    headers={"Retry-After": str(max(1, round(wait)))})
        try:
            room, seat, token = lobby.create(spec, creator, address)
        except TooMany as exc:
            headers = {"Retry-After": str(round(exc.retry_after))} if exc.retry_after else None
            raise HTTPException(exc.status, exc.say(lang), headers=headers) from None
        except TienLenError as exc:  # refused, or rules that cannot be
            raise HTTPException(400, say_error(exc, lang)) from None
        room.changed()
        return {"id": room.id, "invite": f"/t/{room.id}", "seat": seat, "token": token,
                "info": room.info().model_dump()}

    @app.get("/api/tables/{table_id}", responses=answers(404, 410, 422))
    async def table(table_id: TableId, request: Request) -> TableInfo:
        return room_or_404(table_id, request_lang(request)).info()

    # ------------------------------------------------------------------ records
    def record_text(table_id: str, hand_no: int, lang: str) -> str:
        known_or_404(table_id, lang)
        text = repo.record(table_id, hand_no)
        if text is None:
            raise HTTPException(404, t("err.web.no_hand", lang, id=repr(table_id), n=hand_no))
        return text

    def seed_note(table_id: str) -> str:
        """A comment kept at the head of a practice table's records: its fixed seed."""
        room = lobby.get(table_id)
        if room is None or not room.fixed_seed:
            return ""
        return (f"# practice table {table_id}: fixed seed {room.seed} "
                f"(Session(rules, {room.players}, seed={room.seed}) deals these hands)\n")

    @app.get("/api/tables/{table_id}/records", responses=answers(404, 422))
    async def records(table_id: TableId, request: Request) -> list[dict[str, Any]]:
        known_or_404(table_id, request_lang(request))
        return [{"hand": n, "finished": at, "url": f"/api/tables/{table_id}/records/{n}"}
                for n, at in repo.records(table_id)]

    @app.get("/api/tables/{table_id}/records/{hand_no}", responses=answers(404, 422))
    async def record(table_id: TableId, hand_no: HandNo, request: Request) -> Response:
        text = seed_note(table_id) + record_text(table_id, hand_no, request_lang(request))
        return PlainTextResponse(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="tienlen-{table_id}-hand{hand_no}.toml"'})

    def asker(request: Request) -> str:
        return client_key(request.client.host if request.client else None)

    async def offloaded(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker process (see offload.py), a few at a time per address."""
        try:
            return await offload.run(asker(request), fn, *args)
        except TooMany as exc:
            raise HTTPException(exc.status, exc.say(request_lang(request)),
                                headers={"Retry-After": "1"}) from None

    @app.get("/api/tables/{table_id}/record.toml", responses=answers(404, 422, 429))
    async def session_record(table_id: TableId, request: Request) -> Response:
        lang = request_lang(request)
        known_or_404(table_id, lang)
        texts = [repo.record(table_id, n) or "" for n, _ in repo.records(table_id)]
        if not texts:
            raise HTTPException(404, t("err.web.no_hand_yet", lang, id=repr(table_id)))
        text = await offloaded(request, session_text, texts)
        return PlainTextResponse(seed_note(table_id) + text, media_type="application/toml",
                                 headers={"Content-Disposition":
                                          f'attachment; filename="tienlen-{table_id}.toml"'})

    @app.get("/api/tables/{table_id}/records/{hand_no}/replay",
             responses=answers(400, 404, 422, 429))
    async def replay(table_id: TableId, hand_no: HandNo, request: Request) -> Response:
        """A finished hand as the states after each action, every seat's cards shown."""
        lang = request_lang(request)
        text = record_text(table_id, hand_no, lang)
        steps, reason = await offloaded(request, replay_or_reason, text)
        if steps is None:
            raise HTTPException(400, render(reason or msg("err.web.replay", reason=""), lang))
        return Response(steps, media_type="application/json")

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        key = client_key(websocket.client.host if websocket.client else None)
        # the page names its language in the URL (?lang=vi), so even the refusals sent before
        # its hello are in that language; else the browser's Accept-Language
        lang = pick_lang(websocket.query_params.get("lang", "")[:20]
                         or websocket.headers.get("accept-language", "")[:200])
        room = lobby.get(table_id)
        if room is None:
            reason = _missing(table_id)[1] if len(table_id) <= MAX_TABLE_ID \
                else msg("err.web.no_such_table")
            await websocket.send_text(Error(seq=1, reason=render(reason, lang), code="not_found")
                                      .model_dump_json())
            await websocket.close(code=4404)
            return
        if limits.connections_per_address and connections[key] >= limits.connections_per_address:
            await websocket.send_text(Error(
                seq=1, code="rate_limited",
                reason=t("err.web.connections", lang, n=limits.connections_per_address))
                .model_dump_json())
            await websocket.close(code=1008)
            return
        connections[key] += 1
        own = RateLimit(limits.messages_per_second, 1.0, clock)  # this connection's messages
        outbox: asyncio.Queue[str] = asyncio.Queue()
        client = Client(outbox.put_nowait, key)
        client.lang = lang
        room.attach(client)
        sender = asyncio.create_task(_pump(websocket, outbox))
        try:
            while not sender.done():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                wait = own.take("")
                words, n = "err.web.messages", limits.messages_per_second
                if not wait:
                    wait = address_messages.take(key)
                    words, n = "err.web.messages_address", limits.messages_per_address
                if wait:
                    client.send(Error(reason=t(words, client.lang, n=n, wait=wait_text(wait)),
                                      ref=_seq_of(raw), code="rate_limited"))
                    continue
                if lobby.get(table_id) is not room:  # closed meanwhile
                    client.send(Error(reason=render(_missing(table_id)[1], client.lang),
                                      code="not_found"))
                    break
                try:
                    command = parse_command(raw)
                except ProtocolError as exc:
                    client.send(Error(reason=exc.say(client.lang), ref=exc.ref))
                    continue
                try:
                    room.handle(client, command)
                except TienLenError as exc:  # storage trouble: nothing changed
                    client.send(Error(reason=t("err.web.server_failed", client.lang,
                                               reason=say_error(exc, client.lang)),
                                      ref=command.seq))
        except WebSocketDisconnect:
            pass
        finally:
            room.detach(client)
            connections[key] -= 1
            if connections[key] <= 0:
                del connections[key]
            sender.cancel()

    return app


def request_lang(request: Request) -> str:
    """The language a REST call asks for (the page sends Accept-Language)."""
    return pick_lang(request.headers.get("accept-language", "")[:200])


def _seq_of(raw: str | bytes) -> int | None:
    """The ``seq`` of a message not read yet, when it is cheap to find (for a refusal's ref)."""
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return seq_of(data)


async def _pump(websocket: WebSocket, outbox: asyncio.Queue[str]) -> None:
    with contextlib.suppress(Exception):
        while True:
            if outbox.qsize() > OUTBOX_LIMIT:
                await websocket.close(code=1008, reason="too slow: events were piling up")
                return
            await websocket.send_text(await outbox.get())
