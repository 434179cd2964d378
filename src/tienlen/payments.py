"""Payments (§8, §11): chop payments during a hand, penalties and place points at its end.

Every unit that changes hands is a :class:`Payment` (who pays whom, how much, and
why), so a player can check each one; a hand's scores are their sum per seat.

- A *chop* (§11 ``chop_pay``) is a play that beats a two, twos, or a bomb, by a chop
  entry or as a higher bomb of the same pattern; a two over a two chops nothing,
  nor does a bomb that was led. The chopped combination is worth its penalty:
  each two ``penalty_two`` (double if red with ``red_twos_double``), a bomb its
  ``penalty_bomb``.
- Penalties are paid to the winner by every player holding cards at the end.
- ``scoring = "places"`` pays ``place_points`` × ``stake``: the last pays the
  first, the second-last the second, and so on (greedy from both ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Protocol

from .cards import KEY_TEXT, KEY_TO_CODE, TWO
from .chops import Pattern
from .seats import seats_from
from .shapes import Play

if TYPE_CHECKING:
    from .rules import Rules

PLACE_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
KINDS = ("chop", "place", "stake", "cards", "penalty", "instant")


# what a payment is for, in more detail than its kind (players' words are made from these)
ITEMS = ("chop", "chain", "place", "stake", "cards", "two", "bombs", "bomb", "no_play", "cong",
         "instant")


@dataclass(frozen=True, slots=True)
class Chop:
    """One chop: ``chopper`` beat ``owner``'s ``target`` with ``bomb``; the target's worth."""

    chopper: int
    owner: int
    target: Play
    bomb: Play
    units: int


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``units``; ``kind`` is one of :data:`KINDS`, ``reason`` says why.

    ``reason`` is the record's English. The fields after it (not compared, not written in
    records) are the same facts for players' words: ``item`` (one of :data:`ITEMS`), the
    ``cards`` concerned (a two or a bomb left), a ``count`` (bombs or cards left), the
    ``places`` (payer's, payee's; 0 is first), the instant ``win``, the ``chops`` paid for,
    and ``at``: how many actions of the hand's history were made when it was paid."""

    payer: int
    payee: int
    units: int
    kind: str
    reason: str
    item: str = field(default="", compare=False)
    cards: str = field(default="", compare=False)
    count: int = field(default=0, compare=False)
    places: tuple[int, int] = field(default=(-1, -1), compare=False)
    win: str = field(default="", compare=False)
    chops: tuple[Chop, ...] = field(default=(), compare=False)
    at: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.units}: {self.reason}"


def default_place_points(players: int) -> tuple[int, ...]:
    """§11: 2: [2, -2]; 3: [2, 0, -2]; 4: [2, 1, -1, -2]; 5+: [2, 1, 0, ..., 0, -1, -2]."""
    if players == 2:
        return (2, -2)
    if players == 3:
        return (2, 0, -2)
    return (2, 1, *([0] * (players - 4)), -1, -2)


def place_points(rules: Rules, players: int) -> tuple[int, ...]:
    return rules.place_points or default_place_points(players)


# ---------------------------------------------------------------------- what combinations are
def is_twos(keys: Sequence[int]) -> bool:
    return bool(keys) and all(k >> 2 == TWO for k in keys)


def is_bomb(play: Play) -> bool:
    """A quad, a chain of three or more pairs, a chain of triples or of quads (never twos)."""
    if not play.keys or is_twos(play.keys):
        return False
    return play.shape in ("quad", "triple_chain", "quad_chain") or (
        play.shape == "chain" and len(play.keys) >= 6)


def is_chop(play: Play, table: Play | None) -> bool:
    """Whether ``play``, a legal beat of ``table``, is a chop (§11 chop_pay)."""
    if table is None or not is_bomb(play):
        return False
    return is_twos(table.keys) or is_bomb(table)


