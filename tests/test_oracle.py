"""Brute force is the oracle: every sub-multiset of a hand, classified and judged by the rules.

The judging here is written from RULES.md alone (§4 shapes through ``shapes.classify``,
§5 the beat and the tie rule, §6 the chop lists as RULES.md prints them) and never
asks the move generator. The generator must return exactly the plays the oracle
finds, each once.

The helpers at the top (``Oracle``, ``oracle_legal``) are also used by
``benchmarks/make_perft.py`` to check the golden counts before they are written.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import RULES_MD_CHOPS
from tienlen import Card, Game, Play, Rules
from tienlen.actions import Action
from tienlen.movegen import MoveGenerator, group_keys
from tienlen.shapes import classify

TWO_RANK = 12
SET_NAMES = ("single", "pair", "triple", "quad")
WIDTH = {"run": 1, "chain": 2, "triple_chain": 3, "quad_chain": 4}

PRESETS = list(RULES_MD_CHOPS)
ALL_ENTRIES = sorted({e for entries in RULES_MD_CHOPS.values() for e in entries})

Keys = tuple[int, ...]


# ---------------------------------------------------------------------- the oracle
def pattern_matches(pattern: str, keys: Keys, shape: str | None) -> bool:
    """Whether a play (sorted keys and its shape) is of a chop pattern of RULES.md §6."""
    if pattern in ("2", "22", "222"):
        return shape == SET_NAMES[len(pattern) - 1] and keys[-1] // 4 == TWO_RANK
    if pattern in SET_NAMES:
        return shape == pattern
    name, _, count = pattern.partition(":")
    if shape != name:
        return False
    ranks = len(keys) // WIDTH[name]
    if count.endswith("+"):
        return ranks >= int(count[:-1])
    return ranks == int(count)


def ranks_higher(a: Keys, b: Keys, ties: str) -> bool:
    """§5: a higher top card (rank, then suit); exact ties settled by ``double_deck_ties``."""
    if a[-1] != b[-1]:
        return a[-1] > b[-1]
    if ties == "reject":
        return False
    if ties == "later_wins":
        return True
    for x, y in zip(reversed(a), reversed(b), strict=False):  # next_distinct
        if x != y:
            return x > y
    return False  # exact copies never beat


@dataclass
class Oracle:
    """The rules as the oracle reads them: which shapes exist and which chops there are."""

    order: str
    twos_in_runs: bool
    twos_in_chains: bool
    triple_chains: bool
    quad_chains: bool
    ties: str
    entries: list[tuple[str, str, bool]]
    four_twos: bool
    follow_suit: bool = False
    free: tuple[str, ...] = ()

    @classmethod
    def of(cls, rules: Rules, chop_texts: Sequence[str]) -> Oracle:
        entries = []
        for text in chop_texts:
            words = text.split()
            bomb_shape = words[0].partition(":")[0]
            if (bomb_shape == "triple_chain" and not rules.triple_chains) or \
                    (bomb_shape == "quad_chain" and not rules.quad_chains):
                continue  # a bomb that cannot be formed under these rules makes no target
            entries.append((words[0], words[2], len(words) > 3 and words[3] == "higher"))
        free = tuple(str(p) for p in rules.free_chops
                     if not ((str(p).startswith("triple_chain") and not rules.triple_chains)
                             or (str(p).startswith("quad_chain") and not rules.quad_chains)))
        return cls(rules.suit_order, rules.twos_in_runs, rules.twos_in_chains,
                   rules.triple_chains, rules.quad_chains, rules.double_deck_ties, entries,
                   rules.four_twos_bomb, rules.follow_suit, free)

    def raw_shape(self, keys: Keys) -> str | None:
        """The shape by §4 alone (chops ignore suits, §11)."""
        return classify(keys, self.twos_in_runs, self.twos_in_chains, self.triple_chains,
                        self.quad_chains)

    def shape(self, keys: Keys) -> str | None:
        shape = self.raw_shape(keys)
        if shape is None or not self.follow_suit or all(k // 4 == TWO_RANK for k in keys):
            return shape
        # §11 follow_suit: a pair of one colour, a run of one suit, a chain of one colour
        if shape == "run" and len({self.suit(k) for k in keys}) > 1:
            return None
        if shape in ("pair", "chain") and len({self.colour(k) for k in keys}) > 1:
            return None
        return shape

    def suit(self, key: int) -> str:
        """The suit letter of a key under the suit order (§1)."""
        low_to_high = "scdh" if self.order == "standard" else "cdhs"
        return low_to_high[key % 4]

    def colour(self, key: int) -> str:
        return "black" if self.suit(key) in "sc" else "red"

    def keeps_suit(self, keys: Keys, shape: str, table: Keys) -> bool:
        """§11: a beat keeps the suits; plays made only of twos are exempt."""
        if not self.follow_suit or all(k // 4 == TWO_RANK for k in keys):
            return True
        if shape in ("single", "run"):
            return self.suit(keys[0]) == self.suit(table[0])
        if shape in ("pair", "chain"):
            return self.colour(keys[0]) == self.colour(table[0])
        if shape == "triple":
            return sorted(map(self.suit, keys)) == sorted(map(self.suit, table))
        return True

    def combinations(self, hand: Sequence[int], raw: bool = False) -> list[tuple[Keys, str]]:
        """Every distinct sub-multiset of the hand that is a combination, with its shape
        (``raw``: by §4 alone, suits ignored, as chops are judged)."""
        counts = sorted(Counter(hand).items())
        out = []
        for choice in product(*(range(c + 1) for _, c in counts)):
            sub: list[int] = []
            for (key, _), n in zip(counts, choice, strict=True):
                sub.extend([key] * n)
            if not sub:
                continue
            keys = tuple(sub)
            shape = self.raw_shape(keys) if raw else self.shape(keys)
            if shape is not None:
                out.append((keys, shape))
        return out

    def plain_beat(self, keys: Keys, shape: str, table: Keys, tshape: str) -> bool:
        return (shape == tshape and len(keys) == len(table) and ranks_higher(keys, table, self.ties)
                and self.keeps_suit(keys, shape, table))

    def free_chop(self, keys: Keys, shape: str, table: Keys, tshape: str) -> bool:
        """§11 free chops: a bomb of a listed pattern that beats the table by a chop entry, or
        as a higher bomb of its own pattern (same length)."""
        if not any(pattern_matches(p, keys, shape) for p in self.free):
            return False
        if self.chop(keys, shape, table, tshape):
            return True
        return any(pattern_matches(p, keys, shape) and pattern_matches(p, table, tshape)
                   for p in self.free) and shape == tshape and len(keys) == len(table) \
            and ranks_higher(keys, table, self.ties)

    def free_chops(self, combos: Iterable[tuple[Keys, str]], table: Keys, tshape: str) -> set[Keys]:
        return {k for k, s in combos if self.free_chop(k, s, table, tshape)}

    def chop(self, keys: Keys, shape: str, table: Keys, tshape: str) -> bool:
        twos = shape == "quad" and keys[-1] // 4 == TWO_RANK
        table_twos = tshape == "quad" and table[-1] // 4 == TWO_RANK
        if self.four_twos and twos and not table_twos:
            return True  # four twos beat any combination (other four twos only when higher)
        return any(
            pattern_matches(bomb, keys, shape) and pattern_matches(target, table, tshape)
            and (not need_higher or ranks_higher(keys, table, self.ties))
            for bomb, target, need_higher in self.entries)

    def chop_by_entry(self, keys: Keys, table: Keys, tshape: str) -> bool:
        shape = self.raw_shape(keys)
        return shape is not None and any(
            pattern_matches(bomb, keys, shape) and pattern_matches(target, table, tshape)
            and (not need_higher or ranks_higher(keys, table, self.ties))
            for bomb, target, need_higher in self.entries)

    def is_target(self, table: Keys, tshape: str) -> bool:
        return self.four_twos or any(pattern_matches(t, table, tshape) for _, t, _ in self.entries)

    # the four lists the generator makes
    def leads(self, combos: Iterable[tuple[Keys, str]]) -> set[Keys]:
        return {k for k, _ in combos}

    def beats(self, combos: Iterable[tuple[Keys, str]], table: Keys, tshape: str,
              raw: Iterable[tuple[Keys, str]] = ()) -> set[Keys]:
        """Plain beats among ``combos``, chops among ``raw`` (the combinations by §4 alone)."""
        return ({k for k, s in combos if self.plain_beat(k, s, table, tshape)}
                | self.chops(raw or combos, table, tshape))

    def chops(self, combos: Iterable[tuple[Keys, str]], table: Keys, tshape: str) -> set[Keys]:
        return {k for k, s in combos if self.chop(k, s, table, tshape)}

    def same_shape(self, combos: Iterable[tuple[Keys, str]], table: Keys, tshape: str) -> set[Keys]:
        return {k for k, s in combos if self.plain_beat(k, s, table, tshape)}


def keys_of(cards: Iterable[Card], order: str) -> list[int]:
    return sorted(c.key(order) for c in cards)


def play_keys(plays: Sequence[Any]) -> list[Keys]:
    return [p.keys for p in plays]


def oracle_legal(game: Game, seat: int, oracle: Oracle, *, opening_lowest: int | None,
                 stacked: bool) -> Counter[str]:
    """The legal actions of ``seat`` in a play-phase game, judged from its public state.

    ``opening_lowest``: the lowest card's key when the hand opened under the ``opening``
    rule (the leader was not named); ``stacked``: a stacking play was made this round.
    The result counts action texts, so a duplicate in the engine's list shows up.
    """
    rules = game.rules
    order = rules.suit_order
    hand = keys_of(game.hand(seat), order)
    combos = oracle.combinations(hand)
    raw = oracle.combinations(hand, raw=True)
    table = game.table
    played = [m for _, m in game.history if isinstance(m, Play) and m.keys]
    passes = [m for _, m in game.history if isinstance(m, Play) and not m.keys]
    found: set[Keys]
    may_pass = True
    if seat != game.turn:  # out of turn: chops of the play just made, when the rules allow
        if table is None or game.is_out(seat) or seat == game.table_seat:
            return Counter()
        tkeys = tuple(keys_of(table.cards, order))
        tshape = oracle.raw_shape(tkeys)
        assert tshape is not None
        found = set()
        locked = game.passed[seat] and (rules.pass_locks_out or stacked)
        if rules.chop_out_of_turn and _window_open(game) and \
                not (locked and not rules.chop_after_pass):
            # §6: four twos chop only for the seat on turn
            found = {k for k in oracle.chops(raw, tkeys, tshape)
                     if not (len(k) == 4 and all(x // 4 == TWO_RANK for x in k))
                     or oracle.chop_by_entry(k, tkeys, tshape)}
        if oracle.free:  # §11: free chops at any moment, passed or not
            found |= oracle.free_chops(raw, tkeys, tshape)
        may_pass = False
    elif table is None:
        found = oracle.leads(combos)
        if not played and opening_lowest is not None and not passes:
            if rules.opening == "lowest_single":
                found = {(opening_lowest,)}
            elif rules.opening == "contains_lowest":
                found = {k for k in found if opening_lowest in k}
        if not played and rules.opening_no_chain:
            found = {k for k in found if oracle.shape(k) != "chain"}
        may_pass = (not played and not passes and opening_lowest is not None
                    and rules.opening_may_pass)
    else:
        tkeys = tuple(keys_of(table.cards, order))
        tshape = oracle.raw_shape(tkeys)
        assert tshape is not None
        if game.stacking:
            found = oracle.same_shape(combos, tkeys, tshape)
        elif game.passed[seat] and (rules.pass_locks_out or stacked):
            found = oracle.chops(raw, tkeys, tshape)
        else:
            found = oracle.beats(combos, tkeys, tshape, raw)
    texts = Counter(str(Play.from_cards(_cards(k, order), rules)) for k in found)
    if may_pass:
        texts["pass"] += 1
    return texts


def _window_open(game: Game) -> bool:
    """Out-of-turn chops are open right after a play (no action since)."""
    if not game.history:
        return False
    last = game.history[-1][1]
    return isinstance(last, Play) and bool(last.keys)


def _cards(keys: Keys, order: str) -> list[Card]:
    by_key = {c.key(order): c for c in (Card(i) for i in range(52))}
    return [by_key[k] for k in keys]


def engine_legal(game: Game, seat: int) -> Counter[str]:
    return Counter(str(m) for m in game.legal_plays(seat))


# ---------------------------------------------------------------------- drawing positions
def random_rules(rng: random.Random, preset: str, mix: bool) -> tuple[Rules, list[str]]:
    """A preset, or with ``mix`` the preset with random shape options and a random chop list."""
    rules = Rules.preset(preset)
    chops = list(RULES_MD_CHOPS[preset])
    if mix:
        chops = rng.sample(ALL_ENTRIES, rng.randint(0, 8))
        rules = rules.replace(
            twos_in_runs=rng.random() < 0.5, twos_in_chains=rng.random() < 0.5,
            triple_chains=rng.random() < 0.5, quad_chains=rng.random() < 0.5,
            double_deck_ties=rng.choice(["reject", "later_wins", "next_distinct"]),
            four_twos_bomb=rng.random() < 0.3, suit_order=rng.choice(["standard", "alphabetical"]),
            chops=chops, follow_suit=rng.random() < 0.4,
            free_chops=rng.sample(["chain:4+", "quad", "chain:3", "quad_chain:2", "chain:5"],
                                  rng.randint(0, 2)),
        )
    return rules, chops


def random_cards(rng: random.Random, size: int, packs: int, avoid: Counter[int] | None = None,
                 window: bool = True) -> list[int]:
    """Card codes: often from a narrow band of ranks, so that pairs, chains and quads are common."""
    avoid = avoid or Counter()
    if window and rng.random() < 0.7:
        width = rng.randint(3, 7)
        low = rng.randint(0, 13 - width)
        ranks = range(low, low + width)
    else:
        ranks = range(13)
    deck = [r * 4 + s for r in ranks for s in range(4) for _ in range(packs - avoid[r * 4 + s])]
    deck = [c for c in deck if avoid[c] < packs]
    return rng.sample(deck, min(size, len(deck)))


def random_tables(rng: random.Random, oracle: Oracle, hand_codes: list[int], packs: int,
                  count: int) -> list[tuple[Keys, str]]:
    """Table plays drawn from cards outside the hand, one shape at a time so that rare ones appear."""
    source = random_cards(rng, 9, packs, Counter(hand_codes))
    combos = oracle.combinations(keys_of((Card(c) for c in source), oracle.order))
    by_shape: dict[str, list[tuple[Keys, str]]] = {}
    for keys, shape in combos:
        by_shape.setdefault(shape, []).append((keys, shape))
    twos = [c for c in range(48, 52) for _ in range(packs - Counter(hand_codes)[c])]
    rng.shuffle(twos)
    for n in (1, 2, 3):  # a two, a pair of twos, three twos: the targets of most chops
        if len(twos) >= n:
            keys = tuple(sorted(Card(c).key(oracle.order) for c in twos[:n]))
            by_shape.setdefault("twos", []).append((keys, SET_NAMES[n - 1]))
    if not by_shape:
        return []
    shapes = sorted(by_shape)
    return [rng.choice(by_shape[rng.choice(shapes)]) for _ in range(count)]


def tie_tables(rng: random.Random, oracle: Oracle, hand_codes: list[int],
               count: int) -> list[tuple[Keys, str]]:
    """Two packs: tables made of the other copies of the hand's own cards, so tops tie."""
    held = Counter(hand_codes)
    single = [c for c in hand_codes if held[c] == 1]
    combos = oracle.combinations(keys_of((Card(c) for c in single), oracle.order))
    return [rng.choice(combos) for _ in range(count)] if combos else []


