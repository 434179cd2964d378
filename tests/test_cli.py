"""The ``tienlen`` command, run in-process through ``cli.main``."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tienlen
from tienlen import Game, Rules, Session, cli
from tienlen.arena import BotSpec, Tournament, format_table, parse_bots, progress_bar, run_tournament, t95
from tienlen.bots import bot_names, bot_options
from tienlen.lineplay import play_session
from tienlen.rules import load_rules
from tienlen.rules_text import explain_text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- tienlen rules
def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules")
    assert code == 0
    assert err == ""
    listed = [line.split()[0] for line in out.splitlines()[1:] if line.strip()]
    assert listed == Rules.presets()


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"viet-cong": "twos stay out of runs", "mien-bac": "every beat keeps the suit"}),
    ("vi", {"viet-cong": "heo không vào sảnh", "mien-bac": "chặn phải đồng chất"})])
def test_rules_says_each_preset_in_one_line(capsys: pytest.CaptureFixture[str], lang: str,
                                            words: dict[str, str]) -> None:
    from tienlen.i18n import width

    code, out, _ = run(capsys, "rules", "--lang", lang)
    lines = out.splitlines()[1:]
    assert code == 0 and len(lines) == len(Rules.presets())
    starts = set()
    for line, name in zip(lines, Rules.presets(), strict=True):
        said = line.split(None, 1)[1]
        assert len(said) > 20 and width(line) <= 80, line
        starts.add(line.index(said))
        if name in words:
            assert words[name] in said
    assert len(starts) == 1  # the lines in one column


README_HOUSE_RULES = """preset = "viet-cong"
twos_in_runs = true
stake = 5
chops = ["quad > 2", "chain:3+ > 2", "chain:4+ > 22"]
"""


@pytest.mark.parametrize(("lang", "changed", "base", "preset_words"), [
    ("en", "House rules, changed from the preset", "The viet-cong preset, before these changes:",
     "twos stay out of runs"),
    ("vi", "Luật riêng của bàn, khác bộ luật gốc", "Bộ luật viet-cong, trước các thay đổi này:",
     "heo không vào sảnh")])
def test_house_rules_explained_say_their_changes_before_the_preset_they_change(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, changed: str, base: str,
        preset_words: str) -> None:
    """The README's house rules: the preset keeps twos out of runs, the file lets them in; the
    words say the change first, then the preset as what it was, never a TOML string cut."""
    path = tmp_path / "house.toml"
    path.write_text(README_HOUSE_RULES, encoding="utf-8")
    code, out, _ = run(capsys, "rules", str(path), "--explain", "--lang", lang)
    assert code == 0
    said = " ".join(out.split())
    assert said.index(changed) < said.index(base) < said.index(preset_words)
    assert '["quad > 2", "chain:3+ > 2", "chain:4+ > 22"]' in said
    for width in (30, 40, 52, 78):
        text = explain_text(load_rules(str(path)), width=width, lang=lang)
        for line in text.splitlines():
            assert line.count('"') % 2 == 0, (width, line)  # every string ends on its line
            assert "\u00a0" not in line and "\u2011" not in line


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_rules_explain_without_a_preset_explains_the_default_rules(
        capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """``tienlen rules --explain`` says the rules every command plays without --rules (pagat),
    as ``tienlen rules pagat --explain`` does, rather than listing the presets again."""
    code, out, err = run(capsys, "rules", "--explain", "--lang", lang)
    assert (code, err) == (0, "")
    assert out == run(capsys, "rules", cli.DEFAULT_PRESET, "--explain", "--lang", lang)[1]
    assert out.startswith("Tiến Lên: ") and "pagat" in out.splitlines()[0]
    assert Rules().name == cli.DEFAULT_PRESET  # the rules a Game plays by default, too


def test_rules_toml_without_a_preset_prints_the_default_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--toml")
    assert code == 0 and Rules.from_toml(out) == Rules.preset(cli.DEFAULT_PRESET)


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


DEEP_RULES = 'preset = "pagat"\nstake = ' + "[" * 500 + "]" * 500 + "\n"  # 1 KB


@pytest.mark.parametrize("command", [["rules"], ["rules", "--explain"], ["play", "--plain",
                                     "--rules"], ["tournament", "--rules"], ["bench", "--rules"]])
def test_a_rules_file_nested_too_deeply_exits_2_with_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text(DEEP_RULES, encoding="utf-8")
    code, out, err = run(capsys, *command, str(path))
    assert (code, out) == (2, "")
    assert err == (f"tienlen: {path}: not valid TOML: Nested too deeply (more than 32 levels) "
                   "(at line 2, column 41)\n")


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


def test_bench_with_the_fast_path_turned_off_says_so(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIENLEN_PURE", "1")
    code, out, _ = run(capsys, "bench", "--hands", "5")
    assert code == 0
    assert "fast path: turned off (TIENLEN_PURE is set" in out and "not installed" not in out


def test_bench_says_how_many_hands_the_fast_path_plays(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    monkeypatch.delenv("TIENLEN_PURE", raising=False)
    code, out, _ = run(capsys, "bench", "--hands", "300")
    assert code == 0
    assert "300 in " in out
    assert "fast path (numba): pagat, 4 players, 3,000 hands (ten times as many, at least 1,000" \
        in out
    assert "3,000 in " in out


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
            line = self.printed.rsplit("Hint: ", 1)[1].splitlines()[0].split(" — ")[0] + "\n"
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
    assert "=== Hand 1 (dealer: " in printed
    assert "Your hand: " in printed
    assert "Not allowed" not in printed  # every hinted play was legal
    hints = [line.split("Hint: ", 1)[1] for line in printed.splitlines() if "Hint: " in line]
    assert hints and all(len(said.split(" — ")) == 2 and said.split(" — ")[1].strip()
                         for said in hints)  # each with its reason
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
    assert "=== Hand 2 (dealer: " in printed
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


# ====================================================================== no traceback, ever
SRC = str(Path(__file__).resolve().parent.parent / "src")


def main_of(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``tienlen ARGV`` in this process; argparse's exits count as exit codes."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("tienlen")
    for word in words:
        assert word in err, (word, err)


def command_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


def tienlen_command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "tienlen.cli", *argv]


def test_python_dash_m_tienlen_is_the_tienlen_command() -> None:
    done = subprocess.run([sys.executable, "-m", "tienlen", "--help"], capture_output=True,
                          text=True, env=command_env(), check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: tienlen ")
    assert "tournament" in done.stdout and "replay" in done.stdout


@pytest.mark.parametrize(("argv", "words"), [
    (["bench", "--hands", "0"], ["--hands", "must be 1 or more, not 0"]),
    (["bench", "--hands", "many"], ["--hands", "'many' is not a whole number"]),
    (["tournament", "--workers", "0"], ["--workers", "must be 1 or more, not 0"]),
    (["tournament", "--time-limit", "-1"], ["--time-limit", "must be more than 0 seconds"]),
    (["tournament", "--time-limit", "nan"], ["--time-limit"]),
    (["tournament", "--players", "2", "--bots", "search:wrld=3,greedy"],
     ["search has no option 'wrld'", "did you mean 'worlds'?", "steps", "inference"]),
    (["tournament", "--players", "2", "--bots", "greedy:steps=3,greedy"],
     ["greedy has no option 'steps'", "it takes no options"]),
    (["play", "--bots", "search:wrld=3"], ["search has no option 'wrld'"]),
    (["tournament", "--address", "127.0.0.1:1"], ["--address", "--backend ray"]),
    (["rules", "pagat", "--toml", "--explain"], ["not allowed with"]),
    (["nosuch"], ["invalid choice"]),
    ([], ["required"]),
])
def test_bad_arguments_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                               argv: list[str], words: list[str]) -> None:
    code, out, err = main_of(capsys, *argv)
    one_line_error(code, err, *words)
    assert out == ""


def test_a_record_that_is_not_utf8_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_bytes(b'format = "tienlen/1"\n# \xff\xfe not UTF-8\n')
    for argv in (["replay", "--text", str(path)], ["rules", str(path)]):
        code, out, err = main_of(capsys, *argv)
        one_line_error(code, err, "not UTF-8")
        assert out == ""


def test_a_json_path_that_cannot_be_written_fails_before_the_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for target in (tmp_path / "no-such-folder" / "r.json", tmp_path):
        code, out, err = main_of(capsys, "tournament", "--players", "2", "--bots",
                                 "greedy,random", "--deals", "1", "--json", str(target))
        one_line_error(code, err, "cannot write")
        assert out == ""  # no table: nothing was played


def test_an_external_bot_that_cannot_start_fails_before_any_hand_with_its_stderr(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("import sys\nsys.stderr.write('loading the model\\nno model in ./model\\n')\n"
                      "sys.exit(1)\n", encoding="utf-8")
    bot = f"cmd:{sys.executable} {script}"
    code, out, err = main_of(capsys, "tournament", "--players", "2", "--bots", f"{bot},greedy",
                             "--deals", "50")
    one_line_error(code, err, "before any hand was played", "crashed", "no model in ./model")
    assert out == ""


def test_a_ray_address_nobody_answers_fails_at_once_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nobody answers there
    code, out, err = main_of(capsys, "tournament", "--players", "2", "--bots", "greedy,random",
                             "--deals", "1", "--backend", "ray", "--address", f"127.0.0.1:{port}")
    one_line_error(code, err, "no Ray cluster answers", str(port))
    assert out == ""


@pytest.mark.parametrize("argv", [["rules", "pagat", "--explain"], ["rules", "killer"],
                                  ["replay", "--text", "RECORD"]])
def test_a_reader_that_goes_away_is_no_error(argv: list[str], tmp_path: Path) -> None:
    """``tienlen … | head``: the reader closes the pipe before the output is written."""
    record = tmp_path / "game.toml"
    record.write_text(_finished_session().record(), encoding="utf-8")
    argv = [str(record) if a == "RECORD" else a for a in argv]
    proc = subprocess.Popen(tienlen_command(*argv), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=command_env())
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the program writes anything
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait() == 0
    assert err == ""


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_in_a_tournament_with_two_workers_prints_the_partial_results(
        tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    proc = subprocess.Popen(
        tienlen_command("tournament", "--players", "4", "--bots", "heuristic,greedy,random,me=greedy",
                        "--deals", "400", "--workers", "2", "--json", str(out_json)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=command_env(), text=True,
        # as from a terminal: a suite started in the background (``cmd &`` in a script) runs
        # with Ctrl-C ignored, which its children would inherit, and never see the signal
        preexec_fn=_interruptible)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stderr.readline()  # progress, not on a terminal: a line at each tenth
    assert first.startswith("40/400 deals")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "partial" in err
    lines = out.splitlines()
    assert "partial: interrupted after" in lines[0]
    assert any(line.startswith("me ") for line in lines)
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["partial"] is True and 40 <= report["deals_played"] < 400
    assert report["hands"] == 4 * report["deals_played"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = main_of(capsys, "--version")
    assert code == 0 and out.strip() == f"tienlen {tienlen.__version__}"


def _subparsers(lang: str = "en") -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser(lang)
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", list(_subparsers()))
def test_every_help_shows_the_defaults(command: str) -> None:
    parser = _subparsers()[command]
    text = " ".join(parser.format_help().split())
    for action in parser._actions:
        default = action.default
        if not action.option_strings or default in (None, False, argparse.SUPPRESS):
            continue
        assert f"default: {default}" in text, (command, action.dest)


def test_the_bots_in_the_help_are_the_bots_of_the_docs() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    for command in ("play", "tournament"):
        text = "".join(_subparsers()[command].format_help().split())
        for name in bot_names():
            assert name in text
            assert f"`{name}`" in docs
            for option in bot_options(name):
                assert f"{option}=" in text, (command, option)
                assert f"`{option}`" in docs, option
    assert "worlds=N][:seconds=S]" not in docs


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_search_budget_in_the_help_is_the_one_it_plays_with(lang: str) -> None:
    """search's steps, worlds, inference and margin default to None, which it reads as a budget
    that depends on the path: the help says both numbers, not "none"."""
    from tienlen.bots import search
    from tienlen.bots.fast_rollout import FAST_INFERENCE, FAST_MARGIN, FAST_STEPS, FAST_WORLDS

    fast = {"en": "on the fast path", "vi": "trên đường nhanh"}[lang]
    for command in ("play", "tournament"):
        text = " ".join(_subparsers(lang)[command].format_help().split())
        for option, pure, quick in (("steps", search.PURE_STEPS, FAST_STEPS),
                                    ("worlds", search.PURE_WORLDS, FAST_WORLDS),
                                    ("inference", search.PURE_INFERENCE, FAST_INFERENCE),
                                    ("margin", search.PURE_MARGIN, FAST_MARGIN)):
            assert f"{option}={pure} ({quick} {fast})" in text, (command, option)
            assert f"{option}=none" not in text
        assert "search:steps=3000:worlds=200" in text


def test_every_argument_of_every_command_says_what_it_is() -> None:
    """Not only its default: a description (train's --seed and --reward, replay's file...)."""
    bare = re.compile(r"default: \S+")
    for command, parser in _subparsers().items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
                continue
            words = (action.help or "").replace("%(default)s", str(action.default))
            assert words and not bare.fullmatch(words), (command, action.dest)


@pytest.mark.parametrize(("argv", "words"), [
    (["play", "--players", "x"], "'x' is not a whole number"),
    (["train", "--lr", "fast"], "'fast' is not a number"),
    (["serve", "--port", "http"], "'http' is not a whole number"),
    (["serve", "--bot-delay", "x"], "'x' is not a number"),
])
def test_a_number_that_is_not_one_is_said_in_words(capsys: pytest.CaptureFixture[str],
                                                   argv: list[str], words: str) -> None:
    code, _, err = main_of(capsys, *argv)
    one_line_error(code, err, words)
    assert "invalid int" not in err and "invalid float" not in err


# ---------------------------------------------------------------------- tournament output
@pytest.mark.parametrize("bots", [None, "greedy"])
def test_one_bot_plays_every_seat_and_the_table_says_so(capsys: pytest.CaptureFixture[str],
                                                        bots: str | None) -> None:
    argv = ["tournament", "--players", "3", "--deals", "1", "--quiet"]
    code, out, err = main_of(capsys, *argv, *(["--bots", bots] if bots else []))
    assert code == 0, err
    name = bots or "heuristic"
    assert "1 deal x 3 rotations = 3 hands" in out
    assert re.search(rf"^{name} +9 ", out, re.M)  # 3 hands at each of 3 seats
    said = " ".join(out.split())
    assert f"Every seat played {name}: a bot against copies of itself comes first in 1 hand in 3" \
        in said and "Name different bots" in said


def test_different_bots_need_no_such_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = main_of(capsys, "tournament", "--players", "2", "--bots", "greedy,random",
                           "--deals", "1", "--quiet")
    assert code == 0 and "Every seat" not in out


def test_an_unknown_bot_for_every_seat_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = main_of(capsys, "tournament", "--bots", "nope", "--deals", "2")
    one_line_error(code, err, "unknown bot 'nope'", "heuristic")
    assert "players but" not in err and not out


def test_progress_on_a_terminal_is_a_bar_with_the_time_so_far_and_left() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    ticks = iter(range(100))
    stream = Terminal()
    show = progress_bar(stream, clock=lambda: float(next(ticks)))
    show(1, 4)
    show(2, 4)
    text = stream.getvalue()
    assert text.startswith("\r[") and "2/4 deals" in text
    assert "0:02 so far, about 0:02 left" in text


def test_progress_in_a_log_file_is_a_line_per_tenth() -> None:
    ticks = iter(range(1000))
    stream = io.StringIO()
    show = progress_bar(stream, clock=lambda: float(next(ticks)))
    for done in range(1, 101):
        show(done, 100)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10 and "\r" not in stream.getvalue()
    assert lines[0].startswith("10/100 deals (10%)") and "left" in lines[0]
    assert lines[-1].startswith("100/100 deals (100%)")


def test_intervals_from_one_deal_are_unavailable(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_tournament(Tournament(Rules.preset("pagat"), 2, ("greedy", "random"), deals=1))
    for bot in report["bots"]:
        assert bot["first_ci"] is None and bot["units_ci"] is None
    table = format_table(report)
    assert "[n/a]" in table and "[0.0, 0.0]" not in table and "at least 2 deals" in table


def test_students_t_for_few_deals() -> None:
    assert t95(1) == pytest.approx(12.706)
    assert t95(9) == pytest.approx(2.262)
    assert t95(30) == pytest.approx(2.042)
    assert t95(10_000) == pytest.approx(1.96, abs=0.001)
    assert all(t95(k) > t95(k + 1) for k in range(1, 200))


def test_bots_are_named_whole_or_by_their_alias() -> None:
    a = "cmd:python my_bots/the_same_long_prefix_bot.py --level 1"
    b = "cmd:python my_bots/the_same_long_prefix_bot.py --level 2"
    report: dict[str, Any] = {
        "rules": "pagat", "players": 2, "deals": 2, "hands": 4, "failures": [],
        "bots": [{"name": n, "hands": 2, "first_rate": 0.5, "first_ci": [0.0, 1.0],
                  "last_rate": 0.5, "last_ci": [0.0, 1.0], "mean_place": 1.5,
                  "place_ci": [1.0, 2.0], "mean_units": 0.0, "units_ci": [-1.0, 1.0]}
                 for n in (a, b)]}
    table = format_table(report)
    assert f"{a} " in table and f"{b} " in table
    assert parse_bots("me=cmd:./bot.pl --x=1, heuristic") == ("me=cmd:./bot.pl --x=1", "heuristic")
    assert BotSpec("me=cmd:./bot.pl --x=1").label == "me"
    assert BotSpec("me=cmd:./bot.pl --x=1").spec == "cmd:./bot.pl --x=1"
    assert BotSpec("search:steps=10").label == "search:steps=10"
    assert BotSpec("cmd:env A=1 ./bot").label == "cmd:env A=1 ./bot"


def test_the_json_output_is_documented_field_by_field(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text(encoding="utf-8")
    out = tmp_path / "r.json"
    assert cli.main(["tournament", "--players", "2", "--bots", "a=greedy,random", "--deals", "2",
                     "--quiet", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    section = docs.split("### The --json output", 1)[1]
    for key in report:
        assert f"`{key}`" in section, key
    for key in report["bots"][0]:
        assert f"`{key}`" in section, key
    failure_keys = {"bot", "deal", "rotation", "seat", "reason", "stderr", "reason_key",
                    "reason_params"}
    for key in failure_keys:
        assert f"`{key}`" in section, key
    example = section.split("```json", 1)[1].split("```", 1)[0]
    documented = json.loads(example)
    assert set(documented) == set(report)
    assert set(documented["bots"][0]) == set(report["bots"][0])
    assert set(documented["failures"][0]) == failure_keys


# ---------------------------------------------------------------------- tienlen rules
@pytest.mark.parametrize("preset", Rules.presets())
def test_rules_toml_prints_every_option_and_loads_back(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path, preset: str) -> None:
    code, out, _ = main_of(capsys, "rules", preset, "--toml")
    assert code == 0
    for option in Rules.options():
        assert re.search(rf"^{option} = ", out, re.M), option
    path = tmp_path / "house.toml"
    path.write_text(out.replace("stake = 1", "stake = 3"), encoding="utf-8")
    assert Rules.from_toml(path) == Rules.preset(preset).replace(stake=3)
    code, again, _ = main_of(capsys, "rules", str(path), "--toml")
    assert code == 0 and Rules.from_toml(again) == Rules.preset(preset).replace(stake=3)


def test_rules_explain_prints_the_rules_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = main_of(capsys, "rules", "killer", "--explain")
    assert code == 0
    assert out.startswith("Tiến Lên: the killer rules")
    assert "Passing does not lock you out" in out
    assert "What beats a single two" in out
    assert "pass_locks_out" not in out


# ---------------------------------------------------------------------- --plain
def test_plain_p_passes_saving_works_and_the_end_of_input_says_so(tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    out = io.StringIO()
    # seed 2: Ana is not the first to play, so there is a play to pass on
    stdin = io.StringIO(f"p\nsave {record}\n")
    code = play_session(Rules.preset("pagat"), 4, 2, "Ana", stdin=stdin, stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "is not a suit" not in text and "Not allowed" not in text
    assert "  Ana: pass" in text
    assert f"Record saved to {record}" in text
    assert Session.from_record(record.read_text(encoding="utf-8")).games[0].history[0]
    assert "End of input: the game stops after 0 finished hands" in text
    assert "not saved" not in text.split("End of input", 1)[1]


def test_plain_quitting_without_saving_says_so() -> None:
    out = io.StringIO()
    code = play_session(Rules.preset("pagat"), 4, 5, "Ana", stdin=io.StringIO("quit\n"), stdout=out)
    assert code == 0
    assert "You quit" in out.getvalue() and "The record was not saved" in out.getvalue()


# ---------------------------------------------------------------------- tienlen review
REVIEW_RECORD = Path(__file__).parent / "data" / "review_blunder.toml"


def test_review_says_each_decision_its_estimate_the_coachs_best_and_the_grade(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(REVIEW_RECORD), "--seat", "0")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Hand 1 of 1 (pagat.com), reviewed for Player 1 (seat 0): judged by "
                               "the units the rules pay")
    at = lines.index(next(line for line in lines if line.startswith("4. 2c: units ")))
    best = re.match(r"    the coach's best, ([^:]+): units ", lines[at + 1])
    assert best and "2" not in best[1]  # a move that keeps the pair of twos
    assert re.match(r"    ✗+ a (mistake|blunder): \d\.\d\d units below the best \[\d\.\d\d, ",
                    lines[at + 2]), lines[at + 2]
    assert lines[at + 3].startswith("    cards: Player 1: 4c 8s")  # every hand, as recorded
    assert "6. pass: forced (the only legal move), not evaluated" in lines
    assert re.match(r"7 decisions appraised: \d good, \d inaccurac(y|ies), \d mistakes?, "
                    r"\d blunders?; \d the hint's moves?; finish: Player 2, "
                    r"Player 1; units: Player 1 -1, Player 2 \+1$", lines[-1]), lines[-1]


def test_review_json_and_vietnamese(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", str(REVIEW_RECORD), "--json")
    assert code == 0
    data = json.loads(out)
    blunder = next(d for d in data["decisions"] if d["number"] == 4)
    assert blunder["move"] == "2c" and blunder["loss"] and "2" not in blunder["best"]["move"]
    assert blunder["cost"]["ci"][0] > 0 and blunder["grade"] in ("mistake", "blunder")
    assert next(d for d in data["decisions"] if d["number"] == 6)["kind"] == "forced"
    code, out, _ = run(capsys, "review", str(REVIEW_RECORD), "--lang", "vi")
    assert code == 0 and "phân tích cho Player 1" in out and "bắt buộc" in out


@pytest.mark.parametrize(("args", "said"), [
    (["--seat", "2"], "no seat 2: the hand has 2 seats, 0 to 1"),
    (["--hand", "2"], "no hand 2: the record holds 1 hand(s)"),
    (["--seat", "-1"], "--seat"),
])
def test_review_of_a_bad_seat_or_hand_says_so_and_exits_2(
        capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    code, out, err = _exits(capsys, "review", str(REVIEW_RECORD), *args)
    assert code == 2 and out == ""
    assert said in err and "Traceback" not in err


def _exits(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The command's status, whether it returns it or argparse exits with it."""
    try:
        code = cli.main(list(argv))
    except SystemExit as stopped:
        code = int(stopped.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_review_of_a_missing_broken_or_binary_file_says_so(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    code, _, err = run(capsys, "review", str(tmp_path / "none.toml"))
    assert code == 2 and "cannot read" in err and "none.toml" in err
    binary = tmp_path / "cards.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "review", str(binary))
    assert code == 2 and "is not a record" in err
    broken = tmp_path / "broken.toml"
    broken.write_text(REVIEW_RECORD.read_text(encoding="utf-8").replace('"0 2c"', '"0 3c"'),
                      encoding="utf-8")
    code, _, err = run(capsys, "review", str(broken))
    assert code == 2 and "hand 1, action 3" in err and "Traceback" not in err


def test_review_of_a_session_s_hand_says_a_claim_is_not_evaluated(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    session = Session(Rules.preset("cardrules"), 4, seed=23)  # its second hand: four twos
    for _ in range(2):
        if session.game.is_over:
            session.next_hand()
        play_out(session.game, [get_bot("heuristic", seed=s) for s in range(4)])
    assert str(session.game.history[0][1]) == "claim four_twos"
    path = tmp_path / "session.toml"
    path.write_text(session.record(), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--seat", "3", "--hand", "2")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Hand 2 of 2 (cardrules.com), reviewed for Player 4 (seat 3)")
    assert lines[1] == ("1. claim four_twos: outside the play (an exchange, a trade or a claim), "
                        "which the coach does not appraise")
    assert lines[-1].startswith("0 decisions appraised: 0 good, 0 inaccuracies, 0 mistakes, "
                                "0 blunders; 0 the hint's moves;")
