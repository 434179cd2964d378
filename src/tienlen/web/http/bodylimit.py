"""Request bodies over a size limit are refused with 413 before they are read.

A pure ASGI middleware: a ``Content-Length`` over the limit is answered at once, without
reading a byte of the body; a body sent without one (chunked) is counted as it arrives and
refused as soon as it passes the limit, before the application has parsed any of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ...i18n import pick_lang, t
from .problems import problem

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse HTTP request bodies larger than ``limit`` bytes (0: no limit)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.limit:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:  # the server itself answers a malformed length
                declared = 0
            if declared > self.limit:
                await self._refuse(scope, receive, send, headers, declared)
                return
        seen = 0
        started = over = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    raise _TooLarge
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if over:  # the application answers a body it could not read: the answer is ours
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(scope, receive, send, headers, None)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except _TooLarge:
            if started:
                raise
            await self._refuse(scope, receive, send, headers, None)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send,
                      headers: dict[bytes, bytes], size: int | None) -> None:
        """Answer 413; ``size``: the declared length (None: a chunked body that grew past it)."""
        lang = pick_lang(headers.get(b"accept-language", b"")[:200].decode("latin-1"))
        reason = t("err.web.body_chunked", lang, most=self.limit) if size is None else \
            t("err.web.body_large", lang, size=size, most=self.limit)
        response = problem(413, reason, headers={"Connection": "close"})
        await response(scope, receive, send)
