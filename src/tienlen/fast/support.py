"""Which rules the fast path implements (no numpy, no numba: safe to import anywhere)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from ..rules import Rules

# every option of Rules the fast path knows: play-phase options it implements, and options
# that only act before play (deal, claims, trading) or after it (scoring, next hand)
PLAY_OPTIONS: Final = frozenset((
    "suit_order", "opening", "opening_may_pass", "opening_no_chain", "twos_in_runs",
    "twos_in_chains", "triple_chains", "quad_chains", "double_deck_ties", "pass_locks_out",
    "chop_after_pass", "stacking", "chops", "chop_out_of_turn", "four_twos_bomb", "end_at",
    "follow_suit", "free_chops", "chop_pay", "cong", "no_two_last",
))
OTHER_OPTIONS: Final = frozenset((
    "name", "direction", "next_dealer", "hand_size_three", "hand_size_two", "hand_size_big",
    "odd_card_to_leader", "next_leader", "instant_wins", "instant_win_optional", "scoring",
    "stake", "penalty_two", "red_twos_double", "penalty_bomb", "penalty_no_play",
    "instant_win_stake", "session_result", "trading", "place_points",
))
# play-phase options the fast path does not implement: supported only when off (none left:
# the §11 options are implemented); listed so that a change of their defaults cannot slip
# through
UNSUPPORTED_OPTIONS: Final = frozenset[str]()
MAX_FREE: Final = 4  # free_chops patterns (fast.layout.MAX_FREE)
MAX_PEN: Final = 8  # rows of a penalty_bomb table (fast.layout.MAX_PEN)
_OFF: Final = (False, None, 0, "", (), "none", "off")
_SHAPES: Final = frozenset(("single", "pair", "triple", "quad", "run", "chain", "triple_chain",
                            "quad_chain"))
_ENTRY_FIELDS: Final = frozenset(("bomb", "target", "higher"))
_PATTERN_FIELDS: Final = frozenset(("shape", "ranks", "or_more", "twos_only"))


def unsupported(rules: Rules) -> list[str]:
    """The options of ``rules`` the fast path does not implement (empty: it supports them).

    An option it does not know (added to :class:`Rules` after it) is taken as unsupported
    unless it is at its default and that default is off (false, none, 0 or empty)."""
    out = []
    for f in dataclasses.fields(rules):
        if f.name in PLAY_OPTIONS or f.name in OTHER_OPTIONS:
            continue
        value = getattr(rules, f.name)
        if f.name in UNSUPPORTED_OPTIONS:
            if not any(value == off and type(value) is type(off) for off in _OFF):
                out.append(f.name)
            continue
        default: object = f.default
        if default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        if value != default or not any(value == off and type(value) is type(off) for off in _OFF):
            out.append(f.name)
    if not all(_known_entry(e) for e in rules.chops):
        out.append("chops")
    if len(rules.free_chops) > MAX_FREE or not all(_known_pattern(p) for p in rules.free_chops):
        out.append("free_chops")
    if not isinstance(rules.penalty_bomb, int) and (
            len(rules.penalty_bomb) > MAX_PEN
            or not all(_known_pattern(p) for p, _ in rules.penalty_bomb)):
        out.append("penalty_bomb")
    return out


def _known_entry(entry: object) -> bool:
    """Whether a chop entry is made only of what the fast path knows."""
    if {f.name for f in dataclasses.fields(entry)} != _ENTRY_FIELDS:  # type: ignore[arg-type]
        return False
    return all(_known_pattern(p) for p in (entry.bomb, entry.target))  # type: ignore[attr-defined]


def _known_pattern(pattern: object) -> bool:
    """Whether a bomb or target pattern is made only of what the fast path knows."""
    if {f.name for f in dataclasses.fields(pattern)} != _PATTERN_FIELDS:  # type: ignore[arg-type]
        return False
    return pattern.shape in _SHAPES  # type: ignore[attr-defined]
