"""Golden traces of today's decision loops: who is asked, what kind of decision, from which moves.

Issue 20 (point 1) replaces the loops that each work out "who decides now, and from which
moves" -- ``rl/asking.py``, ``arena.play_out``, the terminal controller, the web room,
``rl/train.py`` and ``bots/rollout.py`` -- by one turn API (``tienlen/turns.py``, a later
slice). Before they go, these traces record what each of them asks today, decision by
decision, over every preset at 2, 3, 4, 5 and 8 players (where the preset allows that many)
and the house rules that only tests use (out-of-turn chops, free chops, mutual trading,
optional claims, the president exchange). The new turn API, and every front end once it
drives a game through it, will be held to them.

Issue 20's point 2 then changed the asking order on purpose: under ``chop_out_of_turn`` the
turn API (``tienlen/turns.py``) asks every seat the rules let chop, in turn order, whatever
it holds (before, only the seats that hold a chop were asked, in priority order, so the order
revealed hidden cards). The traces of the ``house:*chop_out_of_turn*`` configurations
(but ``free_chops+chop_out_of_turn``, whose seeds show no change) were regenerated then
(``scripts/record_golden_turns.py``, whose ``--diff`` prints what moved), for the loops that
drive a hand through the turn API: ``arena``, ``asking``, ``asking_fast``, ``controller``,
``rollout`` (``train`` skips the decisions with one move, so its traces kept). The web room's
(``room``, ``room_human``) followed when it came to drive its bots through the turn API
too: under ``chop_out_of_turn`` its bots are asked whatever they hold, and with a player at
the table (there and under ``free_chops``) a bot that let a chop go is no longer asked again
while the player thinks.

The data (``tests/data/golden_turns/traces.jsonl.gz``) is written by
``scripts/record_golden_turns.py``; ``tests/golden_turns.py`` holds the drivers, the chooser
and the data format (its module text describes each loop and each kind of decision).

``test_trace`` replays each recorded session through each loop and compares the traces;
the other tests state how the loops' traces relate to each other today, which ones agree and
where they legitimately differ (each difference named in the test that allows it).
"""

from __future__ import annotations

from functools import cache

import pytest

import golden_turns as g
from tienlen import Rules


@cache
def recorded() -> list[g.Recorded]:
    return g.load()


def _cases() -> list[tuple[int, str]]:
    return [(i, loop) for i, r in enumerate(recorded()) for loop in r.traces]


def _ids() -> list[str]:
    return [f"{recorded()[i].id}-{loop}" for i, loop in _cases()]


@pytest.mark.parametrize(("index", "loop"), _cases(), ids=_ids())
def test_trace(index: int, loop: str) -> None:
    r = recorded()[index]
    for package in g.REQUIRES.get(loop, ()):
        pytest.importorskip(package)
    if loop == "asking_fast" and not g.fast_supported(r.config):
        pytest.skip("the fast path is not installed or does not play these rules")
    found = g.LOOPS[loop](r.config, r.seed)
    diff = g.first_difference(r.traces[loop], found)
    assert diff is None, f"{r.config.name}, seed {r.seed}, loop {loop}: {diff}"


def test_the_data_covers_every_configuration() -> None:
    """Every configuration of the drivers is recorded, with its rules as they are today, and
    through every loop (asking_fast where the fast path plays the rules)."""
    configs = {c.name: c for c in g.base_configs()}
    seen = {r.config.name for r in recorded()}
    assert seen == set(configs), f"not recorded: {sorted(set(configs) - seen)}; " \
                                 f"no longer made: {sorted(seen - set(configs))}"
    for r in recorded():
        config = configs[r.config.name]
        assert r.config.rules == config.rules, r.id
        assert r.config.players == config.players and r.config.hands == config.hands, r.id
        assert set(r.traces) == set(g.LOOPS) or set(r.traces) == set(g.LOOPS) - {"asking_fast"}
    presets = {name.split("/")[0] for name in configs if not name.startswith("house:")}
    assert presets == set(Rules.presets())
    for n in g.PLAYER_COUNTS:
        assert f"pagat/{n}" in configs


