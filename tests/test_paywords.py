"""Payments in players' words (§8, §11): made from each payment's facts, in both languages, and
the facts themselves (what was chopped, with what; places; what was still held)."""

from __future__ import annotations

from tienlen import Game, Rules
from tienlen.payments import Payment
from tienlen.paywords import payment_line, short_line

MIEN_NAM = Rules.preset("mien-nam")
NAMES = ("You", "Bot 1", "Bot 2", "Bot 3")
VI_NAMES = ("Bạn", "Máy 1", "Máy 2", "Máy 3")


def chain_game() -> Game:
    """§11.4 example 5: seat 0's 2♥ is chopped by seat 1's pairs, those by seat 2's quad."""
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "9s 9c 9d 9h Qc", "6s 6c Ts Kc"]
    game = Game(MIEN_NAM, hands, leader=0, first_hand=False, names=list(NAMES))
    for move in ("2h", "3s 3c 4s 4c 5d 5h", "9s 9c 9d 9h", "pass", "pass", "pass"):
        game.play(move)
    return game


def test_a_chop_over_a_chop_is_one_payment_with_every_chop_of_the_round() -> None:
    game = chain_game()
    [paid] = game.payments
    assert (paid.payer, paid.payee, paid.units, paid.kind, paid.item) == (1, 2, 4, "chop", "chain")
    assert paid.at == 6  # paid once the third pass ended the round
    assert [(c.chopper, c.owner, str(c.target), str(c.bomb), c.units) for c in paid.chops] == [
        (1, 0, "2h", "3s 3c 4s 4c 5d 5h", 2), (2, 1, "3s 3c 4s 4c 5d 5h", "9s 9c 9d 9h", 2)]
    assert payment_line(paid, NAMES, you=0) == (
        "Bot 1 pays Bot 2 4 units: Bot 1 chopped your 2h with three consecutive pairs, then "
        "Bot 2 chopped Bot 1's 3s 3c 4s 4c 5d 5h with a four of a kind (chặt chồng: the last "
        "one chopped pays 2 + 2)")
    assert payment_line(paid, VI_NAMES, "vi", you=0) == (
        "Máy 1 trả Máy 2 4 điểm: Máy 1 chặt 2h của bạn bằng ba đôi thông, rồi Máy 2 chặt "
        "3s 3c 4s 4c 5d 5h của Máy 1 bằng tứ quý (chặt chồng: người bị chặt cuối cùng trả 2 + 2)")
    assert short_line(paid, NAMES, you=0) == "Bot 1 pays Bot 2 4 units: chặt chồng"


def test_a_single_chop_says_who_chopped_whom_with_what() -> None:
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Jc Qc", "6s 6c Ts Kc"]
    game = Game(MIEN_NAM, hands, leader=0, first_hand=False, names=list(NAMES))
    for move in ("2h", "3s 3c 4s 4c 5d 5h", "pass", "pass", "pass"):
        game.play(move)
    [paid] = game.payments
    assert payment_line(paid, NAMES, you=0) == \
        "You pay Bot 1 2 units: Bot 1 chopped your 2h with three consecutive pairs"
    ana = ("Ana", "You", "Bot 2", "Bot 3")
    assert payment_line(paid, ana, you=1) == \
        "Ana pays you 2 units: You chopped Ana's 2h with three consecutive pairs"
    assert payment_line(paid, ("Ana", *NAMES[1:])) == \
        "Ana pays Bot 1 2 units: Bot 1 chopped Ana's 2h with three consecutive pairs"
    assert payment_line(paid, ("Lan", "Bạn", "Máy 2", "Máy 3"), "vi", you=1) == \
        "Lan trả bạn 2 điểm: Bạn chặt 2h của Lan bằng ba đôi thông"
    assert short_line(paid, NAMES, you=0) == "You pay Bot 1 2 units: chop"


