"""The rules in words a player understands, generated from a :class:`Rules` object.

One module serves ``tienlen rules PRESET --explain``, the terminal game's rules
screen and the documentation pages under ``docs/rules/`` (written by
``scripts/make_rules_docs.py``; a test regenerates them and compares).

Every option maps to its words through one table, :data:`OPTION_WORDS`: its
section, what it means and the values it takes (for the house-rules reference),
and the sentences that say what the chosen value means for the players. An
option or a value that has no words yet is listed by :func:`missing_words` (a
test fails naming it) and is shown meanwhile as ``option = value``.

Sentences are kept whole (each one a template with values put in), so that they
can be translated one by one: a sentence that never changes is found in the
catalogue by its English (``rules.text.<English>``); one with values in it (a
stake, a chop list, the lowest card) is a :class:`Sentence`, an English text that
carries its catalogue message, so any value of any option is said in Vietnamese.

>>> from tienlen import Rules
>>> text = explain_text(Rules.preset("pagat"), width=None)
>>> "Passing locks you out of the round" in text
True
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from .chops import ChopEntry, Pattern
from .i18n import Msg, Parts, catalogue, msg, render, t
from .rules import CHOICES, INSTANT_WINS, PRESETS, UNITS, Rules
from .shapes import Play
from .tomlwrite import value as toml_value

Block = str | list[str]  # a paragraph, or a list of items


class MissingWords(LookupError):
    """An option, a value of one or a preset that this module has no words for."""


class Sentence(str):
    """A sentence with values in it: its English text, carrying its catalogue message (to be
    said in another language by :meth:`say`)."""

    message: Msg
    cap: bool

    def __new__(cls, message: Msg, cap: bool = False) -> Sentence:
        text = render(message, "en")
        self = super().__new__(cls, _cap(text) if cap else text)
        self.message, self.cap = message, cap
        return self

    def say(self, lang: str) -> str:
        text = render(self.message, lang)
        return _cap(text) if self.cap else text


def _item(message: Msg, last: bool) -> Sentence:
    """One item of a list in words: ending in ";", the last in "."."""
    return Sentence(msg("rules.item", item=message, end="." if last else ";"))


SECTIONS: Final = (
    "The cards", "The deal", "Who leads", "Combinations", "Beating a play, and passing",
    "Bombs: chopping", "Instant wins", "Trading", "The end of a hand and the score",
)

PRESET_WORDS: Final[dict[str, str]] = {
    "pagat": "The game as John McLeod describes it on pagat.com: the most widely known account "
             "in English, and the project's default.",
    "parlett": "The core rules as David Parlett and Wikipedia give them: the first play of a "
               "session is the lowest card on its own, and four of a kind also chops a pair of "
               "twos.",
    "justus-pang": "Justus Pang's rules, contributed to pagat.com: the opener may pass, twos stay "
                   "out of runs, a player who passed may still chop, and the winner of a round may "
                   "stack higher plays of the same kind.",
    "kenneth-lu": "Kenneth Lu's rules, contributed to pagat.com: a free opening, 17 cards each with "
                  "two or three players, and the hand ends at the first player out, who is paid "
                  "for the cards the others still hold.",
    "viet-cong": "Viet Cong, as Kelly Aman describes it on pagat.com and Wikipedia: twos stay out "
                 "of runs, consecutive fours of a kind chop, and four twos win at once.",
    "thirteen": "Thirteen, as a card-rules site gives it: the holder of the lowest card leads every "
                "hand, the deal rotates, and chains and fours of a kind chop any single card.",
    "killer": "Killer, as a card-rules site gives it: passing does not lock you out, consecutive "
              "fours of a kind chop, and four twos win at once.",
    "cardrules": "The long chop ladder of a card-rules site: chains of triples, bombs that beat "
                 "lower bombs, optional instant wins, and four twos that beat anything.",
    "mien-nam": "Tiến Lên Miền Nam, the Southern game of the popular apps: play goes to the "
                "right, four pairs in a row chop at any moment, chops are paid (chặt chồng), "
                "players who never played are cóng, and places pay Nhất, Nhì, Ba, Bét.",
    "mien-bac": "Tiến Lên Miền Bắc, the Northern game: the Southern rules, but every beat keeps "
                "the suit (a pair the colour), going out on twos makes you last, and only four "
                "of a kind chops a two.",
}

# each preset in one line, for the list of presets (``tienlen rules``)
PRESET_LINES: Final[dict[str, str]] = {
    "pagat": "the best-known account in English (pagat.com); the default",
    "parlett": "the core rules of David Parlett and Wikipedia",
    "justus-pang": "Justus Pang's: the opener may pass, a player who passed may chop",
    "kenneth-lu": "Kenneth Lu's: the hand ends when the first player is out",
    "viet-cong": "Viet Cong: twos stay out of runs, four twos win at once",
    "thirteen": "Thirteen: the holder of the lowest card leads every hand",
    "killer": "Killer: passing does not lock you out of the round",
    "cardrules": "the longest chop ladder: bombs beat lower bombs",
    "mien-nam": "Tiến Lên Miền Nam, the Southern game of the popular apps",
    "mien-bac": "Tiến Lên Miền Bắc, the Northern game: every beat keeps the suit",
}


# ---------------------------------------------------------------------- small words
_RANK_NAMES: Final = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
_NUMBERS: Final = 9  # counts said in words (rules.count.0 to rules.count.8); more in digits


def _units(n: int) -> Msg:
    """A number of units ("3 units", "3 điểm"), said in the reader's language."""
    return msg("rules.units.one" if n == 1 else "rules.units.other", n=n)


