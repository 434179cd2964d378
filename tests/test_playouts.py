"""Random playouts under every preset and player count, checking what must always hold.

Cards are never created or lost, the seat on turn always has something to do,
every hand ends, the scores balance, records replay exactly, copies are
independent, illegal input changes nothing, and a seat's view never shows
another seat's cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from tienlen import Card, Game, IllegalPlay, Play, Rules, Session, TienLenError
from tienlen.actions import Action

PRESETS = Rules.presets()
GARBAGE = ["", "   ", "xyz", "3x", "11h", "3s 3s 3s 3s 3s", "pass pass", "claim nothing",
           "offer", "offer x 3s", "accept", "return", "3s,x", "♠3", "10", "done please"]


def dealt_cards(game: Game) -> Counter[Card]:
    """Every card the seats were dealt, read back from the record's ``dealt`` lines."""
    import tomllib

    data = tomllib.loads(game.record())
    return Counter(Card.parse(w) for hand in data["hands"][-1]["dealt"] for w in hand.split())


def held_and_played(game: Game) -> Counter[Card]:
    total: Counter[Card] = Counter()
    for seat in range(game.players):
        total.update(game.hand(seat))
    for _, move in game.history:
        if isinstance(move, Play):
            total.update(move.cards)
    return total


def check_view(game: Game, seat: int) -> None:
    view = game.view(seat)
    assert view.hand == tuple(game.hand(seat))
    assert view.counts == tuple(game.counts())
    assert view.turn == game.turn
    if game.is_over:
        assert view.revealed == tuple(tuple(game.hand(s)) for s in range(game.players))
    else:
        assert view.revealed is None
    assert len(view.history) == len(game.history)
    for (actor, text), (real_actor, move) in zip(view.history, game.history, strict=True):
        assert actor == real_actor
        if actor == seat or isinstance(move, Play):
            assert text == str(move)
            continue
        assert isinstance(move, Action)
        if move.kind in ("offer", "answer", "give", "return") and move.other != seat:
            # a trade or gift between two other seats: the cards stay hidden
            words = text.split()
            for word in words:
                with pytest.raises(ValueError):
                    Card.parse(word)
            assert f"{len(move.cards)} card" in text
        if move.kind in ("claim", "decline") and game.phase == "claim":
            assert text == "answered"  # no one learns a claim before everyone has answered


def check_invariants(game: Game, start: Counter[Card], full: bool = True) -> None:
    if full:
        assert held_and_played(game) == start
    else:
        played = sum(len(m.keys) for _, m in game.history if isinstance(m, Play))
        assert sum(game.counts()) + played == sum(start.values())
    if game.is_over:
        assert game.turn is None
        assert sorted(game.finish_order) == list(range(game.players))
        assert sum(game.scores) == 0
        assert game.legal_plays() == []
    else:
        assert game.turn is not None
        assert game.legal_plays(), f"seat {game.turn} has no legal action: {game.record()}"
        assert sum(game.scores) == 0


def snapshot(game: Game, seats: Sequence[int]) -> tuple[str, list[object], list[list[Card]]]:
    """The game's record, every hand, and the views of some seats."""
    return (game.record(), [game.view(s) for s in seats],
            [game.hand(s) for s in range(game.players)])


def quick_state(game: Game) -> tuple[object, ...]:
    """A cheaper fingerprint of the state, compared after each illegal attempt."""
    last = game.history[-1] if game.history else None
    return (len(game.history), last, tuple(game.hand_text(s) for s in range(game.players)),
            game.turn, game.phase, str(game.table), game.table_seat, tuple(game.passed),
            game.stacking, tuple(game.out_of_turn_seats()))


