"""A plain line-by-line game in the terminal: you against bots, hand after hand."""

from __future__ import annotations

import sys
from typing import TextIO

from .bots import get_bot
from .cards import Card
from .errors import TienLenError
from .rules import Rules
from .session import Session

HELP = ("Type the cards to play (e.g. '5s 5h', '10h jh qh'), 'pass', 'hint', 'legal', "
        "'score' or 'quit'.")


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _units(names: list[str], units: list[int]) -> str:
    return ", ".join(f"{name} {u:+d}" for name, u in zip(names, units, strict=True))


def _totals(names: list[str], totals: list[int]) -> str:
    return "Totals: " + _units(names, totals)


def play_session(rules: Rules, players: int, seed: int | None, name: str,
                 stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    names = [name] + [f"Bot {i}" for i in range(1, players)]
    session = Session(rules, players, seed, names=names)
    bots = {seat: get_bot("greedy", seed=seat) for seat in range(1, players)}
    hint_bot = get_bot("greedy")
    print(f"Tiến Lên, {rules.name} rules, {players} players. {HELP}", file=out)
    while True:
        game = session.game
        print(f"\n=== Hand {len(session.games)}: {names[game.dealer]} deals ===", file=out)
        seen = 0
        while not game.is_over:
            for seat, move in game.view(0).history[seen:]:
                print(f"  {names[seat]}: {move}", file=out)
            seen = len(game.history)
            turn = game.turn
            assert turn is not None
            if turn != 0:
                game.play(bots[turn].choose(game.view(turn)), seat=turn)
                continue
            view = game.view(0)
            table = (f"{view.table} by {names[view.table_seat or 0]}" if view.table
                     else "nothing (you lead)")
            counts = ", ".join(f"{names[s]} {c}" for s, c in enumerate(view.counts) if s)
            print(f"Table: {table}. Cards: {counts}.", file=out)
            print(f"Your hand: {_cards(view.hand)}", file=out)
            while True:
                print("> ", end="", file=out, flush=True)
                line = inp.readline()
                if not line:
                    return 0
                text = line.strip()
                if text in ("quit", "q"):
                    return 0
                if text == "hint":
                    print(f"Hint: {hint_bot.choose(view)}", file=out)
                    continue
                if text == "legal":
                    print("Legal: " + ", ".join(str(m) for m in view.legal), file=out)
                    continue
                if text == "score":
                    print(_totals(names, session.totals), file=out)
                    continue
                try:
                    game.play(text, seat=0)
                    break
                except TienLenError as exc:
                    print(f"Not allowed: {exc}", file=out)
        for actor, text in game.view(0).history[seen:]:
            print(f"  {names[actor]}: {text}", file=out)
        print("Finish: " + ", ".join(names[s] for s in game.finish_order), file=out)
        print("Units this hand: " + _units(names, game.scores), file=out)
        print(_totals(names, session.totals), file=out)
        print("Next hand? [Y/n] ", end="", file=out, flush=True)
        answer = inp.readline()
        if not answer or answer.strip().lower().startswith("n"):
            return 0
        session.next_hand()
