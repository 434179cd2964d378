"""The canonical action space: a fixed ``Discrete`` set of ids for every decision of a hand.

A play is identified by its **shape, its length and its top card** (the *key* of the top
card: ``rank * 4 + strength`` under the rules' suit order, 0..51). Plays compare by shape,
length and top card only, so below the top card a play's suits do not change what it
beats: the environment makes an id with the **lowest legal card set** of that id
(the smallest sorted keys), which is the card set ``play_for`` returns and the info lists.

The ids, in order (the space is built for the rules and the number of players, since
the packs, the hand size and the shape options decide which plays exist):

1. ``pass`` (id 0);
2. ``single`` by top key (52);
3. ``pair``, ``triple``, ``quad`` by top key, from the lowest top a set can have
   (one pack: a pair's top is at least the second suit, so 39 pairs, 26 triples and
   13 quads; two packs, where a pair may be ``7h 7h``: 52, 39 and 39);
4. ``run`` by length (3 .. the longest the hand allows, 12 ranks, 13 with
   ``twos_in_runs``), then top rank, then top suit;
5. ``chain`` (pairs), then ``triple_chain`` (only with ``triple_chains``) and
   ``quad_chain`` (only with ``quad_chains``), by length (from 3, 3 and 2 pairs /
   triples / fours up to what the hand size allows; the two only with
   ``twos_in_chains``), top rank and top suit (from the lowest a top can have);
6. the phase decisions: ``decline`` (decline an instant win, refuse a trade, or end
   one's trade offers: ``done``), ``accept`` (a trade answered), ``lowest`` (answer a
   trade offer, or make a president-exchange return, with one's lowest cards), and
   ``claim:WIN`` for each instant win of :data:`tienlen.rules.INSTANT_WINS`.

4-player ``pagat`` (twos in runs and chains; at most 6 pairs in a chain of a 13-card
hand): 509 play ids (1 pass + 52 singles + 39 pairs + 26 triples + 13 quads + 264 runs +
114 chains), then 10 phase ids: ``Discrete(519)``. Without twos in runs and chains: 453
play ids -- the research note's 440 for a 13-card deal, plus 13 because triples keep
their top suit here (an agent chooses which card of the rank it keeps; the note counts
triples and quads by rank alone). Two packs (5-8 players), triple and quad chains, and
longer hands (17 cards) add ids; every id's play exists under the rules.

Exceptions -- where two card sets of one id differ in more than what they beat, the
environment still plays the lowest, so an agent cannot choose between them:

- penalties that count red twos (``red_twos_double``): of ``2s 2h`` and ``2d 2h`` (one
  id, top ``2h``) the environment plays ``2s 2h``;
- ``double_deck_ties = "next_distinct"`` (two packs), where the cards below the top
  break ties between plays of the same top card;
- ``follow_suit`` (§11) and bombs matched by colour: the legal card sets already obey
  them, and the lowest legal one is played;
- trading: an agent makes no trade offers (its only offer decision is ``done``), and
  answers an offer or returns cards with its lowest cards (``lowest``) or refuses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..actions import Action, ActionKind, Move
from ..game import hand_size, packs_for
from ..rules import INSTANT_WINS, Rules
from ..shapes import PASS, SEQUENCES, Play

PHASE_IDS: Final = ("decline", "accept", "lowest", *(f"claim:{w}" for w in INSTANT_WINS))
_DECLINE: Final[frozenset[ActionKind]] = frozenset(("decline", "refuse", "done"))

Key = tuple[str, int, int]  # (shape, length, top key); the pass is ("pass", 0, -1)


def _min_top_strength(width: int, packs: int) -> int:
    """The lowest suit strength the top card of ``width`` cards of one rank can have."""
    return -(-width // packs) - 1


class ActionSpace:
    """The canonical ids of one rules set and number of players (see the module text)."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        packs = packs_for(players)
        size = hand_size(rules, players)
        entries: list[Key] = [("pass", 0, -1)]
        entries += [("single", 1, k) for k in range(52)]
        for width, shape in ((2, "pair"), (3, "triple"), (4, "quad")):
            low = _min_top_strength(width, packs)
            entries += [(shape, width, k) for k in range(52) if k % 4 >= low]
        for shape, allowed, twos in (
            ("run", True, rules.twos_in_runs), ("chain", True, rules.twos_in_chains),
            ("triple_chain", rules.triple_chains, rules.twos_in_chains),
            ("quad_chain", rules.quad_chains, rules.twos_in_chains),
        ):
            if not allowed:
                continue
            width, fewest = SEQUENCES[shape]
            top_rank = 12 if twos else 11
            longest = min(size // width, top_rank + 1)
            low = _min_top_strength(width, packs)
            for length in range(fewest, longest + 1):
                for rank in range(length - 1, top_rank + 1):
                    entries += [(shape, length, rank * 4 + s) for s in range(low, 4)]
        self.play_count = len(entries)
        self.entries: tuple[Key, ...] = tuple(entries)
        self.index: dict[Key, int] = {e: i for i, e in enumerate(entries)}
        self.phase_base = len(entries)
        self.n = len(entries) + len(PHASE_IDS)

    # ------------------------------------------------------------------ plays
    @staticmethod
    def key_of(play: Play) -> Key:
        if not play.keys:
            return ("pass", 0, -1)
        assert play.shape is not None
        return (play.shape, play.length if play.shape in SEQUENCES else len(play.keys), play.keys[-1])

    def id_of(self, move: Move) -> int:
        """The id of a legal move (a play, or a phase action)."""
        if isinstance(move, Play):
            return self.index[self.key_of(move)]
        return self.phase_base + PHASE_IDS.index(self._phase_name(move))

    @staticmethod
    def _phase_name(action: Action) -> str:
        if action.kind in _DECLINE:
            return "decline"
        if action.kind == "accept":
            return "accept"
        if action.kind == "claim":
            return f"claim:{action.win}"
        return "lowest"  # answer, return

    def describe(self, action_id: int) -> str:
        """The id in words: ``'pair top 5h'``, ``'run of 4 top 9c'``, ``'decline'``."""
        from ..cards import KEY_TEXT

        if action_id >= self.phase_base:
            return PHASE_IDS[action_id - self.phase_base]
        shape, length, top = self.entries[action_id]
        if shape == "pass":
            return "pass"
        text = KEY_TEXT[self.rules.suit_order][top]
        if shape in SEQUENCES:
            return f"{shape} of {length} top {text}"
        return f"{shape} top {text}"

    def legal(self, moves: Iterable[Move]) -> dict[int, Move]:
        """Each legal id with its move: the lowest card set of the id (see the module text).

        ``moves`` are the engine's legal moves of one decision; phase actions that choose
        cards (answers, returns) keep the lowest cards, and trade offers are left out."""
        out: dict[int, Move] = {}
        for move in moves:
            if isinstance(move, Action) and move.kind == "offer":
                continue
            action_id = self.id_of(move)
            held = out.get(action_id)
            if held is None or _lower(move, held):
                out[action_id] = move
        return dict(sorted(out.items()))


def _lower(a: Move, b: Move) -> bool:
    if isinstance(a, Play) and isinstance(b, Play):
        return a.keys < b.keys
    if isinstance(a, Action) and isinstance(b, Action):
        return sorted(c.code for c in a.cards) < sorted(c.code for c in b.cards)
    return False


__all__ = ["PASS", "PHASE_IDS", "ActionSpace"]
