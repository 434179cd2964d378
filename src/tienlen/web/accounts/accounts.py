"""Accounts: a guest claims its name with a password; any browser signs in by them.

What each act checks and writes, without HTTP (``routes/accounts.py`` is the API):

- **claim**: a guest (or a browser not known yet: it becomes one now) takes a name no account
  has, nor one that looks like it (``names.confusable_key``: "Lan", "LAN", "Lаn" with a
  Cyrillic а and "Ian" are one look; "Lân" and "Lăn" are other names), and no bot's. It is
  given :data:`~.passwords.CODES` recovery codes, shown once. The identity stays the same, so
  its seats, hands and ratings follow it.
- **sign in** answers an unknown name and a wrong password alike (the same status, the same
  words, one argon2 check either way). Guessing is throttled, never locked (OWASP: a lockout
  must not be a way to shut the owner out). A try from a browser that has signed in to that
  account before is counted by that browser alone: every sign-in (claim, recovery) gives the
  browser a secret of its own for that account (``session.KNOWN``, made in that answer, so a
  value planted in the browser is never trusted), which the account remembers
  (``IdentityStore.know_device``); a browser known to one account is a stranger to others.
  Any other try is counted per name and address (a few), per name from everywhere
  (:data:`NAME_CEILING` times more: distributed guessing is slowed too) and per address
  (many, for every name: many players share one address). So strangers' guesses, however
  many, never refuse the owner's own browser. A right recovery code is never
  refused (a wrong one is counted as a try): its 80 random bits are its guard. A signed-in
  session's own password check (a new password, new codes, deleting) is counted by that
  session alone.
- Every sign-in (and a claim, a recovery) gives the browser a **new** session secret, the old
  session gone: a secret planted in a browser before (session fixation) signs nobody in after.
- Sessions are shown by a public id, the first 16 hex digits of a SHA-256 of the stored digest:
  nothing of the stored digest (nor of the secret) can be read from it, and ending one is
  done only among the account's own sessions, so guessing another's id gains nothing.
- Each act is a coroutine: the argon2 work runs in the hashing threads (``passwords.py``), the
  database's in a thread (``asyncio.to_thread``), never on the event loop, where every table
  lives.
- **delete**: the row stays, called "deleted player", with every secret and its name's keys
  gone (the name is free again); the record of each finished hand it played names its seat
  "deleted player".
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import Game, TienLenError
from ...i18n import msg, t
from ...tomltext import TOMLDecodeError
from ...tomltext import loads as toml_loads
from ...tomlwrite import value
from ..limits import Bucket, Counting, InMemory, Limits, wait_text
from ..refusal import Refused
from .identity import Claim, Identity, IdentityStore, SessionInfo, new_id
from .names import BadName, account_key, bot_number, clean_name, confusable_key
from .passwords import code_digest, hash_password, needs_rehash, new_codes, verify_password
from .session import digest, new_secret, stored_as

TRIES_EVERY = 600.0  # seconds the sign-in limits (Limits.signins_per_name, _per_address) count
NAME_CEILING = 10  # a name's tries from everywhere, as many times its tries from one place

Counted = tuple[Bucket, str, str]  # a limit, the key it counts, the words of its refusal


def me_of(identity: Identity | None) -> dict[str, Any]:
    """``GET /api/me``: who this browser is (id and name None: nobody yet)."""
    if identity is None:
        return {"id": None, "name": None, "account": False, "role": "player", "profile": None}
    return {"id": identity.id, "name": identity.name, "account": identity.account,
            "role": identity.role, "profile": f"/p/{identity.name}" if identity.account else None}


def public_id(info: SessionInfo) -> str:
    """A session as its account's page names it (see the module's docstring)."""
    return hashlib.sha256(b"session:" + info.digest.encode()).hexdigest()[:16]


def deleted_name() -> str:
    """What a deleted account is called, in its row and in its hands' records."""
    return t("web.account.deleted_name", "en")


