"""Search's sampled deals on the compiled fast path: :class:`FastHistory` replays the history
on a deal (judging the others' decisions with the compiled heuristic) without building a
:class:`~tienlen.game.Game`, and its deals carry the fast state that the compiled rollouts
start from. It stands in for :class:`~.inference.History` (same methods, same answers) when
:func:`usable` says so; :class:`~.inference.Beliefs` and the chain run on it unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..cards import CODE_TO_KEY, KEY_TO_CODE, Card
from ..dealing import lowest_holder_of
from ..game import packs_for
from ..instant import instant_wins_of
from ..shapes import Play
from .inference import _ASIDE, _HOPELESS, Deal, History

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View


def usable(view: View) -> bool:
    """Whether the history is the play phase alone (no claims or trades to replay)."""
    return all(isinstance(move, Play) for _, move in view.events)


class FastDeal:
    """A deal replayed to the present in the fast form (``state``), with its misfits."""

    __slots__ = ("_game", "aside", "history", "misfits", "state")

    def __init__(self, state: Any, misfits: int, aside: tuple[int, ...],
                 history: FastHistory) -> None:
        self.state = state
        self.misfits = misfits
        self.aside = aside
        self.history = history
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The deal as a pure :class:`Game` (replayed on first use)."""
        if self._game is None:
            deal, _ = History.replay(self.history, self.history.hidden_of(cast(Deal, self)),
                                     judge=False)
            assert deal is not None
            self._game = deal.game
        return self._game


class FastHistory(History):
    """:class:`History` with the replays on the fast path (see the module text)."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        import numpy as np

        from ..fast import load

        api = load()
        from ..fast import policies
        from ..fast.encoding import fast_rules, masks_of, play_mask
        from ..fast.split import shared_memo

        self._np = np
        self._policies = policies
        self._masks_of = masks_of
        self.fr = fast_rules(view.rules)
        self.memo = shared_memo()
        self.buf = api.buffer()
        rows = []
        for seat, move in self.moves:
            assert isinstance(move, Play)
            rows.append((seat, *play_mask(move)))
        self.rows = np.array(rows, dtype=np.int64).reshape(len(rows), 4)
        rules = view.rules
        self._to_key = CODE_TO_KEY[rules.suit_order]
        self._back = KEY_TO_CODE[rules.suit_order]
        self._played_keys = [[self._to_key[c.code] for c in cards] for cards in self.played]
        self._own = [self._to_key[c.code] for c in view.hand]
        # as Game: instant wins are claimed with one pack only and not after a trade (§7)
        self._claims = (bool(rules.instant_wins) and rules.trading == "none"
                        and packs_for(view.players) == 1)
        self._wins = rules.instant_wins
        # four_threes only in a hand whose opening names the lowest card (§11)
        self._wins_no_lowest = tuple(w for w in rules.instant_wins if w != "four_threes")

    # ------------------------------------------------------------------ replays
    def replay(self, hidden: list[list[Card]], cap: int = _HOPELESS,
               judge: bool = True) -> tuple[Deal | None, int]:
        view = self.view
        np = self._np
        to_key = self._to_key
        n = view.players
        dealt: list[list[int]] = [[] for _ in range(n)]
        aside: tuple[int, ...] = ()
        for holder, cards in zip(self.holders, hidden, strict=True):
            if holder == _ASIDE:
                aside = tuple(sorted(to_key[c.code] for c in cards))
            else:
                dealt[holder] = [to_key[c.code] for c in cards]
        dealt[view.seat] = list(self._own)
        for seat in range(n):
            dealt[seat].extend(self._played_keys[seat])
        leader = view.leader if not view.lowest_start else lowest_holder_of(dealt, view.dealer)
        lowest = view.lowest_start and (view.first_hand or view.rules.next_leader == "lowest")
        if self._claims:
            wins = self._wins if lowest else self._wins_no_lowest
            order = view.rules.suit_order
            if any(len(h) == 13 and instant_wins_of(sorted(h), wins, order) for h in dealt):
                return None, 1  # an automatic instant win that the real deal did not hold
        from ..fast.layout import (
            S_FIRST_PLAY,
            S_HI,
            S_LO,
            S_LOWEST,
            S_N,
            S_OPENING,
            S_SIZE,
            S_TSEAT,
            S_TURN,
        )

        st = np.zeros(S_SIZE, dtype=np.int64)

        st[S_N] = n
        for seat in range(n):
            st[S_LO + seat], st[S_HI + seat] = self._masks_of(dealt[seat])
        st[S_TURN] = leader
        st[S_TSEAT] = -1
        st[S_OPENING] = 1
        st[S_FIRST_PLAY] = 1
        st[S_LOWEST] = min(dealt[leader]) if lowest else -1
        return self._run(st, aside, 0, 0, cap, judge)

    def extend(self, deal: Deal, done: int) -> tuple[Deal | None, int]:
        fd = cast(FastDeal, deal)
        return self._run(fd.state.copy(), fd.aside, done, fd.misfits, fd.misfits, True)

    def _run(self, st: Any, aside: tuple[int, ...], start: int, misfits: int, cap: int,
             judge: bool) -> tuple[Deal | None, int]:
        from ..fast.layout import S_TURN

        policies = self._policies
        total = policies.unplayed(st)
        for k in aside:
            total[k >> 2] += 1
        misfits, work = policies.replay(st, self.fr.cfg, self.fr.chops, self.rows, start,
                                        self.view.seat, total, max(aside, default=-1), self.memo,
                                        self.buf, misfits, cap, judge)
        if misfits < 0 or st[S_TURN] != self.view.seat:
            return None, int(work)
        return cast(Deal, FastDeal(st, int(misfits), aside, self)), int(work)

    # ------------------------------------------------------------------ reading deals
    def hidden_of(self, deal: Deal) -> list[list[Card]]:
        from ..fast.encoding import keys_of
        from ..fast.layout import S_HI, S_LO

        st = cast(FastDeal, deal).state
        back = self._back
        out = []
        for s in self.holders:
            keys = deal.aside if s == _ASIDE else keys_of(st[S_LO + s], st[S_HI + s])
            out.append([Card(back[k]) for k in keys])
        return out

    def signature(self, deal: Deal) -> tuple[tuple[int, ...], ...]:
        from ..fast.layout import S_HI, S_LO

        st = cast(FastDeal, deal).state
        return tuple((int(st[S_LO + s]), int(st[S_HI + s])) for s in self.holders if s != _ASIDE)


def is_fast(deal: object) -> bool:
    return isinstance(deal, FastDeal)


__all__ = ["FastDeal", "FastHistory", "is_fast", "usable"]
