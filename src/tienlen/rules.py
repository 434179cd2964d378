"""Rules: every option of RULES.md as a field of one frozen dataclass, the presets, TOML in and out.

>>> rules = Rules.preset("viet-cong")
>>> rules.twos_in_runs
False
>>> rules.replace(stake=5).stake
5
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from .cards import Card
from .chops import ChopEntry, Pattern, parse_chops
from .errors import RulesError, error, reason_of
from .i18n import Msg, msg, os_reason, toml_reason
from .shapes import Play
from .tomltext import TOMLDecodeError
from .tomltext import loads as toml_loads
from .tomlwrite import dumps_table

# in the claim order of §7 and §11
InstantWin = Literal["four_twos", "dragon", "five_pair_chain", "six_pairs", "same_colour",
                     "all_sets", "four_threes"]
INSTANT_WINS: Final[tuple[InstantWin, ...]] = get_args(InstantWin)

# the options with a choice of values, each a Literal type of its values: the field's type
# in Rules, from which CHOICES (below the class) is read
SuitOrder = Literal["standard", "alphabetical"]
Direction = Literal["clockwise", "anticlockwise"]
NextDealer = Literal["loser", "rotate"]
HandSize = Literal[13, 17]
HandSizeBig = Literal[13, "even"]
Opening = Literal["lowest_single", "contains_lowest", "free"]
NextLeader = Literal["winner", "loser", "lowest"]
DoubleDeckTies = Literal["reject", "later_wins", "next_distinct"]
EndAt = Literal["last", "first_out"]
Scoring = Literal["loser_pays", "cards_left", "places", "none"]
ChopPay = Literal["none", "each", "chain"]
SessionResult = Literal["units", "first_places"]
Trading = Literal["none", "mutual", "president"]
UNITS: Final = ("stake", "penalty_two", "penalty_no_play", "instant_win_stake")
PenaltyBomb = int | tuple[tuple[Pattern, int], ...]

_PAGAT_CHOPS: Final = "quad > 2; chain:3+ > 2; chain:4+ > 22; chain:5+ > 222"


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """A complete rule set. Build one with :meth:`preset`, then :meth:`replace` options."""

    name: str = "pagat"  # the preset these rules start from (``custom`` when none)
    # §1 cards
    suit_order: SuitOrder = "standard"
    # §2 deal
    direction: Direction = "clockwise"
    next_dealer: NextDealer = "loser"
    hand_size_three: HandSize = 13
    hand_size_two: HandSize = 13
    hand_size_big: HandSizeBig = 13
    odd_card_to_leader: bool = False
    # §3 leading
    opening: Opening = "contains_lowest"
    opening_may_pass: bool = False
    opening_no_chain: bool = False
    next_leader: NextLeader = "winner"
    # §4 shapes
    twos_in_runs: bool = True
    twos_in_chains: bool = True
    triple_chains: bool = False
    quad_chains: bool = False
    # §5 following
    double_deck_ties: DoubleDeckTies = "reject"
    pass_locks_out: bool = True
    chop_after_pass: bool = False
    stacking: bool = False
    follow_suit: bool = False  # §11: beats keep the suit (pairs and chains the colour)
    # §6 bombs
    chops: tuple[ChopEntry, ...] = field(default_factory=lambda: parse_chops(_PAGAT_CHOPS))
    chop_out_of_turn: bool = False
    four_twos_bomb: bool = False
    free_chops: tuple[Pattern, ...] = ()  # §11: bombs that may be played at any moment
    chop_pay: ChopPay = "none"  # §11: "each" pays at once, "chain" (chặt chồng) at the round's end
    # §7 instant wins
    instant_wins: tuple[InstantWin, ...] = ()
    instant_win_optional: bool = False
    # §8 end and scoring
    end_at: EndAt = "last"
    scoring: Scoring = "loser_pays"
    stake: int = 1
    penalty_two: int = 0
    red_twos_double: bool = False
    penalty_bomb: PenaltyBomb = 0  # units per bomb left, or a table from bomb patterns to units
    penalty_no_play: int = 0
    instant_win_stake: int = 2
    place_points: tuple[int, ...] = ()  # §11 scoring "places"; empty: by the number of players
    cong: bool = False  # §11: players who never played when the first goes out are last at once
    no_two_last: bool = False  # §11: going out on twos takes the lowest free place
    session_result: SessionResult = "units"
    # §9 trading
    trading: Trading = "none"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            object.__setattr__(self, f.name, _check(f.name, value))
        if self.no_two_last and self.end_at != "last":
            raise error(RulesError, "err.rules.no_two_last", end_at=repr(self.end_at))

    # ------------------------------------------------------------------ presets
    @staticmethod
    def presets() -> list[str]:
        """The preset names, one per published account."""
        return list(PRESETS)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of one account: ``Rules.preset("viet-cong")``."""
        try:
            options = PRESETS[name]
        except (KeyError, TypeError):
            raise error(RulesError, "err.rules.unknown_preset", name=repr(name),
                        suggest=_suggest(str(name), PRESETS), presets=", ".join(PRESETS)) from None
        return cls(name=name, **options)

    @classmethod
    def options(cls) -> list[str]:
        """The names of every rules option (all fields but ``name``)."""
        return [f.name for f in dataclasses.fields(cls) if f.name != "name"]

    def replace(self, **changes: Any) -> Rules:
        """New rules with some options changed; an unknown option or bad value is a RulesError."""
        for key in changes:
            if key not in _FIELDS:
                raise error(RulesError, "err.rules.unknown_option", name=repr(key),
                            suggest=_suggest(key, _FIELDS))
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every option as plain TOML-able values (chops as their text)."""
        out: dict[str, Any] = {}
        for name in self.options():
            value = getattr(self, name)
            if name in ("chops", "free_chops"):
                value = [str(entry) for entry in value]
            elif name == "penalty_bomb" and isinstance(value, tuple):
                value = {str(pattern): units for pattern, units in value}
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    def differences(self, base: Rules | None = None) -> dict[str, Any]:
        """The options (as plain values) that differ from ``base`` (default: this preset)."""
        if base is None:
            base = Rules.preset(self.name) if self.name in PRESETS else Rules()
        mine, theirs = self.as_dict(), base.as_dict()
        return {k: v for k, v in mine.items() if theirs[k] != v}

    # ------------------------------------------------------------------ TOML
    @classmethod
    def from_toml(cls, source: str | Path) -> Rules:
        """Rules from a house-rules file (a path) or its text: ``preset = "…"`` plus options."""
        text, where = _read_source(source)
        try:
            data = toml_loads(text)
        except TOMLDecodeError as exc:
            raise error(RulesError, "err.rules.toml", where=where, error=toml_reason(exc)) from None
        try:
            return cls.from_mapping(data)
        except RulesError as exc:
            raise error(RulesError, "err.rules.where", where=where, reason=reason_of(exc)) from None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a parsed rules file: ``preset`` (or ``rules``) plus options or ``[options]``."""
        data = dict(data)
        nested_options = data.get("options")
        if "name" in data or (isinstance(nested_options, dict) and "name" in nested_options):
            raise error(RulesError, "err.rules.name_not_option")
        name = data.pop("preset", data.pop("rules", "pagat"))
        if not isinstance(name, str):
            raise error(RulesError, "err.rules.preset_type", value=repr(name))
        nested = data.pop("options", {})
        if not isinstance(nested, dict):
            raise error(RulesError, "err.rules.options_table")
        data.update(nested)
        base = cls.preset(name) if name != "custom" else cls(name="custom")
        return base.replace(**data)

    def to_toml(self) -> str:
        """The rules as a house-rules file: the preset, then the options that differ from it."""
        lines = [f'preset = "{self.name}"']
        changed = self.differences()
        if changed:
            lines.append(dumps_table(changed))
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ derived facts
    def key(self, card: Card) -> int:
        """The card's place in card order under these rules (0 lowest, 51 highest): sort
        with ``sorted(cards, key=rules.key)`` (``Card``'s own ``<`` is the standard order)."""
        return card.key(self.suit_order)

    def play(self, text: str) -> Play:
        """Read a play judged under these rules: ``Play.parse(text, rules)``."""
        return Play.parse(text, self)

    def describe(self) -> str:
        """Every option with its value, one per line, as ``tienlen rules PRESET`` prints them."""
        lines = [f"preset: {self.name}"]
        for key, value in self.as_dict().items():
            if key == "chops":
                lines.append("chops:")
                lines.extend(f"  {entry}    ({entry.words()})" for entry in self.chops)
                continue
            if isinstance(value, bool):
                value = str(value).lower()
            elif isinstance(value, dict):
                value = ", ".join(f"{k} = {v}" for k, v in value.items())
            elif key == "place_points" and not value:
                value = "by the number of players (2: 2 -2; 3: 2 0 -2; 4: 2 1 -1 -2; 5+: 2 1 0 … -1 -2)"
            elif isinstance(value, list):
                value = ", ".join(str(v) for v in value) or "none"
            lines.append(f"{key}: {value}")
        return "\n".join(lines)