def renamed_record(text: str, seat: int, name: str) -> str:
    """The one-hand record ``text`` with ``seat`` called ``name``: the hand replayed and
    written again by the record module, its names changed. Only the ``players`` line may
    differ from ``text``: a record that does not load, or would be written otherwise (an
    older writer's), has that line alone rewritten."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("players = ")), None)
    if at is None:
        return text
    try:
        names = [str(n) for n in toml_loads(lines[at])["players"]]
        names[seat] = name
    except (TOMLDecodeError, IndexError, KeyError, TypeError):
        return text
    lines[at] = f"players = {value(names)}"
    edited = "\n".join(lines)
    try:
        game = Game.from_record(text)
    except TienLenError:
        return edited
    game.names = tuple(names)
    written = game.record()
    return written if written == edited else edited


@dataclass(frozen=True)
class SignedIn:
    """An identity, and the secret of the session that now signs this browser in."""

    identity: Identity
    secret: str
    codes: list[str]  # recovery codes shown now (after a claim), else none
    known: str | None = None  # the browser's new secret for this account (session.KNOWN)


class Accounts:
    """The acts on accounts, over an :class:`~.identity.IdentityStore`; tries counted by
    ``counting`` (default: in this process's memory, by ``clock``)."""

    def __init__(self, store: IdentityStore, clock: Callable[[], float],
                 limits: Limits | None = None, counting: Counting | None = None) -> None:
        self.store = store
        limits = limits or Limits()
        self.counting = counting or InMemory(clock)
        rate, made = limits.signins_per_name, self.counting.bucket
        # a name's tries from one place: an address, or a browser that signed in to it before
        self.per_place = made("signin.place", rate, TRIES_EVERY)
        self.per_name = made("signin.name", rate * NAME_CEILING, TRIES_EVERY)  # from everywhere
        self.per_address = made("signin.address", limits.signins_per_address, TRIES_EVERY)
        self.per_session = made("signin.session", rate, TRIES_EVERY)  # a session's own

    # ------------------------------------------------------------------ checks
    def free_name(self, raw: str) -> tuple[str, str, str]:
        """``raw`` as an account's name, its key and its look; :class:`Refused` when it is not
        a good name, is a bot's, or an account has it or one like it."""
        try:
            name = clean_name(raw)
        except BadName as exc:
            raise Refused(exc.reason, status=422) from None
        if bot_number(name) is not None:
            raise Refused(msg("err.web.account_bot_name", name=repr(name)))
        key, look = account_key(name), confusable_key(name)
        other = self.store.name_conflict(key, look)
        if other is not None:
            words = "err.web.account_taken" if account_key(other.name) == key else \
                "err.web.account_look_alike"
            raise Refused(msg(words, name=repr(name), other=repr(other.name)))
        return name, key, look

    def tries(self, key: str, address: str, known: str | None,
              account: Identity | None) -> list[Counted]:
        """What counts a sign-in or recovery try at the name of ``key`` (the account of that
        name, None: none) from ``address`` and the browser ``known`` (``session.known_of``):
        the browser alone when it has signed in to that account before, else the name from
        this address, the name from everywhere and the address."""
        if known is not None and self.store.knows_device(
                account.id if account is not None else "", known):  # asked alike for no account
            return [(self.per_place, f"{key}\nb:{known}", "err.web.account_tries")]
        return [(self.per_place, f"{key}\na:{address}", "err.web.account_tries"),
                (self.per_name, key, "err.web.account_tries_all"),
                (self.per_address, address, "err.web.account_tries_address")]

    def count(self, buckets: list[Counted]) -> None:
        """One more try in each of ``buckets``, all or none: a :class:`Refused` (429) from the
        first that has had its tries, and then none of them is spent (an owner refused while
        strangers exhaust the name spends nothing of her own)."""
        refused = self.counting.take_all([(bucket, counted) for bucket, counted, _ in buckets])
        if refused is not None:
            which, wait = refused
            bucket, _, words = buckets[which]
            raise Refused.too_many(msg(words, n=bucket.rate, minutes=round(TRIES_EVERY / 60),
                                   wait=wait_text(wait)), retry_after=wait)

    async def check_password(self, identity: Identity | None, password: str,
                             this: str | None) -> Identity:
        """The account ``identity`` when ``password`` is its password, else a
        :class:`Refused`; tries counted by the session ``this`` alone (strangers' guesses at
        the name never refuse it)."""
        if identity is None:
            raise Refused(msg("err.web.account_signed_out"), status=401)
        if not identity.account:
            raise Refused(msg("err.web.account_guest"), status=403)
        self.count([(self.per_session, this or identity.id, "err.web.account_tries_session")])
        stored = await asyncio.to_thread(self.store.password_hash, identity.id)
        if not await verify_password(stored, password):
            raise Refused(msg("err.web.account_password"), status=403)
        return identity

    # ------------------------------------------------------------------ the acts
    async def claim(self, identity: Identity | None, name: str, password: str,
                    old: str | None, agent: str, known: str | None = None) -> SignedIn:
        """``identity`` (None: a browser not known yet) claims ``name`` with ``password``,
        signed in by a new session instead of ``old``."""
        if identity is not None and identity.account:
            raise Refused(msg("err.web.account_already", name=repr(identity.name)))
        name, key, look = await asyncio.to_thread(self.free_name, name)
        hashed = await hash_password(password)
        codes = new_codes()
        secret = new_secret()
        claim = Claim(identity.id if identity else new_id(), name, key, look, hashed,
                      [code_digest(c) for c in codes], digest(secret), old, agent,
                      new=identity is None)
        return await asyncio.to_thread(self._claimed, claim, secret, codes, known)

    def _claimed(self, claim: Claim, secret: str, codes: list[str],
                 known: str | None) -> SignedIn:
        """(In a thread.) Store ``claim``: the account signed in, or refused when its name
        was taken meanwhile."""
        if not self.store.claim(claim):
            raise Refused(msg("err.web.account_taken", name=repr(claim.name),
                              other=repr(claim.name)))
        claimed = self.store.get(claim.identity)
        assert claimed is not None
        return SignedIn(claimed, secret, codes, self.remember(claimed.id, known))

    async def signin(self, name: str, password: str, address: str, old: str | None,
                     agent: str, known: str | None = None) -> SignedIn:
        """Sign in as the account ``name`` by ``password``: a new session instead of ``old``
        (tries counted by :meth:`tries`)."""
        key = account_key(" ".join(name.split()))
        found = await asyncio.to_thread(self.store.account_hash, key)
        self.count(await asyncio.to_thread(self.tries, key, address, known,
                                           found[0] if found else None))
        stored = found[1] if found is not None else None
        if not await verify_password(stored, password) or found is None:
            raise Refused(msg("err.web.account_wrong"), status=401)
        identity = found[0]
        if needs_rehash(found[1]):
            await asyncio.to_thread(self.store.set_password, identity.id,
                                    await hash_password(password), old)
        return await asyncio.to_thread(self.switched, identity, old, agent, known)

    async def recover(self, name: str, code: str, new_password: str, address: str,
                      old: str | None, agent: str, known: str | None = None) -> SignedIn:
        """A recovery code of the account ``name`` sets its password ``new_password``: the code
        used up, every other session ended, this browser signed in. A right code is never
        refused by anyone's tries; a wrong one is counted as a sign-in try is."""
        key = account_key(" ".join(name.split()))
        found = await asyncio.to_thread(self.store.account_hash, key)
        if found is None or not await asyncio.to_thread(self.store.use_code, found[0].id,
                                                         code_digest(code)):
            self.count(await asyncio.to_thread(self.tries, key, address, known,
                                               found[0] if found else None))
            raise Refused(msg("err.web.account_code"), status=401)
        identity = found[0]
        await asyncio.to_thread(self.store.set_password, identity.id,
                                await hash_password(new_password), None)
        return await asyncio.to_thread(self.switched, identity, old, agent, known)

    def switched(self, identity: Identity, old: str | None, agent: str,
                 known: str | None) -> SignedIn:
        """``identity`` signed in by a new secret instead of ``old``, its browser known to it
        (:meth:`remember`)."""
        secret = new_secret()
        self.store.switch_session(identity.id, old, digest(secret), agent)
        return SignedIn(identity, secret, [], self.remember(identity.id, known))

    def remember(self, identity_id: str, known: str | None) -> str | None:
        """The account ``identity_id`` knows the browser that has just signed in to it (whose
        ``session.KNOWN`` cookie is stored as ``known``): the browser's new secret for it, to
        give; None when the account knew it already (its secret was made for this account)."""
        if known is not None and self.store.knows_device(identity_id, known):
            self.store.know_device(identity_id, known)  # when it last signed in
            return None
        value = new_secret()
        self.store.know_device(identity_id, stored_as(value))
        return value

    async def change_password(self, identity: Identity | None, password: str,
                              new_password: str, this: str | None) -> int:
        """A new password (the old one first); every other session ends (how many did)."""
        account = await self.check_password(identity, password, this)
        hashed = await hash_password(new_password)
        return await asyncio.to_thread(self.store.set_password, account.id, hashed, this)

    async def renew_codes(self, identity: Identity | None, password: str,
                          this: str | None) -> list[str]:
        """New recovery codes (the password first), the old ones no longer good."""
        account = await self.check_password(identity, password, this)
        codes = new_codes()
        await asyncio.to_thread(self.store.set_codes, account.id, [code_digest(c) for c in codes])
        return codes

    async def delete(self, identity: Identity | None, password: str, this: str | None) -> None:
        """Delete the account (the password first)."""
        account = await self.check_password(identity, password, this)
        await asyncio.to_thread(self.store.delete_account, account.id, deleted_name(),
                                renamed_record)

    def sessions(self, identity: Identity, this: str | None) -> list[dict[str, Any]]:
        return [{"id": public_id(s), "created": s.created, "seen": s.seen, "agent": s.agent,
                 "this": s.digest == this} for s in self.store.sessions(identity.id)]

    def end_session(self, identity: Identity, session_id: str) -> str:
        """End ``identity``'s session of public id ``session_id`` (404 when it has none);
        returns its digest."""
        for info in self.store.sessions(identity.id):
            if secrets.compare_digest(public_id(info), session_id):
                self.store.drop_session(info.digest)
                return info.digest
        raise Refused(msg("err.web.account_no_session", id=repr(session_id[:20])), status=404)