def two_units(key: int, rules: Rules) -> int:
    red = (KEY_TO_CODE[rules.suit_order][key] & 3) >= 2  # diamonds, hearts
    return rules.penalty_two * (2 if red and rules.red_twos_double else 1)


def bomb_units(play: Play, rules: Rules) -> int:
    """A bomb's worth under ``penalty_bomb`` (a number, or the first pattern of the table it
    matches)."""
    value = rules.penalty_bomb
    if isinstance(value, int):
        return value
    for pattern, units in value:
        if pattern.matches(play):
            return units
    return 0


def worth(play: Play, rules: Rules) -> int:
    """What a chopped combination is worth: its twos, or its bomb value."""
    if is_twos(play.keys):
        return sum(two_units(k, rules) for k in play.keys)
    return bomb_units(play, rules) if is_bomb(play) else 0


class ChopLedger:
    """The chops of the round in progress (§11 ``chop_pay``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.chops: list[Chop] = []

    def copy(self) -> ChopLedger:
        other = ChopLedger(self.rules)
        other.chops = list(self.chops)
        return other

    def chopped(self, chopper: int, owner: int, table: Play, bomb: Play) -> Payment | None:
        """A chop of ``table`` by ``bomb``: with ``each`` its payment at once, with ``chain``
        kept."""
        rules = self.rules
        chop = Chop(chopper, owner, table, bomb, worth(table, rules))
        if rules.chop_pay == "each":
            if chop.units and rules.scoring != "none":
                return Payment(owner, chopper, chop.units, "chop",
                               f"seat {chopper} chopped {table.describe()}", item="chop",
                               chops=(chop,))
            return None
        self.chops.append(chop)
        return None

    def settle(self) -> Payment | None:
        """chặt chồng, when the round ends: the owner of the last chopped combination pays the
        last chopper the worth of every combination chopped in the round."""
        chops = self.chops
        if not chops:
            return None
        self.chops = []
        chopper, owner = chops[-1].chopper, chops[-1].owner
        units = sum(c.units for c in chops)
        if not units or self.rules.scoring == "none":
            return None
        items = " + ".join(f"{c.target.describe()} ({c.units})" for c in chops)
        return Payment(owner, chopper, units, "chop",
                       f"seat {chopper} chopped seat {owner} last in the round (chặt chồng): "
                       f"{items}", item="chain" if len(chops) > 1 else "chop",
                       chops=tuple(chops))


# ---------------------------------------------------------------------- bombs left in a hand
def bombs_in(keys: Sequence[int], rules: Rules) -> int:
    """Quads plus maximal chains of three or more pairs in a hand (each counted once): the
    count that a numeric ``penalty_bomb`` charges."""
    counts = [0] * 13
    for k in keys:
        counts[k >> 2] += 1
    quads = sum(1 for c in counts if c >= 4)
    chains = 0
    run = 0
    top = TWO if rules.twos_in_chains else TWO - 1
    for r in range(top + 1):
        if counts[r] >= 2:
            run += 1
        else:
            chains += run >= 3
            run = 0
    chains += run >= 3
    return quads + chains


def _pattern_units(table: tuple[tuple[Pattern, int], ...], shape: str, ranks: int) -> int:
    keys = tuple(range(ranks * (2 if shape == "chain" else 4)))  # only the shape and size count
    probe = Play(keys if shape == "chain" else (0, 1, 2, 3), shape)
    for pattern, units in table:
        if pattern.matches(probe):
            return units
    return 0


def best_bombs(keys: Sequence[int], rules: Rules) -> list[tuple[str, int]]:
    """**Resolution** (§11) for a ``penalty_bomb`` table: the disjoint bombs of greatest total
    value in a hand, as (description, units). Twos are never part of a bomb."""
    return [(what, units) for what, units, _cards in _best_bombs(keys, rules)]


def _best_bombs(keys: Sequence[int], rules: Rules) -> list[tuple[str, int, tuple[int, ...]]]:
    """:func:`best_bombs`, each bomb with its cards' keys."""
    table = rules.penalty_bomb
    assert not isinstance(table, int)
    counts = [0] * TWO
    for k in keys:
        if k >> 2 < TWO:
            counts[k >> 2] += 1
    quad_units = _pattern_units(table, "quad", 1)
    chain_units = [0, 0, 0] + [_pattern_units(table, "chain", n) for n in range(3, TWO + 1)]

    @cache
    def best(r: int, left: tuple[int, ...]) -> tuple[int, tuple[tuple[str, int, int], ...]]:
        if r >= TWO:
            return 0, ()
        options = [best(r + 1, left)]
        if left[r] >= 4 and quad_units:
            rest = list(left)
            rest[r] -= 4
            value, found = best(r + 1, tuple(rest))
            options.append((value + quad_units, (("quad", r, 1), *found)))
        length = 0
        rest = list(left)
        while r + length < TWO and rest[r + length] >= 2:
            rest[r + length] -= 2
            length += 1
            if length >= 3 and chain_units[length]:
                value, found = best(r, tuple(rest))
                options.append((value + chain_units[length], (("chain", r, length), *found)))
        return max(options, key=lambda o: o[0])

    _value, found = best(0, tuple(counts))
    out = []
    text = KEY_TEXT["standard"]
    pool = sorted(keys)
    for shape, rank, length in found:
        taken: list[int] = []
        for r in range(rank, rank + length):
            of_rank = [k for k in pool if k >> 2 == r][:4 if shape == "quad" else 2]
            taken += of_rank
            for k in of_rank:
                pool.remove(k)
        if shape == "quad":
            out.append((f"four {text[rank * 4][0]}s", quad_units, tuple(sorted(taken))))
        else:
            span = f"{text[rank * 4][0]}-{text[(rank + length - 1) * 4][0]}"
            out.append((f"{length} consecutive pairs {span}", chain_units[length],
                        tuple(sorted(taken))))
    return out


