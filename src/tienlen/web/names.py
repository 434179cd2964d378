"""Names of players and tables: NFC-normalised, visible, and compared without regard to case."""

from __future__ import annotations

import unicodedata

from ..errors import TienLenError

MAX_NAME = 24  # characters in a player's name, after normalisation
MAX_TABLE_NAME = 40  # characters in a table's name, after normalisation
RAW_FACTOR = 4  # a name may arrive decomposed: this many code points per character at most

_INVISIBLE = ("M", "Z", "C")  # combining marks, separators, controls and format characters


class BadName(TienLenError):
    """A name that cannot be used; the text says why."""


def clean_name(raw: str, what: str = "a name", limit: int = MAX_NAME) -> str:
    """``raw`` in NFC with runs of white space made one space; refused (:class:`BadName`) when
    it shows no visible character, holds a control character or is longer than ``limit``."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(unicodedata.category(ch) in ("Cc", "Co", "Cs", "Cn") for ch in name):
        raise BadName(f"{what} cannot hold control or unassigned characters")
    if not any(unicodedata.category(ch)[0] not in _INVISIBLE for ch in name):
        raise BadName(f"{what} needs at least one visible character")
    if len(name) > limit:
        raise BadName(f"{what} has {len(name)} characters; at most {limit}")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFC, then case-folded (so "ALICE" is "alice")."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
