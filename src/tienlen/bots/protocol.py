"""The JSON form of a view, as external bots receive it (see docs/bots-protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..view import View

PROTOCOL = "tienlen-bot/1"


def view_to_json(view: View) -> dict[str, Any]:
    """Everything the seat may know, as plain JSON values (cards and actions as text)."""
    return {
        "type": "decide",
        "protocol": PROTOCOL,
        "seat": view.seat,
        "players": view.players,
        "names": list(view.names),
        "rules": {"preset": view.rules.name, **view.rules.as_dict()},
        "phase": view.phase,
        "turn": view.turn,
        "dealer": view.dealer,
        "leader": view.leader,
        "hand": [str(c) for c in view.hand],
        "counts": list(view.counts),
        "table": str(view.table) if view.table is not None else None,
        "table_seat": view.table_seat,
        "passed": list(view.passed),
        "stacking": view.stacking,
        "finish_order": list(view.finish_order),
        "history": [[seat, text] for seat, text in view.history],
        "played": [str(c) for c in view.played],
        "legal": [str(m) for m in view.legal],
        "out_of_turn": view.turn != view.seat,
        "free_chop": view.free_chop,
        "payments": [str(p) for p in view.payments],
        "out": list(view.out),
    }