def try_illegal(game: Game, rng: random.Random) -> None:
    """Throw illegal input at the game; each must raise and leave everything as it was."""
    seat = game.turn
    assert seat is not None
    watched = sorted({seat, rng.randrange(game.players)})
    before = snapshot(game, watched)
    legal = {str(m) for m in game.legal_plays(seat)}
    attempts: list[tuple[str | Play, int | None]] = []
    hand = game.hand(seat)
    for _ in range(4):  # random sets of the seat's own cards that are not legal now
        cards = rng.sample(hand, rng.randint(1, min(5, len(hand))))
        play = Play.from_cards(cards, game.rules)
        if str(play) not in legal:
            attempts.append((play if rng.random() < 0.5 else " ".join(map(str, cards)), None))
    mine = Counter(hand)
    for other in range(game.players):  # cards the seat does not hold
        for card in game.hand(other):
            if mine[card] == 0:
                attempts.append((str(card), None))
                break
    if "pass" not in legal:
        attempts.append(("pass", None))
    attempts.extend((text, None) for text in rng.sample(GARBAGE, 4))
    others = [s for s in range(game.players) if s != seat]
    for other in others:  # out of turn, not a chop the rules allow now
        own = game.hand(other)
        if own:
            text = str(own[0])
            if text not in {str(m) for m in game.legal_plays(other)}:
                attempts.append((text, other))
    attempts.append(("pass", rng.choice(others)))
    quick = quick_state(game)
    for move, who in attempts:
        with pytest.raises(TienLenError):  # IllegalPlay or CardError, both ValueErrors
            game.play(move, seat=who)
        assert quick_state(game) == quick, f"{move!r} by {who} changed the game"
    with pytest.raises(TienLenError):
        game.play(42)  # type: ignore[arg-type]
    assert snapshot(game, watched) == before


def choose(rng: random.Random, moves: list) -> object:
    """A random action; plays are favoured over passes and small trades over large ones."""
    plays = [m for m in moves if isinstance(m, Play) and m.keys]
    if plays and rng.random() < 0.75:
        return rng.choice(plays)
    actions = [m for m in moves if isinstance(m, Action)]
    if actions:
        done = [m for m in actions if m.kind in ("done", "decline", "accept")]
        small = [m for m in actions if len(m.cards) <= 2] or actions
        return rng.choice(done) if done and rng.random() < 0.6 else rng.choice(small)
    return rng.choice(moves)


def play_out(game: Game, rng: random.Random, *, illegal_every: int = 7,
             out_of_turn: float = 0.5) -> int:
    """Play the hand to the end with random legal actions; returns the number of actions."""
    start = held_and_played(game)
    assert start == dealt_cards(game) or game.history  # a president gift moves cards first
    bound = (sum(start.values()) + 1) * (2 * game.players + 2) + 40
    steps = 0
    checked_copy = checked_record = False
    while not game.is_over:
        check_invariants(game, start, full=steps % 5 == 0)
        if steps % illegal_every == 3:
            try_illegal(game, rng)
        if steps % 17 == 0:
            for seat in range(game.players):
                check_view(game, seat)
        if not checked_record and rng.random() < 0.08:
            checked_record = True
            record = game.record()
            again = Game.from_record(record)
            assert again.record() == record
            assert [str(m) for m in again.legal_plays()] == [str(m) for m in game.legal_plays()]
        if not checked_copy and rng.random() < 0.08:
            checked_copy = True
            check_copy(game, rng)
        chooser = game.out_of_turn_seats()
        if chooser and rng.random() < out_of_turn:
            seat = rng.choice(chooser)
            chops = game.legal_plays(seat)
            # free chops (§11) are offered to seats that hold none, so the offer reveals nothing
            assert chops or game.rules.free_chops
            assert all(isinstance(p, Play) and p.keys for p in chops)
            if chops:
                game.play(rng.choice(chops), seat=seat)
            else:
                game.play(choose(rng, game.legal_plays()))  # type: ignore[arg-type]
        else:
            game.play(choose(rng, game.legal_plays()))  # type: ignore[arg-type]
        steps += 1
        assert steps <= bound, "the hand does not end"
    check_invariants(game, start)
    for seat in range(game.players):
        check_view(game, seat)
    with pytest.raises(IllegalPlay):
        game.play("pass")
    record = game.record()
    assert Game.from_record(record).record() == record
    return steps


