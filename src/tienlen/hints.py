"""A hint for a seat: the coach's best move from the seat's view, with a reason.

:func:`suggest` plays the best move of the coach's appraisal of the position
(:func:`tienlen.coach.appraise`: search's candidates on the same sampled deals, judged by what
the rules pay), the very appraisal the review of the same position makes, so the review never
calls a hint's move a mistake. A decision the coach does not appraise (an out-of-turn chop
offer, a trade, a phase other than the play) gets the ``heuristic`` bot's move. It sees only the
:class:`~tienlen.view.View` (the seat's hand, the others' counts, what was played), so a hint
never depends on a hidden card. :func:`reason_for` says
why in a player's terms, from the difference the move makes to the hand's plan
(:func:`tienlen.bots.split.best_split`: the fewest combinations the hand splits into) and from
the plays it was chosen over: "keeps your run of 5 cards", "holds back a pair of twos",
"a pass: every play breaks your run". Each reason is a :class:`Reason` (a catalogue key and its
parameters as text), said in a language by :func:`reason_words`.

:func:`prepare` compiles the fast path's kernels at start-up (one tiny search), so the first
hint does not wait for numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .actions import Move
from .bots import get_bot
from .bots.heuristic import HeuristicBot
from .bots.search import unsearched
from .bots.split import Counts, Group, best_split, counts_of
from .cards import ACE, CODE_TO_KEY, TWO, Card
from .coach import appraise
from .explain import shape_noun
from .i18n import Msg, msg, render, tn
from .shapes import Play

if TYPE_CHECKING:
    from .rules import Rules
    from .view import View

__all__ = ["Hint", "Reason", "prepare", "reason_for", "reason_words", "suggest"]


@dataclass(frozen=True)
class Reason:
    """Why a hint is the move it is: a catalogue key (``hint.*``) and its parameters as text
    (cards as the engine writes them: ``3s 4d 5c``; counts as digits)."""

    key: str
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Hint:
    move: Move
    reason: Reason


def suggest(view: View, fast: bool | None = None) -> Hint:
    """The coach's move from ``view`` (the same hint for the same view, in any process), with
    its reason; ``fast``: as for :func:`tienlen.coach.appraise`."""
    if len(view.legal) == 1:
        move = view.legal[0]
    elif unsearched(view) is not None:
        move = HeuristicBot(seed=0).choose(view)
    else:
        move = appraise(view, fast=fast).best.move
    return Hint(move, reason_for(view, move))


# ---------------------------------------------------------------------- the hand's plan
@dataclass(frozen=True)
class _Plan:
    """A hand's plan as the hint reads it: its cards by key, its rank counts, its best split."""

    cards: dict[int, Card]
    counts: Counts
    groups: tuple[Group, ...]
    run_top: int
    chain_top: int

    def after(self, play: Play) -> _Plan:
        """The plan of what is left once ``play`` is made."""
        cards = {k: c for k, c in self.cards.items() if k not in play.keys}
        return _plan_of(cards, self.run_top, self.chain_top)

    def broken_by(self, play: Play) -> list[Group]:
        """The plan's combinations of more than one card that ``play`` takes some cards from
        (not all: that spends it) and that are no longer in the plan of what it leaves,
        largest first."""
        taken = counts_of(play.keys)
        left = self.after(play).groups
        out = [g for g in self.groups if _size(g) > 1 and g not in left
               and any(taken[r] for r in range(g[1], g[1] + g[2]))
               and taken != _counts(g)]  # a play of the whole group spends it, breaks nothing
        return sorted(out, key=lambda g: -_size(g))

    def costs(self, play: Play) -> bool:
        """Whether ``play`` leaves more combinations than the plan less one: it breaks one."""
        return len(self.after(play).groups) >= len(self.groups)

    def text(self, group: Group) -> str:
        """The group's cards, as the engine writes them (the lowest suits of each rank)."""
        _, low, ranks, per = group
        picked: list[Card] = []
        for rank in range(low, low + ranks):
            held = sorted(k for k in self.cards if k >> 2 == rank)
            picked.extend(self.cards[k] for k in held[:per])
        return " ".join(str(c) for c in picked)


def _counts(group: Group) -> Counts:
    _, low, ranks, per = group
    return tuple(per if low <= r < low + ranks else 0 for r in range(13))


def _size(group: Group) -> int:
    return group[2] * group[3]


def _plan_of(cards: dict[int, Card], run_top: int, chain_top: int) -> _Plan:
    counts = counts_of(sorted(cards))
    return _Plan(cards, counts, best_split(counts, run_top, chain_top)[2], run_top, chain_top)


