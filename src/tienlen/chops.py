"""Chop entries ("bomb beats target"): parsing, matching, and their description in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .cards import TWO
from .errors import RulesError, error
from .shapes import SEQUENCES, Play, higher

_NUMBER_WORDS: Final = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                        "nine", "ten", "eleven", "twelve", "thirteen")
_SEQ_WORDS: Final = {"chain": "pairs", "triple_chain": "triples", "quad_chain": "fours of a kind"}
_SIMPLE_TARGETS: Final = {
    "2": ("single", "a two"), "22": ("pair", "a pair of twos"), "222": ("triple", "three twos"),
    "single": ("single", "a single card"), "pair": ("pair", "a pair"),
    "triple": ("triple", "a triple"), "quad": ("quad", "a four of a kind"),
}
_PATTERN_RE: Final = re.compile(r"^(chain|triple_chain|quad_chain):(\d+)(\+?)$")
_ENTRY_RE: Final = re.compile(r"^\s*(\S+)\s*(?:>|->|beats)\s*(\S+)\s*(higher)?\s*$")


@dataclass(frozen=True, slots=True)
class Pattern:
    """A kind of play named in a chop entry: ``quad``, ``chain:4+``, ``2``, ``pair``, …"""

    shape: str
    ranks: int = 0  # for sequences: how many ranks (pairs, triples, quads); 0 for sets
    or_more: bool = False
    twos_only: bool = False

    @classmethod
    def parse(cls, text: str, *, as_target: bool) -> Pattern:
        word = text.strip().lower()
        if word in _SIMPLE_TARGETS:
            if word != "quad" and not as_target:
                raise error(RulesError, "err.rules.not_a_bomb", text=repr(text))
            return cls(_SIMPLE_TARGETS[word][0], twos_only=word[0] == "2")
        m = _PATTERN_RE.match(word)
        if m is None:
            raise error(RulesError, "err.rules.not_a_pattern", text=repr(text))
        shape, count, plus = m.group(1), int(m.group(2)), bool(m.group(3))
        fewest = SEQUENCES[shape][1]
        if count < fewest:
            raise error(RulesError, "err.rules.fewest_ranks", text=repr(text), shape=shape,
                        fewest=fewest)
        return cls(shape, count, plus)

    def matches(self, play: Play) -> bool:
        if play.shape != self.shape:
            return False
        if self.twos_only:
            return play.keys[-1] >> 2 == TWO
        if self.ranks:
            n = len(play.keys) // SEQUENCES[self.shape][0]
            return n >= self.ranks if self.or_more else n == self.ranks
        return True

    def __str__(self) -> str:
        if self.twos_only:
            return "2" * {"single": 1, "pair": 2, "triple": 3}[self.shape]
        if self.ranks:
            return f"{self.shape}:{self.ranks}{'+' if self.or_more else ''}"
        return self.shape

    def words(self) -> str:
        """The pattern in words: ``'four or more consecutive pairs'``."""
        text = str(self)
        if text in _SIMPLE_TARGETS:
            return _SIMPLE_TARGETS[text][1]
        count = _NUMBER_WORDS[self.ranks] if self.ranks < len(_NUMBER_WORDS) else str(self.ranks)
        more = " or more" if self.or_more else ""
        return f"{count}{more} consecutive {_SEQ_WORDS[self.shape]}"


@dataclass(frozen=True, slots=True)
class ChopEntry:
    """One line of a chop list: ``bomb`` beats ``target`` (with ``higher``: only a lower one)."""

    bomb: Pattern
    target: Pattern
    higher: bool = False

    @classmethod
    def parse(cls, text: str) -> ChopEntry:
        """Read ``"chain:4+ > 22"`` or ``"chain:5 > chain:3 higher"`` (``->`` and ``beats`` work too)."""
        if not isinstance(text, str):
            raise error(RulesError, "err.rules.entry_type", value=repr(text))
        m = _ENTRY_RE.match(text)
        if m is None:
            raise error(RulesError, "err.rules.not_an_entry", text=repr(text))
        return cls(Pattern.parse(m.group(1), as_target=False),
                   Pattern.parse(m.group(2), as_target=True), bool(m.group(3)))

    def beats(self, bomb: Play, target: Play, ties: str) -> bool:
        """Whether this entry lets ``bomb`` beat ``target``."""
        if not (self.bomb.matches(bomb) and self.target.matches(target)):
            return False
        return not self.higher or higher(bomb.keys, target.keys, ties)

    def __str__(self) -> str:
        return f"{self.bomb} > {self.target}{' higher' if self.higher else ''}"

    def words(self) -> str:
        tail = ", if higher" if self.higher else ""
        verb = "beats" if self.bomb.shape == "quad" and not self.bomb.ranks else "beat"
        return f"{self.bomb.words()} {verb} {self.target.words()}{tail}"


def parse_chops(text: str) -> tuple[ChopEntry, ...]:
    """Read a chop list written as in RULES.md: ``"quad > 2; chain:3+ > 2"``."""
    return tuple(ChopEntry.parse(part) for part in re.split(r"[;\n]", text) if part.strip())
