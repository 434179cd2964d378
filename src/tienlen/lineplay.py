"""A plain line-by-line game in the terminal: you against bots, hand after hand
(``tienlen play --plain``, and whenever the input or output is not a terminal).

It asks the same decisions as the full-screen game (:class:`~tienlen.tui.controller.Controller`,
which needs no third-party package): plays, passes, out-of-turn chops, instant-win claims,
trades and returns, each typed as a line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .cards import Card, parse_cards
from .errors import TienLenError
from .rules import Rules
from .tui.controller import HUMAN, Controller, Decision

HELP = ("Type the cards to play (e.g. '5s 5h', '10h jh qh'), 'p' or 'pass', 'hint', 'legal', "
        "'score', 'save FILE' or 'quit'.")
_HOW = {
    "chop": "Type the bomb to chop with, or p to let it go.",
    "claim": "Type 'claim' to win at once, or p to play the hand.",
    "offer": "Type a seat number and the cards to offer (e.g. '2 5s 6d'), or p when you are done.",
    "answer": "Type the cards to give back, or p to refuse.",
    "settle": "Type 'accept' to make the trade, or p to refuse it.",
    "return": "Type the cards to return.",
}
_YES = ("y", "yes", "claim", "accept")


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _units(names: Sequence[str], units: Sequence[int]) -> str:
    return ", ".join(f"{name} {u:+d}" for name, u in zip(names, units, strict=True))


def _totals(names: Sequence[str], totals: Sequence[int]) -> str:
    return "Totals: " + _units(names, totals)


def play_session(rules: Rules, players: int, seed: int | None, name: str,
                 stdin: TextIO | None = None, stdout: TextIO | None = None,
                 bots: Sequence[str] = ("heuristic",)) -> int:
    """Play hands in a row, line by line, until 'quit', a 'no' to the next hand, or the end
    of the input."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    c = Controller(rules, players, bots, seed, name)
    names = c.names

    def say(text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=out, flush=True)

    def ask() -> str | None:
        say("> ", end="")
        line = inp.readline()
        return None if not line else line.strip()

    def stop(why: str) -> int:
        hands = c.hand_number if c.game.is_over else c.hand_number - 1
        say(f"\n{why}: the game stops after {hands} finished hand{'s' if hands != 1 else ''}. "
            + "Session units: " + _units(names, c.session.totals) + ".")
        if not saved and why == "End of input":
            say("The record was not saved.")
        elif not saved:
            say("The record was not saved (type 'save FILE' before quitting to keep one).")
        return 0

    saved = False
    say(f"Tiến Lên, {rules.name} rules, {players} players. {HELP}")
    while True:
        say(f"\n=== Hand {c.hand_number} (dealer: {names[c.game.dealer]}) ===")
        while not c.game.is_over:
            for line in c.run_bots():
                say(f"  {line}")
            d = c.decision()
            if d is None:
                continue
            _show(c, d, say)
            while True:
                text = ask()
                if text is None:
                    return stop("End of input")
                if not text:
                    continue
                word = text.lower()
                if word in ("quit", "q"):
                    return stop("You quit")
                if word == "hint":
                    say(f"Hint: {c.hint()}")
                    continue
                if word == "legal":
                    say("Legal: " + ", ".join(str(m) for m in d.legal))
                    continue
                if word == "score":
                    say(_totals(names, c.session.totals))
                    continue
                if word == "help":
                    say(HELP)
                    continue
                if word.split()[0] == "save":
                    saved = _save(c, text, say) or saved
                    continue
                try:
                    move = _decide(c, d, text)
                except TienLenError as exc:
                    say(f"Not allowed: {exc}")
                    continue
                if move is not None:
                    say(f"  {names[HUMAN]}: {c.words(str(move))}")
                    log = c.log()
                    if log and log[-1][0] is None:
                        say(f"  {log[-1][1]}")
                break
        game = c.game
        if game.instant_win is not None:
            seat, win = game.instant_win
            say(f"{names[seat]} wins at once with {win.replace('_', ' ')}.")
        say("Finish: " + ", ".join(names[s] for s in game.finish_order))
        if game.is_over and game.view(HUMAN).revealed is not None:
            held = [(s, cards) for s, cards in enumerate(game.view(HUMAN).revealed or ()) if cards]
            if held:
                say("Still held: " + "; ".join(f"{names[s]} {_cards(cards)}" for s, cards in held))
        say("Units this hand: " + _units(names, game.scores))
        say(_totals(names, c.session.totals))
        while True:
            say("Next hand? [Y/n] ", end="")
            answer = inp.readline()
            if not answer:
                return stop("End of input")
            word = answer.strip().lower()
            if word.startswith("save"):
                saved = _save(c, answer.strip(), say) or saved
            elif word in ("n", "no", "q", "quit"):
                return stop("You stopped")
            elif word in ("", "y", "yes"):
                break
            else:
                say("Answer y or n (or save FILE to keep the record).")
        c.next_hand()


def _show(c: Controller, d: Decision, say: Callable[..., None]) -> None:
    """What the human needs to decide: the table, the others' cards, the hand, the question."""
    view = c.view()
    names = c.names
    if d.kind == "play":
        table = (f"{view.table} by {names[view.table_seat or 0]}" if view.table
                 else "nothing (you lead)")
        counts = ", ".join(f"{names[s]} {n}" for s, n in enumerate(view.counts) if s != HUMAN)
        say(f"Table: {table}. Cards: {counts}.")
        if d.stacking:
            say("Stacking turn: play a higher play of the same kind, or p to pass.")
    else:
        say(d.prompt)
        say(_HOW[d.kind])
    say(f"Your hand: {_cards(view.hand)}")


def _decide(c: Controller, d: Decision, text: str) -> object:
    """Make the decision a typed line asks for; TienLenError with the reason when not allowed."""
    word = text.lower()
    if word in ("p", "pass"):
        return c.decline()
    if d.kind in ("claim", "settle") and word in _YES:
        return c.confirm([])
    first, _, rest = text.partition(" ")
    if d.kind == "offer" and first.isdigit():
        return c.confirm(parse_cards(rest), int(first))
    if d.kind in ("answer", "return") and not first.isalpha():
        return c.confirm(parse_cards(text))
    return c.play_text(text)


def _save(c: Controller, text: str, say: Callable[..., None]) -> bool:
    _, _, path = text.partition(" ")
    if not path.strip():
        say("Name the file: save FILE (e.g. save game.toml)")
        return False
    try:
        saved = c.save(path.strip())
    except TienLenError as exc:
        say(f"Not saved: {exc}")
        return False
    say(f"Record saved to {saved}; replay it with: tienlen replay {saved}")
    return True
