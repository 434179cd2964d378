"""Records (docs/api.md §Records): TOML text that round-trips exactly and is checked on loading."""

from __future__ import annotations

import re
import tomllib

import pytest

from helpers import deal_with, play_on
from tienlen import Game, RecordError, Rules, Session, parse_cards


def state(game: Game) -> tuple[object, ...]:
    """Everything a player can see of a hand, to compare a replay with the original."""
    return (
        game.phase, game.turn, [game.hand(s) for s in range(game.players)], game.history,
        game.finish_order, game.scores, game.table, game.table_seat, game.passed, game.dealer,
        game.leader, game.names, game.rules, [str(m) for m in game.legal_plays()],
    )


def assert_round_trip(game: Game) -> None:
    text = game.record()
    again = Game.from_record(text)
    assert again.record() == text
    assert state(again) == state(game)


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("preset", Rules.presets())
def test_a_finished_hand_round_trips_exactly(preset: str) -> None:
    for seed in range(3):
        game = play_on(Game.deal(Rules.preset(preset), 4, seed=seed), seed=seed)
        assert game.is_over
        assert_round_trip(game)


@pytest.mark.parametrize("moves", [0, 1, 5, 17])
def test_an_unfinished_hand_round_trips_and_plays_on_from_where_it_stopped(moves: int) -> None:
    game = play_on(Game.deal(Rules.preset("justus-pang"), 4, seed=21), moves=moves, seed=3)
    assert not game.is_over
    assert_round_trip(game)
    again = Game.from_record(game.record())
    play_on(game, seed=9)
    play_on(again, seed=9)
    assert state(again) == state(game)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_hands_of_other_table_sizes_round_trip(players: int) -> None:
    game = play_on(Game.deal(Rules.preset("kenneth-lu"), players, seed=players), seed=1)
    assert_round_trip(game)


def test_two_pack_hands_round_trip() -> None:
    rules = Rules.preset("pagat").replace(hand_size_big="even", double_deck_ties="later_wins")
    assert_round_trip(play_on(Game.deal(rules, 6, seed=4), seed=2))


def test_the_same_card_twice_in_a_hand_and_in_a_play_round_trips() -> None:
    rules = Rules.preset("pagat").replace(double_deck_ties="later_wins")
    game = Game(rules, ["3s 7h 7h Kd", "3s 8c 8c", "4d 9s", "5c Ts", "6d Js"], dealer=4)
    assert game.turn == 0  # of the two holders of the 3s, the first in dealing order leads
    game.play("3s")
    game.play("pass")
    game.play("pass")
    game.play("pass")
    game.play("pass")
    game.play("7h 7h")
    assert game.action_texts()[-1] == "0 7h 7h"
    assert '"3s 7h 7h Kd"' in game.record()
    assert_round_trip(game)


def test_alphabetical_suit_order_and_changed_options_round_trip() -> None:
    rules = Rules.preset("thirteen").replace(suit_order="alphabetical", stake=5, penalty_two=2,
                                             red_twos_double=True)
    for moves in (7, None):
        assert_round_trip(play_on(Game.deal(rules, 4, seed=13), moves=moves, seed=6))


def test_a_given_position_with_a_chosen_leader_round_trips() -> None:
    game = Game(Rules.preset("pagat"), ["Ks Kh 2c", "3s 4s 5s", "9d 9h"], leader=2, dealer=1,
                first_hand=False)
    game.play("9d 9h")
    assert game.is_over is False
    assert_round_trip(game)
    assert "leader = 2" in game.record()
    assert "first_hand = false" in game.record()


def test_an_automatic_instant_win_round_trips_with_its_claim() -> None:
    game = Game(Rules.preset("viet-cong"), deal_with({2: "2s 2c 2d 2h"}))
    assert game.is_over
    assert game.action_texts() == ["2 claim four_twos"]
    assert_round_trip(game)


def test_optional_claims_and_declines_round_trip() -> None:
    game = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    assert game.state.claim_queue == [1, 2]  # only the seats holding an instant win are asked
    game.play("decline")
    assert game.phase == "claim"
    assert_round_trip(game)  # in the middle of the claims
    game.play("claim four_twos")
    assert game.instant_win == (2, "four_twos")
    assert_round_trip(game)


