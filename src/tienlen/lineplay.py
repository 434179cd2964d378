"""A plain line-by-line game in the terminal: you against bots, hand after hand
(``tienlen play --plain``, and whenever the input or output is not a terminal).

It asks the same decisions as the full-screen game (:class:`~tienlen.play.controller.Controller`,
which needs no third-party package): plays, passes, out-of-turn chops, instant-win claims,
trades and returns, each typed as a line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .actions import Move
from .cards import Card, parse_cards
from .errors import TienLenError
from .i18n import msg, say_error, t, tn
from .play.controller import HUMAN, Controller, Prompt, replay_command
from .rules import Rules

HELP = t("plain.help")
_YES = ("y", "yes", "claim", "accept")


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _units(names: Sequence[str], units: Sequence[int]) -> str:
    return ", ".join(f"{name} {u:+d}" for name, u in zip(names, units, strict=True))


def _totals(names: Sequence[str], totals: Sequence[int], lang: str = "en") -> str:
    return t("plain.totals", lang, units=_units(names, totals))


def play_session(rules: Rules, players: int, seed: int | None, name: str,
                 stdin: TextIO | None = None, stdout: TextIO | None = None,
                 bots: Sequence[str] = ("heuristic",), lang: str = "en") -> int:
    """Play hands in a row, line by line, until 'quit', a 'no' to the next hand, or the end
    of the input (``lang``: the language of what it says, "en" or "vi")."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    c = Controller(rules, players, bots, seed, name, lang=lang)
    names = c.names

    def tr(key: str, **params: object) -> str:
        return t(key, lang, **params)

    def say(text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=out, flush=True)

    def ask() -> str | None:
        say("> ", end="")
        line = inp.readline()
        return None if not line else line.strip()

    def stop(why: str) -> int:
        hands = c.hand_number if c.game.is_over else c.hand_number - 1
        say("\n" + tn(f"plain.stop.{why}", hands, lang, units=_units(names, c.session.totals)))
        if not saved and why == "end":
            say(tr("plain.not_saved"))
        elif not saved:
            say(tr("plain.not_saved_hint"))
        return 0

    saved = False
    say(tr("plain.start", rules=rules.name, n=players, help=tr("plain.help")))
    while True:
        say("\n" + tr("plain.hand", n=c.hand_number, dealer=names[c.game.dealer]))
        while not c.game.is_over:
            for line in c.run_bots():
                say(f"  {line}")
            d = c.decision()
            if d is None:
                continue
            _show(c, d, say, lang)
            while True:
                text = ask()
                if text is None:
                    return stop("end")
                if not text:
                    continue
                word = text.lower()
                if word in ("quit", "q"):
                    return stop("quit")
                if word == "hint":
                    hint = c.suggest()
                    say(tr("plain.hint", move=hint.move, why=c.reason_words(hint)))
                    continue
                if word == "legal":
                    say(tr("plain.legal", moves=", ".join(str(m) for m in d.legal)))
                    continue
                if word == "score":
                    say(_totals(names, c.session.totals, lang))
                    continue
                if word == "help":
                    say(tr("plain.help"))
                    continue
                if word.split()[0] == "save":
                    saved = _save(c, text, say, lang) or saved
                    continue
                try:
                    move = _decide(c, d, text)
                except TienLenError as exc:
                    say(tr("tui.not_allowed", reason=say_error(exc, lang)))
                    continue
                if move is not None:
                    say(f"  {names[HUMAN]}: {c.words(move)}")
                    for line in c.after_words():
                        say(f"  {line}")
                break
        game = c.game
        if game.instant_win is not None:
            seat, win = game.instant_win
            say(tr("tui.instant", name=names[seat], win=msg(f"win.{win}")))
        say(tr("plain.finish", names=", ".join(names[s] for s in game.finish_order)))
        if game.is_over and game.view(HUMAN).revealed is not None:
            held = [(s, cards) for s, cards in enumerate(game.view(HUMAN).revealed or ()) if cards]
            if held:
                say(tr("plain.held", held="; ".join(f"{names[s]} {_cards(cards)}"
                                                      for s, cards in held)))
        say(tr("plain.units", units=_units(names, game.scores)))
        if game.payments:
            say(tr("plain.payments"))
            for p in game.payments:
                say(f"  · {c.payment_words(p)}")
        say(_totals(names, c.session.totals, lang))
        while True:
            say(tr("plain.next"), end="")
            answer = inp.readline()
            if not answer:
                return stop("end")
            word = answer.strip().lower()
            if word.startswith("save"):
                saved = _save(c, answer.strip(), say, lang) or saved
            elif word in ("n", "no", "q", "quit", "k", "không"):
                return stop("stopped")
            elif word in ("", "y", "yes", "c", "có"):
                break
            else:
                say(tr("plain.answer_yn"))
        c.next_hand()


def _show(c: Controller, d: Prompt, say: Callable[..., None], lang: str = "en") -> None:
    """What the human needs to decide: the table, the others' cards, the hand, the question."""
    view = c.view()
    names = c.names
    if d.kind == "play":
        counts = ", ".join(f"{names[s]} {n}" for s, n in enumerate(view.counts) if s != HUMAN)
        if view.table:
            say(t("plain.table", lang, table=view.table, name=names[view.table_seat or 0],
                  counts=counts))
        else:
            say(t("plain.table_empty", lang, counts=counts))
        if d.stacking:
            say(t("plain.stacking", lang))
    else:
        say(d.prompt)
        say(t(f"plain.how.{d.kind}", lang))
    say(t("plain.your_hand", lang, cards=_cards(view.hand)))


def _decide(c: Controller, d: Prompt, text: str) -> Move | None:
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


def _save(c: Controller, text: str, say: Callable[..., None], lang: str = "en") -> bool:
    _, _, path = text.partition(" ")
    if not path.strip():
        say(t("plain.save_name", lang))
        return False
    try:
        saved = c.save(path.strip())
    except TienLenError as exc:
        say(t("plain.not_saved_why", lang, reason=say_error(exc, lang)))
        return False
    say(t("cli.saved", lang, path=saved, command=replay_command(saved)))
    return True