def _plan(view: View) -> _Plan:
    rules = view.rules
    to_key = CODE_TO_KEY[rules.suit_order]
    return _plan_of({to_key[c.code]: c for c in view.hand},
                    TWO if rules.twos_in_runs else ACE, TWO if rules.twos_in_chains else ACE)


# ---------------------------------------------------------------------- reasons
def reason_for(view: View, move: Move) -> Reason:
    """Why ``move`` is a good move for the seat of ``view``, in a player's terms; every reason
    is true of the position (``hint.search`` where none of the others applies)."""
    if not isinstance(move, Play):
        return Reason("hint.search")
    plan = _plan(view)
    plays = [m for m in view.legal if isinstance(m, Play) and m.keys]
    if not move.keys:
        return _pass_reason(plan, plays)
    if len(move.keys) == len(view.hand):
        return Reason("hint.last", (("cards", str(move)),))
    table = view.table
    if table is not None and table.keys and move.shape != table.shape:
        return Reason("hint.chop", (("table", str(table)), ("bomb", str(move))))
    rivals = [p for p in plays if p != move and (p.shape, len(p.keys)) == (move.shape, len(move.keys))]
    twos = _twos(plan)
    if twos and not _has_two(move) and any(_has_two(p) for p in rivals) and not plan.costs(move):
        return Reason("hint.twos", (("twos", str(twos)),))  # (a play that breaks a group says so)
    if len(move.keys) == 1 and ("single", move.keys[0] >> 2, 1, 1) in plan.groups:
        return Reason("hint.loose", (("card", str(move)),))
    after = plan.after(move)
    if not plan.costs(move):
        kept = [g for p in rivals for g in plan.broken_by(p) if g in after.groups]
        if kept:
            group = max(kept, key=_size)
            return Reason("hint.keeps", (("group", after.text(group)),))
    if table is None and rivals and all(move.keys[-1] < p.keys[-1] for p in rivals):
        return Reason("hint.lowest", (("play", str(move)),))
    if not plan.costs(move):
        return Reason("hint.clean", (("n", str(len(after.groups))),))
    broken = plan.broken_by(move)
    if broken:
        return Reason("hint.breaks", (("group", plan.text(broken[0])),))
    return Reason("hint.search")


def _pass_reason(plan: _Plan, plays: list[Play]) -> Reason:
    if not plays:
        return Reason("hint.pass.none")
    if all(plan.costs(p) for p in plays):
        shared = [g for g in plan.broken_by(plays[0]) if all(g in plan.broken_by(p) for p in plays)]
        if shared:
            return Reason("hint.pass.breaks", (("group", plan.text(shared[0])),))
        return Reason("hint.pass.costs")
    if all(_has_two(p) for p in plays):
        return Reason("hint.pass.twos")
    return Reason("hint.pass.wait")


def _has_two(play: Play) -> bool:
    return any(k >> 2 == TWO for k in play.keys)


def _twos(plan: _Plan) -> int:
    return plan.counts[TWO]


_TWOS: Final = ("", "single", "pair", "triple", "quad")


def reason_words(reason: Reason, lang: str) -> str:
    """``reason`` said in ``lang``: one line (card and combination words from the catalogue's
    ``noun.*``)."""
    params = dict(reason.params)
    words: dict[str, Msg | str] = dict(params)
    if "group" in params:
        group = Play.parse(params["group"])
        words["group"] = shape_noun(group)
        words["cards"] = params["group"]
    if "twos" in params:
        words["twos"] = msg(f"noun.twos.{_TWOS[min(int(params['twos']), 4)]}")
    if "play" in params:
        words["shape"] = shape_noun(Play.parse(params["play"]))
        words["cards"] = params["play"]
    if "bomb" in params:
        words["bomb"] = shape_noun(Play.parse(params["bomb"]))
    if reason.key == "hint.clean":
        return tn("hint.clean", int(params["n"]), lang)
    return render(msg(reason.key, **words), lang)


# ---------------------------------------------------------------------- start-up
def prepare(rules: Rules) -> bool:
    """With the fast extra installed and supporting ``rules``: compile (or load from numba's
    cache) the kernels the coach's appraisal and the search bot run on, with one tiny
    appraisal and one tiny search now, and return True; otherwise return False at once."""
    from . import fast
    from .game import Game

    if not fast.enabled(rules):
        return False
    game = Game.deal(rules, 4, seed=0)
    for _ in range(200):  # to the first decision with a choice (a search's own moment)
        if game.is_over:
            break
        seat = game.turn
        if seat is not None and unsearched(game.view(seat)) is None:
            appraise(game.view(seat), deals=4)  # the coach's kernels
            get_bot("search", seed=0, steps=200, worlds=4).choose(game.view(seat))  # inference's
            return True
        game.play(game.legal_plays()[0])
    fast.load()
    return True
