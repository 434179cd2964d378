"""The rules in words (tienlen.rules_text): every option has words, the words follow the
engine, and the generated pages under docs/rules/ are up to date."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tienlen import Game, Rules
from tienlen.game import hand_size
from tienlen.rules import CHOICES, INSTANT_WINS, UNITS
from tienlen.rules_text import (
    OPTION_WORDS,
    PRESET_WORDS,
    chop_sentence,
    docs_pages,
    explain_markdown,
    explain_text,
    full_toml,
    missing_words,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def _values(option: str) -> list[Any]:
    """Every value an option may take (a few for counts and lists)."""
    if option in CHOICES:
        return list(CHOICES[option])
    if option in UNITS:
        return [1, 2, 3] if option == "stake" else [0, 1, 2]
    if option == "instant_wins":
        return [[], *([w] for w in INSTANT_WINS), list(INSTANT_WINS)]
    if option == "penalty_bomb":
        return [0, 2, {"chain:3": 2, "quad": 3, "chain:4+": 4}]
    if option == "free_chops":
        return [[], ["chain:4+"], ["quad", "chain:4+"]]
    if option == "place_points":
        return [[], [2, 1, -1, -2]]
    if option == "chops":
        return [[], ["quad > 2"], ["chain:5 > chain:3 higher", "quad > single"]]
    return [True, False]


def test_every_option_has_words() -> None:
    missing = [o for o in Rules.options() if o not in OPTION_WORDS]
    assert not missing, f"options with no words in rules_text.OPTION_WORDS: {missing}"


def test_every_preset_has_words() -> None:
    missing = [p for p in Rules.presets() if p not in PRESET_WORDS]
    assert not missing, f"presets with no words in rules_text.PRESET_WORDS: {missing}"


@pytest.mark.parametrize("option", Rules.options())
def test_every_value_of_every_option_has_words(option: str) -> None:
    for preset in Rules.presets():
        for value in _values(option):
            base = Rules.preset(preset)
            if option == "end_at" and value == "first_out":
                base = base.replace(no_two_last=False)  # no_two_last needs end_at "last"
            if option == "no_two_last" and value is True and base.end_at != "last":
                continue  # refused by Rules: going out on twos needs end_at "last"
            rules = base.replace(**{option: value})
            assert missing_words(rules) == [], (preset, option, value)
            assert "no description yet" not in explain_text(rules)


@pytest.mark.parametrize("option", Rules.options())
def test_every_option_changes_the_words_somewhere(option: str) -> None:
    """An option the explanation never mentions would be a rule the players are not told."""
    for preset in Rules.presets():
        for scoring in ("loser_pays", "none"):
            base = Rules.preset(preset).replace(scoring=scoring, instant_wins=["dragon"],
                                                penalty_two=1)
            texts = {explain_text(base.replace(**{option: v})) for v in _values(option)}
            if len(texts) > 1:
                return
    raise AssertionError(f"no value of {option} changes the explanation")


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_explanation_follows_the_engine(preset: str) -> None:
    rules = Rules.preset(preset)
    text = explain_text(rules, width=None)
    for entry in rules.chops:
        assert chop_sentence(entry) in text
    assert len(re.findall(r"^  - .* can chop ", text, re.M)) == len(rules.chops)
    locked = "Passing locks you out of the round" in text
    assert locked == rules.pass_locks_out
    assert ("Passing does not lock you out" in text) == (not rules.pass_locks_out)
    for players, words in ((2, "two"), (3, "three")):
        size = hand_size(rules, players)
        assert f"With {words} players each gets {size} cards" in text
        game = Game.deal(rules, players, seed=1)
        assert max(game.counts()) >= size
    assert ("The last player pays" in text) == (rules.scoring == "loser_pays")
    assert ("for each card they still held" in text) == (rules.scoring == "cards_left")
    assert ("No dealt hand wins at once" in text) == (not rules.instant_wins)


def _two_beaten_by(rules: Rules, bomb: str) -> bool:
    """Whether the engine lets ``bomb`` answer a single two (seat 0 leads 2h, seat 1 answers)."""
    hands = ["2h 3s", f"{bomb} 3c", "4s 4c", "4d 4h"]
    game = Game(rules, hands=hands, leader=0, first_hand=False)
    game.play("2h")
    wanted = sorted(bomb.split())
    return any(sorted(str(m).split()) == wanted for m in game.legal_plays())


@pytest.mark.parametrize("preset", Rules.presets())
def test_what_beats_a_two_is_what_the_engine_allows(preset: str) -> None:
    rules = Rules.preset(preset)
    text = explain_text(rules, width=None)
    line = next(x for x in text.splitlines() if x.startswith("What beats a single two"))
    quad = _two_beaten_by(rules, "9s 9c 9d 9h")
    pairs = _two_beaten_by(rules, "5s 5c 6s 6c 7s 7c")
    assert ("four of a kind" in line) == quad
    assert ("three or more consecutive pairs" in line or "three consecutive pairs" in line) == pairs


def test_the_generated_pages_are_up_to_date() -> None:
    pages = docs_pages()
    stale = [name for name, text in pages.items()
             if not (DOCS / name).exists() or (DOCS / name).read_text(encoding="utf-8") != text]
    assert not stale, (f"docs/rules/ is out of date ({', '.join(stale)}): "
                       "run python scripts/make_rules_docs.py")
    assert {p.name for p in DOCS.glob("*.md")} == set(pages)


@pytest.mark.parametrize("preset", Rules.presets())
def test_a_page_per_preset_says_each_part_of_the_game(preset: str) -> None:
    page = explain_markdown(Rules.preset(preset))
    for heading in ("The deal", "Who leads", "Combinations", "Beating a play, and passing",
                    "Bombs: chopping", "Instant wins", "Trading", "The end of a hand and the score"):
        assert f"## {heading}" in page
    assert "_" not in page.split("## The cards", 1)[1]  # no option keys in the players' words


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_full_toml_loads_back(preset: str) -> None:
    rules = Rules.preset(preset)
    text = full_toml(rules)
    assert Rules.from_toml(text) == rules
    for option in Rules.options():
        assert re.search(rf"^{option} = ", text, re.M), option


def test_the_full_toml_of_house_rules_loads_back() -> None:
    rules = Rules.preset("killer").replace(stake=3, chops=["quad > single"], trading="mutual",
                                           hand_size_big="even")
    assert Rules.from_toml(full_toml(rules)) == rules
