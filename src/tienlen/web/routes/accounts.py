"""The account API: who this browser is, claiming a name, signing in and out, the sessions, the
password, recovery codes, deleting the account (the rules of each: ``accounts.py``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from ...i18n import t
from ..accounts import Accounts, SignedIn, deleted_name, me_of
from ..identity import Identity
from ..names import MAX_NAME, RAW_FACTOR
from ..passwords import MAX_CODE, MAX_PASSWORD, MIN_PASSWORD
from ..problems import Refusal, answers, request_lang
from ..services import Services, Svc, address_of, services_of
from ..session import (
    KNOWN,
    agent_of,
    clear_cookie,
    digest,
    give_cookie,
    identity_of,
    known_of,
    secret_of,
)

router = APIRouter()

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME * RAW_FACTOR)]
NewPassword = Annotated[str, Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]
Password = Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]
SessionId = Annotated[str, PathParam(min_length=1, max_length=64)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewAccount(_Body):
    name: Name
    password: NewPassword


class SignIn(_Body):
    name: Name
    password: Password


class Recover(_Body):
    name: Name
    code: str = Field(min_length=1, max_length=MAX_CODE)
    new_password: NewPassword


class NewPasswordBody(_Body):
    password: Password
    new_password: NewPassword


class PasswordBody(_Body):
    password: Password


def accounts_of(conn: HTTPConnection) -> Accounts:
    accounts: Accounts = conn.app.state.accounts
    return accounts


Acc = Annotated[Accounts, Depends(accounts_of)]


@contextlib.contextmanager
def answered(request: Request) -> Iterator[None]:
    """A :class:`~..accounts.Refusal` as the problem it is, in the request's language."""
    try:
        yield
    except Refusal as exc:
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
        raise HTTPException(exc.status, exc.say(request_lang(request)), headers=headers) from None


def this_session(request: Request) -> str | None:
    """The stored digest of this browser's session (None: no cookie of ours)."""
    secret = secret_of(request)
    return None if secret is None else digest(secret)


def signed_in(request: Request, response: Response, done: SignedIn) -> dict[str, Any]:
    """The answer that signs this browser in by ``done``'s new secret; the connections of its
    old session close (its pages connect again, as the identity signed in now)."""
    old = this_session(request)
    if old is not None:
        services_of(request).lobby.end_sessions(session=old)
    give_cookie(response, request, done.secret)
    if done.known is not None:  # this browser's secret for the account (accounts.py)
        give_cookie(response, request, done.known, KNOWN)
    return {"me": me_of(done.identity)}


def someone(request: Request, svc: Services) -> Identity:
    """The identity this browser is signed in as, else 401."""
    me = identity_of(request, svc.identities)
    if me is None:
        raise HTTPException(401, t("err.web.account_signed_out", request_lang(request)))
    return me


@router.get("/api/me")
async def me(request: Request, svc: Svc) -> dict[str, Any]:
    """Who this browser is: an account, a guest, or nobody yet (id and name null)."""
    return me_of(identity_of(request, svc.identities))


@router.post("/api/account/claim", responses=answers(400, 403, 413, 422))
async def claim(body: NewAccount, request: Request, response: Response, svc: Svc,
                accounts: Acc) -> dict[str, Any]:
    """This browser's guest (or a new one) becomes the account ``name``: a new session cookie,
    and the recovery codes, shown this once."""
    with answered(request):
        done = await accounts.claim(identity_of(request, svc.identities), body.name,
                                    body.password, this_session(request), agent_of(request),
                                    known_of(request))
    return {**signed_in(request, response, done), "recovery_codes": done.codes}


@router.post("/api/account/signin", responses=answers(400, 401, 403, 413, 422, 429))
async def signin(body: SignIn, request: Request, response: Response, accounts: Acc) -> dict[str, Any]:
    """Sign this browser in as an account (a new session cookie; the old session ends)."""
    with answered(request):
        done = await accounts.signin(body.name, body.password, address_of(request),
                                     this_session(request), agent_of(request),
                                     known_of(request))
    return signed_in(request, response, done)


