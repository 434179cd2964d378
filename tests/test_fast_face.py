"""The compiled path's Python face (``tienlen.fast.api.FastGame``): a hand dealt straight into the
fast form is the hand ``Game.deal`` deals; the legal plays, listed in the call that makes the
move before them and made into plays only when read, behave as the list of those plays."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from tienlen import PASS, Game, Rules  # noqa: E402
from tienlen.fast.api import FastGame, LegalPlays  # noqa: E402
from tienlen.fast.encoding import state_of  # noqa: E402

GAMES = [("pagat", 4), ("pagat", 3), ("kenneth-lu", 3), ("kenneth-lu", 2), ("killer", 6),
         ("mien-nam", 4), ("mien-nam", 8), ("mien-bac", 3), ("viet-cong", 4), ("parlett", 5)]


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_a_hand_dealt_into_the_fast_form_is_game_deals(rules: str, players: int) -> None:
    preset = Rules.preset(rules)
    won = 0
    for seed in range(150):
        game = Game.deal(preset, players, seed)
        dealt = FastGame.deal(preset, players, seed)
        assert dealt.st.tolist() == state_of(game).tolist(), seed  # won at once too
        won += game.is_over
    if (rules, players) == ("mien-nam", 4):  # six instant wins: about one deal in twenty
        assert won  # an automatic instant win was among them, and came out over


def test_rules_that_begin_before_the_play_are_dealt_by_game() -> None:
    cardrules = Rules.preset("cardrules")  # optional instant wins: a claim may be asked first
    for seed in range(60):
        game = Game.deal(cardrules, 4, seed)
        if game.phase == "play":
            assert FastGame.deal(cardrules, 4, seed).st.tolist() == state_of(game).tolist()
        else:
            with pytest.raises(ValueError, match="only the play phase"):
                FastGame.deal(cardrules, 4, seed)


def test_the_legal_plays_read_as_the_list_of_them() -> None:
    rules = Rules.preset("pagat")
    game = Game.deal(rules, 4, 3)
    fg = FastGame.deal(rules, 4, 3)
    rng = random.Random(3)
    while not game.is_over:
        pure = game.legal_plays()
        lazy = fg.legal_plays()
        assert isinstance(lazy, LegalPlays) and len(lazy) == len(pure)
        assert sorted(p.keys for p in lazy) == sorted(p.keys for p in pure)
        assert list(lazy) == [lazy[i] for i in range(len(lazy))] == lazy[:]
        assert lazy[-1] == lazy[len(lazy) - 1] and lazy == list(lazy) and all(p in lazy for p in pure)
        with pytest.raises(IndexError):
            lazy[len(lazy)]
        move = rng.choice(pure)
        game.push(move)
        fg.push(move)
        assert list(lazy) == list(lazy)  # a snapshot: the move made since changes nothing
        assert fg.turn == game.turn
    assert fg.legal_plays() == [] and fg.turn is None


def test_writing_the_state_lets_the_known_plays_go() -> None:
    rules = Rules.preset("pagat")
    fg = FastGame.deal(rules, 4, 8)
    lead = fg.legal_plays()
    fg.push(lead[0])
    follow = fg.copy()
    assert follow.legal_plays() == fg.legal_plays() and PASS in fg.legal_plays()
    original = FastGame.deal(rules, 4, 8)
    fg.st[:] = original.st  # the caller sets the position back
    assert fg.turn == original.turn and fg.legal_plays() == lead
