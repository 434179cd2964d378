"""Why an action is illegal, in words a player understands (the message of IllegalPlay).

Each reason is a :class:`~tienlen.i18n.Msg`: a whole sentence of the message catalogue with its
names, cards and noun phrases as parameters, so that it reads the same in every language
(:func:`explain_message`); :func:`explain_illegal` says it in one language (English by default,
the text of :class:`IllegalPlay`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .actions import CLAIM_KINDS, Action, Move
from .cards import CODE_TO_KEY, KEY_TEXT, TWO
from .chops import Pattern
from .i18n import Msg, msg, render
from .legal import locked
from .shapes import SEQUENCES, SET_SHAPES, Play, classify

if TYPE_CHECKING:
    from .hand import Hand


def explain_illegal(game: Hand, seat: int, move: Move, lang: str = "en") -> str:
    """The reason ``move`` by ``seat`` is not legal in ``game`` now, in ``lang``."""
    return render(explain_message(game, seat, move), lang)


def explain_message(game: Hand, seat: int, move: Move) -> Msg:
    """The reason ``move`` by ``seat`` is not legal in ``game`` now, not yet in words."""
    if game.is_over:
        return msg("explain.over")
    phase = game.phase
    if isinstance(move, Action):
        return _explain_action(game, seat, move)
    if phase != "play":
        return _phase_first(game, seat)
    if seat != game.turn:
        return _out_of_turn(game, seat, move)
    return _explain_play(game, seat, move)


# ---------------------------------------------------------------------- noun phrases
def _who(game: Hand, seat: int) -> Any:
    """A seat as messages name it: the player's name when the game was given names, else
    "seat N" (numbered from 0, as the API numbers seats)."""
    return game.names[seat] if game.state.named else msg("explain.seat", n=seat)


def describe(play: Play) -> Msg:
    """A play in a few words (as Play.describe): ``a pair of twos``."""
    if not play.keys:
        return msg("noun.pass")
    if play.shape is None:
        return msg("noun.no_combination", cards=str(play))
    top_rank = play.keys[-1] >> 2
    if play.shape in SET_SHAPES:
        if top_rank == TWO:
            return msg(f"noun.twos.{play.shape}")
        return msg(f"noun.{play.shape}.cards", cards=str(play))
    width = SEQUENCES[play.shape][0]
    return msg(f"noun.seq.{play.shape}.{width}.cards", n=play.length, cards=str(play))


def pattern_words(pattern: Pattern) -> Msg:
    """A chop pattern in words (as Pattern.words): ``four or more consecutive pairs``."""
    text = str(pattern)
    if ":" not in text:
        return msg(f"noun.pattern.{text}")
    more = "more" if pattern.or_more else "exact"
    n = pattern.ranks
    return msg(f"noun.pattern.{pattern.shape}.{more}", n=msg(f"num.{n}") if n <= 13 else n)


def shape_noun(play: Play) -> Msg:
    shape = play.shape or "single"
    if shape in SEQUENCES:
        width = SEQUENCES[shape][0]
        return msg(f"noun.shape.{shape}.{width}", n=len(play.keys) // width)
    return msg(f"noun.shape.{shape}")


# ---------------------------------------------------------------------- reasons
def _phase_first(game: Hand, seat: int) -> Msg:
    phase = game.phase
    turn = game.turn
    assert turn is not None
    if phase == "claim":
        return msg("explain.phase.claim", name=_who(game, turn))
    if phase == "return":
        return msg("explain.phase.return", name=_who(game, turn))
    return msg("explain.phase.trade", name=_who(game, turn))


def _out_of_turn(game: Hand, seat: int, move: Move) -> Msg:
    turn = game.turn
    assert turn is not None
    base = {"turn": _who(game, turn), "name": _who(game, seat)}
    rules = game.rules
    if rules.free_chops and not rules.chop_out_of_turn:
        if game.is_out(seat):
            return msg("explain.out.placed", name=_who(game, seat))
        if seat == game.table_seat:
            return msg("explain.out.own_play", **base)
        free = [pattern_words(p) for p in rules.free_chops]
        if game.table is None or not game.state.mg.is_free_target(game.table):
            return msg("explain.out.free_only", free=free, **base)
        if isinstance(move, Play) and move.keys:
            missing = _missing(game, seat, move)
            if missing:
                return missing
        return msg("explain.out.free_beats", free=free, table=describe(game.table), **base)
    if not rules.chop_out_of_turn:
        return msg("explain.out.turn", **base)
    if not game.hand(seat):
        return msg("explain.out.played_out", name=_who(game, seat))
    if game.table is None or not game.state.window:
        return msg("explain.out.moment", **base)
    if isinstance(move, Play) and move.keys and move.shape is not None:
        table = game.table
        if locked(game.rules, game.state, seat) and not rules.chop_after_pass:
            return msg("explain.out.passed", name=_who(game, seat))
        missing = _missing(game, seat, move)
        if missing:
            return missing
        bombs = _bombs(game, table)
        if not bombs:
            return msg("explain.out.chop_none", table=describe(table), **base)
        return msg("explain.out.chop_only", table=describe(table), bombs=bombs, **base)
    return msg("explain.out.chop_just_made", **base)


def _missing(game: Hand, seat: int, play: Play) -> Msg | None:
    order = game.rules.suit_order
    to_key = CODE_TO_KEY[order]
    held = Counter(game.state.hands[seat])
    want = Counter(to_key[c.code] for c in play.cards)
    lacking = [k for k, c in want.items() if held[k] < c]
    if lacking:
        text = ", ".join(KEY_TEXT[order][k] for k in sorted(lacking))
        return msg("explain.missing", cards=text)
    return None


def _shape_problem(game: Hand, play: Play) -> Msg:
    rules = game.rules
    keys = play.keys
    structural = classify(keys)
    cards = str(play)
    if rules.follow_suit and structural in ("pair", "run", "chain"):
        return msg(f"explain.shape.follow_suit.{structural}", cards=cards)
    if structural == "run" and keys[-1] >> 2 == TWO and not rules.twos_in_runs:
        return msg("explain.shape.two_in_run", cards=cards)
    if structural in ("chain", "triple_chain", "quad_chain"):
        if keys[-1] >> 2 == TWO and not rules.twos_in_chains:
            return msg("explain.shape.two_in_chain", cards=cards)
        if structural == "triple_chain" and not rules.triple_chains:
            return msg("explain.shape.triple_chains", cards=cards)
        if structural == "quad_chain" and not rules.quad_chains:
            return msg("explain.shape.quad_chains", cards=cards)
    ranks = [k >> 2 for k in keys]
    if ranks[0] == 0 and ranks[-1] == TWO:
        return msg("explain.shape.corner", cards=cards)
    return msg("explain.shape.none", cards=cards)


def _bombs(game: Hand, table: Play) -> list[Msg]:
    entries = game.state.mg.entries_against(table)
    bombs = [msg("noun.bomb.higher", bomb=pattern_words(e.bomb)) if e.higher
             else pattern_words(e.bomb) for e in entries]
    if game.rules.four_twos_bomb:
        bombs.append(msg("noun.twos.quad"))
    return list({render(b): b for b in bombs}.values())


def _explain_play(game: Hand, seat: int, play: Play) -> Msg:
    rules = game.rules
    table = game.table
    if not play.keys:
        if table is None:
            if game.state.no_pass_lead:
                return msg("explain.pass.opener_passed")
            return msg("explain.pass.leading")
        return msg("explain.pass.not_now")
    missing = _missing(game, seat, play)
    if missing:
        return missing
    if play.shape is None:
        return _shape_problem(game, play)
    if table is None:
        low = game.state.opening_lowest
        if game.state.opening and low is not None:
            low_text = KEY_TEXT[rules.suit_order][low]
            if rules.opening == "lowest_single" and play.keys != (low,):
                return msg("explain.lead.lowest_single", card=low_text)
            if rules.opening == "contains_lowest" and low not in play.keys:
                return msg("explain.lead.contains_lowest", card=low_text)
        if game.state.first_play and rules.opening_no_chain and play.shape == "chain":
            return msg("explain.lead.no_chain")
        return msg("explain.lead.not_now")
    if game.stacking:
        return msg(f"explain.stacking.{table.shape or 'single'}")
    if locked(game.rules, game.state, seat):
        bombs = _bombs(game, table)
        if not bombs:
            return msg("explain.passed.chop_none", table=describe(table))
        return msg("explain.passed.chop_only", table=describe(table), bombs=bombs)
    return _not_a_beat(game, play, table)


def _not_a_beat(game: Hand, play: Play, table: Play) -> Msg:
    shape = table.shape or "single"
    same = play.shape == shape and len(play.keys) == len(table.keys)
    is_target = game.state.mg.is_target(table)
    cards, on_table = str(play), str(table)
    if same and game.rules.follow_suit and play.keys[-1] > table.keys[-1]:
        keep = shape if shape in ("single", "pair", "chain", "triple", "run") else "other"
        return msg(f"explain.beat.follow_suit.{keep}", cards=cards, table=on_table)
    if same:
        key = "explain.beat.tie" if table.keys[-1] == play.keys[-1] else "explain.beat.higher"
        return msg(key, cards=cards, table=on_table, shape=shape_noun(table))
    if (is_target and (play.shape in ("quad", *SEQUENCES) or play.shape != shape)
            and (game.state.mg.entries_against(table) or game.rules.four_twos_bomb)):
        return msg("explain.beat.or_chop", table=describe(table), shape=shape_noun(table),
                   bombs=_bombs(game, table))
    if play.shape == shape:
        return msg("explain.beat.length", cards=cards, table=on_table, shape=shape_noun(table))
    return msg("explain.beat.only", table=describe(table), shape=shape_noun(table))


def _explain_action(game: Hand, seat: int, action: Action) -> Msg:
    phase = game.phase
    kind = action.kind
    turn = _who(game, game.turn or 0)
    if kind in CLAIM_KINDS:
        if phase != "claim":
            return msg("explain.claim.none")
        if seat != game.turn:
            return msg("explain.claim.turn", name=turn)
        if action.win:
            return msg("explain.claim.not_held", name=_who(game, seat), win=msg(f"win.name.{action.win}"))
        return msg("explain.claim.not_held_any", name=_who(game, seat))
    if kind == "give":
        return msg("explain.give")
    if kind == "return":
        if phase != "return":
            return msg("explain.return.none")
        if seat != game.turn:
            return msg("explain.return.turn", name=turn)
        count = game.state.returns[0][2]
        if len(action.cards) != count:
            return msg("explain.return.count.one" if count == 1 else "explain.return.count.other",
                       n=count)
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            msg("explain.return.not_allowed")
    if phase != "trade":
        return msg("explain.trade.none") if game.rules.trading == "mutual" or phase == "play" \
            else msg("explain.trade.not_played")
    if seat != game.turn:
        return msg("explain.trade.turn", name=turn)
    pending = game.state.pending
    if kind == "offer":
        if pending is not None:
            return msg("explain.trade.answer_first")
        if action.other == seat or action.other is None or not 0 <= action.other < game.players:
            return msg("explain.trade.other_seat")
        if (seat, action.other) in game.state.offered:
            return msg("explain.trade.offered", name=_who(game, seat),
                       other=_who(game, action.other))
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            msg("explain.trade.offer_not_allowed")
    if kind == "answer":
        if pending is None or pending[3] is not None or pending[1] != seat:
            return msg("explain.trade.no_offer")
        if action.other != pending[0]:
            return msg("explain.trade.answer_from", seat=pending[0])
        if len(action.cards) != len(pending[2]):
            return msg("explain.trade.equal", n=len(pending[2]))
        return _missing(game, seat, Play.from_cards(action.cards, game.rules)) or \
            msg("explain.trade.answer_not_allowed")
    if kind in ("accept", "refuse"):
        if pending is None:
            return msg("explain.trade.nothing")
        return msg("explain.trade.with_seat", seat=pending[1] if pending[0] == seat else pending[0])
    if kind == "done" and pending is not None:
        return msg("explain.trade.settle")
    return msg("explain.action.not_allowed")
