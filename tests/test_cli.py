"""The ``tienlen`` command, run in-process through ``cli.main``."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from tienlen import Game, Rules, Session, cli
from tienlen.lineplay import play_session


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- tienlen rules
def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules")
    assert code == 0
    assert err == ""
    listed = [line.strip() for line in out.splitlines()[1:] if line.strip()]
    assert listed == Rules.presets()


def test_rules_of_a_preset_shows_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "viet-cong")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "preset: viet-cong"
    assert "twos_in_runs: false" in lines
    assert "quad_chains: true" in lines
    assert "instant_wins: four_twos" in lines
    assert any(line.strip().startswith("quad_chain:2 > 22") for line in lines)
    for option in Rules.options():
        assert any(line.startswith(f"{option}:") for line in lines), option


@pytest.mark.parametrize("preset", Rules.presets())
def test_rules_toml_output_loads_back_as_the_same_rules(capsys: pytest.CaptureFixture[str],
                                                        preset: str) -> None:
    code, out, _ = run(capsys, "rules", preset, "--toml")
    assert code == 0
    assert Rules.from_toml(out) == Rules.preset(preset)


def test_rules_of_a_house_rules_file_shows_the_changed_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "house.toml"
    rules = Rules.preset("killer").replace(stake=4, chops=["quad > single"])
    path.write_text(rules.to_toml(), encoding="utf-8")
    code, out, _ = run(capsys, "rules", str(path))
    assert code == 0
    assert "preset: killer" in out
    assert "stake: 4" in out
    code, out, _ = run(capsys, "rules", str(path), "--toml")
    assert code == 0
    assert Rules.from_toml(out) == rules


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("preset = \n", "not valid TOML"),
        ('preset = "nope"\n', "unknown preset 'nope'"),
        ('preset = "pagat"\nchops = ["quad > 3"]\n', "chops"),
        ('preset = "pagat"\nstake = "x"\n', "stake"),
    ],
)
def test_a_bad_rules_file_prints_a_clear_error_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, words: str
) -> None:
    path = tmp_path / "house.toml"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "rules", str(path))
    assert code == 2
    assert out == ""
    assert err.startswith("tienlen: ")
    assert words in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_preset_prints_the_presets_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "vietcong")
    assert code == 2
    assert out == ""
    assert "unknown preset 'vietcong'" in err
    assert "viet-cong" in err
    assert "Traceback" not in err


def test_a_missing_rules_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "rules", str(tmp_path / "nowhere.toml"))
    assert code == 2
    assert "cannot read rules file" in err


def test_play_with_a_bad_preset_exits_2_before_dealing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "--rules", "nope")
    assert code == 2
    assert out == ""
    assert "unknown preset" in err


# ---------------------------------------------------------------------- tienlen bench
def test_bench_prints_hands_per_second_and_microseconds_per_generation(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "bench", "--hands", "20")
    assert code == 0
    assert re.search(r"20 in [\d.]+ s = [\d,]+ hands/s", out)
    assert re.search(r"[\d.]+ µs per call", out)
    assert "pagat, 4 players" in out


def test_bench_of_another_preset_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--hands", "5", "--rules", "killer", "--players", "3")
    assert code == 0
    assert "killer, 3 players" in out


# ---------------------------------------------------------------------- tienlen replay
def _finished_session() -> Session:
    session = Session(Rules.preset("pagat"), 4, seed=3, names=["Lan", "Minh", "Hoa", "Tuan"])
    rng = random.Random(1)
    for _ in range(2):
        game = session.game
        while not game.is_over:
            game.play(rng.choice(game.legal_plays()))
        if len(session.games) < 2:
            session.next_hand()
    return session


def test_replay_prints_every_hand_action_by_action(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    session = _finished_session()
    path = tmp_path / "game.toml"
    path.write_text(session.record(), encoding="utf-8")
    code, out, err = run(capsys, "replay", "--text", str(path))
    assert code == 0
    assert err == ""
    names = session.names
    for number, game in enumerate(session.games, 1):
        assert f"Hand {number} (dealer {names[game.dealer]}):" in out
    first = session.games[0]
    seat, move = first.history[0]
    assert f"  {names[seat]}: {move}" in out.splitlines()
    assert out.count("  finish: ") == 2
    assert "  finish: " + ", ".join(names[s] for s in first.finish_order) in out
    units = ", ".join(f"{names[s]} {u:+d}" for s, u in enumerate(first.scores))
    assert "  units:  " + units in out
    lines = [line for line in out.splitlines() if line.startswith("  ") and ": " in line
             and not line.startswith(("  finish", "  units"))]
    assert len(lines) == sum(len(g.history) for g in session.games)


def test_replay_of_a_broken_record_says_where_and_exits_2(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    game = Game.deal(Rules.preset("pagat"), 4, seed=7)
    leader = game.turn
    text = game.record().replace("actions = []", f'actions = ["{leader} pass"]')
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert out == ""
    assert "hand 1, action 0" in err
    assert "Traceback" not in err


def test_replay_of_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "none.toml"))
    assert code == 2
    assert "cannot read" in err and "none.toml" in err


# ---------------------------------------------------------------------- tienlen play
class HintFollower(io.StringIO):
    """Terminal input that asks for a hint, then plays it; says no to a second hand.

    It reads what the program printed so far (through capsys) to answer each prompt.
    """

    def __init__(self, capsys: pytest.CaptureFixture[str], hands: int = 1) -> None:
        super().__init__()
        self.capsys = capsys
        self.printed = ""
        self.asked_hint = False
        self.hands_left = hands
        self.lines: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        out, _ = self.capsys.readouterr()
        self.printed += out
        if self.printed.rstrip().endswith("Next hand? [Y/n]"):
            self.hands_left -= 1
            line = "y\n" if self.hands_left > 0 else "n\n"
        elif self.asked_hint:
            line = self.printed.rsplit("Hint: ", 1)[1].splitlines()[0] + "\n"
        else:
            line = "hint\n"
        self.asked_hint = line == "hint\n"
        self.lines.append(line)
        return line


def test_play_plays_a_whole_hand_in_the_terminal(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = HintFollower(capsys)
    monkeypatch.setattr("sys.stdin", stdin)
    code = cli.main(["play", "--plain", "--seed", "5", "--name", "Ana"])
    out, err = capsys.readouterr()
    printed = stdin.printed + out
    assert code == 0
    assert err == ""
    assert printed.startswith("Tiến Lên, pagat rules, 4 players.")
    assert "=== Hand 1:" in printed
    assert "Your hand: " in printed
    assert "Not allowed" not in printed  # every hinted play was legal
    assert printed.count("Finish: ") == 1
    finish = printed.split("Finish: ", 1)[1].splitlines()[0].split(", ")
    assert sorted(finish) == ["Ana", "Bot 1", "Bot 2", "Bot 3"]
    assert "Units this hand: " in printed
    assert stdin.lines[-1] == "n\n"
    assert any(line not in ("hint\n", "n\n") for line in stdin.lines)  # Ana played


def test_play_session_goes_on_to_a_second_hand_when_asked(
    capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = HintFollower(capsys, hands=2)
    code = play_session(Rules.preset("thirteen"), 3, 8, "Ana", stdin=stdin)
    out, _ = capsys.readouterr()
    printed = stdin.printed + out
    assert code == 0
    assert "=== Hand 2:" in printed
    assert printed.count("Finish: ") == 2
    assert printed.count("Totals: ") == 2


def test_play_explains_an_illegal_play_and_asks_again() -> None:
    out = io.StringIO()
    # "3x" is never a card; "legal" lists the choices; "score" the totals so far
    stdin = io.StringIO("3x\nlegal\nscore\nquit\n")
    code = play_session(Rules.preset("pagat"), 4, 5, "Ana", stdin=stdin, stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "Not allowed: '3x' is not a card" in text
    assert "Legal: " in text
    assert "Totals: Ana +0" in text
    assert text.count("> ") == 4


def test_play_ends_quietly_when_the_input_ends() -> None:
    out = io.StringIO()
    code = play_session(Rules.preset("pagat"), 4, 5, "Ana", stdin=io.StringIO(""), stdout=out)
    assert code == 0
    assert "Your hand: " in out.getvalue()