def _pick(option: str, table: dict[Any, str], value: Any) -> str:
    try:
        return table[value]
    except KeyError:
        raise MissingWords(f"{option} = {toml_value(value)}") from None


def _lowest(rules: Rules) -> str:
    return "3♠" if rules.suit_order == "standard" else "3♣"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# nouns for chop patterns: what a player calls them (rules.noun.* in the catalogue)
_TARGET_NOUNS: Final = ("2", "22", "222", "single", "pair", "triple", "quad")


def _count(n: int) -> Msg | str:
    """A count in words up to eight ("four", "bốn"), in digits above."""
    return msg(f"rules.count.{n}") if n < _NUMBERS else str(n)


def pattern_message(pattern: Pattern) -> Msg:
    """A chop pattern as a noun, to be said in any language."""
    text = str(pattern)
    if text in _TARGET_NOUNS:
        return msg(f"rules.noun.{text}")
    more = ".more" if pattern.or_more else ""
    return msg(f"rules.noun.{pattern.shape}{more}", count=_count(pattern.ranks))


def chop_sentence(entry: ChopEntry) -> Sentence:
    """One chop entry as a sentence."""
    key = "rules.say.chop_higher" if entry.higher else "rules.say.chop"
    return Sentence(msg(key, bomb=pattern_message(entry.bomb),
                        target=pattern_message(entry.target)), cap=True)


def _twos(rules: Rules) -> list[Sentence]:
    """What beats a two, a pair of twos, three twos: a sentence for each."""
    out = []
    for text, which in (("2h", "2"), ("2d 2h", "22"), ("2c 2d 2h", "222")):
        play = Play.parse(text)
        chopping = {str(e.bomb): e.bomb for e in rules.chops if e.target.matches(play)}
        bombs = [pattern_message(p) for p in chopping.values()]
        if rules.four_twos_bomb:
            bombs.append(msg("rules.noun.four_twos"))
        noun, same = msg(f"rules.noun.{which}"), msg(f"rules.say.higher.{which}")
        if bombs:
            out.append(Sentence(msg("rules.say.twos_chopped", noun=noun, same=same, bombs=bombs)))
        else:
            out.append(Sentence(msg("rules.say.twos_only", noun=noun, same=same)))
    return out


# ---------------------------------------------------------------------- the table
@dataclass(frozen=True)
class OptionWords:
    """One option in words: its section, its meaning and values (for the house-rules
    reference), and the sentences that say what a value means for the players."""

    section: str
    meaning: str
    values: str
    say: Callable[[Rules], list[Block]]


def _bool(option: str, true: str | None, false: str | None) -> Callable[[Rules], list[Block]]:
    def say(rules: Rules) -> list[Block]:
        text = true if getattr(rules, option) else false
        return [text] if text else []
    return say


def _choice(option: str, table: dict[Any, str]) -> Callable[[Rules], list[Block]]:
    def say(rules: Rules) -> list[Block]:
        text = _pick(option, table, getattr(rules, option))
        return [text] if text else []
    return say


def _nothing(rules: Rules) -> list[Block]:
    """For options said in another option's sentences (the stake in the scoring)."""
    return []


def _suit_order(rules: Rules) -> list[Block]:
    return [_pick("suit_order", {
        "standard": "Between cards of one rank the suit decides: spades ♠ lowest, then clubs ♣, "
                    "diamonds ♦, and hearts ♥ highest. So 3♠ is the lowest card and 2♥ the highest.",
        "alphabetical": "Between cards of one rank the suit decides: clubs ♣ lowest, then "
                        "diamonds ♦, hearts ♥, and spades ♠ highest. So 3♣ is the lowest card and "
                        "2♠ the highest.",
    }, rules.suit_order)]


def _hand_size_big(rules: Rules) -> list[Block]:
    return [_pick("hand_size_big", {
        13: "With five to eight players each player gets 13 cards from the double pack, and the "
            "cards left over are set aside.",
        "even": "With five to eight players the double pack is shared out evenly: 20 cards each "
                "for five players, 17 for six, 14 for seven and 13 for eight, and any cards left "
                "over are set aside.",
    }, rules.hand_size_big)]


def _opening(rules: Rules) -> list[Block]:
    low = _lowest(rules)
    table: dict[Any, str] = {
        "contains_lowest": Sentence(msg("rules.say.opening.contains_lowest", low=low)),
        "lowest_single": Sentence(msg("rules.say.opening.lowest_single", low=low)),
        "free": "The first play may be anything: holding the lowest card only decides who "
                "leads.",
    }
    return [_pick("opening", table, rules.opening)]


