"""Stored hands for the page: a hand as the states after each of its actions (the replay), a
table's hands as one session record. CPU work, run in the bot pool's worker processes (see
``services.Offload``)."""

from __future__ import annotations

import json
from typing import Any

from ... import Game, Session, TienLenError
from ...errors import reason_of
from ...i18n import BOT_NAME, Msg, display_name, msg
from ...payments import Chop
from ...paywords import payment_line
from ...shapes import Play
from ...stepping import iter_states
from ..refusal import Refused
from ..room.views import event_view


def replay_steps(text: str, lang: str = "en") -> dict[str, Any]:
    """A finished hand's record (loaded and checked once, its payments too) as the states
    before its first decision and after each one, every seat's hand shown, with the payments
    each step made (a chop's, the hand's settlement) said in ``lang``; linear in the hand's
    length. :class:`Refused` says why a record cannot be replayed."""
    try:
        game = Game.from_record(text)
    except TienLenError as exc:
        raise Refused(msg("err.web.replay", reason=reason_of(exc))) from None
    # the program's bots by their name in the asker's words ("Máy 2"), as the table shows them
    names = [display_name(n, lang) if BOT_NAME.fullmatch(n) else n for n in game.names]
    # the hand's chops, by who played which bomb (a bomb's cards are played once in a hand)
    chops = {(c.chopper, str(c.bomb)): c for p in game.payments if p.kind == "chop" for c in p.chops}
    steps = []
    paid = 0  # the payments said by the steps before
    for state in iter_states(game):
        history = state.history
        table = state.table
        made, paid = state.payments[paid:], len(state.payments)
        steps.append({
            "hands": [[str(c) for c in state.hand(s)] for s in range(state.players)],
            "table": str(table) if table is not None and table.cards else None,
            "table_seat": state.table_seat if table is not None and table.cards else None,
            "turn": state.turn,
            "last": f"{names[history[-1][0]]}: {history[-1][1]}" if history else None,
            "event": event_view(*history[-1]).model_dump() if history else None,  # as facts
            "chop": _chop(chops, *history[-1]) if history else None,
            "paid": [{"kind": p.kind, "payer": p.payer, "payee": p.payee, "units": p.units,
                      "words": payment_line(p, names, lang)} for p in made],
            "over": state.is_over, "scores": state.scores})
    return {"names": names, "rules": game.rules.name, "steps": steps}


def _chop(chops: dict[tuple[int, str], Chop], seat: int, move: object) -> dict[str, Any] | None:
    """The chop a step's play made: whose cards it beat (None: not a chop)."""
    chop = chops.get((seat, str(move))) if isinstance(move, Play) and not move.is_pass else None
    return None if chop is None else {"owner": chop.owner, "target": str(chop.target),
                                      "units": chop.units}


def session_text(records: list[str]) -> str:
    """A table's finished hands (their stored records, in order) as one session record."""
    finished = [Game.from_record(text) for text in records]
    first = finished[0]
    done = Session(first.rules, first.players, names=first.names, _first=first)
    done.games = finished
    return done.record()


def replay_or_reason(text: str, lang: str = "en") -> tuple[str | None, Msg | None]:
    """:func:`replay_steps` for a worker process, as JSON text (serialised there, not on the
    server's event loop), or why not (a message, said in the asker's language once back)."""
    try:
        return json.dumps(replay_steps(text, lang), separators=(",", ":")), None
    except Refused as exc:
        reason = exc.reason
        return None, reason if isinstance(reason, Msg) else msg("err.web.replay", reason=str(reason))
