"""Names of players and tables: NFC-normalised, visible, free of hidden characters, and compared
without regard to case."""

from __future__ import annotations

import unicodedata

from ..errors import TienLenError
from ..i18n import Msg, msg, render

MAX_NAME = 24  # characters in a player's name, after normalisation
MAX_TABLE_NAME = 40  # characters in a table's name, after normalisation
RAW_FACTOR = 4  # a name may arrive decomposed: this many code points per character at most

_INVISIBLE = ("M", "Z", "C")  # combining marks, separators, controls and format characters
_CONTROL = ("Cc", "Co", "Cs", "Cn")  # controls, private use, surrogates, unassigned
# letters and marks that show nothing: the Hangul fillers, the braille blank, the combining
# grapheme joiner and the Khmer inherent vowels (format characters, Cf, are refused as well)
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


class BadName(TienLenError):
    """A name that cannot be used; the text says why (``reason``: the same as a message)."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(render(reason))
        self.reason = reason


_WHAT = {"a name": "name.what.a_name", "the player's name": "name.what.player",
         "the table's name": "name.what.table"}


def _code_points(chars: list[str]) -> str:
    """``U+200B, U+202E``: each character once, in the order they come."""
    return ", ".join(f"U+{ord(ch):04X}" for ch in dict.fromkeys(chars))


def clean_name(raw: str, what: str = "a name", limit: int = MAX_NAME) -> str:
    """``raw`` in NFC with runs of white space made one space; refused (:class:`BadName`) when
    it holds a control character, shows no visible character, holds an invisible or formatting
    character (a zero-width space, a right-to-left override) or is longer than ``limit``."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    said = msg(_WHAT[what]) if what in _WHAT else what
    control = [ch for ch in name if unicodedata.category(ch) in _CONTROL]
    if control:
        raise BadName(msg("name.control", what=said, chars=_code_points(control)))
    if not any(unicodedata.category(ch)[0] not in _INVISIBLE and ch not in _BLANK for ch in name):
        raise BadName(msg("name.invisible", what=said))
    hidden = [ch for ch in name if unicodedata.category(ch) == "Cf" or ch in _BLANK]
    if hidden:
        raise BadName(msg("name.hidden", what=said, chars=_code_points(hidden)))
    if len(name) > limit:
        raise BadName(msg("name.long", what=said, n=len(name), limit=limit))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFC, then case-folded (so "ALICE" is "alice")."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
