"""Per-seat views as protocol objects: a seat gets its own hand and nothing of the others'.

A spectator (seat None) gets no hand, no legal actions, and the history with
every trade's and every unanswered claim's cards hidden.
"""

from __future__ import annotations

from typing import Any, Final

from .. import Action, Game, Move, Play
from ..actions import ActionKind
from ..payments import Payment
from ..view import _visible
from .protocol import ChopView, PaymentView, Prompt, SeatView

MAX_LEGAL = 400  # the page lists legal plays for the hint and for decisions
# the actions that close a trade
_SETTLED: Final[frozenset[ActionKind]] = frozenset(("accept", "refuse", "done"))


def _trade_state(game: Game) -> tuple[int, int, int] | None:
    """(kind, a, b) of an open trade: (0, offerer, n cards) awaiting an answer,
    (1, target, n) awaiting the offerer's accept/refuse; None when no trade is open."""
    for seat, move in reversed(game.history):
        if not isinstance(move, Action):
            return None
        if move.kind == "offer":
            return (0, seat, len(move.cards))
        if move.kind == "answer":
            return (1, seat, len(move.cards))
        if move.kind in _SETTLED:
            return None
    return None


def _return_due(game: Game, seat: int) -> tuple[int, int] | None:
    """(giver, count) of the president gift that ``seat`` must now return cards for."""
    returned = {(s, m.other) for s, m in game.history if isinstance(m, Action) and m.kind == "return"}
    for giver, move in game.history:
        if isinstance(move, Action) and move.kind == "give" and move.other == seat \
                and (seat, giver) not in returned:
            return giver, len(move.cards)
    return None


def _decision(game: Game, seat: int) -> tuple[list[str], Prompt | None, dict[str, Any] | None]:
    """Legal actions (when few), the prompt's kind and a decision for the page, in trade/return
    phases (the page says the prompt in its language from the kind and the decision)."""
    if game.turn != seat:
        return [], None, None
    if game.phase == "return":
        due = _return_due(game, seat)
        if due is None:
            return [], None, None
        giver, count = due
        return [], "return", {"kind": "return", "to": giver, "count": count}
    state = _trade_state(game)
    if state is None:
        others = [s for s in range(game.players) if s != seat]
        return ["done"], "offer", {"kind": "offer", "seats": others}
    kind, other, count = state
    if kind == 0:
        return [f"refuse {other}"], "answer", {"kind": "answer", "to": other, "count": count}
    return [f"accept {other}", f"refuse {other}"], "accept", None


def payment_view(p: Payment) -> PaymentView:
    """A payment as the page gets it: the structured facts, not the record's English."""
    chops = [ChopView(chopper=c.chopper, owner=c.owner, target=str(c.target), bomb=str(c.bomb),
                      bomb_shape=c.bomb.shape or "", bomb_ranks=c.bomb.length, units=c.units)
             for c in p.chops]
    return PaymentView(payer=p.payer, payee=p.payee, units=p.units, kind=p.kind,
                       item=p.item or p.kind, cards=p.cards, count=p.count,
                       places=list(p.places) if p.item == "place" else [], win=p.win,
                       chops=chops, at=p.at)


class PlayTexts:
    """The text of every play in one hand's history, kept from one view to the next: a play is
    public and never changes, so only actions (trades, claims) are looked at again each time."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._texts: list[str | None] = []

    def of(self, game: Game, history: list[tuple[int, Move]]) -> list[str | None]:
        if self._game is not game:
            self._game, self._texts = game, []
        for _seat, move in history[len(self._texts):]:
            self._texts.append(str(move) if isinstance(move, Play) else None)
        return self._texts


def seat_view(game: Game, seat: int | None, plays: PlayTexts | None = None,
              round_starts: list[int] | None = None) -> SeatView:
    """What ``seat`` may know of ``game`` (a spectator when ``seat`` is None); ``round_starts``:
    where each round begins in its history (kept by the table as the moves are made)."""
    looking = -1 if seat is None else seat
    claims_open = game.phase == "claim"
    moves = game.history
    texts = plays.of(game, moves) if plays is not None else [None] * len(moves)
    history = [(s, text if text is not None else _visible(game, looking, s, m, claims_open))
               for (s, m), text in zip(moves, texts, strict=True)]
    legal: list[str] = []
    prompt: Prompt | None = None
    decision: dict[str, Any] | None = None
    free = False
    if seat is not None and not game.is_over:
        if game.phase in ("trade", "return"):
            legal, prompt, decision = _decision(game, seat)
        else:
            legal = [str(m) for m in game.legal_plays(seat)[:MAX_LEGAL]]
            if game.phase == "claim" and game.turn == seat:
                prompt = "claim"
            elif game.turn != seat and legal:
                free = game.free_chop_offered(seat)
                prompt = "free_chop" if free else "chop"
    table = game.table
    instant = game.instant_win
    return SeatView(
        seat=seat, phase=game.phase, turn=game.turn, dealer=game.dealer, leader=game.leader,
        hand=[str(c) for c in game.hand(seat)] if seat is not None else [],
        counts=game.counts(), table=str(table) if isinstance(table, Play) and table.cards else None,
        table_seat=game.table_seat, passed=list(game.passed), stacking=game.stacking,
        finish_order=list(game.finish_order), history=history,
        round_starts=list(round_starts or []), legal=legal, prompt=prompt,
        decision=decision, is_over=game.is_over, scores=list(game.scores),
        revealed=[[str(c) for c in game.hand(s)] for s in range(game.players)] if game.is_over
        else None,
        instant_win=f"{game.names[instant[0]]}: {instant[1]}" if instant else None,
        payments=[payment_view(p) for p in game.payments], free_chop=free,
    )