@router.post("/api/account/recover", responses=answers(400, 401, 403, 413, 422, 429))
async def recover(body: Recover, request: Request, response: Response,
                  accounts: Acc) -> dict[str, Any]:
    """A recovery code sets a new password (the code used up) and signs this browser in."""
    with answered(request):
        done = await accounts.recover(body.name, body.code, body.new_password,
                                      address_of(request), this_session(request),
                                      agent_of(request), known_of(request))
    return signed_in(request, response, done)


@router.post("/api/account/signout", responses=answers(403))
async def signout(request: Request, response: Response, svc: Svc) -> dict[str, Any]:
    """Sign this browser out: its session ends, its cookie is cleared."""
    this = this_session(request)
    if this is not None:
        svc.identities.drop_session(this)
        svc.lobby.end_sessions(session=this)
    clear_cookie(response, request)
    return {"me": me_of(None)}


@router.post("/api/account/signout-others", responses=answers(401, 403))
async def signout_others(request: Request, svc: Svc) -> dict[str, Any]:
    """End every session of this identity but this browser's."""
    me = someone(request, svc)
    ended = svc.identities.drop_sessions(me.id, keep=this_session(request))
    svc.lobby.end_sessions(me.id, keep=this_session(request))
    return {"ended": ended}


@router.get("/api/account/sessions", responses=answers(401))
async def sessions(request: Request, svc: Svc, accounts: Acc) -> list[dict[str, Any]]:
    """The browsers signed in as this identity, the last seen first (this one marked)."""
    return accounts.sessions(someone(request, svc), this_session(request))


@router.post("/api/account/sessions/{session_id}/end", responses=answers(401, 403, 404, 422))
async def end_session(session_id: SessionId, request: Request, svc: Svc,
                      accounts: Acc) -> dict[str, Any]:
    """End one session of this identity (its id from the list)."""
    me = someone(request, svc)
    with answered(request):
        svc.lobby.end_sessions(session=accounts.end_session(me, session_id))
    return {"ended": 1}


@router.post("/api/account/password", responses=answers(400, 401, 403, 413, 422, 429))
async def password(body: NewPasswordBody, request: Request, svc: Svc,
                   accounts: Acc) -> dict[str, Any]:
    """A new password (the old one first): every other session ends."""
    me = identity_of(request, svc.identities)
    with answered(request):
        ended = await accounts.change_password(me, body.password, body.new_password,
                                               this_session(request))
    if me is not None:
        svc.lobby.end_sessions(me.id, keep=this_session(request))
    return {"ended": ended}


@router.post("/api/account/codes", responses=answers(400, 401, 403, 413, 422, 429))
async def codes(body: PasswordBody, request: Request, svc: Svc, accounts: Acc) -> dict[str, Any]:
    """New recovery codes (the password first), shown this once; the old ones are void."""
    with answered(request):
        fresh = await accounts.renew_codes(identity_of(request, svc.identities), body.password,
                                           this_session(request))
    return {"recovery_codes": fresh}


@router.post("/api/account/delete", responses=answers(400, 401, 403, 413, 422, 429))
async def delete(body: PasswordBody, request: Request, response: Response, svc: Svc,
                 accounts: Acc) -> dict[str, Any]:
    """Delete the account (the password first): its name is free, its hands' records say
    "deleted player", this browser is signed out."""
    me = identity_of(request, svc.identities)
    with answered(request):
        await accounts.delete(me, body.password, this_session(request))
    if me is not None:
        svc.lobby.end_sessions(me.id)
        svc.lobby.forget_identity(me.id, deleted_name())  # off every open table, and the queue
        svc.queue.cancel(me.id)
    clear_cookie(response, request)
    return {"me": me_of(None)}