def test_declined_instant_wins_then_play_round_trip() -> None:
    game = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    for _ in range(2):
        game.play("decline")
    assert game.phase == "play"
    play_on(game, seed=5)
    assert_round_trip(game)


def test_mutual_trades_round_trip() -> None:
    rules = Rules.preset("viet-cong").replace(trading="mutual")
    game = Game(rules, ["3s 4s 5s 9h", "6h 7h 8h Jd", "9c Tc Jc Qs", "Qd Kd Ad Ac"])
    game.play("offer 2 3s 4s")
    game.play("answer 0 Tc Jc", seat=2)
    game.play("accept 2")
    game.play("offer 3 7h")
    game.play("refuse 1", seat=3)
    assert_round_trip(game)  # in the middle of the trading
    game.play("done")
    game.play("offer 1 Ad")
    game.play("answer 3 Jd", seat=1)
    game.play("refuse 1", seat=3)
    for seat in (0, 1, 3):  # seat 2 is done already
        assert game.turn == seat
        game.play("done")
    assert game.phase == "play"
    play_on(game, seed=1)
    assert_round_trip(game)


def test_an_out_of_turn_chop_round_trips() -> None:
    rules = Rules.preset("pagat").replace(chop_out_of_turn=True)
    game = Game(rules, ["3s 2h 9d", "4s 6h Jd", "5s 5c 5d 5h 7c", "6s 8s Ts"])
    for text in ("3s", "4s", "7c", "8s", "2h"):
        game.play(text)
    assert game.turn == 1
    game.play("5s 5c 5d 5h", seat=2)
    assert game.action_texts()[-1] == "2 5s 5c 5d 5h"
    assert game.turn == 3
    assert_round_trip(game)


def test_a_session_round_trips_hand_by_hand() -> None:
    for preset, trading in (("pagat", "president"), ("thirteen", "none"), ("killer", "none")):
        rules = Rules.preset(preset).replace(trading=trading)
        session = Session(rules, 4, seed=17, names=["Lan", "Minh", "Hoa", "Tuan"])
        for hand in range(3):
            play_on(session.game, seed=hand)
            session.next_hand()
        play_on(session.game, moves=4, seed=7)
        text = session.record()
        again = Session.from_record(text)
        assert again.record() == text
        assert len(again.games) == 4
        assert again.totals == session.totals
        assert again.first_places == session.first_places
        assert again.names == session.names
        for mine, theirs in zip(session.games, again.games, strict=True):
            assert state(mine) == state(theirs)
        # the replayed session goes on under the same rules
        play_on(again.game, seed=3)
        assert again.next_hand().dealer in range(4)


def test_game_from_record_of_a_session_refuses_and_names_session_from_record() -> None:
    session = Session(Rules.preset("pagat"), 3, seed=2)
    play_on(session.game)
    session.next_hand()
    play_on(session.game, moves=3)
    with pytest.raises(RecordError, match=r"Session\.from_record"):
        Game.from_record(session.record())
    assert state(Session.from_record(session.record()).game) == state(session.game)
    # one hand of it on its own still loads
    assert state(Game.from_record(session.game.record())) == state(session.game)


# ---------------------------------------------------------------------- the text
def test_the_record_is_readable_toml_as_interface_md_shows() -> None:
    rules = Rules.preset("viet-cong").replace(stake=5)
    game = Game.deal(rules, 4, seed=3, names=["Lan", "Minh", "Hoa", "Tuan"])
    play_on(game, moves=4)
    text = game.record()
    data = tomllib.loads(text)
    assert list(data) == ["format", "rules", "players", "options", "hands"]
    assert data["format"] == "tienlen/1"
    assert data["rules"] == "viet-cong"
    assert data["players"] == ["Lan", "Minh", "Hoa", "Tuan"]
    assert data["options"] == {"stake": 5}  # only the options that differ from the preset
    (hand,) = data["hands"]
    assert hand["dealer"] == game.dealer
    assert hand["dealt"] == [" ".join(str(c) for c in sorted(
        parse_cards(" ".join(str(c) for c in game.hand(s)) + " " + _played_by(game, s))))
        for s in range(4)]
    assert hand["actions"] == [f"{s} {m}" for s, m in game.history]
    for line in hand["actions"]:
        assert re.fullmatch(r"[0-3] (pass|([2-9TJQKA][scdh] ?)+)", line), line
    # one action per line, as a person would write it
    assert '  "' + hand["actions"][0] + '",' in text.splitlines()


