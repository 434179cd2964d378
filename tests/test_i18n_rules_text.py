"""The rules in words in Vietnamese for any house rules: every option, every value an option takes
(each choice, numbers, chop lists, tables), not only the presets' values."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tienlen import Rules, RulesError, cli
from tienlen.i18n import t
from tienlen.rules import CHOICES, INSTANT_WINS, UNITS
from tienlen.rules_text import explain_text, untranslated

# a chop list naming every kind of pattern, counts past those said in words, and "higher"
EVERY_CHOP = ["quad > 2", "chain:3 > 22", "chain:9+ > 222", "triple_chain:3 > single",
              "triple_chain:4+ > pair", "quad_chain:2 > triple", "quad_chain:3+ > quad",
              "chain:5 > chain:3 higher", "chain:12 > triple_chain:3 higher",
              "quad_chain:2+ > quad_chain:2 higher"]
VALUES: dict[str, list[Any]] = {
    "chops": [[], ["quad > 2"], EVERY_CHOP],
    "free_chops": [[], ["quad"], ["chain:3", "triple_chain:4+", "quad_chain:2", "chain:10+"]],
    "penalty_bomb": [0, 1, 7, {"quad": 1, "chain:5+": 7, "triple_chain:3": 2, "quad_chain:2+": 9}],
    "place_points": [[], [5, -5], [3, 1, 0, -1, -3]],
    "instant_wins": [[], list(INSTANT_WINS), *([w] for w in INSTANT_WINS)],
}
BASES = ("pagat", "mien-nam", "cardrules")
# English words that a Vietnamese sentence never holds (option names and TOML values aside)
ENGLISH = re.compile(r"\b(the|and|of|with|can|chop|pays?|player|cards?|units?|hand|or more|"
                     r"consecutive|any|single|twos?|pairs?)\b")


CHANGED = t("rules.changed", "vi", options="").split("{")[0][:20]


def _values(option: str) -> list[Any]:
    if option in VALUES:
        return VALUES[option]
    if option in CHOICES:
        return list(CHOICES[option])
    if option in UNITS:
        return [1, 3, 12] if option == "stake" else [0, 1, 3, 12]
    assert isinstance(getattr(Rules(), option), bool), f"{option}: a kind of value not tested"
    return [True, False]


def every_variant() -> Iterator[Rules]:
    """Each preset of BASES with each value of each option (the ones the rules accept)."""
    for base in BASES:
        for option in Rules.options():
            for value in _values(option):
                try:
                    yield Rules.preset(base).replace(**{option: value})
                except RulesError:  # a combination the rules refuse (no_two_last, first_out)
                    continue


def test_every_option_has_values_here() -> None:
    variants = list(every_variant())
    changed = {name for rules in variants for name in rules.differences()}
    assert changed == set(Rules.options())


def test_every_sentence_of_every_value_is_in_vietnamese() -> None:
    missing = {s for rules in every_variant() for s in untranslated(rules, "vi")}
    assert sorted(missing) == []


def test_no_english_left_in_the_vietnamese_rules() -> None:
    for rules in every_variant():
        lines = explain_text(rules, width=None, lang="vi").splitlines()
        said = [line for line in lines if not line.startswith(CHANGED)]  # names options as TOML
        english = [line for line in said if ENGLISH.search(line)]
        assert english == [], rules.differences()


def test_unusual_values_said_in_vietnamese() -> None:
    rules = Rules.preset("mien-nam").replace(
        stake=3, penalty_two=5, penalty_no_play=7, instant_win_stake=9, suit_order="alphabetical",
        opening="lowest_single", next_leader="lowest", chops=EVERY_CHOP, place_points=[3, 1, -1, -3],
        free_chops=["chain:5+"], penalty_bomb={"quad": 6, "chain:5+": 8})
    text = explain_text(rules, width=None, lang="vi")
    assert "Tứ quý chặt được một con heo." in text
    assert "9 đôi thông trở lên chặt được ba con heo." in text
    assert "12 đôi thông chặt được ba sám liên tiếp có lá cao nhất nhỏ hơn." in text
    assert "Chặt tự do (năm đôi thông trở lên)" in text
    assert "Người tới trắng được mỗi người khác trả 9 điểm" in text
    assert "Mỗi hạng được số điểm của hạng nhân 3 điểm, từ Nhất đến Bét +3, +1, -1, -3." in text
    assert "trả người về nhất 5 điểm cho mỗi con heo" in text
    assert "Nước đầu tiên phải là lá nhỏ nhất (3♣ nếu có chia) đánh lẻ." in text
    assert "  - tứ quý: 6 điểm;" in explain_text(rules, lang="vi")
    assert "năm đôi thông trở lên: 8 điểm." in text


def test_the_english_is_unchanged_by_the_catalogue() -> None:
    rules = Rules.preset("pagat").replace(chops=["chain:9+ > 222"], stake=3, scoring="cards_left")
    text = explain_text(rules, width=None)
    assert "9 or more consecutive pairs can chop three twos." in text
    assert "Each other player pays the winner 3 units for each card" in text


def test_tienlen_rules_explains_a_house_rules_file_in_vietnamese(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "pagat"\nstake = 4\nscoring = "loser_pays"\n'
                    'chops = ["quad_chain:2+ > 22", "chain:6 > quad higher"]\n', encoding="utf-8")
    assert cli.main(["rules", str(path), "--explain", "--lang", "vi"]) == 0
    out = capsys.readouterr().out
    assert "Người về bét trả mỗi người khác 4 điểm" in out
    assert "Hai tứ quý liên tiếp trở lên chặt được đôi heo." in out
    assert "Sáu đôi thông chặt được tứ quý có lá cao nhất nhỏ hơn." in out
