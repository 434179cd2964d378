"""Every table the server holds: creating them, finding them, rebuilding them after a restart."""

from __future__ import annotations

import secrets
import tomllib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .. import Rules, TienLenError
from .driver import Driver
from .room import Refused, Room
from .storage import Repository

MAX_TABLES = 20_000


class NewTable(BaseModel):
    """A table as the lobby's form (or a script) asks for it."""

    model_config = ConfigDict(extra="forbid")
    rules: str = Field(default="pagat", max_length=40)
    options: str = Field(default="", max_length=4000)  # TOML lines that change the preset
    players: int = Field(default=4, ge=2, le=8)
    away_timeout: float = Field(default=30.0, ge=0, le=3600)
    turn_timer: float = Field(default=0.0, ge=0, le=600)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    quick: bool = False  # fill every empty seat with bots and start at once
    name: str | None = Field(default=None, min_length=1, max_length=24)  # take seat 0 as this
    level: Literal["random", "greedy", "heuristic"] = "heuristic"


def make_rules(preset: str, options: str) -> Rules:
    """The preset with the options a table changes (TOML lines such as ``stake = 5``)."""
    try:
        changes = tomllib.loads(options)
    except tomllib.TOMLDecodeError as exc:
        raise Refused(f"the rule changes are not valid TOML: {exc}") from None
    if "preset" in changes or "rules" in changes:
        raise Refused("choose the preset in the list; the changes name options only")
    try:
        return Rules.from_mapping({"preset": preset, **changes})
    except TienLenError as exc:
        raise Refused(str(exc)) from None


class Lobby:
    def __init__(self, repo: Repository, bot_delay: float = 0.5) -> None:
        self.repo = repo
        self.bot_delay = bot_delay
        self.driver = Driver(repo)  # every table's bot moves, stored in group commits
        self.rooms: dict[str, Room] = {}

    def restore(self) -> int:
        """Rebuild every stored table; returns how many."""
        for stored in self.repo.load_all():
            self.rooms[stored.id] = Room.restore(self.repo, stored, self.bot_delay,
                                                   self.driver)
        return len(self.rooms)

    def get(self, table_id: str) -> Room | None:
        return self.rooms.get(table_id)

    def create(self, spec: NewTable) -> tuple[Room, int | None, str | None]:
        """Make a table; with a name, take seat 0 (returns the seat and its token)."""
        if len(self.rooms) >= MAX_TABLES:
            raise Refused("the server holds as many tables as it can; try again later")
        rules = make_rules(spec.rules, spec.options)
        table_id = secrets.token_urlsafe(6)
        seed = spec.seed if spec.seed is not None else secrets.randbits(62)
        self.repo.create_table(table_id, rules.to_toml(), spec.players, seed, spec.away_timeout,
                               spec.turn_timer)
        room = Room(self.repo, table_id, rules, spec.players, seed, spec.away_timeout,
                    spec.turn_timer, self.bot_delay, self.driver)
        self.rooms[table_id] = room
        seat: int | None = None
        token: str | None = None
        if spec.name is not None:
            seat, token = room.join_seat(spec.name, 0)
        if spec.quick:
            while any(s.kind == "empty" for s in room.seats):
                room.add_bot(None, spec.level)
            room.start()
        return room, seat, token

    def listing(self) -> list[Room]:
        """Open tables (with an empty seat) first, then the tables being played."""
        rooms = list(self.rooms.values())
        return sorted(rooms, key=lambda r: (r.started, -r.version))
