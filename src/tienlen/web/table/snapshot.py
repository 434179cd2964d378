"""A table's state as text, stored beside its log: a restart replays only what follows it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ... import Game, Rules, TienLenError
from ...record import _replay_hand
from ...tomltext import TOMLDecodeError
from ...tomltext import loads as toml_loads

VERSION = 1


@dataclass(frozen=True)
class Snapshot:
    """The current hand (as its record), the tallies of the hands before it, the rounds of the
    current hand, and a practice table's deal generator (None where deals are secret)."""

    game: str  # the current hand's record (its deal and every action so far)
    hands_before: int = 0  # finished hands before the current one
    totals: list[int] = field(default_factory=list)  # units per seat over those hands
    first_places: list[int] = field(default_factory=list)  # hands won per seat over them
    round_starts: list[int] = field(default_factory=list)
    rng: list[int] | None = None  # random.Random state (a practice table's fixed seed)

    def dumps(self) -> str:
        return json.dumps({"v": VERSION, "game": self.game, "hands_before": self.hands_before,
                           "totals": self.totals, "first_places": self.first_places,
                           "round_starts": self.round_starts, "rng": self.rng},
                          separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Snapshot:
        try:
            data = json.loads(text)
            if data.get("v") != VERSION:
                raise TienLenError(f"snapshot version {data.get('v')!r}, expected {VERSION}")
            return cls(str(data["game"]), int(data["hands_before"]), list(data["totals"]),
                       list(data["first_places"]), list(data["round_starts"]), data.get("rng"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TienLenError(f"a stored snapshot cannot be read: {exc}") from None

    def hand(self, rules: Rules) -> Game:
        """The current hand, rebuilt from its record under ``rules``, the table's (every action
        of the record checked again)."""
        try:
            data = toml_loads(self.game)
            return _replay_hand(rules, list(data["players"]), 0, data["hands"][0], True, Game)
        except (TOMLDecodeError, KeyError, IndexError, TypeError) as exc:
            raise TienLenError(f"a stored snapshot's hand cannot be read: {exc}") from None


def rng_state(state: Any) -> list[int]:
    """A generator's state (``random.Random.getstate()``, or ``Session.rng_state()``) as a list
    of numbers (JSON)."""
    version, internal, gauss = state
    assert version == 3 and gauss is None
    return list(internal)


def rng_from(numbers: list[int]) -> Any:
    """The generator's state that :func:`rng_state` gave as ``numbers``."""
    return (3, tuple(numbers), None)