def _next_leader(rules: Rules) -> list[Block]:
    low = _lowest(rules)
    return [_pick("next_leader", {
        "winner": "In every later hand the winner of the hand before leads, and may lead "
                  "anything.",
        "loser": "In every later hand the player who came last in the hand before leads, and "
                 "may lead anything.",
        "lowest": Sentence(msg("rules.say.next_leader.lowest", low=low)),
    }, rules.next_leader)]


def _chops(rules: Rules) -> list[Block]:
    if not rules.chops:
        return ["No combination chops here: every play is beaten only by a higher play of its "
                "own kind and size."]
    blocks: list[Block] = [
        "A bomb is a combination that may beat certain plays of another kind; this is called "
        "chopping. These are the chops:",
        [chop_sentence(e) for e in rules.chops],
        *_twos(rules),
        "A bomb is also an ordinary combination: it may be led, and it beats a play of its own "
        "kind and size when it is higher. Once a bomb is down it is the play to beat.",
    ]
    return blocks


def _instant_wins(rules: Rules) -> list[Block]:
    if not rules.instant_wins:
        return ["No dealt hand wins at once: every hand is played out."]
    last = len(rules.instant_wins) - 1
    items: list[str] = [_item(msg(f"rules.say.win.{w}"), i == last)
                        for i, w in enumerate(rules.instant_wins)]
    blocks: list[Block] = [
        "A player dealt one of these hands wins the hand at once, before anyone plays:",
        items,
        "Only a full 13-card hand from a single pack can win this way: never with five or more "
        "players, nor with 17-card hands.",
    ]
    if len(rules.instant_wins) > 1:
        blocks.append("When several players hold one, the win listed first counts, then the "
                      "player first in turn order from the leader.")
    if rules.trading != "none":
        blocks.append("Trading cards turns the instant wins off for the whole session.")
    return blocks


def _instant_win_optional(rules: Rules) -> list[Block]:
    if not rules.instant_wins:
        return []
    if rules.instant_win_optional:
        return ["Claiming is a choice: every player with a 13-card hand is asked in turn to "
                "claim or to play on, so the question tells the table nothing."]
    return ["The win is not a choice: it is claimed as soon as the cards are dealt."]


def _instant_win_stake(rules: Rules) -> list[Block]:
    if not rules.instant_wins or rules.scoring == "none":
        return []
    return [Sentence(msg("rules.say.instant_win_stake", units=_units(rules.instant_win_stake)))]


def _scoring(rules: Rules) -> list[Block]:
    stake = _units(rules.stake)
    if rules.scoring == "none":
        return ["No units change hands: only the order of finishing counts."]
    if rules.scoring == "places":
        return [Sentence(msg("rules.say.scoring.places", stake=stake,
                             points=_place_points(rules)))]
    if rules.scoring not in ("loser_pays", "cards_left"):
        raise MissingWords(f"scoring = {toml_value(rules.scoring)}")
    return [Sentence(msg(f"rules.say.scoring.{rules.scoring}", stake=stake))]


def _place_points(rules: Rules) -> Msg:
    if rules.place_points:
        return msg("rules.say.points.listed",
                   points=", ".join(f"{p:+d}" for p in rules.place_points))
    return msg("rules.say.points.default")


def _penalty(option: str) -> Callable[[Rules], list[Block]]:
    def say(rules: Rules) -> list[Block]:
        amount = getattr(rules, option)
        if not amount or rules.scoring == "none":
            return []
        return [Sentence(msg(f"rules.say.{option}", units=_units(amount)))]
    return say


def _penalty_bomb(rules: Rules) -> list[Block]:
    amount = rules.penalty_bomb
    if not amount or rules.scoring == "none":
        return []
    if isinstance(amount, int):
        return [Sentence(msg("rules.say.penalty_bomb", units=_units(amount)))]
    items: list[str] = [
        _item(msg("rules.say.penalty_bomb.item", pattern=pattern_message(p), units=_units(u)),
              i == len(amount) - 1) for i, (p, u) in enumerate(amount)]
    return ["A player left holding a bomb also pays the winner for each (a combination counts "
            "as the first of these it matches):", items]


def _red_twos(rules: Rules) -> list[Block]:
    if rules.red_twos_double and rules.penalty_two and rules.scoring != "none":
        return ["A red two (2♦ or 2♥) left in hand costs double."]
    return []


def _pass_locks_out(rules: Rules) -> list[Block]:
    if rules.pass_locks_out:
        return ["Passing locks you out of the round: once you pass, you cannot play again until "
                "someone wins the round and a new one begins."]
    return ["Passing does not lock you out: when your turn comes round again in the same round, "
            "you may play."]


def _chop_after_pass(rules: Rules) -> list[Block]:
    if not rules.pass_locks_out:
        return []
    if rules.chop_after_pass:
        return ["A player who has passed may still chop: whenever the play to beat can be "
                "chopped, players who passed get a turn to chop it or pass again."]
    if rules.chops:
        return ["Having passed, you cannot chop either until the next round."]
    return []


def _chop_out_of_turn(rules: Rules) -> list[Block]:
    if rules.chop_out_of_turn:
        return ["A chop may also be played out of turn, the moment its target is played and "
                "before the next player acts, by anyone still holding cards; play then goes on "
                "after the chopper. When several want to, the first in turn order after the "
                "player of the target gets it."]
    return ["Chops are played in your turn, like any other play."] if rules.chops else []


