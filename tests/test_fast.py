"""Differential tests: the compiled fast path (``tienlen.fast``) against the pure engine.

At every step of random games, for every preset, 2, 3, 4, 5 and 8 players, and rules with
options varied, both must agree on the legal plays (as sets of card sets), the turn, the
table, the passes, the out-of-turn chops, the finish order and (back in a Game) the scores;
and on every position of the perft golden file. ``benchmarks/fast_differential.py`` runs
the same checks over thousands of games. Skipped without numba (``pip install -e '.[fast]'``).
"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass

import pytest

from test_perft import POSITIONS, replay
from tienlen import Game, Rules
from tienlen.fast.support import unsupported

# option changes tried on top of the presets (each game draws one)
VARIANTS: list[dict[str, object]] = [
    {},
    {"double_deck_ties": "later_wins"},
    {"double_deck_ties": "next_distinct", "stacking": True},
    {"pass_locks_out": False, "chop_out_of_turn": True},
    {"chop_after_pass": True, "chop_out_of_turn": True, "four_twos_bomb": True},
    {"opening": "free", "opening_may_pass": True, "opening_no_chain": True},
    {"opening": "lowest_single", "end_at": "first_out", "triple_chains": True},
    {"twos_in_chains": False, "quad_chains": True, "stacking": True, "pass_locks_out": False},
    {"chops": "chain:3+ > single; quad > pair; chain:4 > chain:3 higher; quad > quad higher; "
              "quad_chain:2 > triple higher", "quad_chains": True},
    {"scoring": "places", "penalty_bomb": {"quad": 3, "chain:3+": 2}, "four_twos_bomb": True,
     "chop_after_pass": True, "pass_locks_out": False, "stacking": True},
    # the §11 play options on their own and together, on any preset
    {"follow_suit": True},
    {"free_chops": "chain:4+", "chop_pay": "chain", "scoring": "places", "penalty_two": 1},
    {"free_chops": "quad, chain:3+", "chop_out_of_turn": True, "chop_pay": "each",
     "penalty_bomb": {"quad": 3, "chain:3": 2, "chain:4+": 4}, "scoring": "loser_pays"},
    {"cong": True, "no_two_last": True, "end_at": "last", "penalty_no_play": 2,
     "scoring": "places", "red_twos_double": True, "penalty_two": 1},
    {"follow_suit": True, "suit_order": "alphabetical", "stacking": True, "chop_pay": "chain",
     "penalty_bomb": 2},
]


def varied(preset: str, variant: dict[str, object]) -> Rules:
    """A preset with a variant's changes (``no_two_last`` dropped where the hand ends at the
    first out, which it cannot go with)."""
    rules = Rules.preset(preset)
    if variant.get("end_at") == "first_out":
        variant = {**variant, "no_two_last": False}
    return rules.replace(**variant)


def check_game(rules: Rules, players: int, seed: int) -> int:
    """Play one random game in both engines side by side; return the steps checked."""
    fast = pytest.importorskip("tienlen.fast.api")
    from tienlen.fast.layout import (
        S_BOTTOM,
        S_FINISH,
        S_NBOTTOM,
        S_NFINISH,
        S_OUT,
        S_PASSED,
        S_TSEAT,
    )

    rng = random.Random(seed)
    game = Game.deal(rules, players, seed)
    while game.phase == "claim":
        game.push(game.legal_plays()[-1])  # decline
    start = game.copy()  # the template the fast position converts back with
    fg = fast.FastGame.of(game)
    steps = 0
    while True:
        where = f"{rules.name} {rules.differences()} {players}p seed {seed} step {steps}"
        st = fg.st
        assert fg.turn == game.turn, where
        assert [bool(p) for p in st[S_PASSED:S_PASSED + players]] == game.passed, where
        assert [bool(o) for o in st[S_OUT:S_OUT + players]] == game.state.out, where
        order = [int(s) for s in st[S_FINISH:S_FINISH + st[S_NFINISH]]]
        order += [int(s) for s in st[S_BOTTOM:S_BOTTOM + st[S_NBOTTOM]][::-1]]
        assert order == game.finish_order, where
        back = fg.to_game(start)
        assert back.table == game.table, where
        assert back.payments == game.payments, where
        assert (None if st[S_TSEAT] < 0 else int(st[S_TSEAT])) == game.table_seat, where
        if game.is_over:
            break
        pure = [m.keys for m in game.legal_plays()]
        got = [m.keys for m in fg.legal_plays()]
        assert len(set(got)) == len(got), where
        assert set(got) == set(pure), where
        chops = game.out_of_turn_seats()
        assert fg.out_of_turn_seats() == chops, where
        offered = []
        for s in chops:
            theirs = [m.keys for m in fg.legal_plays(s)]
            assert len(set(theirs)) == len(theirs), where
            assert set(theirs) == {m.keys for m in game.legal_plays(s)}, where
            if theirs:
                offered.append(s)
        if offered and rng.random() < 0.5:  # a free-chop offer may hold nothing: declined
            seat = rng.choice(offered)
            move = rng.choice(game.legal_plays(seat))
        else:
            seat = game.turn
            move = rng.choice(game.legal_plays())
        game.push(move, seat)
        fg.push(move, seat)
        steps += 1
    finish = [int(s) for s in fg.st[S_FINISH:S_FINISH + fg.st[S_NFINISH]]]
    assert finish == game.finish_order
    back = fg.to_game(start)
    assert back.is_over and back.finish_order == game.finish_order
    assert back.cong == game.cong
    assert back.payments == game.payments
    assert back.scores == game.scores
    from tienlen.fast.units import hand_units

    if game.instant_win is None:  # the units search's rollouts count (no claims in play)
        assert [hand_units(fg.st, fg.fr.cfg, s) for s in range(players)] == game.scores
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("preset", Rules.presets())
def test_fast_and_pure_agree_at_every_step_of_random_games(preset, players):
    pytest.importorskip("numba")
    from tienlen import fast

    if not fast.supports(Rules.preset(preset)):
        pytest.skip(f"the fast path does not support {preset} (the pure engine plays it)")
    for seed in range(10):
        variant = VARIANTS[(seed * 7 + players) % len(VARIANTS)] if seed % 2 else {}
        check_game(varied(preset, variant), players, 1000 * players + seed)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_fast_and_pure_agree_on_every_perft_position(pos):
    fast = pytest.importorskip("tienlen.fast.api")
    from tienlen import fast as fast_path

    game = replay(pos)
    seat = pos["seat"]
    if game.phase != "play":
        pytest.skip("claims and trading stay in the pure engine")
    if not fast_path.supports(game.rules):
        pytest.skip(f"the fast path does not support {fast_path.support.unsupported(game.rules)}")
    fg = fast.FastGame.of(game)
    moves = fg.legal_plays(seat)
    assert {m.keys for m in moves} == {m.keys for m in game.legal_plays(seat)}
    assert len(moves) == pos["count"]
    if "depth2" in pos:
        total = 0
        for move in moves:
            child = fg.copy()
            child.push(move, seat)
            total += 0 if child.turn is None else len(child.legal_plays())
        assert total == pos["depth2"]


def test_four_twos_chop_only_on_turn_on_the_fast_path_as_in_the_pure_engine():
    """§6 resolution: four twos chop for the seat on turn only; they open no out-of-turn
    window and give passers no chop turn (a single three is no chop entry's target)."""
    fast = pytest.importorskip("tienlen.fast.api")
    from tienlen.shapes import PASS

    rules = Rules.preset("pagat").replace(chop_out_of_turn=True, four_twos_bomb=True,
                                          chop_after_pass=True)
    game = Game(rules, ["3s 5h 9c", "4h 6d Kc", "2s 2c 2d 2h 7s", "8h 9h Th"], leader=0)
    fg = fast.FastGame.of(game)
    game.push(rules.play("3s"))
    fg.push(rules.play("3s"))
    assert fg.out_of_turn_seats() == game.out_of_turn_seats() == []
    assert fg.legal_plays(2) == game.legal_plays(2) == []
    for seat in (1, 2, 3):
        assert fg.turn == game.turn == seat
        assert {m.keys for m in fg.legal_plays()} == {m.keys for m in game.legal_plays()}
        if seat == 2:  # in turn, four twos chop the three
            assert rules.play("2s 2c 2d 2h").keys in {m.keys for m in fg.legal_plays()}
        game.push(PASS)
        fg.push(PASS)
    assert fg.turn == game.turn == 0 and game.table is None and fg.to_game(game).table is None


_C3 = "3s 3c 4s 4c 5s 5c"
_CONG = "8s 8c 8d 8h 2h 3c 4d 5c 6d 7c 9d Jc Kd"
# §11.4's worked examples (and a few more), as (preset, changes, hands, leader, moves): a move
# is text for the seat on turn, or (seat, text) out of turn
SECTION_11_EXAMPLES = [
    ("mien-nam", {}, ["2s 4d", "4s 4c 5s 5c 6d 6h Kd", "9s Qd", "Tc Jd"], 0,
     ["2s", "4s 4c 5s 5c 6d 6h", "pass", "pass", "pass", "Kd"]),
    ("mien-nam", {}, ["2s 2d 4d", "4s 4c 5s 5c 6d 6h 9s 9c 9d 9h", "Qd Kd", "Tc Jd"], 0,
     ["2s 2d", "9s 9c 9d 9h", "pass", "pass", "pass"]),
    ("mien-nam", {}, ["2h 3h", "9c Kd", "5s 5c 6s 6c 7s 7c 8s 8c Qh", "Tc Jd"], 1,
     ["9c", "pass", "Tc", "2h", (2, "5s 5c 6s 6c 7s 7c 8s 8c"), "pass", "pass", "pass"]),
    ("mien-nam", {}, ["2h 4d", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h Qd", "Tc Jd"], 0,
     ["2h", _C3, "9s 9c 9d 9h", "pass", "pass", "pass", "Qd"]),
    ("mien-nam", {}, ["3s 9h Qh", "4s Ts", "5s Jh Kh", _CONG], 0,
     ["3s", "4s", "5s", "pass", "9h", "Ts", "Jh", "Qh"]),
    ("mien-nam", {}, ["3s 9h Qh", "Ts", "5s 6c 7d 8s 9s Jc Kd 4c 2s Ac Tc",
                      "4s 6d 7h 8c 9c Jd Kc Qs"], 0, ["3s", "Ts"]),
    ("mien-nam", {"chop_pay": "each"}, ["2h 4d", _C3 + " Kd", "9s 9c 9d 9h Qd", "Tc Jd"], 0,
     ["2h", _C3, "9s 9c 9d 9h", "pass", "pass", "pass"]),
    ("mien-bac", {}, ["4h 5h", "Kh 5d", "2h", "Qs Jd"], 0, ["4h", "Kh", "2h", "pass", "pass"]),
    ("mien-bac", {"cong": False}, ["4h 9h", "2h", "5h 6h"], 0,
     ["4h", "2h", "pass", "pass", "5h", "9h"]),
    ("mien-bac", {}, ["9d 3s", "Td Ts 7s 7d 8s 8c 9s 9c 2c", "Ad 4h", "Jd 5s"], 0,
     ["9d", "Td", "Ad", "pass", "pass", "2c", "pass", "8s 8c", "pass", "pass", "pass"]),
]


@pytest.mark.parametrize("example", SECTION_11_EXAMPLES, ids=range(len(SECTION_11_EXAMPLES)))
def test_the_worked_examples_of_section_11_on_the_fast_path(example):
    fast = pytest.importorskip("tienlen.fast.api")
    from tienlen.fast.layout import S_BOTTOM, S_FINISH, S_NBOTTOM, S_NFINISH, S_PASSED

    preset, changes, hands, leader, moves = example
    rules = Rules.preset(preset).replace(**changes)
    game = Game(rules, hands=hands, leader=leader, first_hand=False)
    start = game.copy()
    fg = fast.FastGame.of(game)
    for move in [*moves, None]:
        st = fg.st
        n = game.players
        assert fg.turn == game.turn
        assert [bool(p) for p in st[S_PASSED:S_PASSED + n]] == game.passed
        order = [int(s) for s in st[S_FINISH:S_FINISH + st[S_NFINISH]]]
        order += [int(s) for s in st[S_BOTTOM:S_BOTTOM + st[S_NBOTTOM]][::-1]]
        assert order == game.finish_order
        back = fg.to_game(start)
        assert back.payments == game.payments and back.cong == game.cong
        assert back.scores == game.scores
        if game.is_over or move is None:
            break
        assert fg.out_of_turn_seats() == game.out_of_turn_seats()
        assert {m.keys for m in fg.legal_plays()} == {m.keys for m in game.legal_plays()}
        seat, text = move if isinstance(move, tuple) else (game.turn, move)
        game.play(text, seat=seat)
        fg.push(rules.play(text), seat)


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_the_fast_heuristic_makes_the_pure_heuristics_choices(players):
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    from tienlen.bots.heuristic import decide
    from tienlen.bots.rollout import rollout_situation, unplayed
    from tienlen.fast import api, policies
    from tienlen.fast.encoding import fast_rules, mask_play, state_of
    from tienlen.fast.split import new_memo

    memo = new_memo()
    checked = 0
    for preset, variant in (("pagat", {}), ("viet-cong", {}), ("cardrules", {}),
                            ("kenneth-lu", {}), ("mien-nam", {}), ("mien-bac", {}),
                            ("pagat", {"follow_suit": True, "suit_order": "alphabetical"}),
                            ("viet-cong", {"cong": True, "penalty_two": 1, "scoring": "places",
                                           "no_two_last": True})):
        rules = varied(preset, variant)
        fr = fast_rules(rules)
        for seed in range(4):
            game = Game.deal(rules, players, seed)
            rng = random.Random(seed)
            while game.phase == "play":
                total = unplayed(game)
                pure = decide(rollout_situation(game, game.turn, total))
                st = state_of(game)
                buf = api.buffer()
                n = policies.legal_in_turn(st, fr.cfg, fr.chops, buf, api.move_workspace())
                i = policies.heuristic_choice(st, fr.cfg, buf, n, np.array(total, dtype=np.int64),
                                              -1, 0, memo)
                assert mask_play(*buf[i], fr.order) == pure
                checked += 1
                game.push(pure if rng.random() < 0.7 else rng.choice(game.legal_plays()))
    assert checked > 100


@pytest.mark.parametrize("preset", ["mien-nam", "mien-bac", "chop_out_of_turn"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_fast_rollouts_value_candidates_as_the_pure_rollouts_do(preset, players):
    """Search's objective on the same playouts: each candidate played out by the heuristic at
    every seat (free chops and, under the house rule ``chop_out_of_turn``, §6 chops out of
    turn answered as the pure rollout does), valued by the units the hand pays the seat, equal
    on the fast path and in pure Python."""
    pytest.importorskip("numba")
    from tienlen.bots.fast_rollout import FastRollouts
    from tienlen.bots.inference import Deal
    from tienlen.bots.rollout import playout

    if preset == "chop_out_of_turn":  # units to count: the cards left pay, as in mien-nam
        rules = Rules.preset("mien-nam").replace(chop_out_of_turn=True, free_chops=[])
    else:
        rules = Rules.preset(preset)
    checked = 0
    for seed in range(3):
        game = Game.deal(rules, players, 500 + seed)
        rng = random.Random(seed)
        while game.phase == "play":
            seat = game.turn
            legal = game.legal_plays()
            if len(legal) > 1 and rng.random() < 0.3:
                candidates = legal[:6]
                fast = FastRollouts(rules, seat, players, candidates, 0.0, units=True)
                totals = [0.0] * len(candidates)
                fast.play(Deal(game, 0, ()), totals)
                pure = []
                for move in candidates:
                    trial = game.copy()
                    trial.push(move, seat)
                    playout(trial)
                    pure.append(float(trial.scores[seat]))
                assert totals == pure, (preset, players, seed, game.history)
                checked += 1
            game.push(rng.choice(legal))
    assert checked >= 3


def test_fast_playouts_end_every_hand_with_each_policy():
    pytest.importorskip("numba")
    from tienlen.fast import policies
    from tienlen.fast.encoding import fast_rules
    from tienlen.fast.split import new_memo

    for preset in Rules.presets():
        fr = fast_rules(Rules.preset(preset))
        for policy in policies.POLICIES.values():
            policies.seed(1)
            decisions = policies.play_hands(fr.cfg, fr.chops, 4, 13, 1, 20, policy, new_memo())
            assert 20 * 4 <= decisions < 20 * 400


def test_rules_the_fast_path_does_not_know_are_unsupported():
    from tienlen import fast

    for preset in ("pagat", "parlett", "justus-pang", "kenneth-lu", "viet-cong", "thirteen",
                   "killer", "cardrules"):
        assert fast.supports(Rules.preset(preset)), preset
    # the Vietnamese presets' play options (§11) are implemented
    assert fast.supports(Rules.preset("mien-nam")) and fast.supports(Rules.preset("mien-bac"))
    assert set(Rules.presets()) == {"pagat", "parlett", "justus-pang", "kenneth-lu", "viet-cong",
                                    "thirteen", "killer", "cardrules", "mien-nam", "mien-bac"}
    rules = Rules.preset("pagat")
    for option, value in (("follow_suit", True), ("free_chops", "quad"), ("chop_pay", "each"),
                          ("chop_pay", "chain"), ("cong", True), ("no_two_last", True)):
        assert fast.supports(rules.replace(**{option: value})), option
    # more free-chop patterns or bomb-penalty rows than the rules array holds
    assert unsupported(rules.replace(free_chops="quad, chain:3, chain:4, chain:5, chain:6")) \
        == ["free_chops"]
    table = {f"chain:{n}": n for n in range(3, 12)}
    assert unsupported(rules.replace(penalty_bomb=table)) == ["penalty_bomb"]
    # options that act only before or after play are supported with any value
    for changes in ({"scoring": "places"}, {"scoring": "places", "place_points": (3, 1, -1, -3)},
                    {"penalty_bomb": {"quad": 2, "chain:3": 1}}, {"penalty_bomb": 3},
                    {"instant_wins": ("four_twos", "five_pair_chain", "same_colour",
                                      "four_threes")}):
        assert fast.supports(rules.replace(**changes)), changes

    @dataclass(frozen=True, kw_only=True, slots=True)
    class NewRules(Rules):
        future_switch: bool = False
        future_list: bool = True

    assert unsupported(NewRules()) == ["future_list"]  # an option whose default is not off
    assert unsupported(NewRules(future_switch=True)) == ["future_switch", "future_list"]
    assert unsupported(NewRules(future_list=False)) == ["future_list"]
    from tienlen.chops import ChopEntry, Pattern

    odd = ChopEntry(Pattern("pair_run", 3), Pattern("single", twos_only=True))
    assert unsupported(Rules().replace(chops=(odd,))) == ["chops"]


def test_importing_the_package_and_bots_compiles_nothing():
    code = ("import sys, tienlen, tienlen.bots, tienlen.arena, tienlen.fast; "
            "tienlen.fast.supports(tienlen.Rules()); "
            "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_tienlen_pure_turns_the_fast_path_off(monkeypatch):
    from tienlen import fast

    monkeypatch.setenv("TIENLEN_PURE", "1")
    assert not fast.available() and not fast.enabled(Rules())


@pytest.mark.parametrize("preset", ["pagat", "justus-pang", "viet-cong", "kenneth-lu", "mien-nam",
                                    "mien-bac"])
def test_fast_history_replays_deals_as_the_pure_history_does(preset):
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    from tienlen.bots import get_bot
    from tienlen.bots.fast_inference import FastHistory, usable
    from tienlen.bots.inference import History
    from tienlen.fast.encoding import state_of

    rules = Rules.preset(preset)
    checked = 0
    for players, seed in ((4, 1), (3, 2), (5, 3)):
        game = Game.deal(rules, players, seed)
        bots = [get_bot("heuristic", seed=s) for s in range(players)]
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.turn
            view = game.view(seat)
            if game.phase == "play" and usable(view) and rng.random() < 0.3:
                pure, quick = History(view), FastHistory(view)
                for judge in (True, False):
                    hidden = pure.random_deal(rng)
                    a, work_a = pure.replay([list(h) for h in hidden], judge=judge)
                    b, work_b = quick.replay([list(h) for h in hidden], judge=judge)
                    assert (a is None) == (b is None) and work_a == work_b
                    if a is not None and b is not None:
                        assert a.misfits == b.misfits and a.aside == b.aside
                        assert np.array_equal(state_of(a.game)[:56], b.state[:56])
                        assert pure.hidden_of(a) == quick.hidden_of(b)
                        assert b.game.state.hands == a.game.state.hands
                        checked += 1
            game.play(bots[seat].choose(game.view(seat)), seat)
    assert checked > 3


def test_search_plays_on_the_fast_path_and_without_it(monkeypatch):
    pytest.importorskip("numba")
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    for pure in (False, True):
        if pure:
            monkeypatch.setenv("TIENLEN_PURE", "1")
        game = Game.deal(Rules.preset("pagat"), 4, 7)
        bots = [get_bot("search", seed=1, steps=3000, worlds=20),
                *(get_bot("heuristic", seed=s) for s in range(3))]
        play_out(game, bots)
        assert game.is_over


@pytest.mark.parametrize(("preset", "bots"), [
    ("pagat", "heuristic,greedy,greedy,greedy"),
    ("viet-cong", "heuristic,heuristic,greedy"),
    ("kenneth-lu", "greedy,heuristic"),
    ("justus-pang", "heuristic,heuristic,greedy,greedy,heuristic"),
    ("killer", "heuristic,greedy,heuristic,greedy,heuristic,greedy,heuristic,greedy"),
    ("mien-nam", "heuristic,greedy,heuristic,heuristic"),
    ("mien-nam", "heuristic,heuristic,greedy"),
    ("mien-bac", "heuristic,greedy,heuristic,heuristic"),
    ("mien-nam", "heuristic,greedy,heuristic,greedy,heuristic,greedy,heuristic,greedy"),
])
def test_tournaments_of_heuristic_and_greedy_bots_are_the_same_on_the_fast_path(
        preset, bots, monkeypatch):
    pytest.importorskip("numba")
    from tienlen.arena import Tournament, run_tournament
    from tienlen.fast.play import can_play

    names = tuple(bots.split(","))
    t = Tournament(Rules.preset(preset), len(names), names, 12, seed=3)
    assert can_play(Game.deal(t.rules, len(names), 1), names) or preset == "killer"
    fast = run_tournament(t)
    monkeypatch.setenv("TIENLEN_PURE", "1")
    assert run_tournament(t) == fast


def test_plays_made_from_masks_are_cached_and_give_their_masks_back(monkeypatch):
    pytest.importorskip("numba")
    from tienlen.fast import plays
    from tienlen.fast.encoding import play_mask

    monkeypatch.setattr(plays, "_PLAYS", {})  # an empty cache
    monkeypatch.setattr(plays, "_MASKS", {})
    rules = Rules.preset("pagat").replace(suit_order="alphabetical", opening="free")
    game = Game.deal(rules, 4, seed=2)
    order = game.rules.suit_order
    legal = list(game.legal_plays())
    masks = [play_mask(p) for p in legal]
    made = plays.plays_of(masks, order)
    assert len(plays._MASKS) == len(legal) > 2
    assert made == legal and [p.order for p in made] == [p.order for p in legal]
    assert plays.plays_of(masks, order)[0] is made[0]  # cached
    assert [plays.mask_of(p) for p in made] == masks
    assert [plays.mask_of(p) for p in legal] == masks  # not from the cache: read from the cards
    monkeypatch.setattr(plays, "CACHE_SIZE", 2)  # full: emptied, still right
    again = plays.plays_of(masks, "standard")
    assert [p.keys for p in again] == [p.keys for p in legal]
    again = plays.plays_of(masks, order)
    assert again == legal and [plays.mask_of(p) for p in again] == masks
    assert len(plays._MASKS) <= 2


@pytest.mark.parametrize("players", [2, 3])
def test_follow_suit_hands_with_cards_set_aside_take_the_fast_lane_with_the_pure_results(players):
    """Cards dealt to nobody are unseen by every seat: under follow_suit the heuristic counts
    them by suit, in compiled code as in pure Python."""
    pytest.importorskip("numba")
    from tienlen.arena import play_out
    from tienlen.bots import get_bot
    from tienlen.fast.play import play_hand

    rules = Rules.preset("mien-bac")
    names = ("heuristic", "heuristic", "greedy")[:players]
    played = 0
    for seed in range(40):
        game = Game.deal(rules, players, seed)
        if game.phase != "play":  # won at once (an instant win)
            continue
        played += 1
        assert sum(len(game.hand(s)) for s in range(players)) < 52  # cards set aside
        fast = play_hand(Game.deal(rules, players, seed), names)
        assert fast is not None  # the fast lane took it
        play_out(game, [get_bot(name) for name in names])
        assert (fast.finish_order, fast.scores) == (game.finish_order, game.scores)
        assert [sorted(fast.hand(s)) for s in range(players)] == \
            [sorted(game.hand(s)) for s in range(players)]
    assert played >= 30


@pytest.mark.parametrize(("preset", "names"), [
    ("pagat", ("heuristic", "greedy", "heuristic", "greedy")),
    ("mien-nam", ("heuristic", "greedy", "heuristic", "greedy", "heuristic")),
])
def test_hands_with_chops_out_of_turn_take_the_fast_lane_with_the_pure_results(preset, names):
    """Under the house rule chop_out_of_turn (§6) the compiled loop asks every seat the rules
    let chop, as the arena's turn API does, and the bots answer as in pure Python: the greedy
    bot with its lowest chop, the heuristic against twos and bombs only."""
    pytest.importorskip("numba")
    from tienlen.arena import play_out
    from tienlen.bots import get_bot
    from tienlen.fast.play import play_hand

    rules = Rules.preset(preset).replace(chop_out_of_turn=True)
    players = len(names)
    out_of_turn = 0
    for seed in range(40):
        game = Game.deal(rules, players, seed)
        if game.phase != "play":  # won at once (an instant win)
            continue
        fast = play_hand(Game.deal(rules, players, seed), names)
        assert fast is not None  # the fast lane took it
        play_out(game, [get_bot(name) for name in names])
        assert (fast.finish_order, fast.scores) == (game.finish_order, game.scores), seed
        replay = Game.deal(rules, players, seed)
        for seat, text in game.history:  # the chops made out of turn
            out_of_turn += seat != replay.turn
            replay.play(text, seat=seat)
    assert out_of_turn >= 3



_TWO_THREADS = """
import threading
from tienlen import Game, Rules, fast
from tienlen.bots import get_bot
from tienlen.bots.search import unsearched

rules = Rules.preset("pagat")
assert fast.enabled(rules)
views = []
for seed in range(12):
    game = Game.deal(rules, 4, seed=seed)
    bot = get_bot("heuristic", seed=0)
    while not game.is_over:
        view = game.view(game.turn)
        if unsearched(view) is None and len(view.legal) >= 3:
            views.append(view)
            break
        game.play(bot.choose(view))
choose = lambda i: str(get_bot("search", seed=i).choose(views[i]))
alone = [choose(i) for i in range(len(views))]
together = [None] * len(views)

def work(start):
    for i in range(start, len(views), 2):
        together[i] = choose(i)

threads = [threading.Thread(target=work, args=(start,)) for start in (0, 1)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("same" if together == alone else f"different: {alone} {together}")
"""


def test_two_threads_searching_at_once_choose_as_each_alone():
    """The terminal asks for a hint in a thread while a bot may search in another; the compiled
    kernels release the GIL, so each thread writes into scratch space of its own (shared
    buffers once crashed the process or changed the moves). In a process of its own, so that
    a crash is this test's failure and not the whole run's."""
    pytest.importorskip("numba")
    done = subprocess.run([sys.executable, "-c", _TWO_THREADS], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "same", done.stdout
