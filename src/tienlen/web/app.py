"""The FastAPI application: the page, the lobby's REST API, records, /healthz and the WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import tomllib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from .. import Rules, Session, TienLenError
from ..bots import bot_names
from ..record import _parse, _replay_hand
from .lobby import Lobby, NewTable
from .protocol import Error, ProtocolError, TableInfo, parse_command
from .room import Client, Refused
from .storage import DEFAULT_DB, Repository

STATIC = Path(str(resources.files("tienlen.web") / "static"))
OUTBOX_LIMIT = 1000  # events waiting for one slow connection before it is dropped
GC_THRESHOLDS = (10_000, 10, 100)  # the garbage collector's, while serving (Python's: 700, 10, 10)


def create_app(db_url: str | None = None, bot_delay: float = 0.5) -> FastAPI:
    """The server for ``db_url`` (default: an SQLite file in the working folder)."""
    repo = Repository(db_url or DEFAULT_DB)
    lobby = Lobby(repo, bot_delay)
    started = time.time()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        lobby.restore()
        for room in lobby.rooms.values():
            room.schedule()
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
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        repo.close()

    app = FastAPI(title="tienlen", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.lobby = lobby
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}"
                 for e in exc.errors()[:3]]
        return JSONResponse({"error": "; ".join(parts)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    def room_or_404(table_id: str) -> Any:
        room = lobby.get(table_id)
        if room is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return room

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

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
        return {"presets": Rules.presets(), "bots": [b for b in bot_names() if b != "search"]}

    @app.get("/api/presets/{name}")
    async def preset(name: str) -> dict[str, Any]:
        try:
            rules = Rules.preset(name)
        except TienLenError as exc:
            raise HTTPException(404, str(exc)) from None
        return {"name": name, "toml": rules.to_toml(), "options": rules.as_dict(),
                "describe": rules.describe()}

    @app.get("/api/tables")
    async def tables() -> list[TableInfo]:
        return [room.info() for room in lobby.listing()[:200]]

    @app.post("/api/tables")
    async def create_table(spec: NewTable) -> dict[str, Any]:
        try:
            room, seat, token = lobby.create(spec)
        except TienLenError as exc:
            raise HTTPException(400, str(exc)) from None
        room.changed()
        return {"id": room.id, "invite": f"/t/{room.id}", "seat": seat, "token": token,
                "info": room.info().model_dump()}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> TableInfo:
        info: TableInfo = room_or_404(table_id).info()
        return info

    # ------------------------------------------------------------------ records
    @app.get("/api/tables/{table_id}/records")
    async def records(table_id: str) -> list[dict[str, Any]]:
        room_or_404(table_id)
        return [{"hand": n, "finished": at, "url": f"/api/tables/{table_id}/records/{n}"}
                for n, at in repo.records(table_id)]

    @app.get("/api/tables/{table_id}/records/{hand_no}")
    async def record(table_id: str, hand_no: int) -> Response:
        room_or_404(table_id)
        text = repo.record(table_id, hand_no)
        if text is None:
            raise HTTPException(404, f"table {table_id!r} has no finished hand {hand_no}")
        return PlainTextResponse(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="tienlen-{table_id}-hand{hand_no}.toml"'})

    @app.get("/api/tables/{table_id}/record.toml")
    async def session_record(table_id: str) -> Response:
        room = room_or_404(table_id)
        session: Session | None = room.session
        finished = [g for g in session.games if g.is_over] if session else []
        if session is None or not finished:
            raise HTTPException(404, f"table {table_id!r} has no finished hand yet")
        done = Session(session.rules, session.players, names=session.names, _first=finished[0])
        done.games = finished
        return PlainTextResponse(done.record(), media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="tienlen-{table_id}.toml"'})

    @app.get("/api/tables/{table_id}/records/{hand_no}/replay")
    async def replay(table_id: str, hand_no: int) -> dict[str, Any]:
        room_or_404(table_id)
        text = repo.record(table_id, hand_no)
        if text is None:
            raise HTTPException(404, f"table {table_id!r} has no finished hand {hand_no}")
        return replay_steps(text)

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        room = lobby.get(table_id)
        if room is None:
            await websocket.send_text(Error(seq=1, reason=f"no table {table_id!r}").model_dump_json())
            await websocket.close(code=4404)
            return
        outbox: asyncio.Queue[str] = asyncio.Queue()
        client = Client(outbox.put_nowait)
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
                try:
                    command = parse_command(raw)
                except ProtocolError as exc:
                    client.send(Error(reason=exc.reason, ref=exc.ref))
                    continue
                try:
                    room.handle(client, command)
                except TienLenError as exc:  # storage trouble: nothing changed
                    client.send(Error(reason=f"the server could not do that: {exc}", ref=command.seq))
        except WebSocketDisconnect:
            pass
        finally:
            room.detach(client)
            sender.cancel()

    return app


async def _pump(websocket: WebSocket, outbox: asyncio.Queue[str]) -> None:
    with contextlib.suppress(Exception):
        while True:
            if outbox.qsize() > OUTBOX_LIMIT:
                await websocket.close(code=1008, reason="too slow: events were piling up")
                return
            await websocket.send_text(await outbox.get())


def replay_steps(text: str) -> dict[str, Any]:
    """A finished hand's record as the states after each action (every hand shown)."""
    try:
        rules, names, hands = _parse(text)
        hand = hands[0]
        actions = list(hand.get("actions", []))
        steps = []
        for i in range(len(actions) + 1):
            game = _replay_hand(rules, names, 0, {**hand, "actions": actions[:i]}, True)
            history = game.history
            steps.append({
                "hands": [[str(c) for c in game.hand(s)] for s in range(game.players)],
                "table": str(game.table) if game.table is not None and game.table.cards else None,
                "turn": game.turn,
                "last": f"{names[history[-1][0]]}: {history[-1][1]}" if history else None,
                "over": game.is_over, "scores": game.scores})
    except (TienLenError, tomllib.TOMLDecodeError, IndexError) as exc:
        raise Refused(f"the record cannot be replayed: {exc}") from None
    return {"names": names, "rules": rules.name, "steps": steps}