def _free_chops(rules: Rules) -> list[Block]:
    if not rules.free_chops:
        return []
    patterns = Parts(tuple(pattern_message(p) for p in rules.free_chops), ", ")
    return [Sentence(msg("rules.say.free_chops", patterns=patterns))]


def _chop_pay(rules: Rules) -> list[Block]:
    return [_pick("chop_pay", {
        "none": "",
        "each": "A chopped two or bomb is paid for at once: its owner pays the chopper what it "
                "would cost left in hand.",
        "chain": "Chops are paid at the end of the round (chặt chồng): the owner of the last "
                 "chopped combination pays the last chopper the worth of every combination "
                 "chopped in that round.",
    }, rules.chop_pay)] if rules.chop_pay != "none" else []


OPTION_WORDS: Final[dict[str, OptionWords]] = {
    "suit_order": OptionWords(
        "The cards", "The order of the suits, lowest first.",
        "`\"standard\"` (♠ ♣ ♦ ♥), `\"alphabetical\"` (♣ ♦ ♥ ♠)", _suit_order),
    "direction": OptionWords(
        "The deal", "The direction of the deal and of play.", "", _choice("direction", {
            "clockwise": "Cards are dealt one at a time, and play goes round the table, "
                         "clockwise (to the left).",
            "anticlockwise": "Cards are dealt one at a time, and play goes round the table, "
                             "anticlockwise (to the right).",
        })),
    "next_dealer": OptionWords(
        "The deal", "Who deals the hands after the first (the first dealer is chosen at random).",
        "", _choice("next_dealer", {
            "loser": "The first dealer is chosen at random; after that, whoever came last in the "
                     "hand before deals.",
            "rotate": "The first dealer is chosen at random; after that, the deal passes to the "
                      "next player each hand.",
        })),
    "hand_size_two": OptionWords(
        "The deal", "Cards dealt to each player at a table of two.", "", _choice("hand_size_two", {
            13: "With two players each gets 13 cards, and the other 26 are set aside.",
            17: "With two players each gets 17 cards, and the other 18 are set aside.",
        })),
    "hand_size_three": OptionWords(
        "The deal", "Cards dealt to each player at a table of three.", "",
        _choice("hand_size_three", {
            13: "With three players each gets 13 cards, and the last 13 are set aside.",
            17: "With three players each gets 17 cards, which leaves one card over.",
        })),
    "hand_size_big": OptionWords(
        "The deal", "Cards dealt to each player at five to eight players (a double pack): 13, or "
        "as many as share out evenly (104 divided by the players).", "`13`, `\"even\"`",
        _hand_size_big),
    "odd_card_to_leader": OptionWords(
        "The deal", "When exactly one card is left over, the player who leads takes it.", "",
        _bool("odd_card_to_leader",
              "When exactly one card is left over, the player who leads the hand takes it. Other "
              "cards left over are set aside face down: nobody sees them, and they are not played.",
              "Cards left over after the deal are set aside face down: nobody sees them, and they "
              "are not played.")),
    "opening": OptionWords(
        "Who leads", "What the first play of a hand led by the holder of the lowest card must be.",
        "", _opening),
    "opening_may_pass": OptionWords(
        "Who leads", "The opener may pass instead of leading (the next player then leads freely).",
        "", _bool("opening_may_pass",
                  "The opener may pass instead (for instance to keep the lowest card inside a four "
                  "of a kind); the next player then leads anything, and nobody else may pass on "
                  "that lead.", None)),
    "opening_no_chain": OptionWords(
        "Who leads", "The first play of a hand may not be a chain of pairs.", "",
        _bool("opening_no_chain", "The first play of a hand may not be a chain of pairs.", None)),
    "next_leader": OptionWords(
        "Who leads", "Who leads the hands after the first.", "", _next_leader),
    "twos_in_runs": OptionWords(
        "Combinations", "Whether a two may end a run (J Q K A 2).", "", _bool(
            "twos_in_runs",
            "A two may end a run, above the ace (J Q K A 2), but runs never go round the corner: "
            "A 2 3 and K A 2 3 are not runs.",
            "Runs stop at the ace: a two is never part of a run, and A 2 3 is not a run either.")),
    "twos_in_chains": OptionWords(
        "Combinations", "Whether twos may end a chain (K K A A 2 2).", "", _bool(
            "twos_in_chains", "A chain may end with twos (K K A A 2 2).",
            "Twos are never part of a chain.")),
    "triple_chains": OptionWords(
        "Combinations", "Whether three or more triples of consecutive ranks are a combination.",
        "", _bool("triple_chains", "A chain of triples (three or more triples of consecutive "
                  "ranks, such as 5 5 5 6 6 6 7 7 7) is a combination too.", None)),
    "quad_chains": OptionWords(
        "Combinations", "Whether two or more fours of a kind of consecutive ranks are a "
        "combination.", "", _bool("quad_chains", "A chain of fours of a kind (two or more of "
                                  "consecutive ranks, such as 8 8 8 8 9 9 9 9) is a combination "
                                  "too.", None)),
    "double_deck_ties": OptionWords(
        "Beating a play, and passing", "With two packs, what happens when two plays are exactly "
        "equal.", "", _choice("double_deck_ties", {
            "reject": "With two packs two plays can be exactly equal; an equal play does not beat.",
            "later_wins": "With two packs two plays can be exactly equal; then the later play "
                          "beats the earlier one.",
            "next_distinct": "With two packs, when two plays have equal top cards the next cards "
                             "down are compared, then the next; an exact copy never beats.",
        })),
    "pass_locks_out": OptionWords(
        "Beating a play, and passing", "A player who passes takes no further part in the round.",
        "", _pass_locks_out),
    "chop_after_pass": OptionWords(
        "Beating a play, and passing", "A player who has passed may still chop in that round.",
        "", _chop_after_pass),
    "stacking": OptionWords(
        "Beating a play, and passing", "The winner of a round may go on with higher plays of the "
        "same kind before the table clears.", "", _bool(
            "stacking", "When everyone else has passed, the last player may, instead of clearing "
            "the table, go on with higher plays of the same kind, one at a time (stacking); the "
            "others may answer a stacked play only with a chop. When the stacker passes, the "
            "table clears and they lead anything.", None)),
    "chops": OptionWords(
        "Bombs: chopping", "The chop list: which bombs beat which plays of another kind.",
        "a list of chop entries (below)", _chops),
    "chop_out_of_turn": OptionWords(
        "Bombs: chopping", "A chop may be played out of turn, the moment its target is played.",
        "", _chop_out_of_turn),
    "four_twos_bomb": OptionWords(
        "Bombs: chopping", "Four twos played together beat any combination.", "",
        _bool("four_twos_bomb", "Four twos played together beat any combination, in your turn.",
              None)),
    "instant_wins": OptionWords(
        "Instant wins", "The dealt hands that win at once.",
        "a list from " + ", ".join(f"`{w}`" for w in INSTANT_WINS), _instant_wins),
    "instant_win_optional": OptionWords(
        "Instant wins", "Whether the holder of an instant win may decline it and play on.", "",
        _instant_win_optional),
    "trading": OptionWords(
        "Trading", "Whether and how cards change hands before play.", "", _choice("trading", {
            "none": "Nobody trades cards: you play the hand you are dealt.",
            "mutual": "After the deal and before the first play, players may swap cards. In turn "
                      "from the leader, each player may offer another player some cards; the "
                      "other answers with as many of their own cards, or refuses; and the one "
                      "who offered then accepts the swap or refuses it. Each player may make one "
                      "offer to each other player a hand, and trading ends when everyone is done.",
            "president": "From the second hand on, the player who came last gives the winner "
                         "their two highest cards and gets back any two cards the winner chooses. "
                         "With four or more players, the second to last also gives the runner-up "
                         "their highest card and gets back any one card.",
        })),
    "end_at": OptionWords(
        "The end of a hand and the score", "Whether a hand goes on until one player is left "
        "with cards, or ends at the first player out.", "", _choice("end_at", {
            "last": "Play goes on until only one player holds cards. Players place in the order "
                    "they go out, and the one left holding cards is last.",
            "first_out": "The hand ends as soon as one player has played all their cards. That "
                         "player wins, and the others place by the cards they still hold, fewest "
                         "first (a tie goes to the player earlier in turn order after the winner).",
        })),
    "scoring": OptionWords(
        "The end of a hand and the score", "How units change hands at the end of a hand.", "",
        _scoring),
    "stake": OptionWords(
        "The end of a hand and the score", "The units of one payment (the scoring says what is "
        "paid).", "a whole number, 1 or more", _nothing),
    "penalty_two": OptionWords(
        "The end of a hand and the score", "Units paid to the winner for each two left in hand.",
        "a whole number, 0 or more",
        _penalty("penalty_two")),
    "red_twos_double": OptionWords(
        "The end of a hand and the score", "A red two left in hand (2♦, 2♥) costs double.", "",
        _red_twos),
    "penalty_bomb": OptionWords(
        "The end of a hand and the score", "Units paid to the winner for each four of a kind and "
        "each chain of three or more pairs left in hand.", "a whole number, 0 or more",
        _penalty_bomb),
    "penalty_no_play": OptionWords(
        "The end of a hand and the score", "Units paid to the winner by a player who never put "
        "down a card in the hand.", "a whole number, 0 or more",
        _penalty("penalty_no_play")),
    "instant_win_stake": OptionWords(
        "Instant wins", "Units each other player pays an instant winner.",
        "a whole number, 0 or more", _instant_win_stake),
    "follow_suit": OptionWords(
        "Combinations", "Beats keep the suit (Miền Bắc): pairs and chains of one colour, runs of "
        "one suit.", "", _bool(
            "follow_suit", "Suits must follow (Miền Bắc): a pair is of one colour, a run of one "
            "suit, a chain's pairs all of one colour, and a beat keeps the suit of a single or "
            "a run and the colour of a pair or a chain. Plays made only of twos are exempt.",
            None)),
    "free_chops": OptionWords(
        "Bombs: chopping", "Bomb patterns that may be played at any moment, out of turn.",
        "a list of bomb patterns, such as `[\"chain:4+\"]`", _free_chops),
    "chop_pay": OptionWords(
        "Bombs: chopping", "Whether a chop is paid for by the owner of the chopped play.",
        "", _chop_pay),
    "place_points": OptionWords(
        "The end of a hand and the score", "Points by place, first to last, for scoring "
        "\"places\" (empty: by the number of players).", "a list of whole numbers summing to "
        "zero", _nothing),
    "cong": OptionWords(
        "The end of a hand and the score", "Players who have not put down a card when the first "
        "goes out are last at once (cóng).", "", _bool(
            "cong", "When a player goes out first, everyone who has not yet put down a card is "
            "cóng: they take the lowest places at once and stop playing.", None)),
    "no_two_last": OptionWords(
        "The end of a hand and the score", "Going out on twos takes the lowest free place.", "",
        _bool("no_two_last", "A player whose last play holds a two takes the lowest free place "
              "instead of the next one.", None)),
    "session_result": OptionWords(
        "The end of a hand and the score", "What decides a session of many hands.", "",
        _choice("session_result", {
            "units": "Over a session, each player's units are added up hand after hand.",
            "first_places": "A session is won by the player who wins the most hands.",
        })),
}