def penalty_items(keys: Sequence[int], rules: Rules, played_any: bool) -> list[tuple[str, int]]:
    """The penalties (§8, §11) for a hand left with these cards, as (what, units)."""
    return [(what, units) for what, units, _item, _cards, _count
            in penalty_facts(keys, rules, played_any)]


def penalty_facts(keys: Sequence[int], rules: Rules,
                  played_any: bool) -> list[tuple[str, int, str, str, int]]:
    """The penalties as (what, units, item, cards, count): :func:`penalty_items` with the facts
    players' words are made from (``item`` two, bombs, bomb, no_play or cong)."""
    items: list[tuple[str, int, str, str, int]] = []
    text = KEY_TEXT[rules.suit_order]
    if rules.penalty_two:
        for k in keys:
            if k >> 2 == TWO:
                items.append((f"{text[k]} left", two_units(k, rules), "two", text[k], 1))
    if isinstance(rules.penalty_bomb, int):
        if rules.penalty_bomb:
            bombs = bombs_in(keys, rules)
            if bombs:
                items.append((f"{bombs} bomb{'s' if bombs > 1 else ''} left",
                              rules.penalty_bomb * bombs, "bombs", "", bombs))
    else:
        items.extend((f"{what} left", units, "bomb", " ".join(text[k] for k in cards), 1)
                     for what, units, cards in _best_bombs(keys, rules) if units)
    if rules.penalty_no_play and not played_any:
        items.append(("no card played" + (" (cóng)" if rules.cong else ""),
                      rules.penalty_no_play, "cong" if rules.cong else "no_play", "", 0))
    return items


def penalty(keys: Sequence[int], rules: Rules, played_any: bool) -> int:
    """Units a player left with these cards pays the winner (§8 penalties)."""
    return sum(units for _, units in penalty_items(keys, rules, played_any))


