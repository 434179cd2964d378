"""The review of the hand just played, opened from the results (v): each of the player's
decisions with the search bot's estimates after it and after search's best move (see
:mod:`tienlen.review`), stepped forwards and back with ← →.

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

from ..errors import TienLenError
from ..game import Game
from ..i18n import t
from ..review import Review, decision_lines, review_game, review_summary, review_title


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
            review = review_game(self.game, self.seat, hand=self.hand, fast=self.fast,
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
        review = self.review
        if review is None:
            return
        lines = [Text(review_title(review, self.lang), style="bold")]
        if review.decisions:
            lines.append(Text(t("review.web.step", self.lang, i=self.index + 1,
                                n=len(review.decisions)), style="dim"))
            for i, line in enumerate(decision_lines(review, review.decisions[self.index],
                                                    self.lang)):
                style = "bold red" if "✗" in line else ("bold" if not i else "")
                lines.append(Text(line, style=style))
        else:
            lines.append(Text(t("review.none", self.lang)))
        lines.append(Text(review_summary(review, self.lang), style="italic"))
        self.query_one("#review-text", Static).update(Text("\n").join(lines))

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
