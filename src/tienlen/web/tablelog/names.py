"""A table's name when its creator gave none, and how every reader says it in their words.

The name stored is English, for the API and the records (``Lan's table``, ``Quick match ID``,
``Table ID``); :func:`title_of` reads such a name back as what it says, so that a page says it
in its reader's language ("Bàn của Lan") and names a table for its people, never by its id:
an older release's tables, whose names were made the same way, are read alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

OF = "'s table"


def named_for(player: str, table_id: str, most: int) -> str:
    """A new table's name, for the player who made it (``most``: the longest a name may be)."""
    name = f"{player}{OF}"
    return name if len(name) <= most else unnamed(table_id)


def unnamed(table_id: str) -> str:
    """The name of a table made with nobody seated and no name given."""
    return f"Table {table_id}"


def quick_match_name(table_id: str) -> str:
    """A quick-match table's name."""
    return f"Quick match {table_id}"


@dataclass(frozen=True)
class Title:
    """What a table's made name says: ``of`` a player's table (``player``), a ``quick`` match's,
    or a table of nobody in particular (``table``: a page names it for the people at it)."""

    kind: Literal["of", "quick", "table"]
    player: str | None = None


def title_of(name: str, table_id: str) -> Title | None:
    """What ``name`` says when the room made it (None: a name its creator gave)."""
    if name == quick_match_name(table_id):
        return Title("quick")
    if name == unnamed(table_id):
        return Title("table")
    if name.endswith(OF) and len(name) > len(OF):
        return Title("of", name[:-len(OF)])
    return None


def title_fields(name: str, table_id: str, family: str | None) -> dict[str, str | None] | None:
    """What a page is sent to say ``name`` in its words (``room.protocol.TableTitle``'s fields):
    :func:`title_of`, with a quick match's rating ``family``; None: a name its creator gave."""
    made = title_of(name, table_id)
    if made is None:
        return None
    return {"kind": made.kind, "player": made.player,
            "family": family if made.kind == "quick" else None}
