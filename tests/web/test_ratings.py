"""Ratings as a player meets them: families, anchors, provisional ratings, leavers, which
tables are rated, and the leaderboard (in memory; the SQL store: test_ratings_store.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("openskill", reason="ratings need the web extra")

from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.game import Game
from tienlen.rules import PRESETS, Rules
from tienlen.web.lobby.lobby import make_rules
from tienlen.web.ratings.anchors import MEASURED
from tienlen.web.ratings.ratings import (
    FAMILIES,
    PROVISIONAL_HANDS,
    Bot,
    Rating,
    anchor,
    family_of,
    places,
    rate_hand,
    rated_family,
    shown,
    shown_spread,
)
from tienlen.web.ratings.store import TREND_HANDS, MemoryRatingStore, record_hand
from tienlen.web.room.ladder import MEASURED as LADDER
from tienlen.web.tablelog.writes import TableSettings


def settings(preset: str = "pagat", options: str = "", fixed_seed: bool = False) -> TableSettings:
    rules = make_rules(preset, options)
    return TableSettings("t1", rules.to_toml(), 4, 7, 30.0, 0.0, fixed_seed=fixed_seed)


def test_every_preset_has_exactly_one_family() -> None:
    for preset in Rules.presets():
        holding = [family for family, presets in FAMILIES.items() if preset in presets]
        assert len(holding) == 1, preset
        assert family_of(preset) == holding[0]
    assert {p for presets in FAMILIES.values() for p in presets} == set(PRESETS)
    assert family_of("custom") is None
    assert family_of("mien-bac") == "northern" and family_of("killer") == "southern"
    assert family_of("kenneth-lu") == "published"


# the levels the arena measured anchors for at its first table (scripts/ratings_anchors.py);
# the stronger ones a family offers (ladder.MEASURED) each at a table of their own
BOT_LEVELS = ("random", "greedy", "heuristic")


def test_every_anchored_bot_level_has_a_measured_anchor_in_every_family() -> None:
    for family in FAMILIES:
        levels = {level: anchor(family, level) for level in BOT_LEVELS}
        # the arena's measured order: random is far below the others in every family
        assert levels["random"].mu < levels["greedy"].mu < levels["heuristic"].mu
        assert all(0 < r.sigma < 1 for r in levels.values())  # measured over thousands of hands


def test_every_level_a_family_offers_has_an_anchor_and_search_is_above_heuristic() -> None:
    for family, stronger in LADDER.items():
        for level in stronger:
            rated = anchor(family, level)
            assert 0 < rated.sigma < 1  # measured over hundreds of hands
            assert rated.mu > anchor(family, "heuristic").mu  # as the ladder measured it
    assert set(MEASURED["published"]["stronger"]) == {"learned", "search"}


def test_a_win_against_stronger_bots_raises_the_rating_more() -> None:
    strong = rate_hand("published", ["me", Bot("heuristic"), Bot("heuristic"), Bot("heuristic")],
                       [0, 1, 2, 3], {})["me"]
    weak = rate_hand("published", ["me", Bot("random"), Bot("random"), Bot("random")],
                     [0, 1, 2, 3], {})["me"]
    assert strong.mu > weak.mu > Rating().mu
    # and a loss to weaker bots costs more than a loss to stronger ones
    lost_weak = rate_hand("published", ["me", Bot("random"), Bot("random"), Bot("random")],
                          [1, 2, 3, 0], {})["me"]
    lost_strong = rate_hand("published", ["me", Bot("heuristic"), Bot("heuristic"),
                                          Bot("heuristic")], [1, 2, 3, 0], {})["me"]
    assert lost_weak.mu < lost_strong.mu < Rating().mu


def test_a_place_higher_is_worth_more_and_counts_first_places() -> None:
    seats = ["ann", "bob", Bot("greedy"), Bot("greedy")]
    after = rate_hand("southern", seats, [0, 2, 1, 3], {})
    assert after["ann"].mu > after["bob"].mu
    assert (after["ann"].hands, after["ann"].firsts) == (1, 1)
    assert (after["bob"].hands, after["bob"].firsts) == (1, 0)
    assert set(after) == {"ann", "bob"}  # bots are not rated players of the store


def test_a_bots_anchor_never_moves() -> None:
    store = MemoryRatingStore()
    before = {level: anchor("published", level) for level in BOT_LEVELS}
    for k in range(30):  # the player beats every bot, hand after hand
        record_hand(store, "published", ["me", Bot("random"), Bot("greedy"), Bot("heuristic")],
                    [0, 1 + k % 3, 1 + (k + 1) % 3, 1 + (k + 2) % 3])
    assert {level: anchor("published", level) for level in BOT_LEVELS} == before
    assert store.get("me", "published") is not None
    assert all(store.get(level, "published") is None for level in BOT_LEVELS)


def test_provisional_for_the_first_20_rated_hands() -> None:
    store = MemoryRatingStore()
    seats = ["me", Bot("greedy"), Bot("greedy"), Bot("greedy")]
    for hand in range(PROVISIONAL_HANDS):
        rating = store.get("me", "published")
        assert rating is None or rating.provisional
        record_hand(store, "published", seats, [hand % 4, (hand + 1) % 4, (hand + 2) % 4,
                                                (hand + 3) % 4])
    rating = store.get("me", "published")
    assert rating is not None and rating.hands == 20 and not rating.provisional
    assert rating.sigma < Rating().sigma  # twenty hands made it surer
    assert rating.conservative == rating.mu - 3 * rating.sigma


def test_a_player_who_leaves_is_rated_last() -> None:
    seats = ["quitter", "stayer", Bot("greedy"), Bot("greedy")]
    # the quitter's seat, played on by a bot, went out first: the player is rated last anyway
    assert places([0, 1, 2, 3], left={0}) == [3, 0, 1, 2]
    left = rate_hand("published", seats, [0, 1, 2, 3], {}, left={0})
    last = rate_hand("published", seats, [1, 2, 3, 0], {})
    assert left["quitter"] == last["quitter"]
    assert left["quitter"].mu < Rating().mu and left["quitter"].firsts == 0
    assert left["stayer"].firsts == 1  # the best of those who stayed took first place
    # two who leave share the last place
    assert places([2, 0, 1, 3], left={0, 1}) == [2, 2, 0, 1]


def test_any_table_size_rates_in_its_family() -> None:
    for players in (2, 3, 8):
        game = Game.deal(Rules.preset("pagat"), players, seed=3)
        play_out(game, [get_bot("greedy", seed=s) for s in range(players)])
        seats: list[str | Bot] = [f"p{s}" for s in range(players)]
        after = rate_hand("published", seats, game.finish_order, {})
        winner = game.finish_order[0]
        assert after[f"p{winner}"].mu == max(r.mu for r in after.values())
        assert after[f"p{winner}"].firsts == 1


def test_one_player_cannot_take_two_seats_of_a_rated_hand() -> None:
    with pytest.raises(ValueError):
        rate_hand("published", ["me", "me", Bot("greedy"), Bot("greedy")], [0, 1, 2, 3], {})
    with pytest.raises(ValueError):
        rate_hand("published", ["me", Bot("greedy")], [0, 0], {})
    assert rate_hand("published", [Bot("greedy"), Bot("random")], [1, 0], {}) == {}


def test_which_tables_are_rated() -> None:
    assert rated_family(settings("pagat")) == "published"
    assert rated_family(settings("mien-bac")) == "northern"
    assert rated_family(settings("viet-cong")) == "southern"
    assert rated_family(settings("pagat", "stake = 5")) is None  # changed options
    assert rated_family(settings("mien-nam", "cong = false")) is None
    assert rated_family(settings("pagat", fixed_seed=True)) is None  # a practice table
    # naming an option at its preset's own value changes nothing: still rated
    same = Rules.preset("pagat").stake
    assert rated_family(settings("pagat", f"stake = {same}")) == "published"


def test_a_rating_is_shown_on_the_familiar_scale() -> None:
    # a newcomer at 1500; one performance spread of skill, at which the better of two players
    # finishes ahead about three times in four, is 200 points, as in chess
    assert shown(25.0) == Rating().shown == 1500
    assert shown(25.0 + 25 / 6) == 1700 and shown(25.0 - 25 / 6) == 1300
    assert shown_spread(25 / 6) == 200 and shown_spread(25 / 3) == 400


def test_the_leaderboard_ranks_settled_players_by_the_rating_shown() -> None:
    store = MemoryRatingStore()
    store.put("surer", "published", Rating(30.0, 2.0, 25, 9))  # 1740
    store.put("better", "published", Rating(35.0, 5.0, 40, 12))  # 1980: first, surer or not
    store.put("new-star", "published", Rating(45.0, 3.0, 19, 15))  # provisional: not listed
    store.put("northern", "northern", Rating(40.0, 1.0, 50, 30))  # another family
    board = store.leaderboard("published")
    assert [(s.player, s.rating.shown) for s in board] == [("better", 1980), ("surer", 1740)]
    assert (board[1].rating.hands, board[1].rating.firsts) == (25, 9)
    assert [s.player for s in store.leaderboard("northern")] == ["northern"]
    assert store.leaderboard("southern") == []


def test_the_leaderboard_shows_the_trend_of_the_last_hands() -> None:
    store = MemoryRatingStore()
    seats = ["climber", Bot("heuristic"), Bot("heuristic"), Bot("heuristic")]
    for hand in range(PROVISIONAL_HANDS + 5):
        # last for the first hands, then first every hand: the rating climbs at the end
        record_hand(store, "published", seats, [1, 2, 3, 0] if hand < 12 else [0, 1, 2, 3])
    (line,) = store.leaderboard("published")
    curve = store.history("climber", "published")
    assert [p.hands for p in curve] == list(range(1, PROVISIONAL_HANDS + 6))
    assert line.trend == shown(curve[-1].mu) - shown(curve[-1 - TREND_HANDS].mu)
    assert line.trend is not None and line.trend > 0
    assert store.history("climber", "published", limit=3) == curve[-3:]
