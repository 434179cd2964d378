"""Who may read a table's stored hands: the one check every route that serves a hand (its
record, the whole table's record, its replay, its review, the list of them) goes through, as
a FastAPI dependency (:data:`Readable`, :data:`ReadableHand`, :data:`SharedHand`), and the links
a host makes to share one hand.

A public table's hands are anyone's. A private table's hand is read only by those who sat in
it: an identity that held a seat when the hand was dealt (its ``PlayedRow``: the browser its
session signs in, or a script by the token of a seat that identity holds), a script by the
token of a seat held by its token alone (such a seat is taken before the first deal and held
since: it sat in every hand), an admin the hands that someone reported, and anyone with the
link the host made to share that hand (its record and its replay, nothing else of the table).
Everyone else is answered 404, one answer whether the hand exists or not; a refused request
changes nothing.

The dependencies read the database, so they are plain ``def`` (FastAPI runs them in its thread
pool); an open table's seats are read in the room's directory (``Services.directory``:
whichever process serves the table).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi import Path as PathParam
from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from ...i18n import msg
from ..accounts.identity import Identity
from ..accounts.rows import PlayedRow
from ..accounts.session import identity_of
from ..lobby.directory import TableFacts
from ..moderation.rows import ReportRow
from ..records.rows import ShareRow
from ..refusal import Refused
from ..services import MAX_TABLE_ID, Services, Svc, TableId
from ..storage import hash_token, transaction
from ..tablelog.rows import TableRow

MAX_HAND_NO = 2**31 - 1  # hand numbers in URLs
HandNo = Annotated[int, PathParam(ge=1, le=MAX_HAND_NO)]
SeatToken = Annotated[str | None, Header(alias="X-Tienlen-Seat", max_length=200)]
ShareSecret = Annotated[str, PathParam(min_length=1, max_length=64)]


@dataclass(frozen=True)
class Access:
    """What one request may read of one table's hands."""

    table_id: str
    private: bool
    seats: Mapping[int, int] = field(default_factory=dict)  # the hands it sat in: its seat
    token_seat: int | None = None  # the seat its X-Tienlen-Seat token holds at the open table
    seated: bool = False  # it holds a seat at the open table now
    every: bool = False  # every hand (a public table's, or a seat held by its token alone)
    also: frozenset[int] = frozenset()  # hands read without a seat in them (reported, shared)
    shared: bool = False  # by a share link: its hand's record and replay only

    def may(self, hand_no: int) -> bool:
        return self.every or hand_no in self.seats or hand_no in self.also

    def seat_in(self, hand_no: int) -> int | None:
        """The reader's seat in the hand (None: it held none, or it is not known)."""
        seat = self.seats.get(hand_no)
        return seat if seat is not None else self.token_seat

    @property
    def at_table(self) -> bool:
        """Whether it sat (or sits) at the table: the list of the hands it may read is its."""
        return not self.shared and (self.every or self.seated or bool(self.seats or self.also))

    def refused(self) -> Refused:
        """The answer to a hand it may not read (404: as if there were none; a share link's
        names no table)."""
        if self.shared:
            return Refused(msg("err.web.share_unknown"), status=404)
        return Refused(msg("err.web.hand_private", id=repr(self.table_id)), status=404)

    def hands(self, svc: Services) -> list[tuple[int, float]]:
        """The table's finished hands it may read (number, when finished), in order."""
        return [(n, at) for n, at in svc.repo.records(self.table_id) if self.may(n)]


@dataclass(frozen=True)
class Hand:
    """A finished hand a request may read: the access it came by, its number, its record."""

    access: Access
    number: int
    text: str


def _private(svc: Services, table_id: str, table: TableFacts | None) -> bool | None:
    """Whether the table is private (None: no such table, open or closed)."""
    if table is not None:
        return table.private
    with svc.repo.engine.connect() as conn:
        private = conn.execute(select(TableRow.private).where(TableRow.id == table_id)).first()
    return None if private is None else bool(private[0])


def _sat_in(svc: Services, table_id: str, readers: set[str]) -> dict[int, int]:
    """The hands of the table that ``readers`` (identities) held a seat in: each one's seat."""
    if not readers:
        return {}
    p = PlayedRow
    with svc.repo.engine.connect() as conn:
        rows = conn.execute(select(p.hand_no, p.seat).where(p.identity.in_(sorted(readers)),
                                                            p.table_id == table_id)).all()
    return {n: seat for n, seat in sorted(rows, reverse=True)}  # the lowest seat wins


def _reported(svc: Services, table_id: str) -> frozenset[int]:
    """The table's hands that a report names (an admin reads them)."""
    r = ReportRow
    with svc.repo.engine.connect() as conn:
        rows = conn.scalars(select(r.hand_no).where(r.table_id == table_id,
                                                    r.hand_no.is_not(None))).all()
    return frozenset(n for n in rows if n is not None)


Seen = tuple[int | None, str | None, bool]  # a token's seat, its owner, the asker seated