def check_generator(rules: Rules, chops: list[str], hand_codes: list[int],
                    tables: list[tuple[Keys, str]]) -> int:
    """Compare every generator list with the oracle for one hand and some tables."""
    oracle = Oracle.of(rules, chops)
    mg = MoveGenerator(rules)
    hand = keys_of((Card(c) for c in hand_codes), rules.suit_order)
    combos = oracle.combinations(hand)
    raw = oracle.combinations(hand, raw=True)
    groups = group_keys(hand)
    context = f"rules {rules.to_toml()!r} hand {hand_codes}"

    def same(got: list[Play], want: set[Keys], what: str) -> None:
        keys = play_keys(got)
        assert len(keys) == len(set(keys)), f"{what}: duplicates in {got} ({context})"
        assert set(keys) == want, (
            f"{what}: generator extra {sorted(set(keys) - want)} missing "
            f"{sorted(want - set(keys))} ({context})")
        for p in got:
            assert p.shape == oracle.raw_shape(p.keys), f"{what}: {p} labelled {p.shape}"

    same(mg.leads(groups), oracle.leads(combos), "leads")
    for tkeys, tshape in tables:
        table = Play(tkeys, tshape, rules.suit_order)
        where = f"against {table} ({tshape})"
        same(mg.beats(groups, table), oracle.beats(combos, tkeys, tshape, raw), "beats " + where)
        same(mg.chops(groups, table), oracle.chops(raw, tkeys, tshape), "chops " + where)
        same(mg.same_shape_beats(groups, table), oracle.same_shape(combos, tkeys, tshape),
             "same shape " + where)
        assert mg.is_target(table) == oracle.is_target(tkeys, tshape), where
        if oracle.free:
            free = oracle.free_chops(raw, tkeys, tshape)
            same(mg.free_chops(groups, table), free, "free chops " + where)
            if free:
                assert mg.is_free_target(table), where
    return 1 + len(tables)


