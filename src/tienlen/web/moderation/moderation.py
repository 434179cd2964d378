"""Moderation's rules: what a report holds, who is banned now (cheaply), whom a player blocked
(cheaply), the names an admin may give, the address hashes that bans keep, the handles that
stand for another player in a player's answers, and retention (the command line's grants are
``admin.py``'s).

Bans are read through a cache: the bans in force are loaded at most every
:data:`BAN_CACHE_SECONDS` seconds per process (a ban or a lift made by this process bites at
once; one made by another process within that time). Blocks likewise, per identity: a block or
an unblock made through this process bites at once (the next chat line), one made by another
process within :data:`BLOCKS_CACHE_SECONDS`. Addresses are never stored: a ban keeps an
address's HMAC under the server's key (made once and kept in the database, so the hash is the
same in every process and after a restart).

The caches are reached from the event loop (the tables' chat) and from the route handlers in
FastAPI's thread pool alike: their bookkeeping is done under one lock (never held while the
database is read).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from starlette.requests import HTTPConnection

from ...errors import TienLenError
from ...i18n import Msg, msg
from ..accounts.identity import Identity, IdentityStore
from ..accounts.names import BadName, account_key, bot_number, clean_name, confusable_key
from ..limits import client_key
from ..refusal import Refused
from ..room.chat import ChatStore
from .store import Ban, ModerationStore

REASONS = ("cheating", "abuse", "offensive_name", "stalling", "other")
MAX_REPORT_TEXT = 500  # characters of a report's own words
BAN_CACHE_SECONDS = 5.0  # how long a process trusts the bans it loaded (another process's)
BLOCKS_CACHE_SECONDS = 5.0  # how long it trusts an identity's blocks (another process's)
MAX_BAN_HOURS = 10 * 365 * 24.0
ADDRESSES_KEPT = 100_000  # identities whose last address this process remembers (for bans)
BLOCKS_KEPT = 10_000  # identities whose blocks this process remembers
HANDLE = 24  # characters of a handle (see Moderation.handle)
DAY = 86_400.0
log = logging.getLogger("tienlen.web")


def report_text(raw: str) -> str:
    """A report's own words: NFC, no control characters but line breaks, at most
    :data:`MAX_REPORT_TEXT` characters (the page shows it as text, never as markup)."""
    text = unicodedata.normalize("NFC", raw)
    kept = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch)[0] != "C")
    return kept.strip()[:MAX_REPORT_TEXT]


def check_new_name(identities: IdentityStore, raw: str, identity_id: str) -> tuple[str, str, str]:
    """The name an admin gives ``identity_id``, checked as a claimed name is (visible, not a
    bot's, unique after NFKC and case, not confusable with another account's): (name, key,
    look), or :class:`Refused`."""
    try:
        name = clean_name(raw, "the player's name")
    except BadName as exc:
        raise Refused(exc.reason) from None
    if bot_number(name) is not None:
        raise Refused(msg("err.web.admin.bot_name", name=name))
    key, look = account_key(name), confusable_key(name)
    other = identities.name_conflict(key, look, other_than=identity_id)
    if other is not None:
        raise Refused(msg("err.web.admin.name_taken", name=name, other=other.name), status=409)
    return name, key, look


def until_text(at: float) -> str:
    """When a ban ends, as the page and the refusals say it (UTC)."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


