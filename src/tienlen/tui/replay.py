"""Step through a saved record, forwards and back (``tienlen replay FILE``).

A record holds every dealt hand, so the replay shows every seat's cards.

The states come from :func:`tienlen.stepping.states`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from ..game import Game
from ..i18n import display_name, rules_name, t
from ..paywords import payment_line, short_line
from ..play.controller import action_words, chop_moment_words, chop_said, place_word
from ..session import Session
from ..shapes import Play
from ..stepping import states as replay_states
from .app import localise_bindings, table_felt
from .widgets import FeltPanel, InfoPanel, cards_text, move_text

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-background; padding: 0 1; }
#top { height: 1fr; }
#felt { width: 3fr; height: 100%; border: round $secondary; padding: 0 1; }
#table { width: 2fr; height: 100%; border: round $secondary; padding: 0 1; }
#seats { height: auto; max-height: 12; border: round $accent; padding: 0 1; }
#result { height: 2; padding: 0 1; }
"""


class ReplayApp(App[None]):
    """A record, action by action: ← → step, PgUp PgDn change hand, Home End jump."""

    TITLE = "Tiến Lên replay"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("right,space", "step(1)", "Forward", key_display="→"),
        Binding("pageup", "hand(-1)", "Prev hand", key_display="PgUp"),
        Binding("pagedown", "hand(1)", "Next hand", key_display="PgDn"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(1)", "End"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, session: Session, source: str = "record", lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        localise_bindings(self, lang)
        self.session = session
        self.source = source
        self.hands = [replay_states(game) for game in session.games]
        self.hand = 0
        self.step = 0

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):  # the felt as the game draws it, the moves beside it
            felt = FeltPanel(self._felt_lines, id="felt")
            felt.border_title = t("tui.panel.table", self.lang)
            yield felt
            table = InfoPanel(id="table")
            table.border_title = t("tui.panel.log", self.lang)
            yield table
        seats = InfoPanel(id="seats")
        seats.border_title = t("replay.hands", self.lang)
        yield seats
        yield Static(id="result")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.refresh_screen()
        self.call_after_refresh(self.refresh_screen)  # again, once the table has its size

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_screen)

    @property
    def state(self) -> Game:
        return self.hands[self.hand][self.step]

    def action_step(self, by: int) -> None:
        self.step = max(0, min(self.step + by, len(self.hands[self.hand]) - 1))
        self.refresh_screen()

    def action_hand(self, by: int) -> None:
        self.hand = max(0, min(self.hand + by, len(self.hands) - 1))
        self.step = 0
        self.refresh_screen()

    def action_jump(self, end: int) -> None:
        self.step = (len(self.hands[self.hand]) - 1) if end else 0
        self.refresh_screen()

    def _felt_lines(self, width: int, height: int) -> list[Text]:
        """The felt at this step, as the game draws it."""
        game = self.state
        names = [display_name(n, self.lang) for n in game.names]
        totals = game.scores if game.is_over else [0] * game.players
        return table_felt(game.view(0), names, round_plays(self.hands[self.hand], self.step),
                          totals, game.turn, width, height, self.lang,
                          chop=chop_moment(self.hands[self.hand], self.step, names, self.lang))

    def refresh_screen(self) -> None:
        game = self.state
        names = [display_name(n, self.lang) for n in game.names]
        self.query_one("#felt", FeltPanel).redraw()
        steps = len(self.hands[self.hand]) - 1
        title = Text(t("replay.title", self.lang, hand=self.hand + 1, hands=len(self.hands),
                       step=self.step, steps=steps, rules=rules_name(game.rules.name, self.lang),
                       file=Path(self.source).name), no_wrap=True, overflow="ellipsis")
        self.query_one("#title", Static).update(title)
        lines: list[Text | str] = []
        if game.table is not None and game.table_seat is not None:
            line = Text(t("replay.to_beat", self.lang) + " ")
            line.append_text(cards_text(game.table.cards))
            line.append("  " + t("replay.by", self.lang, name=names[game.table_seat]))
            lines.append(line)
        elif game.is_over:
            lines.append(Text(t("tui.table.over", self.lang), style="bold"))
        else:
            lines.append(t(f"tui.table.before.{game.phase}", self.lang) if game.phase != "play"
                         else t("replay.new_round", self.lang))
        if game.turn is not None:
            lines.append(Text(t("replay.turn_stacking" if game.stacking else "replay.turn",
                                self.lang, name=names[game.turn])))
        lines.append(Text("─" * 40, style="dim"))
        history = game.history
        room = self.query_one("#table", InfoPanel).content_size.height or 8
        entries: list[Text] = []
        width = max(12, (self.query_one("#table", InfoPanel).content_size.width or 40) - 1)
        for number, (seat, move) in enumerate(history, 1):
            line = Text(f"{number:>3}. {names[seat]}: ", no_wrap=True)
            line.append_text(move_text(action_words(move, names, lang=self.lang)))
            if number == len(history):
                line.stylize("bold")
            entries.append(line)
            for p in game.payments:
                if p.kind == "chop" and p.at == number:  # wrapped: the panel is half the screen
                    entries += [move_text(row, "italic yellow") for row in textwrap.wrap(
                        short_line(p, names, self.lang), width, initial_indent="     ",
                        subsequent_indent="       ")]
        if game.is_over and game.payments:  # every payment, itemised
            entries += [Text(row, style="bold")
                        for row in textwrap.wrap(t("plain.payments", self.lang), width)]
            for p in game.payments:
                rows = textwrap.wrap(payment_line(p, names, self.lang), width - 3,
                                     subsequent_indent="      ")
                entries += [move_text(f"  · {row}" if not i else row) for i, row in enumerate(rows)]
        lines += entries[-(room - len(lines)):] if room > len(lines) else []
        self.query_one("#table", InfoPanel).show(lines)
        seat_lines: list[Text | str] = []
        width = max(8, max(len(n) for n in names))
        for seat in range(game.players):
            mark = "▶" if seat == game.turn else " "
            status = (place_word(game.finish_order.index(seat), game.players, self.lang)
                      if seat in game.finish_order else
                      t("tui.passed", self.lang) if game.passed[seat] else "")
            line = Text(f"{mark} {names[seat]:<{width}} {len(game.hand(seat)):>2} {status:<6} ",
                        no_wrap=True)
            line.append_text(cards_text(game.hand(seat)))
            seat_lines.append(line)
        self.query_one("#seats", InfoPanel).show(seat_lines)
        result = ""
        if game.is_over:
            order = ", ".join(f"{place_word(i, game.players, self.lang)} {names[s]}"
                              for i, s in enumerate(game.finish_order))
            units = ", ".join(f"{names[s]} {u:+d}" for s, u in enumerate(game.scores))
            result = t("replay.result", self.lang, order=order, units=units)
        self.query_one("#result", Static).update(result)


