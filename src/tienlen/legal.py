"""The play phase's legal plays: in turn (leads, beats, stacking, chops), out of turn (§6
``chop_out_of_turn``) and free chops (§11 ``free_chops``), and which seats are asked out of turn.

Functions over the rules and a hand's :class:`~tienlen.state.PlayState`; they read the state
and fill only its caches (``groups``, ``lead_cache``, ``lead_gone``, ``legal_memo``).
"""

from __future__ import annotations

from .actions import Move
from .movegen import group_keys
from .rules import Rules
from .seats import seats_from
from .shapes import PASS, Play
from .state import PlayState


def legal_now(rules: Rules, st: PlayState, seat: int) -> list[Move]:
    """The legal plays of ``seat`` now, made once for each action (``Game.play`` checks a move
    against the list its caller just asked for): the caller must not change the list."""
    memo = st.legal_memo
    if memo is not None and memo[0] == seat:
        return memo[1]
    legal: list[Move] = (legal_in_turn(rules, st, seat) if seat == st.turn  # type: ignore[assignment]
                         else legal_out_of_turn(rules, st, seat))
    st.legal_memo = (seat, legal)
    return legal


def groups_of(st: PlayState, seat: int) -> list[tuple[int, ...]]:
    """``seat``'s keys grouped by rank (kept in the state until its hand changes)."""
    groups = st.groups[seat]
    if groups is None:
        groups = st.groups[seat] = group_keys(st.hands[seat])
    return groups


def locked(rules: Rules, st: PlayState, seat: int) -> bool:
    """Whether ``seat`` passed this round and may now only chop (``pass_locks_out``, or a stack
    was played this round)."""
    return st.passed[seat] and (rules.pass_locks_out or st.stack_seq)


def legal_in_turn(rules: Rules, st: PlayState, seat: int) -> list[Play]:
    """The plays of the seat on turn: a lead (the opening's limits), or what beats the table."""
    mg = st.mg
    groups = st.groups[seat]
    if groups is None:
        groups = st.groups[seat] = group_keys(st.hands[seat])
    table = st.table
    if table is None:
        if st.opening and st.opening_lowest is not None:
            low = st.opening_lowest
            if rules.opening == "lowest_single":
                plays = [Play((low,), "single", st.order)]
            elif rules.opening == "contains_lowest":
                plays = [p for p in mg.leads(groups) if low in p.keys]
            else:
                plays = mg.leads(groups)
        else:
            plays = leads(st, seat, groups)  # the seat's cache: not to be changed here
        if st.first_play and rules.opening_no_chain:
            plays = [p for p in plays if p.shape != "chain"]
        if may_pass_lead(rules, st):
            plays = [*plays, PASS]
        return plays
    if st.stacking:
        plays = mg.same_shape_beats(groups, table)
    elif st.passed[seat] and (rules.pass_locks_out or st.stack_seq):
        plays = mg.chops(groups, table)
    else:
        plays = mg.beats(groups, table, st.hands[seat])
    plays.append(PASS)
    return plays


def leads(st: PlayState, seat: int, groups: list[tuple[int, ...]]) -> list[Play]:
    """Every lead ``seat`` holds; with one pack kept between rounds, less the cards played."""
    if not st.one_pack:
        return st.mg.leads(groups)
    cache = st.lead_cache[seat]
    if cache is None:
        cache = st.lead_cache[seat] = st.mg.leads(groups)
        st.lead_gone[seat].clear()
    else:
        gone = st.lead_gone[seat]
        if gone:
            cache = st.lead_cache[seat] = [p for p in cache if gone.isdisjoint(p.keys)]
            gone.clear()
    return cache


def may_pass_lead(rules: Rules, st: PlayState) -> bool:
    """Whether the opening lead may be passed (``opening_may_pass``), the opener not yet passed."""
    return (st.opening and st.opening_lowest is not None and rules.opening_may_pass
            and not st.no_pass_lead)


def out_of_turn_open(rules: Rules, st: PlayState, seat: int) -> bool:
    """§6: whether the rules let ``seat`` chop out of turn now (whatever it holds)."""
    if not (st.window and st.phase == "play" and st.table is not None):
        return False
    if seat == st.turn or seat == st.table_seat or st.out[seat]:
        return False
    return not (locked(rules, st, seat) and not rules.chop_after_pass)


def free_open(rules: Rules, st: PlayState, seat: int) -> bool:
    """§11 free chops: whether ``seat`` is offered one now (whatever it holds)."""
    table = st.table
    if not rules.free_chops or st.phase != "play" or table is None:
        return False
    if seat == st.turn or seat == st.table_seat or st.out[seat]:
        return False
    return st.mg.is_free_target(table)


def legal_out_of_turn(rules: Rules, st: PlayState, seat: int) -> list[Play]:
    """The chops ``seat`` (not on turn) may make now: out-of-turn chops and free chops."""
    found: list[Play] = []
    if out_of_turn_open(rules, st, seat):
        assert st.table is not None
        found = st.mg.chops(groups_of(st, seat), st.table, four_twos=False)
    if free_open(rules, st, seat):
        assert st.table is not None
        seen = {p.keys for p in found}
        found += [p for p in st.mg.free_chops(groups_of(st, seat), st.table)
                  if p.keys not in seen]
    return found


def out_of_turn_asked(rules: Rules, st: PlayState) -> list[int]:
    """The seats asked out of turn now, in priority order, from what every seat sees
    (``Game.out_of_turn_asked``)."""
    if st.phase != "play" or st.table_seat is None:
        return []
    n = len(st.hands)
    if rules.free_chops and st.turn is not None and \
            st.mg.is_free_target(st.table):  # type: ignore[arg-type]
        return [s for s in seats_from(st.turn, n)[1:]
                if free_open(rules, st, s) or out_of_turn_open(rules, st, s)]
    if not st.window:
        return []
    return [s for s in seats_from(st.table_seat, n)[1:] if out_of_turn_open(rules, st, s)]


def out_of_turn_seats(rules: Rules, st: PlayState) -> list[int]:
    """The seats asked out of turn that hold a chop, or are offered a free chop
    (``Game.out_of_turn_seats``)."""
    return [s for s in out_of_turn_asked(rules, st)
            if free_open(rules, st, s) or legal_out_of_turn(rules, st, s)]