class Moderation:
    """The store, the ban cache, the report limits and the last address of each identity."""

    def __init__(self, store: ModerationStore, identities: IdentityStore,
                 clock: Callable[[], float] = time.time,
                 chat: ChatStore | None = None) -> None:
        self.store = store
        self.chat = chat  # what was said at the tables (chat.py), read with a report, swept
        self.identities = identities
        self.clock = clock
        self._key = store.server_key()
        self._loaded = -BAN_CACHE_SECONDS
        # told when this process bans or lifts (a room of many processes tells them all)
        self.bans_changed: Callable[[], None] = lambda: None
        self._by_identity: dict[str, Ban] = {}
        self._by_address: dict[str, Ban] = {}
        self._addresses: OrderedDict[str, str] = OrderedDict()
        self._blocks: OrderedDict[str, tuple[float, frozenset[str]]] = OrderedDict()
        self._lock = threading.Lock()  # the caches' bookkeeping (loop and threads)

    # ------------------------------------------------------------------ addresses
    def address_key(self, conn: HTTPConnection) -> str:
        """What a ban keeps of ``conn``'s address, and what the limits count it by
        (``services.address_of``): its HMAC under the server's key."""
        return client_key(conn.client.host if conn.client else None, self._key)

    def seen(self, identity_id: str, address: str) -> None:
        """``identity_id`` acted from ``address`` (an admin may ban the address it used last)."""
        with self._lock:
            self._addresses[identity_id] = address
            self._addresses.move_to_end(identity_id)
            if len(self._addresses) > ADDRESSES_KEPT:
                self._addresses.popitem(last=False)

    def last_address(self, identity_id: str) -> str | None:
        return self._addresses.get(identity_id)

    # ------------------------------------------------------------------ handles
    def handle(self, viewer: str, other: str) -> str:
        """What stands for the identity ``other`` in ``viewer``'s answers (friends, blocks):
        the same for the same two, another for every other viewer, and no internal id."""
        return hmac.new(self._key, f"handle\0{viewer}\0{other}".encode(),
                        hashlib.sha256).hexdigest()[:HANDLE]

    # ------------------------------------------------------------------ blocks
    def block(self, blocker: str, blocked: str) -> None:
        """``blocker`` blocks ``blocked``: from the next line said, at every table."""
        self.store.block(blocker, blocked)
        with self._lock:
            self._blocks.pop(blocker, None)

    def unblock(self, blocker: str, handle: str) -> str | None:
        """``blocker`` no longer blocks the player ``handle`` stands for: their name (None:
        ``blocker`` blocked nobody by that handle)."""
        for b in self.store.blocks(blocker):
            if hmac.compare_digest(self.handle(blocker, b.id), handle):
                self.store.unblock(blocker, b.id)
                with self._lock:
                    self._blocks.pop(blocker, None)
                return b.name
        return None

    def blocked_by(self, blocker: str) -> frozenset[str]:
        """The identities ``blocker`` blocked: read again after :data:`BLOCKS_CACHE_SECONDS`,
        or at once after a block or an unblock made here (the database away: those read last)."""
        now = self.clock()
        kept = self._blocks.get(blocker)
        read = kept is None or now - kept[0] >= BLOCKS_CACHE_SECONDS
        if read:
            try:
                kept = (now, frozenset(self.store.blocked_by(blocker)))
            except TienLenError:
                log.exception("the blocks of %s could not be read", blocker)
                kept = (now, kept[1] if kept is not None else frozenset())
        assert kept is not None
        with self._lock:
            if read:
                self._blocks[blocker] = kept
                if len(self._blocks) > BLOCKS_KEPT:
                    self._blocks.popitem(last=False)
            if blocker in self._blocks:
                self._blocks.move_to_end(blocker)
        return kept[1]

    # ------------------------------------------------------------------ bans
    def _fresh(self) -> None:
        now = self.clock()
        if now - self._loaded < BAN_CACHE_SECONDS:
            return
        bans = self.store.bans(now)
        self._by_identity = {b.identity: b for b in reversed(bans) if b.identity is not None}
        self._by_address = {b.address: b for b in reversed(bans) if b.address is not None}
        self._loaded = now

    def forget(self) -> None:
        """Load the bans again at the next check (this process banned or lifted one)."""
        self._loaded = -BAN_CACHE_SECONDS

    def ban_for(self, identity_id: str | None, address: str | None = None) -> Ban | None:
        """The ban that keeps ``identity_id`` (None: a browser not known yet) or ``address``
        (None: the identity's own ban only) out now (None: neither is banned)."""
        self._fresh()
        now = self.clock()
        for ban in (self._by_identity.get(identity_id) if identity_id else None,
                    self._by_address.get(address) if address else None):
            if ban is not None and ban.until > now:
                return ban
        return None

    def banned(self, conn: HTTPConnection, identity: Identity | None) -> Ban | None:
        """The ban on ``conn``'s identity or address (None: none)."""
        return self.ban_for(identity.id if identity is not None else None, self.address_key(conn))

    @staticmethod
    def words(ban: Ban) -> Msg:
        """The refusal a banned player is told (in its language, by the caller)."""
        return msg("err.web.banned", until=until_text(ban.until), reason=ban.reason)

    def ban(self, actor: str, hours: float, reason: str, identity: str | None = None,
            address: str | None = None, target: str = "") -> Ban:
        if not 0 < hours <= MAX_BAN_HOURS:
            raise Refused(msg("err.web.admin.ban_time"))
        made = self.store.ban(actor, self.clock() + hours * 3600.0, reason, identity, address,
                              target)
        self.forget()
        self.bans_changed()
        return made

    def lift(self, ban_id: int, actor: str) -> Ban:
        lifted = self.store.lift(ban_id, actor)
        if lifted is None:
            raise Refused(msg("err.web.admin.no_ban", id=ban_id), status=404)
        self.forget()
        self.bans_changed()
        return lifted

    # ------------------------------------------------------------------ retention
    def sweep(self, keep_reports: float, keep_chat: float = 0.0) -> int:
        """Delete the reports older than ``keep_reports`` days and what was said at the tables
        older than ``keep_chat`` days, by its own store (0: keep them); how many rows."""
        gone = 0
        if keep_reports > 0:
            gone += self.store.forget_reports(self.clock() - keep_reports * DAY)
        if keep_chat > 0 and self.chat is not None:
            gone += self.chat.forget(self.clock() - keep_chat * DAY)
        return gone