def check_copy(game: Game, rng: random.Random) -> None:
    record = game.record()
    hands = [game.hand(s) for s in range(game.players)]
    twin = game.copy()
    assert twin.record() == record
    assert [str(m) for m in twin.legal_plays()] == [str(m) for m in game.legal_plays()]
    for _ in range(5):
        if twin.is_over:
            break
        twin.play(choose(rng, twin.legal_plays()))  # type: ignore[arg-type]
    assert game.record() == record
    assert [game.hand(s) for s in range(game.players)] == hands
    twin_record = twin.record()
    probe = game.copy()
    probe.play(choose(rng, probe.legal_plays()))  # type: ignore[arg-type]
    assert twin.record() == twin_record
    assert game.record() == record


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", range(2, 9))
def test_random_hands_play_out_cleanly(preset, players):
    for seed in range(2):
        rng = random.Random(f"{preset}-{players}-{seed}")
        game = Game.deal(Rules.preset(preset), players, seed=rng.getrandbits(32))
        play_out(game, rng, illegal_every=19)


MIXES = {
    "out-of-turn chops, thirteen": ("thirteen", {"chop_out_of_turn": True}),
    "out-of-turn chops after a pass": ("pagat", {"chop_out_of_turn": True,
                                                 "chop_after_pass": True,
                                                 "chops": "quad > single; chain:3+ > single; "
                                                          "quad > pair; chain:4+ > pair"}),
    "out-of-turn chops, kenneth-lu": ("kenneth-lu", {"chop_out_of_turn": True}),
    "stacking without lock-out": ("justus-pang", {"pass_locks_out": False,
                                                  "chop_out_of_turn": True}),
    "stacking with chops after passes": ("cardrules", {"stacking": True,
                                                       "chop_after_pass": True}),
    "first out ends with penalties": ("pagat", {"end_at": "first_out", "penalty_two": 2,
                                                "red_twos_double": True, "penalty_bomb": 3,
                                                "penalty_no_play": 5}),
    "cards left with penalties": ("kenneth-lu", {"penalty_two": 1, "penalty_bomb": 2,
                                                 "penalty_no_play": 1}),
    "killer, ties later win": ("killer", {"double_deck_ties": "later_wins",
                                          "chop_out_of_turn": True}),
    "next distinct, alphabetical suits": ("viet-cong", {"double_deck_ties": "next_distinct",
                                                        "suit_order": "alphabetical",
                                                        "twos_in_runs": True}),
    "optional instant wins": ("cardrules", {"instant_wins": ["four_twos", "dragon",
                                                             "six_pairs", "all_sets"]}),
}


# §11: every new option alone, on a preset that plays otherwise as before
NEW_OPTIONS = {
    "follow_suit": ("pagat", {"follow_suit": True}),
    "free chops": ("pagat", {"free_chops": ["chain:4+", "quad"]}),
    "free chops of three pairs": ("thirteen", {"free_chops": ["chain:3+"]}),
    "chop pay each": ("pagat", {"chop_pay": "each", "penalty_two": 1, "penalty_bomb": 2}),
    "chop pay chain": ("viet-cong", {"chop_pay": "chain", "penalty_two": 1,
                                     "red_twos_double": True,
                                     "penalty_bomb": {"chain:3": 2, "quad": 3}}),
    "cong": ("pagat", {"cong": True, "penalty_no_play": 2}),
    "no two last": ("pagat", {"no_two_last": True}),
    "places": ("pagat", {"scoring": "places"}),
    "penalty table": ("pagat", {"penalty_bomb": {"chain:3": 2, "quad": 3, "chain:4+": 4},
                                "penalty_two": 1}),
    "new instant wins": ("pagat", {"instant_wins": ["five_pair_chain", "same_colour",
                                                    "four_threes"]}),
}


