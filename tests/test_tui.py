"""The terminal game: its controller (every decision the rules ask of the human) and the
Textual screens, driven by key presses and clicks through Textual's pilot at 80x24."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

import itertools

from textual.pilot import Pilot
from textual.widgets import Footer, Input, Static

from tienlen import Game, IllegalPlay, Play, Rules, Session, cli, parse_cards
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.cards import full_deck
from tienlen.play.controller import HUMAN, PLACE_WORDS, Controller
from tienlen.tui.app import EndScreen, RulesScreen, SaveScreen, TienLenApp
from tienlen.tui.replay import ReplayApp, replay_states
from tienlen.tui.widgets import CARD_LETTERS, CardView, card_face, symbols
from tui_pilot import (
    MIEN_NAM,
    PAGAT,
    ask_hint,
    controller_with,
    drive,
    follow_hints,
    footer,
    footer_keys,
    position,
    quick_hints,
    render,
    shown,
)


@pytest.fixture(autouse=True)
def _quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_hints(monkeypatch)


# ====================================================================== the controller
def test_the_human_is_asked_to_play_once_the_bots_before_have_played() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    c.run_bots()
    decision = c.decision()
    assert decision is not None and decision.kind == "play"
    assert c.game.turn == HUMAN
    assert decision.legal == c.game.view(HUMAN).legal


def test_an_illegal_play_gives_the_reason_and_changes_nothing() -> None:
    game = position(PAGAT, ["3s 4h 9d", "5c 6c", "5d 6d", "7h 8h"], leader=0, first_hand=False)
    c = controller_with(game)
    before = game.record()
    with pytest.raises(IllegalPlay, match="not a combination"):
        c.confirm(parse_cards("3s 9d"))
    with pytest.raises(IllegalPlay, match="select the cards"):
        c.confirm([])
    assert game.record() == before
    assert c.decision() is not None


def test_passing_and_the_bots_answering() -> None:
    game = position(PAGAT, ["3s 4h", "5c 6c", "5d 6d", "7h 8h"], leader=1, first_hand=False)
    c = controller_with(game)
    c.run_bots()
    assert c.decision() is not None and game.table is not None
    assert str(c.decline()) == "pass"
    assert game.history[-1] == (HUMAN, Play.parse("pass"))
    assert game.passed[HUMAN] or game.table is None


def test_an_out_of_turn_chop_is_offered_and_may_be_let_go() -> None:
    rules = PAGAT.replace(chop_out_of_turn=True, chops=["quad > 2"])
    hands = ["5s 5c 5d 5h 9c", "2h 3c", "4c 6c", "4d 6d"]
    game = position(rules, hands, leader=1, first_hand=False)
    c = controller_with(game)
    game.play("2h", seat=1)
    # every seat that may chop out of turn is asked, in turn order: Bot 3 (holding none) first
    assert c.decision() is None and c.waiting_for() == 3
    assert c.run_bots() == [] and c.turns().declined == [3]
    decision = c.decision()
    assert decision is not None and decision.kind == "chop"
    assert "out of turn" in decision.prompt
    assert c.decline() is None  # no action: the chance simply passes
    assert c.decision() is None and c.waiting_for() == 2  # the seat on turn goes on
    assert str(game.history[-1][1]) == "2h"


def test_an_out_of_turn_chop_is_made_with_a_quad() -> None:
    rules = PAGAT.replace(chop_out_of_turn=True, chops=["quad > 2"])
    hands = ["5s 5c 5d 5h 9c", "2h 3c", "4c 6c", "4d 6d"]
    game = position(rules, hands, leader=1, first_hand=False)
    c = controller_with(game)
    game.play("2h", seat=1)
    c.run_bots()  # Bot 3 lets the chance go (it holds no chop): Ana is asked
    assert str(c.confirm(parse_cards("5s 5c 5d 5h"))) == "5s 5c 5d 5h"
    assert game.table_seat == HUMAN and game.table == Play.parse("5s 5c 5d 5h")


def test_a_stacking_turn_is_asked() -> None:
    rules = PAGAT.replace(stacking=True)
    game = position(rules, ["3s As Kh", "5c 6c", "5d 6d", "5h 6h"], leader=0, first_hand=False)
    c = controller_with(game)
    c.confirm(parse_cards("Kh"))
    c.run_bots()
    decision = c.decision()
    assert decision is not None and decision.kind == "play" and decision.stacking
    assert "Stacking" in decision.prompt
    c.confirm(parse_cards("As"))
    assert game.table == Play.parse("As")


def _deal_with_four_twos() -> list[str]:
    deck = [c for c in full_deck() if c.rank_char != "2"]
    twos = [str(c) for c in full_deck() if c.rank_char == "2"]
    cards = [str(c) for c in deck]
    human = twos + cards[:9]
    rest = cards[9:]
    return [" ".join(human)] + [" ".join(rest[i::3]) for i in range(3)]


def test_an_optional_instant_win_is_asked_and_claimed() -> None:
    rules = PAGAT.replace(instant_wins=["four_twos"], instant_win_optional=True)
    game = position(rules, _deal_with_four_twos())
    c = controller_with(game)
    c.run_bots()
    decision = c.decision()
    assert decision is not None and decision.kind == "claim"
    assert "four twos" in decision.prompt
    c.confirm()
    c.run_bots()
    assert game.is_over and game.finish_order[0] == HUMAN
    assert "wins at once" in c.result_text()


def test_an_optional_instant_win_may_be_declined() -> None:
    rules = PAGAT.replace(instant_wins=["four_twos"], instant_win_optional=True)
    game = position(rules, _deal_with_four_twos())
    c = controller_with(game)
    c.run_bots()
    assert str(c.decline()) == "decline"
    c.run_bots()
    assert game.phase == "play" and not game.is_over


def _trading_game() -> Game:
    rules = PAGAT.replace(trading="mutual")
    return position(rules, ["3s 4s 5s", "3c 4c 5c", "3d 4d 5d", "3h 4h 5h"], leader=0,
                    first_hand=False)


def test_a_trade_offer_then_the_answer_is_accepted() -> None:
    game = _trading_game()
    c = controller_with(game)
    decision = c.decision()
    assert decision is not None and decision.kind == "offer"
    with pytest.raises(IllegalPlay, match="select the cards"):
        c.confirm([], target=2)
    c.confirm(parse_cards("3s"), target=2)
    assert c.decision() is None and c.waiting_for() == 2
    game.play("answer 0 5d", seat=2)  # the bot's part, made here so the test knows it
    decision = c.decision()
    assert decision is not None and decision.kind == "settle" and decision.other == 2
    assert "5d" in decision.prompt
    assert str(c.confirm()) == "accept 2"
    assert parse_cards("5d")[0] in game.hand(HUMAN)
    assert parse_cards("3s")[0] in game.hand(2)
    c.run_bots()  # the others trade (the bots make no offers); the human's turn comes back
    again = c.decision()
    assert again is not None and again.kind == "offer"
    assert str(c.decline()) == "done"
    c.run_bots()
    assert game.phase == "play"


def test_a_trade_offered_to_the_human_is_answered_or_refused() -> None:
    game = _trading_game()
    c = controller_with(game)
    c.decline()  # the human makes no offers
    game.play("offer 0 3c", seat=1)
    decision = c.decision()
    assert decision is not None and decision.kind == "answer" and decision.count == 1
    assert "3c" in decision.prompt
    with pytest.raises(IllegalPlay, match="exactly 1 card"):
        c.confirm(parse_cards("4s 5s"))
    c.confirm(parse_cards("5s"))
    assert str(game.history[-1][1]) == "answer 1 5s"
    c.run_bots()  # bot 1 settles the trade and the trading goes on
    game2 = _trading_game()
    c2 = controller_with(game2)
    c2.decline()
    game2.play("offer 0 3c", seat=1)
    assert str(c2.decline()) == "refuse 1"


def test_a_president_return_is_asked() -> None:
    rules = PAGAT.replace(trading="president")
    game = position(rules, ["3s 4s 5s", "3c 4c 2c", "3d 4d 5d", "3h 4h 5h"], leader=0,
                    first_hand=False, exchange=[(1, 0, 1)])
    c = controller_with(game)
    decision = c.decision()
    assert decision is not None and decision.kind == "return" and decision.other == 1
    assert parse_cards("2c")[0] in game.hand(HUMAN)  # the gift arrived
    with pytest.raises(IllegalPlay, match="must return"):
        c.decline()
    c.confirm(parse_cards("3s"))
    assert parse_cards("3s")[0] in game.hand(1)


def test_the_hint_is_one_of_the_legal_moves() -> None:
    c = Controller(PAGAT, 4, seed=5, name="Ana")
    c.run_bots()
    assert c.hint() in c.view().legal


def test_bad_bots_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        Controller(PAGAT, 4, ("nope",))
    with pytest.raises(ValueError, match="one bot for each of the 3 opponents"):
        Controller(PAGAT, 4, ("random", "greedy"))
    with pytest.raises(ValueError, match="built-in bots only"):
        Controller(PAGAT, 4, ("cmd:python bot.py",))


def test_play_with_bad_bots_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--bots", "nope"]) == 2
    assert "unknown bot 'nope'" in capsys.readouterr().err


# ====================================================================== the screen
def new_app(seed: int = 5, tmp_path: Path | None = None) -> TienLenApp:
    controller = Controller(PAGAT, 4, seed=seed, name="Ana")
    return TienLenApp(controller, delay=0, save_dir=tmp_path or Path("."))


def test_the_screen_fits_80x24() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        assert app.size == (80, 24)
        cards = [w for w in app.query(CardView) if w.display]
        assert len(cards) == 13
        for widget in [*cards, app.query_one("#table"), app.query_one("#felt"),
                       app.query_one(Footer), app.query_one("#prompt")]:
            region = widget.region
            assert region.width > 0 and region.height > 0
            assert region.right <= 80 and region.bottom <= 24
        players = shown(app, "#felt")
        for name in ("Ana", "Bot 1", "Bot 2", "Bot 3"):
            assert name in players
        assert "pagat.com rules" in shown(app, "#title")
        keys = await footer(pilot, app)
        assert all(key.region.right <= 80 for key in footer_keys(app))  # every key in sight
        for word in ("Select", "Play", "Pass", "Hint", "Sort", "Rules", "Next", "Quit"):
            assert word in keys

    drive(app, script)


def test_a_whole_hand_played_to_the_end_by_keys() -> None:
    app = new_app()
    game = app.controller.game

    async def script(pilot: Pilot[Any]) -> None:
        await follow_hints(pilot, app, lambda: game.is_over)
        assert "Hand over" in shown(app, "#prompt")
        assert any(seat == HUMAN and move.cards for seat, move in game.history)
        assert sorted(game.finish_order) == [0, 1, 2, 3]

    drive(app, script)


def test_the_hint_selects_the_cards_of_a_legal_play() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        await ask_hint(pilot, app)
        assert "Hint:" in shown(app, "#info")
        view = app.controller.view()
        chosen = [view.hand[i] for i in sorted(app.selected)]
        assert chosen and Play.from_cards(chosen, PAGAT) in view.legal
        before = len(app.controller.game.history)
        await pilot.press("enter")
        assert len(app.controller.game.history) > before

    drive(app, script)


def test_an_illegal_selection_shows_the_reason_and_changes_nothing() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        game = app.controller.game
        hand = list(app.controller.view().hand)
        before = game.record()
        await pilot.press("a", CARD_LETTERS[12])  # the lowest and highest cards: no combination
        assert app.selected == {0, 12}
        await pilot.press("enter")
        assert "Not allowed:" in shown(app, "#info")
        assert game.record() == before
        assert list(app.controller.view().hand) == hand
        assert app.selected == {0, 12}  # the selection stays, to be changed

    drive(app, script)


def test_cards_are_selected_by_arrows_space_letters_and_clicks() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("right", "right", "space")
        assert app.selected == {2}
        await pilot.press("c")  # the same card by its letter: unselected
        assert app.selected == set()
        await pilot.click("#card-4")
        assert app.selected == {4}
        await pilot.click("#card-4")
        assert app.selected == set()

    drive(app, script)


def test_passing_with_p() -> None:
    app = new_app()
    game = app.controller.game

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(100):
            if app.controller.decision() is not None and game.table is not None:
                break
            await ask_hint(pilot, app)
            await pilot.press("enter")
        else:
            raise AssertionError("never had a play to beat")
        before = len(game.history)
        await pilot.press("p")
        assert game.history[before] == (HUMAN, Play.parse("pass"))
        assert "Ana: pass" in shown(app, "#table") or "Ana: pass" in shown(app, "#info")

    drive(app, script)


def test_sort_and_rules_keys() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        assert "by rank" in str(app.query_one("#hand").border_title)
        await pilot.press("s")
        assert "by combination" in str(app.query_one("#hand").border_title)
        assert sorted(app._order) == list(range(13))
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        text = str(app.screen.query_one("#rules-text", Static).render())
        assert "the pagat rules" in text
        assert "What beats a single two: a higher two, or a chop with four of a kind" in text
        assert "Passing locks you out of the round" in text
        assert "The last player pays 1 unit to each of the others" in text
        assert "hand_size" not in text and "pass_locks_out" not in text  # no option keys
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)

    drive(app, script)


def test_the_scoreboard_after_two_hands() -> None:
    app = new_app(seed=11)

    async def script(pilot: Pilot[Any]) -> None:
        c = app.controller
        await pilot.press("n")  # too early: the hand is not over
        assert "Not yet" in shown(app, "#info") and c.hand_number == 1
        await follow_hints(pilot, app, lambda: c.game.is_over)
        await pilot.press("n")
        assert c.hand_number == 2
        await follow_hints(pilot, app, lambda: c.game.is_over)
        assert isinstance(app.screen, EndScreen)  # the session so far is in the results
        text = render(app.screen.query_one("#end-text"))
        rows = text.splitlines()
        board = rows[next(i for i, r in enumerate(rows) if r.startswith("Players · session")):]
        totals = c.session.totals
        places = c.places()
        for seat, name in enumerate(c.names):
            row = next(line for line in board if line.startswith(f"{name} "))
            assert f"{totals[seat]:+d}" in row
            assert row.rstrip().endswith(" ".join(str(p + 1) for p in places[seat]))
        assert sum(c.session.first_places) == 2

    drive(app, script)


def test_a_record_saved_on_quitting_and_replayed(tmp_path: Path) -> None:
    app = new_app(tmp_path=tmp_path)

    async def script(pilot: Pilot[Any]) -> None:
        await follow_hints(pilot, app, lambda: app.controller.game.is_over)
        await pilot.press("q")
        assert isinstance(app.screen, SaveScreen)
        assert app.screen.query_one(Input).value.startswith(str(tmp_path))
        await pilot.press("enter")

    drive(app, script)
    saved = app.return_value
    assert saved is not None and saved.exists()
    session = Session.from_record(saved.read_text(encoding="utf-8"))
    assert session.record() == app.controller.record()

    replay = ReplayApp(session, str(saved))
    game = session.games[0]

    async def watch(pilot: Pilot[Any]) -> None:
        steps = len(game.history)
        assert "step 0/" in shown(replay, "#title")
        await pilot.press("right", "right", "right")
        assert "step 3/" in shown(replay, "#title")
        seat, move = game.history[2]
        assert f"{game.names[seat]}:" in shown(replay, "#table")
        assert str(replay.state.history[-1][1]) == str(move)
        await pilot.press("left")
        assert "step 2/" in shown(replay, "#title")
        await pilot.press("end")
        assert f"step {steps}/{steps}" in shown(replay, "#title")
        assert "Finish:" in shown(replay, "#result")
        await pilot.press("home")
        assert "step 0/" in shown(replay, "#title")
        assert "13" in shown(replay, "#seats")

    drive(replay, watch)


def test_quitting_without_saving_and_going_back(tmp_path: Path) -> None:
    app = new_app(tmp_path=tmp_path)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("q")
        await pilot.press("escape")
        assert not isinstance(app.screen, SaveScreen)
        await pilot.press("q", "ctrl+n")

    drive(app, script)
    assert app.return_value is None
    assert list(tmp_path.iterdir()) == []


def test_replay_states_step_through_a_president_exchange() -> None:
    session = Session(PAGAT.replace(trading="president"), 4, seed=2)
    bots = [get_bot("greedy", seed=s) for s in range(4)]
    play_out(session.game, bots)
    session.next_hand()
    play_out(session.game, bots)
    game = session.games[1]
    states = replay_states(game)
    assert states[0].history == game.history[:len(states[0].history)]
    assert str(states[0].history[0][1]).startswith("give")
    assert states[-1].record() == game.record()


# ====================================================================== the polish of issue 11
CARD_WORD = re.compile(r"(?<![\w])(?:[3-9TJQKA2][scdh])(?![\w])")


def table_rows(app: TienLenApp) -> list[str]:
    """The rows inside the table panel's border."""
    return [row.strip("│").strip() for row in shown(app, "#table").splitlines()[1:-1]]