# sentences that no option decides, by section (said before the options' sentences)
_FIXED: Final[dict[str, list[Block]]] = {
    "The cards": ["Cards rank from 3, the lowest, up through 4, 5, 6, 7, 8, 9, 10, jack, queen, "
                  "king and ace to 2, the highest."],
    "The deal": ["Two, three or four players use one pack of 52 cards; five to eight players "
                 "shuffle two packs together (104 cards)."],
    "Who leads": ["The first hand of a session is led by the player holding the lowest card "
                  "dealt. With two packs, of two players holding it, the one dealt to first "
                  "leads."],
    "Combinations": ["You may play a single card; a pair (two cards of one rank); a triple "
                     "(three of one rank); four of a kind; a run (three or more cards of "
                     "consecutive ranks in any suits, such as 7♠ 8♦ 9♣); or a chain of pairs "
                     "(three or more pairs of consecutive ranks, such as 6 6 7 7 8 8)."],
    "Beating a play, and passing": [
        "The leader may play any combination. Then each player in turn either beats the play on "
        "the table or passes; nobody is ever forced to play.",
        "A beat is the same kind of combination with the same number of cards and a higher top "
        "card: the rank decides first, then the suit of the top card. So 8♥ beats 8♦, a pair of "
        "queens with Q♥ beats a pair with Q♦, and a run 6 7 8 9 ending in 9♥ beats one ending in "
        "9♠.",
        "When everyone else still in the round has passed, the last player to play wins the "
        "round: the table is cleared and that player leads anything. A player who has played "
        "all their cards is skipped; if the round's winner has none left, the next player with "
        "cards leads.",
    ],
}

