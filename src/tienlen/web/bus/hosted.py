"""The owner's side of a connection held by another process: for each such connection, a
stand-in :class:`~..room.room.Client` at the table it watches (a *mirror*), which the table
treats as any of its connections: it is sent its seat's view, its commands go through the
table's inbox, it counts as present. What the table sends the mirror goes, numbered, to the
process that holds the connection, and only there: a seat's view travels to no other process.

The notes it reads (from the connection's process, :mod:`.remote`): ``attach`` (a connection to
one of this process's tables), ``cmd`` (one of its commands: taken into the table's inbox, then
acknowledged), ``notice`` (a refusal said by the connection's process, numbered here with the
table's events), ``detach``. A note for a table not served here (lost, or closed) is answered
``moved``: the connection is closed for its page to connect again. A connection whose process is
gone (a note to it read by nobody, or its key run out) is detached as a closed one would be.

And ``keep``: quick match on another process keeps a bot's seat at one of this process's tables
for a player it matched (TableState.reserve), answered ``kept``, done or not.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from ..limiter import Limiter
from ..lobby.lobby import Lobby
from ..refusal import Refused
from ..room.protocol import ProtocolError, parse_command
from ..room.room import Client, Room
from .bus import Bus, Note

log = logging.getLogger("tienlen.web")


class Hosting:
    """This process's tables' connections held elsewhere (``mirrors``: (process, connection)
    -> the table and the mirror)."""

    def __init__(self, bus: Bus, lobby: Lobby, limiter: Limiter | None = None,
                 blocks: Callable[[str], frozenset[str]] | None = None) -> None:
        self.bus = bus
        self.lobby = lobby
        self.limiter = limiter
        self.blocks = blocks  # whose chat an identity's connection is not sent
        self.mirrors: dict[tuple[str, str], tuple[Room, Client]] = {}
        for kind, handler in (("attach", self._attach), ("cmd", self._command),
                              ("notice", self._notice), ("detach", self._detach),
                              ("unread", self._unread), ("keep", self._keep)):
            bus.on(kind, handler)

    def _attach(self, note: Note) -> None:
        process, conn, table_id = str(note["f"]), str(note["c"]), str(note["t"])
        room = self.lobby.get(table_id)
        if room is None or room.moved:
            self.bus.send(process, {"k": "moved", "c": conn})
            return
        self._drop((process, conn))  # the same connection again: the first one is gone
        about: dict[str, Any] = note.get("client") or {}
        mirror = self._mirror(process, conn, about)
        self.mirrors[(process, conn)] = (room, mirror)
        room.attach(mirror)

    def _mirror(self, process: str, conn: str, about: dict[str, Any]) -> Client:
        bus = self.bus
        mirror: Client

        def deliver(text: str) -> None:
            bus.send(process, {"k": "ev", "c": conn, "n": mirror.out_seq, "b": text})

        def seated(name: str) -> None:  # a guest made where its browser's cookie is
            bus.send(process, {"k": "seated", "c": conn, "name": name})

        owner = about.get("owner")
        mirror = Client(deliver, str(about.get("key", "")), owner,
                        seated if about.get("seats") else None, about.get("device"))
        mirror.account_name = about.get("account")
        mirror.session = about.get("session")
        mirror.lang = str(about.get("lang", "en"))
        mirror.limiter = self.limiter
        blocks = self.blocks
        if blocks is not None:
            mirror.blocks = lambda: blocks(mirror.owner) if mirror.owner else frozenset()
        mirror.hang_up = lambda: bus.send(process, {"k": "hangup", "c": conn})

        def move_on() -> None:
            self.mirrors.pop((process, conn), None)
            bus.send(process, {"k": "moved", "c": conn})

        mirror.move_on = move_on
        return mirror

    def _found(self, note: Note) -> tuple[Room, Client] | None:
        key = (str(note["f"]), str(note["c"]))
        found = self.mirrors.get(key)
        if found is None or found[0].moved or self.lobby.get(found[0].id) is not found[0]:
            self.mirrors.pop(key, None)
            self.bus.send(key[0], {"k": "moved", "c": key[1]})
            return None
        return found

    def _command(self, note: Note) -> None:
        found = self._found(note)
        if found is None:
            return
        room, mirror = found
        mirror.owner = note.get("owner", mirror.owner)  # a guest made since it connected
        mirror.account_name = note.get("account", mirror.account_name)
        try:
            command = parse_command(str(note["raw"]))
        except ProtocolError as exc:  # read by its process already: should not happen
            room.notify(mirror, Refused(exc.message), exc.ref)
            return
        room.handle(mirror, command)
        self.bus.send(str(note["f"]), {"k": "ack", "c": note["c"], "s": command.seq})

    def _notice(self, note: Note) -> None:
        found = self._found(note)
        if found is not None:
            room, mirror = found
            room.notify(mirror, Refused(str(note.get("reason", "")), note.get("code")),
                        note.get("ref"))

    def _detach(self, note: Note) -> None:
        self._drop((str(note["f"]), str(note["c"])))

    def _drop(self, key: tuple[str, str]) -> None:
        found = self.mirrors.pop(key, None)
        if found is not None:
            room, mirror = found
            if not room.moved:
                room.detach(mirror)

    def _keep(self, note: Note) -> None:
        """Keep a bot's seat for a player (quick match, matched by the process that asks);
        answered whether it was kept (not: the table is not served here, or the seat is no
        longer a bot's to give)."""
        room = self.lobby.get(str(note["t"]))
        kept = False
        if room is not None and not room.moved:
            device = note.get("device")
            try:
                room.act(functools.partial(room.table.reserve, int(note["seat"]),
                                           str(note["identity"]), str(note["name"]),
                                           str(device) if device is not None else None))
                kept = True
            except Exception as exc:
                log.info("table %s: seat %s not kept for quick match: %s", room.id,
                         note["seat"], exc)
        self.bus.send(str(note["f"]), {"k": "kept", "a": note.get("a"), "ok": kept})

    def _unread(self, note: Note) -> None:
        """A note to ``process`` was read by nobody: its connections are gone."""
        self.drop_process(str(note["process"]))

    def drop_process(self, process: str) -> None:
        """Every connection of ``process`` (gone) detached, as closed ones."""
        for key in [k for k in self.mirrors if k[0] == process]:
            self._drop(key)

    def processes(self) -> list[str]:
        """The processes holding connections to tables served here."""
        return sorted({process for process, _ in self.mirrors})
