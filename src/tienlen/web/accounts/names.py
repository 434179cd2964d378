"""Names of players and tables: NFC-normalised, visible, free of hidden characters, and compared
by what they look like (Unicode's confusable skeleton, UTS #39, through ICU)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any, Protocol

from ...errors import TienLenError
from ...i18n import LANGS, Msg, display_name, msg, render, t

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
    """The same name written in another case: NFC, then case-folded (so "ALICE" is "alice")."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


@cache
def _checker() -> Any:
    import icu  # the web extra's pyicu-wheels; imported when a name is first compared

    return icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_checker().getSkeleton(0, text))


def confusable_key(name: str) -> str:
    """What two names are compared by: the name in NFKD (so full-width letters are letters) and
    in capitals, its UTS #39 skeleton, case-folded, then the skeleton again. "Lan", "LAN", "Ian"
    and "Lаn" (a Cyrillic а) have one key, and "B0t 1" the key of "Bot 1"; the marks of the
    Vietnamese letters stay, so "Lan", "Lân" and "Lăn" are three names. (Capitals first: the
    skeleton of "I" is "l" but that of "i" is "i", so "THỊ" and "Thị" would differ.)"""
    return _skeleton(_skeleton(unicodedata.normalize("NFKD", name).upper()).casefold())


@cache
def _bot_patterns() -> tuple[re.Pattern[str], dict[str, str]]:
    """A pattern of the keys of "Bot N" in every language, and each digit's key to the digit."""
    digits = {confusable_key(d): d for d in "0123456789"}
    shapes = []
    for lang in LANGS:
        before, _, after = t("tui.bot_name", lang, n="\0").partition("\0")
        shapes.append(re.escape(confusable_key(before)) + "(?P<n" + lang + ">["
                      + re.escape("".join(digits)) + "]+)" + re.escape(confusable_key(after)))
    return re.compile("|".join(shapes)), digits


def bot_number(name: str) -> int | None:
    """The N of the bot's name "Bot N" (or "Máy N", in any language) that ``name`` looks like;
    None when it looks like no bot's name."""
    pattern, digits = _bot_patterns()
    m = pattern.fullmatch(confusable_key(name))
    if m is None:
        return None
    return int("".join(digits[ch] for ch in next(g for g in m.groups() if g is not None)))


def shown_keys(name: str, bot: bool = False) -> frozenset[str]:
    """The keys of a seat's name as any reader sees it (a bot's "Bot 1" is also "Máy 1")."""
    if not bot:
        return frozenset({confusable_key(name)})
    return frozenset({confusable_key(display_name(name, lang)) for lang in LANGS}
                     | {confusable_key(name)})


BOT_NUMBERS = range(1, 40)  # the numbers a bot's name is given at one table


def account_key(name: str) -> str:
    """What account names are unique by: NFKC (full-width and compatibility letters are the
    letters), then :func:`name_key` (case). "Ｌａｎ" and "LAN" are "lan"; "Lân" is not."""
    return name_key(unicodedata.normalize("NFKC", name))


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class AccountNames(Protocol):
    """Who holds the accounts' names (``identity.IdentityStore``)."""

    def name_conflict(self, key: str, look: str,
                      other_than: str | None = None) -> _Named | None: ...


def check_not_account(accounts: AccountNames, name: str, owner: str | None) -> None:
    """Refuse (:class:`BadName`) ``name`` to anyone but the account whose name it is or looks
    like ("Lan", "LAN", "Lаn" with a Cyrillic а, "Ｌａｎ"): an account's name is its own at
    every table, in quick match's queue and as a guest's name. ``owner`` is the identity that
    would go by it (None: a script without a cookie, nobody's account). The one check of a
    guest's name against the accounts' (a seat taken, a queue entry, a guest renamed)."""
    other = accounts.name_conflict(account_key(name), confusable_key(name), owner)
    if other is not None:
        raise BadName(msg("name.account", name=repr(name), account=repr(other.name)))
