"""Payments in players' words (§8, §11): who pays whom, how many units, and for what.

Made from a :class:`~tienlen.payments.Payment`'s structured facts, never from its ``reason``
(the record's English). Cards stay as card text (``2h``), for the screen to draw.

>>> from tienlen.payments import Payment
>>> p = Payment(3, 0, 2, "place", "fourth place pays first", item="place", places=(3, 0))
>>> payment_line(p, ("You", "Bot 1", "Bot 2", "Bot 3"), you=0)
'Bot 3 pays you 2 units: 4th place pays 1st place'
>>> payment_line(p, ("Bạn", "Máy 1", "Máy 2", "Máy 3"), lang="vi", you=0)
'Máy 3 trả bạn 2 điểm: Bét trả Nhất'
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import TWO
from .i18n import Msg, msg, render, t, tn
from .payments import Chop, Payment
from .shapes import SEQUENCES, Play


def bomb_noun(play: Play) -> Msg:
    """A chopping play by its kind: ``a four of a kind``, ``three consecutive pairs``."""
    shape = play.shape or "single"
    if shape in SEQUENCES:
        n = play.length
        return msg(f"noun.pattern.{shape}.exact", n=msg(f"num.{n}") if n <= 13 else n)
    if play.keys and play.keys[-1] >> 2 == TWO:
        return msg(f"noun.twos.{shape}")
    return msg(f"noun.pattern.{shape}")


def place_words(players: int, lang: str = "en") -> list[str]:
    """Each place's word, first first; Vietnamese names the last apart (Bét)."""
    last = t("place.last", lang)
    return [last if players > 2 and i == players - 1 and last else t(f"place.{i + 1}", lang)
            for i in range(players)]


def _units(n: int, lang: str) -> str:
    return tn("pay.units", n, lang)


def pays_words(p: Payment, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``Bot 3 pays you 2 units`` (``you``: the seat called "you", if any)."""
    units = _units(p.units, lang)
    if p.payer == you:
        return t("pay.you_pay", lang, payee=names[p.payee], units=units)
    if p.payee == you:
        return t("pay.pays_you", lang, payer=names[p.payer], units=units)
    return t("pay.pays", lang, payer=names[p.payer], payee=names[p.payee], units=units)


def chop_words(c: Chop, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``Bot 2 chopped your 2h with a four of a kind``."""
    bomb = render(bomb_noun(c.bomb), lang)
    target = str(c.target)
    if c.chopper == you:
        return t("pay.chop.you", lang, owner=names[c.owner], target=target, bomb=bomb)
    if c.owner == you:
        return t("pay.chop.yours", lang, chopper=names[c.chopper], target=target, bomb=bomb)
    return t("pay.chop", lang, chopper=names[c.chopper], owner=names[c.owner], target=target,
             bomb=bomb)


def what_words(p: Payment, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """What a payment is for, in a sentence (``names``: every seat's, in seat order)."""
    item = p.item
    if item in ("chop", "chain"):
        chops = [chop_words(c, names, lang, you) for c in p.chops]
        if len(chops) <= 1:
            return chops[0] if chops else t("pay.short.chop", lang)
        items = " + ".join(str(c.units) for c in p.chops)
        return t("pay.chain", lang, chops=t("pay.then", lang).join(chops), items=items)
    if item == "place":
        payer, payee = p.places
        words = place_words(len(names), lang)
        return t("pay.place", lang, payer=words[payer], payee=words[payee])
    if item in ("cards", "bombs"):
        return tn(f"pay.{item}", p.count, lang)
    if item == "bomb":
        return t("pay.bomb", lang, bomb=render(bomb_noun(Play.parse(p.cards)), lang),
                 cards=p.cards)
    if item == "two":
        return t("pay.two", lang, cards=p.cards)
    if item == "instant":
        return t("pay.instant", lang, win=t(f"win.{p.win}", lang))
    if item in ("stake", "no_play", "cong"):
        return t(f"pay.{item}", lang)
    return t(f"pay.short.{p.kind}", lang)


def short_words(p: Payment, lang: str = "en") -> str:
    """What a payment is for, in a word or two: ``chop``, ``thối heo``."""
    return t(f"pay.short.{p.item or p.kind}", lang)


def payment_line(p: Payment, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``Bot 3 pays you 2 units: 4th place pays 1st place``."""
    return t("pay.line", lang, pays=pays_words(p, names, lang, you),
             what=what_words(p, names, lang, you))


def short_line(p: Payment, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``You pay Bot 2 4 units: chop`` (for a narrow log)."""
    return t("pay.line", lang, pays=pays_words(p, names, lang, you), what=short_words(p, lang))