# the order a player reads the options in (within each section); others follow in the
# order of Rules.options(); "*" marks where a section's fixed sentences go
_ORDER: Final = ("suit_order", "direction", "next_dealer", "*", "hand_size_two", "hand_size_three",
                 "hand_size_big", "odd_card_to_leader", "end_at", "scoring", "penalty_two",
                 "red_twos_double", "penalty_bomb", "penalty_no_play", "stake", "session_result")


def missing_words(rules: Rules) -> list[str]:
    """The options (and values) of these rules that have no words: empty when all do."""
    missing = [name for name in Rules.options() if name not in OPTION_WORDS]
    for name, words in OPTION_WORDS.items():
        if name not in Rules.options():
            continue
        try:
            words.say(rules)
        except MissingWords as exc:
            missing.append(str(exc))
    if rules.name not in PRESET_WORDS and rules.name != "custom":
        missing.append(f"preset {rules.name}")
    if rules.name not in PRESET_LINES and rules.name != "custom":
        missing.append(f"preset {rules.name}'s line")
    return missing


# options said only at tables of these sizes (when the explanation is for one table)
_PLAYERS: Final = {"hand_size_two": {2}, "hand_size_three": {3}, "hand_size_big": {5, 6, 7, 8},
                   "double_deck_ties": {5, 6, 7, 8}}
_FOUR: Final = "With four players each gets 13 cards."


def sections(rules: Rules, players: int | None = None) -> list[tuple[str, list[Block]]]:
    """The rules as sections of paragraphs and lists, in the order a player needs them
    (``players``: only what matters at a table of that many)."""
    body: dict[str, list[Block]] = {title: [] for title in SECTIONS}
    fixed = {title: list(blocks) for title, blocks in _FIXED.items()}
    if players in (None, 4):
        fixed["The deal"].append(_FOUR)
    known = [o for o in _ORDER if o == "*" or o in Rules.options()]
    order = known + [o for o in Rules.options() if o not in _ORDER]
    for name in order:
        if name == "*":
            for title in SECTIONS:
                body[title] = body[title] + fixed.get(title, []) if title == "The deal" else \
                    fixed.get(title, []) + body[title]
            fixed = {}
            continue
        if players is not None and players not in _PLAYERS.get(name, {players}):
            continue
        words = OPTION_WORDS.get(name)
        if words is None:
            body["The end of a hand and the score"].append(_fallback(rules, name))
            continue
        try:
            body[words.section].extend(words.say(rules))
        except MissingWords:
            body[words.section].append(_fallback(rules, name))
    return [(title, blocks) for title, blocks in body.items() if blocks]


