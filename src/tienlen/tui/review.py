"""The review of the hand just played, opened from the results (v): each of the player's
decisions graded by the coach, with its estimates after the move made and after the coach's
best move (see :mod:`tienlen.review`), stepped forwards and back with ← →.

The review is made in a worker thread, so the screen stays responsive; until it is made the
screen says how many decisions are reviewed so far.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..actions import Move
from ..coach import Estimate
from ..errors import TienLenError
from ..game import Game
from ..i18n import display_name, rules_name, t
from ..review import Decision, Review, cost_figures, move_words, review_game, review_summary
from .widgets import cards_text, move_text


class ReviewScreen(ModalScreen[None]):
    """A seat's decisions in a finished hand, one at a time: ← → step, Home End jump, esc
    closes. (Its footer's words are put in ``lang`` by whoever opens it:
    ``tui.app.localise_bindings``, which this module does not import, the app importing it.)"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("right,space", "step(1)", "Forward", key_display="→"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(1)", "End", show=False),
        Binding("escape,q,v", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    #review-box { width: 100%; max-width: 110; height: auto; max-height: 100%;
                  border: round $accent; background: $surface; padding: 0 1; }
    #review-scroll { height: auto; }
    #review-text { height: auto; }
    #review-keys { height: auto; }
    """

    def __init__(self, game: Game, seat: int, lang: str = "en", hand: int = 1,
                 fast: bool | None = None) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.lang = lang
        self.hand = hand
        self.fast = fast
        self.review: Review | None = None
        self.index = 0
        self.failure: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="review-box") as box:
            box.border_title = t("review.web.title", self.lang)
            with VerticalScroll(id="review-scroll"):
                yield Static(t("review.working", self.lang, done=0, total="…"), id="review-text")
            yield Static(Text(t("review.tui.keys", self.lang), style="bold"), id="review-keys")

    def on_mount(self) -> None:
        self.query_one("#review-scroll").styles.max_height = max(3, self.size.height - 3)
        self.run_worker(self._make, thread=True, exclusive=True)

    def _make(self) -> None:
        """In a worker thread: the review, told to the screen as it goes."""
        def told(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)
        try:
            review = review_game(self.game, self.seat, hand=self.hand, hands=self.hand,
                                 fast=self.fast,
                                 progress=told)
        except TienLenError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._made, review)

    def _progress(self, done: int, total: int) -> None:
        if self.review is None:
            self.query_one("#review-text", Static).update(
                t("review.working", self.lang, done=done, total=total))

    def _failed(self, reason: str) -> None:
        self.failure = reason
        self.query_one("#review-text", Static).update(Text(reason, style="bold red"))

    def _made(self, review: Review) -> None:
        self.review = review
        self.index = 0
        self.show()

    def show(self) -> None:
        """The decision at ``index``: what was on the table, the move made and the coach's best
        with their estimates, the grade, and every seat's cards then (cards with their suits, as
        on the table)."""
        review = self.review
        if review is None:
            return
        lang = self.lang
        names = [display_name(n, lang) for n in review.names]
        lines = [Text(t("review.tui.title", lang, hand=review.hand, hands=review.hands,
                        rules=rules_name(review.rules, lang), name=names[review.seat]),
                      style="bold"),
                 Text(t("review.tui.judged", lang, judged=t(
                     f"review.judged.{review.judged_by}", lang)), style="dim")]
        if review.decisions:
            d = review.decisions[self.index]
            lines += self._decision(review, d, names)
        else:
            none = t("review.none", lang)
            lines += [Text(""), Text(none[:1].upper() + none[1:])]  # a sentence on its own
        lines.append(Text(review_summary(review, lang), style="italic"))
        self.query_one("#review-text", Static).update(Text("\n").join(lines))

    def _decision(self, review: Review, d: Decision, names: list[str]) -> list[Text]:
        lang = self.lang
        four = bool(getattr(self.app, "four_colour", False))
        width = max(len(n) for n in [*names, t("review.web.you", lang), t("review.web.search", lang)])
        lines = [Text(""), Text(t("review.web.step", lang, i=self.index + 1, n=len(review.decisions))
                                + f" · #{d.number}", style="bold")]
        if d.table is not None:
            lines.append(move_text(f"{t('review.web.to_beat', lang)} {d.table}", four=four))

        def move_row(label: str, move: Move) -> Text:
            row = Text(f"{label:<{width}}  ")
            row.append_text(move_text(move_words(move, lang), "bold", four))
            return row

        if d.played is not None and d.best is not None and d.cost is not None:
            deals = " · " + t("review.tui.deals", lang, n=d.played.deals)
            if d.hinted:  # the verdict first, then the figures behind it
                lines.append(Text(t("review.web.hinted", lang) + deals, style="bold green"))
            else:
                lines.append(Text(t(f"review.web.grade.{d.cost.grade}", lang,
                                    **cost_figures(review, d.cost, lang)) + deals,
                                  style=_GRADE_STYLES[d.cost.grade]))
            rows = [(t("review.web.you", lang), d.played)]
            if not d.hinted:
                rows.append((t("review.web.search", lang), d.best))
            for label, est in rows:
                lines.append(move_row(label, est.move))
                lines.append(Text(" " * (width + 2) + _figures(review, est, lang), style="dim"))
        else:
            lines.append(move_row(t("review.web.you", lang), d.move))
            lines.append(Text(t("review.web.forced", lang) if d.kind == "forced" else
                              t("review.web.unsearched", lang, why=t(f"review.why.{d.kind}", lang)),
                              style="dim"))
        lines.append(Text(""))
        for seat, hand in enumerate(d.hands):
            row = Text(f"{names[seat]:<{width}}  ", style="bold" if seat == review.seat else "")
            row.append_text(cards_text(hand, four=four) if hand else Text("—"))
            lines.append(row)
        lines.append(Text(""))
        return lines

    def action_step(self, by: int) -> None:
        if self.review is None or not self.review.decisions:
            return
        self.index = max(0, min(self.index + by, len(self.review.decisions) - 1))
        self.show()

    def action_jump(self, end: int) -> None:
        if self.review is None or not self.review.decisions:
            return
        self.index = len(self.review.decisions) - 1 if end else 0
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)


_GRADE_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "bold red",
                 "blunder": "bold reverse red"}


def _figures(review: Review, estimate: Estimate, lang: str) -> str:
    """An estimate's figures in a line: the units with their 95% interval, and the chance of
    going out first with its own where the rules reward it (alone where they pay nothing)."""
    first = t("review.web.first", lang, first=f"{estimate.first:.1%}",
              low=f"{estimate.first_ci[0]:.1%}", high=f"{estimate.first_ci[1]:.1%}")
    units = t("review.web.units", lang, units=f"{estimate.units:+.2f}",
              low=f"{estimate.units_ci[0]:+.2f}", high=f"{estimate.units_ci[1]:+.2f}")
    if review.judged_by == "first":
        return first
    return f"{units}, {first}" if review.first_shown else units
