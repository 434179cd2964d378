"""Cards and plays as text (docs/api.md, "Cards and plays as text"; RULES.md §1, §4)."""

from __future__ import annotations

import itertools

import pytest

from tienlen import PASS, Card, CardError, Play, Rules, parse_cards
from tienlen.cards import RANKS, SUITS

ALPHABETICAL = Rules.preset("pagat").replace(suit_order="alphabetical")


# ---------------------------------------------------------------------- reading a card
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Th", "Th"), ("10h", "Th"), ("10♥", "Th"), ("T♥", "Th"), ("th", "Th"), ("10H", "Th"),
        ("QS", "Qs"), ("qs", "Qs"), ("Q♠", "Qs"), ("q♠", "Qs"),
        ("3s", "3s"), ("3♠", "3s"), ("2h", "2h"), ("2H", "2h"),
        ("Ac", "Ac"), ("a♣", "Ac"), ("9d", "9d"), ("9♦", "9d"), ("kD", "Kd"), ("Jc", "Jc"),
        (" 5c ", "5c"),
    ],
)
def test_every_accepted_way_of_writing_a_card_reads_the_same_card(text: str, expected: str) -> None:
    card = Card.parse(text)
    assert str(card) == expected
    assert card is Card.parse(expected)


def test_every_one_of_the_52_cards_prints_as_rank_then_suit_and_reads_back() -> None:
    seen = set()
    for rank, suit in itertools.product(RANKS, SUITS):
        card = Card.parse(rank + suit)
        assert str(card) == rank + suit
        assert Card.parse(str(card)) is card
        assert Card.parse(rank.lower() + suit.upper()) is card
        seen.add(card)
    assert len(seen) == 52


def test_ten_is_printed_as_t_however_it_was_written() -> None:
    for text in ("10s", "10♣", "10D", "t♥"):
        assert str(Card.parse(text))[0] == "T"
    assert repr(Card.parse("10♥")) == "Card('Th')"


def test_cards_are_ordered_by_rank_first_then_suit_spades_clubs_diamonds_hearts() -> None:
    deck = [Card.parse(r + s) for r in RANKS for s in SUITS]
    shuffled = list(reversed(deck))
    assert sorted(shuffled) == deck
    assert min(deck) is Card.parse("3s")
    assert max(deck) is Card.parse("2h")
    assert Card.parse("3h") < Card.parse("4s")  # rank first
    assert Card.parse("Qs") < Card.parse("Qc") < Card.parse("Qd") < Card.parse("Qh")
    assert Card.parse("A♥") < Card.parse("2♠")  # the two is the highest rank


def test_the_alphabetical_suit_order_puts_clubs_lowest_and_spades_highest() -> None:
    keys = [Card.parse(f"7{s}").key("alphabetical") for s in "cdhs"]
    assert keys == sorted(keys)
    assert Card.parse("3c").key("alphabetical") == 0
    assert Card.parse("2s").key("alphabetical") == 51
    assert Card.parse("3s").key("standard") == 0
    assert Card.parse("2h").key("standard") == 51