def test_the_data_shows_every_kind_of_decision() -> None:
    """Between them the recorded sessions ask every kind of decision, and make and decline
    out-of-turn chops, free chops, claims and trades."""
    arena = [d for r in recorded() for t in r.traces["arena"] for d in t]
    kinds = {d[1] for d in arena}
    assert kinds == {"play", "chop", "free_chop", "claim", "offer", "answer", "settle", "return"}
    for kind in ("chop", "free_chop"):
        assert any(d[1] == kind and d[3] != "pass" for d in arena), kind
        assert any(d[1] == kind and d[3] == "pass" for d in arena), kind
    chosen = {d[3].split()[0] for d in arena}
    assert {"claim", "decline", "offer", "answer", "accept", "refuse", "done", "return",
            "pass"} <= chosen
    # the terminal's human (seat 0) meets every kind of its Decision, chops made and let go
    human = {(d[1], d[3] == "pass") for r in recorded() for t in r.traces["controller"]
             for d in t if d[0] == 0}
    assert {k for k, _ in human} == kinds
    assert {("chop", True), ("chop", False), ("free_chop", True), ("free_chop", False)} <= human


def test_asking_agrees_with_the_arena() -> None:
    """``rl/asking`` asks what ``arena.play_out`` asks, but at a mutual-trading offer moment,
    where it offers ``done`` alone (the RL action space has no offers): there the traces part
    at the first offer the arena's chooser makes."""
    for r in recorded():
        arena, asking = r.traces["arena"], r.traces["asking"]
        if r.config.rules.trading != "mutual":
            assert asking == arena, f"{r.id}: {g.first_difference(arena, asking)}"
            continue
        for want, got in zip(arena, asking, strict=True):
            for a, b in zip(want, got, strict=False):
                if a[1] == "offer":
                    assert b[1] == "offer" and b[2] == ("done",) and len(a[2]) > 1, r.id
                    assert b[3] == "done", r.id
                    if a[3] != "done":
                        break
                else:
                    assert a == b, r.id


def test_the_fast_engine_asks_as_the_pure_one() -> None:
    """The asking functions fed by the fast path (the AEC environment's ``engine="fast"``)."""
    for r in recorded():
        if "asking_fast" in r.traces:
            assert r.traces["asking_fast"] == r.traces["asking"], r.id


def test_the_room_asks_as_the_arena() -> None:
    """A bots-only web table asks what the arena asks, through the same turn API: out-of-turn
    seats first (under ``chop_out_of_turn`` every seat the rules let chop, whatever it
    holds), each bot with ``pass`` added, then the seat on turn; its next hand dealt as
    ``Session`` deals it."""
    for r in recorded():
        arena, room = r.traces["arena"], r.traces["room"]
        assert room == arena, f"{r.id}: {g.first_difference(arena, room)}"


def test_the_terminal_asks_as_the_arena_but_spares_the_human_empty_offers() -> None:
    """The terminal asks what the arena asks, except that the human (seat 0) is not asked out of
    turn when holding no chop (a free chop is offered to the bots whatever they hold: the
    arena asks every seat offered one). Its own names for the human's decisions are the
    kinds the other traces derive from the game state."""
    for r in recorded():
        want = [g.without_human_empty_offers(t) for t in r.traces["arena"]]
        found = r.traces["controller"]
        assert found == want, f"{r.id}: {g.first_difference(want, found)}"
    spared = [d for r in recorded() for t in r.traces["arena"] for d in t
              if d[0] == 0 and d[1] == "free_chop" and d[2] == ("pass",)]
    assert spared  # the difference shows in the data


def test_training_asks_only_real_choices() -> None:
    """``rl/train.self_play_hand`` asks what the arena asks, less the play decisions with one
    move (made without asking) and the out-of-turn offers with nothing but ``pass``; its
    phase decisions (claims, trades, returns) go to its phase policy, here the chooser."""
    for r in recorded():
        want = [g.without_single_moves(t) for t in r.traces["arena"]]
        found = r.traces["train"]
        assert found == want, f"{r.id}: {g.first_difference(want, found)}"


def test_rollouts_ask_as_the_arena() -> None:
    """``bots/rollout.playout`` (search's pure rollouts) drives its hands through the turn API
    as the arena does: out-of-turn chops (§6) and free chops (§11) offered first, then the
    seat on turn (before issue 20 it never asked a chop out of turn)."""
    for r in recorded():
        arena, rollout = r.traces["arena"], r.traces["rollout"]
        assert rollout == arena, f"{r.id}: {g.first_difference(arena, rollout)}"


