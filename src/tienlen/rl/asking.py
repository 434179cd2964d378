"""The order of decisions of the AEC environment (:mod:`tienlen.rl.aec`) and of the OpenSpiel
game (:mod:`tienlen.rl.openspiel`): the turn API (:mod:`tienlen.turns`), with the RL action
space's one restriction: a mutual-trading offer moment (§10) is asked with ``done`` alone,
its offers being lazy."""

from __future__ import annotations

from ..actions import Action, Move
from ..turns import Decision, Kind


def rl_moves(decision: Decision) -> list[Move]:
    """The moves the RL environments offer for ``decision``."""
    if decision.kind is Kind.OFFER:
        return [Action("done")]
    return list(decision.moves)
