"""A connection to a table another process serves: :class:`RemoteTable` stands where the table
would (the socket loop attaches to it, hands it commands and refusals, detaches from it) and
carries each to the table's owner over the bus (:mod:`.hosted` is the other end).

Every command is acknowledged by the owner once it is in the table's inbox; one not
acknowledged within :data:`ANSWER_SECONDS` is answered here with an error that says so, and the
connection is closed for its page to connect again (and be sent the whole table anew). The
owner's events come numbered: one missing (Redis lost it) closes the connection the same way.
A connection whose table moved (its owner lost it, or is gone) is closed for its page to connect
again, wherever the table is served then.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets

from ...i18n import t
from ..refusal import Refused
from ..room.protocol import Command, Error
from ..room.room import Client
from .bus import Bus, Note

log = logging.getLogger("tienlen.web")

ANSWER_SECONDS = 10.0  # how long a command waits for its owner's acknowledgement


class Remotes:
    """This process's connections to tables served elsewhere (connection id -> its table), and
    the notes their owners send them."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.links: dict[str, RemoteTable] = {}
        self._ids = itertools.count(1)
        self._salt = secrets.token_hex(3)
        self.timeouts = 0  # commands that no owner acknowledged in time
        self.gaps = 0  # connections closed for a missing event
        for kind, handler in (("ev", self._event), ("ack", self._ack), ("moved", self._moved),
                              ("hangup", self._hang_up), ("seated", self._seated)):
            bus.on(kind, handler)

    def new_id(self) -> str:
        return f"{self._salt}{next(self._ids)}"

    def link(self, table_id: str, owner: str) -> RemoteTable:
        """A connection's stand-in for ``table_id``, served by the process ``owner``."""
        return RemoteTable(self, table_id, owner)

    def _link(self, note: Note) -> RemoteTable | None:
        return self.links.get(str(note.get("c")))

    def _event(self, note: Note) -> None:
        link = self._link(note)
        if link is not None:
            link.event(int(note["n"]), str(note["b"]))

    def _ack(self, note: Note) -> None:
        link = self._link(note)
        if link is not None:
            link.acked(int(note["s"]))

    def _moved(self, note: Note) -> None:
        link = self._link(note)
        if link is not None:
            link.move_on()

    def _hang_up(self, note: Note) -> None:
        link = self._link(note)
        if link is not None and link.client is not None:
            link.client.hang_up()

    def _seated(self, note: Note) -> None:
        link = self._link(note)
        if link is not None and link.client is not None and link.client.seated is not None:
            link.client.seated(str(note["name"]))

    def by_owner(self) -> dict[str, list[RemoteTable]]:
        """The connections held here, by the process that serves their tables."""
        out: dict[str, list[RemoteTable]] = {}
        for link in self.links.values():
            out.setdefault(link.owner, []).append(link)
        return out


class RemoteTable:
    """One connection's way to the table ``id``, which the process ``owner`` serves."""

    def __init__(self, remotes: Remotes, table_id: str, owner: str) -> None:
        self.remotes = remotes
        self.id = table_id
        self.owner = owner
        self.conn = remotes.new_id()
        self.client: Client | None = None
        self.moved = False
        self._last = 0  # the number of the owner's last event passed on
        self._waiting: dict[int, asyncio.TimerHandle] = {}  # commands not acknowledged yet

    @property
    def bus(self) -> Bus:
        return self.remotes.bus

    def _note(self, kind: str, **fields: object) -> Note:
        return {"k": kind, "t": self.id, "c": self.conn, "f": self.bus.name, **fields}

    # ------------------------------------------------------------------ what the socket asks
    def attach(self, client: Client) -> None:
        self.client = client
        self._last = 0  # the owner numbers a new stand-in's events from 1
        self.remotes.links[self.conn] = self
        about = {"key": client.key, "owner": client.owner, "device": client.device,
                 "account": client.account_name, "session": client.session, "lang": client.lang,
                 "seats": client.seated is not None}
        asked = self.bus.ask(self.owner, self._note("attach", client=about))
        asked.add_done_callback(self._reached)

    def detach(self, client: Client) -> None:
        if self.remotes.links.pop(self.conn, None) is not None and not self.moved:
            self.bus.send(self.owner, self._note("detach"))
        for timer in self._waiting.values():
            timer.cancel()
        self._waiting.clear()

    def handle(self, client: Client, cmd: Command) -> None:
        self.client = client
        note = self._note("cmd", raw=cmd.model_dump_json(), owner=client.owner,
                          account=client.account_name)
        loop = asyncio.get_running_loop()
        self._waiting[cmd.seq] = loop.call_later(ANSWER_SECONDS, self._timed_out, cmd.seq)
        self.bus.ask(self.owner, note).add_done_callback(self._reached)

    def notify(self, client: Client, refusal: Refused, ref: int | None = None) -> None:
        self.bus.send(self.owner, self._note("notice", reason=refusal.say(client.lang),
                                             code=refusal.code, ref=ref))

    # ------------------------------------------------------------------ what the owner sends
    def event(self, number: int, text: str) -> None:
        client = self.client
        if client is None or self.moved:
            return
        if number != self._last + 1:  # an event lost on the way: the whole state again
            self.remotes.gaps += 1
            log.warning("table %s: an event missed on the bus (%d after %d); connecting again",
                        self.id, number, self._last)
            self.move_on()
            return
        self._last = number
        client.out_seq = number
        client.deliver_text(text)

    def acked(self, seq: int) -> None:
        timer = self._waiting.pop(seq, None)
        if timer is not None:
            timer.cancel()

    def _reached(self, done: asyncio.Future[int]) -> None:
        """A note to the owner was read by nobody: the owner is gone, the table moves on."""
        if not done.cancelled() and done.result() <= 0:
            self.move_on()

    def _timed_out(self, seq: int) -> None:
        self._waiting.pop(seq, None)
        client = self.client
        if client is None or self.moved:
            return
        self.remotes.timeouts += 1
        client.send(Error(reason=t("err.web.no_answer", client.lang, n=round(ANSWER_SECONDS)),
                          ref=seq, code="timeout"))
        self.move_on()

    def move_on(self) -> None:
        """The table is served elsewhere now (or its owner is gone): the connection is closed
        for its page to connect again."""
        if self.moved:
            return
        self.moved = True
        for timer in self._waiting.values():
            timer.cancel()
        self._waiting.clear()
        self.remotes.links.pop(self.conn, None)
        if self.client is not None:
            self.client.move_on()
