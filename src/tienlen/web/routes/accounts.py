"""The account API: who this browser is, claiming a name, signing in and out, the sessions, the
password, recovery codes, deleting the account (the rules of each: ``accounts.py``).

The acts that end sessions close their connections to the live tables (``Lobby.end_sessions``)
and so run on the event loop (``async``): their database work is done in threads, by
``accounts.py`` and here (:func:`identity`). The others only read or write the database: plain
``def`` handlers, in FastAPI's thread pool."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ...i18n import msg
from ..accounts.accounts import Accounts, SignedIn, deleted_name, me_of
from ..accounts.identity import Identity
from ..accounts.names import MAX_NAME, RAW_FACTOR
from ..accounts.passwords import MAX_CODE, MAX_PASSWORD, MIN_PASSWORD
from ..accounts.session import (
    KNOWN,
    agent_of,
    clear_cookie,
    digest,
    give_cookie,
    identity_of,
    known_of,
    secret_of,
)
from ..http.problems import answers
from ..refusal import Refused
from ..services import Services, Svc, address_of, services_of

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


def this_session(request: Request) -> str | None:
    """The stored digest of this browser's session (None: no cookie of ours)."""
    secret = secret_of(request)
    return None if secret is None else digest(secret)


def signed_in(request: Request, response: Response, done: SignedIn) -> dict[str, Any]:
    """The answer that signs this browser in by ``done``'s new secret; the connections of its
    old session close (its pages connect again, as the identity signed in now)."""
    old = this_session(request)
    if old is not None:
        services_of(request).end_sessions(session=old)
    give_cookie(response, request, done.secret)
    if done.known is not None:  # this browser's secret for the account (accounts.py)
        give_cookie(response, request, done.known, KNOWN)
    return {"me": me_of(done.identity)}


def someone(request: Request, svc: Services) -> Identity:
    """The identity this browser is signed in as, else 401."""
    me = identity_of(request, svc.identities)
    if me is None:
        raise Refused(msg("err.web.account_signed_out"), status=401)
    return me


async def identity(request: Request, svc: Services) -> Identity | None:
    """(From the event loop.) The identity this browser is signed in as, read in a thread."""
    return await run_in_threadpool(identity_of, request, svc.identities)


@router.get("/api/me")
def me(request: Request, svc: Svc) -> dict[str, Any]:
    """Who this browser is: an account, a guest, or nobody yet (id and name null)."""
    return me_of(identity_of(request, svc.identities))


@router.post("/api/account/claim", responses=answers(400, 403, 413, 422))
async def claim(body: NewAccount, request: Request, response: Response, svc: Svc,
                accounts: Acc) -> dict[str, Any]:
    """This browser's guest (or a new one) becomes the account ``name``: a new session cookie,
    and the recovery codes, shown this once."""
    done = await accounts.claim(await identity(request, svc), body.name,
                                body.password, this_session(request), agent_of(request),
                                known_of(request))
    return {**signed_in(request, response, done), "recovery_codes": done.codes}


@router.post("/api/account/signin", responses=answers(400, 401, 403, 413, 422, 429))
async def signin(body: SignIn, request: Request, response: Response, accounts: Acc) -> dict[str, Any]:
    """Sign this browser in as an account (a new session cookie; the old session ends)."""
    done = await accounts.signin(body.name, body.password, address_of(request),
                                 this_session(request), agent_of(request),
                                 known_of(request))
    return signed_in(request, response, done)


@router.post("/api/account/recover", responses=answers(400, 401, 403, 413, 422, 429))
async def recover(body: Recover, request: Request, response: Response,
                  accounts: Acc) -> dict[str, Any]:
    """A recovery code sets a new password (the code used up) and signs this browser in."""
    done = await accounts.recover(body.name, body.code, body.new_password,
                                  address_of(request), this_session(request),
                                  agent_of(request), known_of(request))
    return signed_in(request, response, done)


@router.post("/api/account/signout", responses=answers(403))
async def signout(request: Request, response: Response, svc: Svc) -> dict[str, Any]:
    """Sign this browser out: its session ends, its cookie is cleared."""
    this = this_session(request)
    if this is not None:
        await run_in_threadpool(svc.identities.drop_session, this)
        svc.end_sessions(session=this)
    clear_cookie(response, request)
    return {"me": me_of(None)}


@router.post("/api/account/signout-others", responses=answers(401, 403))
async def signout_others(request: Request, svc: Svc) -> dict[str, Any]:
    """End every session of this identity but this browser's."""
    me = await run_in_threadpool(someone, request, svc)
    ended = await run_in_threadpool(svc.identities.drop_sessions, me.id, this_session(request))
    svc.end_sessions(me.id, keep=this_session(request))
    return {"ended": ended}


@router.get("/api/account/sessions", responses=answers(401))
def sessions(request: Request, svc: Svc, accounts: Acc) -> list[dict[str, Any]]:
    """The browsers signed in as this identity, the last seen first (this one marked)."""
    return accounts.sessions(someone(request, svc), this_session(request))


@router.post("/api/account/sessions/{session_id}/end", responses=answers(401, 403, 404, 422))
async def end_session(session_id: SessionId, request: Request, svc: Svc,
                      accounts: Acc) -> dict[str, Any]:
    """End one session of this identity (its id from the list)."""
    me = await run_in_threadpool(someone, request, svc)
    ended = await run_in_threadpool(accounts.end_session, me, session_id)
    svc.end_sessions(session=ended)
    return {"ended": 1}


@router.post("/api/account/password", responses=answers(400, 401, 403, 413, 422, 429))
async def password(body: NewPasswordBody, request: Request, svc: Svc,
                   accounts: Acc) -> dict[str, Any]:
    """A new password (the old one first): every other session ends."""
    me = await identity(request, svc)
    ended = await accounts.change_password(me, body.password, body.new_password,
                                           this_session(request))
    if me is not None:
        svc.end_sessions(me.id, keep=this_session(request))
    return {"ended": ended}


@router.post("/api/account/codes", responses=answers(400, 401, 403, 413, 422, 429))
async def codes(body: PasswordBody, request: Request, svc: Svc, accounts: Acc) -> dict[str, Any]:
    """New recovery codes (the password first), shown this once; the old ones are void."""
    fresh = await accounts.renew_codes(await identity(request, svc), body.password,
                                       this_session(request))
    return {"recovery_codes": fresh}


@router.post("/api/account/delete", responses=answers(400, 401, 403, 413, 422, 429))
async def delete(body: PasswordBody, request: Request, response: Response, svc: Svc,
                 accounts: Acc) -> dict[str, Any]:
    """Delete the account (the password first): its name is free, its hands' records say
    "deleted player", this browser is signed out."""
    me = await identity(request, svc)
    await accounts.delete(me, body.password, this_session(request))
    if me is not None:
        svc.end_sessions(me.id)
        svc.forget_identity(me.id, deleted_name())  # off every open table, and the queue
        await run_in_threadpool(svc.queue.cancel, me.id)
    clear_cookie(response, request)
    return {"me": me_of(None)}
