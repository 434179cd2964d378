"""Names of players and tables: NFC-normalised, visible, and compared without regard to case."""

from __future__ import annotations

import unicodedata

from ..errors import TienLenError
from ..i18n import Msg, msg, render

MAX_NAME = 24  # characters in a player's name, after normalisation
MAX_TABLE_NAME = 40  # characters in a table's name, after normalisation
RAW_FACTOR = 4  # a name may arrive decomposed: this many code points per character at most

_INVISIBLE = ("M", "Z", "C")  # combining marks, separators, controls and format characters


class BadName(TienLenError):
    """A name that cannot be used; the text says why (``reason``: the same as a message)."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(render(reason))
        self.reason = reason


_WHAT = {"a name": "name.what.a_name", "the player's name": "name.what.player",
         "the table's name": "name.what.table"}


def clean_name(raw: str, what: str = "a name", limit: int = MAX_NAME) -> str:
    """``raw`` in NFC with runs of white space made one space; refused (:class:`BadName`) when
    it shows no visible character, holds a control character or is longer than ``limit``."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    said = msg(_WHAT[what]) if what in _WHAT else what
    if any(unicodedata.category(ch) in ("Cc", "Co", "Cs", "Cn") for ch in name):
        raise BadName(msg("name.control", what=said))
    if not any(unicodedata.category(ch)[0] not in _INVISIBLE for ch in name):
        raise BadName(msg("name.invisible", what=said))
    if len(name) > limit:
        raise BadName(msg("name.long", what=said, n=len(name), limit=limit))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFC, then case-folded (so "ALICE" is "alice")."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
