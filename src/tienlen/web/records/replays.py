"""Stored hands for the page: a hand as the states after each of its actions (the replay), a
table's hands as one session record. CPU work, run in the bot pool's worker processes (see
``services.Offload``)."""

from __future__ import annotations

import json
from typing import Any

from ... import Game, Session, TienLenError
from ...errors import reason_of
from ...i18n import Msg, msg
from ...stepping import iter_states
from ..refusal import Refused
from ..room.views import event_view


def replay_steps(text: str) -> dict[str, Any]:
    """A finished hand's record (loaded and checked once, its payments too) as the states
    before its first decision and after each one, every seat's hand shown; linear in the
    hand's length. :class:`Refused` says why a record cannot be replayed."""
    try:
        game = Game.from_record(text)
    except TienLenError as exc:
        raise Refused(msg("err.web.replay", reason=reason_of(exc))) from None
    names = list(game.names)
    steps = []
    for state in iter_states(game):
        history = state.history
        table = state.table
        steps.append({
            "hands": [[str(c) for c in state.hand(s)] for s in range(state.players)],
            "table": str(table) if table is not None and table.cards else None,
            "turn": state.turn,
            "last": f"{names[history[-1][0]]}: {history[-1][1]}" if history else None,
            "event": event_view(*history[-1]).model_dump() if history else None,  # as facts
            "over": state.is_over, "scores": state.scores})
    return {"names": names, "rules": game.rules.name, "steps": steps}


def session_text(records: list[str]) -> str:
    """A table's finished hands (their stored records, in order) as one session record."""
    finished = [Game.from_record(text) for text in records]
    first = finished[0]
    done = Session(first.rules, first.players, names=first.names, _first=first)
    done.games = finished
    return done.record()


def replay_or_reason(text: str) -> tuple[str | None, Msg | None]:
    """:func:`replay_steps` for a worker process, as JSON text (serialised there, not on the
    server's event loop), or why not (a message, said in the asker's language once back)."""
    try:
        return json.dumps(replay_steps(text), separators=(",", ":")), None
    except Refused as exc:
        reason = exc.reason
        return None, reason if isinstance(reason, Msg) else msg("err.web.replay", reason=str(reason))
