"""Records (docs/api.md §Records): hands and sessions as TOML text, written and replayed with checks.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .actions import Action, parse_move
from .cards import KEY_TEXT
from .dealing import next_deal
from .errors import RecordError, TienLenError, error, reason_of
from .hand import Hand
from .i18n import Msg, Parts, msg, toml_reason
from .rules import PRESETS, Rules
from .state import Exchange
from .tomltext import TOMLDecodeError
from .tomltext import loads as toml_loads
from .tomlwrite import dumps_table, value

FORMAT = "tienlen/1"

H = TypeVar("H", bound=Hand)
H_co = TypeVar("H_co", bound=Hand, covariant=True)


class MakesHand(Protocol[H_co]):
    """What builds a hand from a record's deal: the class :class:`~tienlen.game.Game` (the
    loaders take it, so that this module need not import ``game``, which imports it)."""

    def __call__(self, rules: Rules, hands: Sequence[str], leader: int | None = None,
                 dealer: int = 0, first_hand: bool = True, *, names: Sequence[str] | None = None,
                 exchange: Sequence[Exchange] = ()) -> H_co: ...


def _header(rules: Rules, names: Sequence[str]) -> list[str]:
    lines = [f'format = "{FORMAT}"', f"rules = {value(rules.name)}", f"players = {value(list(names))}"]
    changed = rules.differences()
    if changed:
        lines += ["", "[options]", dumps_table(changed)]
    return lines


def _hand_lines(game: Hand) -> list[str]:
    order = game.rules.suit_order
    lines = ["", "[[hands]]", f"dealer = {game.dealer}"]
    if not game.state.lowest_start:
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


def payment_lines(game: Hand) -> list[str]:
    """The hand's payments, itemised, as a record writes them: only when chops or penalties
    moved units (otherwise the finish order alone says who paid what)."""
    payments = game.payments
    if not any(p.kind in ("chop", "penalty") for p in payments):
        return []
    return [str(p) for p in payments]


def game_record(game: Hand) -> str:
    return "\n".join(_header(game.rules, game.names) + _hand_lines(game)) + "\n"


def session_record(rules: Rules, names: Sequence[str], games: Sequence[Hand]) -> str:
    lines = _header(rules, names)
    for game in games:
        lines += _hand_lines(game)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- loading
def _parse(text: str) -> tuple[Rules, list[str], list[dict[str, Any]]]:
    if not isinstance(text, str):
        raise error(RecordError, "err.record.not_text")
    try:
        data = toml_loads(text)
    except TOMLDecodeError as exc:
        raise error(RecordError, "err.record.toml", error=toml_reason(exc)) from None
    if data.get("format") != FORMAT:
        raise error(RecordError, "err.record.format", want=repr(FORMAT), got=repr(data.get("format")))
    name = data.get("rules")
    if not isinstance(name, str) or (name not in PRESETS and name != "custom"):
        raise error(RecordError, "err.record.rules_name", name=repr(name))
    try:
        rules = Rules.from_mapping({"preset": name, "options": data.get("options", {})})
    except TienLenError as exc:
        raise error(RecordError, "err.record.rules", reason=reason_of(exc)) from None
    names = data.get("players")
    if not isinstance(names, list) or not all(isinstance(x, str) and x for x in names):
        raise error(RecordError, "err.record.players")
    if not 2 <= len(names) <= 8:
        raise error(RecordError, "err.record.player_count", n=len(names))
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands or not all(isinstance(h, dict) for h in hands):
        raise error(RecordError, "err.record.no_hands")
    unknown = set(data) - {"format", "rules", "players", "options", "hands"}
    if unknown:
        raise error(RecordError, "err.record.unknown_keys", keys=", ".join(sorted(unknown)))
    return rules, names, hands


def _replay_hand(rules: Rules, names: list[str], index: int, hand: dict[str, Any],
                 first_default: bool, make: MakesHand[H]) -> H:
    where = msg("err.record.hand", n=index + 1)

    def at(i: int, line: str) -> Msg:
        return msg("err.record.action", n=index + 1, i=i, line=repr(line))
    for key in hand:
        if key not in ("dealer", "leader", "first_hand", "dealt", "actions", "payments"):
            raise error(RecordError, "err.record.unknown_key", where=where, key=repr(key))
    dealt = hand.get("dealt")
    actions = hand.get("actions", [])
    if not isinstance(dealt, list) or len(dealt) != len(names) or \
            not all(isinstance(h, str) for h in dealt):
        raise error(RecordError, "err.record.dealt", where=where)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise error(RecordError, "err.record.actions", where=where)
    for key, kind, words in (("dealer", int, "err.record.must_seat"),
                             ("leader", int, "err.record.must_seat"),
                             ("first_hand", bool, "err.record.must_bool")):
        if key in hand and (not isinstance(hand[key], kind)
                            or (kind is int and isinstance(hand[key], bool))):
            raise error(RecordError, words, where=where, key=key, value=repr(hand[key]))
    parsed: list[tuple[int, str]] = []
    for i, line in enumerate(actions):
        seat_text, _, move_text = line.strip().partition(" ")
        if not seat_text.isdigit() or not move_text.strip():
            raise error(RecordError, "err.record.action_form", where=at(i, line))
        parsed.append((int(seat_text), move_text))
    exchange: list[Exchange] = []
    for seat, text in parsed:
        if not text.startswith("give "):
            break
        try:
            gift = Action.parse(text)
        except TienLenError as exc:
            raise error(RecordError, "err.record.where", where=where, reason=reason_of(exc)) from None
        assert gift.other is not None
        exchange.append((seat, gift.other, len(gift.cards)))
    try:
        game = make(rules, dealt, leader=hand.get("leader"), dealer=hand.get("dealer", 0),
                    first_hand=hand.get("first_hand", first_default), names=names,
                    exchange=exchange)
    except TienLenError as exc:
        raise error(RecordError, "err.record.where", where=where, reason=reason_of(exc)) from None
    for i, (seat, text) in enumerate(parsed):
        line = actions[i]
        if i < len(game.history):  # made automatically when the hand began
            auto_seat, auto_move = game.history[i]
            if (auto_seat, str(auto_move)) != (seat, str(parse_move(text, rules))):
                raise error(RecordError, "err.record.began_with", where=at(i, line),
                            action=f"{auto_seat} {auto_move}")
            continue
        try:
            game.play(text, seat=seat)
        except TienLenError as exc:
            raise error(RecordError, "err.record.where", where=at(i, line),
                        reason=reason_of(exc)) from None
    if len(game.history) > len(parsed):
        raise error(RecordError, "err.record.leaves_out", where=where,
                    action=game.action_texts()[len(parsed)])
    if "payments" in hand:
        written = hand["payments"]
        if not isinstance(written, list) or not all(isinstance(x, str) for x in written):
            raise error(RecordError, "err.record.payments", where=where)
        found = [str(p) for p in game.payments]
        if written != found:
            diff = next((i for i, (a, b) in enumerate(zip(written, found, strict=False))
                         if a != b), min(len(written), len(found)))
            nothing = msg("err.record.nothing")
            shown = repr(written[diff]) if diff < len(written) else nothing
            wanted = repr(found[diff]) if diff < len(found) else nothing
            raise error(RecordError, "err.record.payment", where=where, i=diff, shown=shown,
                        wanted=wanted)
    return game


def _gifts_text(gifts: Sequence[tuple[int, int | None, int]]) -> Msg | Parts:
    if not gifts:
        return msg("err.record.no_exchange")
    return Parts(tuple(msg(f"err.record.gift.{'other' if count > 1 else 'one'}", giver=giver,
                           receiver=receiver, n=count) for giver, receiver, count in gifts))


@dataclass(frozen=True)
class Loaded(Generic[H]):
    """A record replayed: its rules, the players' names, every hand (each action checked),
    and the seed of the hands dealt after them (drawn from the record's text)."""

    rules: Rules
    names: list[str]
    games: list[H]
    seed: int


def load_hands(text: str, make: MakesHand[H]) -> Loaded[H]:
    """Replay every hand of a record with ``make`` (the class :class:`~tienlen.game.Game`),
    checking each hand's dealer, leader and exchange against the hand before it."""
    rules, names, hands = _parse(text)
    games: list[H] = []
    for index, hand in enumerate(hands):
        game = _replay_hand(rules, names, index, hand, index == 0, make)
        if games:
            prev = games[-1]
            if not prev.is_over:
                raise error(RecordError, "err.record.unfinished", n=index + 1, prev=index)
            dealer, leader, exchange = next_deal(rules, prev)
            if game.dealer != dealer:
                raise error(RecordError, "err.record.dealer", n=index + 1, want=dealer,
                            got=game.dealer)
            if leader is not None and game.leader != leader:
                raise error(RecordError, "err.record.leader", n=index + 1, want=leader,
                            got=game.leader)
            if leader is None and not game.state.lowest_start:
                raise error(RecordError, "err.record.lowest_leads", n=index + 1, got=game.leader)
            gifts = [(s, m.other, len(m.cards)) for s, m in game.history
                     if isinstance(m, Action) and m.kind == "give"]
            if gifts != exchange:
                raise error(RecordError, "err.record.exchange", n=index + 1,
                            want=_gifts_text(exchange), got=_gifts_text(gifts))
        games.append(game)
    # the hands dealt after loading are seeded by the record itself, so they are reproducible
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    return Loaded(rules, names, games, seed)


def load_game(text: str, make: MakesHand[H]) -> H:
    """Replay a one-hand record with ``make`` (a session record of several hands is refused)."""
    games = load_hands(text, make).games
    if len(games) > 1:
        raise error(RecordError, "err.record.session", n=len(games))
    return games[0]
