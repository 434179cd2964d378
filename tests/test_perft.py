"""Perft: golden counts of legal actions for fixed positions (tests/data/perft.json).

The counts were made by ``benchmarks/make_perft.py`` and checked there, one by
one, against the brute-force oracle of ``test_oracle.py`` before they were
written; a change in move generation that alters any of them fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tienlen import Game, Rules

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
POSITIONS: list[dict[str, Any]] = DATA["positions"]


def replay(pos: dict[str, Any]) -> Game:
    rules = Rules.preset(pos["preset"]).replace(**pos["options"])
    game = Game(rules, pos["hands"], leader=pos["leader"], dealer=pos["dealer"],
                first_hand=pos["first_hand"])
    for line in pos["actions"]:
        seat, _, text = line.partition(" ")
        game.play(text, seat=int(seat))
    return game


def test_the_golden_file_covers_every_preset_and_player_count():
    assert len(POSITIONS) >= 40
    assert {p["preset"] for p in POSITIONS} == set(Rules.presets())
    assert {len(p["hands"]) for p in POSITIONS} == set(range(2, 9))
    assert sum("depth2" in p for p in POSITIONS) >= 20


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_the_number_of_legal_actions_matches_the_golden_count(pos):
    game = replay(pos)
    seat = pos["seat"]
    moves = game.legal_plays(seat)
    assert len({str(m) for m in moves}) == len(moves), "the same action is listed twice"
    assert len(moves) == pos["count"]
    if "depth2" in pos:
        total = 0
        for move in moves:
            child = game.copy()
            child.play(move, seat=seat)
            total += 0 if child.is_over else len(child.legal_plays())
        assert total == pos["depth2"]