def load_rules(spec: str) -> Rules:
    """A preset name, or the path of a house-rules TOML file (the ``--rules`` of every command
    and of training)."""
    if spec in Rules.presets():
        return Rules.preset(spec)
    if spec.endswith(".toml") or "/" in spec:
        return Rules.from_toml(spec)
    return Rules.preset(spec)  # raises with the list of presets


_FIELDS: Final = {f.name for f in dataclasses.fields(Rules)}
# option -> its allowed values, read from the options whose type is a Literal
CHOICES: Final[dict[str, tuple[object, ...]]] = {
    name: get_args(hint) for name, hint in get_type_hints(Rules).items()
    if get_origin(hint) is Literal}


def _suggest(word: str, names: Iterable[str]) -> Msg | str:
    """" (did you mean 'x'?)" when a name is close to ``word``, else nothing."""
    close = difflib.get_close_matches(word, list(names), n=1)
    return msg("err.rules.did_you_mean", name=repr(close[0])) if close else ""


def _in_option(option: str, exc: RulesError) -> RulesError:
    """The error ``exc`` about one option's value, named by that option (``chops: …``)."""
    return error(RulesError, "err.rules.option", option=option, reason=reason_of(exc))


def _read_source(source: str | Path) -> tuple[str, str | Msg]:
    if isinstance(source, Path) or ("\n" not in source and "=" not in source):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise error(RulesError, "err.rules.cannot_read", path=repr(str(path)),
                        error=os_reason(exc)) from None
        except UnicodeDecodeError:
            raise error(RulesError, "err.rules.not_utf8", path=repr(str(path))) from None
    return source, msg("err.rules.where_text")