def log_lines(app: TienLenApp) -> list[str]:
    """The log lines the table panel shows (below its rule)."""
    rows = table_rows(app)
    rule = next(i for i, row in enumerate(rows) if row.startswith("───"))
    return [row for row in rows[rule + 1:] if row]


def expected_line(c: Controller, seat: int | None, text: str) -> str:
    return text if seat is None else f"{c.names[seat]}: {symbols(text)}"


def same_line(shown_line: str, wanted: str) -> bool:
    """A shown line is the wanted one, or its start cut with an ellipsis."""
    if shown_line == wanted:
        return True
    return shown_line.endswith("…") and wanted.startswith(shown_line[:-1].rstrip())


@pytest.mark.parametrize(("players", "preset", "seed"), [(8, "pagat", 2), (4, "viet-cong", 11)])
def test_the_log_shows_the_last_moves_at_every_length(players: int, preset: str, seed: int) -> None:
    """After every single action of a hand (until the log is twice the panel's height), the
    log shows as many of the last actions (and round breaks) as it has rows for, the newest
    last."""
    c = Controller(Rules.preset(preset), players, seed=seed, name="Ana")
    app = TienLenApp(c, delay=10_000)  # the bots act only when the test says
    you = get_bot("greedy", seed=seed)  # Ana's moves: a quick bot's (the log is the point)

    async def script(pilot: Pilot[Any]) -> None:
        lengths = set()
        while not c.game.is_over:
            if c.decision() is None:
                c.bot_step()
            else:
                move = you.choose(c.hint_view())
                c.confirm(move.cards) if move.cards else c.decline()
            app.refresh_screen()
            await pilot.pause()
            rows = app.query_one("#table").content_size.height
            log = c.log()
            lines = log_lines(app)
            panel = table_rows(app)
            assert len(panel) == rows
            header = next(i for i, row in enumerate(panel) if row.startswith("───")) + 1
            assert len(lines) == min(len(log), rows - header)
            assert lines, "the log is empty"
            for got, (seat, text) in zip(lines, log[-len(lines):], strict=True):
                assert same_line(got, expected_line(c, seat, text)), (got, text)
            lengths.add(len(c.game.history))
            if len(log) > 2 * rows and len(lengths) > 20:  # past every length the panel holds
                break
        assert len(lengths) > 20

    drive(app, script)


