"""Talking at the table: the catalogue of canned phrases and reactions, free text's cleaning,
and the store that keeps what was said for moderation.

A phrase travels as its catalogue key (``chat.phrase.<key>`` in the i18n catalogue), never as
the sender's words, so that each reader sees it in their own language; a reaction is one of
:data:`EMOJI`. Free text is allowed only at a private table (the room checks), cleaned by
:func:`clean_text`: NFC, no control, formatting (bidi overrides, zero-width) or private-use
character, runs of white space made one space, at most :data:`MAX_TEXT` characters. A player
says so many things in a while, all kinds and all its tables together (``Limits.rates.say``,
counted by the limiter: ``limiter.py``).

What was said is kept (:class:`SqlChatStore`, the rows of ``tienlen_chat``) so that an admin
reading a report about a table and hand can read its chat; the server's sweep deletes the rows
older than ``--keep-chat`` days (:meth:`SqlChatStore.forget`).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine

from ...i18n import Msg, msg
from ..accounts.names import BadName, clean_name
from ..storage import transaction
from .rows import ChatRow

# the canned phrases, by key (their words: chat.phrase.<key>, in every language)
PHRASES = ("hello", "good_luck", "good_game", "well_played", "nice_chop", "hurry_up", "sorry",
           "thanks", "oops", "bye")
Phrase = Literal["hello", "good_luck", "good_game", "well_played", "nice_chop", "hurry_up",
                 "sorry", "thanks", "oops", "bye"]
# the reactions (each one emoji, the same in every language)
EMOJI = ("👍", "👏", "😂", "😮", "😢", "😠", "🔥", "🙏")
Emoji = Literal["👍", "👏", "😂", "😮", "😢", "😠", "🔥", "🙏"]
Kind = Literal["phrase", "emoji", "text"]

MAX_TEXT = 200  # characters of free text, after cleaning
RAW_FACTOR = 4  # a text may arrive decomposed: this many code points per character at most
HIDDEN = ("Cc", "Cf", "Co", "Cs", "Cn")  # controls, formatting (bidi, zero-width), private use


class BadText(ValueError):
    """Free text that cannot be said; ``reason`` says why (a message)."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(reason.key)
        self.reason = reason


def clean_text(raw: str) -> str:
    """Free text as it is shown: NFC, without control, formatting or private-use characters
    (stripped, not refused: a pasted line often carries some), white space made single spaces;
    :class:`BadText` when it is longer than :data:`MAX_TEXT` or shows nothing (what is left is
    checked as a name is: ``names.clean_name``)."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw)
                   if unicodedata.category(ch) not in HIDDEN or ch in "\t\n")
    text = " ".join(text.split())
    if len(text) > MAX_TEXT:
        raise BadText(msg("chat.too_long", n=len(text), most=MAX_TEXT))
    try:
        return clean_name(text, "a name", limit=MAX_TEXT)
    except BadName:
        raise BadText(msg("chat.unseen")) from None


@dataclass(frozen=True)
class Line:
    """One thing said at a table: ``key`` a phrase's key or the emoji, ``text`` free text."""

    table_id: str
    hand_no: int
    seat: int
    identity: str | None
    kind: str  # a Kind
    text: str
    at: float


class ChatStore(Protocol):
    def add(self, line: Line) -> None:
        """Keep one thing said (raises StorageError when it cannot)."""

    def of_hand(self, table_id: str, hand_no: int) -> list[Line]:
        """What was said at ``table_id`` during hand ``hand_no`` (0: before the start), in order."""

    def forget(self, before: float) -> int:
        """Delete what was said before ``before`` (Unix seconds); how many rows."""


class SqlChatStore:
    """What was said, in the server's database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def add(self, line: Line) -> None:
        with transaction(self.engine) as conn:
            conn.execute(insert(ChatRow).values(
                table_id=line.table_id, hand_no=line.hand_no, seat=line.seat,
                identity=line.identity, kind=line.kind, text=line.text, at=line.at))

    def of_hand(self, table_id: str, hand_no: int) -> list[Line]:
        c = ChatRow
        with transaction(self.engine) as conn:
            rows = conn.execute(select(c.table_id, c.hand_no, c.seat, c.identity, c.kind, c.text,
                                       c.at)
                                .where(c.table_id == table_id, c.hand_no == hand_no)
                                .order_by(c.id)).all()
        return [Line(*row) for row in rows]

    def forget(self, before: float) -> int:
        with transaction(self.engine) as conn:
            return int(conn.execute(delete(ChatRow).where(ChatRow.at < before)).rowcount or 0)
