"""The page's files are sent compressed (gzip) to a browser that accepts it: the page, its
scripts and styles, its words. The API's answers are sent as they are: they hold what is a
player's own (a seat's token, a hand's cards) beside words a stranger may choose (a name, a
chat line), and a compressed answer's size can tell an eavesdropper whether the two share
letters (BREACH); they are small, too. WebSockets pass by untouched.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware

from .bodylimit import ASGIApp, Receive, Scope, Send

COMPRESS_FROM = 500  # bytes: a smaller answer is sent as it is (gzip would not pay for itself)
UNCOMPRESSED = ("/api/",)  # the paths whose answers are never compressed


class PageCompression:
    """gzip for every HTTP answer but the API's (see the module's text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not str(scope.get("path", "")).startswith(UNCOMPRESSED):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
