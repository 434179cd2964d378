"""Legal-play generation on rank groups of integer keys: the hot loop of every bot and playout.

A hand is indexed as 13 *groups*, one per rank, each a sorted tuple of the
keys of that rank the hand holds (two packs: a key may appear twice).
Generators return :class:`~tienlen.shapes.Play` objects whose keys are sorted.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .cards import ACE, TWO
from .chops import ChopEntry, Pattern
from .shapes import SEQUENCES, SET_SHAPES, Play, higher, keeps_suit, suited

if TYPE_CHECKING:
    from .rules import Rules

Groups = Sequence[tuple[int, ...]]
KeyTuple = tuple[int, ...]

_COMBOS: dict[tuple[KeyTuple, int], tuple[KeyTuple, ...]] = {}
_SINGLES: dict[str, tuple[Play, ...]] = {}


_SET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
_SET_PLAYS: dict[tuple[KeyTuple, int, str], tuple[Play, ...]] = {}


def set_plays(group: KeyTuple, k: int, order: str) -> tuple[Play, ...]:
    """The pairs (k 2), triples (3) or quads (4) of one rank group as plays, made once."""
    found = _SET_PLAYS.get((group, k, order))
    if found is None:
        shape = _SET_NAMES[k]
        found = _SET_PLAYS[(group, k, order)] = tuple(Play(c, shape, order)
                                                      for c in combos(group, k))
    return found


def singles(order: str) -> tuple[Play, ...]:
    """The single of each key under a suit order, made once (plays are immutable values)."""
    found = _SINGLES.get(order)
    if found is None:
        found = _SINGLES[order] = tuple(Play((k,), "single", order) for k in range(52))
    return found


def combos(group: KeyTuple, k: int) -> tuple[KeyTuple, ...]:
    """The distinct k-card subsets of one rank group, each sorted (cached: groups repeat)."""
    found = _COMBOS.get((group, k))
    if found is None:
        found = tuple(sorted(set(combinations(group, k)))) if len(group) >= k else ()
        _COMBOS[(group, k)] = found
    return found


def _distinct(group: KeyTuple) -> KeyTuple:
    """The group without repeated keys (only two packs repeat a key)."""
    if len(group) < 2 or len(set(group)) == len(group):
        return group
    return tuple(dict.fromkeys(group))


def _same(group: KeyTuple) -> KeyTuple:
    return group


def group_keys(keys: Iterable[int]) -> list[KeyTuple]:
    """Index sorted keys by rank: ``groups[r]`` is the tuple of keys of rank ``r``."""
    buckets: list[list[int]] = [[] for _ in range(13)]
    for k in keys:
        buckets[k >> 2].append(k)
    return [tuple(sorted(b)) for b in buckets]


def _extend(acc: list[KeyTuple], part: tuple[KeyTuple, ...]) -> list[KeyTuple]:
    if len(part) == 1:
        c = part[0]
        return [a + c for a in acc]
    return [a + c for a in acc for c in part]


def sequences(groups: Groups, width: int, length: int, max_rank: int,
              min_top_rank: int = 0) -> list[KeyTuple]:
    """Every run (width 1) or chain (width 2-4) of exactly ``length`` ranks in the hand."""
    out: list[KeyTuple] = []
    parts = [combos(g, width) if len(g) >= width else () for g in groups[:max_rank + 1]]
    first = max(0, min_top_rank - length + 1)
    start = first
    last_start = max_rank - length + 1
    while start <= last_start:
        # find the first missing rank in [start, start + length)
        for r in range(start + length - 1, start - 1, -1):
            if not parts[r]:
                start = r + 1
                break
        else:
            acc = list(parts[start])
            for r in range(start + 1, start + length):
                acc = _extend(acc, parts[r])
            out.extend(acc)
            start += 1
    return out


def all_sequences(groups: Groups, width: int, fewest: int, max_rank: int) -> list[KeyTuple]:
    """Every run or chain of ``fewest`` or more ranks in the hand."""
    out: list[KeyTuple] = []
    parts = [combos(g, width) if len(g) >= width else () for g in groups[:max_rank + 1]]
    r = 0
    while r <= max_rank:
        if not parts[r]:
            r += 1
            continue
        end = r  # the maximal segment of present ranks [r, end]
        while end < max_rank and parts[end + 1]:
            end += 1
        for start in range(r, end - fewest + 2):
            acc = list(parts[start])
            for q in range(start + 1, end + 1):
                acc = _extend(acc, parts[q])
                if q - start + 1 >= fewest:
                    out.extend(acc)
        r = end + 1
    return out


class MoveGenerator:
    """Generates plays for one set of rules; build once per game (cheap) and reuse."""

    def __init__(self, rules: Rules, packs: int = 2) -> None:
        self.rules = rules
        # with one pack no key repeats, so groups need no de-duplication
        self.distinct = _distinct if packs > 1 else _same
        self.order = rules.suit_order
        self.ties = rules.double_deck_ties
        self.run_top = TWO if rules.twos_in_runs else ACE
        self.chain_top = TWO if rules.twos_in_chains else ACE
        self.enabled = {
            "run": True, "chain": True,
            "triple_chain": rules.triple_chains, "quad_chain": rules.quad_chains,
        }
        self.entries: tuple[ChopEntry, ...] = tuple(
            e for e in rules.chops if e.bomb.shape in SET_SHAPES or self.enabled[e.bomb.shape]
        )
        self.four_twos = rules.four_twos_bomb
        self._target_cache: dict[tuple[str | None, int, bool], tuple[ChopEntry, ...]] = {}
        self._target_shapes = frozenset(e.target.shape for e in self.entries)
        self.free: tuple[Pattern, ...] = tuple(
            p for p in rules.free_chops if p.shape in SET_SHAPES or self.enabled[p.shape])
        self._free_cache: dict[tuple[str | None, int, bool], bool] = {}
        self.follow_suit = rules.follow_suit

    # ------------------------------------------------------------------ shapes
    def _top_rank(self, shape: str) -> int:
        return self.run_top if shape == "run" else self.chain_top

    def _make(self, keys: list[KeyTuple], shape: str) -> list[Play]:
        order = self.order
        return [Play(k, shape, order) for k in keys]

    def leads(self, groups: Groups) -> list[Play]:
        """Every combination the hand can lead."""
        out = self._leads(groups)
        if self.follow_suit:
            order = self.order
            return [p for p in out if suited(p.keys, p.shape, order)]  # type: ignore[arg-type]
        return out

    def _leads(self, groups: Groups) -> list[Play]:
        order = self.order
        distinct = self.distinct
        one = singles(order)
        out = [one[k] for g in groups for k in distinct(g)]
        for g in groups:
            n = len(g)
            if n >= 2:
                out.extend(set_plays(g, 2, order))
                if n >= 3:
                    out.extend(set_plays(g, 3, order))
                    if n >= 4:
                        out.extend(set_plays(g, 4, order))
        for shape, (width, fewest) in SEQUENCES.items():
            if self.enabled[shape]:
                found = all_sequences(groups, width, fewest, self._top_rank(shape))
                out.extend(Play(c, shape, order) for c in found)
        return out

    def same_shape_beats(self, groups: Groups, table: Play,
                         hand: Sequence[int] | None = None) -> list[Play]:
        """The plays of the table's shape and size that rank above it (keeping its suits
        under ``follow_suit``).

        ``hand``, the sorted keys the groups index, speeds up singles in one-pack games.
        """
        found = self._same_shape_beats(groups, table, hand)
        if self.follow_suit:
            order, tkeys, shape = self.order, table.keys, table.shape
            assert shape is not None
            return [p for p in found
                    if suited(p.keys, shape, order) and keeps_suit(p.keys, tkeys, shape, order)]
        return found

    def _same_shape_beats(self, groups: Groups, table: Play,
                          hand: Sequence[int] | None = None) -> list[Play]:
        shape = table.shape
        assert shape is not None and shape != "pass"
        tkeys = table.keys
        top_rank = tkeys[-1] >> 2
        ties = self.ties
        if shape == "single":
            top = tkeys[0]
            one = singles(self.order)
            if hand is not None and self.distinct is _same:
                return [one[k] for k in hand[bisect_right(hand, top):]]
            distinct = self.distinct
            if ties == "later_wins":
                return [one[k] for r in range(top_rank, 13) for k in distinct(groups[r]) if k >= top]
            return [one[k] for r in range(top_rank, 13) for k in distinct(groups[r]) if k > top]
        if shape in SET_SHAPES:
            size, order = len(tkeys), self.order
            return [p for r in range(top_rank, 13) if len(groups[r]) >= size
                    for p in set_plays(groups[r], size, order)
                    if r > top_rank or higher(p.keys, tkeys, ties)]
        width = SEQUENCES[shape][0]
        found = [c for c in sequences(groups, width, len(tkeys) // width,
                                      self._top_rank(shape), top_rank)
                 if c[-1] >> 2 > top_rank or higher(c, tkeys, ties)]
        return self._make(found, shape)

    # ------------------------------------------------------------------ bombs
    def entries_against(self, table: Play) -> tuple[ChopEntry, ...]:
        """The chop entries whose target the table play is."""
        key = (table.shape, len(table.keys), table.keys[-1] >> 2 == TWO if table.keys else False)
        found = self._target_cache.get(key)
        if found is None:
            found = tuple(e for e in self.entries if e.target.matches(table))
            self._target_cache[key] = found
        return found

    def is_target(self, table: Play) -> bool:
        """Whether any bomb could beat the table play outside the shape rule."""
        if self.four_twos:
            return True
        return self.is_entry_target(table)

    def is_entry_target(self, table: Play) -> bool:
        """Whether a chop entry targets the table play. **Resolution** (§6): four twos are a
        chop only for the seat on turn, so they make no play a target for passers' chop turns
        or out-of-turn chops."""
        return table.shape in self._target_shapes and bool(self.entries_against(table))

    # ------------------------------------------------------------------ free chops (§11)
    def is_free_target(self, table: Play) -> bool:
        """Whether a bomb of a ``free_chops`` pattern could beat the table play: through a chop
        entry, or as a higher bomb of the same pattern."""
        if not self.free or not table.keys:
            return False
        key = (table.shape, len(table.keys), table.keys[-1] >> 2 == TWO)
        found = self._free_cache.get(key)
        if found is None:
            found = any(p.matches(table) for p in self.free) or any(
                _covers(p, e.bomb) for e in self.entries_against(table) for p in self.free)
            self._free_cache[key] = found
        return found

    def free_chops(self, groups: Groups, table: Play) -> list[Play]:
        """The bombs of ``free_chops`` patterns in the hand that beat the table play."""
        out: dict[KeyTuple, Play] = {}
        for p in self.chops(groups, table):
            if any(f.matches(p) for f in self.free):
                out[p.keys] = p
        for f in self.free:
            if f.matches(table):  # a higher bomb of its own pattern, by the ordinary rule
                shape = table.shape
                assert shape is not None
                width = SEQUENCES[shape][0] if shape in SEQUENCES else 0
                if width:
                    found = [c for c in sequences(groups, width, len(table.keys) // width,
                                                  self._top_rank(shape), table.keys[-1] >> 2)
                             if higher(c, table.keys, self.ties)]
                else:
                    found = [c for g in groups if len(g) >= 4 for c in combos(g, 4)
                             if higher(c, table.keys, self.ties)]
                for c in found:
                    out.setdefault(c, Play(c, shape, self.order))
        return list(out.values())

    def _bombs(self, groups: Groups, pattern: Pattern) -> list[KeyTuple]:
        if pattern.shape == "quad":
            return [c for g in groups if len(g) >= 4 for c in combos(g, 4)]
        width = SEQUENCES[pattern.shape][0]
        top = self._top_rank(pattern.shape)
        if pattern.or_more:
            return all_sequences(groups, width, pattern.ranks, top)
        return sequences(groups, width, pattern.ranks, top)

    def chops(self, groups: Groups, table: Play, four_twos: bool = True) -> list[Play]:
        """The bombs in the hand that beat the table play through a chop entry or (unless
        ``four_twos`` is false: out of turn) four twos."""
        out: dict[KeyTuple, Play] = {}
        ties = self.ties
        for entry in self.entries_against(table):
            shape = entry.bomb.shape
            for c in self._bombs(groups, entry.bomb):
                if c not in out and (not entry.higher or higher(c, table.keys, ties)):
                    out[c] = Play(c, shape, self.order)
        if four_twos and self.four_twos and len(groups[TWO]) >= 4:
            is_twos_quad = table.shape == "quad" and table.keys[-1] >> 2 == TWO
            for c in combos(groups[TWO], 4):
                if c not in out and (not is_twos_quad or higher(c, table.keys, ties)):
                    out[c] = Play(c, "quad", self.order)
        return list(out.values())

    def beats(self, groups: Groups, table: Play, hand: Sequence[int] | None = None) -> list[Play]:
        """Every play that beats the table: the same shape higher, or a chop."""
        plain = self.same_shape_beats(groups, table, hand)
        if not self.four_twos and (table.shape not in self._target_shapes
                                   or not self.entries_against(table)):
            return plain
        bombs = self.chops(groups, table)
        if not bombs:
            return plain
        seen = {p.keys for p in plain}
        plain.extend(b for b in bombs if b.keys not in seen)
        return plain


def _covers(free: Pattern, bomb: Pattern) -> bool:
    """Whether some bomb of pattern ``bomb`` is also of pattern ``free``."""
    if free.shape != bomb.shape:
        return False
    if not free.ranks:
        return True
    lo_f, hi_f = free.ranks, (99 if free.or_more else free.ranks)
    lo_b, hi_b = bomb.ranks, (99 if bomb.or_more else bomb.ranks)
    return max(lo_f, lo_b) <= min(hi_f, hi_b)