def test_a_card_is_immutable() -> None:
    card = Card.parse("5d")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1h", "'1' is not a rank"),
        ("Zs", "'Z' is not a rank"),
        ("11c", "'11' is not a rank"),
        ("3x", "'x' is not a suit"),  # named as written, not upper-cased
        ("Kq", "'q' is not a suit"),
        ("tZ", "'Z' is not a suit"),
    ],
)
def test_a_bad_card_is_an_error_that_names_the_bad_part(text: str, named: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert named in message


def test_a_card_without_a_suit_says_the_suit_is_missing() -> None:
    for text in ("3", "10", "K"):
        with pytest.raises(CardError, match="no suit"):
            Card.parse(text)


def test_an_empty_card_is_an_error() -> None:
    with pytest.raises(CardError, match="empty"):
        Card.parse("")


def test_a_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        Card.parse("xx")
    with pytest.raises(ValueError):
        Card.parse(3)  # type: ignore[arg-type]


def test_a_list_of_cards_names_the_one_bad_card() -> None:
    assert [str(c) for c in parse_cards("3s 10♥, qd")] == ["3s", "Th", "Qd"]
    with pytest.raises(CardError, match="'4x'"):
        parse_cards("3s 4x 5d")


# ---------------------------------------------------------------------- reading a play
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Jh 9c 10d", "9c Td Jh"),
        ("5h 5s", "5s 5h"),
        ("2h 3s", "3s 2h"),
        ("Q♥ q♠ QD", "Qs Qd Qh"),
        ("Kh  Ks\tKd", "Ks Kd Kh"),
        ("7h 7h", "7h 7h"),
        ("pass", "pass"),
        ("PASS", "pass"),
    ],
)
def test_a_play_prints_its_cards_low_to_high_in_card_order(text: str, canonical: str) -> None:
    play = Play.parse(text)
    assert str(play) == canonical
    assert Play.parse(str(play)) == play


def test_the_cards_and_top_of_a_play_follow_card_order() -> None:
    play = Play.parse("Jh 9c 10d")
    assert [str(c) for c in play.cards] == ["9c", "Td", "Jh"]
    assert play.top is Card.parse("Jh")
    assert len(play) == 3
    assert PASS.top is None
    assert len(PASS) == 0


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("9d", "single"),
        ("5s 5h", "pair"),
        ("Kc Kd Kh", "triple"),
        ("8s 8c 8d 8h", "quad"),
        ("3s 4d 5h", "run"),
        ("9c Td Jh Qs Kd Ah 2c", "run"),  # twos may cap a run without rules
        ("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "run"),
        ("6s 6h 7c 7d 8s 8h", "chain"),
        ("Ks Kh As Ah 2s 2h", "chain"),
        ("5s 5c 5h 6s 6d 6h 7c 7d 7h", "triple_chain"),
        ("9s 9c 9d 9h Ts Tc Td Th", "quad_chain"),
        ("pass", "pass"),
    ],
)
def test_every_shape_is_recognised(text: str, shape: str) -> None:
    assert Play.parse(text).shape == shape


@pytest.mark.parametrize(
    "text",
    [
        "3s 5d",  # two different ranks
        "3s 3d 4s",  # a pair and a single
        "As 2s 3s",  # nothing turns the corner
        "Ks As 2s 3s",
        "4s 5d",  # a run needs three cards
        "6s 6h 7c 7d",  # a chain needs three pairs
        "5s 5c 5h 6s 6d 6h",  # a triple chain needs three triples
        "9s 9c 9d 9h Ts Tc Td",  # a quad and a triple
        "3s 4s 6s",  # a gap
        "6s 6h 7c 8d 8s",  # uneven
    ],
)
def test_cards_that_form_no_combination_have_no_shape(text: str) -> None:
    play = Play.parse(text)
    assert play.shape is None
    assert not play.is_pass
    assert str(play) == " ".join(str(c) for c in sorted(parse_cards(text)))


def test_a_pass_is_the_one_pass_play() -> None:
    play = Play.parse("pass")
    assert play is PASS
    assert play.is_pass
    assert play.shape == "pass"
    assert str(play) == "pass"
    assert Play.parse("  Pass ") is PASS


def test_with_two_packs_the_same_card_twice_is_a_pair() -> None:
    play = Play.parse("7h 7h")
    assert play.shape == "pair"
    assert str(play) == "7h 7h"
    assert len(play) == 2
    assert Play.parse("7h 7h 7h").shape == "triple"
    assert Play.parse("7h 7h 7s 7s").shape == "quad"
    assert Play.parse("7h 7h 7s 7s 7d").shape is None  # five of a rank is no combination
    assert Play.parse("7h 7h") != Play.parse("7h")
    assert Play.parse("7h 7h") != Play.parse("7s 7h")