# ---------------------------------------------------------------------- the tests
def test_the_presets_carry_the_chop_lists_of_the_rules():
    for preset, entries in RULES_MD_CHOPS.items():
        assert [str(e) for e in Rules.preset(preset).chops] == entries, preset


def test_the_oracle_knows_the_basic_beats():
    # a check on the oracle itself, reasoned from RULES.md
    oracle = Oracle.of(Rules.preset("pagat"), RULES_MD_CHOPS["pagat"])

    def k(text: str) -> Keys:
        return tuple(keys_of(Play.parse(text).cards, "standard"))

    assert oracle.plain_beat(k("Qs Qh"), "pair", k("Qc Qd"), "pair")
    assert not oracle.plain_beat(k("Qs Qd"), "pair", k("Qc Qh"), "pair")
    assert oracle.chop(k("4s 4c 5s 5d 6c 6h"), "chain", k("2s"), "single")
    assert not oracle.chop(k("4s 4c 5s 5d 6c 6h"), "chain", k("2s 2h"), "pair")
    assert not oracle.chop(k("9s 9c 9d 9h"), "quad", k("As"), "single")
    assert ranks_higher((10, 10, 9), (10, 10, 8), "next_distinct")
    assert not ranks_higher((10, 9), (10, 9), "next_distinct")
    assert ranks_higher((10, 9), (10, 9), "later_wins")
    assert not ranks_higher((10, 9), (10, 9), "reject")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_generator_finds_exactly_the_legal_plays_of_each_preset(preset):
    rng = random.Random(f"oracle-{preset}")
    positions = 0
    for i in range(32):
        packs = 2 if i % 3 == 0 else 1
        rules, chops = random_rules(rng, preset, mix=False)
        if packs == 2:
            rules = rules.replace(double_deck_ties=rng.choice(
                ["reject", "later_wins", "next_distinct"]))
        size = 13 if i % 10 == 0 else rng.randint(6, 11)
        hand = random_cards(rng, size, packs)
        tables = random_tables(rng, Oracle.of(rules, chops), hand, packs, 12)
        if packs == 2:
            tables += tie_tables(rng, Oracle.of(rules, chops), hand, 4)
        positions += check_generator(rules, chops, hand, tables)
    assert positions > 250


