"""The terminal's table view: the seats around the trick (counts, passed marks, last plays,
who is waited for and whose play is to beat), the trick in large cards, and the call-outs in
the log (a chop, who went out and in what place, one card left)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from tienlen import parse_cards
from tienlen.play.controller import Controller
from tienlen.tui.app import TienLenApp
from tienlen.tui.widgets import CardView
from tui_pilot import MIEN_NAM, PAGAT, controller_with, drive, position, rows


def where(felt: list[str], text: str) -> tuple[int, int]:
    """The row and column where ``text`` is on the felt."""
    return next((y, row.index(text)) for y, row in enumerate(felt) if text in row)


def test_the_seats_sit_around_the_trick_in_large_cards() -> None:
    game = position(PAGAT, ["3s 4h 9d Kc", "5c 6c 8h", "7d 8d 9s", "6h Ts Jh"], leader=1,
                    first_hand=False)
    c = controller_with(game)
    game.play("5c", seat=1)  # through the controller's turn API below: the bots answer
    app = TienLenApp(c, delay=10_000)  # the bots wait for the test

    async def script(pilot: Pilot[Any]) -> None:
        c.bot_step()  # Bot 2: 7d
        c.bot_step()  # Bot 3: Ts
        app.refresh_screen()
        await pilot.pause()
        felt = rows(app.query_one("#felt"))
        you, left, top, right = (where(felt, f"{n} ·") for n in ("Ana", "Bot 1", "Bot 2", "Bot 3"))
        assert top[0] < left[0] < you[0] and top[0] < right[0] < you[0]  # you at the bottom
        assert left[1] < top[1] < right[1] and left[1] < you[1] < right[1]
        assert "▶Ana ·4" in felt[you[0]]  # waited for
        assert "★Bot 3 ·2" in felt[right[0]]  # its play is the one to beat
        assert "5♣" in felt[left[0] + 1] and "7♦" in felt[top[0] + 1]  # their plays this round
        caption = where(felt, "Bot 3 played")
        assert "│10♠│" in felt[caption[0] + 2]  # the trick, as a large card
        assert "╭───╮" in felt[caption[0] + 1]
        await pilot.press("p")  # Ana passes; the felt shows it
        felt = rows(app.query_one("#felt"))
        assert "passed" in felt[where(felt, "Ana ·")[0] + 1]

    drive(app, script)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_eight_seats_each_in_sight_once(size: tuple[int, int]) -> None:
    c = Controller(PAGAT, 8, seed=3, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        felt = "\n".join(rows(app.query_one("#felt")))
        for name in ["Ana"] + [f"Bot {i}" for i in range(1, 8)]:
            assert felt.count(f"{name} ·") == 1, name
        assert c.view().table is None or "played" in felt

    drive(app, script, size)


def test_a_chop_is_called_out_with_what_it_chopped() -> None:
    hands = ["2h 7c 8d 9s Jc", "5s 5c 6s 6c 7d 7h Kd", "3c 4d Qh Ah", "4s 8c Td Kh"]
    c = controller_with(position(MIEN_NAM, hands, leader=0, first_hand=False))
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        hand = c.view().hand
        await pilot.press(app._letters[hand.index(parse_cards("2h")[0])], "enter")
        texts = [text for _, text in c.log()]
        chop = "Bot 1 chopped Ana's 2h with three consecutive pairs."
        assert texts[texts.index("5s 5c 6s 6c 7d 7h") + 1] == chop
        assert "Bot 1 has one card left!" in texts

    drive(app, script)


def test_going_out_is_called_out_with_the_place() -> None:
    c = controller_with(position(PAGAT, ["3s Kd", "4s", "5c", "6c"], leader=1,
                                 first_hand=False))
    c.run_bots()
    calls = [text for seat, text in c.log() if seat is None]
    assert calls[:3] == ["Bot 1 is out: 1st place.", "Bot 2 is out: 2nd place.",
                         "Bot 3 is out: 3rd place."]
    assert not any("Ana is out" in text for text in calls)  # left holding cards: last, not out


def test_a_long_caption_is_wrapped_between_the_side_seats_not_cut() -> None:
    c = controller_with(position(PAGAT, ["3s Kd", "4s", "5c", "6c"], leader=1,
                                 first_hand=False))
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("escape")  # the results closed: the table at the hand's end
        felt = "\n".join(rows(app.query_one("#felt")))
        assert c.game.is_over and "The hand is" in felt and "over" in felt
        assert "The hand is ov\n" not in felt + "\n" and "ov " not in felt

    drive(app, script)


# the longest tricks the presets make: mien-nam's 11-card run (3 to A wins the hand at the
# deal), pagat's 13-card run (with its two), two packs' 8-pair run (five players, 20 cards each)
PAIRS = "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h 9s 9h Ts Th"
LONGEST = [
    (MIEN_NAM, 4, "3s 4h 5s 6h 7s 8h 9s Th Js Qh Ks"),
    (PAGAT, 4, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2h"),
    (PAGAT.replace(hand_size_big="even"), 5, PAIRS),
]


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 50)])
@pytest.mark.parametrize(("rules", "players", "trick"), LONGEST,
                         ids=["mien-nam run", "pagat run", "two packs pairs"])
def test_the_longest_trick_is_drawn_whole_in_the_middle_and_no_seat_is_overdrawn(
        size: tuple[int, int], rules: Any, players: int, trick: str) -> None:
    cards = parse_cards(trick)
    others = iter(["6c 7c 8d", "6d 7d 9c", "8c Jc Qc", "Kd Ad 2d"])
    hands = ["4d 9d Kc Qd"] + [f"{trick} Jd" if s == 1 else next(others) for s in range(1, players)]
    game = position(rules, hands, leader=1, first_hand=False)
    game.play(trick, seat=1)
    app = TienLenApp(controller_with(game), delay=10_000)  # the bots wait for the test
    faces = [f"{'10' if c.rank_char == 'T' else c.rank_char}{'♠♣♦♥'['scdh'.index(c.suit_char)]}"
             for c in cards]

    async def script(pilot: Pilot[Any]) -> None:
        app.refresh_screen()
        await pilot.pause()
        felt = rows(app.query_one("#felt"))
        text = "\n".join(felt)
        backs = size == (160, 50)  # a tall window: each hand face down below its name
        for seat in range(1, players):  # each seat whole: its name and count, then its row
            count = 3 if seat > 1 else 1
            label = f"Bot {seat} ·{count}"
            assert text.count(label) == 1, (label, text)
            y, x = where(felt, label)
            if backs:  # the hand's backs, whole: an edge per card, the last one's back
                fan = [row[x:x + count + 4] for row in felt[y + 1:y + 4]]
                assert fan == ["╭" * (count - 1) + "╭───╮", "│" * count + "░░░│",
                               "╰" * (count - 1) + "╰───╯"], (label, text)
            below = felt[y + (4 if backs else 1)][x:]
            assert below.lstrip().startswith(faces[0] if seat == 1 else "+0"), (label, text)
        ana = where(felt, "Ana ·")
        assert felt[ana[0] + 1][ana[1]:].lstrip().startswith("+0")
        caption = where(felt, "Bot 1 played")
        middle = "\n".join(felt[caption[0] + 1:ana[0]])
        for face in set(faces):  # every card of the trick is drawn, below its caption
            assert middle.count(face) >= faces.count(face), (face, text)
        if size == (160, 50):  # a large window: large cards
            assert "╭─────╮" in middle or "╭───╮" in middle

    drive(app, script, size=size)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_a_chop_is_a_moment_on_the_felt_what_it_chopped_and_what_it_paid(
        size: tuple[int, int]) -> None:
    hands = ["2h 7c 8d 9s Jc", "5s 5c 6s 6c 7d 7h Kd", "3c 4d Qh Ah", "4s 8c Td Kh"]
    c = controller_with(position(MIEN_NAM, hands, leader=0, first_hand=False))
    app = TienLenApp(c, delay=10_000)  # the bots wait for the test

    async def script(pilot: Pilot[Any]) -> None:
        hand = c.view().hand
        await pilot.press(app._letters[hand.index(parse_cards("2h")[0])], "enter")
        while len(c.game.history) < 2:  # the others let the chop go; Bot 1 chops the two
            c.bot_step()
        app.refresh_screen()
        await pilot.pause()
        assert c.chop_moment() == "Bot 1 chopped Ana's 2h with three consecutive pairs"
        felt = rows(app.query_one("#felt"))
        text = "\n".join(felt)
        assert "Bot 1 played" not in text and "chopped" in text
        if size == (160, 50):  # room for the whole moment in the middle, in the screen's cards
            assert any("Bot 1 chopped Ana's 2♥ with three consecutive pairs" in row
                       for row in felt), text

    drive(app, script, size=size)


def test_a_chop_paid_at_once_says_the_payment_in_its_moment() -> None:
    hands = ["2h 7c 8d 9s Jc", "5s 5c 6s 6c 7d 7h Kd", "3c 4d Qh Ah", "4s 8c Td Kh"]
    c = controller_with(position(MIEN_NAM.replace(chop_pay="each"), hands, leader=0,
                                 first_hand=False))
    c.play_text("2h")
    while len(c.game.history) < 2:
        c.bot_step()
    assert c.chop_moment() == ("Bot 1 chopped Ana's 2h with three consecutive pairs · "
                               "Ana pays Bot 1 2 units")
    c.take_back()  # taken back: no moment left over
    assert c.chop_moment() is None


@pytest.mark.parametrize(("size", "boxed"), [((80, 24), False), ((100, 30), False),
                                             ((160, 50), True)])
def test_a_large_window_draws_your_hand_in_boxed_cards(size: tuple[int, int],
                                                       boxed: bool) -> None:
    c = Controller(MIEN_NAM, 4, seed=3, name="Ana")
    app = TienLenApp(c, delay=0)

    def cards() -> list[list[str]]:
        return [[row.rstrip() for row in rows(card)] for card in app.query(CardView)
                if card.display]

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        held = len(c.game.hand(0))
        assert len(cards()) == held
        for card in cards():
            assert (card[0] == "╭───╮" or card[1] == "╭───╮") is boxed, card
        assert app.query_one("#hand").outer_size.height == (7 if boxed else 5)
        await pilot.press("a")  # the first card raised a row, in its box
        await pilot.pause()
        first, *rest = cards()
        if boxed:
            assert first[0] == "╭───╮" and all(card[1] == "╭───╮" for card in rest)
            assert first[-1].strip() == "a" and first[1].startswith("│")
        felt = rows(app.query_one("#felt"))
        assert any("Ana" in row for row in felt)  # the felt keeps your seat in sight

    drive(app, script, size=size)
