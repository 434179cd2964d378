"""The phases before claims and play that move cards between hands: the president exchange
(gifts made at the deal, then the ``return`` phase, §9) and mutual trading (the ``trade``
phase: offers, answers, accepts, refusals and ``done``, §9).

Functions over the rules and a hand's :class:`~tienlen.state.PlayState`; when the last card
has moved the claims phase starts (:func:`tienlen.claims.start_claims`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .actions import Action, Move, TradeDecision, TradeOffers
from .cards import CODE_TO_KEY, KEY_TO_CODE, Card
from .claims import start_claims
from .errors import ArgumentError
from .rules import Rules
from .seats import check_seat, seats_from
from .state import Exchange, PlayState


def cards_of(st: PlayState, keys: Iterable[int]) -> tuple[Card, ...]:
    """Keys as cards, sorted by code."""
    back = KEY_TO_CODE[st.order]
    return tuple(sorted(Card(back[k]) for k in keys))


def keys_of(st: PlayState, cards: Iterable[Card]) -> tuple[int, ...]:
    """Cards as keys, sorted."""
    to_key = CODE_TO_KEY[st.order]
    return tuple(sorted(to_key[c.code] for c in cards))


def begin(rules: Rules, st: PlayState, exchange: Sequence[Exchange]) -> None:
    """The hand's first phase: the exchange's gifts made, and their returns asked for; without
    an exchange, mutual trading or the claims."""
    if exchange:
        n = len(st.hands)
        for giver, receiver, count in exchange:
            check_seat(giver, n, "exchange giver")
            check_seat(receiver, n, "exchange receiver")
            hand = st.hands[giver]
            if not isinstance(count, int) or not 0 < count <= len(hand):
                raise ArgumentError(f"exchange: seat {giver} cannot give {count!r} cards")
            gift = tuple(hand[-count:])
            move_cards(st, giver, receiver, gift)
            st.history.append((giver, Action("give", receiver, cards_of(st, gift))))
            st.returns.append((receiver, giver, count))
        st.phase = "return"
        st.turn = st.returns[0][0]
        return
    after_exchange(rules, st)


def after_exchange(rules: Rules, st: PlayState) -> None:
    """The exchange is over (or there was none): mutual trading, or the claims."""
    if rules.trading == "mutual":
        st.phase = "trade"
        st.turn = st.trade_seat
        return
    start_claims(rules, st)


def move_cards(st: PlayState, giver: int, receiver: int, keys: Iterable[int]) -> None:
    for k in keys:
        st.hands[giver].remove(k)
        st.hands[receiver].append(k)
    st.hands[receiver].sort()
    st.groups[giver] = st.groups[receiver] = None
    st.lead_cache[giver] = st.lead_cache[receiver] = None


def holds(st: PlayState, seat: int, cards: tuple[Card, ...]) -> bool:
    """Whether ``seat`` holds every one of ``cards``."""
    hand = list(st.hands[seat])
    try:
        for k in keys_of(st, cards):
            hand.remove(k)
    except ValueError:
        return False
    return True


def legal_returns(st: PlayState, seat: int) -> list[Move]:
    """Every return the seat owing one may send."""
    count, giver = st.returns[0][2], st.returns[0][1]
    return [Action("return", giver, cards_of(st, c))
            for c in _distinct_subsets(st.hands[seat], count)]


def legal_trade(st: PlayState, seat: int) -> list[Move]:
    """The seat on turn's trading actions: the answers it owes, or its offers (a lazy
    :class:`~tienlen.actions.TradeOffers`) and ``done``."""
    pending = st.pending
    if pending is not None:
        offerer, target, gift, answer = pending
        if answer is None:  # the target answers
            return [*(Action("answer", offerer, cards_of(st, c))
                      for c in _distinct_subsets(st.hands[seat], len(gift))),
                    Action("refuse", offerer)]
        return [Action("accept", target), Action("refuse", target)]
    partners = tuple(o for o in seats_from(seat, len(st.hands))[1:] if (seat, o) not in st.offered)
    return TradeOffers(partners, cards_of(st, st.hands[seat]))  # type: ignore[return-value]


def trade_decision(rules: Rules, st: PlayState, seat: int | None) -> TradeDecision | None:
    """The mutual-trading decision of ``seat`` as a small structure (``Game.trade_decision``)."""
    if seat is None or st.phase != "trade" or seat != st.turn:
        return None
    hand = tuple(st.held(seat))  # in the rules' card order
    pending = st.pending
    if pending is None:
        partners = tuple(o for o in seats_from(seat, len(st.hands))[1:]
                         if (seat, o) not in st.offered)
        return TradeDecision("offer", hand, partners=partners)
    offerer, target, gift, answer = pending
    if answer is None:
        offered = tuple(sorted(cards_of(st, gift), key=rules.key))
        return TradeDecision("answer", hand, other=offerer, count=len(gift), offered=offered)
    return TradeDecision("settle", hand, other=target, count=len(gift))


def action_legal(st: PlayState, seat: int, action: Action) -> bool:
    """Whether a trade or return action is legal now, without listing every one."""
    if seat != st.turn:
        return False
    kind, other, cards = action.kind, action.other, action.cards
    if st.phase == "return":
        _receiver, giver, count = st.returns[0]
        return (kind == "return" and other == giver and len(cards) == count
                and holds(st, seat, cards))
    if st.phase != "trade":
        return False
    pending = st.pending
    if pending is None:
        if kind == "done":
            return True
        return (kind == "offer" and other is not None and 0 <= other < len(st.hands)
                and other != seat and (seat, other) not in st.offered and bool(cards)
                and holds(st, seat, cards))
    offerer, target, gift, answer = pending
    if answer is None:
        if kind == "refuse":
            return other == offerer
        return (kind == "answer" and other == offerer and len(cards) == len(gift)
                and holds(st, seat, cards))
    return kind in ("accept", "refuse") and other == target


def apply_return(rules: Rules, st: PlayState, seat: int, action: Action) -> None:
    """The exchange's receiver ``seat`` sends its return."""
    st.history.append((seat, action))
    receiver, giver, _count = st.returns.pop(0)
    move_cards(st, receiver, giver, keys_of(st, action.cards))
    if st.returns:
        st.turn = st.returns[0][0]
    else:
        after_exchange(rules, st)


