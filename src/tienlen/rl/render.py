"""The environments' text render (``render_mode="ansi"``): what a researcher watching a hand
wants at a glance, one line each: the rules and whose decision it is, the play to beat and who
made it, the last moves, every seat's card count, and the hand of the seat shown (only that
seat's: an environment's render shows no card its observer may not see)."""

from __future__ import annotations

from ..cards import SUIT_SYMBOLS, Card
from ..game import Game
from ..shapes import Play

LAST = 6  # the moves shown


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    """``10♥ 2♠``: cards as a player reads them."""
    return " ".join(f"{'10' if str(c)[0] == 'T' else str(c)[:-1]}{SUIT_SYMBOLS[str(c)[-1]]}"
                    for c in cards)


def move_text(move: object) -> str:
    if isinstance(move, Play):
        return "pass" if move.is_pass else cards_text(move.cards)
    return str(move)


def render_text(game: Game, seat: int | None, asked: int | None, names: list[str]) -> str:
    """The hand as text, seen from ``seat`` (None: no hand shown); ``asked``: the seat whose
    decision it is (None: the hand is over)."""
    st = game.state
    head = f"{game.rules.name}, {game.players} players, {st.phase}"
    head += f": {names[asked]} to decide" if asked is not None and not game.is_over else ""
    if game.is_over:
        head += ": over, " + ", ".join(f"{i + 1}. {names[s]}" for i, s in enumerate(game.finish_order))
    table = game.table
    lines = [head,
             (f"to beat: {cards_text(table.cards)} by {names[game.table_seat]}"  # type: ignore[index]
              if table is not None and table.cards else "to beat: nothing (a lead)")]
    recent = [f"{names[who]}: {move_text(move)}" for who, move in game.history[-LAST:]]
    lines.append("last: " + (" · ".join(recent) if recent else "-"))
    lines.append("cards: " + " · ".join(f"{names[s]} {n}" for s, n in enumerate(game.counts())))
    if seat is not None:
        lines.append(f"hand of {names[seat]}: {cards_text(game.hand(seat)) or '-'}")
    return "\n".join(lines)
