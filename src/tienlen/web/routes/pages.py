"""What a browser fetches outside the API: the page (at ``/``, ``/t/ID``, a profile, a hand's
replay at ``/replay/ID/N`` or ``/shared/SECRET``) and the page's
words in each language. The page reads the session cookie's identity from the database: plain
``def`` handlers, in FastAPI's thread pool. (``/healthz`` is the operator's: ``ops.py``.)"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from ...i18n import LANGS, pick_lang, t
from ..accounts.names import MAX_NAME, RAW_FACTOR, account_key
from ..accounts.session import give_cookie, give_device, identity_of, new_secret
from ..http.page_words import page_catalogue_text
from ..services import MAX_TABLE_ID, Svc, services_of
from ..storage import StorageError
from .hand_access import PageHand, SharedPageHand

router = APIRouter()
STATIC = Path(str(resources.files("tienlen.web") / "static"))  # the page's files


@functools.cache
def _page_html() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


def page(request: Request, status: int = 200) -> HTMLResponse:
    """The page, told the browser's Accept-Language (the page picks its language from it
    unless the player chose one with the switch). A browser whose session cookie signs nobody
    in (none, or a value the server does not know) is given a new one: nothing is stored until
    it sits or makes a table (see ``identity.py``), and then it is given another
    (``session.py``). While the database is away the page loads, and the cookie is kept: a
    session the server cannot look up now is not for that reason nobody's."""
    header = request.headers.get("accept-language", "")[:200]
    code = pick_lang(header, "")
    html = _page_html().replace('<html lang="en">', f'<html lang="{code or "en"}" '
                                f'data-accept-lang="{code}">', 1)
    response = HTMLResponse(html, status_code=status,
                            headers={"Vary": "Accept-Language, Cookie", "Cache-Control": "no-store"})
    try:
        nobody = identity_of(request, services_of(request).identities) is None
    except StorageError:  # the database is away: the page still loads, its cookie left alone
        nobody = False
    if nobody:
        give_cookie(response, request, new_secret())
    give_device(response, request)
    return response


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
def index(request: Request) -> HTMLResponse:
    return page(request)


@router.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
def table_page(table_id: str, request: Request, svc: Svc) -> HTMLResponse:
    """The page (it shows "no such table" with the way back when the table is unknown:
    answered 404 then). The table is only looked up, in the room's directory (whichever
    process serves it)."""
    known = len(table_id) <= MAX_TABLE_ID and svc.directory.known(table_id)
    return page(request, 200 if known else 404)


@router.api_route("/p/{name}", methods=["GET", "HEAD"], include_in_schema=False)
def profile_page(name: str, request: Request, svc: Svc) -> HTMLResponse:
    """A player's profile (answered 404 when no account has that name)."""
    known = len(name) <= MAX_NAME * RAW_FACTOR and svc.identities.by_account(account_key(name))
    return page(request, 200 if known else 404)


@router.api_route("/replay/{table_id}/{hand_no}", methods=["GET", "HEAD"], include_in_schema=False)
def replay_page(hand: PageHand, request: Request) -> HTMLResponse:
    """A finished hand replayed on a felt of its own, open or closed table: answered 404 (the
    page saying why) to whoever may not read that hand, as the API answers it."""
    return page(request, 200 if hand is not None else 404)


@router.api_route("/shared/{secret}", methods=["GET", "HEAD"], include_in_schema=False)
def shared_page(hand: SharedPageHand, request: Request) -> HTMLResponse:
    """A hand a private table's host shared, replayed on a felt of its own (404, the page
    saying so, once the link no longer opens it)."""
    return page(request, 200 if hand is not None else 404)


@router.api_route("/me", methods=["GET", "HEAD"], include_in_schema=False)
def own_page(request: Request) -> HTMLResponse:
    """The player's own page: its hands and ratings, its account."""
    return page(request)


@router.api_route("/leaderboard", methods=["GET", "HEAD"], include_in_schema=False)
def leaderboard_page(request: Request) -> HTMLResponse:
    return page(request)


@router.api_route("/admin", methods=["GET", "HEAD"], include_in_schema=False)
def admin_page(request: Request) -> HTMLResponse:
    """The admins' page (its data is refused to anyone else)."""
    return page(request)


@functools.cache
def _catalogue(lang: str) -> tuple[str, str]:
    """A language's words as the page is sent them (its own: :mod:`..http.page_words`), and their
    entity tag (their hash)."""
    text = page_catalogue_text(lang, STATIC)
    return text, '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


@router.get("/i18n/{lang}.json", include_in_schema=False)
def catalogue_file(lang: str, request: Request) -> Response:
    """The page's words in one language (its part of the catalogue the server speaks). The browser
    keeps it and asks whether it changed (its entity tag): 304, no body, when it did not."""
    if lang not in LANGS:
        raise HTTPException(404, t("err.web.no_language", "en", lang=repr(lang)))
    text, tag = _catalogue(lang)
    headers = {"Cache-Control": "no-cache", "ETag": tag}
    if tag in request.headers.get("if-none-match", "").replace("W/", "").split(", "):
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="application/json", headers=headers)
