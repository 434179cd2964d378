"""Small helpers the test modules share."""

from __future__ import annotations

import random

from tienlen import Card, Game, Play, Rules, parse_cards
from tienlen.bots import get_bot
from tienlen.cards import full_deck

# the whole pack in four hands; seat 0 holds a dragon (a card of every rank 3..A), seat 2
# no loose card (sets only)
DRAGON_DEAL = ["3s 4d 5c 6h 7s 8d 9c Th Js Qd Kc Ah 2s",
               "3c 3d 3h 4s 4c 4h 5s 5d 5h 6s 6c 6d 7c",
               "7d 7h 8s 8c 8h 9s 9d 9h Ts Tc Td Jc Jd",
               "Jh Qs Qc Qh Ks Kd Kh As Ac Ad 2c 2d 2h"]
# short hands for mutual trading: every subset of a hand is a possible offer
TRADE_DEAL = ["3s 4d 5c 6h 7s 8d", "3c 3d 3h 4s 4c 4h", "7d 7h 8s 8c 8h 9s", "Jh Qs Qc Qh Ks Kd"]


def deal_with(given: dict[int, str], players: int = 4, size: int = 13) -> list[str]:
    """Hands where the given seats hold the given cards; the rest of the pack fills up, low first."""
    taken = [c for text in given.values() for c in parse_cards(text)]
    rest = [c for c in full_deck() if c not in taken]
    hands = []
    for seat in range(players):
        hand = list(parse_cards(given.get(seat, "")))
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(" ".join(str(c) for c in hand))
    return hands


# The chop lists of RULES.md §10, transcribed by hand (bomb -> target, "higher" where marked).
RULES_MD_CHOPS: dict[str, list[str]] = {
    "pagat": ["quad > 2", "chain:3+ > 2", "chain:4+ > 22", "chain:5+ > 222"],
    "parlett": ["quad > 2", "chain:3+ > 2", "quad > 22", "chain:4+ > 22", "chain:5+ > 222"],
    "justus-pang": ["quad > 2", "chain:3+ > 2", "chain:4+ > 22", "chain:5+ > 222"],
    "kenneth-lu": ["quad > single", "quad > pair", "chain:3 > 2"],
    "viet-cong": ["quad > 2", "chain:3+ > 2", "quad_chain:2 > 22", "chain:5+ > 22",
                  "quad_chain:3 > 222", "chain:7+ > 222"],
    "thirteen": ["chain:3+ > single", "quad > single", "chain:4+ > 22", "chain:6+ > 222"],
    "killer": ["quad > 2", "chain:3+ > 2", "quad_chain:2 > 22", "chain:4+ > 22",
               "quad_chain:3 > 222", "chain:5+ > 222", "quad > chain:3"],
    "cardrules": [
        "quad > 2", "chain:3+ > 2", "chain:4+ > 22", "chain:6+ > 222",
        "triple_chain:3 > 2", "triple_chain:3 > 22",
        "quad_chain:3 > 2", "quad_chain:3 > 22", "quad_chain:3 > 222",
        "chain:4 > chain:3 higher",
        "chain:5 > chain:3 higher", "chain:5 > chain:4 higher",
        "chain:6 > chain:3 higher", "chain:6 > chain:4 higher", "chain:6 > chain:5 higher",
        "triple_chain:3 > chain:3 higher", "triple_chain:3 > triple_chain:3 higher",
        "quad_chain:3 > quad higher", "quad_chain:3 > chain:3 higher",
        "quad_chain:3 > triple_chain:3 higher",
    ],
    # §11.2
    "mien-nam": ["quad > 2", "chain:3 > 2", "chain:4+ > 2", "quad > 22", "chain:4+ > 22",
                 "quad > chain:3", "chain:4+ > chain:3", "chain:4+ > quad"],
    "mien-bac": ["quad > 2"],
}


def play_on(game: Game, moves: int | None = None, seed: int = 0) -> Game:
    """Random legal actions: ``moves`` of them, or to the end of the hand."""
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (moves is None or done < moves):
        game.play(rng.choice(game.legal_plays()))
        done += 1
    return game


def twin_games(rules: Rules, players: int, seed: int, steps: int) -> tuple[Game, Game]:
    """Two hands with the same public history that differ only in the other seats' hidden cards,
    at a moment when seat 0 is to play."""
    a = Game.deal(rules, players, seed=seed)
    greedy = get_bot("greedy", seed=1)
    done = 0
    while not a.is_over and (done < steps or a.turn != 0):
        turn = a.turn
        assert turn is not None
        a.play(greedy.choose(a.view(turn)), seat=turn)
        done += 1
    assert not a.is_over and a.turn == 0
    played: list[list[Card]] = [[] for _ in range(players)]
    for s, m in a.history:
        if isinstance(m, Play):
            played[s].extend(m.cards)
    rng = random.Random(seed)
    for _ in range(100):
        pool = a.view(0).unseen()  # the others' cards and any set aside, as seat 0 sees it
        rng.shuffle(pool)
        hands: list[list[Card]] = [a.hand(0) + played[0]]
        for s in range(1, players):
            count = len(a.hand(s))
            hands.append(pool[:count] + played[s])
            pool = pool[count:]
        try:
            b = Game(rules, hands, dealer=a.dealer)
            for s, m in a.history:
                b.play(m, seat=s)
        except ValueError:
            continue  # this deal changes the public story (another leader, an instant win)
        break
    else:
        raise AssertionError("no twin deal found")
    assert [b.hand(s) for s in range(1, players)] != [a.hand(s) for s in range(1, players)]
    return a, b


def others_shuffled(game: Game, rng: random.Random) -> list[list[Card]]:
    """The hands of ``game`` with the cards of seats 1.. dealt again among them (each seat keeps
    its count): a deal that differs only in the other seats' cards."""
    hands = [list(game.hand(s)) for s in range(game.players)]
    rest = [c for h in hands[1:] for c in h]
    rng.shuffle(rest)
    out = [hands[0]]
    for h in hands[1:]:
        out.append(rest[:len(h)])
        rest = rest[len(h):]
    return out
