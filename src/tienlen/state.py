"""The play state: the mutable position of one hand, as one struct with its own ``copy()``.

:class:`~tienlen.game.Game` is the rules, the seats' names and this state; the phase machines
change it (:mod:`~tienlen.trading`, :mod:`~tienlen.claims`, :mod:`~tienlen.legal`,
:mod:`~tienlen.playing`, :mod:`~tienlen.ending`: functions over the rules and this state).
Other modules (explanations, views, records, payments, rollouts) read the fields below
through ``game.state`` and never write them; only the fast path's conversion
(``fast/encoding.py``) writes them too, to turn a compiled state back into a game.

Cards are *keys* (``cards.CODE_TO_KEY`` under the rules' suit order): ints, low to high.
"""

from __future__ import annotations

from .actions import Move, Phase
from .cards import KEY_TO_CODE, Card
from .movegen import MoveGenerator
from .payments import ChopLedger, Payment
from .shapes import Play

Exchange = tuple[int, int, int]  # (giver, receiver, number of cards)
Pending = tuple[int, int, tuple[int, ...], tuple[int, ...] | None]


class PlayState:
    """One hand's position. Fields fixed at the deal come first (shared between copies).

    Fixed at the deal:

    - ``order``: the rules' suit order (the keys' meaning); ``one_pack``: one pack (2-4 seats);
    - ``mg``: the move generator of the rules and packs (stateless, shared);
    - ``named``: whether the seats were given names;
    - ``dealer``: the seat that dealt; ``dealt``: each seat's keys as dealt, sorted;
    - ``lowest_start``: the leader was found from the lowest card (not given);
    - ``opening_lowest``: the lowest card the opening lead must name, or None.

    The position:

    - ``leader``: the seat that leads the first round (moves if a trade moved the lowest card);
    - ``phase``: ``claim``, ``trade``, ``return``, ``play`` or ``over``; ``turn``: the seat to
      act (None when over);
    - ``hands``: each seat's keys, sorted; ``groups``: each seat's keys grouped by rank, or
      None until asked; ``lead_cache``/``lead_gone``: each seat's leads and the keys played
      since they were listed (one pack only); ``legal_memo``: (seat, legal plays) until the
      next action;
    - ``table``/``table_seat``: the play to beat and its player (None: a lead); ``passed``:
      per seat, passed this round; ``stacking``: the turn now is a stacking turn (§5);
      ``stack_seq``: a stack was played this round (the others only chop);
    - ``opening``: the next lead is the hand's opening lead; ``first_play``: no card played yet;
      ``no_pass_lead``: the opener passed, the next leader must lead; ``window``: an
      out-of-turn chop may be made now (§6);
    - ``finish``: places from the top, first out first; ``bottom``: places from the bottom
      (cóng, out on twos), last first; ``out``: per seat, placed; ``cong``: the cóng seats;
      ``played_any``: per seat, has played a card; ``counts_at_first_out``: the cards held
      when the first seat went out;
    - ``payments``: the payments so far; ``ledger``: the round's chops (§11 chop_pay);
    - ``history``: every action as (seat, move); ``instant``: (seat, win) of an instant win;
      ``scores``: units per seat once over;
    - claims: ``claim_queue`` (seats still to answer), ``claims`` (seat: win claimed);
    - mutual trading: ``trade_done``, ``offered`` (pairs that traded), ``pending`` (offerer,
      target, gift, answer or None), ``trade_seat``; president returns: ``returns``
      (receiver, giver, count) still owed.
    """

    __slots__ = (
        "bottom",
        "claim_queue",
        "claims",
        "cong",
        "counts_at_first_out",
        "dealer",
        "dealt",
        "finish",
        "first_play",
        "groups",
        "hands",
        "history",
        "instant",
        "lead_cache",
        "lead_gone",
        "leader",
        "ledger",
        "legal_memo",
        "lowest_start",
        "mg",
        "named",
        "no_pass_lead",
        "offered",
        "one_pack",
        "opening",
        "opening_lowest",
        "order",
        "out",
        "passed",
        "payments",
        "pending",
        "phase",
        "played_any",
        "returns",
        "scores",
        "stack_seq",
        "stacking",
        "table",
        "table_seat",
        "trade_done",
        "trade_seat",
        "turn",
        "window",
    )

    order: str
    one_pack: bool
    mg: MoveGenerator
    named: bool
    dealer: int
    dealt: tuple[tuple[int, ...], ...]
    lowest_start: bool
    opening_lowest: int | None
    leader: int
    phase: Phase
    turn: int | None
    hands: list[list[int]]
    groups: list[list[tuple[int, ...]] | None]
    lead_cache: list[list[Play] | None]
    lead_gone: list[set[int]]
    legal_memo: tuple[int, list[Move]] | None
    table: Play | None
    table_seat: int | None
    passed: list[bool]
    stacking: bool
    stack_seq: bool
    opening: bool
    first_play: bool
    no_pass_lead: bool
    window: bool
    finish: list[int]
    bottom: list[int]
    out: list[bool]
    cong: list[int]
    played_any: list[bool]
    counts_at_first_out: list[int] | None
    payments: list[Payment]
    ledger: ChopLedger
    history: list[tuple[int, Move]]
    instant: tuple[int, str] | None
    scores: list[int] | None
    claim_queue: list[int]
    claims: dict[int, str]
    trade_done: list[bool]
    offered: set[tuple[int, int]]
    pending: Pending | None
    trade_seat: int
    returns: list[Exchange]

    def __init__(self, hands: list[list[int]], ledger: ChopLedger) -> None:
        n = len(hands)
        self.hands = hands
        self.groups = [None] * n
        self.lead_cache = [None] * n
        self.lead_gone = [set() for _ in range(n)]
        self.legal_memo = None
        self.phase = "play"
        self.turn = None
        self.table = None
        self.table_seat = None
        self.passed = [False] * n
        self.stacking = False
        self.stack_seq = False
        self.opening = True
        self.first_play = True
        self.no_pass_lead = False
        self.window = False
        self.finish = []
        self.bottom = []
        self.out = [False] * n
        self.cong = []
        self.played_any = [False] * n
        self.counts_at_first_out = None
        self.payments = []
        self.ledger = ledger
        self.history = []
        self.instant = None
        self.scores = None
        self.claim_queue = []
        self.claims = {}
        self.trade_done = [False] * n
        self.offered = set()
        self.pending = None
        self.returns = []

    def held(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, low to high in the rules' card order."""
        back = KEY_TO_CODE[self.order]
        return [Card(back[k]) for k in self.hands[seat]]

    def copy(self) -> PlayState:
        """An independent copy: every mutable field copied, the fixed ones shared."""
        other = PlayState.__new__(PlayState)
        other.order = self.order
        other.one_pack = self.one_pack
        other.mg = self.mg
        other.named = self.named
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.lowest_start = self.lowest_start
        other.opening_lowest = self.opening_lowest
        other.leader = self.leader
        other.phase = self.phase
        other.turn = self.turn
        other.table = self.table
        other.table_seat = self.table_seat
        other.stacking = self.stacking
        other.stack_seq = self.stack_seq
        other.opening = self.opening
        other.first_play = self.first_play
        other.no_pass_lead = self.no_pass_lead
        other.window = self.window
        other.instant = self.instant
        other.pending = self.pending
        other.trade_seat = self.trade_seat
        other.hands = [list(h) for h in self.hands]
        other.groups = [None if g is None else list(g) for g in self.groups]
        other.lead_cache = list(self.lead_cache)  # the lists are never changed in place
        other.lead_gone = [set(g) for g in self.lead_gone]
        other.legal_memo = None
        other.passed = list(self.passed)
        other.finish = list(self.finish)
        other.bottom = list(self.bottom)
        other.out = list(self.out)
        other.cong = list(self.cong)
        other.played_any = list(self.played_any)
        other.counts_at_first_out = (None if self.counts_at_first_out is None
                                     else list(self.counts_at_first_out))
        other.payments = list(self.payments)
        other.ledger = self.ledger.copy()
        other.history = list(self.history)
        other.scores = None if self.scores is None else list(self.scores)
        other.claim_queue = list(self.claim_queue)
        other.claims = dict(self.claims)
        other.trade_done = list(self.trade_done)
        other.offered = set(self.offered)
        other.returns = list(self.returns)
        return other