def _played_by(game: Game, seat: int) -> str:
    return " ".join(str(m) for s, m in game.history if s == seat and str(m) != "pass")


def test_a_record_of_preset_rules_has_no_options_table() -> None:
    text = play_on(Game.deal(Rules.preset("parlett"), 4, seed=1)).record()
    assert "[options]" not in text
    assert "options" not in tomllib.loads(text)


def test_a_session_record_has_one_hands_entry_per_hand() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=3)
    play_on(session.game)
    session.next_hand()
    data = tomllib.loads(session.record())
    assert [h["dealer"] for h in data["hands"]] == [g.dealer for g in session.games]
    assert data["hands"][1]["first_hand"] is False


# ---------------------------------------------------------------------- broken records
def _base() -> tuple[Game, str]:
    game = Game.deal(Rules.preset("pagat"), 4, seed=7)
    play_on(game, moves=8, seed=1)
    return game, game.record()


def _with_actions(text: str, actions: list[str]) -> str:
    head, _, _ = text.partition("actions = [")
    return head + "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]\n"


def _load_error(text: str) -> str:
    with pytest.raises(RecordError) as info:
        Session.from_record(text)
    with pytest.raises(RecordError):
        Game.from_record(text)
    return str(info.value)


def test_a_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


def test_a_record_that_is_not_toml_is_a_record_error() -> None:
    _, text = _base()
    assert "not valid TOML" in _load_error(text.replace("format =", "format ==", 1))


def test_a_record_nested_too_deeply_is_a_record_error() -> None:
    _, text = _base()
    head, _, rest = text.partition("\n[[hands]]")
    for options in ("stake = " + "[" * 500 + "]" * 500, ".".join(["a"] * 1000) + " = 1"):
        message = _load_error(head + "\n[options]\n" + options + "\n\n[[hands]]" + rest)
        assert message.startswith("the record is not valid TOML: Nested too deeply (more than "
                                  "32 levels)"), message


def test_a_record_of_the_wrong_format_is_a_record_error() -> None:
    _, text = _base()
    message = _load_error(text.replace('"tienlen/1"', '"tienlen/9"'))
    assert "format" in message and "tienlen/9" in message
    message = _load_error(text.replace('format = "tienlen/1"\n', ""))
    assert "format" in message


def test_a_record_with_an_unknown_preset_is_a_record_error() -> None:
    _, text = _base()
    message = _load_error(text.replace('rules = "pagat"', 'rules = "pagot"'))
    assert "pagot" in message and "preset" in message


def test_a_record_with_a_bad_option_is_a_record_error_naming_the_option() -> None:
    _, text = _base()
    head, _, rest = text.partition("\n[[hands]]")
    for options, named in (("stake = \"five\"", "stake"), ("stak = 2", "stak"),
                           ("chops = [\"quad > 3\"]", "chops")):
        broken = head + "\n[options]\n" + options + "\n\n[[hands]]" + rest
        message = _load_error(broken)
        assert named in message
        assert "rules" in message


def test_a_bad_card_in_the_dealt_hands_names_the_hand_and_the_card() -> None:
    game, text = _base()
    first = " ".join(_dealt_cards(game, 1))
    broken = text.replace(f'"{first}"', '"' + first.replace(first.split()[3], "1x", 1) + '"')
    assert broken != text
    message = _load_error(broken)
    assert message.startswith("hand 1")
    assert "'1x'" in message
    assert "seat 1" in message


def _dealt_cards(game: Game, seat: int) -> list[str]:
    from tienlen.cards import KEY_TEXT

    return [KEY_TEXT[game.rules.suit_order][k] for k in game.dealt[seat]]


def test_a_card_dealt_twice_is_a_record_error() -> None:
    game, text = _base()
    hands = [" ".join(_dealt_cards(game, s)) for s in range(4)]
    card = hands[0].split()[0]
    broken = text.replace(f'"{hands[1]}"', f'"{card} {hands[1]}"')
    message = _load_error(broken)
    assert "hand 1" in message and card in message and "2 times" in message