def _check(name: str, value: Any) -> Any:
    """Validate and normalise one option value; a RulesError names the option."""
    if name == "name":
        if value != "custom" and value not in PRESETS:
            raise error(RulesError, "err.rules.name_value", value=repr(value),
                        suggest=_suggest(str(value), PRESETS))
        return value
    if name == "chops":
        if isinstance(value, str):
            try:
                return parse_chops(value)
            except RulesError as exc:
                raise _in_option("chops", exc) from None
        if not isinstance(value, (list, tuple)):
            raise error(RulesError, "err.rules.chops_type", value=repr(value))
        try:
            return tuple(v if isinstance(v, ChopEntry) else ChopEntry.parse(v) for v in value)
        except RulesError as exc:
            raise _in_option("chops", exc) from None
    if name == "free_chops":
        if isinstance(value, str):
            value = [] if value in ("", "none") else [v for v in value.replace(";", ",").split(",")]
        if not isinstance(value, (list, tuple)):
            raise error(RulesError, "err.rules.free_chops_type", value=repr(value))
        out = []
        for v in value:
            if isinstance(v, Pattern):
                out.append(v)
                continue
            if not isinstance(v, str):
                raise _in_option("free_chops", error(RulesError, "err.rules.not_bomb_pattern",
                                                     value=repr(v)))
            try:
                out.append(Pattern.parse(v, as_target=False))
            except RulesError as exc:
                raise _in_option("free_chops", exc) from None
        return tuple(dict.fromkeys(out))
    if name == "penalty_bomb":
        if isinstance(value, (Mapping, tuple, list)) and not isinstance(value, str):
            items = list(value.items()) if isinstance(value, Mapping) else list(value)
            table = []
            for item in items:
                if not (isinstance(item, (tuple, list)) and len(item) == 2):
                    raise _in_option("penalty_bomb", error(
                        RulesError, "err.rules.not_pattern_units", value=repr(item)))
                pattern, units = item
                if not isinstance(pattern, Pattern):
                    if not isinstance(pattern, str):
                        raise _in_option("penalty_bomb", error(
                            RulesError, "err.rules.not_bomb", value=repr(pattern)))
                    try:
                        pattern = Pattern.parse(pattern, as_target=False)
                    except RulesError as exc:
                        raise _in_option("penalty_bomb", exc) from None
                if isinstance(units, bool) or not isinstance(units, int) or units < 0:
                    raise _in_option("penalty_bomb", error(
                        RulesError, "err.rules.pattern_units", pattern=str(pattern),
                        value=repr(units)))
                table.append((pattern, units))
            return tuple(table)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise error(RulesError, "err.rules.penalty_bomb", value=repr(value))
        return value
    if name == "place_points":
        if value in ("", "none") or value is None:
            return ()
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise error(RulesError, "err.rules.place_points_type", value=repr(value))
        if value and not 2 <= len(value) <= 8:
            raise error(RulesError, "err.rules.place_points_count", count=len(value))
        if sum(value) != 0:
            raise error(RulesError, "err.rules.place_points_sum", total=sum(value),
                        value=repr(list(value)))
        return tuple(value)
    if name == "instant_wins":
        if isinstance(value, str):
            value = [value] if value and value != "none" else []
        if not isinstance(value, (list, tuple)):
            raise error(RulesError, "err.rules.instant_wins_type", wins=", ".join(INSTANT_WINS))
        for win in value:
            if win not in INSTANT_WINS:
                raise error(RulesError, "err.rules.instant_win_unknown", value=repr(win),
                            suggest=_suggest(str(win), INSTANT_WINS), wins=", ".join(INSTANT_WINS))
        if len(set(value)) != len(value):
            raise error(RulesError, "err.rules.instant_win_twice")
        return tuple(w for w in INSTANT_WINS if w in value)  # the claim order of §7 and §11
    if name in CHOICES:
        allowed = CHOICES[name]
        if isinstance(value, bool) or value not in allowed:
            shown = ", ".join(str(a) for a in allowed)
            raise error(RulesError, "err.rules.choice", name=name, allowed=shown, value=repr(value))
        return value
    if name in UNITS:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise error(RulesError, "err.rules.units", name=name, value=repr(value))
        if name == "stake" and value == 0:
            raise error(RulesError, "err.rules.stake")
        return value
    if not isinstance(value, bool):
        raise error(RulesError, "err.rules.bool", name=name, value=repr(value))
    return value


