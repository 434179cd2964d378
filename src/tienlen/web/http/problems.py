"""Every refused HTTP request answers in one shape: RFC 9457 problem details.

``{"type": "about:blank", "title": "Not Found", "status": 404, "detail": "…", "code":
"not_found"}`` as ``application/problem+json``: ``detail`` is the reason in the language the
request asked for (Accept-Language), ``code`` the same kinds as the WebSocket's error events
(``rate_limited``, ``not_found``, …). The OpenAPI schema lists the answers each route gives
(:func:`answers`). :func:`install` sets the app's handlers that give every refusal this shape, and
answer ``OPTIONS`` (and a 405) with the methods a path allows: a :class:`~.refusal.Refused`
raised anywhere in a route (the table's, the lobby's, a limit's, the route's own) is answered
here, its status, its reason in the request's language and its ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ...i18n import pick_lang, render, t, validation_reason
from ..refusal import Refused
from ..storage import StorageError

MEDIA_TYPE = "application/problem+json"

# what each status is, as the WebSocket's error events name their kinds
CODES = {400: "refused", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 410: "closed",
         413: "too_large", 422: "invalid", 429: "rate_limited", 503: "unavailable"}


class Problem(BaseModel):
    """A refused request (RFC 9457): what went wrong, in words and as a code."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    code: str


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer to a request refused with ``status``, saying ``detail``."""
    body = Problem(title=HTTPStatus(status).phrase, status=status, detail=detail,
                   code=CODES.get(status, "error"))
    return JSONResponse(body.model_dump(), status_code=status, headers=headers,
                        media_type=MEDIA_TYPE)


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may refuse with ``statuses`` (each a problem), for its
    OpenAPI schema; 422 replaces FastAPI's own validation-error schema with ours. A route a
    limit refuses (429) may also answer 503: its limit counted in a Redis that does not answer
    (``shared/store.py``)."""
    if 429 in statuses:
        statuses = (*statuses, 503)
    return {status: {"model": Problem, "description": HTTPStatus(status).phrase,
                     "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
            for status in sorted(set(statuses))}


def request_lang(request: Request) -> str:
    """The language a REST call asks for (the page sends Accept-Language)."""
    return pick_lang(request.headers.get("accept-language", "")[:200])


def allowed(request: Request) -> list[str]:
    """Every method some route of the app answers at the request's path (OPTIONS too)."""
    methods = {"OPTIONS"}
    scope = {"type": "http", "path": request.url.path, "root_path": "", "method": "OPTIONS"}
    for route in request.app.state.http_routes:
        if getattr(route, "methods", None) and route.matches(scope)[0] != Match.NONE:
            methods |= set(route.methods)
    return sorted(methods)


async def _bad_request(request: Request, exc: Exception) -> Response:
    # pydantic's words for a bad field, in the language the call asks for (Accept-Language)
    assert isinstance(exc, RequestValidationError)
    lang = request_lang(request)
    parts = [f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: "
             f"{render(validation_reason(e), lang)}" for e in exc.errors()[:3]]
    return problem(422, "; ".join(parts))


async def _refused(request: Request, exc: Exception) -> Response:
    # every refusal of the room's own (refusal.py): its status, its reason in the request's
    # language, how long to wait
    assert isinstance(exc, Refused)
    return problem(exc.status, exc.say(request_lang(request)), exc.wait_header() or None)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
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


DATABASE_RETRY = 5  # seconds a client is told to wait when the database does not answer


async def _database_away(request: Request, exc: Exception) -> Response:
    # the database did not answer (an outage, a restart): 503, try again soon; nothing was kept
    # of what the request began (each write is one transaction)
    return problem(503, t("err.web.database_away", request_lang(request)),
                   {"Retry-After": str(DATABASE_RETRY)})


def install(app: FastAPI, routers: Sequence[APIRouter]) -> None:
    """Include ``routers`` in ``app``, and answer every refusal of ``app`` as a problem: the
    room's own (:class:`~.refusal.Refused`), bad fields (422), FastAPI's and the router's own
    (404, 405: with ``Allow``), ``OPTIONS`` (204 with ``Allow``)."""
    for router in routers:
        app.include_router(router)
    # every route, the routers' as well (newer FastAPI versions keep them apart in app.routes)
    app.state.http_routes = [route for route in app.routes if getattr(route, "methods", None)] \
        + [route for router in routers for route in router.routes]
    app.add_exception_handler(RequestValidationError, _bad_request)
    app.add_exception_handler(Refused, _refused)  # the table's, the lobby's, the routes'...
    app.add_exception_handler(StarletteHTTPException, _http_error)  # FastAPI's and the router's
    app.add_exception_handler(StorageError, _database_away)
    app.add_exception_handler(SQLAlchemyError, _database_away)
