"""A person's game against bots, apart from the screen: whose decision it is, the bots'
moves, every decision the rules ask of the human, hints, and saving the record (for the
full-screen game, :mod:`tienlen.tui`, and the line-by-line game, :mod:`tienlen.lineplay`).

The human always sits at seat 0. The screen asks :meth:`Controller.decision` what the
human is asked now (a :class:`Prompt`; ``None``: a bot acts, or the hand is over), calls
:meth:`Controller.bot_step` to let one bot act (pacing is the screen's business), and
turns the keys into :meth:`Controller.confirm` (Enter: play, chop, offer, answer, accept,
claim, return) and :meth:`Controller.decline` (``p``: pass, no chop, done, refuse,
decline).

>>> from tienlen import Rules
>>> c = Controller(Rules.preset("pagat"), players=4, seed=3)
>>> while c.decision() is None and not c.game.is_over:
...     _ = c.bot_step()
>>> c.decision().kind
'play'
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import fast
from ..actions import Action, ActionKind, Hidden, Move
from ..arena import BotSpec
from ..bots import Bot, bot_names
from ..cards import Card, cards_text
from ..errors import IllegalPlay, TienLenError, error
from ..explain import pattern_words
from ..game import Game
from ..hints import Hint, prepare, reason_words, suggest
from ..i18n import YOU, Msg, bot_name, display_name, msg, os_reason, render, t, tn
from ..payments import Chop, Payment, is_chop
from ..paywords import chop_words, payment_line, pays_words, place_words, short_line
from ..rules import Rules
from ..session import Session
from ..shapes import PASS, Play
from ..stepping import iter_states
from ..turns import Decision, OutOfTurn, Turns, bot_answers, view_for_decision
from ..turns import asked as asked_now
from ..view import View

HUMAN = 0


def chop_said(seat: int, played: Move, table: Play | None, owner: int | None,
              names: Sequence[str], lang: str = "en", you: int | None = None) -> str | None:
    """The chop ``seat``'s action ``played`` made, in words (``table``, ``owner``: what was on
    the table before it; ``you``: the seat said "you"), or None when it was no chop."""
    if isinstance(played, Play) and table is not None and owner is not None \
            and owner != seat and is_chop(played, table):
        return chop_words(Chop(seat, owner, table, played, 0), names, lang, you)
    return None


def chop_moment_words(chop: str, paid: Sequence[Payment], names: Sequence[str],
                      lang: str = "en", you: int | None = None) -> str:
    """A chop's moment in a line, as the felt's caption says it: the chop and what it paid."""
    return " · ".join([chop, *(pays_words(p, names, lang, you) for p in paid)])


def action_words(move: Move | Hidden, names: Sequence[str], you: int | None = None,
                 lang: str = "en") -> str:
    """A move as the log says it, from its typed fields: a play stays its cards, a pass and an
    action are said in ``lang`` (``offer 2 5s 6d`` -> ``offers Bot 2 5s 6d``; a trade between
    other seats, :class:`~tienlen.actions.Hidden`, with the number of its cards); the seat
    ``you`` is called "you"."""
    if isinstance(move, Play):
        return str(move) if move.keys else t("move.pass", lang)
    if move.kind is None:  # an answer to an instant-win call, not yet shown
        return t("tui.action.answered", lang)
    if isinstance(move, Action) and move.kind == "claim":
        return t("tui.action.claim", lang, win=t(f"tui.win.{move.win}", lang))
    whom = ""
    if move.other is not None:
        whom = t("tui.you_object", lang) if move.other == you else names[move.other]
    if isinstance(move, Hidden):
        cards = tn("tui.cards", move.count, lang)
    else:
        cards = " ".join(str(c) for c in move.cards)
    return t(f"tui.action.{move.kind}", lang, whom=whom, cards=cards)


def _illegal(reason: Msg) -> IllegalPlay:
    """A refusal of the terminal game: its English text, and its message for other languages."""
    err = IllegalPlay(render(reason))
    err.reason = reason
    return err


PLACE_WORDS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def place_word(i: int, players: int, lang: str = "en") -> str:
    """Place ``i`` (0: first) in words; Vietnamese names the last place apart (Bét)."""
    return place_words(players, lang)[i]


@dataclass(frozen=True)
class Prompt:
    """What the human is asked now.

    kind: ``play`` (a turn, ``stacking`` when it is a stacking turn), ``chop`` (an
    out-of-turn chop may be made; ``free`` under free_chops), ``claim`` (an optional
    instant win), ``offer`` (a mutual-trading turn), ``answer`` (another seat offers a
    trade), ``settle`` (the answer to the human's offer is on the table), ``return``
    (president return).
    """

    kind: str
    prompt: str
    legal: tuple[Move, ...]
    count: int = 0  # how many cards an answer or a return takes
    other: int | None = None  # the other seat of a trade or a return
    stacking: bool = False
    free: bool = False  # a chop offered under free_chops (§11): at any moment, out of turn


def check_bots(specs: Sequence[str], players: int) -> tuple[str, ...]:
    """One built-in bot per opponent; a single name stands for all of them."""
    specs = tuple(s.strip() for s in specs if s.strip())
    if not specs:
        specs = ("heuristic",)
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise error(TienLenError, "err.play.bots_count", opponents=players - 1, n=len(specs))
    for spec in specs:
        if spec.startswith("cmd:"):
            raise error(TienLenError, "err.play.bots_builtin", bot=repr(spec),
                        bots=", ".join(bot_names()))
        BotSpec(spec).make(0, 5.0)  # a bad name or option fails here, with the reason
    return specs


def _bot_asked(decision: Decision) -> bool:
    return decision.seat != HUMAN


def _human(seat: int) -> bool:
    return seat == HUMAN


class Controller:
    """One human (seat 0) against bots, hand after hand."""

    def __init__(self, rules: Rules, players: int = 4, bots: Sequence[str] = ("heuristic",),
                 seed: int | None = None, name: str = "You", lang: str = "en") -> None:
        self.lang = lang
        name = name.strip()
        if not name:
            raise error(TienLenError, "err.play.name_empty")
        self.specs = check_bots(bots, players)
        # the record keeps the names the program gives as they are in every language ("Bot 1",
        # "You"); the table shows them in the player's words ("Máy 1", "Bạn")
        stored = [name] + [bot_name(i) for i in range(1, players)]
        if name in stored[1:]:
            stored[0] = t("tui.name_you", "en", name=name)
        self.session = Session(rules, players, seed, names=stored)
        self.names = shown_names(stored, name, lang)
        base = 0 if seed is None else seed * 1000
        self.bots: dict[int, Bot] = {
            seat: BotSpec(spec).make(base + seat, 5.0)
            for seat, spec in enumerate(self.specs, 1)
        }
        self._turns: Turns | None = None  # who is asked, and the chops let go (this hand)
        # (hand number, history length) after a move that ended a round -> (winner, leader)
        self._breaks: dict[tuple[int, int], tuple[int, int | None]] = {}
        # (hand number, history length) -> what that action brought about: a chop, a player
        # out and their place, one card left (the log's call-outs)
        self._callouts: dict[tuple[int, int], list[str]] = {}
        # (hand number, history length) after a chop -> the chop in words (the felt's caption)
        self._chops: dict[tuple[int, int], str] = {}
        self._view_key: tuple[int, int] | None = None
        self._view: View | None = None

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def rules(self) -> Rules:
        return self.session.rules

    @property
    def players(self) -> int:
        return self.session.players

    @property
    def hand_number(self) -> int:
        return len(self.session.games)

    def view(self) -> View:
        """The human's view (cached until the next action)."""
        key = (len(self.session.games), len(self.game.history))
        if self._view is None or self._view_key != key:
            self._view = self.game.view(HUMAN)
            self._view_key = key
        return self._view

    def turns(self) -> Turns:
        """The turn API of the hand in play: who is asked, and who let a chop go."""
        if self._turns is None or self._turns.game is not self.game:
            self._turns = Turns(self.game)
        return self._turns

    def asked(self) -> Decision | None:
        """The decision the game waits for (out-of-turn chops first), None when it is over:
        every seat that may chop out of turn is asked, whatever it holds (so that the asking
        reveals nothing); the human, who sees only their own cards, is asked only when holding
        one (:attr:`~tienlen.turns.OutOfTurn.HOLDING`: an empty offer is let go for them)."""
        return asked_now(self.turns(), person=_human, policy=OutOfTurn.HOLDING)

    def waiting_for(self) -> int | None:
        """The seat whose decision the game waits for (out-of-turn chops first), None when over."""
        asked = self.asked()
        return None if asked is None else asked.seat

    def chop_chance(self) -> bool:
        """Whether the seat waited for is offered an out-of-turn chop (not its own turn)."""
        asked = self.asked()
        return asked is not None and asked.out_of_turn

    # ------------------------------------------------------------------ the human's decisions
    def decision(self) -> Prompt | None:
        """What the human is asked now, or None when a bot acts or the hand is over."""
        if self.waiting_for() != HUMAN:
            return None
        view = self.view()
        names = self.names
        if self.chop_chance():
            table = view.table
            who = names[view.table_seat] if view.table_seat is not None else "?"
            chops = ", ".join(str(m) for m in view.legal[:4])
            if view.free_chop:  # §11: a free chop, which the prompt names as such
                pattern = [pattern_words(p) for p in self.rules.free_chops]
                return Prompt("chop", self.t("tui.prompt.free_chop", name=who, table=table,
                                             chops=chops, pattern=pattern), view.legal,
                              free=True)
            return Prompt("chop", self.t("tui.prompt.chop", name=who, table=table, chops=chops),
                          view.legal)
        legal = view.legal
        actions = [m for m in legal if isinstance(m, Action)]
        kinds = {m.kind for m in actions}
        if view.phase == "claim":
            wins = [m.win for m in actions if m.kind == "claim" and m.win]
            words = [msg(f"tui.win.{w}") for w in wins]
            return Prompt("claim", self.t("tui.prompt.claim", wins=words), legal)
        if view.phase == "return":
            giver = next(m.other for m in actions if m.kind == "return")
            count = len(actions[0].cards)
            return Prompt("return", tn("tui.prompt.return", count, self.lang,
                                       name=names[giver or 0]),
                          legal, count=count, other=giver)
        if view.phase == "trade":
            if "answer" in kinds or kinds == {"refuse"}:
                offerer = next(m.other for m in actions if m.kind == "refuse")
                offer = self._last_offer(offerer or 0)
                count = len(offer)
                return Prompt("answer", tn("tui.prompt.answer", count, self.lang,
                                           name=names[offerer or 0], cards=" ".join(offer)),
                              legal, count=count, other=offerer)
            if "accept" in kinds:
                target = actions[0].other or 0
                answer = self._last_answer(target)
                return Prompt("settle", self.t("tui.prompt.settle", name=names[target],
                                               cards=" ".join(answer)), legal, other=target)
            targets = sorted({m.other for m in actions if m.kind == "offer" and m.other is not None})
            return Prompt("offer", self.t("tui.prompt.offer", seats=", ".join(
                f"{s} {names[s]}" for s in targets)), legal,
                          other=targets[0] if targets else None)
        if view.stacking:
            shape = view.table.shape if view.table else None
            return Prompt("play", self.t("tui.prompt.stacking",
                                         shape=msg(f"noun.shape.{shape}") if shape in
                                         ("single", "pair", "triple", "quad") else shape or ""),
                          legal, stacking=True)
        if view.table is None:
            prompt = self.t("tui.prompt.lead")
        else:
            who = names[view.table_seat] if view.table_seat is not None else "?"
            prompt = self.t("tui.prompt.beat", name=who, table=view.table)
        return Prompt("play", prompt, legal)

    def _last_offer(self, offerer: int) -> list[str]:
        return self._last_cards(offerer, "offer")

    def _last_answer(self, target: int) -> list[str]:
        return self._last_cards(target, "answer")

    def _last_cards(self, seat: int, kind: ActionKind) -> list[str]:
        """The cards of ``seat``'s last ``kind`` (offer or answer) to the human."""
        for actor, move in reversed(self.view().events):
            if actor == seat and isinstance(move, Action) and move.kind == kind \
                    and move.other == HUMAN:
                return cards_text(move.cards).split()
        return []

    def confirm(self, cards: Sequence[Card] = (), target: int | None = None) -> Move:
        """Enter: make the decision with the selected cards. Raises IllegalPlay with the reason
        (nothing changes) when the rules do not allow it."""
        d = self._asked()
        move: Move
        if d.kind in ("play", "chop"):
            if not cards:
                raise _illegal(msg("tui.err.select_or_pass") if any(m == PASS for m in d.legal)
                               else msg("tui.err.select"))
            move = Play.from_cards(cards, self.rules)
        elif d.kind == "claim":
            move = next(m for m in d.legal if isinstance(m, Action) and m.kind == "claim")
        elif d.kind == "settle":
            move = Action("accept", d.other)
        elif d.kind in ("answer", "return"):
            if len(cards) != d.count:
                raise _illegal(msg("tui.err.exactly.one" if d.count == 1 else "tui.err.exactly.other",
                                   n=d.count, got=len(cards)))
            move = Action("answer" if d.kind == "answer" else "return", d.other,
                          tuple(sorted(cards)))
        else:  # offer
            if not cards:
                raise _illegal(msg("tui.err.offer_first"))
            seat = target if target is not None else d.other
            if seat is None or seat == HUMAN or not 0 <= seat < self.players:
                raise _illegal(msg("tui.err.trade_seat", last=self.players - 1))
            move = Action("offer", seat, tuple(sorted(cards)))
        self._act(HUMAN, move)
        return move

    def decline(self) -> Move | None:
        """``p``: pass, let an out-of-turn chop go, decline a claim, refuse a trade or make no
        more offers. Returns the action made (None for a chop let go)."""
        d = self._asked()
        move: Move
        if d.kind == "chop":
            self.turns().decline(HUMAN)
            return None
        if d.kind == "play":
            move = PASS
        elif d.kind == "claim":
            move = Action("decline")
        elif d.kind in ("answer", "settle"):
            move = Action("refuse", d.other)
        elif d.kind == "offer":
            move = Action("done")
        else:
            raise _illegal(msg("tui.err.must_return.one" if d.count == 1
                               else "tui.err.must_return.other", n=d.count))
        self._act(HUMAN, move)
        return move

    def play_text(self, text: str) -> Move:
        """Make the human's decision from its text, as a record writes it (``5s 5h``, ``pass``,
        ``offer 2 5s 6d``, ``claim dragon``): for the line-by-line game."""
        self._asked()
        self._act(HUMAN, text)
        return self.game.history[-1][1]

    def _act(self, seat: int, move: Move | str) -> None:
        """Make a move, and note where it ended a round (for the log's round breaks)."""
        game = self.game
        table = game.table
        table_seat = game.table_seat if table is not None else None
        placed = len(game.finish_order)
        game.play(move, seat=seat)
        at = (self.hand_number, len(game.history))
        if table_seat is not None and game.table is None and not game.is_over:
            self._breaks[at] = (table_seat, game.turn)
        chop = self._chop_words(seat, table, table_seat)
        if chop is not None:
            self._chops[at] = chop
        self._callouts[at] = ([chop + "."] if chop else []) + self._called_out(seat, placed)

    def _chop_words(self, seat: int, table: Play | None, owner: int | None) -> str | None:
        """The chop the action ``seat`` just made, in words (``table``, ``owner``: what was on
        the table before it), or None when it was no chop."""
        return chop_said(seat, self.game.history[-1][1], table, owner, self.names, self.lang,
                         self.you_seat())

    def chop_moment(self) -> str | None:
        """When the play on the table chopped another: the chop and what it paid, in words
        (the felt's caption, a moment of its own); None otherwise."""
        game, view = self.game, self.view()
        if view.table is None or view.table_seat is None:
            return None
        at = next((n for n in range(len(game.history), 0, -1)
                   if game.history[n - 1] == (view.table_seat, view.table)), None)
        words = self._chops.get((self.hand_number, at or 0))
        if words is None:
            return None
        paid = self._chop_payments().get(at or 0, [])
        return chop_moment_words(words, paid, self.names, self.lang, self.you_seat())

    def _called_out(self, seat: int, placed: int) -> list[str]:
        """What the action ``seat`` just made brought about besides a chop, in sentences: each
        player it put out and in what place (``placed``: how many were out before it), one card
        left."""
        game = self.game
        you = self.you_seat()
        played = game.history[-1][1]
        lines: list[str] = []
        for place in range(placed, len(game.finish_order)):
            out = game.finish_order[place]
            if not game.hand(out):  # out of cards (the last left holding cards is not "out")
                word = place_word(place, self.players, self.lang)
                lines.append(self.t("tui.call.you_out", place=word) if out == you else
                             self.t("tui.call.out", name=self.names[out], place=word))
        if isinstance(played, Play) and played.keys and len(game.hand(seat)) == 1:
            lines.append(self.t("tui.call.you_one_left") if seat == you else
                         self.t("tui.call.one_left", name=self.names[seat]))
        return lines

    def log(self) -> list[tuple[int | None, str]]:
        """The hand's actions as the human saw them, (seat, text), with a line (seat None)
        wherever a round ended (who won it and who leads the next) and for each chop payment
        after the action that paid it."""
        out: list[tuple[int | None, str]] = []
        paid = self._chop_payments()
        for index, (seat, move) in enumerate(self.view().events, 1):
            out.append((seat, self.words(move)))
            out += [(None, line) for line in self._callouts.get((self.hand_number, index), ())]
            end = self._breaks.get((self.hand_number, index))
            if end is not None:
                winner, leader = end
                out.append((None, self._round_words(winner, leader)))
            out += [(None, short_line(p, self.names, self.lang, self.you_seat()))
                    for p in paid.get(index, ())]
        return out

    def round_plays(self) -> dict[int, Play]:
        """Each seat's last play or pass of the round in progress."""
        plays: dict[int, Play] = {}
        for index, (seat, move) in enumerate(self.view().events, 1):
            if isinstance(move, Play):
                plays[seat] = move
            if (self.hand_number, index) in self._breaks:
                plays = {}
        return plays

    def _chop_payments(self) -> dict[int, list[Payment]]:
        """The hand's chop payments by when they were made (the history's length then)."""
        paid: dict[int, list[Payment]] = {}
        for p in self.view().payments:
            if p.kind == "chop":
                paid.setdefault(p.at, []).append(p)
        return paid

    def news(self) -> list[str]:
        """The chop payments the last action made, each in a sentence (for the message line)."""
        paid = self._chop_payments().get(len(self.game.history), [])
        return [self.payment_words(p) for p in paid]

    def payment_words(self, p: Payment) -> str:
        """A payment in a sentence: who pays whom, how many units, for what."""
        return payment_line(p, self.names, self.lang, self.you_seat())

    def you_seat(self) -> int | None:
        """The human's seat when they are called "You" (the messages say "you" then), else None."""
        return HUMAN if self._you() else None

    def words(self, move: Move | Hidden) -> str:
        """A move in words for the log, as the human sees it (plays stay their cards):
        ``offer 2 5s 6d`` -> ``offers Bot 2 5s 6d``."""
        return action_words(move, self.names, HUMAN if self._you() else None, self.lang)

    def t(self, key: str, **params: object) -> str:
        """A message in the game's language."""
        return t(key, self.lang, **params)

    def _you(self) -> bool:
        """Whether the human is called "You" (then the messages say "you")."""
        return self.names[HUMAN] == t("tui.you_name", self.lang)

    def _round_words(self, winner: int, leader: int | None) -> str:
        """The end of a round in a sentence: who won it and who leads the next."""
        names = self.names
        you = self._you()
        if leader is None or leader == winner:
            if you and winner == HUMAN:
                return self.t("tui.round.you_win_lead")
            return self.t("tui.round.win_lead", name=names[winner])
        if you and winner == HUMAN:
            return self.t("tui.round.you_win", lead=names[leader])
        if you and leader == HUMAN:
            return self.t("tui.round.win_you_lead", name=names[winner])
        return self.t("tui.round.win", name=names[winner], lead=names[leader])

    def _asked(self) -> Prompt:
        d = self.decision()
        if d is None:
            if self.game.is_over:
                raise _illegal(msg("tui.err.over"))
            seat = self.waiting_for()
            raise _illegal(msg("tui.err.wait", name=self.names[seat or 0]))
        return d

    def hint_view(self) -> View:
        """What a hint is computed from: the human's view (an out-of-turn chop may be let go,
        so passing is among its moves). Raises IllegalPlay when the human is not asked."""
        self._asked()
        asked = self.asked()
        assert asked is not None
        return view_for_decision(self.game, asked)

    def suggest(self, view: View | None = None, fast: bool | None = None) -> Hint:
        """The hint for the human: the coach's best move from the human's view
        (:func:`tienlen.hints.suggest`; ``fast=False``: on the pure engine, while the compiled
        one is being prepared), with its reason. Safe to call from another thread with a
        ``view`` taken before (:meth:`hint_view`)."""
        return suggest(self.hint_view() if view is None else view, fast=fast)

    def hint(self) -> Move:
        """The hint's move alone."""
        return self.suggest().move

    def reason_words(self, hint: Hint) -> str:
        """A hint's reason in the game's language."""
        return reason_words(hint.reason, self.lang)

    def fast_engine(self) -> bool:
        """Whether hints search on the fast path (its compiled code is loaded at start-up)."""
        return fast.enabled(self.rules)

    def prepare(self) -> bool:
        """Load (or compile) the fast path's code for the hints now (:func:`tienlen.hints.prepare`)."""
        return prepare(self.rules)

    # ------------------------------------------------------------------ bots
    def bot_step(self) -> str | None:
        """Let the bot the game waits for make one decision; returns what it did in words, or
        None when the human decides or the hand is over."""
        step = next(bot_answers(self.turns(), self._bot_answer, by_bot=_bot_asked, person=_human,
                                policy=OutOfTurn.HOLDING), None)
        if step is None:
            return None
        if step.declined:
            return ""  # letting a chop go is no action: nothing to show
        return self._said(step.decision.seat, step.move)

    def _bot_answer(self, asked: Decision) -> Move:
        """The answer of the bot asked."""
        return self.bots[asked.seat].choose(view_for_decision(self.game, asked))

    def _said(self, seat: int, move: Move) -> str:
        """Make a bot's move and say it, with what it brought about."""
        self._act(seat, move)
        said = f"{self.names[seat]}: {self.words(self.game.view(HUMAN).events[-1][1])}"
        for line in self.after_words():
            said = f"{said.rstrip('.')}. {line}"
        return said

    def callouts(self) -> list[str]:
        """What the last action brought about (a chop, a player out, one card left)."""
        return list(self._callouts.get((self.hand_number, len(self.game.history)), ()))

    def after_words(self) -> list[str]:
        """What the last action brought about, in sentences: the end of a round (who won it,
        who leads), then the chop payments it made."""
        at = (self.hand_number, len(self.game.history))
        out = list(self._callouts.get(at, ()))
        end = self._breaks.get(at)
        if end is not None:
            out.append(self._round_words(*end))
        return out + [f"{line}." for line in self.news()]

    def run_bots(self, limit: int = 100_000) -> list[str]:
        """Every bot decision until the human decides or the hand is over."""
        done: list[str] = []
        for _ in range(limit):
            said = self.bot_step()
            if said is None:
                break
            if said:
                done.append(said)
        return done

    # ------------------------------------------------------------------ practice
    def can_take_back(self) -> bool:
        """Whether you have a move of this hand to take back."""
        return self._last_own_move() is not None

    def _last_own_move(self) -> int | None:
        """The index in the history of your last decision this hand (not the game's own
        actions at its start, such as president gifts)."""
        game = self.game
        start = len(next(iter_states(game)).history)
        mine = [i for i, (seat, _) in enumerate(game.history) if seat == HUMAN and i >= start]
        return mine[-1] if mine else None

    def take_back(self) -> bool:
        """Take back your last move of this hand: the hand as it was just before it, the bots'
        later moves undone too. False when you have made none."""
        at = self._last_own_move()
        if at is None:
            return False
        self._restart_at(at)
        return True

    def deal_again(self) -> Game:
        """Play this hand's deal again from its start (the same cards, dealer and leader)."""
        self._restart_at(len(next(iter_states(self.game)).history))
        return self.game

    def _restart_at(self, length: int) -> None:
        """The hand in play replaced by its state after its first ``length`` actions."""
        state = next(s for s in iter_states(self.game) if len(s.history) == length).copy()
        self.session.games[-1] = state
        hand = self.hand_number
        for notes in (self._breaks, self._callouts, self._chops):
            for key in [k for k in notes if k[0] == hand and k[1] > length]:
                del notes[key]
        self._view = None

    # ------------------------------------------------------------------ hands and records
    def next_hand(self) -> Game:
        if not self.game.is_over:
            raise _illegal(msg("room.not_over"))
        return self.session.next_hand()

    def places(self) -> list[list[int]]:
        """Per seat: its place (0 first) in each finished hand."""
        out: list[list[int]] = [[] for _ in range(self.players)]
        for game in self.session.games:
            if game.is_over:
                for place, seat in enumerate(game.finish_order):
                    out[seat].append(place)
        return out

    def result_text(self) -> str:
        """The finished hand in one line: finish order and units."""
        game = self.game
        if not game.is_over:
            return ""
        names = self.names
        parts = []
        if game.instant_win is not None:
            seat, win = game.instant_win
            parts.append(self.t("tui.instant", name=names[seat],
                                win=msg(f"tui.win.{win}")))
        order = ", ".join(f"{place_word(i, len(names), self.lang)} {names[s]}"
                          for i, s in enumerate(game.finish_order))
        units = ", ".join(f"{names[s]} {u:+d}" for s, u in enumerate(game.scores))
        parts.append(self.t("tui.hand_over", order=order, units=units))
        return " ".join(parts)

    def totals(self) -> list[int]:
        """Units per seat in the session so far: the finished hands', and the payments the
        hand in play has made already (a chop is paid when its round ends)."""
        totals = list(self.session.totals)
        if not self.game.is_over:
            for p in self.view().payments:
                totals[p.payer] -= p.units
                totals[p.payee] += p.units
        return totals

    @classmethod
    def resume(cls, session: Session, bots: Sequence[str] = ("heuristic",),
               lang: str = "en") -> Controller:
        """Go on with a saved session of the terminal game (seat 0 is you, the others bots,
        as ``tienlen play`` writes them); a finished last hand is followed by the next."""
        names = session.names
        for seat in range(1, session.players):
            if names[seat] != bot_name(seat):
                raise error(TienLenError, "err.play.resume_foreign", seat=seat,
                            name=repr(names[seat]), bot=bot_name(seat))
        c = cls(session.rules, session.players, bots, name=names[0], lang=lang)
        c.session = session
        c.names = shown_names(names, names[0], lang)
        if session.game.is_over:
            session.next_hand()
        else:  # the hand in play made again move by move: its round breaks and call-outs
            game = session.game
            session.games[-1] = next(iter_states(game)).copy()
            for seat, move in game.history[len(session.game.history):]:
                c._act(seat, move)
        return c

    def record(self) -> str:
        return self.session.record()

    def save(self, path: str | Path) -> Path:
        target = Path(path).expanduser()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.record(), encoding="utf-8")
        except OSError as exc:
            raise error(TienLenError, "err.file.cannot_write", path=repr(str(target)),
                        error=os_reason(exc)) from None
        return target