_VN_WINS: Final = ("four_twos", "dragon", "five_pair_chain", "six_pairs", "same_colour",
                   "four_threes")
_MIEN_NAM: Final[dict[str, Any]] = {
    "direction": "anticlockwise", "twos_in_runs": False, "twos_in_chains": False,
    "free_chops": ("chain:4+",), "instant_wins": _VN_WINS, "scoring": "places",
    "penalty_two": 1, "red_twos_double": True,
    "penalty_bomb": {"chain:3": 2, "quad": 3, "chain:4+": 4}, "penalty_no_play": 2,
    "cong": True, "chop_pay": "chain", "instant_win_stake": 4,
    "chops": "quad > 2; chain:3 > 2; chain:4+ > 2; quad > 22; chain:4+ > 22; quad > chain:3; "
             "chain:4+ > chain:3; chain:4+ > quad",
}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "pagat": {},
    "parlett": {
        "opening": "lowest_single",
        "chops": "quad > 2; chain:3+ > 2; quad > 22; chain:4+ > 22; chain:5+ > 222",
    },
    "justus-pang": {
        "opening_may_pass": True, "twos_in_runs": False, "chop_after_pass": True, "stacking": True,
    },
    "kenneth-lu": {
        "opening": "free", "hand_size_three": 17, "hand_size_two": 17, "odd_card_to_leader": True,
        "end_at": "first_out", "scoring": "cards_left",
        "chops": "quad > single; quad > pair; chain:3 > 2",
    },
    "viet-cong": {
        "twos_in_runs": False, "quad_chains": True, "instant_wins": ("four_twos",),
        "chops": "quad > 2; chain:3+ > 2; quad_chain:2 > 22; chain:5+ > 22; quad_chain:3 > 222; "
                 "chain:7+ > 222",
    },
    "thirteen": {
        "next_leader": "lowest", "next_dealer": "rotate", "twos_in_runs": False,
        "chops": "chain:3+ > single; quad > single; chain:4+ > 22; chain:6+ > 222",
    },
    "killer": {
        "twos_in_runs": False, "quad_chains": True, "pass_locks_out": False,
        "instant_wins": ("four_twos",),
        "chops": "quad > 2; chain:3+ > 2; quad_chain:2 > 22; chain:4+ > 22; quad_chain:3 > 222; "
                 "chain:5+ > 222; quad > chain:3",
    },
    "cardrules": {
        "twos_in_runs": False, "quad_chains": True, "triple_chains": True,
        "instant_wins": ("four_twos", "dragon", "all_sets"), "instant_win_optional": True,
        "four_twos_bomb": True,
        "chops": "quad > 2; chain:3+ > 2; chain:4+ > 22; chain:6+ > 222; "
                 "triple_chain:3 > 2; triple_chain:3 > 22; "
                 "quad_chain:3 > 2; quad_chain:3 > 22; quad_chain:3 > 222; "
                 "chain:4 > chain:3 higher; chain:5 > chain:3 higher; chain:5 > chain:4 higher; "
                 "chain:6 > chain:3 higher; chain:6 > chain:4 higher; chain:6 > chain:5 higher; "
                 "triple_chain:3 > chain:3 higher; triple_chain:3 > triple_chain:3 higher; "
                 "quad_chain:3 > quad higher; quad_chain:3 > chain:3 higher; "
                 "quad_chain:3 > triple_chain:3 higher",
    },
    "mien-nam": _MIEN_NAM,
    "mien-bac": {**_MIEN_NAM, "free_chops": (), "follow_suit": True, "no_two_last": True,
                 "chops": "quad > 2"},
}
