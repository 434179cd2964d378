"""The full-screen terminal game: you against bots, hand after hand (``tienlen play``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
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
from ..rules_text import explain_text
from ..shapes import Play
from .controller import HUMAN, PLACE_WORDS, WIN_WORDS, Controller
from .sorting import by_combination, by_rank
from .widgets import CARD_LETTERS, CardView, HandView, InfoPanel, cards_text, move_text

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-background; padding: 0 1; }
#top { height: 1fr; }
#table { width: 1fr; height: 100%; border: round $secondary; padding: 0 1; }
#players { width: 44%; min-width: 44; max-width: 70; height: 100%; border: round $secondary;
           padding: 0 1; }
#prompt { height: auto; max-height: 2; padding: 0 1; }
#info { height: auto; max-height: 2; padding: 0 1; }
HandView { height: 5; border: round $accent; padding: 0 1; }
.card { width: 4; height: 3; }
"""


class RulesScreen(ModalScreen[None]):
    """The rules in force, in words (the same text as ``tienlen rules PRESET --explain``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,q", "close", "Close")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rules-box { width: 90%; max-width: 100; height: 90%; border: round $accent;
                 background: $surface; padding: 0 1; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box") as box:
            box.border_title = "The rules of this table (↑↓ scroll, esc closes)"
            yield Static(self.text, id="rules-text")

    def on_mount(self) -> None:
        self.query_one("#rules-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str | None]):
    """The end of a hand: places, units, and the cards each player still held.
    Returns ``"next"`` (n), ``"quit"`` (q), or None (esc: look at the table)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('next')", "Next hand"),
        Binding("escape,e", "choose(None)", "Look at the table"),
        Binding("q", "choose('quit')", "Quit"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    #end-box { width: auto; max-width: 100%; height: auto; max-height: 100%;
               border: round $accent; background: $surface; padding: 0 1; }
    #end-text { width: auto; height: auto; }
    """

    def __init__(self, lines: list[Text], title: str) -> None:
        super().__init__()
        self.lines = lines
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box") as box:
            box.border_title = self.title_text
            text = Text("\n").join(self.lines)
            text.no_wrap = True
            yield Static(text, id="end-text")

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)


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
        Binding("e", "results", "Results", show=False),
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
        self._letters: list[str] = []  # the letter of each card of the hand (game.hand order)
        self._end_shown = 0  # the last hand whose end panel was shown
        self._table_room = 0  # the rows the table panel had when it was last drawn

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
        self.call_after_refresh(self.refresh_screen)  # again, now that the panels have sizes

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_screen)

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
        """Show a message under the prompt, its cards with the screen's symbols."""
        if isinstance(text, Text):
            self.info = text
        else:
            self.info = move_text(text, style)
        self.info.overflow = "ellipsis"  # two lines at most, then cut

    # ------------------------------------------------------------------ drawing
    def refresh_screen(self) -> None:
        c = self.controller
        game = c.game
        view = c.view()
        hand = tuple(view.hand)
        key = (c.hand_number, hand)
        sorter = by_combination if self.by_combination else by_rank
        self._order, self._groups = sorter(hand, c.rules)
        if key != self._hand_seen:  # the hand changed: a new selection; letters stay with cards
            seen = self._hand_seen
            old = seen[1] if seen is not None and seen[0] == c.hand_number else ()
            self._hand_seen = key
            self.selected = set()
            self.cursor = min(self.cursor, max(len(hand) - 1, 0))
            self._letters = keep_letters(old, self._letters, hand, self._order)
        shown = [hand[i] for i in self._order]
        positions = {i for i, h in enumerate(self._order) if h in self.selected}
        hand_view = self.query_one(HandView)
        hand_view.show(shown, positions, self.cursor, self._groups,
                       [self._letters[i] for i in self._order])
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
        self.call_after_refresh(self._fit_table)
        self.query_one("#players", InfoPanel).show(self._player_lines())

        decision = c.decision()
        prompt: Text
        if game.is_over:
            winner = c.names[game.finish_order[0]] if game.finish_order else "nobody"
            prompt = Text(f"Hand over: {winner} won. Press n for the next hand, e for the "
                          "results, q to quit.", style="bold")
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
        if game.is_over and self._end_shown != c.hand_number and len(self.screen_stack) == 1:
            self._end_shown = c.hand_number
            self.action_results()

    def _fit_table(self) -> None:
        """Draw the table again when the messages below it grew or shrank its panel, so that
        the log's newest line is never hidden."""
        panel = self.query_one("#table", InfoPanel)
        if panel.content_size.height and panel.content_size.height != self._table_room:
            panel.show(self._table_lines())

    def action_results(self) -> None:
        """The end-of-hand panel (e)."""
        c = self.controller
        if not c.game.is_over:
            return

        def done(choice: str | None) -> None:
            if choice == "next":
                self.action_next_hand()
            elif choice == "quit":
                self.action_quit_game()

        self.push_screen(EndScreen(self._end_lines(), f"Hand {c.hand_number} is over"), done)

    def _end_lines(self) -> list[Text]:
        """Places, units this hand and in the session, and the cards each player still held."""
        c = self.controller
        game = c.game
        view = c.view()
        names = c.names
        totals = c.session.totals
        held = view.revealed or tuple(() for _ in range(c.players))
        width = max(len(n) for n in names)
        lines: list[Text] = []
        if game.instant_win is not None:
            seat, win = game.instant_win
            lines.append(Text(f"{names[seat]} wins at once with {WIN_WORDS.get(win, win)}.",
                              style="bold"))
        header = f"{'place':<5} {'':<{width}} {'hand':>4} {'total':>5}  still held"
        lines.append(Text(header, style="dim"))
        order = list(game.finish_order) + [s for s in range(c.players)
                                           if s not in game.finish_order]
        per_line = max(4, (self.size.width - 12 - len(header) + len("still held")) // 3)
        for place, seat in enumerate(order):
            line = Text(f"{PLACE_WORDS[place]:<5} {names[seat]:<{width}} {game.scores[seat]:>+4} "
                        f"{totals[seat]:>+5}  ")
            if seat == HUMAN:
                line.stylize("bold")
            cards = held[seat]
            if not cards:
                line.append("—", style="dim")
            lines.append(line)
            indent = " " * (len(header) - len("still held"))
            for start in range(0, len(cards), per_line):
                chunk = cards_text(cards[start:start + per_line], width=2)
                if start:
                    lines.append(Text(indent) + chunk)
                else:
                    line.append_text(chunk)
        lines.append(Text(""))
        lines.append(Text("n: next hand · esc: look at the table (e brings this back) · q: quit",
                          style="bold"))
        return lines

    def _table_lines(self) -> list[Text | str]:
        c = self.controller
        view = c.view()
        names = c.names
        lines: list[Text | str] = []
        if view.phase in ("claim", "trade", "return"):
            words = {"claim": "instant-win claims", "trade": "trading", "return": "returns"}
            lines.append(Text(f"Before play: {words[view.phase]}", style="bold"))
        elif view.is_over:
            lines.append(Text("The hand is over", style="bold"))
        elif view.table is not None and view.table_seat is not None:
            lines.append(f"To beat, from {names[view.table_seat]}:")
            lines.append(cards_text(view.table.cards, width=2))
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
        room = self._table_room = self.query_one("#table", InfoPanel).content_size.height or 12
        for seat, text in log_tail(c.log(), room - len(lines)):
            if seat is None:
                lines.append(Text(text, style="italic yellow"))
                continue
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
        panel = self.query_one("#players", InfoPanel)
        room = panel.content_size.width or 40
        # the name column: as wide as the longest name, leaving room for the last 5 places
        width = max(8, min(max(len(n) for n in c.names), room - 24 - 6))
        shown_places = max(1, min(5, (room - 24 - width + 1) // 2))
        lines: list[Text | str] = [Text(f"  {'name':<{width}} {'#':>2} {'':<6} {'units':>5} "
                                        f"{'1st':>3}  places", style="dim")]
        waiting = c.waiting_for()
        for seat in range(c.players):
            if seat in view.finish_order:
                status = PLACE_WORDS[view.finish_order.index(seat)]
            elif view.passed[seat]:
                status = "passed"
            else:
                status = ""
            mark = "▶" if seat == waiting else " "
            recent = " ".join(str(p + 1) for p in places[seat][-shown_places:])
            line = Text(f"{mark} {c.names[seat]:<{width}.{width}} {view.counts[seat]:>2} {status:<6} "
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
            if char in self._letters:
                index = self._letters.index(char)
                self._toggle_position(self._order.index(index))
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
        self._say(f"{c.names[HUMAN]}: {c.words(str(move))}" if move is not None
                  else "You let the chop go.")
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
            self._say(f"Hint: {move} (selected: press Enter)", "green")
        else:
            word = "no chop" if c.chop_chance() and move.is_pass else str(move)
            key = "p" if move.is_pass or str(move) in ("decline", "done") else "Enter"
            self._say(f"Hint: {word} (press {key})", "green")
        self.refresh_screen()

    def action_sort(self) -> None:
        """Sort the other way; the letters follow the new order (a, b, c, … left to right)."""
        self.by_combination = not self.by_combination
        self.cursor = 0
        self._hand_seen = None
        self.refresh_screen()

    def action_rules(self) -> None:
        c = self.controller
        self.push_screen(RulesScreen(explain_text(c.rules, width=None, players=c.players)))

    def action_next_hand(self) -> None:
        c = self.controller
        if isinstance(self.screen, EndScreen):
            self.screen.dismiss(None)
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


def log_tail(entries: list[tuple[int | None, str]], room: int) -> list[tuple[int | None, str]]:
    """The last ``room`` entries of the log (none when there is no room)."""
    return entries[-room:] if room > 0 else []


def keep_letters(old_hand: Sequence[Card], old_letters: Sequence[str], hand: Sequence[Card],
                 order: Sequence[int]) -> list[str]:
    """The letter of each card of ``hand``: a card that was in ``old_hand`` keeps its letter;
    the others take the free letters in display ``order`` (a new hand: a, b, c, … left to
    right)."""
    pool: dict[Card, list[str]] = {}
    for card, letter in zip(old_hand, old_letters, strict=False):
        pool.setdefault(card, []).append(letter)
    letters = [""] * len(hand)
    for i, card in enumerate(hand):
        if pool.get(card):
            letters[i] = pool[card].pop(0)
    free = [x for x in CARD_LETTERS if x not in letters]
    for i in order:
        if not letters[i]:
            letters[i] = free.pop(0) if free else " "
    return letters