def apply_trade(rules: Rules, st: PlayState, seat: int, action: Action) -> None:
    """``seat`` makes a mutual-trading action."""
    st.history.append((seat, action))
    kind = action.kind
    if kind == "done":
        st.trade_done[seat] = True
        next_trader(rules, st)
        return
    if kind == "offer":
        assert action.other is not None
        st.offered.add((seat, action.other))
        st.pending = (seat, action.other, keys_of(st, action.cards), None)
        st.turn = action.other
        return
    assert st.pending is not None
    offerer, target, gift, _answer = st.pending
    if kind == "answer":
        st.pending = (offerer, target, gift, keys_of(st, action.cards))
        st.turn = offerer
        return
    if kind == "accept":
        answer = st.pending[3]
        assert answer is not None
        move_cards(st, offerer, target, gift)
        move_cards(st, target, offerer, answer)
    st.pending = None  # accepted or refused: the trade is settled
    next_trader(rules, st)


def next_trader(rules: Rules, st: PlayState) -> None:
    """The next seat not yet done trading offers; when all are done, the claims."""
    start = st.trade_seat
    for s in [*seats_from(start, len(st.hands))[1:], start]:
        if not st.trade_done[s]:
            st.trade_seat = s
            st.turn = s
            return
    start_claims(rules, st)


def _distinct_subsets(keys: list[int], size: int) -> list[tuple[int, ...]]:
    return list(dict.fromkeys(combinations(keys, size)))
