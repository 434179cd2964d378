"""Requests from other sites: refused when they would act with the session cookie.

A browser sends the cookie with every request to this server, whichever site's page makes it
(SameSite=Lax keeps it off another site's form posts and scripts in today's browsers; this is
the second lock). A request that changes anything (any method but GET, HEAD and OPTIONS) and
carries the cookie must say it came from this server's own page: its ``Origin`` names this
host, and ``Sec-Fetch-Site``, where the browser sends it, is ``same-origin``. A WebSocket is
refused when its ``Origin`` names another host (a script with no Origin, no browser, is let in:
it holds its seats by their tokens). Behind a proxy, the proxy must pass the ``Host`` header on.

"Carries the cookie" is read by the very parser that reads the cookie for the routes
(Starlette's, as ``conn.cookies``), so that no spelling of the header (``tienlen_sid =X``, a
name twice) can pass here as cookie-less and be read there as the session. The device cookie
and the known browser's (``session.KNOWN``) count too: an account trusts a browser that signed
in to it before (``accounts.py``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ...i18n import pick_lang, t
from ..accounts.session import COOKIE, DEVICE, KNOWN
from .problems import problem

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def other_site(headers: Headers) -> str | None:
    """The origin of a request that came from another site's page (None: from ours, or from no
    browser at all). ``Origin: null`` (a sandboxed or file page) is another site."""
    origin = headers.get("origin")
    if origin is None:
        return None
    return None if urlsplit(origin).netloc == headers.get("host", "") and origin != "null" \
        else origin[:100]


def cross_site_write(headers: Headers) -> str | None:
    """Why a cookie-carrying request that changes something is refused (None: it is not)."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return headers.get("origin", fetch_site)[:100]
    if "origin" not in headers:
        return "no Origin" if fetch_site != "none" else None
    return other_site(headers)


def carries_cookie(scope: Scope) -> bool:
    """Whether the request of ``scope`` carries one of this server's cookies, as the routes
    will read them."""
    cookies = HTTPConnection(scope).cookies
    return any(name in cookies for name in (COOKIE, DEVICE, KNOWN))


class OriginCheck:
    """The ASGI middleware that refuses (403) a cross-site request carrying the cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE:
            headers = Headers(scope=scope)
            if carries_cookie(scope):
                origin = cross_site_write(headers)
                if origin is not None:
                    lang = pick_lang(headers.get("accept-language", "")[:200])
                    answer = problem(403, t("err.web.cross_site", lang, origin=repr(origin)))
                    await answer(scope, receive, send)
                    return
        await self.app(scope, receive, send)
