"""A table's hands: secret or fixed deals, tallies kept as hands leave memory, snapshots that
rebuild the same state."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")

from tienlen import Rules, Session
from tienlen.web.table.hands import Hands
from tienlen.web.table.snapshot import Snapshot

RULES = Rules.preset("pagat")
NAMES = ["A", "B", "C", "D"]


def play_hand(hands: Hands, rng: random.Random) -> None:
    while not hands.game.is_over:
        game = hands.game
        seat = game.turn
        assert seat is not None
        hands.push(rng.choice(game.legal_plays(seat)), seat)


def state(hands: Hands) -> tuple[str, list[int], list[int], list[int], int]:
    tallies = hands.tallies()
    return (hands.game.record(), list(hands.round_starts), tallies.totals, tallies.first_places,
            hands.number)


def test_a_practice_table_deals_as_a_session_with_its_seed() -> None:
    hands = Hands(RULES, NAMES, Hands.first_seed(31, fixed=True), 31, fixed=True)
    session = Session(RULES, 4, 31, names=NAMES)
    rng = random.Random(0)
    for _ in range(3):
        assert hands.game.record() == session.game.record()
        play_hand(hands, rng)
        for seat, move in hands.game.history[len(session.game.history):]:
            session.game.push(move, seat)
        session.next_hand()
        hands.install(hands.deal_next(hands.next_seed()))
    assert hands.number == 4 and hands.past.hands == 3  # the finished hands left memory
    assert hands.tallies().totals == session.totals


def test_secret_deals_differ_for_identical_tables() -> None:
    seeds = {Hands.first_seed(31, fixed=False) for _ in range(5)}
    assert len(seeds) == 5 and "31" not in seeds
    deals = {Hands(RULES, NAMES, seed, 31, fixed=False).game.record() for seed in seeds}
    assert len(deals) == 5


@pytest.mark.parametrize("fixed", [True, False])
def test_a_snapshot_rebuilds_the_same_state_mid_hand_and_between_hands(fixed: bool) -> None:
    hands = Hands(RULES, NAMES, Hands.first_seed(5, fixed), 5, fixed)
    rng = random.Random(1)
    for _ in range(2):
        play_hand(hands, rng)
        hands.install(hands.deal_next(hands.next_seed()))
    for _ in range(9):  # into the third hand
        seat = hands.game.turn
        assert seat is not None
        hands.push(rng.choice(hands.game.legal_plays(seat)), seat)
    again = Hands.from_snapshot(RULES, Snapshot.loads(hands.snapshot()))
    assert state(again) == state(hands) and again.round_starts
    if fixed:  # the same generator: the same next deals
        assert again.next_seed() == hands.next_seed()
    # a snapshot of the next hand, taken before it is installed, is the state after it
    play_hand(hands, rng)
    seed = hands.next_seed()
    nxt = hands.deal_next(seed)
    ahead = Hands.from_snapshot(RULES, Snapshot.loads(hands.snapshot(nxt)))
    hands.install(nxt)
    assert state(ahead) == state(hands)
    if fixed:
        assert ahead.next_seed() == hands.next_seed()


def test_round_starts_begin_each_round_on_an_empty_table() -> None:
    hands = Hands(RULES, NAMES, Hands.first_seed(8, True), 8, True)
    rng = random.Random(2)
    starts: list[int] = []
    while not hands.game.is_over:
        game = hands.game
        if game.table is None:
            starts.append(len(game.history))
        seat = game.turn
        assert seat is not None
        hands.push(rng.choice(game.legal_plays(seat)), seat)
    assert hands.round_starts == starts
