"""Bots: every bot answers every decision the rules can give it with one of its legal actions,
seeded bots repeat themselves, no bot can see another seat's cards, and the heuristic plays
the way a player would recognise."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter

import pytest

from helpers import DRAGON_DEAL, TRADE_DEAL, twin_games
from tienlen import Card, Game, Play, Rules, Session
from tienlen.actions import Action, Move
from tienlen.arena import play_out
from tienlen.bots import Bot, bot_names, get_bot
from tienlen.bots.protocol import view_to_json
from tienlen.shapes import PASS
from tienlen.view import View

PRESETS = Rules.presets()
BOTS = bot_names()
PAGAT = Rules.preset("pagat")
JUSTUS = Rules.preset("justus-pang")
OUT_OF_TURN = PAGAT.replace(chop_out_of_turn=True)
MUTUAL = PAGAT.replace(trading="mutual")
PRESIDENT = PAGAT.replace(trading="president")
CARDRULES = Rules.preset("cardrules")


def trading_game(seed: int) -> Game:
    """A mutual-trading hand of six cards a seat, from a shuffled pack."""
    deck = [Card.parse(r + s) for r in "3456789TJQKA2" for s in "scdh"]
    random.Random(seed).shuffle(deck)
    return Game(MUTUAL, [deck[6 * i:6 * i + 6] for i in range(4)])


def make(name: str, seed: int = 1, worlds: int = 2) -> Bot:
    """A bot with a budget small enough for tests (search: a few sampled deals, no clock)."""
    if name == "search":
        return get_bot("search", seed=seed, worlds=worlds, seconds=None)
    return get_bot(name, seed=seed)


def kind_of(view: View) -> str:
    """The kind of decision a view asks for, as a player would name it."""
    if view.phase == "claim":
        return "claim"
    if view.phase == "return":
        return "return"
    if view.phase == "trade":
        first = view.legal[0]
        assert isinstance(first, Action)
        return {"offer": "offer", "done": "offer", "answer": "answer", "refuse": "answer",
                "accept": "accept"}[first.kind]
    assert view.phase == "play"
    if view.turn != view.seat:
        return "out_of_turn"
    if view.stacking:
        return "stacking"
    if view.table is None:
        return "lead"
    if view.passed[view.seat]:
        return "chop_after_pass"
    return "follow"


class Checked:
    """A bot that must answer every view with one of its legal actions; notes what it was asked."""

    def __init__(self, bot: Bot, kinds: Counter[str]) -> None:
        self.bot = bot
        self.name = bot.name
        self.kinds = kinds

    def choose(self, view: View) -> Move:
        move = self.bot.choose(view)
        assert move in view.legal, (self.name, kind_of(view), str(move))
        self.kinds[kind_of(view)] += 1
        return move


def play_hand(game: Game, bots: list[Bot]) -> Counter[str]:
    kinds: Counter[str] = Counter()
    failures = play_out(game, [Checked(b, kinds) for b in bots])
    assert failures == []
    assert game.is_over
    return kinds


def lineup(name: str, players: int, seed: int) -> list[Bot]:
    """The bot under test at every seat; the slow search bot at one seat among heuristics."""
    if name != "search":
        return [make(name, seed + seat) for seat in range(players)]
    bots = [make("heuristic", seed + seat) for seat in range(players)]
    bots[seed % players] = make("search", seed, worlds=1)
    return bots


# ---------------------------------------------------------------------- legal answers
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", BOTS)
def test_every_bot_plays_legal_actions_whole_hands_under_every_preset_and_table_size(
        name: str, preset: str) -> None:
    rules = Rules.preset(preset)
    kinds: Counter[str] = Counter()
    for players in range(2, 9):
        game = Game.deal(rules, players, seed=100 * players + len(preset))
        kinds += play_hand(game, lineup(name, players, players))
    assert kinds["lead"] > 0 and kinds["follow"] > 0


@pytest.mark.parametrize("name", BOTS)
def test_every_bot_plays_legal_actions_through_the_house_rules_that_add_decisions(name: str) -> None:
    """Stacking and chops after a pass (justus-pang), out-of-turn chops, mutual trading,
    and a session with president exchanges: whole hands, every answer legal."""
    kinds: Counter[str] = Counter()
    for seed in range(3):
        for rules in (JUSTUS, OUT_OF_TURN):
            kinds += play_hand(Game.deal(rules, 4, seed=seed), lineup(name, 4, seed))
        kinds += play_hand(trading_game(seed), lineup(name, 4, seed))
        session = Session(PRESIDENT, players=4, seed=seed)
        kinds += play_hand(session.game, lineup(name, 4, seed))
        session.next_hand()
        kinds += play_hand(session.game, lineup(name, 4, seed))
    assert kinds["offer"] > 0 and kinds["return"] > 0 and kinds["stacking"] > 0


def position(kind: str) -> tuple[Game, int]:
    """A game where ``seat`` faces a decision of ``kind``."""
    if kind == "lead":
        return Game.deal(PAGAT, 4, seed=3), -1
    if kind == "follow":
        game = Game(PAGAT, ["3s 9s Jd Qh", "5c 8h Kd", "4d 6d Ks", "7s 8c Ac"], leader=0,
                    first_hand=False)
        game.play("3s")
        return game, 1
    if kind == "chop_after_pass":  # justus-pang: seat 1 passed, then a two came down
        game = Game(JUSTUS, ["3s 9s Jd Qh", "7s 7c 7d 7h 4d 5d", "2c 8h 6s"], leader=0,
                    first_hand=False)
        for move in ("3s", "pass", "2c", "pass"):
            game.play(move)
        return game, 1
    if kind == "stacking":  # everyone passed on seat 0's single: it may stack or clear
        game = Game(JUSTUS, ["3s 9s Jd Qh", "7s 7c 4d 5d", "2c 8h 6s"], leader=0,
                    first_hand=False)
        for move in ("3s", "pass", "pass"):
            game.play(move)
        return game, 0
    if kind == "out_of_turn":  # seat 3 may drop its quad on seat 1's two
        game = Game(OUT_OF_TURN, ["3s 9s Jd Qh", "2c 8h 6s", "4d 5d Ks", "7s 7c 7d 7h 4h"],
                    leader=0, first_hand=False)
        game.play("3s")
        game.play("2c")
        return game, 3
    if kind == "claim":
        return Game(CARDRULES, DRAGON_DEAL), 0
    if kind in ("offer", "answer", "accept"):
        game = Game(MUTUAL, TRADE_DEAL, leader=0)
        if kind != "offer":
            game.play("offer 1 3s")
        if kind == "accept":
            game.play("answer 0 4s")
        return game, game.turn if game.turn is not None else -1
    assert kind == "return"
    return Game(PRESIDENT, DRAGON_DEAL, first_hand=False, exchange=[(3, 0, 2), (2, 1, 1)]), 0


def asked(game: Game, seat: int) -> View:
    """The view a bot is given, as the arena gives it (a chop chance lists PASS for no chop)."""
    if seat == -1:
        seat = game.turn if game.turn is not None else 0
    view = game.view(seat)
    if seat in game.out_of_turn_seats():
        view = dataclasses.replace(view, legal=(*view.legal, PASS))
    return view


KINDS = ["lead", "follow", "chop_after_pass", "stacking", "out_of_turn", "claim", "offer",
         "answer", "accept", "return"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", BOTS)
def test_every_bot_answers_every_kind_of_decision_with_a_legal_action(name: str, kind: str) -> None:
    game, seat = position(kind)
    view = asked(game, seat)
    assert kind_of(view) == kind
    for seed in range(4):
        move = make(name, seed).choose(view)
        assert move in view.legal
        if not (kind == "out_of_turn" and move == PASS):  # that pass only says "no chop"
            game.copy().play(move, seat=view.seat)


@pytest.mark.parametrize("name", [n for n in BOTS if n != "random"])
def test_a_bot_that_holds_an_instant_win_claims_it(name: str) -> None:
    game, seat = position("claim")
    assert make(name).choose(asked(game, seat)) == Action("claim", win="dragon")


def test_play_out_offers_out_of_turn_chops_and_a_pass_means_no_chop() -> None:
    game, _ = position("out_of_turn")
    offers: list[View] = []

    class Scripted:
        name = "scripted"

        def choose(self, view: View) -> Move:
            if view.turn != view.seat:
                offers.append(view)
                return PASS
            return make("greedy").choose(view)

    play_out(game, [Scripted() for _ in range(4)])
    first = offers[0]
    assert first.seat == 3 and first.table == Play.parse("2c")
    assert set(first.legal) == {Play.parse("7s 7c 7d 7h"), PASS}
    # seat 3 said no: seat 2, on turn, acted next on the two
    assert [s for s, _ in game.history[:3]] == [0, 1, 2]
    assert game.is_over


# ---------------------------------------------------------------------- reproducible
def history_of(name: str, rules: Rules, seed: int, deal: int = 5) -> list[tuple[int, str]]:
    game = trading_game(deal) if rules.trading == "mutual" else Game.deal(rules, 4, seed=deal)
    play_out(game, lineup(name, 4, seed))
    return [(s, str(m)) for s, m in game.history]


@pytest.mark.parametrize("name", BOTS)
def test_a_seeded_bot_makes_the_same_choices_over_a_whole_hand(name: str) -> None:
    for rules in (PAGAT, MUTUAL):
        assert history_of(name, rules, seed=7) == history_of(name, rules, seed=7)


def test_random_bots_with_other_seeds_play_the_hand_differently() -> None:
    assert history_of("random", PAGAT, seed=7) != history_of("random", PAGAT, seed=8)


# ---------------------------------------------------------------------- hidden cards
@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("justus-pang", 3), ("killer", 2),
                                                 ("viet-cong", 6)])
@pytest.mark.parametrize("name", BOTS)
def test_a_bot_chooses_alike_whatever_cards_the_others_hide(name: str, preset: str,
                                                           players: int) -> None:
    for seed, steps in ((1, 1), (2, 6), (3, 12)):
        a, b = twin_games(Rules.preset(preset), players, seed, steps)
        view_a, view_b = a.view(0), b.view(0)
        assert view_a == view_b
        assert view_to_json(view_a) == view_to_json(view_b)
        assert make(name, 11).choose(view_a) == make(name, 11).choose(view_b)


CARD_TOKEN = re.compile(r"(?<![\w])([2-9TJQKA][scdh])(?![\w])")


def json_leaks(game: Game, seat: int) -> set[str]:
    """Cards of other seats' hands that appear in the seat's JSON view, beyond what it knows
    (its hand, cards played, and the cards of trades and gifts it took part in)."""
    known = {str(c) for c in game.hand(seat)}
    for s, m in game.history:
        if isinstance(m, Play) or (isinstance(m, Action) and seat in (s, m.other)):
            known |= {str(c) for c in m.cards}
    secret = {str(c) for s in range(game.players) if s != seat for c in game.hand(s)} - known
    text = json.dumps(view_to_json(game.view(seat)))
    return set(CARD_TOKEN.findall(text)) & secret


def test_the_json_view_never_shows_a_card_of_another_hand_while_the_hand_is_played() -> None:
    checked = 0
    # every preset and every table size, mutual trading, and optional instant-win claims
    games = [Game.deal(Rules.preset(preset), 2 + i % 7, seed=i) for i, preset in enumerate(PRESETS)]
    games += [trading_game(2), Game(CARDRULES, DRAGON_DEAL)]
    for game in games:
        players = game.players
        rng = random.Random(players)
        step = 0
        while not game.is_over:
            # every seat before play begins; then the seat on turn and one other, in rotation
            seats = range(players) if game.phase != "play" else {game.turn, step % players}
            for seat in seats:
                assert seat is not None and json_leaks(game, seat) == set()
                checked += 1
            step += 1
            turn = game.turn
            assert turn is not None
            legal = game.legal_plays(turn)
            game.play(legal[rng.randrange(len(legal))] if rng.random() < 0.3 else
                      make("greedy").choose(game.view(turn)), seat=turn)
    # and a president exchange, from the second hand of a session
    session = Session(PRESIDENT, players=4, seed=4)
    play_out(session.game, [make("greedy") for _ in range(4)])
    session.next_hand()
    game = session.game
    while not game.is_over:
        for seat in range(4):
            assert json_leaks(game, seat) == set()
            checked += 1
        turn = game.turn
        assert turn is not None
        game.play(make("heuristic").choose(game.view(turn)), seat=turn)
    assert checked > 500


def test_the_json_view_holds_the_seats_own_hand_and_the_others_only_as_counts() -> None:
    game = Game.deal(PAGAT, 4, seed=9)
    data = view_to_json(game.view(2))
    assert data["hand"] == [str(c) for c in game.hand(2)]
    assert data["counts"] == [13, 13, 13, 13]
    assert data["legal"] == [str(m) for m in game.legal_plays(2)]
    assert data["out_of_turn"] is (game.turn != 2)


# ---------------------------------------------------------------------- the heuristic as a player
def heuristic_choice(rules: Rules, hands: list[str], moves: list[str], leader: int) -> str:
    game = Game(rules, hands, leader=leader, first_hand=False)
    for move in moves:
        game.play(move)
    turn = game.turn
    assert turn is not None
    return str(make("heuristic").choose(game.view(turn)))


@pytest.mark.parametrize(("hands", "moves", "out"), [
    (["2s 2h", "5c 5d 6c Qh Kh 3d 3h 7d"], ["5c 5d"], "2s 2h"),  # spends its twos to go out
    (["Js Qd Kc", "5c 6c Qh Kh 3d 3h 7d"], [], "Js Qd Kc"),
    (["2h", "5c 6c Qh Kh 3d 3h 7d"], ["5c"], "2h"),
    (["7s 7c 7d 7h", "2c 6c Qh Kh 3d 3h 8d"], ["2c"], "7s 7c 7d 7h"),
])
def test_the_heuristic_goes_out_when_it_can(hands: list[str], moves: list[str], out: str) -> None:
    leader = 1 if moves else 0
    assert heuristic_choice(PAGAT, hands, moves, leader) == out


def test_the_heuristic_does_not_break_its_run_to_beat_a_small_single() -> None:
    # a pair of threes, a low single and the run 8-9-T against a 5: every beat breaks the run
    hands = ["3c 3d 4s 8h 9s Ts", "5c 6c Qh Kh 3h 7d Jc"]
    assert heuristic_choice(PAGAT, hands, ["5c"], leader=1) == "pass"
    # with a clean single that beats, it plays that and keeps the run
    hands = ["3c 3d 4s 8h 9s Ts Ac", "5c 6c Qh Kh 3h 7d Jc"]
    assert heuristic_choice(PAGAT, hands, ["5c"], leader=1) == "Ac"


@pytest.mark.parametrize(("bomb_hand", "target", "bomb"), [
    ("4s 7s 7c 7d 7h 9s Jd Qc", "2c", "7s 7c 7d 7h"),
    ("4s 6s 6c 7d 7h 8s 8d Qc", "2c", "6s 6c 7d 7h 8s 8d"),
    ("4s 6s 6c 7d 7h 8s 8d 9s 9h Qc", "2c 2h", "6s 6c 7d 7h 8s 8d 9s 9h"),
])
def test_the_heuristic_chops_a_two_with_a_bomb(bomb_hand: str, target: str, bomb: str) -> None:
    other = "2c 2h 6h Qh Kh 3d 3h 9d" if " " in target else "2c 6h Qh Kh 3d 3h 9d"
    assert heuristic_choice(PAGAT, [bomb_hand, other], [target], leader=1) == bomb


def test_the_heuristic_chops_a_two_out_of_turn() -> None:
    game, seat = position("out_of_turn")
    assert make("heuristic").choose(asked(game, seat)) == Play.parse("7s 7c 7d 7h")


@pytest.mark.parametrize(("hand", "lead"), [
    ("4s 4h 6d 7c 8h Qs Kd 2c", "4s 4h"),
    ("5s 6d 7c 8h Qs Kd 2c 4h", "4h 5s 6d 7c 8h"),
    ("5s 6d 7c 9h 9s Kd 2c Th", "5s 6d 7c"),
])
def test_the_heuristic_leads_its_lowest_group(hand: str, lead: str) -> None:
    assert heuristic_choice(PAGAT, [hand, "5c 6c Qh Kh 3d 3h 7d"], [], leader=0) == lead


@pytest.mark.parametrize("hands", [
    ["3s 9d 9h Js Qd Kc", "5c"],
    ["3s 5d 9d 9h Js Qd Kc", "5c 6c Qh Kh 3d 3h 7d", "8c"],
    ["3s 5d 6h 7c Js Qd Kc", "5c 6c Qh Kh 3d 3h 7d", "8d"],
])
def test_when_an_opponent_holds_one_card_the_heuristic_leads_no_low_single(hands: list[str]) -> None:
    lead = Play.parse(heuristic_choice(PAGAT, hands, [], leader=0))
    assert len(lead.cards) > 1


# ---------------------------------------------------------------------- §11: the Vietnamese rules
def test_the_heuristic_takes_a_free_chop_offered_against_a_two():
    from tienlen import Game, Rules
    from tienlen.bots import get_bot

    game = Game(Rules.preset("mien-nam"), ["2h 3h", "9c Kd", "5s 5c 6s 6c 7s 7c 8s 8c Qh",
                                           "Tc Jd"], leader=1, first_hand=False)
    for text in ("9c", "pass", "Tc", "2h"):
        game.play(text)
    assert game.out_of_turn_seats() == [2, 3]
    bot = get_bot("heuristic", seed=1)
    assert str(bot.choose(game.view(2))) == "5s 5c 6s 6c 7s 7c 8s 8c"
    assert str(bot.choose(game.view(3))) == "pass"  # offered, holding none
    search = get_bot("search", seed=1, steps=200)
    assert str(search.choose(game.view(2))) == "5s 5c 6s 6c 7s 7c 8s 8c"


def test_the_heuristic_knows_a_single_is_unbeatable_when_its_suit_is_gone_under_follow_suit():
    from tienlen import Card, Play, Rules
    from tienlen.bots.heuristic import Situation, _is_boss
    from tienlen.bots.split import counts_of

    def situation(rules: Rules, unseen: str) -> Situation:
        keys = [rules.key(c) for c in Play.parse(unseen).cards]
        return Situation((rules.key(Card.parse("Kh")),), (), None, (5,), counts_of(keys),
                         max(keys), rules, frozenset(keys), True)

    bac = Rules.preset("mien-bac")
    king = Play.parse("Kh", bac)
    assert _is_boss(king, situation(bac, "As Ad 9h"))  # no higher heart, no two
    assert not _is_boss(king, situation(bac, "As Ah"))  # the ace of hearts
    assert not _is_boss(king, situation(bac, "9h 2s"))  # a two beats any single
    nam = Rules.preset("mien-nam")
    assert not _is_boss(Play.parse("Kh", nam), situation(nam, "As Ad 9h"))


def test_search_follows_the_rules_scoring():
    from tienlen import Game, Rules
    from tienlen.bots.search import _objective_for

    for preset, objective in (("mien-nam", "units"), ("mien-bac", "units"), ("pagat", "first")):
        view = Game.deal(Rules.preset(preset), 4, seed=1).view(0)
        assert _objective_for("rules", view) == objective
    view = Game.deal(Rules.preset("pagat").replace(penalty_two=1), 4, seed=1).view(0)
    assert _objective_for("rules", view) == "units"
    assert _objective_for("place", view) == "place"


def test_search_on_the_pure_path_plays_out_every_world_its_budget_allows(monkeypatch):
    """Each of its worlds, every candidate played out to the end, until the steps run out: a
    search of 6 worlds on a budget it cannot spend plays each candidate on 6 deals (a playout's
    length once stood in for the budget, and search stopped after its first world)."""
    from tienlen import Game, Rules
    from tienlen.bots import search

    monkeypatch.setenv("TIENLEN_PURE", "1")
    played: list[int] = []
    real = search.played_out

    def counted(deal, move, seat):
        played.append(1)
        return real(deal, move, seat)

    monkeypatch.setattr(search, "played_out", counted)
    game = Game.deal(Rules.preset("pagat"), 4, seed=3)
    while len(game.view(game.turn).legal) < 3:
        game.play(game.legal_plays()[0])
    view = game.view(game.turn)
    bot = search.SearchBot(seed=1, steps=10**9, worlds=6, inference=0.0)
    candidates = bot._candidates(view)
    assert len(candidates) > 1
    bot.choose(view)
    assert len(played) == 6 * len(candidates)


@pytest.mark.parametrize("preset", ["mien-nam", "mien-bac"])
def test_the_bots_play_the_vietnamese_presets_to_the_end(preset):
    from tienlen import Game, Rules
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    for seed in range(3):
        game = Game.deal(Rules.preset(preset), 4, seed=seed)
        bots = [get_bot("search", seed=seed, steps=150), get_bot("heuristic", seed=1),
                get_bot("greedy", seed=2), get_bot("random", seed=3)]
        assert play_out(game, bots) == []
        assert game.is_over and sum(game.scores) == 0


def test_rollouts_take_free_chops():
    from tienlen import Game, Rules
    from tienlen.bots.rollout import playout

    game = Game(Rules.preset("mien-nam"), ["2h 3h", "9c Kd", "5s 5c 6s 6c 7s 7c 8s 8c Qh",
                                           "Tc Jd"], leader=1, first_hand=False)
    for text in ("9c", "pass", "Tc", "2h"):
        game.play(text)
    playout(game)
    assert game.is_over
    assert (2, "5s 5c 6s 6c 7s 7c 8s 8c") in [(s, str(m)) for s, m in game.history]


def test_under_follow_suit_the_heuristic_plans_each_colour_apart():
    from tienlen import Play, Rules
    from tienlen.bots.heuristic import _colour_plan

    bac = Rules.preset("mien-bac")

    def keys(text: str) -> tuple[int, ...]:
        return tuple(sorted(bac.key(c) for c in Play.parse(text).cards))

    assert _colour_plan(keys("7s 7c"), bac)[0] == 1  # a black pair
    assert _colour_plan(keys("7s 7d"), bac)[0] == 2  # no pair: two singles
    base, plan, after = _colour_plan(keys("5s 5c 6s 6c 7s 7c 9h"), bac)
    assert base == 2 and ("chain", 2, 3, 2) in plan  # a black chain and the nine
    assert after(keys("9h")) == 1 and after(keys("6s")) > 1


def test_search_with_learned_candidates_plays_legal_moves_and_repeats_itself():
    pytest.importorskip("numpy")
    assert "learned" in __import__("tienlen.bots", fromlist=["bot_options"]).bot_options("search")
    for preset in ("pagat", "mien-nam"):
        histories = []
        for _ in range(2):
            game = Game.deal(Rules.preset(preset), 4, seed=3)
            bots = [get_bot("search", seed=5, steps=300, learned=2),
                    *(get_bot("heuristic", seed=s) for s in range(3))]
            assert play_out(game, bots) == []  # every move legal, the hand played out
            histories.append([(s, str(m)) for s, m in game.history])
        assert histories[0] == histories[1]


def test_search_takes_the_learned_networks_best_plays_as_candidates():
    pytest.importorskip("numpy")
    from tienlen.bots.learned import load_net, ranked_plays

    game = Game.deal(PAGAT, 4, seed=2)
    heuristic = get_bot("heuristic", seed=1)
    while len(game.view(game.turn).legal) < 20:  # a decision with many plays
        game.play(heuristic.choose(game.view(game.turn)), game.turn)
    view = game.view(game.turn)
    plays = [m for m in view.legal if isinstance(m, Play)]
    best = ranked_plays(view, plays, load_net())
    plain = get_bot("search", seed=1)._candidates(view)  # type: ignore[attr-defined]
    mixed = get_bot("search", seed=1, learned=3)._candidates(view)  # type: ignore[attr-defined]
    assert mixed[0] == plain[0] and len(mixed) == len(plain) == 6  # the heuristic's choice first
    assert mixed[1:4] == [p for p in best if p != plain[0]][:3]
    assert set(plain[1:]) != set(mixed[1:])
    with pytest.raises(ValueError, match="learned"):
        get_bot("search", learned=-1)


def test_search_without_numpy_ignores_the_learned_candidates(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy fails
    bot = get_bot("search", seed=1, learned=2)
    assert bot._net is None  # type: ignore[attr-defined]
    game = Game.deal(PAGAT, 4, seed=2)
    game.play(get_bot("heuristic", seed=1).choose(game.view(game.turn)), game.turn)
    view = game.view(game.turn)
    assert bot._candidates(view) == get_bot("search", seed=1)._candidates(view)  # type: ignore[attr-defined]
