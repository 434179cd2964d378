"""The full-screen terminal game: you against bots, hand after hand (``tienlen play``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from ..actions import Action
from ..cards import Card
from ..errors import TienLenError
from ..shapes import Play
from .controller import HUMAN, Controller
from .sorting import by_combination, by_rank
from .widgets import CARD_LETTERS, CardView, HandView, InfoPanel, cards_text, move_text

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-background; padding: 0 1; }
#top { height: 1fr; }
#table { width: 1fr; height: 100%; border: round $secondary; padding: 0 1; }
#players { width: 44; height: 100%; border: round $secondary; padding: 0 1; }
#prompt { height: 2; padding: 0 1; }
#info { height: 1; padding: 0 1; }
HandView { height: 5; border: round $accent; padding: 0 1; }
.card { width: 4; height: 3; }
"""


class RulesScreen(ModalScreen[None]):
    """The rules in force, every option."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,q", "close", "Close")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rules-box { width: 70; height: 20; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box") as box:
            box.border_title = "Rules in force (esc closes)"
            yield Static(self.text, id="rules-text")

    def action_close(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """Quitting: save the session record to a file (Enter), quit without saving, or go back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back to the game"),
                Binding("ctrl+n", "discard", "Quit without saving")]
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    #save-box { width: 70; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    #save-error { color: $error; }
    """

    def __init__(self, default: str, error: str = "") -> None:
        super().__init__()
        self.default = default
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box") as box:
            box.border_title = "Quit"
            yield Static("Save the session record (a TOML file) before quitting?\n"
                         "Enter saves to this file and quits; ctrl+n quits without saving; "
                         "esc goes back.")
            yield Input(self.default, id="save-path")
            yield Static(self.error, id="save-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            self.query_one("#save-error", Static).update("Name a file, or ctrl+n to quit")
            return
        self.dismiss(path)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_discard(self) -> None:
        self.dismiss("")


class TienLenApp(App[Path | None]):
    """You against bots. Returns the path of the saved record, if one was saved."""

    TITLE = "Tiến Lên"
    ENABLE_COMMAND_PALETTE = False
    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Move", key_display="←→"),
        Binding("right", "move(1)", "Move", show=False),
        Binding("space", "select", "Select"),
        Binding("enter", "confirm", "Play"),
        Binding("p", "decline", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("s", "sort", "Sort"),
        Binding("r", "rules", "Rules"),
        Binding("n", "next_hand", "Next"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, controller: Controller, delay: float = 0.8,
                 save_dir: str | Path = ".") -> None:
        super().__init__()
        self.controller = controller
        self.delay = delay
        self.save_dir = Path(save_dir)
        self.selected: set[int] = set()  # indices into the hand (game.hand order)
        self.cursor = 0  # a display position
        self.by_combination = False
        self.target: int | None = None  # the seat chosen for a trade offer
        self.info: Text = Text()
        self._timer: Timer | None = None
        self._hand_seen: tuple[int, tuple[Card, ...]] | None = None
        self._order: list[int] = []
        self._groups: list[int] = []

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):
            table = InfoPanel(id="table")
            table.border_title = "Table"
            yield table
            players = InfoPanel(id="players")
            players.border_title = "Players · session"
            yield players
        yield Static(id="prompt")
        yield Static(id="info")
        hand = HandView(id="hand")
        hand.border_title = "Your hand"
        yield hand
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._say(f"{self.controller.names[HUMAN]} against "
                  f"{', '.join(self.controller.specs)}. Press r for the rules.")
        self._advance()

    # ------------------------------------------------------------------ the flow of the game
    def _advance(self) -> None:
        """Let the bots act (paced, or at once with no delay) until the human decides."""
        c = self.controller
        if self._timer is not None:
            return
        if self.delay <= 0:
            for line in c.run_bots():
                self._say(line)
        elif c.decision() is None and not c.game.is_over:
            self._timer = self.set_timer(self.delay, self._bot_tick)
        self.refresh_screen()

    def _bot_tick(self) -> None:
        self._timer = None
        if len(self.screen_stack) > 1:  # the rules or the quit question are up: wait
            self._timer = self.set_timer(self.delay, self._bot_tick)
            return
        said = self.controller.bot_step()
        if said:
            self._say(said)
        self._advance()

    def _say(self, text: str | Text, style: str = "") -> None:
        if isinstance(text, Text):
            self.info = text
        else:
            self.info = Text(text, style) if style else move_text(text)
        self.info.no_wrap = True
        self.info.overflow = "ellipsis"

    # ------------------------------------------------------------------ drawing
    def refresh_screen(self) -> None:
        c = self.controller
        game = c.game
        view = c.view()
        hand = tuple(view.hand)
        key = (c.hand_number, hand)
        if key != self._hand_seen:  # the hand changed: a new selection
            self._hand_seen = key
            self.selected = set()
            self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        sorter = by_combination if self.by_combination else by_rank
        self._order, self._groups = sorter(hand, c.rules)
        shown = [hand[i] for i in self._order]
        positions = {i for i, h in enumerate(self._order) if h in self.selected}
        hand_view = self.query_one(HandView)
        hand_view.show(shown, positions, self.cursor, self._groups)
        hand_view.border_title = (f"Your hand ({len(hand)}) · by "
                                  f"{'combination' if self.by_combination else 'rank'} · "
                                  "letters pick cards")

        rules = c.rules
        changed = len(rules.differences())
        title = (f"Tiến Lên · {rules.name} rules"
                 + (f" ({changed} option{'s' if changed > 1 else ''} changed)" if changed else "")
                 + f" · hand {c.hand_number} · {c.names[game.dealer]} dealt")
        self.query_one("#title", Static).update(title)
        self.query_one("#table", InfoPanel).show(self._table_lines())
        self.query_one("#players", InfoPanel).show(self._player_lines())

        decision = c.decision()
        prompt: Text
        if game.is_over:
            prompt = Text(c.result_text() + " Press n for the next hand, q to quit.", style="bold")
        elif decision is not None:
            prompt = move_text(decision.prompt, style="bold")
            if decision.kind == "offer":
                target = self.target if self.target is not None else decision.other
                prompt.append(f" Offer to: {c.names[target or 0]}.", style="bold cyan")
        else:
            seat = c.waiting_for()
            prompt = Text(f"{c.names[seat or 0]} is thinking…", style="dim")
        self.query_one("#prompt", Static).update(prompt)
        self.query_one("#info", Static).update(self.info)

    def _table_lines(self) -> list[Text | str]:
        c = self.controller
        view = c.view()
        names = c.names
        lines: list[Text | str] = []
        if view.phase in ("claim", "trade", "return"):
            words = {"claim": "instant-win claims", "trade": "trading", "return": "returns"}
            lines.append(Text(f"Before play: {words[view.phase]}", style="bold"))
        elif view.table is not None and view.table_seat is not None:
            lines.append(f"To beat, from {names[view.table_seat]}:")
            lines.append(cards_text(view.table.cards, width=2))
        elif view.is_over:
            lines.append(Text("The hand is over", style="bold"))
        else:
            lines.append("Table: empty, a new round")
        if view.turn is not None:
            waiting = c.waiting_for()
            turn = Text("Turn: ")
            turn.append(names[view.turn], style="bold")
            if view.stacking:
                turn.append(" (stacking turn)")
            if waiting is not None and waiting != view.turn:
                turn.append(f" · {names[waiting]} may chop", style="yellow")
            lines.append(turn)
        lines.append(Text("─" * 30, style="dim"))
        room = self.query_one("#table", InfoPanel).content_size.height or 12
        for seat, text in view.history[len(view.history) - max(room - len(lines), 1):]:
            line = Text(f"{names[seat]}: ", no_wrap=True, overflow="ellipsis")
            line.append_text(move_text(text))
            lines.append(line)
        return lines

    def _player_lines(self) -> list[Text | str]:
        c = self.controller
        view = c.view()
        totals = c.session.totals
        firsts = c.session.first_places
        places = c.places()
        lines: list[Text | str] = [Text(f"  {'name':<8} {'#':>2} {'':<6} {'units':>5} {'1st':>3}  "
                                        "places", style="dim")]
        waiting = c.waiting_for()
        for seat in range(c.players):
            if seat in view.finish_order:
                status = f"out {view.finish_order.index(seat) + 1}"
            elif view.passed[seat]:
                status = "passed"
            else:
                status = ""
            mark = "▶" if seat == waiting else " "
            recent = " ".join(str(p + 1) for p in places[seat][-5:])
            line = Text(f"{mark} {c.names[seat]:<8.8} {view.counts[seat]:>2} {status:<6} "
                        f"{totals[seat]:>+5} {firsts[seat]:>3}  {recent}", no_wrap=True)
            if seat == HUMAN:
                line.stylize("bold")
            lines.append(line)
        return lines

    # ------------------------------------------------------------------ keys
    def _hand(self) -> tuple[Card, ...]:
        return tuple(self.controller.view().hand)

    def action_move(self, step: int) -> None:
        count = len(self._hand())
        if count:
            self.cursor = (self.cursor + step) % count
            self.refresh_screen()

    def action_select(self) -> None:
        self._toggle_position(self.cursor)

    def _toggle_position(self, position: int) -> None:
        if not 0 <= position < len(self._order):
            return
        self.cursor = position
        index = self._order[position]
        if index in self.selected:
            self.selected.discard(index)
        else:
            self.selected.add(index)
        self.refresh_screen()

    def on_card_view_clicked(self, message: CardView.Clicked) -> None:
        self._toggle_position(message.position)

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or len(char) != 1:
            return
        if char in CARD_LETTERS:
            event.stop()
            self._toggle_position(CARD_LETTERS.index(char))
        elif char.isdigit():
            event.stop()
            self._choose_target(int(char))

    def _choose_target(self, seat: int) -> None:
        decision = self.controller.decision()
        if decision is None or decision.kind != "offer":
            return
        if 0 < seat < self.controller.players:
            self.target = seat
        else:
            self._say(f"seats to trade with are 1 to {self.controller.players - 1}", "red")
        self.refresh_screen()

    def _selected_cards(self) -> list[Card]:
        hand = self._hand()
        return [hand[i] for i in sorted(self.selected)]

    def action_confirm(self) -> None:
        c = self.controller
        try:
            move = c.confirm(self._selected_cards(), self.target)
        except TienLenError as exc:
            self._say(f"Not allowed: {exc}", "bold red")
            self.refresh_screen()
            return
        self._after_human(move)

    def action_decline(self) -> None:
        c = self.controller
        try:
            move = c.decline()
        except TienLenError as exc:
            self._say(f"Not allowed: {exc}", "bold red")
            self.refresh_screen()
            return
        self._after_human(move)

    def _after_human(self, move: Play | Action | None) -> None:
        c = self.controller
        self.selected = set()
        self.target = None
        self._say(f"{c.names[HUMAN]}: {move}" if move is not None else "You let the chop go.")
        self._advance()

    def action_hint(self) -> None:
        c = self.controller
        try:
            move = c.hint()
        except TienLenError as exc:
            self._say(str(exc), "red")
            self.refresh_screen()
            return
        cards = move.cards
        if cards:
            self.selected = set()
            hand = self._hand()
            for card in cards:
                index = next(i for i, h in enumerate(hand) if h == card and i not in self.selected)
                self.selected.add(index)
            if isinstance(move, Action) and move.kind == "offer":
                self.target = move.other
            self._say(Text(f"Hint: {move} (selected: press Enter)", style="green"))
        else:
            word = "no chop" if c.chop_chance() and move.is_pass else str(move)
            self._say(Text(f"Hint: {word} (press "
                           f"{'p' if move.is_pass or str(move) in ('decline', 'done') else 'Enter'})",
                           style="green"))
        self.refresh_screen()

    def action_sort(self) -> None:
        self.by_combination = not self.by_combination
        self.cursor = 0
        self.refresh_screen()

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.controller.rules.describe()))

    def action_next_hand(self) -> None:
        c = self.controller
        try:
            c.next_hand()
        except TienLenError as exc:
            self._say(f"Not yet: {exc}", "red")
            self.refresh_screen()
            return
        self._say(f"Hand {c.hand_number}: {c.names[c.game.dealer]} deals.")
        self._advance()

    def action_quit_game(self) -> None:
        name = time.strftime("tienlen-%Y%m%d-%H%M%S.toml")
        screen = SaveScreen(str(self.save_dir / name))

        def done(path: str | None) -> None:
            if path is None:
                return
            if not path:
                self.exit(None)
                return
            try:
                saved = self.controller.save(path)
            except TienLenError as exc:
                self.push_screen(SaveScreen(path, str(exc)), done)
                return
            self.exit(saved)

        self.push_screen(screen, done)