def test_a_play_is_the_same_whatever_order_its_cards_are_written_in() -> None:
    cards = ["9c", "Td", "Jh", "Qs"]
    plays = {Play.parse(" ".join(p)) for p in itertools.permutations(cards)}
    assert len(plays) == 1
    first = Play.parse("Jh 9c 10d")
    second = Play.parse("9♣ J♥ td")
    assert first == second
    assert hash(first) == hash(second)
    assert first != Play.parse("9c Td Jd")
    assert {first: 1}[second] == 1


def test_a_bad_play_names_the_bad_card_and_an_empty_play_is_an_error() -> None:
    with pytest.raises(CardError, match="'Xd'"):
        Play.parse("9c Xd Jh")
    with pytest.raises(CardError, match="empty"):
        Play.parse("   ")
    with pytest.raises(ValueError):
        Play.parse(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- plays under rules
def test_under_rules_a_two_capped_run_is_a_run_only_where_twos_may_cap_runs() -> None:
    text = "Js Qd Kh Ac 2s"
    assert Play.parse(text, Rules.preset("pagat")).shape == "run"
    assert Play.parse(text, Rules.preset("viet-cong")).shape is None
    assert Play.parse("Js Qd Kh Ac", Rules.preset("viet-cong")).shape == "run"


def test_under_rules_chains_with_twos_follow_twos_in_chains() -> None:
    text = "Ks Kh As Ah 2s 2h"
    assert Play.parse(text, Rules.preset("viet-cong")).shape == "chain"
    no_twos = Rules.preset("viet-cong").replace(twos_in_chains=False)
    assert Play.parse(text, no_twos).shape is None


def test_under_rules_triple_and_quad_chains_exist_only_where_the_rules_have_them() -> None:
    triples = "5s 5c 5h 6s 6d 6h 7c 7d 7h"
    quads = "9s 9c 9d 9h Ts Tc Td Th"
    assert Play.parse(triples, Rules.preset("pagat")).shape is None
    assert Play.parse(quads, Rules.preset("pagat")).shape is None
    assert Play.parse(triples, Rules.preset("cardrules")).shape == "triple_chain"
    assert Play.parse(quads, Rules.preset("viet-cong")).shape == "quad_chain"
    assert Play.parse(triples, Rules.preset("viet-cong")).shape is None


def test_alphabetical_suit_order_changes_the_canonical_order() -> None:
    assert str(Play.parse("5s 5h", ALPHABETICAL)) == "5h 5s"
    assert str(Play.parse("5s 5h")) == "5s 5h"
    assert str(Play.parse("Qs Qh Qd Qc", ALPHABETICAL)) == "Qc Qd Qh Qs"
    assert str(Play.parse("Qs Qh Qd Qc")) == "Qs Qc Qd Qh"
    # rank still comes first
    assert str(Play.parse("Jc 9s 10h", ALPHABETICAL)) == "9s Th Jc"
    play = Play.parse("9s 9h", ALPHABETICAL)
    assert [str(c) for c in play.cards] == ["9h", "9s"]
    assert play.top is Card.parse("9s")
    assert Play.parse("9s 9h").top is Card.parse("9h")


def test_the_same_cards_are_equal_plays_under_either_suit_order() -> None:
    standard = Play.parse("5s 5h")
    alphabetical = Play.parse("5h 5s", ALPHABETICAL)
    assert str(standard) != str(alphabetical)
    assert standard == alphabetical
    assert hash(standard) == hash(alphabetical)
    assert len({standard, alphabetical}) == 1
    assert Play.parse("5s 5d", ALPHABETICAL) != standard


def test_describe_says_what_a_play_is_in_words() -> None:
    assert Play.parse("2s 2h").describe() == "a pair of twos"
    assert "a chain of 3 pairs" in Play.parse("6s 6h 7c 7d 8s 8h").describe()
    assert "no combination" in Play.parse("3s 5d").describe()
    assert PASS.describe() == "a pass"
