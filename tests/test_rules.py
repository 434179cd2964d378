"""Rules: the presets of RULES.md §10, options, TOML in and out."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from helpers import RULES_MD_CHOPS
from tienlen import ChopEntry, Rules, RulesError
from tienlen.chops import Pattern
from tienlen.rules import CHOICES, INSTANT_WINS, UNITS

# ---------------------------------------------------------------------- RULES.md §10, transcribed
# Every option of RULES.md with the value the `pagat` column (and, for options the
# table does not list, the "Options not listed" paragraph) gives it.
PAGAT: dict[str, Any] = {
    # the table
    "opening": "contains_lowest",
    "opening_may_pass": False,
    "next_leader": "winner",
    "next_dealer": "loser",
    "hand_size_three": 13,
    "hand_size_two": 13,
    "odd_card_to_leader": False,
    "twos_in_runs": True,
    "twos_in_chains": True,
    "quad_chains": False,
    "triple_chains": False,
    "pass_locks_out": True,
    "chop_after_pass": False,
    "stacking": False,
    "instant_wins": (),
    "four_twos_bomb": False,
    "end_at": "last",
    "scoring": "loser_pays",
    # options not listed keep their defaults
    "suit_order": "standard",
    "direction": "clockwise",
    "hand_size_big": 13,
    "double_deck_ties": "reject",
    "opening_no_chain": False,
    "chop_out_of_turn": False,
    "instant_win_optional": False,
    "trading": "none",
    "stake": 1,
    "penalty_two": 0,
    "red_twos_double": False,
    "penalty_bomb": 0,
    "penalty_no_play": 0,
    "instant_win_stake": 2,
    "session_result": "units",
    # §11: the new options, whose defaults keep the old behaviour
    "follow_suit": False,
    "free_chops": (),
    "chop_pay": "none",
    "cong": False,
    "no_two_last": False,
    "place_points": (),
}

MIEN_NAM: dict[str, Any] = {
    "direction": "anticlockwise", "twos_in_runs": False, "twos_in_chains": False,
    "free_chops": (Pattern("chain", 4, True),), "follow_suit": False,
    "instant_wins": ("four_twos", "dragon", "five_pair_chain", "six_pairs", "same_colour",
                     "four_threes"),
    "scoring": "places", "penalty_two": 1, "red_twos_double": True,
    "penalty_bomb": ((Pattern("chain", 3), 2), (Pattern("quad"), 3), (Pattern("chain", 4, True), 4)),
    "penalty_no_play": 2, "cong": True, "chop_pay": "chain", "instant_win_stake": 4,
    "no_two_last": False,
}

# The other columns: only the cells that differ from `pagat` (a "—" keeps the pagat value;
# a cell that repeats the pagat value is left out).
COLUMNS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "parlett": {"opening": "lowest_single"},
    "justus-pang": {
        "opening_may_pass": True, "twos_in_runs": False, "chop_after_pass": True,
        "stacking": True,
    },
    "kenneth-lu": {
        "opening": "free", "hand_size_three": 17, "hand_size_two": 17,
        "odd_card_to_leader": True, "end_at": "first_out", "scoring": "cards_left",
    },
    "viet-cong": {"twos_in_runs": False, "quad_chains": True, "instant_wins": ("four_twos",)},
    "thirteen": {"next_leader": "lowest", "next_dealer": "rotate", "twos_in_runs": False},
    "killer": {
        "twos_in_runs": False, "quad_chains": True, "pass_locks_out": False,
        "instant_wins": ("four_twos",),
    },
    "cardrules": {
        "twos_in_runs": False, "quad_chains": True, "triple_chains": True,
        "instant_wins": ("four_twos", "dragon", "all_sets"), "four_twos_bomb": True,
        "instant_win_optional": True,  # "(true for cardrules)"
    },
    # §11.2
    "mien-nam": MIEN_NAM,
    "mien-bac": {**MIEN_NAM, "free_chops": (), "follow_suit": True, "no_two_last": True},
}

# one transcription of RULES.md §10 chop lists serves every test (tests/helpers.py)
CHOPS: dict[str, set[str]] = {name: set(entries) for name, entries in RULES_MD_CHOPS.items()}

PRESET_NAMES = ["pagat", "parlett", "justus-pang", "kenneth-lu", "viet-cong", "thirteen",
                "killer", "cardrules", "mien-nam", "mien-bac"]


# ---------------------------------------------------------------------- presets
def test_there_is_a_preset_for_every_account_in_the_order_of_the_table() -> None:
    assert Rules.presets() == PRESET_NAMES


def test_the_rules_have_exactly_the_options_of_rules_md() -> None:
    assert set(Rules.options()) == set(PAGAT) | {"chops"}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_has_the_options_of_its_column_in_rules_md(name: str) -> None:
    rules = Rules.preset(name)
    expected = {**PAGAT, **COLUMNS[name]}
    actual = {option: getattr(rules, option) for option in expected}
    assert actual == expected
    assert rules.name == name


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_has_exactly_the_chop_entries_of_rules_md(name: str) -> None:
    entries = [str(entry) for entry in Rules.preset(name).chops]
    assert len(entries) == len(set(entries)), "an entry is listed twice"
    assert set(entries) == CHOPS[name]


def test_presets_that_rules_md_calls_alike_are_alike() -> None:
    # "justus-pang: as pagat" for the chops
    assert Rules.preset("justus-pang").chops == Rules.preset("pagat").chops
    assert Rules.preset("pagat") == Rules()


def test_an_unknown_preset_is_an_error_that_lists_the_presets_and_suggests_one() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("vietcong")
    message = str(info.value)
    assert "'vietcong'" in message
    assert "did you mean 'viet-cong'" in message
    for name in PRESET_NAMES:
        assert name in message


def test_a_chop_entry_reads_and_prints_as_rules_md_writes_it() -> None:
    for text in ("quad > 2", "chain:4+ > 22", "chain:5 > chain:3 higher", "quad_chain:3 > 222"):
        assert str(ChopEntry.parse(text)) == text
    assert str(ChopEntry.parse("chain:4+ -> 22")) == "chain:4+ > 22"
    assert str(ChopEntry.parse("quad beats single")) == "quad > single"


# ---------------------------------------------------------------------- the dataclass
def test_rules_are_frozen() -> None:
    rules = Rules.preset("pagat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.stake = 5  # type: ignore[misc]
    assert rules.stake == 1


def test_rules_take_options_only_by_keyword() -> None:
    with pytest.raises(TypeError):
        Rules("pagat")  # type: ignore[misc]
    assert Rules(stake=3).stake == 3


def test_rules_with_the_same_options_are_equal_and_hash_alike() -> None:
    a = Rules.preset("killer").replace(stake=4)
    b = Rules.preset("killer").replace(stake=4)
    assert a == b
    assert hash(a) == hash(b)
    assert a != Rules.preset("killer")


def test_replace_gives_new_rules_and_leaves_the_old_unchanged() -> None:
    base = Rules.preset("viet-cong")
    changed = base.replace(twos_in_runs=True, stake=5)
    assert (changed.twos_in_runs, changed.stake) == (True, 5)
    assert (base.twos_in_runs, base.stake) == (False, 1)
    assert changed.name == "viet-cong"
    assert changed.chops == base.chops


def test_replace_reads_chops_and_instant_wins_from_text() -> None:
    rules = Rules.preset("pagat").replace(chops="quad > single; chain:3 > 2",
                                          instant_wins=["dragon", "four_twos"])
    assert [str(e) for e in rules.chops] == ["quad > single", "chain:3 > 2"]
    assert rules.instant_wins == ("four_twos", "dragon")  # the resolution order of §7
    assert Rules.preset("pagat").replace(instant_wins="none").instant_wins == ()


@pytest.mark.parametrize(
    ("option", "suggestion"),
    [("stak", "stake"), ("twos_in_run", "twos_in_runs"), ("oppening", "opening"),
     ("chop", "chops")],
)
def test_an_unknown_option_is_an_error_naming_it_and_the_close_name(option: str,
                                                                    suggestion: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat").replace(**{option: 1})
    message = str(info.value)
    assert repr(option) in message
    assert f"did you mean {suggestion!r}" in message


def test_an_unknown_option_far_from_any_name_is_still_named() -> None:
    with pytest.raises(RulesError, match="unknown option 'xyzzy'"):
        Rules.preset("pagat").replace(xyzzy=True)


@pytest.mark.parametrize(
    ("option", "bad"),
    [
        ("stake", "five"), ("stake", 0), ("stake", -1), ("stake", True), ("penalty_two", -2),
        ("twos_in_runs", "yes"), ("twos_in_runs", 1), ("opening", "lowest"),
        ("suit_order", "bridge"), ("hand_size_three", 15), ("hand_size_big", "odd"),
        ("scoring", None), ("trading", "swap"), ("instant_wins", ["dragons"]),
        ("instant_wins", 3), ("instant_wins", ["dragon", "dragon"]),
        ("chops", "quad > nothing"), ("chops", 7), ("chops", ["single > 2"]),
        ("next_leader", "winner "), ("end_at", True),
    ],
)
def test_a_bad_value_is_an_error_naming_the_option(option: str, bad: object) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat").replace(**{option: bad})
    assert option in str(info.value)


def test_a_rules_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Rules.preset("pagat").replace(stake="x")


def test_every_option_is_an_attribute() -> None:
    rules = Rules.preset("cardrules")
    for option in Rules.options():
        assert hasattr(rules, option)
    assert rules.as_dict().keys() == set(Rules.options())


# ---------------------------------------------------------------------- TOML in
def test_rules_from_toml_text_start_from_the_preset_and_change_options() -> None:
    rules = Rules.from_toml('preset = "viet-cong"\nstake = 5\ntwos_in_runs = true\n')
    assert rules == Rules.preset("viet-cong").replace(stake=5, twos_in_runs=True)
    assert rules.name == "viet-cong"


def test_rules_from_toml_accept_an_options_table_and_chops_as_a_list() -> None:
    text = (
        'preset = "thirteen"\n'
        "[options]\n"
        'chops = ["quad > single", "chain:3+ > 2"]\n'
        'instant_wins = ["dragon"]\n'
    )
    rules = Rules.from_toml(text)
    assert [str(e) for e in rules.chops] == ["quad > single", "chain:3+ > 2"]
    assert rules.instant_wins == ("dragon",)
    assert rules.next_leader == "lowest"


def test_rules_from_toml_with_only_the_preset_are_the_preset() -> None:
    assert Rules.from_toml('preset = "killer"') == Rules.preset("killer")


def test_rules_from_a_toml_file_by_path_or_by_path_text(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "parlett"\nstake = 3\nsuit_order = "alphabetical"\n',
                    encoding="utf-8")
    expected = Rules.preset("parlett").replace(stake=3, suit_order="alphabetical")
    assert Rules.from_toml(path) == expected
    assert Rules.from_toml(str(path)) == expected


@pytest.mark.parametrize(("value", "column"), [
    pytest.param("[" * 500 + "]" * 500, 41, id="arrays"),  # tomllib gives out near 330
    pytest.param("{a = " * 500 + "1" + "}" * 500, 169, id="inline-tables"),
    pytest.param("[" * 33 + "]" * 33, 41, id="one-over"),
    pytest.param("[{a = [" * 11 + "]}]" * 11, 85, id="mixed"),
])
def test_a_rules_file_nested_too_deeply_is_a_toml_error_saying_where(value: str,
                                                                     column: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_toml(f'preset = "pagat"\nstake = {value}\n')
    assert str(info.value) == ("rules: not valid TOML: Nested too deeply (more than 32 "
                               f"levels) (at line 2, column {column})")


def test_nesting_by_dotted_keys_or_table_headers_is_bounded_too() -> None:
    for text in (".".join(["a"] * 2000) + " = 1\n", "[" + ".".join(["a"] * 2000) + "]\n",
                 "[options]\n" + ".".join(["a"] * 33) + " = 1\n"):
        with pytest.raises(RulesError) as info:
            Rules.from_toml('preset = "pagat"\n' + text)
        assert str(info.value) == ("rules: not valid TOML: Nested too deeply (more than 32 "
                                   "levels)")


def test_nesting_is_counted_outside_strings_and_comments_only() -> None:
    brackets = "[{" * 300
    strings = [f'"{brackets}"', f"'{brackets}'", f'"""{brackets}"""', f"'''{brackets}'''",
               f'"\\"{brackets}"', f'"""a""{brackets}"""""']
    text = (f'preset = "pagat"  # {brackets}\nstake = 2\n'
            f'chops = ["quad > 2", {", ".join(strings)}]\n')
    with pytest.raises(RulesError) as info:
        Rules.from_toml(text)
    assert "chops" in str(info.value) and "Nested" not in str(info.value)
    text = 'preset = "pagat"\n# a comment, "not a string\nstake = ' + "[" * 40 + "]" * 40
    with pytest.raises(RulesError, match="Nested too deeply"):
        Rules.from_toml(text)
    thirty_two = "[" * 32 + "]" * 32  # as deep as may be: refused for what it is, not its depth
    with pytest.raises(RulesError, match="stake") as info:
        Rules.from_toml(f'preset = "pagat"\nstake = {thirty_two}\n')
    assert "Nested" not in str(info.value)


def test_a_missing_rules_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(RulesError, match="cannot read rules file") as info:
        Rules.from_toml(missing)
    assert "nope.toml" in str(info.value)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('preset = "pagat"\nstake = \n', ["not valid TOML"]),
        ("preset = pagat\n", ["not valid TOML"]),
        ('preset = "vietcong"\n', ["unknown preset", "'vietcong'", "viet-cong"]),
        ("preset = 3\n", ["preset"]),
        ('preset = "pagat"\nchops = ["quad > 2", "quad >> 2"]\n', ["chops", "quad >> 2"]),
        ('preset = "pagat"\nchops = ["chain:2 > 2"]\n', ["chops", "chain:2"]),
        ('preset = "pagat"\nstake = "five"\n', ["stake", "five"]),
        ('preset = "pagat"\ntwos_in_runs = "yes"\n', ["twos_in_runs", "true or false"]),
        ('preset = "pagat"\ninstant_wins = "dragons"\n', ["instant_wins", "dragons"]),
        ('preset = "pagat"\nopening = 1\n', ["opening"]),
        ('preset = "pagat"\nstacking_on = true\n', ["stacking_on", "did you mean 'stacking'"]),
        ('preset = "pagat"\noptions = 3\n', ["options"]),
    ],
)
def test_a_bad_rules_file_is_a_rules_error_that_says_what_is_wrong(
    tmp_path: Path, content: str, words: list[str]
) -> None:
    path = tmp_path / "house.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Rules.from_toml(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message
    # the same text given directly is the same error, without the file name
    with pytest.raises(RulesError) as direct:
        Rules.from_toml(content)
    for word in words:
        assert word in str(direct.value)


def test_a_rules_file_that_is_not_text_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_bytes(b"\xff\xfe\x00preset")
    with pytest.raises(RulesError, match="UTF-8"):
        Rules.from_toml(path)


# ---------------------------------------------------------------------- TOML out
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_preset_writes_as_just_its_name_and_reads_back(name: str) -> None:
    rules = Rules.preset(name)
    text = rules.to_toml()
    assert text == f'preset = "{name}"\n'
    assert Rules.from_toml(text) == rules


def test_to_toml_writes_only_the_options_that_differ_from_the_preset() -> None:
    rules = Rules.preset("viet-cong").replace(stake=5, chop_out_of_turn=True)
    text = rules.to_toml()
    assert text.splitlines()[0] == 'preset = "viet-cong"'
    assert "stake = 5" in text
    assert "chop_out_of_turn = true" in text
    assert "twos_in_runs" not in text
    assert Rules.from_toml(text) == rules


def _random_rules(rng: random.Random) -> Rules:
    changes: dict[str, Any] = {}
    pool = sorted({entry for entries in CHOPS.values() for entry in entries})
    for option in Rules.options():
        if rng.random() < 0.5:
            continue
        if option in CHOICES:
            changes[option] = rng.choice(CHOICES[option])
        elif option in UNITS:
            changes[option] = rng.randint(1 if option == "stake" else 0, 9)
        elif option == "instant_wins":
            changes[option] = rng.sample(INSTANT_WINS, rng.randint(0, len(INSTANT_WINS)))
        elif option == "chops":
            changes[option] = rng.sample(pool, rng.randint(0, 6))
        elif option == "free_chops":
            changes[option] = rng.sample(["chain:4+", "quad", "chain:3", "quad_chain:2"],
                                         rng.randint(0, 2))
        elif option == "penalty_bomb":
            changes[option] = rng.choice([rng.randint(0, 9), {"chain:3": rng.randint(0, 5),
                                                             "quad": rng.randint(0, 5),
                                                             "chain:4+": rng.randint(0, 9)}])
        elif option == "place_points":
            n = rng.randint(2, 8)
            points = [rng.randint(-3, 3) for _ in range(n - 1)]
            changes[option] = rng.choice([[], [*points, -sum(points)]])
        else:
            changes[option] = rng.random() < 0.5
    rules = Rules.preset(rng.choice(PRESET_NAMES))
    if changes.get("no_two_last", rules.no_two_last) and \
            changes.get("end_at", rules.end_at) != "last":
        changes["no_two_last"] = False  # an error in the rules (§11)
    return rules.replace(**changes)


def test_any_mix_of_options_round_trips_through_toml() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        rules = _random_rules(rng)
        text = rules.to_toml()
        assert Rules.from_toml(text) == rules, text


def test_custom_rules_round_trip_through_toml() -> None:
    rules = Rules(name="custom", stake=2, chops=())
    assert Rules.from_toml(rules.to_toml()) == rules


def test_describe_lists_every_option_and_each_chop_in_words() -> None:
    text = Rules.preset("kenneth-lu").describe()
    assert text.splitlines()[0] == "preset: kenneth-lu"
    for option in Rules.options():
        assert f"{option}:" in text
    assert "quad > single" in text
    assert "a single card" in text
    assert "hand_size_three: 17" in text


# ---------------------------------------------------------------------- §11 options
@pytest.mark.parametrize(("option", "bad", "words"), [
    ("free_chops", ["pair"], "free_chops: 'pair' cannot be a bomb"),
    ("free_chops", 3, "free_chops must be a list"),
    ("chop_pay", "all", "chop_pay must be one of none, each, chain"),
    ("scoring", "place", "scoring must be one of"),
    ("place_points", [2, 1, -1], "place_points must sum to zero"),
    ("place_points", [2, "x", -2], "place_points must be a list of whole numbers"),
    ("penalty_bomb", {"pair": 2}, "penalty_bomb: 'pair' cannot be a bomb"),
    ("penalty_bomb", {"quad": -1}, "penalty_bomb: quad must cost a whole number"),
    ("penalty_bomb", "3", "penalty_bomb must be a whole number"),
    ("follow_suit", "yes", "follow_suit must be true or false"),
    ("cong", 1, "cong must be true or false"),
    ("instant_wins", ["four_3s"], "'four_3s' is not an instant win"),
])
def test_a_bad_value_of_a_new_option_is_an_error_naming_it(option: str, bad: Any,
                                                           words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("mien-nam").replace(**{option: bad})
    assert words in str(info.value)


def test_no_two_last_needs_end_at_last() -> None:
    with pytest.raises(RulesError, match='no_two_last needs end_at = "last"'):
        Rules.preset("mien-bac").replace(end_at="first_out")


def test_the_vietnamese_presets_round_trip_through_toml_with_changed_new_options() -> None:
    for name in ("mien-nam", "mien-bac"):
        rules = Rules.preset(name)
        assert rules.to_toml() == f'preset = "{name}"\n'
        changed = rules.replace(penalty_bomb={"quad": 5}, place_points=[3, 1, -1, -3],
                                free_chops=["chain:4+", "quad"], chop_pay="each")
        text = changed.to_toml()
        assert 'penalty_bomb = {"quad" = 5}' in text and "place_points = [3, 1, -1, -3]" in text
        assert Rules.from_toml(text) == changed


def test_describe_shows_the_new_options() -> None:
    text = Rules.preset("mien-nam").describe()
    for line in ("free_chops: chain:4+", "chop_pay: chain", "cong: true", "scoring: places",
                 "penalty_bomb: chain:3 = 2, quad = 3, chain:4+ = 4", "follow_suit: false",
                 "no_two_last: false", "instant_win_stake: 4"):
        assert line in text
    assert "follow_suit: true" in Rules.preset("mien-bac").describe()



def test_the_choices_table_is_read_from_the_options_literal_types() -> None:
    """Each option with a choice of values has a Literal type; CHOICES is read from them."""
    import dataclasses
    from typing import Literal, get_args, get_origin, get_type_hints

    hints = get_type_hints(Rules)
    literal = {f.name for f in dataclasses.fields(Rules) if get_origin(hints[f.name]) is Literal}
    assert set(CHOICES) == literal
    for name, allowed in CHOICES.items():
        assert allowed == get_args(hints[name])
        assert getattr(Rules(), name) in allowed
    assert CHOICES["trading"] == ("none", "mutual", "president")
    assert CHOICES["hand_size_big"] == (13, "even")
    assert get_args(hints["instant_wins"])[0] == Literal[INSTANT_WINS]  # tuple[InstantWin, ...]
