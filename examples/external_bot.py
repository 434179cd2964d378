#!/usr/bin/env python3
"""A small external bot for `tienlen tournament --bots cmd:"python examples/external_bot.py",…`.

It speaks the JSON-lines protocol of docs/bots-protocol.md: one JSON object per
line in (the seat's view), one line out ({"action": TEXT}). It plays the
lowest-looking legal play, claims instant wins, and otherwise passes or declines.
Any language that reads and writes lines of JSON can do the same.
"""

import json
import sys

RANKS = "3456789TJQKA2"
SUITS = "scdh"


def strength(action: str) -> tuple[int, int]:
    """Lower is weaker: the rank of the highest card, then how many cards."""
    cards = action.split()
    return (max(RANKS.index(c[0]) for c in cards), -len(cards))


def choose(view: dict) -> str:
    legal = view["legal"]
    for action in legal:
        if action.startswith("claim "):
            return action
    plays = [a for a in legal if all(len(w) == 2 and w[0] in RANKS and w[1] in SUITS
                                     for w in a.split())]  # cards only: not pass, done, offer…
    if plays:
        return min(plays, key=strength)
    for word in ("pass", "decline", "done"):
        if word in legal:
            return word
    refuse = [a for a in legal if a.startswith("refuse ")]
    return refuse[0] if refuse else legal[0]


def main() -> None:
    for line in sys.stdin:
        view = json.loads(line)
        if view.get("type") != "decide":
            continue
        print(json.dumps({"action": choose(view)}), flush=True)


if __name__ == "__main__":
    main()
