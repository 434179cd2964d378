"""The claims phase (§7 instant wins), and the start of play that follows it.

Claims are made after any trading, before the first lead: an instant win is claimed at once,
or (``instant_win_optional``) every seat that holds one is asked to claim or decline it; the
best claim wins the hand. Functions over the rules and a hand's
:class:`~tienlen.state.PlayState`.
"""

from __future__ import annotations

from .actions import Action, Move
from .dealing import lowest_holder_of
from .ending import end_hand
from .instant import instant_wins_of, win_priority
from .rules import Rules
from .seats import seats_from
from .state import PlayState


def allowed_wins(rules: Rules, st: PlayState) -> tuple[str, ...]:
    """The instant wins this hand may be won by: ``four_threes`` only in a hand whose
    opening names the lowest card (§11)."""
    wins = rules.instant_wins
    if "four_threes" in wins and st.opening_lowest is None:
        wins = tuple(w for w in wins if w != "four_threes")
    return wins


def start_claims(rules: Rules, st: PlayState) -> None:
    """Trading is over: the instant wins held are claimed (or asked about), else play starts."""
    if not rules.instant_wins or rules.trading != "none" or not st.one_pack:
        start_play(st)  # §7: no instant wins after a trade, nor with two packs
        return
    allowed = allowed_wins(rules, st)
    claims = {}
    for s in seats_from(st.leader, len(st.hands)):
        if len(st.dealt[s]) == 13:
            wins = instant_wins_of(st.hands[s], allowed, st.order)
            if wins:
                claims[s] = wins[0]
    if rules.instant_win_optional:
        if claims:  # only a seat that holds an instant win is asked to claim or decline
            st.phase = "claim"
            st.claim_queue = list(claims)
            st.turn = st.claim_queue[0]
            return
    elif claims:
        resolve_claims(rules, st, claims, auto=True)
        return
    start_play(st)


def legal_claims(rules: Rules, st: PlayState, seat: int) -> list[Move]:
    """The answers of a seat asked to claim: each instant win it holds, or decline."""
    wins = instant_wins_of(st.hands[seat], allowed_wins(rules, st), st.order)
    return [*(Action("claim", win=w) for w in wins), Action("decline")]


def apply_claim(rules: Rules, st: PlayState, seat: int, action: Action) -> None:
    """``seat`` claims or declines; once every seat asked has answered, the claims resolve."""
    st.history.append((seat, action))
    if action.kind == "claim" and action.win is not None:
        st.claims[seat] = action.win
    st.claim_queue.pop(0)
    if st.claim_queue:
        st.turn = st.claim_queue[0]
    else:
        resolve_claims(rules, st, dict(st.claims))


def resolve_claims(rules: Rules, st: PlayState, claims: dict[int, str], auto: bool = False) -> None:
    """The best claim wins the hand (the others place in turn order); none: play starts."""
    if not claims:
        start_play(st)
        return
    seats = seats_from(st.leader, len(st.hands))
    winner = min(claims, key=lambda s: win_priority(
        claims[s], st.hands[s], rules.instant_wins, seats.index(s)))
    if auto:
        st.history.append((winner, Action("claim", win=claims[winner])))
    st.instant = (winner, claims[winner])
    st.finish = [winner] + [s for s in seats if s != winner]
    end_hand(rules, st)


def start_play(st: PlayState) -> None:
    """The play phase begins with the leader's lead."""
    st.phase = "play"
    low = st.opening_lowest
    if low is not None and low not in st.hands[st.leader]:
        # trading or an exchange moved the lowest card: its holder now leads (§3)
        st.leader = lowest_holder_of(st.hands, st.dealer)
    st.turn = st.leader