def chop_moment(states: list[Game], step: int, names: list[str],
                lang: str = "en") -> str | None:
    """When the play on the table after ``step`` actions chopped another: the chop and what it
    paid, in words (the felt's caption, a moment of its own, as in the game); None otherwise."""
    game = states[step]
    if game.table is None or game.table_seat is None:
        return None
    made = next((k for k in range(step, 0, -1)
                 if states[k].history[-1] == (game.table_seat, game.table)), None)
    if made is None:
        return None
    before = states[made - 1]
    owner = before.table_seat if before.table is not None else None
    words = chop_said(game.table_seat, game.table, before.table, owner, names, lang)
    if words is None:
        return None
    at = len(states[made].history)
    paid = [p for p in game.payments if p.kind == "chop" and p.at == at]
    return chop_moment_words(words, paid, names, lang)


def round_plays(states: list[Game], step: int) -> dict[int, Play]:
    """Each seat's last play or pass of the round in progress after ``step`` actions of a hand
    (``states``: the hand after each of its actions)."""
    plays: dict[int, Play] = {}
    for k in range(1, step + 1):
        seat, move = states[k].history[-1]
        if isinstance(move, Play):
            plays[seat] = move
        if states[k - 1].table is not None and states[k].table is None:  # the round ended
            plays = {}
    return plays