def test_the_log_keeps_your_own_move_at_the_start_of_a_hand() -> None:
    c = Controller(Rules.preset("viet-cong"), 4, seed=11, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await ask_hint(pilot, app)
        await pilot.press("enter")
        lines = log_lines(app)
        mine = [i for i, (seat, _) in enumerate(c.log()) if seat == HUMAN]
        assert mine
        assert len(lines) == min(len(c.log()), 8) and any(line.startswith("Ana: ") for line in lines)

    drive(app, script)


def test_round_breaks_in_the_log() -> None:
    game = position(PAGAT, ["2h 3s", "4s 5s", "4c 5c", "4d 5d"], leader=0, first_hand=False)
    c = controller_with(game)
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press(CARD_LETTERS[1], "enter")  # 2h: nobody can beat it
        lines = log_lines(app)
        assert lines[:5] == ["Ana: 2♥", "Ana has one card left!", "Bot 1: pass", "Bot 2: pass",
                             "Bot 3: pass"]
        assert lines[5] == "Ana wins the round and leads."
        await pilot.press(CARD_LETTERS[0], "enter")  # the lead again: 3s
        lines = log_lines(app)  # Ana is out; the bots played a round, then Bot 3 led again
        log = c.log()
        assert log[log.index((HUMAN, "3s")) + 1] == (None, "Ana is out: 1st place.")
        assert (None, "Bot 3 wins the round and leads.") in c.log()
        assert lines == [expected_line(c, seat, text) for seat, text in c.log()[-len(lines):]]

    drive(app, script)


def test_messages_show_cards_with_the_screens_symbols() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("a", CARD_LETTERS[12], "enter")  # no combination
        info = shown(app, "#info")
        assert "Not allowed:" in info
        assert not CARD_WORD.search(info), info
        assert any(symbol in info for symbol in "♠♣♦♥")
        await pilot.press("a", CARD_LETTERS[12])
        await ask_hint(pilot, app)
        hint = shown(app, "#info")
        assert "Hint:" in hint and not CARD_WORD.search(hint), hint
        assert not CARD_WORD.search(shown(app, "#prompt"))

    drive(app, script)


def _eight_player_end() -> Controller:
    hands = ["3s", "4s 9h", "5s Th", "6s Jh", "7s Qh", "8s Kh", "9s Ah", "Ts 2h"]
    return controller_with(position(PAGAT, hands, leader=0, first_hand=False))


def test_the_end_of_a_hand_has_its_own_panel_at_8_players() -> None:
    c = _eight_player_end()
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("a", "enter")  # Ana plays out; the bots finish the hand
        assert c.game.is_over
        assert isinstance(app.screen, EndScreen)
        box = app.screen.query_one("#end-box")
        assert box.region.right <= 80 and box.region.bottom <= 24
        text = render(app.screen.query_one("#end-text"))
        rows = text.splitlines()
        order = list(c.game.finish_order)
        last = order[-1]
        for place, seat in enumerate(order):
            row = next(r for r in rows if f" {c.names[seat]} " in f" {r} ")
            assert row.startswith(PLACE_WORDS[place])
            assert f"{c.game.scores[seat]:+d}" in row
        held = " ".join(card_face(card) for card in c.game.hand(last))
        assert held and held in text
        assert "n: next hand" in render(app.screen.query_one("#end-keys"))  # the way on is in sight
        await pilot.press("escape")
        assert not isinstance(app.screen, EndScreen)
        assert "Press n for the next hand" in shown(app, "#prompt")
        await pilot.press("e")
        assert isinstance(app.screen, EndScreen)
        await pilot.press("n")
        assert c.hand_number == 2 and not isinstance(app.screen, EndScreen)

    drive(app, script)


def test_letters_stay_with_their_cards() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        def letters() -> dict[str, str]:
            hand = app.controller.view().hand
            return {str(hand[i]): app._letters[i] for i in range(len(hand))}

        before = letters()
        assert sorted(before.values()) == sorted(CARD_LETTERS[:13])
        await ask_hint(pilot, app)
        await pilot.press("enter")
        after = letters()
        assert len(after) < len(before)
        assert all(before[card] == letter for card, letter in after.items())
        # the letter of a card still picks that card
        card, letter = next(iter(after.items()))
        await pilot.press(letter)
        hand = app.controller.view().hand
        assert [str(hand[i]) for i in app.selected] == [card]

    drive(app, script)


def test_sorting_by_combination_keeps_every_card_and_relabels_in_order() -> None:
    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("s")
        shown_letters = [app._letters[i] for i in app._order]
        assert shown_letters == list(CARD_LETTERS[:13])
        cards = [w for w in app.query(CardView) if w.display]
        assert len(cards) == 13
        xs = [w.region.x for w in cards]
        groups = app._groups
        assert len(set(groups)) > 1
        for i, (a, b) in enumerate(itertools.pairwise(xs), 1):  # a gap before each group
            assert b - a == 4 + (2 if groups[i] != groups[i - 1] else 0)
        await pilot.press("s")  # by rank: one group, no gaps
        xs = [w.region.x for w in cards]
        assert all(b - a == 4 for a, b in itertools.pairwise(xs))

    drive(app, script)


@pytest.mark.parametrize(("size", "shown_name"), [((80, 24), "Nguyễn Thị"), ((120, 40), "Nguyễn Thị Lan")])
def test_long_names_are_not_cut_at_8_players_where_there_is_room(
    size: tuple[int, int], shown_name: str
) -> None:
    c = Controller(PAGAT, 8, seed=3, name="Nguyễn Thị Lan")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        board = shown(app, "#felt")
        assert shown_name in board
        for seat in range(1, 8):
            assert f"Bot {seat}" in board

    drive(app, script, size)


def test_the_replay_shows_the_newest_action_at_every_step() -> None:
    session = Session(PAGAT, 8, seed=2)
    bots = [get_bot("greedy", seed=s) for s in range(8)]
    play_out(session.game, bots)
    replay = ReplayApp(session, "game.toml")
    game = session.games[0]

    async def watch(pilot: Pilot[Any]) -> None:
        for step in range(1, min(len(game.history), 30) + 1):
            await pilot.press("right")
            table = shown(replay, "#table")
            seat, _ = game.history[step - 1]
            assert f"{step:>3}. {game.names[seat]}: " in table, step

    drive(replay, watch)


@pytest.mark.parametrize(("size", "ten"), [((80, 24), "T"), ((120, 40), "10")])
def test_twenty_cards_fit_and_never_touch(size: tuple[int, int], ten: str) -> None:
    rules = PAGAT.replace(hand_size_big="even")
    c = Controller(rules, 5, seed=3, name="Ana")
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        app.refresh_screen()
        await pilot.pause()
        cards = [w for w in app.query(CardView) if w.display]
        assert len(cards) == len(c.view().hand) == 20
        assert all(w.region.right <= size[0] - 2 for w in cards)
        faces = [render(w).splitlines()[1] for w in cards]
        # a space between every two cards: a blank before the face, or a blank column after
        assert all(w.region.width == 4 or f[0] == " " for w, f in zip(cards, faces, strict=True))
        tens = [f for f in faces if f.strip()[:-1] in ("T", "10")]
        assert tens and all(f.strip()[:-1] == ten for f in tens)

    drive(app, script, size)


def test_the_game_in_vietnamese_at_80x24_a_hand_to_the_end_nothing_cut_off() -> None:
    controller = Controller(Rules.preset("mien-nam"), 4, seed=3, lang="vi")
    app = TienLenApp(controller, delay=0)
    game = controller.game

    async def nothing_cut(pilot: Pilot[Any]) -> None:
        for selector in ("#title", "#prompt", "#info", "#table", "#felt", "#hand"):
            widget = app.query_one(selector)
            assert widget.region.right <= 80 and widget.region.bottom <= 24, selector
            assert "…" not in shown(app, selector).replace("đang nghĩ…", ""), (selector,
                                                                              shown(app, selector))
        keys = await footer(pilot, app)
        assert all(key.region.right <= 80 for key in footer_keys(app))  # every key in sight
        words = (("Xếp", "Luật", "Tiếp", "Kết quả", "Thoát") if game.is_over else
                 ("Chọn", "Đánh", "Bỏ", "Gợi ý", "Xếp", "Luật", "Tiếp", "Thoát"))
        for word in words:  # the keys that do something now
            assert word in keys, keys

    async def script(pilot: Pilot[Any]) -> None:
        assert "luật Miền Nam" in shown(app, "#title")
        assert "Máy 1" in shown(app, "#felt")
        assert "Bài của bạn" in app.query_one("#hand").border_title
        await nothing_cut(pilot)
        for _ in range(200):
            if game.is_over:
                break
            await ask_hint(pilot, app)
            assert "Gợi ý" in shown(app, "#info") or game.is_over
            await pilot.press("enter" if app.selected else "p")
        assert game.is_over
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        end = render(app.screen.query_one("#end-text")) + "\n" + render(app.screen.query_one("#end-keys"))
        assert "hạng" in end and "bài còn lại" in end and "ván tiếp" in end
        assert all(len(line.rstrip()) <= 80 for line in end.splitlines())
        await pilot.press("escape")
        assert "Hết ván" in shown(app, "#prompt")
        await nothing_cut(pilot)

    drive(app, script)


def test_tienlen_play_takes_its_language_from_lang_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tienlen.i18n import env_lang

    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    assert env_lang() == "vi"
    args = cli.build_parser().parse_args(["play", "--lang", "en"])
    assert args.lang == "en"


def test_the_replay_in_vietnamese() -> None:
    session = Session(Rules.preset("mien-nam"), 4, seed=2)
    bots = [get_bot("greedy", seed=s) for s in range(4)]
    play_out(session.game, bots)
    replay = ReplayApp(session, "game.toml", lang="vi")
    game = session.games[0]

    async def watch(pilot: Pilot[Any]) -> None:
        assert "Ván 1/1 · bước 0/" in shown(replay, "#title")
        assert "luật Miền Nam" in shown(replay, "#title")
        await pilot.press("end")
        assert "Thứ tự về: Nhất" in shown(replay, "#result")
        keys = await footer(pilot, replay)
        assert "Lùi" in keys and "Thoát" in keys
        assert game.is_over

    drive(replay, watch)


# ====================================================================== payments (§11)
PAID = re.compile(r"^· (.+?) pays (.+?) (\d+) units?: ")


def letter_of(app: TienLenApp, card: str) -> str:
    """The letter that picks ``card`` in the human's hand."""
    hand = app.controller.view().hand
    return app._letters[hand.index(parse_cards(card)[0])]


def end_payment_rows(text: str) -> list[str]:
    """The end panel's payment lines, each joined with its wrapped rest."""
    rows: list[str] = []
    for row in text.splitlines()[text.splitlines().index(
            next(r for r in text.splitlines() if r.startswith("Payments"))) + 1:]:
        if row.startswith("· "):
            rows.append(row.rstrip())
        elif row.startswith("    ") and rows:
            rows[-1] += " " + row.strip()
    return rows


def test_a_chop_payment_is_said_then_itemised_at_the_end_adding_up_to_the_scores() -> None:
    """mien-nam: Bot 1 chops Ana's 2♥ with three pairs; when the round ends Ana pays, said in
    the message line and the log; the end panel lists every payment, and each player's sum is
    the hand column."""
    hands = ["2h 7c 8d 9s Jc", "5s 5c 6s 6c 7d 7h Kd", "3c 4d Qh Ah", "4s 8c Td Kh"]
    c = controller_with(position(MIEN_NAM, hands, leader=0, first_hand=False))
    app = TienLenApp(c, delay=0)
    game = c.game

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press(letter_of(app, "2h"), "enter")
        assert str(game.history[1][1]) == "5s 5c 6s 6c 7d 7h"  # Bot 1 chops in turn
        # the free chop of those pairs is offered to all, but Ana holds none: not asked
        decision = c.decision()
        assert decision is not None and decision.kind == "play" and game.turn == HUMAN
        assert "Free chop" not in shown(app, "#table") + shown(app, "#prompt")
        await pilot.press("p")  # Ana passes: Bot 1 wins the round, and is paid
        said = " ".join(shown(app, "#info").split())
        assert "Ana pays Bot 1 2 units: Bot 1 chopped Ana's 2♥ with three consecutive pairs" \
            in said
        assert "Ana pays Bot 1 2 units: chop" in log_lines(app)
        await follow_hints(pilot, app, lambda: game.is_over)
        assert isinstance(app.screen, EndScreen)
        box = app.screen.query_one("#end-box")
        assert box.region.right <= 80 and box.region.bottom <= 24
        text = render(app.screen.query_one("#end-text"))
        rows = end_payment_rows(text)
        assert len(rows) == len(game.payments) >= 4
        assert rows[0].startswith("· Ana pays Bot 1 2 units: Bot 1 chopped Ana's 2♥")
        assert any("4th place pays 1st place" in row for row in rows)
        assert any("(cóng)" in row for row in rows)
        units = dict.fromkeys(c.names, 0)
        for row in rows:
            m = PAID.match(row)
            assert m, row
            units[m.group(1)] -= int(m.group(3))
            units[m.group(2)] += int(m.group(3))
        shown_units = {}
        for row in text.splitlines():
            for name in c.names:
                if f" {name} " in row and not row.startswith("·"):
                    shown_units[name] = int(row.split(name, 1)[1].split()[0])
        assert shown_units == units == dict(zip(c.names, game.scores, strict=True))
        assert "n: next hand" in render(app.screen.query_one("#end-keys"))

    drive(app, script)


def test_a_free_chop_is_offered_out_of_turn_and_made() -> None:
    """mien-nam: Bot 1's 2♥ lies on the table, Bot 2 is to act; Ana holds four pairs in a row
    and is asked before Bot 2 acts; her chop clears every pass mark."""
    hands = ["5s 5c 6s 6c 7d 7h 8s 8c Kd", "2h 3c", "4c 9d Qh", "4d Td Kh"]
    game = position(MIEN_NAM, hands, leader=1, first_hand=False)
    c = controller_with(game)
    game.play("2h", seat=1)
    app = TienLenApp(c, delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        decision = c.decision()
        assert decision is not None and decision.kind == "chop" and decision.free
        prompt = " ".join(shown(app, "#prompt").split())
        assert prompt.startswith("Free chop! Chop Bot 1's 2♥ with four or more consecutive pairs:")
        assert prompt.endswith("or p to let it go.")  # all of it in sight
        assert "Free chop?" not in shown(app, "#table")  # the prompt says it, once
        assert game.turn == 2  # Bot 2 is to act, not Ana
        chop = "5s 5c 6s 6c 7d 7h 8s 8c"
        await pilot.press(*(letter_of(app, str(card)) for card in parse_cards(chop)))
        await pilot.press("enter")
        assert game.history[1] == (HUMAN, Play.parse(chop))

    drive(app, script)


@pytest.mark.parametrize(("rules", "said"), [
    (MIEN_NAM, "Free chop? Bot 3 is asked…"),
    (PAGAT.replace(chop_out_of_turn=True, chops=["quad > 2"]), "Bot 3 is asked whether to chop…")])
def test_a_bot_asked_out_of_turn_is_said_so_in_the_message_line_once(rules: Any,
                                                                     said: str) -> None:
    """Bot 1's 2♥ on the table, Bot 2 to act: Bot 3 (holding nothing) is asked first, as every
    seat the rule names is; the message line says so while it answers, the moves do not."""
    hands = ["5s 5c 6s 6c 7d 7h 8s 8c Kd", "2h 3c", "4c 9d Qh", "4d Td Kh"]
    game = position(rules, hands, leader=1, first_hand=False)
    game.play("2h", seat=1)
    c = controller_with(game)
    app = TienLenApp(c, delay=10_000)  # the bots wait for the test

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        assert c.waiting_for() == 3 and game.turn == 2
        assert " ".join(shown(app, "#prompt").split()) == said
        assert "asked" not in shown(app, "#table")
        c.bot_step()  # Bot 3 lets it go: the line moves on (to Ana's chance or to Bot 2)
        app.refresh_screen()
        await pilot.pause()
        assert "Bot 3" not in shown(app, "#prompt")

    drive(app, script)


def test_the_free_chop_prompt_in_vietnamese() -> None:
    hands = ["5s 5c 6s 6c 7d 7h 8s 8c Kd", "2h 3c", "4c 9d Qh", "4d Td Kh"]
    game = position(MIEN_NAM, hands, leader=1, first_hand=False)
    c = Controller(MIEN_NAM, 4, seed=1, lang="vi")
    c.session.games[-1] = game
    game.play("2h", seat=1)
    c.run_bots()
    decision = c.decision()
    assert decision is not None and decision.free
    assert decision.prompt.startswith("Chặt tự do! Chặt 2h của Máy 1 bằng bốn đôi thông trở lên:")


def test_a_long_end_panel_scrolls_and_keeps_its_keys_in_sight() -> None:
    from rich.text import Text

    app = new_app()

    async def script(pilot: Pilot[Any]) -> None:
        app.push_screen(EndScreen([Text(f"payment {i}") for i in range(40)], "Hand 1 is over"))
        await pilot.pause()
        screen = app.screen
        box, keys = screen.query_one("#end-box").region, screen.query_one("#end-keys").region
        assert box.bottom <= 24 and keys.bottom < box.bottom  # inside the border
        assert "n: next hand" in render(screen.query_one("#end-keys"))
        scroll = screen.query_one("#end-scroll")
        assert scroll.max_scroll_y > 0
        await pilot.press("end")
        assert scroll.scroll_y == scroll.max_scroll_y  # the last payment can be read

    drive(app, script)


def test_the_replay_says_chop_payments_and_lists_every_payment_at_the_end() -> None:
    session = Session(MIEN_NAM, 4, seed=29)
    play_out(session.game, [get_bot("greedy", seed=s) for s in range(4)])
    game = session.games[0]
    [chop] = [p for p in game.payments if p.kind == "chop"]
    steps = replay_states(game)
    bombed = next(k for k in range(1, len(steps)) if steps[k].table_seat == chop.payee
                  and steps[k].history[-1][0] == chop.payee
                  and steps[k - 1].table is not None and steps[k - 1].table_seat == chop.payer)
    replay = ReplayApp(session, "game.toml")

    async def watch(pilot: Pilot[Any]) -> None:
        for _ in range(chop.at):
            await pilot.press("right")
        table = shown(replay, "#table")  # (the moves beside the felt: long lines wrapped)
        said = " ".join(" ".join(row.strip("│╭╮╰╯─ ").split()) for row in table.splitlines())
        assert f"{game.names[chop.payer]} pays {game.names[chop.payee]} {chop.units} units: chop" \
            in said
        await pilot.press("home")
        for _ in range(bombed):
            await pilot.press("right")
        felt = " ".join(" ".join(row.strip("│╭╮╰╯─ ").split())
                        for row in shown(replay, "#felt").splitlines())
        # the chop is a moment on the felt, as in the game (paid here when the round ends)
        assert f"{game.names[chop.payee]} chopped {game.names[chop.payer]}'s" in felt, felt
        await pilot.press("left")
        assert "chopped" not in shown(replay, "#felt")
        await pilot.press("end")
        table = shown(replay, "#table")
        said = " ".join(" ".join(row.strip("│╭╮╰╯─ ").split()) for row in table.splitlines())
        assert "Payments (each player's sum is their units this hand):" in said
        assert table.count("│   · ") == len(game.payments)

    drive(replay, watch, size=(120, 40))  # every payment in sight beside the felt


@pytest.mark.parametrize(("lang", "offer", "answer"), [
    ("en", "offers SEAT2 1 card", "answers SEAT1 with 1 card"),
    ("vi", "đề nghị đổi với SEAT2: 1 lá", "trả lời SEAT1 bằng 1 lá"),
])
def test_the_log_says_a_trade_between_others_by_its_count_in_the_games_language(
        lang: str, offer: str, answer: str) -> None:
    game = _trading_game()
    c = Controller(game.rules, game.players, ("heuristic",), seed=1, name="Ana", lang=lang)
    c.session.games[-1] = game
    c.decline()  # the human makes no offers
    game.play("offer 2 3c", seat=1)
    game.play("answer 1 3d", seat=2)
    said = [text for seat, text in c.log() if seat in (1, 2)]
    named = [text.replace("SEAT1", c.names[1]).replace("SEAT2", c.names[2])
             for text in (offer, answer)]
    assert said == named  # the cards stay hidden from the human, their number said


def test_the_replay_draws_the_hand_on_the_felt_stepping_forwards_and_back() -> None:
    session = Session(PAGAT, 4, seed=5)
    play_out(session.game, [get_bot("greedy", seed=s) for s in range(4)])
    game = session.games[0]
    replay = ReplayApp(session, "game.toml")
    seat, first = game.history[0]
    assert isinstance(first, Play) and first.cards

    async def watch(pilot: Pilot[Any]) -> None:
        felt = shown(replay, "#felt")
        assert f"{game.names[seat]} leads" in felt and "played" not in felt
        await pilot.press("right")
        felt = shown(replay, "#felt")
        assert f"{game.names[seat]} played" in felt  # the trick, under its caption
        assert all(card_face(card) in felt for card in first.cards)
        assert f"★{game.names[seat]} ·{13 - len(first.cards)}" in felt  # its play is to beat
        await pilot.press("left")
        assert "played" not in shown(replay, "#felt")

    drive(replay, watch, size=(120, 40))