def _seats(table: TableFacts, token: str | None, me: Identity | None) -> Seen:
    """The seat ``token`` holds at the open table, that seat's owner, and whether ``me`` holds
    a seat there."""
    token_seat = table.seat_of(token) if token else None
    owner = table.seats[token_seat].owner if token_seat is not None else None
    return token_seat, owner, me is not None and table.seat_owned(me.id) is not None


def table_access(table_id: TableId, request: Request, svc: Svc,
                 token: SeatToken = None) -> Access:
    """What the asker may read of the table's hands (a dependency, in the thread pool; the
    seats of an open table are read in the directory); an unknown table is 404."""
    table = svc.directory.get(table_id)
    private = _private(svc, table_id, table)
    if private is None:
        raise Refused(msg("err.web.no_table", id=repr(table_id)), status=404)
    me = identity_of(request, svc.identities)
    readers = {me.id} if me is not None else set()
    token_seat, owner, seated = _seats(table, token, me) if table is not None \
        else (None, None, False)
    every = not private
    if token_seat is not None:
        seated = True
        if owner is None:
            every = True
        else:
            readers.add(owner)
    also = _reported(svc, table_id) if private and _admin(me) else frozenset()
    return Access(table_id, private, _sat_in(svc, table_id, readers), token_seat, seated,
                  every, also)


def _admin(me: Identity | None) -> bool:
    return me is not None and me.role == "admin"


def open_hand(svc: Services, access: Access, hand_no: int) -> Hand:
    """The hand ``hand_no`` as ``access`` may read it, else the refusal (404)."""
    if not access.may(hand_no):
        raise access.refused()
    text = svc.repo.record(access.table_id, hand_no)
    if text is None:
        raise access.refused() if access.private else Refused(
            msg("err.web.no_hand", id=repr(access.table_id), n=hand_no), status=404)
    return Hand(access, hand_no, text)


Readable = Annotated[Access, Depends(table_access)]


def readable_hand(access: Readable, hand_no: HandNo, svc: Svc) -> Hand:
    """The hand of the path (``/api/tables/{table_id}/records/{hand_no}…``), if the asker may
    read it (a dependency)."""
    return open_hand(svc, access, hand_no)


ReadableHand = Annotated[Hand, Depends(readable_hand)]


def page_hand(table_id: str, hand_no: str, request: Request, svc: Svc) -> Hand | None:
    """(For the page that replays a hand, ``/replay/{table_id}/{hand_no}``: the page answers 404
    where the API would.) The hand, if the asker's browser may read it; else None."""
    if not hand_no.isdigit() or not 1 <= int(hand_no) <= MAX_HAND_NO or len(table_id) > MAX_TABLE_ID:
        return None
    try:
        return open_hand(svc, table_access(table_id, request, svc), int(hand_no))
    except Refused:
        return None


PageHand = Annotated[Hand | None, Depends(page_hand)]


# ---------------------------------------------------------------------- share links
def shared_hand(secret: ShareSecret, svc: Svc) -> Hand:
    """The hand a share link opens (``/api/shared/{secret}…``), else 404 (a dependency)."""
    with svc.repo.engine.connect() as conn:
        row = conn.execute(select(ShareRow.table_id, ShareRow.hand_no)
                           .where(ShareRow.digest == hash_token(secret))).first()
    if row is None:
        raise Refused(msg("err.web.share_unknown"), status=404)
    table_id, hand_no = row
    return open_hand(svc, Access(table_id, True, also=frozenset({hand_no}), shared=True),
                     hand_no)


SharedHand = Annotated[Hand, Depends(shared_hand)]


def shared_page_hand(secret: str, svc: Svc) -> Hand | None:
    """(For the page a share link opens, ``/shared/{secret}``.) Its hand, or None."""
    if not 1 <= len(secret) <= 64:
        return None
    try:
        return shared_hand(secret, svc)
    except Refused:
        return None


SharedPageHand = Annotated[Hand | None, Depends(shared_page_hand)]


def share(svc: Services, hand: Hand, by: str) -> str:
    """A new link's secret for ``hand`` (the one made before stops opening it)."""
    secret = secrets.token_urlsafe(24)
    with transaction(svc.repo.engine) as conn:
        _unshare(conn, hand)
        conn.execute(insert(ShareRow), {"digest": hash_token(secret), "table_id":
                                        hand.access.table_id, "hand_no": hand.number, "by": by,
                                        "at": svc.clock.wall()})
    return secret


def unshare(svc: Services, hand: Hand, by: str | None = None) -> int:
    """Stop every link to ``hand`` (``by``: those that identity made); how many there were."""
    with transaction(svc.repo.engine) as conn:
        return _unshare(conn, hand, by)


def _unshare(conn: Connection, hand: Hand, by: str | None = None) -> int:
    made_by = [] if by is None else [ShareRow.by == by]
    done = conn.execute(delete(ShareRow).where(ShareRow.table_id == hand.access.table_id,
                                               ShareRow.hand_no == hand.number, *made_by))
    return int(done.rowcount or 0)