# ---------------------------------------------------------------------- the hand's end
def place_transfers(order: Sequence[int], points: Sequence[int], stake: int) -> list[Payment]:
    """Place points as payments: the last pays the first, the next-to-last the second, …"""
    owed = [[seat, -p * stake] for seat, p in zip(order, points, strict=True) if p < 0]
    due = [[seat, p * stake] for seat, p in zip(order, points, strict=True) if p > 0]
    place = {seat: i for i, seat in enumerate(order)}
    out = []
    owed.reverse()  # the last place pays first
    i = j = 0
    while i < len(owed) and j < len(due):
        amount = min(owed[i][1], due[j][1])
        payer, payee = owed[i][0], due[j][0]
        out.append(Payment(payer, payee, amount, "place",
                           f"{PLACE_WORDS[place[payer]]} place pays {PLACE_WORDS[place[payee]]}",
                           item="place", places=(place[payer], place[payee])))
        owed[i][1] -= amount
        due[j][1] -= amount
        if not owed[i][1]:
            i += 1
        if not due[j][1]:
            j += 1
    return out


class HeldAtEnd(Protocol):
    """What the payments at a hand's end read of its play state (a
    :class:`~tienlen.state.PlayState`)."""

    @property
    def hands(self) -> Sequence[Sequence[int]]: ...
    @property
    def played_any(self) -> Sequence[bool]: ...
    @property
    def counts_at_first_out(self) -> Sequence[int] | None: ...


class EndedHand(Protocol):
    """What :func:`end_payments` reads of a finished hand (a :class:`~tienlen.game.Game`)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def finish_order(self) -> list[int]: ...
    @property
    def instant_win(self) -> tuple[int, str] | None: ...
    @property
    def state(self) -> HeldAtEnd: ...


def end_payments(game: EndedHand) -> list[Payment]:
    """The payments made when ``game`` ends (:func:`payments_at_end` of its places and state)."""
    return payments_at_end(game.rules, game.finish_order, game.instant_win, game.state)


def payments_at_end(rules: Rules, finish: Sequence[int], instant: tuple[int, str] | None,
                    held: HeldAtEnd) -> list[Payment]:
    """The payments made when a hand ends: the scheme of ``scoring``, then the penalties.
    ``finish``: the seats by place; ``instant``: (seat, win) of an instant win."""
    n = len(held.hands)
    if rules.scoring == "none" or not finish:
        return []
    out: list[Payment] = []
    if instant is not None:
        seat, win = instant
        return [Payment(s, seat, rules.instant_win_stake, "instant", f"instant win ({win})",
                        item="instant", win=win)
                for s in seats_from(seat, n)[1:] if rules.instant_win_stake]
    winner = finish[0]
    stake = rules.stake
    if rules.scoring == "loser_pays":
        loser = finish[-1]
        out += [Payment(loser, s, stake, "stake", "last pays each other player", item="stake")
                for s in seats_from(loser, n)[1:]]
    elif rules.scoring == "cards_left":
        counts = held.counts_at_first_out or [0] * n
        out += [Payment(s, winner, stake * counts[s], "cards",
                        f"{counts[s]} card{'s' if counts[s] != 1 else ''} left", item="cards",
                        count=counts[s])
                for s in seats_from(winner, n)[1:] if counts[s]]
    elif rules.scoring == "places":
        out += place_transfers(finish, place_points(rules, n), stake)
    for s in seats_from(winner, n)[1:]:
        for what, units, item, cards, count in penalty_facts(held.hands[s], rules,
                                                             held.played_any[s]):
            if units:
                out.append(Payment(s, winner, units, "penalty", what, item=item, cards=cards,
                                   count=count))
    return out


def net(payments: Sequence[Payment], players: int) -> list[int]:
    """Units per seat (sum zero)."""
    scores = [0] * players
    for p in payments:
        scores[p.payer] -= p.units
        scores[p.payee] += p.units
    return scores