def _toml(value: Any) -> str:
    """A TOML value, tables included (inline)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_value(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return toml_value(value)


def _fallback(rules: Rules, name: str) -> Sentence:
    return Sentence(msg("rules.say.no_words", name=name, value=_toml(rules.as_dict()[name])))


def _title(rules: Rules) -> str:
    return f"Tiến Lên: the {rules.name} rules"


def _changed_line(rules: Rules, lang: str = "en") -> str | None:
    changed = rules.differences()
    if not changed:
        return None
    return t("rules.changed", lang, options=", ".join(f"{k} = {_toml(v)}" for k, v in changed.items()))


def _say(text: str, lang: str) -> str:
    """A sentence of these rules in ``lang``: the catalogue keeps each whole sentence under
    ``rules.text.`` and its English words (gettext's way: the English is the key); one it lacks
    stays in English (a test lists them). A :class:`Sentence` says its own message."""
    if isinstance(text, Sentence):
        return text.say(lang)
    if lang == "en":
        return text
    return catalogue(lang).get(f"rules.text.{text}", text)


def untranslated(rules: Rules, lang: str, players: int | None = None) -> list[str]:
    """The sentences of these rules that ``lang``'s catalogue lacks (said in English): empty
    when every one is translated."""
    texts: list[str] = [words[rules.name] for words in (PRESET_WORDS, PRESET_LINES)
                        if rules.name in words]
    for title, blocks in sections(rules, players):
        texts.append(title)
        for block in blocks:
            texts.extend(block if isinstance(block, list) else [block])
    return [text for text in texts if not isinstance(text, Sentence)
            and f"rules.text.{text}" not in catalogue(lang)]


def preset_list(lang: str = "en") -> str:
    """The presets, a line each with what it is (``tienlen rules``)."""
    names = Rules.presets()
    column = max(len(name) for name in names)
    lines = [t("cli.presets", lang)]
    lines += [f"  {name:<{column}}  {_say(PRESET_LINES.get(name, ''), lang)}".rstrip()
              for name in names]
    return "\n".join(lines)


_QUOTED: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEEP: Final = str.maketrans({" ": "\u00a0", "-": "\u2011"})  # no break at these (textwrap
_FREE: Final = str.maketrans({"\u00a0": " ", "\u2011": "-"})  # breaks at ASCII spaces, hyphens)


def _wrapped(text: str, width: int, first: str, indent: str) -> str:
    """``text`` wrapped to ``width``, never inside a quoted string (a TOML string stays whole)."""
    kept = _QUOTED.sub(lambda m: m.group(0).translate(_KEEP), text)
    return textwrap.fill(kept, width, initial_indent=first, subsequent_indent=indent,
                         break_long_words=False).translate(_FREE)


def explain_text(rules: Rules, width: int | None = 78, players: int | None = None,
                 lang: str = "en") -> str:
    """The rules in words for a terminal (wrapped to ``width``; None: not wrapped;
    ``players``: only what matters at a table of that many; ``lang``: "en" or "vi"). House
    rules say what they change first, then the preset they start from, named as such."""
    out: list[str] = [t("rules.title", lang, name=rules.name)]

    def fill(text: str, indent: str = "", first: str = "") -> str:
        if width is None:
            return first + text
        return _wrapped(text, width, first or indent, indent)

    intro = PRESET_WORDS.get(rules.name) and _say(PRESET_WORDS[rules.name], lang)
    changed = _changed_line(rules, lang)
    if changed and intro:
        intro = t("rules.preset_base", lang, name=rules.name, words=intro)
    for line in (changed, intro):
        if line:
            out.append(fill(line))

    for title, blocks in sections(rules, players):
        out.append("")
        out.append(_say(title, lang).upper())
        for block in blocks:
            if isinstance(block, list):
                out.extend(fill(_say(item, lang), "    ", "  - ") for item in block)
            else:
                out.append(fill(_say(block, lang)))
    return "\n".join(out)


def describe_text(rules: Rules, lang: str = "en") -> str:
    """Every option with its value, as ``tienlen rules PRESET`` prints them: names and values as
    a rules file writes them, the chop entries and the default place points said in ``lang``."""
    if lang == "en":
        return rules.describe()
    lines = []
    for line in rules.describe().split("\n"):
        if line.startswith("place_points: ") and not rules.place_points:
            line = "place_points: " + t("rules.describe.place_points", lang)
        lines.append(line)
        if line == "chops:":
            lines += [f"  {e}    ({chop_sentence(e).say(lang).rstrip('.')})" for e in rules.chops]
    chops = {f"  {e}    ({e.words()})" for e in rules.chops}
    return "\n".join(line for line in lines if line not in chops)


def explain_markdown(rules: Rules) -> str:
    """The rules in words as a Markdown page (docs/rules/PRESET.md)."""
    out = [f"# {_title(rules)}", ""]
    intro = PRESET_WORDS.get(rules.name)
    if intro:
        out += [intro, ""]
    changed = _changed_line(rules)
    if changed:
        out += [changed, ""]
    out += [f"Play it with `tienlen play --rules {rules.name}`; `tienlen rules {rules.name} "
            "--toml` prints every option as a house-rules file to start from "
            "([the options](options.md)).", ""]
    for title, blocks in sections(rules):
        out += [f"## {title}", ""]
        for block in blocks:
            if isinstance(block, list):
                out += [f"- {item}" for item in block]
            else:
                out.append(block)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------------- the full TOML
def full_toml(rules: Rules) -> str:
    """Every option with its value, as a house-rules file (``Rules.from_toml`` loads it back),
    each with a comment that says what it means."""
    lines = [f"# Tiến Lên house rules: every option of the {rules.name} rules.",
             "# Change any value; docs/rules/options.md says what each one means.",
             f'preset = "{rules.name}"']
    for name, value in rules.as_dict().items():
        words = OPTION_WORDS.get(name)
        lines.append("")
        if words is not None:
            lines.extend(f"# {line}" for line in textwrap.wrap(words.meaning, 76))
            values = _values(name, words)
            if values:
                lines.append(f"# Values: {values.replace('`', '')}.")
        lines.append(f"{name} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def _values(name: str, words: OptionWords) -> str:
    if words.values:
        return words.values
    if name in CHOICES:
        return ", ".join(f"`{toml_value(v)}`" if isinstance(v, str) else f"`{v}`"
                         for v in CHOICES[name])
    if name in UNITS:
        return "a whole number, 0 or more"
    return "`true`, `false`"


# ---------------------------------------------------------------------- the documentation pages
def options_markdown() -> str:
    """The option reference for house-rules files (docs/rules/options.md)."""
    base = Rules()
    out = [
        "# House-rules files: every option",
        "",
        "A house-rules file is a TOML file that starts from a preset and changes any option:",
        "",
        "```toml",
        'preset = "viet-cong"          # start from a preset (or "custom": the defaults)',
        "twos_in_runs = true           # then change any option",
        "stake = 5",
        'chops = ["quad > 2", "chain:3+ > 2", "chain:4+ > 22"]',
        'instant_wins = ["four_twos", "dragon"]',
        "```",
        "",
        "Use it with `tienlen play --rules FILE`, `tienlen tournament --rules FILE` or "
        "`tienlen rules FILE --explain`. `tienlen rules PRESET --toml` prints every option of a "
        "preset with its value, a file to start from. An unknown option, a bad value or a bad "
        "chop entry is an error that names it. Arrays and tables nest at most 32 deep: a file "
        "nested deeper is not valid TOML.",
        "",
        "| option | what it decides | values | default | presets that change it |",
        "|---|---|---|---|---|",
    ]
    for name in Rules.options():
        words = OPTION_WORDS.get(name)
        meaning = words.meaning if words else "(no description yet)"
        values = _values(name, words) if words else ""
        default = base.as_dict()[name]
        shown = "the pagat list" if name == "chops" else f"`{_toml(default)}`"
        changers = [p for p in PRESETS if Rules.preset(p).as_dict()[name] != base.as_dict()[name]]
        out.append(f"| `{name}` | {meaning} | {values} | {shown} | "
                   f"{', '.join(changers) or '—'} |")
    out += [
        "",
        "## Chop entries",
        "",
        "Each entry of `chops` reads `BOMB > TARGET`: a play of the BOMB pattern may beat a play "
        "of the TARGET pattern, whatever their kinds. Write `higher` after it when the bomb's top "
        "card must beat the target's top card (`->` and `beats` work in place of `>`).",
        "",
        "- bombs: `quad` (four of a kind), `chain:N` (exactly N consecutive pairs), `chain:N+` "
        "(N or more), `triple_chain:N`, `quad_chain:N` (`+` works on these too);",
        "- targets: `2`, `22`, `222` (a single two, a pair of twos, three twos), `single`, "
        "`pair`, `triple` (any of that kind), or any bomb pattern.",
        "",
        "For example `chain:4+ > 22` reads: four or more consecutive pairs chop a pair of twos.",
        "",
    ]
    return "\n".join(out)


def index_markdown() -> str:
    out = ["# The rules of Tiến Lên, preset by preset", "",
           "Each page says in plain words how one preset is played. The pages are generated "
           "from the engine's own rules (`python scripts/make_rules_docs.py`), and a test checks "
           "that they match it. `tienlen rules PRESET --explain` prints the same text.", ""]
    for name in PRESETS:
        out.append(f"- [{name}]({name}.md): {PRESET_WORDS.get(name, '')}")
    out += ["", "[Every option of a house-rules file](options.md).", ""]
    return "\n".join(out)


def docs_pages() -> dict[str, str]:
    """The pages of docs/rules/, by file name."""
    pages = {"README.md": index_markdown(), "options.md": options_markdown()}
    for name in PRESETS:
        pages[f"{name}.md"] = explain_markdown(Rules.preset(name))
    return pages