def test_the_generator_finds_exactly_the_legal_plays_under_mixed_options():
    rng = random.Random("oracle-mixes")
    positions = 0
    for i in range(100):
        packs = 2 if i % 2 else 1
        rules, chops = random_rules(rng, rng.choice(PRESETS), mix=True)
        hand = random_cards(rng, rng.randint(6, 12), packs)
        tables = random_tables(rng, Oracle.of(rules, chops), hand, packs, 8)
        if packs == 2:
            tables += tie_tables(rng, Oracle.of(rules, chops), hand, 4)
        positions += check_generator(rules, chops, hand, tables)
    assert positions > 800


@st.composite
def positions(draw: st.DrawFn) -> tuple[Rules, list[str], list[int], list[tuple[Keys, str]]]:
    preset = draw(st.sampled_from(PRESETS))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    rules, chops = random_rules(rng, preset, mix=draw(st.booleans()))
    packs = draw(st.sampled_from([1, 2]))
    size = draw(st.integers(6, 11))
    low = draw(st.integers(0, 10))
    width = draw(st.integers(3, 13 - low))
    band = [r * 4 + s for r in range(low, low + width) for s in range(4) for _ in range(packs)]
    size = min(size, len(band))
    picks = draw(st.lists(st.integers(0, len(band) - 1), min_size=size, max_size=size,
                          unique=True))
    hand = [band[i] for i in picks]
    tables = random_tables(rng, Oracle.of(rules, chops), hand, packs, 8)
    return rules, chops, hand, tables