@pytest.mark.parametrize("option", sorted(NEW_OPTIONS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_new_option_alone_plays_out_cleanly(option, players):
    preset, options = NEW_OPTIONS[option]
    rules = Rules.preset(preset).replace(**options)
    for seed in range(3):
        rng = random.Random(f"{option}-{players}-{seed}")
        play_out(Game.deal(rules, players, seed=rng.getrandbits(32)), rng, illegal_every=23)


@pytest.mark.parametrize("players", range(2, 9))
def test_follow_suit_plays_out_cleanly_at_every_table_size(players):
    for preset in ("mien-bac", "pagat"):
        rules = Rules.preset(preset).replace(follow_suit=True)
        rng = random.Random(f"follow-{preset}-{players}")
        play_out(Game.deal(rules, players, seed=rng.getrandbits(32)), rng, illegal_every=29)


def test_free_chops_and_chop_payments_do_happen_in_mien_nam_playouts():
    rules = Rules.preset("mien-nam")
    free = paid = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.deal(rules, 4, seed=seed)
        while not game.is_over:
            for seat in game.out_of_turn_seats():
                chops = game.legal_plays(seat)
                if chops:
                    free += 1
                    game.play(chops[0], seat=seat)
                    assert game.passed == [False] * 4
                    break
            else:
                game.play(choose(rng, game.legal_plays()))  # type: ignore[arg-type]
        paid += sum(1 for p in game.payments if p.kind == "chop")
        assert sum(game.scores) == 0
    assert free > 0 and paid > 0


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_house_rule_mixes_play_out_cleanly(mix):
    preset, options = MIXES[mix]
    rules = Rules.preset(preset).replace(**options)
    for players, seed in ((3, 0), (4, 1), (6, 2)):
        rng = random.Random(f"{mix}-{players}-{seed}")
        play_out(Game.deal(rules, players, seed=rng.getrandbits(32)), rng, out_of_turn=0.7)


def test_out_of_turn_chops_do_happen_in_these_playouts():
    # guards the playouts above against never exercising the out-of-turn path
    rules = Rules.preset("thirteen").replace(chop_out_of_turn=True)
    chops = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = Game.deal(rules, 4, seed=seed)
        while not game.is_over:
            seats = game.out_of_turn_seats()
            if seats:
                chops += 1
                seat = seats[0]
                chop = game.legal_plays(seat)[0]
                game.play(chop, seat=seat)
                assert game.table == chop and game.table_seat == seat
                assert game.turn != seat or game.players == 2 or not game.hand(seat)
                continue
            game.play(choose(rng, game.legal_plays()))  # type: ignore[arg-type]
    assert chops > 0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_president_sessions_play_out_and_replay(players):
    rules = Rules.preset("pagat").replace(trading="president", penalty_two=1)
    session = Session(rules, players=players, seed=players)
    rng = random.Random(players)
    for hand in range(3):
        game = session.game
        if hand:
            gives = [m for _, m in game.history if isinstance(m, Action) and m.kind == "give"]
            assert len(gives) == (2 if players >= 4 else 1)
            assert game.phase == "return"
        play_out(game, rng)
        record = session.record()
        assert Session.from_record(record).record() == record
        if hand < 2:
            session.next_hand()
    assert sum(session.totals) == 0
    assert sum(session.first_places) == 3


@pytest.mark.parametrize("players", [2])
def test_mutual_trading_plays_out_and_replays(players):
    rules = Rules.preset("viet-cong").replace(trading="mutual")
    rng = random.Random(players)
    game = Game.deal(rules, players, seed=players)
    assert game.phase == "trade"
    play_out(game, rng, illegal_every=5)


def test_a_session_under_every_preset_keeps_its_totals_balanced():
    for preset in PRESETS:
        session = Session(Rules.preset(preset), players=4, seed=3)
        rng = random.Random(preset)
        for _ in range(3):
            play_out(session.game, rng, illegal_every=50)
            session.next_hand()
        assert sum(session.totals) == 0
        record = session.record()
        assert Session.from_record(record).record() == record