def _quiet(rules: Rules) -> bool:
    """No chop out of turn, no free chop and no trading: nothing the page asks apart."""
    return not (rules.chop_out_of_turn or rules.free_chops) and rules.trading == "none"


def test_the_room_with_a_player_asks_as_the_arena_where_nothing_comes_out_of_turn() -> None:
    """A table with a player at seat 0 asks the bots as ``bot_action`` does and the player by
    the page's view (``seat_view``: its ``legal`` and its ``decision``); with no chop out of
    turn, no free chop and no trading, that is what the arena asks."""
    quiet = [r for r in recorded() if _quiet(r.config.rules)]
    assert quiet
    for r in quiet:
        arena, room = r.traces["arena"], r.traces["room_human"]
        assert room == arena, f"{r.id}: {g.first_difference(arena, room)}"


def test_the_page_asks_trades_and_returns_in_its_own_words() -> None:
    """Where the player trades or returns cards the course is the arena's, but the page asks in
    its own form: a mutual-trading offer lists only ``done`` and names the seats the engine
    offers (those not offered a trade yet, in turn order); an answer lists only ``refuse``;
    the settling of a trade names the seat whose answer it settles; a president return lists
    nothing, with the giver and the count."""
    trading = [r for r in recorded() if r.config.rules.trading != "none"
               and not (r.config.rules.chop_out_of_turn or r.config.rules.free_chops)]
    assert trading
    fewer_partners = seen_return = 0
    for r in trading:
        for want, got in zip(r.traces["arena"], r.traces["room_human"], strict=True):
            assert len(want) == len(got), r.id
            for a, b in zip(want, got, strict=True):
                if a == b:
                    continue
                assert a[0] == b[0] == 0 and a[3] == b[3], f"{r.id}: {a} / {b}"
                if a[1] == "offer":
                    partners = [m.split()[1] for m in a[2] if m.startswith("offer")]
                    assert b[1] == " ".join(["offer", *(["seats=" + ",".join(partners)]
                                                        if partners else [])]), r.id
                    assert b[2] == ("done",), r.id
                    fewer_partners += len(partners) < r.config.players - 1
                elif a[1] == "answer":
                    assert b[1].startswith("answer count=") and len(b[2]) == 1, r.id
                    assert b[2][0].startswith("refuse") and b[2][0] in a[2], r.id
                elif a[1] == "settle":
                    assert b[1] == f"settle to={a[2][0].split()[1]}" and b[2] == a[2], r.id
                else:
                    assert a[1] == "return" and b[1].startswith("return count="), r.id
                    assert b[2] == (), r.id
                    seen_return += 1
    assert fewer_partners and seen_return


def _asked_again(trace: g.Trace) -> int:
    """How many times a run of bot decisions out of turn just before seat 0's turn is the same
    run twice over (the bots asked again at the driver's next wake)."""
    again = 0
    for j, d in enumerate(trace):
        if d[0] != 0 or d[1] in ("chop", "free_chop"):
            continue
        i = j
        while i and trace[i - 1][1] in ("chop", "free_chop") and trace[i - 1][0] != 0:
            i -= 1
        run = trace[i:j]
        half = len(run) // 2
        again += bool(run) and len(run) % 2 == 0 and run[:half] == run[half:]
    return again


def test_the_room_does_not_ask_its_bots_again_while_a_player_thinks() -> None:
    """Out of turn the page offers the player a chop only when they hold one (the model of
    ``golden_turns``: the player answers it before any bot moves, so the course may part
    from the arena's). While the table waits for the player on turn, the bots that let a chop
    go are not asked again (the hand's turns remember their declines until someone moves):
    no loop asks a seat the same twice running."""
    for r in recorded():
        if not (r.config.rules.chop_out_of_turn or r.config.rules.free_chops):
            continue
        for got in r.traces["room_human"]:
            for seat, kind, moves, _ in got:
                if seat == 0 and kind in ("chop", "free_chop"):
                    assert moves != ("pass",) and "pass" in moves, r.id
    for r in recorded():
        for loop in ("arena", "room", "room_human", "controller"):
            assert not any(_asked_again(t) for t in r.traces[loop]), (r.id, loop)