@settings(derandomize=True, database=None, deadline=None, max_examples=100,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_generator_agrees_with_brute_force_on_drawn_positions(position):
    rules, chops, hand, tables = position
    check_generator(rules, chops, hand, tables)


# ---------------------------------------------------------------------- the opening
def _opening_games(rng: random.Random, preset: str) -> Iterable[tuple[Game, Rules, int]]:
    for _ in range(12):
        rules = Rules.preset(preset).replace(
            opening=rng.choice(["lowest_single", "contains_lowest", "free"]),
            opening_no_chain=rng.random() < 0.4, opening_may_pass=rng.random() < 0.4)
        players = rng.randint(2, 8)
        packs = 2 if players > 4 else 1
        deck = [c for c in range(52) for _ in range(packs)]
        rng.shuffle(deck)
        size = rng.randint(6, min(12, len(deck) // players))  # 12 at most: no instant wins
        hands = [deck[i * size:(i + 1) * size] for i in range(players)]
        dealer = rng.randrange(players)
        first_hand = rng.random() < 0.7
        if not first_hand:  # a later hand led by the lowest card: Thirteen's next_leader
            rules = rules.replace(next_leader="lowest")
        game = Game(rules, [[Card(c) for c in h] for h in hands], dealer=dealer,
                    first_hand=first_hand)
        yield game, rules, dealer


@pytest.mark.parametrize("preset", PRESETS)
def test_the_opening_lead_follows_the_opening_rule(preset):
    rng = random.Random(f"opening-{preset}")
    for game, rules, dealer in _opening_games(rng, preset):
        order = rules.suit_order
        hands = [keys_of(game.hand(s), order) for s in range(game.players)]
        lowest = min(min(h) for h in hands)
        dealing_order = [(dealer + 1 + i) % game.players for i in range(game.players)]
        leader = next(s for s in dealing_order if lowest in hands[s])
        assert game.turn == leader
        oracle = Oracle.of(rules, RULES_MD_CHOPS[preset])
        want = oracle_legal(game, leader, oracle, opening_lowest=lowest, stacked=False)
        got = engine_legal(game, leader)
        assert got == want, f"{rules.to_toml()} hands {hands}"
        if rules.opening == "lowest_single":
            assert set(got) - {"pass"} == {str(game.hand(leader)[0])}
        if "pass" in got:  # the opener passes: the next seat leads freely, and may not pass
            game.play("pass")
            nxt = game.turn
            assert nxt is not None and nxt != leader
            want = oracle_legal(game, nxt, oracle, opening_lowest=lowest, stacked=False)
            assert engine_legal(game, nxt) == want
            assert "pass" not in want


def test_an_opening_lead_must_contain_the_three_of_spades_under_pagat():
    game = Game(Rules.preset("pagat"), hands=["3s 4s 5h 5d", "3c 4c 6h", "7h 8h"])
    assert game.turn == 0
    got = {str(p) for p in game.legal_plays()}
    assert got == {"3s", "3s 4s 5h", "3s 4s 5d"}


def test_every_legal_action_of_a_game_is_an_action_object_or_a_play():
    game = Game(Rules.preset("justus-pang"), hands=["3s 3c 3d 3h", "4s 5h", "6h 7h"])
    moves = game.legal_plays()
    assert all(isinstance(m, (Play, Action)) for m in moves)
    assert "pass" in {str(m) for m in moves}  # Justus Pang: the 3♠ may be locked in a quad
