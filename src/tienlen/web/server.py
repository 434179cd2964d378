"""``tienlen serve``: the web server under uvicorn."""

from __future__ import annotations

from ..errors import TienLenError
from .storage import DEFAULT_DB

MAX_WS_MESSAGE = 64 * 1024  # uvicorn closes a connection sending more; the protocol allows 4 KiB


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          bot_delay: float = 0.5) -> int:
    """Run the server until interrupted."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise TienLenError(f"the web server needs its extra: pip install 'tienlen[web]' ({exc})") \
            from None
    if not 0 < port < 65536:
        raise TienLenError(f"--port must be 1 to 65535, not {port}")
    app = create_app(db or DEFAULT_DB, bot_delay=bot_delay)
    print(f"tienlen: serving on http://{host}:{port}/ (database {db or DEFAULT_DB})", flush=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WS_MESSAGE, log_level="warning")
    return 0
