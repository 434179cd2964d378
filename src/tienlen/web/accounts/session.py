"""The session cookie: a browser's secret, and the identity it signs in.

The page's answer to a browser whose cookie signs nobody in gives it a new one: 43 random
URL-safe characters, HttpOnly (the page's scripts never read it), SameSite=Lax (another site's
forms and scripts do not send it), Secure when the page came over HTTPS. The server keeps only
its SHA-256 (``identity.SessionRow``), and only once the browser becomes someone.

Only secrets the server made are sessions (session fixation: someone who planted a cookie value
in another's browser must not be signed in as whoever that browser becomes). So a value the
server does not know is never adopted: becoming a guest (:func:`seated_as`: sitting down,
making a table, quick match), like claiming a name or signing in (``accounts.py``), signs the
browser in by a secret made at that moment and given in that answer: an HTTP answer's
``Set-Cookie`` (:func:`sat_down`), or, for a WebSocket, its handshake's (:func:`arrival`: a
browser not known yet is given a new secret as it connects, and a guest it becomes on that
connection is signed in by it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

from .identity import MAX_AGENT, Identity, IdentityStore, new_id

COOKIE = "tienlen_sid"
# the browser itself, apart from who is signed in on it (never rotated, signs nothing in): at a
# rated table two identities of one browser (signed in as one, then as another) are refused
DEVICE = "tienlen_dev"
# a browser that signed in to an account: a secret made in the answer to that sign-in (never
# one the browser came with, which may have been planted), remembered by that account alone:
# its tries at that account's password are counted by itself (accounts.py)
KNOWN = "tienlen_known"
MAX_AGE = 400 * 24 * 3600  # seconds a cookie lasts in the browser (the most browsers keep)
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """What the server keeps of a secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_of(conn: HTTPConnection) -> str | None:
    """The session secret ``conn``'s browser sent (None: none, or not one of ours)."""
    secret = conn.cookies.get(COOKIE)
    return secret if secret is not None and _SECRET.fullmatch(secret) else None


def device_of(conn: HTTPConnection) -> str | None:
    """The browser ``conn`` came from, as stored (a hash of its device cookie; None: none)."""
    return _stored(conn, DEVICE)


def known_of(conn: HTTPConnection) -> str | None:
    """The browser ``conn`` came from as the accounts it signed in to know it (a hash of its
    :data:`KNOWN` cookie; None: none)."""
    return _stored(conn, KNOWN)


def stored_as(value: str) -> str:
    """What the server keeps of a device's or a known browser's cookie."""
    return digest(value)[:32]


def _stored(conn: HTTPConnection, name: str) -> str | None:
    value = conn.cookies.get(name)
    return stored_as(value) if value is not None and _SECRET.fullmatch(value) else None


def agent_of(conn: HTTPConnection) -> str:
    return conn.headers.get("user-agent", "")[:MAX_AGENT]


def give_cookie(response: Response, conn: HTTPConnection, secret: str,
                name: str = COOKIE) -> None:
    """Set the session cookie (or the cookie ``name``) to ``secret`` on ``response``."""
    response.set_cookie(name, secret, max_age=MAX_AGE, path="/", httponly=True,
                        samesite="lax", secure=conn.url.scheme in ("https", "wss"))


def give_device(response: Response, conn: HTTPConnection) -> None:
    """Give ``conn``'s browser its device cookie if it has none."""
    if device_of(conn) is None:
        give_cookie(response, conn, new_secret(), DEVICE)


def clear_cookie(response: Response, conn: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=conn.url.scheme in ("https", "wss"))


def identity_of(conn: HTTPConnection, store: IdentityStore) -> Identity | None:
    """The identity ``conn``'s session cookie signs in (None: a new browser, or signed out)."""
    secret = secret_of(conn)
    return None if secret is None else store.by_session(digest(secret))


def owner_for(conn: HTTPConnection, identity: Identity | None) -> str | None:
    """Whose a seat taken by ``conn`` is: its identity's, or, for a browser not known yet, a new
    guest's id (the guest is stored once the seat is, by :func:`seated_as`). None: no cookie
    of ours (a script: it holds its seats by their tokens)."""
    if identity is not None:
        return identity.id
    return new_id() if secret_of(conn) is not None else None


def seated_as(conn: HTTPConnection, store: IdentityStore, identity: Identity | None,
              owner: str, name: str, secret: str) -> Identity:
    """``conn``'s browser took a seat for ``owner`` (from :func:`owner_for`) under ``name``: a
    browser not known yet becomes the guest ``owner`` called ``name``, signed in by ``secret``,
    which the server has just made and given to this browser (never by the secret it sent: that
    may have been planted); a guest is shown by ``name`` from now on (an account's name stays)."""
    if identity is None:
        return store.new_guest(name, digest(secret), agent_of(conn), identity_id=owner)
    if identity.guest and identity.name != name:
        store.rename_guest(identity.id, name)
        return dataclasses.replace(identity, name=name)
    return identity


def sat_down(conn: HTTPConnection, response: Response, store: IdentityStore,
             identity: Identity | None, owner: str, name: str) -> Identity:
    """:func:`seated_as` for an HTTP request: a browser not known yet is given its new secret
    on ``response``."""
    secret = new_secret()
    seated = seated_as(conn, store, identity, owner, name, secret)
    if identity is None:
        give_cookie(response, conn, secret)
    return seated


@dataclasses.dataclass(frozen=True)
class Arrival:
    """Who a WebSocket connection is, as it is accepted."""

    identity: Identity | None  # signed in by the cookie (None: nobody yet)
    # the secret a guest made on this connection is signed in by: a new one when the browser
    # sent a cookie that signs nobody in (None: it sent none, a script)
    secret: str | None
    headers: list[tuple[bytes, bytes]]  # the handshake's Set-Cookie giving that new secret


def arrival(conn: HTTPConnection, store: IdentityStore) -> Arrival:
    """Who ``conn`` (a WebSocket, before it is accepted) is; a browser not known yet is given
    a new secret by the handshake's answer (:class:`Arrival`)."""
    identity = identity_of(conn, store)
    if identity is not None or secret_of(conn) is None:
        return Arrival(identity, secret_of(conn), [])
    secret = new_secret()
    carrier = Response()
    give_cookie(carrier, conn, secret)
    return Arrival(None, secret, [(k, v) for k, v in carrier.raw_headers if k == b"set-cookie"])