def shown_names(stored: Sequence[str], name: str, lang: str) -> tuple[str, ...]:
    """The seats' names as the table shows them in ``lang`` (the names the program gives in
    its words: "Máy 1"), yours marked where it would read as a bot's ("Máy 1 (bạn)")."""
    shown = [display_name(n, lang) for n in stored]
    if name != YOU and shown[0] in shown[1:]:
        shown[0] = t("tui.name_you", lang, name=name)
    return tuple(shown)


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's folder for what tienlen keeps: ``$XDG_DATA_HOME/tienlen``, by default
    ``~/.local/share/tienlen`` (the terminal's records, the web server's database)."""
    environ = os.environ if environ is None else environ
    data = environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local" / "share"
    return base / "tienlen"


def records_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the terminal game saves its records: ``$XDG_DATA_HOME/tienlen/records``, by
    default ``~/.local/share/tienlen/records``."""
    return data_dir(environ) / "records"


def tienlen_command(argv0: str | None = None) -> list[str]:
    """The words that run this ``tienlen`` from any shell: the absolute path of the running
    ``tienlen`` executable, else this Python with ``-m tienlen``."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    program = Path(argv0)
    if program.name == "tienlen" and program.is_file():
        return [str(program.resolve())]
    return [sys.executable, "-m", "tienlen"]


def replay_command(path: str | Path, argv0: str | None = None) -> str:
    """The shell command that replays the record at ``path``, quoted for any shell."""
    return shlex.join([*tienlen_command(argv0), "replay", str(Path(path).resolve())])