def test_the_end_of_a_hand_in_words_cong_places_and_what_was_still_held() -> None:
    """§11.4 example 9: seat 1 goes out first; seat 3 has put down no card and holds 2♥ and
    the quad of eights: it is cóng, last at once."""
    hands = ["3s 4c 5d 6s", "7s Ts", "3c 4d 5h 9h", "8s 8c 8d 8h 2h 9s 9c Jd Qd Kd Ad 7c 7d"]
    game = Game(MIEN_NAM, hands, leader=0, first_hand=False, names=list(NAMES))
    for move in ("3s", "7s", "9h", "pass", "pass", "Ts"):
        game.play(move)
    assert game.cong == [3]
    while not game.is_over:
        game.play(game.legal_plays()[0])
    lines = [payment_line(p, NAMES, you=0) for p in game.payments]
    held = {p.item: p for p in game.payments if p.kind == "penalty"}
    assert set(held) == {"two", "bomb", "cong"}
    assert held["bomb"].cards == "8s 8c 8d 8h" and held["two"].cards == "2h"
    assert "Bot 3 pays Bot 1 2 units: 4th place pays 1st place" in lines
    assert "Bot 3 pays Bot 1 2 units: a two still held (thối heo): 2h" in lines
    assert "Bot 3 pays Bot 1 3 units: a four of a kind still held (thối hàng): 8s 8c 8d 8h" \
        in lines
    assert "Bot 3 pays Bot 1 2 units: caught with no card played (cóng)" in lines
    vi = [payment_line(p, VI_NAMES, "vi", you=0) for p in game.payments]
    assert "Máy 3 trả Máy 1 2 điểm: Bét trả Nhất" in vi
    assert "Máy 3 trả Máy 1 2 điểm: thối heo: còn 2h" in vi
    assert "Máy 3 trả Máy 1 3 điểm: thối hàng: còn tứ quý (8s 8c 8d 8h)" in vi
    assert "Máy 3 trả Máy 1 2 điểm: cóng: chưa đánh lá nào khi có người về nhất" in vi
    assert sum(p.units for p in game.payments if p.payer == 3) == -game.scores[3]


def test_other_schemes_and_instant_wins_in_words() -> None:
    stake = Payment(3, 1, 1, "stake", "last pays each other player", item="stake")
    cards = Payment(2, 0, 5, "cards", "5 cards left", item="cards", count=5)
    bombs = Payment(2, 0, 4, "penalty", "2 bombs left", item="bombs", count=2)
    instant = Payment(1, 0, 4, "instant", "instant win (dragon)", item="instant", win="dragon")
    assert payment_line(stake, NAMES, you=0) == "Bot 3 pays Bot 1 1 unit: the last pays each other player"
    assert payment_line(cards, NAMES, you=0) == \
        "Bot 2 pays you 5 units: 5 cards left when the first went out"
    assert payment_line(bombs, NAMES, you=0) == "Bot 2 pays you 4 units: 2 bombs still held (thối hàng)"
    assert payment_line(instant, VI_NAMES, "vi", you=0) == "Máy 1 trả bạn 4 điểm: tới trắng với sảnh rồng"


def test_every_kind_and_item_of_payment_is_made_and_has_its_words() -> None:
    """The payments of whole hands are of the kinds and items :mod:`tienlen.payments` lists,
    and each listed one has its short words in every language."""
    from tienlen import Session
    from tienlen.i18n import LANGS, catalogue
    from tienlen.payments import ITEMS, KINDS

    for lang in LANGS:
        words = catalogue(lang)
        assert [k for k in (*KINDS, *ITEMS) if f"pay.short.{k}" not in words] == [], lang
    seen: set[tuple[str, str | None]] = set()
    for preset in ("mien-nam", "mien-bac", "pagat", "viet-cong"):
        session = Session(Rules.preset(preset), players=4, seed=3)
        for _ in range(3):
            game = session.game
            while not game.is_over:
                game.play(game.legal_plays()[0])
            seen |= {(p.kind, p.item) for p in game.payments}
            session.next_hand()
    assert seen and all(kind in KINDS and (item is None or item in ITEMS) for kind, item in seen)


def test_the_facts_are_not_compared_and_not_written() -> None:
    """Records keep their payments' English; a payment equals one made without the facts."""
    game = chain_game()
    paid = game.payments[0]
    assert paid == Payment(1, 2, 4, "chop", paid.reason)
    assert str(paid) == f"1 pays 2 4: {paid.reason}"
    again = Game.from_record(game.record())
    assert again.payments == game.payments
    assert [p.chops for p in again.payments] == [p.chops for p in game.payments]


def test_the_line_by_line_game_says_a_chop_and_lists_the_payments() -> None:
    import io

    from tienlen.lineplay import play_session

    out = io.StringIO()

    class Passer:
        """Leads its lowest card, passes otherwise; stops after the first hand."""

        def readline(self) -> str:
            text = out.getvalue()
            if "Units this hand" in text:
                return ""
            question = text.rsplit("Your hand: ", 1)
            if len(question) == 2 and "you lead" in question[0].rsplit("\n", 2)[-2]:
                return question[1].split()[0] + "\n"
            return "p\n"

    play_session(MIEN_NAM, 4, 8, "You", stdin=Passer(), stdout=out)  # type: ignore[arg-type]
    text = out.getvalue()
    chop = "Bot 2 pays Bot 1 2 units: Bot 1 chopped Bot 2's 2h with three consecutive pairs"
    assert f"Bot 1 wins the round and leads. {chop}." in text  # said as it is paid
    listed = text.split("Payments (each player's sum is their units this hand):\n", 1)[1]
    rows = [row.strip()[2:] for row in listed.splitlines() if row.startswith("  · ")]
    assert rows[0] == chop and "Bot 2 pays Bot 1 2 units: 4th place pays 1st place" in rows