def test_an_illegal_action_names_the_hand_the_action_index_and_the_reason() -> None:
    game, text = _base()
    actions = game.action_texts()
    # the seat on turn after action 4 plays a card it does not hold
    seat = int(actions[5].split()[0])
    stranger = next(c for s in range(4) if s != seat for c in game.hand(s))
    broken = _with_actions(text, [*actions[:5], f"{seat} {stranger}", *actions[6:]])
    message = _load_error(broken)
    assert message.startswith("hand 1, action 5")
    assert f"{seat} {stranger}" in message
    assert f"do not hold {stranger}" in message


def test_an_action_out_of_turn_names_whose_turn_it_was() -> None:
    game, text = _base()
    actions = game.action_texts()
    seat = int(actions[2].split()[0])
    wrong = (seat + 1) % 4
    broken = _with_actions(text, [*actions[:2], f"{wrong} pass", *actions[3:]])
    message = _load_error(broken)
    assert message.startswith("hand 1, action 2")
    assert "turn" in message


def test_a_pass_on_the_opening_lead_is_an_illegal_action() -> None:
    game, text = _base()
    leader = game.leader
    broken = _with_actions(text, [f"{leader} pass"])
    message = _load_error(broken)
    assert message.startswith("hand 1, action 0")
    assert "cannot pass" in message


@pytest.mark.parametrize(
    "line",
    ["x pass", "1", "1 ", "-1 pass", "pass", "one 3s", "1 3x", "1 claim nothing", "1 offer 3s"],
)
def test_a_malformed_action_line_names_the_hand_and_the_index(line: str) -> None:
    game, text = _base()
    actions = game.action_texts()
    broken = _with_actions(text, [*actions[:3], line])
    message = _load_error(broken)
    assert message.startswith("hand 1, action 3")
    assert repr(line) in message or line.strip() in message


def test_a_seat_that_is_not_at_the_table_is_a_record_error() -> None:
    game, text = _base()
    actions = game.action_texts()
    broken = _with_actions(text, [*actions[:3], "7 pass"])
    message = _load_error(broken)
    assert message.startswith("hand 1, action 3")
    assert "seat" in message


def test_a_wrong_automatic_claim_is_a_record_error() -> None:
    game = Game(Rules.preset("viet-cong"), deal_with({2: "2s 2c 2d 2h"}))
    text = game.record()
    message = _load_error(text.replace('"2 claim four_twos"', '"1 claim four_twos"'))
    assert message.startswith("hand 1, action 0")
    assert "'2 claim four_twos'" in message
    message = _load_error(_with_actions(text, []))
    assert "hand 1" in message and "leaves out" in message and "2 claim four_twos" in message


def test_a_wrong_president_gift_is_a_record_error() -> None:
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=3)
    play_on(session.game)
    game = session.next_hand()
    text = session.record()
    seat, gift = game.history[0]
    right = f"{seat} {gift}"
    wrong_cards = " ".join(str(c) for c in game.hand(seat)[:2])
    wrong = f"{seat} give {gift.other} {wrong_cards}"  # type: ignore[union-attr]
    assert right in text
    message = _load_error(text.replace(f'"{right}"', f'"{wrong}"'))
    assert message.startswith("hand 2, action 0")
    assert right in message


def test_the_wrong_dealer_for_the_next_hand_of_a_session_is_a_record_error() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=3)
    loser = play_on(session.game).finish_order[-1]
    session.next_hand()
    text = session.record()
    data = tomllib.loads(text)
    assert data["hands"][1]["dealer"] == loser
    head, sep, second = text.rpartition("[[hands]]")
    wrong = (loser + 1) % 4
    broken = head + sep + second.replace(f"dealer = {loser}", f"dealer = {wrong}", 1)
    with pytest.raises(RecordError) as info:
        Session.from_record(broken)
    message = str(info.value)
    assert message.startswith("hand 2")
    assert f"seat {loser} deals" in message


def test_a_later_hand_after_an_unfinished_hand_is_a_record_error() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=3)
    play_on(session.game)
    session.next_hand()
    text = session.record()
    first, sep, rest = text.partition("actions = [")
    body, close, tail = rest.partition("]")
    lines = body.strip().splitlines()
    broken = first + sep + "\n".join(lines[:3]) + "\n" + close + tail
    with pytest.raises(RecordError, match="hand 2: hand 1 was not finished"):
        Session.from_record(broken)


