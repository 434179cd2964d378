"""The full-screen terminal game: you against bots, hand after hand (``tienlen play``)."""

from __future__ import annotations

import dataclasses
import textwrap
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

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
from ..hints import Hint
from ..i18n import catalogue, rules_name, say_error, t, tn
from ..play.controller import HUMAN, Controller, place_word, records_dir
from ..play.settings import PACES, PlaySettings, save_settings
from ..rules_text import explain_text
from ..shapes import Play
from ..view import View
from .felt import FeltSeat, felt_lines
from .sorting import by_combination, by_rank
from .widgets import (
    BIG_HAND_HEIGHT,
    CARD_LETTERS,
    CardView,
    FeltPanel,
    HandView,
    InfoPanel,
    cards_text,
    move_text,
    symbols,
)

MIN_SIZE = (80, 24)  # the smallest window the game is drawn in: 8 seats fit at 80x24

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary-background; padding: 0 1; }
#top { height: 1fr; }
#felt { width: 1fr; height: 100%; border: round $secondary; padding: 0 1; }
#table { width: 40%; min-width: 38; max-width: 56; height: 100%; border: round $secondary;
         padding: 0 1; }
#prompt { height: auto; max-height: 2; padding: 0 1; }
#info { height: auto; max-height: 2; padding: 0 1; }
HandView { height: 5; border: round $accent; padding: 0 1; }
.card { width: 4; height: 3; }
"""


BOT_WORDS = ("heuristic", "greedy", "random", "search")


def localise_bindings(node: Any, lang: str) -> None:
    """Say the footer's key descriptions in ``lang`` (the catalogue's ``tui.key.*``)."""
    if lang == "en":
        return
    words = catalogue(lang)
    bindings = node._bindings  # Textual keeps each node's bindings here
    for key, items in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=words.get(
                "tui.key." + b.description.lower().replace(" ", "_"), b.description))
            for b in items]


def table_felt(view: View, names: Sequence[str], plays: Mapping[int, Play],
               totals: Sequence[int], waiting: int | None, width: int, height: int,
               lang: str = "en", four: bool = False, you: int | None = None,
               chop: str | None = None) -> list[Text]:
    """The felt of a hand as ``view`` shows it (the game's and the replay's): each seat with its
    count, passed mark or place, ``totals`` and its last play of the round (``plays``), the one
    ``waiting`` marked; the trick under its caption (``chop``: the chop it made, in words, a
    moment of its own; ``you``: the seat said "you")."""
    seats = []
    for seat in range(len(names)):
        if seat in view.finish_order:
            status = place_word(view.finish_order.index(seat), len(names), lang)
        elif view.passed[seat]:
            status = t("tui.passed", lang)
        else:
            status = ""
        play = plays.get(seat)
        seats.append(FeltSeat(names[seat], view.counts[seat], status, totals[seat],
                              None if play is None else play.cards, seat == waiting,
                              view.table is not None and seat == view.table_seat))
    trick: tuple[Card, ...] = ()
    if view.phase in ("claim", "trade", "return"):
        caption = t(f"tui.table.before.{view.phase}", lang)
    elif view.is_over:
        caption, chop = t("tui.table.over", lang), None
    elif view.table is not None and view.table_seat is not None:
        caption = symbols(chop) if chop else t("tui.felt.played", lang, name=names[view.table_seat])
        trick = tuple(view.table.cards)
    else:
        leader = view.turn or 0
        caption = t("tui.felt.lead_you", lang) if leader == you else \
            t("tui.felt.lead", lang, name=names[leader])
    return felt_lines(seats, trick, caption, width, height, four, t("move.pass", lang),
                      moment=chop is not None)


class RulesScreen(ModalScreen[None]):
    """The rules in force, in words (the same text as ``tienlen rules PRESET --explain``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,q", "close", "Close")]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rules-box { width: 90%; max-width: 100; height: 90%; border: round $accent;
                 background: $surface; padding: 0 1; }
    """

    def __init__(self, text: str, lang: str = "en") -> None:
        super().__init__()
        self.text = text
        self.lang = lang
        localise_bindings(self, lang)

    def app_t(self, key: str) -> str:
        return t(key, self.lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box") as box:
            box.border_title = self.app_t("tui.rules_title")
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
        Binding("d", "choose('again')", "This deal again"),
        Binding("backspace", "choose('take_back')", "Take back"),
        Binding("r", "app.rules", "Rules"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("v", "choose('review')", "Review"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    #end-box { width: auto; max-width: 100%; height: auto; max-height: 100%;
               border: round $accent; background: $surface; padding: 0 1; }
    #end-scroll { width: auto; height: auto; }
    #end-text { width: auto; height: auto; }
    #end-keys { width: auto; height: auto; }
    #end-practice { width: auto; height: auto; }
    """

    def __init__(self, lines: list[Text], title: str, lang: str = "en") -> None:
        super().__init__()
        localise_bindings(self, lang)
        self.lines = lines
        self.title_text = title
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box") as box:
            box.border_title = self.title_text
            text = Text("\n").join(self.lines)
            text.no_wrap = True
            with VerticalScroll(id="end-scroll"):  # ↑↓ when it does not fit
                yield Static(text, id="end-text")
            yield Static(Text(t("tui.end.keys", self.lang), style="bold"), id="end-keys")
            yield Static(Text(t("tui.end.practice", self.lang)), id="end-practice")

    def on_mount(self) -> None:
        self._fit()
        self.query_one("#end-scroll").focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """The list scrolls within the screen, below it the keys (borders and keys: 4 rows)."""
        self.query_one("#end-scroll").styles.max_height = max(3, self.size.height - 4)

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

    def __init__(self, default: str, error: str = "", lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        localise_bindings(self, lang)
        self.default = default
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box") as box:
            box.border_title = t("tui.quit.title", self.lang)
            yield Static(t("tui.quit.text", self.lang))
            yield Input(self.default, id="save-path")
            yield Static(self.error, id="save-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            self.query_one("#save-error", Static).update(t("tui.quit.name_a_file", self.lang))
            return
        self.dismiss(path)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_discard(self) -> None:
        self.dismiss("")


class TooSmall(Static):
    """Said instead of the table when the window is smaller than the game needs."""

    DEFAULT_CSS = """
    TooSmall { display: none; width: 100%; height: 100%; content-align: center middle;
               text-align: center; }
    """


class TienLenApp(App[Path | None]):
    """You against bots. Returns the path of the saved record, if one was saved.

    The game needs a window of at least :data:`MIN_SIZE` (80x24 holds 8 seats); in a smaller
    one it says so instead of squeezing the table."""

    TITLE = "Tiến Lên"
    ENABLE_COMMAND_PALETTE = False
    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Move", key_display="←→"),
        Binding("right", "move(1)", "Move", show=False),
        Binding("space", "select", "Select"),
        Binding("escape", "clear", "Clear", key_display="Esc"),
        Binding("enter", "confirm", "Play"),
        Binding("p", "decline", "Pass"),
        Binding("h", "hint", "Hint"),
        Binding("s", "sort", "Sort"),
        Binding("r", "rules", "Rules"),
        Binding("n", "next_hand", "Next"),
        Binding("e", "results", "Results"),
        Binding("greater_than_sign", "skip", "Skip", key_display=">"),
        Binding("plus", "pace(1)", "Faster", key_display="+", show=False),
        Binding("minus", "pace(-1)", "Slower", key_display="-", show=False),
        Binding("backspace", "take_back", "Take back", key_display="⌫", show=False),
        Binding("A,shift+a", "auto_pass", "Auto pass", show=False),
        Binding("C,shift+c", "colours", "Colours", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, controller: Controller, delay: float = 0.8,
                 save_dir: str | Path | None = None, four_colour: bool = False,
                 auto_pass: bool = False, prepare: bool = False,
                 settings_file: Path | None = None, notice: str = "") -> None:
        super().__init__()
        self.controller = controller
        self.lang = controller.lang
        localise_bindings(self, self.lang)
        self.delay = delay
        self.save_dir = Path(save_dir) if save_dir is not None else records_dir()
        self.four_colour = four_colour
        self.auto_pass = auto_pass
        # where the pace, auto-pass and colours chosen are kept for the next run (None: nowhere)
        self.settings_file = settings_file
        self.notice = notice  # said at the start (a settings file that could not be used)
        self.prepare = prepare  # load the fast path's code for the hints at start-up
        self.preparing = False
        self._skip = 0  # the hand skipped to its end
        self._hint_for: tuple[int, int, int] | None = None  # the moment a hint is computed for
        self._restarts = 0  # times the hand went back (take-back, deal again): a moment's part
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
        self._news_held = False  # a chop payment is in the message line until the human acts

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield TooSmall(self.t("tui.too_small", width=MIN_SIZE[0], height=MIN_SIZE[1]),
                       id="too-small")
        yield Static(id="title")
        with Horizontal(id="top"):
            felt = FeltPanel(self._felt_lines, id="felt")
            felt.border_title = self.t("tui.panel.table")
            yield felt
            log = InfoPanel(id="table")
            log.border_title = self.t("tui.panel.log")
            yield log
        yield Static(id="prompt")
        yield Static(id="info")
        hand = HandView(id="hand")
        hand.border_title = self.t("tui.panel.hand")
        yield hand
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._check_size(self.size.width, self.size.height)
        self._say(self.t("tui.welcome", name=self.controller.names[HUMAN],
                         bots=", ".join(self.t(f"bot.{b}") if b in BOT_WORDS else b
                                        for b in self.controller.specs)))
        if self.notice:  # a toast that stays a while: the message line changes at each move
            self.notify(self.notice, severity="warning", timeout=12)
        self._advance()
        if self.prepare and self.controller.fast_engine():
            self._prepare()
        self.call_after_refresh(self.refresh_screen)  # again, now that the panels have sizes

    def _prepare(self) -> None:
        """The fast path's code loaded (or compiled: minutes the first time) in a thread, with
        a line saying so, so that the first hint does not freeze the screen."""
        self.preparing = True
        self._say(self.t("tui.preparing"), "dim italic")
        self.refresh_screen()
        c = self.controller

        def load() -> None:
            c.prepare()
            self.call_from_thread(self._prepared)

        self.run_worker(load, thread=True, group="prepare", exit_on_error=False)

    def _prepared(self) -> None:
        self.preparing = False
        if self.info.plain == self.t("tui.preparing"):
            self._say(self.t("tui.prepared"), "dim")
        self.refresh_screen()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)
        self.call_after_refresh(self.refresh_screen)

    def _check_size(self, width: int, height: int) -> None:
        """Below :data:`MIN_SIZE`, the message alone; the game again once there is room."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#too-small").display = small
        for widget in self.query("#title, #top, #prompt, #info, #hand, Footer"):
            widget.display = not small

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys in the footer are those that do something now: the results once the hand
        is over, the keys of a turn while it is on."""
        over = self.controller.game.is_over
        if action == "results":
            return over
        if action in ("select", "confirm", "decline", "hint"):
            return not over and not self._out()
        if action == "skip":
            return self._out()
        if action == "clear":
            return bool(self.selected)
        return True

    # ------------------------------------------------------------------ the flow of the game
    def _advance(self) -> None:
        """Let the bots act (paced, or at once with no delay) until the human decides."""
        c = self.controller
        if self._timer is not None:  # a bot's move is on its way
            self.refresh_screen()
            return
        if self.delay <= 0 or self._skip == c.hand_number:
            for _ in range(100_000):
                said = c.bot_step()
                if said is None:
                    if not self._auto_passes():
                        break
                    self._pass_for_you()
                    continue
                self._tell(said)
        elif (c.decision() is None and not c.game.is_over) or self._auto_passes():
            self._timer = self.set_timer(self.delay, self._bot_tick)
        self.refresh_screen()

    def _bot_tick(self) -> None:
        self._timer = None
        if len(self.screen_stack) > 1:  # the rules or the quit question are up: wait
            self._timer = self.set_timer(self.delay, self._bot_tick)
            return
        if self._auto_passes():
            self._pass_for_you()
        else:
            said = self.controller.bot_step()
            if said is not None:
                self._tell(said)
        self._advance()

    def _auto_passes(self) -> bool:
        """Whether auto-pass is on and you are asked to beat a play you cannot beat."""
        d = self.controller.decision()
        return (self.auto_pass and d is not None and d.kind == "play"
                and all(m.is_pass for m in d.legal))

    def _pass_for_you(self) -> None:
        c = self.controller
        view = c.view()
        table, seat = view.table, view.table_seat
        c.decline()
        if table is not None and seat is not None:
            self._say(self.t("tui.auto_passed", name=c.names[seat], table=table), "dim")

    def _out(self) -> bool:
        """Whether you are out of this hand (it goes on without you)."""
        game = self.controller.game
        return HUMAN in game.finish_order and not game.is_over

    def action_auto_pass(self) -> None:
        """A: pass for you when you cannot beat the play on the table (on or off)."""
        self.auto_pass = not self.auto_pass
        self._say(self.t("tui.auto_pass.on" if self.auto_pass else "tui.auto_pass.off"))
        self._keep()
        self._advance()

    def action_pace(self, step: int) -> None:
        """+ and -: the bots' pause between moves, shorter or longer."""
        at = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.delay))
        self.delay = PACES[max(0, min(len(PACES) - 1, at + step))]
        self._say(self.t("tui.pace", seconds=self.delay) if self.delay else
                  self.t("tui.pace.none"))
        self._keep()
        if self._timer is not None and self.delay <= 0:
            self._timer.stop()
            self._timer = None
        self._advance()

    def action_skip(self) -> None:
        """>: once you are out, the rest of the hand at once (offered only then)."""
        self._skip = self.controller.hand_number
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._advance()

    def _tell(self, said: str) -> None:
        """A bot's move in the message line; a chop payment stays there until you act."""
        news = self.controller.news()
        if news:  # the payment is the news: the move is in the log
            self._say(" ".join(f"{line}." for line in news), "bold")
            self._news_held = True
        elif said and not self._news_held:
            self._say(said)

    def move_text(self, text: str, style: str = "") -> Text:
        """Text with its card words as cards, in this game's deck colours."""
        return move_text(text, style, self.four_colour)

    def cards_text(self, cards: Sequence[Card], width: int = 3) -> Text:
        """Cards side by side, in this game's deck colours."""
        return cards_text(cards, width=width, four=self.four_colour)

    def action_colours(self) -> None:
        """C: the four-colour deck (clubs green, diamonds blue) or the two-colour one."""
        self.four_colour = not self.four_colour
        self._keep()
        self.refresh_screen()

    def _keep(self) -> None:
        """Keep the pace, auto-pass and colours for the next run (play/settings.py); a file
        that cannot be written is said, and the game goes on."""
        if self.settings_file is None:
            return
        chosen = PlaySettings(pace=self.delay, auto_pass=self.auto_pass,
                              four_colour=self.four_colour)
        problem = save_settings(chosen, self.settings_file, self.lang)
        if problem is not None:
            self.notify(problem, severity="warning", timeout=12)

    def _say(self, text: str | Text, style: str = "") -> None:
        """Show a message under the prompt, its cards with the screen's symbols."""
        if isinstance(text, Text):
            self.info = text
        else:
            self.info = self.move_text(text, style)
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
                       [self._letters[i] for i in self._order], self.four_colour,
                       big=self.size.height >= BIG_HAND_HEIGHT)
        hand_view.border_title = self.t("tui.hand_title.combination" if self.by_combination
                                        else "tui.hand_title.rank", n=len(hand))

        rules = c.rules
        changed = len(rules.differences())
        named = rules_name(rules.name, self.lang)
        dealer = c.names[game.dealer]
        title = (tn("tui.title.changed", changed, self.lang, rules=named, hand=c.hand_number,
                    dealer=dealer) if changed else
                 self.t("tui.title", rules=named, hand=c.hand_number, dealer=dealer))
        if self.preparing:  # in the title: the message line below it changes with each move
            title += " · " + self.t("tui.preparing")
        self.query_one("#title", Static).update(Text(title, no_wrap=True, overflow="ellipsis"))
        self.query_one("#table", InfoPanel).show(self._table_lines())
        self.call_after_refresh(self._fit_table)
        self.query_one("#felt", FeltPanel).redraw()

        decision = c.decision()
        prompt: Text
        if game.is_over:
            winner = c.names[game.finish_order[0]] if game.finish_order else self.t("tui.nobody")
            prompt = Text(self.t("tui.over_prompt", name=winner), style="bold")
        elif decision is not None:
            prompt = self.move_text(decision.prompt, style="bold")
            if decision.kind == "offer":
                target = self.target if self.target is not None else decision.other
                prompt.append(" " + self.t("tui.offer_to", name=c.names[target or 0]), style="bold cyan")
        else:  # a bot acts; asked out of turn (every seat the rule names is): said so
            seat = c.waiting_for() or 0
            said = "tui.thinking" if seat == game.turn else "tui.thinking_free_chop" \
                if game.free_chop_offered(seat) else "tui.thinking_may_chop"
            prompt = Text(self.t(said, name=c.names[seat]), style="dim")
        self.query_one("#prompt", Static).update(prompt)
        self.query_one("#info", Static).update(self.info)
        self.refresh_bindings()
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
            elif choice == "again":
                self.action_deal_again()
            elif choice == "take_back":
                self.action_take_back()
            elif choice == "quit":
                self.action_quit_game()
            elif choice == "review":
                self._review()

        title = self.t("tui.end.title", n=c.hand_number)
        self.push_screen(EndScreen(self._end_lines(), title, self.lang), done)

    def _review(self) -> None:
        """The hand just played reviewed for the player (tui/review.py), from the results (v)."""
        from .review import ReviewScreen

        screen = ReviewScreen(self.controller.game, HUMAN, self.lang,
                              hand=self.controller.hand_number)
        localise_bindings(screen, self.lang)
        self.push_screen(screen, lambda _: self.action_results())  # esc: the results again

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
            win_words = self.t(f"tui.win.{win}")
            lines.append(Text(self.t("tui.instant", name=names[seat], win=win_words), style="bold"))
        held_word = self.t("tui.col.held")
        pw = max(5, *(len(place_word(i, c.players, self.lang)) for i in range(c.players)))
        header = (f"{self.t('tui.col.place'):<{pw}} {'':<{width}} {self.t('tui.col.hand'):>4} "
                  f"{self.t('tui.col.total'):>5}  {held_word}")
        lines.append(Text(header, style="dim"))
        order = list(game.finish_order) + [s for s in range(c.players)
                                           if s not in game.finish_order]
        per_line = max(4, (self.size.width - 12 - len(header) + len(held_word)) // 3)
        for place, seat in enumerate(order):
            line = Text(f"{place_word(place, c.players, self.lang):<{pw}} {names[seat]:<{width}} "
                        f"{game.scores[seat]:>+{max(4, len(self.t('tui.col.hand')))}} "
                        f"{totals[seat]:>+{max(5, len(self.t('tui.col.total')))}}  ")
            if seat == HUMAN:
                line.stylize("bold")
            cards = held[seat]
            if not cards:
                line.append("—", style="dim")
            lines.append(line)
            indent = " " * (len(header) - len(held_word))
            for start in range(0, len(cards), per_line):
                chunk = self.cards_text(cards[start:start + per_line], width=2)
                if start:
                    lines.append(Text(indent) + chunk)
                else:
                    line.append_text(chunk)
        lines += self._payment_lines()
        lines += [Text(""), Text(self.t("tui.panel.players"), style="bold"),
                  *self._player_lines(max(40, self.size.width - 8))]
        return lines

    def _payment_lines(self) -> list[Text]:
        """Every payment of the hand, itemised (they add up to the hand column)."""
        c = self.controller
        payments = c.view().payments
        lines = [Text(""), Text(self.t("tui.pay.title" if payments else "tui.pay.none"),
                                style="bold")]
        room = max(30, self.size.width - 8)
        for p in payments:
            wrapped = textwrap.wrap(c.payment_words(p), room, subsequent_indent="    ")
            style = "red" if p.payer == HUMAN else "green" if p.payee == HUMAN else ""
            lines += [self.move_text(f"· {row}" if not i else row, style)
                      for i, row in enumerate(wrapped)]
        return lines

    def _table_lines(self) -> list[Text | str]:
        c = self.controller
        view = c.view()
        names = c.names
        lines: list[Text | str] = []
        if view.turn is not None and view.stacking:
            turn = Text(self.t("tui.table.turn") + " ")
            turn.append(names[view.turn], style="bold")
            lines.append(turn.append(" " + self.t("tui.table.stacking")))
        panel = self.query_one("#table", InfoPanel)
        lines.append(Text("─" * (panel.content_size.width or 30), style="dim"))
        room = self._table_room = self.query_one("#table", InfoPanel).content_size.height or 12
        for seat, text in log_tail(c.log(), room - len(lines)):
            if seat is None:  # a round's end, a chop payment
                lines.append(self.move_text(text, "italic yellow"))
                continue
            line = Text(f"{names[seat]}: ", no_wrap=True, overflow="ellipsis")
            line.append_text(self.move_text(text))
            lines.append(line)
        return lines

    def _felt_lines(self, width: int, height: int) -> list[Text]:
        """The seats around the trick (:mod:`tienlen.tui.felt`)."""
        c = self.controller
        view = c.view()
        chop = c.chop_moment() if view.table is not None and not view.is_over else None
        return table_felt(view, c.names, c.round_plays(), c.totals(), c.waiting_for(), width,
                          height, self.lang, self.four_colour, you=c.you_seat(), chop=chop)

    def _player_lines(self, room: int) -> list[Text]:
        """The session so far, a row per player: units, first places, the last places."""
        c = self.controller
        totals = c.totals()
        firsts = c.session.first_places
        places = c.places()
        # the name column: as wide as the longest name, leaving room for the last places
        width = max(8, min(max(len(n) for n in c.names), room - 14 - 6))
        shown_places = max(1, min(10, (room - 14 - width + 1) // 2))
        lines = [Text(f"{self.t('tui.col.name'):<{width}} {self.t('tui.col.units'):>5} "
                      f"{self.t('tui.col.first'):>3}  {self.t('tui.col.places')}", style="dim")]
        for seat in range(c.players):
            recent = " ".join(str(p + 1) for p in places[seat][-shown_places:])
            line = Text(f"{c.names[seat]:<{width}.{width}} {totals[seat]:>+5} "
                        f"{firsts[seat]:>3}  {recent}", no_wrap=True)
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

    def action_clear(self) -> None:
        """Esc: no card selected any more."""
        self.selected.clear()
        self.refresh_screen()

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
            if self.controller.game.is_over:  # nothing to select: e is the results' key
                return
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
            self._say(self.t("tui.trade_seats", last=self.controller.players - 1), "red")
        self.refresh_screen()

    def _selected_cards(self) -> list[Card]:
        hand = self._hand()
        return [hand[i] for i in sorted(self.selected)]

    def action_confirm(self) -> None:
        c = self.controller
        try:
            move = c.confirm(self._selected_cards(), self.target)
        except TienLenError as exc:
            self._say(self.t("tui.not_allowed", reason=self.reason(exc)), "bold red")
            self.refresh_screen()
            return
        self._after_human(move)

    def reason(self, exc: TienLenError) -> str:
        """A refusal in the game's language (the engine's reasons are message keys)."""
        return say_error(exc, self.lang)

    def t(self, key: str, **params: object) -> str:
        return t(key, self.lang, **params)

    def action_decline(self) -> None:
        c = self.controller
        try:
            move = c.decline()
        except TienLenError as exc:
            self._say(self.t("tui.not_allowed", reason=self.reason(exc)), "bold red")
            self.refresh_screen()
            return
        self._after_human(move)

    def _after_human(self, move: Play | Action | None) -> None:
        c = self.controller
        self.selected = set()
        self.target = None
        news = c.news() if move is not None else []
        self._news_held = bool(news)
        if news:
            self._say(" ".join(f"{line}." for line in news), "bold")
        else:
            said = (" ".join([f"{c.names[HUMAN]}: {c.words(move)}.", *c.callouts()])
                    if move is not None else self.t("tui.let_chop_go"))
            self._say(said)
        self._advance()

    def action_hint(self) -> None:
        """h: the coach's best move for you, computed in a thread (the screen keeps
        answering meanwhile, a "thinking" mark in the message line), shown with its reason."""
        c = self.controller
        try:
            view = c.hint_view()
        except TienLenError as exc:
            self._say(self.reason(exc), "red")
            self.refresh_screen()
            return
        key = self._hint_key()
        if self._hint_for == key:
            return  # this hint is on its way already
        self._hint_for = key
        self._say(self.t("tui.hint.thinking"), "dim italic")
        self.refresh_screen()
        fast = False if self.preparing else None  # not waiting for the compiled engine

        def think() -> None:
            hint = c.suggest(view, fast)
            self.call_from_thread(self._hint_ready, key, hint)

        self.run_worker(think, thread=True, group="hint", exit_on_error=False)

    def _hint_key(self) -> tuple[int, int, int]:
        """The moment a hint is for: the hand, its length of history, and how many times it
        went back (after a take-back the same length may be another position)."""
        c = self.controller
        return (self._restarts, c.hand_number, len(c.game.history))

    def thinking(self) -> bool:
        """Whether a hint is being computed."""
        return self._hint_for is not None

    def _hint_ready(self, key: tuple[int, int, int], hint: Hint) -> None:
        """The hint's move selected (or named, for a pass), with its reason; a hint for a
        moment gone by (a move was made meanwhile) is dropped."""
        if self._hint_for == key:
            self._hint_for = None
        if key != self._hint_key():
            return
        c = self.controller
        move = hint.move
        why = c.reason_words(hint)
        cards = move.cards
        if cards:
            hand = self._hand()
            picked: set[int] = set()
            for card in cards:
                index = next((i for i, h in enumerate(hand) if h == card and i not in picked), None)
                if index is None:  # not in the hand any more: a hint for another moment
                    return
                picked.add(index)
            self.selected = picked
            if isinstance(move, Action) and move.kind == "offer":
                self.target = move.other
            self._say(f"{self.t('tui.hint.selected', move=move)} — {why}", "green")
        else:
            giving_up = isinstance(move, Action) and move.kind in ("decline", "done")
            if c.chop_chance() and move.is_pass:
                word = self.t("tui.hint.no_chop")
            elif move.is_pass:
                word = self.t("move.pass")
            elif giving_up:
                word = self.t(f"move.{move}")
            else:
                word = str(move)
            key_word = "p" if move.is_pass or giving_up else "Enter"
            self._say(f"{self.t('tui.hint.press', move=word, keys=key_word)} — {why}", "green")
        self.refresh_screen()

    def action_sort(self) -> None:
        """Sort the other way; the letters follow the new order (a, b, c, … left to right)."""
        self.by_combination = not self.by_combination
        self.cursor = 0
        self._hand_seen = None
        self.refresh_screen()

    def action_rules(self) -> None:
        c = self.controller
        text = explain_text(c.rules, width=None, players=c.players, lang=self.lang)
        self.push_screen(RulesScreen(f"{self.t('tui.keys_help')}\n\n{text}", self.lang))

    def action_take_back(self) -> None:
        """Backspace: take back your last move (the bots' moves after it are undone too)."""
        c = self.controller
        if not c.take_back():
            self._say(self.t("tui.take_back.none"), "red")
            self.refresh_screen()
            return
        while self._auto_passes() and c.take_back():  # an auto-pass would only come again
            pass
        self._after_restart(self.t("tui.take_back.done"))

    def action_deal_again(self) -> None:
        """d (in the results): this hand's deal again, from its start."""
        c = self.controller
        c.deal_again()
        self._after_restart(self.t("tui.deal_again", n=c.hand_number))

    def _after_restart(self, said: str) -> None:
        """The hand went back in time: a pending bot's move is dropped, the end panel will
        show again when the hand ends."""
        if isinstance(self.screen, EndScreen):
            self.screen.dismiss(None)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._restarts += 1
        self._hint_for = None  # a hint on its way is for a moment gone by
        self._end_shown = 0
        self._skip = 0
        self._news_held = False
        self._hand_seen = None
        self.selected = set()
        self._say(said, "bold")
        self._advance()

    def action_next_hand(self) -> None:
        c = self.controller
        if isinstance(self.screen, EndScreen):
            self.screen.dismiss(None)
        try:
            c.next_hand()
        except TienLenError as exc:
            self._say(self.t("tui.not_yet", reason=self.reason(exc)), "red")
            self.refresh_screen()
            return
        self._news_held = False
        self._say(self.t("tui.deals", n=c.hand_number, name=c.names[c.game.dealer]))
        self._advance()

    def action_quit_game(self) -> None:
        name = time.strftime("tienlen-%Y%m%d-%H%M%S.toml")
        screen = SaveScreen(str(self.save_dir / name), lang=self.lang)

        def done(path: str | None) -> None:
            if path is None:
                return
            if not path:
                self.exit(None)
                return
            try:
                saved = self.controller.save(path)
            except TienLenError as exc:
                self.push_screen(SaveScreen(path, self.reason(exc), self.lang), done)
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
