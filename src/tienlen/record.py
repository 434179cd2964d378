"""Records (INTERFACE.md): hands and sessions as TOML text, written and replayed with checks.

```toml
format = "tienlen/1"
rules = "viet-cong"
players = ["Lan", "Minh", "Hoa", "Tuan"]
[options]
stake = 5
[[hands]]
dealer = 3
dealt = ["3s 4h …", "…", "…", "…"]
actions = ["0 3s 4s 5d", "1 pass", "2 6h 7h 8c", "3 pass"]
```

A hand may also carry ``leader`` (when it was not the holder of the lowest
card), ``first_hand = false`` (a later hand of a session) and ``payments``:
every unit that changed hands, itemised (``"1 pays 2 4: seat 2 chopped …"``),
written when chops or penalties moved units; loading checks it against the replay.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action, parse_move
from .cards import KEY_TEXT
from .errors import RecordError, TienLenError
from .game import Exchange, Game
from .rules import PRESETS, Rules
from .tomlwrite import dumps_table, value

if TYPE_CHECKING:
    from .session import Session

FORMAT = "tienlen/1"


def _header(rules: Rules, names: Sequence[str]) -> list[str]:
    lines = [f'format = "{FORMAT}"', f"rules = {value(rules.name)}", f"players = {value(list(names))}"]
    changed = rules.differences()
    if changed:
        lines += ["", "[options]", dumps_table(changed)]
    return lines


def _hand_lines(game: Game) -> list[str]:
    order = game.rules.suit_order
    lines = ["", "[[hands]]", f"dealer = {game.dealer}"]
    if not game._lowest_start:
        lines.append(f"leader = {game.leader}")
    if not game.first_hand:
        lines.append("first_hand = false")
    dealt = [" ".join(KEY_TEXT[order][k] for k in hand) for hand in game.dealt]
    lines.append("dealt = [\n" + "".join(f"  {value(h)},\n" for h in dealt) + "]")
    actions = game.action_texts()
    if actions:
        lines.append("actions = [\n" + "".join(f"  {value(a)},\n" for a in actions) + "]")
    else:
        lines.append("actions = []")
    items = payment_lines(game)
    if items:
        lines.append("payments = [\n" + "".join(f"  {value(a)},\n" for a in items) + "]")
    return lines


def payment_lines(game: Game) -> list[str]:
    """The hand's payments, itemised, as a record writes them: only when chops or penalties
    moved units (otherwise the finish order alone says who paid what)."""
    payments = game.payments
    if not any(p.kind in ("chop", "penalty") for p in payments):
        return []
    return [str(p) for p in payments]


def game_record(game: Game) -> str:
    return "\n".join(_header(game.rules, game.names) + _hand_lines(game)) + "\n"


def session_record(session: Session) -> str:
    lines = _header(session.rules, session.names)
    for game in session.games:
        lines += _hand_lines(game)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- loading
def _parse(text: str) -> tuple[Rules, list[str], list[dict[str, Any]]]:
    if not isinstance(text, str):
        raise RecordError("a record is TOML text")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(f"the record is not valid TOML: {exc}") from None
    if data.get("format") != FORMAT:
        raise RecordError(f"the record's format must be {FORMAT!r}, not {data.get('format')!r}")
    name = data.get("rules")
    if not isinstance(name, str) or (name not in PRESETS and name != "custom"):
        raise RecordError(f"the record's rules must be a preset name, not {name!r}")
    try:
        rules = Rules.from_mapping({"preset": name, "options": data.get("options", {})})
    except TienLenError as exc:
        raise RecordError(f"the record's rules: {exc}") from None
    names = data.get("players")
    if not isinstance(names, list) or not all(isinstance(x, str) and x for x in names):
        raise RecordError("the record's players must be a list of names, one per seat")
    if not 2 <= len(names) <= 8:
        raise RecordError(f"a record has 2 to 8 players, not {len(names)}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise RecordError("the record has no [[hands]]")
    unknown = set(data) - {"format", "rules", "players", "options", "hands"}
    if unknown:
        raise RecordError(f"the record has unknown keys: {', '.join(sorted(unknown))}")
    return rules, names, hands


def _replay_hand(rules: Rules, names: list[str], index: int, hand: dict[str, Any],
                 first_default: bool) -> Game:
    where = f"hand {index + 1}"
    for key in hand:
        if key not in ("dealer", "leader", "first_hand", "dealt", "actions", "payments"):
            raise RecordError(f"{where}: unknown key {key!r}")
    dealt = hand.get("dealt")
    actions = hand.get("actions", [])
    if not isinstance(dealt, list) or len(dealt) != len(names) or \
            not all(isinstance(h, str) for h in dealt):
        raise RecordError(f"{where}: dealt must list one hand (text) per player")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f"{where}: actions must be a list of texts such as '0 3s 4s 5d'")
    for key, kind, words in (("dealer", int, "a seat number"), ("leader", int, "a seat number"),
                             ("first_hand", bool, "true or false")):
        if key in hand and (not isinstance(hand[key], kind)
                            or (kind is int and isinstance(hand[key], bool))):
            raise RecordError(f"{where}: {key} must be {words}, not {hand[key]!r}")
    parsed: list[tuple[int, str]] = []
    for i, line in enumerate(actions):
        seat_text, _, move_text = line.strip().partition(" ")
        if not seat_text.isdigit() or not move_text.strip():
            raise RecordError(f"{where}, action {i} ({line!r}): an action is the seat, a space, "
                              "then the play or action")
        parsed.append((int(seat_text), move_text))
    exchange: list[Exchange] = []
    for seat, text in parsed:
        if not text.startswith("give "):
            break
        try:
            gift = Action.parse(text)
        except TienLenError as exc:
            raise RecordError(f"{where}: {exc}") from None
        assert gift.other is not None
        exchange.append((seat, gift.other, len(gift.cards)))
    try:
        game = Game(rules, dealt, leader=hand.get("leader"), dealer=hand.get("dealer", 0),
                    first_hand=hand.get("first_hand", first_default), names=names,
                    exchange=exchange)
    except TienLenError as exc:
        raise RecordError(f"{where}: {exc}") from None
    for i, (seat, text) in enumerate(parsed):
        line = actions[i]
        if i < len(game.history):  # made automatically when the hand began
            auto_seat, auto_move = game.history[i]
            if (auto_seat, str(auto_move)) != (seat, str(parse_move(text, rules))):
                raise RecordError(f"{where}, action {i} ({line!r}): the hand began with "
                                  f"'{auto_seat} {auto_move}' instead")
            continue
        try:
            game.play(text, seat=seat)
        except TienLenError as exc:
            raise RecordError(f"{where}, action {i} ({line!r}): {exc}") from None
    if len(game.history) > len(parsed):
        raise RecordError(f"{where}: the record leaves out the automatic action "
                          f"'{game.action_texts()[len(parsed)]}'")
    if "payments" in hand:
        written = hand["payments"]
        if not isinstance(written, list) or not all(isinstance(x, str) for x in written):
            raise RecordError(f"{where}: payments must be a list of texts such as "
                              "'1 pays 2 4: …'")
        found = [str(p) for p in game.payments]
        if written != found:
            diff = next((i for i, (a, b) in enumerate(zip(written, found, strict=False))
                         if a != b), min(len(written), len(found)))
            shown = written[diff] if diff < len(written) else "nothing"
            wanted = found[diff] if diff < len(found) else "nothing"
            raise RecordError(f"{where}: payment {diff} is {shown!r}, but the replay pays "
                              f"{wanted!r}")
    return game


def _gifts_text(gifts: Sequence[tuple[int, int | None, int]]) -> str:
    if not gifts:
        return "no exchange"
    return "; ".join(f"seat {giver} gives seat {receiver} {count} card{'s' if count > 1 else ''}"
                     for giver, receiver, count in gifts)


def load_session(text: str) -> Session:
    from .session import Session, next_deal

    rules, names, hands = _parse(text)
    games: list[Game] = []
    for index, hand in enumerate(hands):
        game = _replay_hand(rules, names, index, hand, first_default=index == 0)
        if games:
            prev = games[-1]
            if not prev.is_over:
                raise RecordError(f"hand {index + 1}: hand {index} was not finished")
            dealer, leader, exchange = next_deal(rules, prev)
            if game.dealer != dealer:
                raise RecordError(f"hand {index + 1}: seat {dealer} deals by the rules, "
                                  f"not seat {game.dealer}")
            if leader is not None and game.leader != leader:
                raise RecordError(f"hand {index + 1}: seat {leader} leads by the rules, "
                                  f"not seat {game.leader}")
            if leader is None and not game._lowest_start:
                raise RecordError(f"hand {index + 1}: the holder of the lowest card leads by "
                                  f"the rules, not a chosen leader (seat {game.leader})")
            gifts = [(s, m.other, len(m.cards)) for s, m in game.history
                     if isinstance(m, Action) and m.kind == "give"]
            if gifts != exchange:
                raise RecordError(f"hand {index + 1}: the exchange by the rules is "
                                  f"{_gifts_text(exchange)}, not {_gifts_text(gifts)}")
        games.append(game)
    # the hands dealt after loading are seeded by the record itself, so they are reproducible
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    session = Session(rules, len(names), seed=seed, names=names, _first=games[0])
    session.games = games
    return session


def load_game(text: str) -> Game:
    session = load_session(text)
    if len(session.games) > 1:
        raise RecordError(f"this is a session record of {len(session.games)} hands: load it with "
                          "Session.from_record (Game.from_record reads a one-hand record)")
    return session.game
