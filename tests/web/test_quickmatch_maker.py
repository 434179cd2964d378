"""Quick match's matchmaker as a pure function: who sits with whom, and with which bots."""

from __future__ import annotations

import importlib.util

from tienlen.web.matchmaker import OpenSeat, bot_level, plan
from tienlen.web.quickmatch.matchqueue import QueueEntry
from tienlen.web.ratings.ratings import anchor

NOW = 1_000_000.0
WAIT = 20.0


def entry(who: str, mu: float = 25.0, waited: float = 0.0, size: int = 4,
          family: str = "southern", device: str | None = None) -> QueueEntry:
    return QueueEntry(who, who.title(), family, size, mu, 8.0, NOW - waited, device)


def names(group: object) -> set[str]:
    return {e.identity for e in group.players}  # type: ignore[attr-defined]


def test_a_full_group_of_the_closest_ratings_is_seated_at_once() -> None:
    # eight players, two clusters: the four strong ones sit together, the four weak ones too
    waiting = [entry("a", 10), entry("b", 40), entry("c", 11), entry("d", 41),
               entry("e", 12), entry("f", 42), entry("g", 13), entry("h", 43)]
    made = plan(waiting, {}, NOW, WAIT)
    assert sorted(sorted(names(g)) for g in made.groups) == [["a", "c", "e", "g"],
                                                              ["b", "d", "f", "h"]]
    assert all(g.bots == 0 and g.level is None for g in made.groups)


def test_nobody_is_seated_before_the_wait_unless_the_table_is_full() -> None:
    waiting = [entry("a", waited=WAIT - 1), entry("b", waited=5)]
    assert plan(waiting, {}, NOW, WAIT).groups == ()


def test_after_the_wait_the_oldest_is_seated_with_the_closest_and_bots() -> None:
    waiting = [entry("old", 25, waited=WAIT + 1), entry("near", 27, waited=1),
               entry("far", 45, waited=2), entry("mid", 30, waited=3)]
    sized = [*waiting, entry("other-queue", 25, waited=WAIT + 5, size=2)]
    made = plan(sized, {}, NOW, WAIT)
    four = next(g for g in made.groups if g.size == 4)
    assert names(four) == {"old", "near", "mid", "far"}  # all four fit: a full table
    waiting = [entry("old", 25, waited=WAIT + 1), entry("near", 27, waited=1)]
    made = plan(waiting, {}, NOW, WAIT)
    (group,) = made.groups
    assert names(group) == {"old", "near"} and group.bots == 2 and group.level is not None


def test_a_block_either_way_keeps_two_players_apart() -> None:
    waiting = [entry("a", 25), entry("b", 25), entry("c", 25), entry("d", 25), entry("e", 60)]
    for blocks in ({"a": frozenset({"b"})}, {"b": frozenset({"a"})}):
        made = plan(waiting, blocks, NOW, WAIT)
        for group in made.groups:
            assert not {"a", "b"} <= names(group)
    # and after the wait too: the blocker's group leaves the blocked out, bots sit instead
    waiting = [entry("a", 25, waited=WAIT + 2), entry("b", 25, waited=WAIT + 1)]
    made = plan(waiting, {"a": frozenset({"b"})}, NOW, WAIT)
    assert sorted(sorted(names(g)) for g in made.groups) == [["a"], ["b"]]


def test_one_browser_is_never_seated_twice_at_a_rated_table() -> None:
    waiting = [entry("a", waited=WAIT + 2, device="d1"), entry("b", waited=WAIT + 1, device="d1")]
    assert sorted(sorted(names(g)) for g in plan(waiting, {}, NOW, WAIT).groups) == [["a"], ["b"]]


def test_the_bots_level_is_the_one_anchored_nearest_the_players() -> None:
    weak = anchor("southern", "random").mu
    normal = anchor("southern", "heuristic").mu
    offered = ("learned", "search") if importlib.util.find_spec("numpy") else ("search",)
    strongest = max(offered, key=lambda level: anchor("southern", level).mu)
    assert bot_level("southern", [weak - 1, weak + 1]) == "random"
    assert bot_level("southern", [normal + 0.5]) == "heuristic"
    assert bot_level("southern", [anchor("southern", strongest).mu + 3]) == strongest
    made = plan([entry("w", weak, waited=WAIT + 1)], {}, NOW, WAIT)
    assert made.groups[0].level == "random"


def test_a_quick_match_of_two_never_gets_a_level_that_plays_behind_normal_at_two() -> None:
    hard = anchor("published", "learned").mu
    numpy = importlib.util.find_spec("numpy") is not None  # the learned bot's network needs it
    assert bot_level("published", [hard], 4) == ("learned" if numpy else "search")
    assert bot_level("published", [hard], 2) == "search"  # the nearest anchor offered at two


def live(table_id: str, seat: int, players: tuple[tuple[str, float], ...]) -> OpenSeat:
    """A bot's seat at a table with a hand in play and a player connected."""
    return OpenSeat(table_id, "southern", 4, seat, players, connected=1, in_play=True)


def test_a_later_player_takes_a_bots_seat_close_in_rating_not_a_blocked_ones() -> None:
    seats = [live("far", 2, (("p1", 45.0),)),
             live("near", 3, (("p2", 26.0),)),
             live("blocker", 1, (("p3", 25.0),))]
    made = plan([entry("late", 25)], {"p3": frozenset({"late"})}, NOW, WAIT, seats)
    assert [(t.entry.identity, t.table_id, t.seat) for t in made.takes] == [("late", "near", 3)]
    assert made.groups == ()
    # too far from every table: it waits for players of its own rating instead
    made = plan([entry("late", 5)], {}, NOW, WAIT, seats[:1])
    assert made.takes == () and made.groups == ()


def test_only_a_table_that_will_deal_the_next_hand_offers_a_seat() -> None:
    players = (("p1", 25.0), ("p2", 25.0))
    nobody = OpenSeat("gone", "southern", 4, 2, players, connected=0, in_play=True)
    between = OpenSeat("paused", "southern", 4, 3, players, connected=2, in_play=False)
    for dead in (nobody, between):  # nobody there, or between hands: never offered
        assert plan([entry("late")], {}, NOW, WAIT, [dead]).takes == ()
        made = plan([entry("late", waited=WAIT + 1)], {}, NOW, WAIT, [dead])
        assert made.takes == () and [names(g) for g in made.groups] == [{"late"}]  # a new table
    made = plan([entry("late")], {}, NOW, WAIT, [nobody, between, live("alive", 1, players)])
    assert [(t.table_id, t.seat) for t in made.takes] == [("alive", 1)]
