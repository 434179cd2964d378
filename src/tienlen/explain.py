"""Why an action is illegal, in words a player understands (the message of IllegalPlay)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .actions import Action, Move
from .cards import CODE_TO_KEY, KEY_TEXT, TWO
from .shapes import SEQUENCES, SHAPE_WORDS, Play, classify

if TYPE_CHECKING:
    from .game import Game


def explain_illegal(game: Game, seat: int, move: Move) -> str:
    """The reason ``move`` by ``seat`` is not legal in ``game`` now."""
    if game.is_over:
        return "the hand is over: no more plays"
    who = game.who(seat)
    phase = game.phase
    if isinstance(move, Action):
        return _explain_action(game, seat, move)
    if phase != "play":
        return _phase_first(game, seat)
    if seat != game.turn:
        return _out_of_turn(game, seat, move)
    return _explain_play(game, seat, move, who)


def _phase_first(game: Game, seat: int) -> str:
    phase = game.phase
    turn = game.turn
    assert turn is not None
    if phase == "claim":
        return (f"the instant wins come first: {game.who(turn)} answers with "
                "'claim WIN' or 'decline'")
    if phase == "return":
        return f"the exchange comes first: {game.who(turn)} returns cards ('return CARDS')"
    return (f"trading comes first: {game.who(turn)} offers ('offer SEAT CARDS'), answers, "
            "or says 'done'")


def _out_of_turn(game: Game, seat: int, move: Move) -> str:
    turn = game.turn
    assert turn is not None
    base = f"it is {game.who(turn)}'s turn, not {game.who(seat)}'s"
    rules = game.rules
    if rules.free_chops and not rules.chop_out_of_turn:
        if game.is_out(seat):
            return f"{game.who(seat)} has taken its place and plays no more"
        if seat == game.table_seat:
            return base + ": nobody chops their own play"
        free = " or ".join(p.words() for p in rules.free_chops)
        if game.table is None or not game._mg.is_free_target(game.table):
            return base + f": out of turn only a free chop ({free}) of a play it beats is allowed"
        if isinstance(move, Play) and move.keys:
            missing = _missing(game, seat, move)
            if missing:
                return missing
        return (base + f": out of turn only a free chop ({free}) that beats "
                f"{game.table.describe()} is allowed")
    if not rules.chop_out_of_turn:
        return base
    if not game.hand(seat):
        return f"{game.who(seat)} has played out"
    if game.table is None or not game._window:
        return base + ": a chop out of turn must come the moment its target is played"
    if isinstance(move, Play) and move.keys and move.shape is not None:
        table = game.table
        if game._locked(seat) and not rules.chop_after_pass:
            return f"{game.who(seat)} has passed this round and may not chop"
        missing = _missing(game, seat, move)
        if missing:
            return missing
        return base + f": out of turn only a chop is allowed, and {_chop_clause(game, table)}"
    return base + ": out of turn only a chop of the play just made is allowed"


def _missing(game: Game, seat: int, play: Play) -> str | None:
    order = game.rules.suit_order
    to_key = CODE_TO_KEY[order]
    held = Counter(game._hands[seat])
    want = Counter(to_key[c.code] for c in play.cards)
    lacking = [k for k, c in want.items() if held[k] < c]
    if lacking:
        text = ", ".join(KEY_TEXT[order][k] for k in sorted(lacking))
        return f"you do not hold {text}"
    return None


def _shape_problem(game: Game, play: Play) -> str:
    rules = game.rules
    keys = play.keys
    structural = classify(keys)
    if rules.follow_suit and structural in ("pair", "run", "chain"):
        what = {"pair": "a pair must be of one colour", "run": "a run must be of one suit",
                "chain": "a chain's pairs must all be of one colour"}[structural]
        return f"{play} is not a combination: {what} (follow_suit; twos are exempt)"
    if structural == "run" and keys[-1] >> 2 == TWO and not rules.twos_in_runs:
        return f"{play} is not a combination: a two cannot be part of a run under these rules"
    if structural in ("chain", "triple_chain", "quad_chain"):
        if keys[-1] >> 2 == TWO and not rules.twos_in_chains:
            return f"{play} is not a combination: a two cannot be part of a chain under these rules"
        if structural == "triple_chain" and not rules.triple_chains:
            return f"{play} is not a combination: chains of triples are not played under these rules"
        if structural == "quad_chain" and not rules.quad_chains:
            return (f"{play} is not a combination: chains of fours of a kind are not played "
                    "under these rules")
    ranks = [k >> 2 for k in keys]
    if ranks[0] == 0 and ranks[-1] == TWO:
        return f"{play} is not a combination: sequences never turn the corner from 2 to 3"
    return (f"{play} is not a combination: play a single, a pair, a triple, four of a kind, "
            "a run of 3 or more ranks, or a chain of 3 or more pairs")


def _bomb_words(game: Game, table: Play) -> str:
    entries = game._mg.entries_against(table)
    bombs = [e.bomb.words() + (" (a higher one)" if e.higher else "") for e in entries]
    if game.rules.four_twos_bomb:
        bombs.append("four twos")
    return " or ".join(dict.fromkeys(bombs))


def _chop_clause(game: Game, table: Play | None) -> str:
    if table is None:
        return "there is nothing to chop"
    bombs = _bomb_words(game, table)
    if not bombs:
        return f"nothing chops {table.describe()} under these rules"
    return f"{table.describe()} can only be chopped by {bombs}"


def _explain_play(game: Game, seat: int, play: Play, who: str) -> str:
    rules = game.rules
    table = game.table
    if not play.keys:
        if table is None:
            if game._no_pass_lead:
                return "the opener passed, so you must lead: you cannot pass"
            return "you are leading: you cannot pass, play any combination"
        return "that pass is not allowed now"
    missing = _missing(game, seat, play)
    if missing:
        return missing
    if play.shape is None:
        return _shape_problem(game, play)
    if table is None:
        low = game._opening_lowest
        if game._opening and low is not None:
            low_text = KEY_TEXT[rules.suit_order][low]
            if rules.opening == "lowest_single" and play.keys != (low,):
                return f"the first play of the hand must be the lowest card, {low_text}, on its own"
            if rules.opening == "contains_lowest" and low not in play.keys:
                return f"the first play of the hand must contain the lowest card, {low_text}"
        if game._first_play and rules.opening_no_chain and play.shape == "chain":
            return "a chain of pairs may not open the hand"
        return "that lead is not allowed now"
    if game.stacking:
        return (f"you are stacking: play a higher {SHAPE_WORDS[table.shape or 'single'][2:]} "
                "of the same size, or pass to lead a new round")
    if game._locked(seat):
        return (f"you passed this round: you may only chop, and "
                f"{_chop_clause(game, table)}")
    return _not_a_beat(game, play, table)


def _not_a_beat(game: Game, play: Play, table: Play) -> str:
    shape = table.shape or "single"
    same = play.shape == shape and len(play.keys) == len(table.keys)
    is_target = game._mg.is_target(table)
    if same and game.rules.follow_suit and play.keys[-1] > table.keys[-1]:
        keep = {"single": "the same suit", "pair": "the same colour", "chain": "the same colour",
                "triple": "the same three suits", "run": "the same suit"}.get(shape, "its suits")
        return (f"{play} does not beat {table}: under follow_suit a beat keeps {keep} "
                "(only twos beat any lower play of their shape)")
    if same:
        reason = f"{play} does not beat {table}: it must be a higher {_shape_noun(table)}"
        if table.keys[-1] == play.keys[-1]:
            reason += " (an exact tie does not beat)"
        return reason
    if (is_target and (play.shape in ("quad", *SEQUENCES) or play.shape != shape)
            and (game._mg.entries_against(table) or game.rules.four_twos_bomb)):
            return (f"{table.describe()} can only be beaten by a higher {_shape_noun(table)}, "
                    f"or chopped by {_bomb_words(game, table)}")
    if play.shape == shape:
        return (f"{play} does not beat {table}: {_shape_noun(table)} must be beaten by "
                f"one of the same length")
    return f"{table.describe()} can only be beaten by a higher {_shape_noun(table)}"


def _shape_noun(play: Play) -> str:
    shape = play.shape or "single"
    if shape in SEQUENCES:
        width = SEQUENCES[shape][0]
        unit = {1: "cards", 2: "pairs", 3: "triples", 4: "fours of a kind"}[width]
        noun = {"run": "run", "chain": "chain"}.get(shape, SHAPE_WORDS[shape][2:])
        return f"{noun} of {len(play.keys) // width} {unit}"
    return {"single": "single card", "pair": "pair", "triple": "triple",
            "quad": "four of a kind"}[shape]


def _explain_action(game: Game, seat: int, action: Action) -> str:
    phase = game.phase
    kind = action.kind
    if kind in ("claim", "decline"):
        if phase != "claim":
            return "there is no instant win to claim or decline now"
        if seat != game.turn:
            return f"it is {game.who(game.turn or 0)}'s turn to answer the instant-win call"
        return f"{game.who(seat)}'s hand does not hold {action.win or 'that instant win'}"
    if kind == "give":
        return "exchange gifts are made automatically"
    if kind == "return":
        if phase != "return":
            return "there is no exchange to return cards for now"
        if seat != game.turn:
            return f"it is {game.who(game.turn or 0)}'s turn to return cards"
        count = game._returns[0][2]
        if len(action.cards) != count:
            return f"return exactly {count} card{'s' if count > 1 else ''}"
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            "those cards cannot be returned"
    if phase != "trade":
        return "there is no trading now" if game.rules.trading == "mutual" or phase == "play" \
            else "trading is not played under these rules"
    if seat != game.turn:
        return f"it is {game.who(game.turn or 0)}'s turn in the trading"
    pending = game._pending
    if kind == "offer":
        if pending is not None:
            return "answer the trade on the table first"
        if action.other == seat or action.other is None or not 0 <= action.other < game.players:
            return "offer to another seat at the table"
        if (seat, action.other) in game._offered:
            return f"{game.who(seat)} has already made an offer to {game.who(action.other)}"
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            "that offer is not allowed"
    if kind == "answer":
        if pending is None or pending[3] is not None or pending[1] != seat:
            return "there is no offer for you to answer"
        if action.other != pending[0]:
            return f"the offer to answer is from seat {pending[0]}"
        if len(action.cards) != len(pending[2]):
            return f"a trade swaps equal numbers: answer with {len(pending[2])} cards"
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            "that answer is not allowed"
    if kind in ("accept", "refuse"):
        if pending is None:
            return "there is no trade to accept or refuse"
        return f"the trade on the table is with seat {pending[1] if pending[0] == seat else pending[0]}"
    if kind == "done" and pending is not None:
        return "settle the trade on the table first"
    return "that action is not allowed now"