def test_an_error_in_a_later_hand_names_that_hand() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=3)
    play_on(session.game)
    session.next_hand()
    play_on(session.game, moves=3)
    text = session.record()
    head, sep, _second = text.rpartition("actions = [")
    broken = head + sep + '\n  "0 3s 3s",\n]\n'
    with pytest.raises(RecordError, match=r"^hand 2, action 0"):
        Session.from_record(broken)


def test_a_record_with_unknown_keys_or_no_hands_is_a_record_error() -> None:
    _, text = _base()
    assert "unknown keys" in _load_error(text.replace("format =", "colour = 1\nformat =", 1))
    assert "no [[hands]]" in _load_error(text.partition("[[hands]]")[0])
    assert "unknown key 'winner'" in _load_error(text.replace("dealer =", "winner = 1\ndealer ="))


def _president_record() -> tuple[Session, str]:
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=3)
    play_on(session.game)
    session.next_hand()
    return session, session.record()


def test_a_session_record_that_leaves_out_a_president_gift_is_a_record_error() -> None:
    session, text = _president_record()
    seat, gift = session.game.history[1]
    broken = text.replace(f'  "{seat} {gift}",\n', "")
    assert broken != text
    message = _load_error(broken)
    assert message.startswith("hand 2")
    assert "exchange" in message
    assert f"seat {seat} gives seat {gift.other} 1 card" in message  # type: ignore[union-attr]


def test_a_session_record_with_no_exchange_where_the_rules_want_one_is_a_record_error() -> None:
    _session, text = _president_record()
    head, _, _ = text.rpartition("actions = [")
    message = _load_error(head + "actions = []\n")
    assert message.startswith("hand 2")
    assert message.endswith(", not no exchange")


def test_a_gift_in_a_session_without_president_trading_is_a_record_error() -> None:
    _session, text = _president_record()
    broken = text.replace('trading = "president"\n', "")
    message = _load_error(broken)
    assert message.startswith("hand 2")
    assert "no exchange" in message


def test_a_chosen_leader_where_the_lowest_card_leads_every_hand_is_a_record_error() -> None:
    session = Session(Rules.preset("thirteen"), 4, seed=3)
    play_on(session.game)
    game = session.next_hand()
    text = session.record()
    other = (game.leader + 1) % 4
    head, sep, tail = text.rpartition("first_hand = false")
    broken = head + f"leader = {other}\n" + sep + tail
    message = _load_error(broken)
    assert message.startswith("hand 2")
    assert "lowest card leads" in message


# ---------------------------------------------------------------------- payments (§11)
def _chopped_hand() -> Game:
    rules = Rules.preset("mien-nam")
    game = Game(rules, ["2h 4d", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h Qd", "Tc Jd"], leader=0,
                first_hand=False)
    for text in ("2h", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h", "pass", "pass", "pass"):
        game.play(text)
    return game


def test_chop_payments_are_itemised_in_the_record_and_checked_on_loading() -> None:
    game = _chopped_hand()
    text = game.record()
    assert "payments = [" in text
    assert '"1 pays 2 4: seat 2 chopped seat 1 last in the round (chặt chồng): ' in text
    again = Game.from_record(text)
    assert again.payments == game.payments and again.record() == text
    tampered = text.replace('"1 pays 2 4:', '"1 pays 2 5:')
    with pytest.raises(RecordError, match="payment 0 is '1 pays 2 5"):
        Game.from_record(tampered)


def test_a_finished_mien_nam_hand_itemises_places_and_penalties() -> None:
    game = Game(Rules.preset("mien-nam"), ["6c Js", "7c 2d 5s", "4s 9s", "5c Ts Qs"], leader=2,
                first_hand=False)
    for text in ("4s", "5c", "6c", "7c", "9s", "Ts", "Js", "pass", "Qs"):
        game.play(text)
    lines = tomllib.loads(game.record())["hands"][0]["payments"]
    assert lines == ["1 pays 2 2: fourth place pays first", "3 pays 0 1: third place pays second",
                     "1 pays 2 2: 2d left"]
    assert Game.from_record(game.record()).scores == game.scores == [1, -4, 4, -1]


def test_a_record_without_chops_or_penalties_writes_no_payments() -> None:
    game = play_on(Game.deal(Rules.preset("pagat"), 4, seed=5))
    assert game.is_over and game.payments and "payments" not in game.record()
