"""Regenerate tests/data/perft.json: golden counts of legal actions for fixed positions.

Every position is a rules preset (plus options), the dealt hands, the leader, the
actions that reach it and the seat whose actions are counted. ``count`` is the
number of legal actions of that seat (``game.legal_plays(seat)``); ``depth2``,
where present, is the sum over those actions of the number of legal actions of
the seat on turn after each one (0 when the action ends the hand).

Positions come from fixed seeds (random legal play until the position is of the
wanted kind) and from a few hand-made deals. Before anything is written each
count is checked against the brute-force oracle of ``tests/test_oracle.py``,
which judges every sub-multiset of the hand by RULES.md alone; a disagreement
stops the script.

    python benchmarks/make_perft.py          # rewrite tests/data/perft.json
    python benchmarks/make_perft.py --check  # only compare with the file
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tienlen import Game, Play, Rules

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "perft.json"


def load_oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perft_oracle", ROOT / "tests" / "test_oracle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------- building positions
def rules_of(preset: str, options: dict[str, Any]) -> Rules:
    return Rules.preset(preset).replace(**options)


def replay(pos: dict[str, Any]) -> Game:
    """The game of a position: the deal, then its actions."""
    game = Game(rules_of(pos["preset"], pos["options"]), pos["hands"], leader=pos["leader"],
                dealer=pos["dealer"], first_hand=pos["first_hand"])
    for line in pos["actions"]:
        seat, _, text = line.partition(" ")
        game.play(text, seat=int(seat))
    return game


def count(game: Game, seat: int) -> int:
    return len(game.legal_plays(seat))


def depth2(game: Game, seat: int) -> int:
    total = 0
    for move in game.legal_plays(seat):
        child = game.copy()
        child.play(move, seat=seat)
        total += 0 if child.is_over else len(child.legal_plays())
    return total


Criterion = Callable[[Game], int | None]  # the seat to count, or None when not the wanted kind


def on_turn(game: Game) -> int:
    assert game.turn is not None
    return game.turn


def lead_with_runs(game: Game) -> int | None:
    if game.phase != "play" or game.table is not None or not game.history:
        return None
    runs = sum(1 for p in game.legal_plays() if p.shape == "run")
    return on_turn(game) if runs >= 12 else None


def follow(game: Game) -> int | None:
    if game.phase != "play" or game.table is None or game.stacking:
        return None
    return on_turn(game) if len(game.legal_plays()) >= 3 else None


def chop(game: Game) -> int | None:
    table = game.table
    if game.phase != "play" or table is None:
        return None
    shapes = {p.shape for p in game.legal_plays() if isinstance(p, Play) and p.keys}
    return on_turn(game) if shapes - {table.shape} else None


def locked_chop(game: Game) -> int | None:
    if game.phase != "play" or game.table is None or game.turn is None:
        return None
    return game.turn if game.passed[game.turn] else None


def stacking(game: Game) -> int | None:
    return on_turn(game) if game.phase == "play" and game.stacking else None


def out_of_turn(game: Game) -> int | None:
    seats = game.out_of_turn_seats()
    return seats[0] if seats else None


def opening(game: Game) -> int | None:
    played = any(isinstance(m, Play) for _, m in game.history)
    return on_turn(game) if game.phase == "play" and not played else None


KINDS: dict[str, Criterion] = {
    "lead_with_runs": lead_with_runs, "follow": follow, "chop": chop, "locked_chop": locked_chop,
    "stacking": stacking, "out_of_turn": out_of_turn, "opening": opening,
}

# (preset, options, players, kind, seed)
DEALT: list[tuple[str, dict[str, Any], int, str, int]] = [
    *((preset, {}, 4, "opening", 1) for preset in Rules.presets()),
    ("pagat", {}, 4, "lead_with_runs", 2),
    ("parlett", {}, 3, "lead_with_runs", 3),
    ("kenneth-lu", {}, 2, "lead_with_runs", 4),
    ("viet-cong", {}, 6, "lead_with_runs", 5),
    ("cardrules", {}, 8, "lead_with_runs", 6),
    ("pagat", {}, 2, "follow", 7),
    ("parlett", {}, 5, "follow", 8),
    ("justus-pang", {}, 4, "follow", 9),
    ("kenneth-lu", {}, 3, "follow", 10),
    ("viet-cong", {}, 4, "follow", 11),
    ("thirteen", {}, 7, "follow", 12),
    ("killer", {}, 4, "follow", 13),
    ("cardrules", {}, 3, "follow", 14),
    ("pagat", {"double_deck_ties": "later_wins"}, 6, "follow", 15),
    ("killer", {"double_deck_ties": "next_distinct"}, 8, "follow", 16),
    ("thirteen", {}, 4, "chop", 17),
    ("thirteen", {}, 6, "chop", 18),
    ("kenneth-lu", {}, 4, "chop", 19),
    ("pagat", {}, 5, "chop", 20),
    ("cardrules", {}, 7, "chop", 21),
    ("killer", {}, 8, "chop", 22),
    ("justus-pang", {}, 4, "locked_chop", 23),
    ("thirteen", {"chop_after_pass": True}, 5, "locked_chop", 24),
    ("justus-pang", {}, 3, "stacking", 25),
    ("justus-pang", {}, 6, "stacking", 26),
    ("thirteen", {"chop_out_of_turn": True}, 4, "out_of_turn", 27),
    ("kenneth-lu", {"chop_out_of_turn": True}, 6, "out_of_turn", 28),
    ("thirteen", {"chop_out_of_turn": True, "chop_after_pass": True}, 8, "out_of_turn", 29),
    ("viet-cong", {"suit_order": "alphabetical", "twos_in_runs": True}, 4, "follow", 30),
    # §11
    ("mien-nam", {}, 4, "chop", 31),
    ("mien-nam", {}, 3, "out_of_turn", 32),
    ("mien-nam", {}, 2, "follow", 33),
    ("mien-bac", {}, 4, "follow", 34),
    ("mien-bac", {}, 3, "follow", 35),
    ("mien-bac", {}, 6, "follow", 36),
    ("mien-bac", {"suit_order": "alphabetical"}, 4, "follow", 37),
    ("pagat", {"follow_suit": True}, 8, "follow", 38),
]

# hand-made deals: (name, preset, options, hands, leader, actions, seat or None for the turn)
MADE: list[tuple[str, str, dict[str, Any], list[str], int | None, list[str], int | None]] = [
    ("a lead with runs everywhere", "pagat", {},
     ["3s 3h 4c 4d 5s 5h 6c 6d 7s 7h 8c 8d 9s", "Ts Jc Qd Kh", "Th Jd Qc Ks"], None, [], None),
    ("a two-pack lead with doubled runs", "pagat", {},
     ["3s 3s 4c 4c 5d 5d 6h 6h 7s 7c 8d 8h 9s", "Ts Jc Qd Kh", "Th Jd Qc Ks", "9c 9d", "Tc Td"],
     0, [], None),
    ("chains and a quad against a two", "pagat", {},
     ["2h 3c", "5s 5c 6s 6d 7c 7h 8s 8h 9s 9c 9d 9h", "4s 4c"], 0, ["0 2h"], 1),
    ("a pair of twos falls to four pairs or a quad", "parlett", {},
     ["2s 2h 3c", "5s 5c 6s 6d 7c 7h 8s 8h Ts Tc Td Th", "4s 4c"], 0, ["0 2s 2h"], 1),
    ("cardrules chains over chains", "cardrules", {},
     ["3s 3c 4s 4c 5d 5h Kd", "6s 6c 7s 7d 8c 8h 9s 9h Ts Tc Td Th",
      "Jh Jd Qs Qc Qd Qh Ks Kc Kh As Ac Ad"], 0, ["0 3s 3c 4s 4c 5d 5h"], 1),
    ("four twos beat anything", "cardrules", {},
     ["Ah As 3c", "2s 2c 2d 2h 4d 5h 6s", "7c 8d"], 0, ["0 As Ah"], 1),
    ("killer's quad over a chain of three", "killer", {},
     ["4s 4c 5s 5c 6d 6h 3h", "9s 9c 9d 9h 7s 7d 8s 8c Jd Jh", "Qs Qc"], 0,
     ["0 4s 4c 5s 5c 6d 6h"], 1),
    ("quad chains in viet-cong", "viet-cong", {},
     ["2s 2h 3c", "5s 5c 5d 5h 6s 6c 6d 6h 7s 7c 7d 7h 8s", "4s 4c"], 0, ["0 2s 2h"], 1),
    ("the opener may pass under justus pang", "justus-pang", {},
     ["3s 3c 3d 3h 4s", "5s 6h 7c", "8s 9s Td"], None, [], None),
    ("two-pack ties, next distinct", "pagat", {"double_deck_ties": "next_distinct"},
     ["9s 9c 4c", "9s 9h 9d Tc", "3s 3c 9c 9h", "Kh Kd", "Ac Ad"], None,
     ["2 3s 3c", "3 pass", "4 pass", "0 pass", "1 pass", "2 9c 9h", "3 pass", "4 pass",
      "0 pass"], 1),
    ("a free chop by a player who passed", "mien-nam", {},
     ["2h 3h", "9c Kd", "5s 5c 6s 6c 7s 7c 8s 8c 9s 9d Qh", "Tc Jd"], 1,
     ["1 9c", "2 pass", "3 Tc", "0 2h"], 2),
    ("a free chop of four pairs by five", "mien-nam", {},
     ["3s 3c 4s 4c 5s 5c 6s 6c Kh", "Ks Kc", "Qh 5d", "7d 7h 8d 8h 9d 9h Td Th Jd Jh"], 0,
     ["0 3s 3c 4s 4c 5s 5c 6s 6c"], 3),
    ("follow suit in the north", "mien-bac", {},
     ["9d 3h", "Td Ad Ts 2s 4c 9s 9c 9h 8h", "Kh", "Qh"], 0, ["0 9d"], 1),
]


def find(preset: str, options: dict[str, Any], players: int, kind: str, seed: int
         ) -> tuple[dict[str, Any], Game, int]:
    rules = rules_of(preset, options)
    criterion = KINDS[kind]
    for attempt in range(500):
        rng = random.Random(seed * 1000 + attempt)
        game = Game.deal(rules, players, seed=rng.getrandbits(32))
        base = {
            "preset": preset, "options": options,
            "hands": [" ".join(hand) for hand in _dealt(game)],
            "leader": game.leader if not game.state.lowest_start else None,
            "dealer": game.dealer, "first_hand": game.first_hand,
        }
        actions: list[str] = []
        while not game.is_over:
            seat = criterion(game)
            if seat is not None and (kind == "opening" or rng.random() < 0.5):
                pos = dict(base, name=f"{kind}, {preset}, {players} players",
                           actions=list(actions), seat=seat)
                return pos, game, seat
            for chopper in game.out_of_turn_seats():  # sometimes take an out-of-turn chop
                offered = game.legal_plays(chopper)  # free chops are offered to seats without
                if offered and rng.random() < 0.3:
                    move = rng.choice(offered)
                    actions.append(f"{chopper} {move}")
                    game.play(move, seat=chopper)
                    break
            else:
                moves = game.legal_plays()
                plays = [m for m in moves if isinstance(m, Play) and m.keys]
                move = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(moves)
                actions.append(f"{game.turn} {move}")
                game.play(move)
    raise SystemExit(f"no {kind} position found for {preset} with {players} players")


def _dealt(game: Game) -> list[list[str]]:
    from tienlen.cards import KEY_TEXT

    return [[KEY_TEXT[game.rules.suit_order][k] for k in hand] for hand in game.dealt]


def positions() -> list[dict[str, Any]]:
    out = []
    for preset, options, players, kind, seed in DEALT:
        pos, _game, _seat = find(preset, options, players, kind, seed)
        out.append(pos)
    for name, preset, options, hands, leader, actions, seat in MADE:
        pos = {"name": name, "preset": preset, "options": options, "hands": hands,
               "leader": leader, "dealer": 0, "first_hand": True, "actions": actions}
        game = replay(pos)
        pos["seat"] = game.turn if seat is None else seat
        out.append(pos)
    return out


# ---------------------------------------------------------------------- the oracle check
class Checker:
    def __init__(self) -> None:
        self.oracle = load_oracle()
        self.cache: dict[tuple[object, ...], list[Any]] = {}

    def expected(self, pos: dict[str, Any], game: Game, seat: int, stacked: bool) -> Counter[str]:
        mod = self.oracle
        rules = game.rules
        chops = pos["options"].get("chops")
        chop_texts = (mod.RULES_MD_CHOPS[pos["preset"]] if chops is None
                      else [s.strip() for s in chops.split(";")])
        oracle = mod.Oracle.of(rules, chop_texts)
        original = oracle.combinations

        def cached(hand: list[int], raw: bool = False) -> list[Any]:
            key = (rules, tuple(chop_texts), tuple(hand), raw)
            if key not in self.cache:
                self.cache[key] = original(hand, raw=raw)
            return self.cache[key]

        oracle.combinations = cached  # type: ignore[method-assign]
        lowest = None
        if pos["leader"] is None and (pos["first_hand"] or rules.next_leader == "lowest"):
            lowest = min(min(mod.keys_of(Play.parse(h).cards, rules.suit_order))
                         for h in pos["hands"])
        result: Counter[str] = mod.oracle_legal(game, seat, oracle, opening_lowest=lowest,
                                                stacked=stacked)
        return result

    def check(self, pos: dict[str, Any]) -> None:
        game, stacked = replay_tracking(pos)
        seat = pos["seat"]
        got = Counter(str(m) for m in game.legal_plays(seat))
        want = self.expected(pos, game, seat, stacked)
        if got != want:
            raise SystemExit(f"{pos['name']}: engine {sorted(got - want)} extra, "
                             f"{sorted(want - got)} missing")
        if "depth2" in pos:
            total = 0
            for move in game.legal_plays(seat):
                child = game.copy()
                child_stacked = stacked or (game.stacking and bool(move.keys))
                child.play(move, seat=seat)
                if child.table is None:
                    child_stacked = False
                if child.is_over:
                    continue
                turn = child.turn
                assert turn is not None
                total += sum(self.expected(pos, child, turn, child_stacked).values())
            if total != pos["depth2"]:
                raise SystemExit(f"{pos['name']}: depth 2 is {pos['depth2']} by the engine, "
                                 f"{total} by the oracle")


def replay_tracking(pos: dict[str, Any]) -> tuple[Game, bool]:
    """Replay a position, noting whether a stacking play was made in the current round."""
    game = Game(rules_of(pos["preset"], pos["options"]), pos["hands"], leader=pos["leader"],
                dealer=pos["dealer"], first_hand=pos["first_hand"])
    stacked = False
    for line in pos["actions"]:
        seat, _, text = line.partition(" ")
        was_stacking = game.stacking
        game.play(text, seat=int(seat))
        if was_stacking and text != "pass":
            stacked = True
        if game.table is None:
            stacked = False
    return game, stacked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    args = parser.parse_args(argv)
    checker = Checker()
    found = positions()
    for pos in found:
        game = replay(pos)
        pos["count"] = count(game, pos["seat"])
        if pos["count"] <= 400:
            pos["depth2"] = depth2(game, pos["seat"])
        checker.check(pos)
    text = json.dumps({"about": __doc__.split("\n\n")[1].replace("\n", " "), "positions": found},
                      indent=1, ensure_ascii=False) + "\n"
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("perft.json is up to date" if same else "perft.json differs")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"{len(found)} positions written to {OUT.relative_to(ROOT)}, "
          "each checked against the oracle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
