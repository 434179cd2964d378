"""Every refused HTTP request answers in one shape: RFC 9457 problem details.

``{"type": "about:blank", "title": "Not Found", "status": 404, "detail": "…", "code":
"not_found"}`` as ``application/problem+json``: ``detail`` is the reason in the language the
request asked for (Accept-Language), ``code`` the same kinds as the WebSocket's error events
(``rate_limited``, ``not_found``, …). The OpenAPI schema lists the answers each route gives
(:func:`answers`).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

MEDIA_TYPE = "application/problem+json"

# what each status is, as the WebSocket's error events name their kinds
CODES = {400: "refused", 404: "not_found", 405: "method_not_allowed", 410: "closed",
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
    OpenAPI schema; 422 replaces FastAPI's own validation-error schema with ours."""
    return {status: {"model": Problem, "description": HTTPStatus(status).phrase,
                     "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
            for status in sorted(statuses)}
