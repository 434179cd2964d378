"""External bots over the JSON-lines protocol: the example bot plays whole tournaments, and a
bot that crashes, hangs or answers nonsense loses its seat to ``random`` for the rest of the
hand while the tournament goes on and reports it."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from tienlen import Game, Play, Rules, TienLenError
from tienlen.actions import Move
from tienlen.arena import Tournament, format_table, play_out, run_tournament
from tienlen.bots import Bot, get_bot
from tienlen.bots.external import BotFailure, ExternalBot
from tienlen.bots.simple import RandomBot
from tienlen.i18n import t
from tienlen.view import View

PAGAT = Rules.preset("pagat")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "external_bot.py"


def command(script: Path, *args: str) -> str:
    return " ".join(shlex.quote(part) for part in (sys.executable, str(script), *args))


def write_bot(tmp_path: Path, name: str, body: str) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return command(script)


FIRST_LEGAL = """
    import json, sys
    for line in sys.stdin:
        print(json.dumps({"action": json.loads(line)["legal"][0]}), flush=True)
"""
BROKEN = {
    # name: (script, the words the failure is reported with)
    "crashes_at_once": ("""
        import sys
        sys.exit(3)
    """, "crashed"),
    "hangs": ("""
        import sys, time
        for line in sys.stdin:
            time.sleep(60)
    """, "gave no answer within 0.5 s"),
    "answers_illegal": ("""
        import json, sys
        for line in sys.stdin:
            print(json.dumps({"action": "3s 3s 3s 3s 3s"}), flush=True)
    """, "not a legal action"),
    "answers_malformed": ("""
        import sys
        for line in sys.stdin:
            print("{this is not json", flush=True)
    """, 'not {"action": "TEXT"}'),
    "answers_without_action": ("""
        import json, sys
        for line in sys.stdin:
            print(json.dumps({"play": "pass"}), flush=True)
    """, 'not {"action": "TEXT"}'),
}
CRASHES_MID_HAND = """
    import json, sys
    for number, line in enumerate(sys.stdin):
        if number == 3:
            sys.exit(1)
        print(json.dumps({"action": json.loads(line)["legal"][0]}), flush=True)
"""


class FirstLegalThenRandom:
    """What the arena plays for a bot that answers ``good`` decisions with its first legal
    action and then fails: random, seeded by the seat, for the rest of the hand."""

    name = "replica"

    def __init__(self, good: int, seat: int) -> None:
        self.left = good
        self.random = RandomBot(seed=seat)

    def choose(self, view: View) -> Move:
        if self.left > 0:
            self.left -= 1
            return view.legal[0]
        return self.random.choose(view)


def history(game: Game) -> list[tuple[int, str]]:
    return [(s, str(m)) for s, m in game.history]


# ---------------------------------------------------------------------- the example bot
def test_the_example_bot_plays_whole_hands_in_a_tournament() -> None:
    bots = (f"cmd:{command(EXAMPLE)}", "heuristic", "greedy", "random")
    report = run_tournament(Tournament(PAGAT, 4, bots, deals=2, seed=3))
    assert report["failures"] == []
    assert report["hands"] == 8
    example = next(b for b in report["bots"] if b["name"] == bots[0])
    assert example["hands"] == 8  # one seat in every hand, every seat over the rotations
    assert "failure" not in format_table(report)


@pytest.mark.parametrize("rules", [Rules.preset("cardrules"), Rules.preset("justus-pang"),
                                   PAGAT.replace(trading="mutual")])
def test_the_example_bot_answers_claims_stacking_and_trades_legally(rules: Rules) -> None:
    bot = ExternalBot(command(EXAMPLE))
    try:
        game = Game.deal(rules, 3, seed=2)
        if rules.trading == "mutual":  # short hands keep the list of possible offers short
            game = Game(rules, ["3s 4d 5c 6h", "3c 3d 7h 8s", "9s Tc Jd 2h"])
        failures = play_out(game, [bot, get_bot("heuristic", seed=1), get_bot("random", seed=2)])
    finally:
        bot.close()
    assert failures == [] and game.is_over


def test_the_example_bot_beats_with_high_cards_too() -> None:
    game = Game(PAGAT, ["Ks As 4d", "Qh 5c 6c"], leader=1, first_hand=False)
    game.play("Qh")
    bot = ExternalBot(command(EXAMPLE))
    try:
        assert bot.choose(game.view(0)) == Play.parse("Ks")
    finally:
        bot.close()


def test_an_external_bot_receives_the_documented_json_and_out_of_turn_chop_offers(
        tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    cmd = write_bot(tmp_path, "recorder", f"""
        import json, sys
        with open({str(log)!r}, "a", encoding="utf-8") as out:
            for line in sys.stdin:
                out.write(line)
                out.flush()
                legal = json.loads(line)["legal"]
                chops = [a for a in legal if len(a.split()) == 4]
                print(json.dumps({{"action": chops[0] if chops else legal[0]}}), flush=True)
    """)
    rules = PAGAT.replace(chop_out_of_turn=True)
    game = Game(rules, ["3s 9s Jd Qh", "2c 8h 6s", "4d 5d Ks", "7s 7c 7d 7h 4h"], leader=0,
                first_hand=False)
    game.play("3s")
    game.play("2c")
    bot = ExternalBot(cmd)
    try:
        failures = play_out(game, [get_bot("greedy", seed=s) for s in range(3)] + [bot])
    finally:
        bot.close()
    assert failures == []
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    keys = {"type", "protocol", "seat", "players", "names", "rules", "phase", "turn", "dealer",
            "leader", "hand", "counts", "table", "table_seat", "passed", "stacking",
            "finish_order", "history", "played", "legal", "out_of_turn"}
    assert messages and all(keys <= set(m) for m in messages)
    assert all(m["type"] == "decide" and m["protocol"] == "tienlen-bot/1" and m["seat"] == 3
               for m in messages)
    first = messages[0]  # offered the chop on seat 1's two, out of turn
    assert first["out_of_turn"] is True and first["turn"] == 2
    assert first["legal"] == ["7s 7c 7d 7h", "pass"] and first["table"] == "2c"
    # it chopped, out of turn
    assert (3, "7s 7c 7d 7h") in history(game)


def test_an_external_bot_gets_the_seed_in_its_environment(tmp_path: Path) -> None:
    cmd = write_bot(tmp_path, "seeded", """
        import json, os, sys
        for line in sys.stdin:
            legal = json.loads(line)["legal"]
            seed = int(os.environ["TIENLEN_BOT_SEED"])
            print(json.dumps({"action": legal[seed % len(legal)]}), flush=True)
    """)
    game = Game(PAGAT, ["3s 5d 7c 9h Jd", "4s 6d 8c Th Qd"], leader=0, first_hand=False)
    for seed in range(5):
        bot = ExternalBot(cmd, seed=seed)
        try:
            view = game.view(0)
            assert bot.choose(view) == view.legal[seed % len(view.legal)]
        finally:
            bot.close()


# ---------------------------------------------------------------------- failures
def limit_for(kind: str) -> float:
    """The time limit a broken bot of ``kind`` is run with: the hanging one is waited for 0.5 s
    (its reason says so); the others get a bound no busy machine reaches (beside a CPU hog a bot's
    illegal answer once took more than 0.5 s and was reported as no answer)."""
    return 0.5 if kind == "hangs" else 30.0


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_failing_bot_loses_its_seat_to_random_for_the_rest_of_the_hand(tmp_path: Path,
                                                                          kind: str) -> None:
    script, words = BROKEN[kind]
    cmd = write_bot(tmp_path, kind, script)
    game = Game.deal(PAGAT, 2, seed=11)
    bot = ExternalBot(cmd, time_limit=limit_for(kind))
    try:
        failures = play_out(game, [get_bot("greedy", seed=1), bot])
    finally:
        bot.close()
    assert game.is_over
    assert len(failures) == 1
    assert failures[0].startswith("seat 1: ") and words in failures[0]
    assert "random plays for it for the rest of the hand" in failures[0]
    # the same hand with random in that seat from the first decision on
    twin = Game.deal(PAGAT, 2, seed=11)
    play_out(twin, [get_bot("greedy", seed=1), RandomBot(seed=1)])
    assert history(game) == history(twin)


def test_a_bot_that_crashes_mid_hand_is_replaced_from_that_decision_on(tmp_path: Path) -> None:
    cmd = write_bot(tmp_path, "crashes_mid_hand", CRASHES_MID_HAND)
    game = Game.deal(PAGAT, 2, seed=11)
    bot = ExternalBot(cmd)
    try:
        failures = play_out(game, [bot, get_bot("greedy", seed=1)])
    finally:
        bot.close()
    assert len(failures) == 1 and "crashed" in failures[0] and failures[0].startswith("seat 0: ")
    twin = Game.deal(PAGAT, 2, seed=11)
    play_out(twin, [FirstLegalThenRandom(good=3, seat=0), get_bot("greedy", seed=1)])
    assert history(game) == history(twin)
    assert sum(1 for s, _ in game.history if s == 0) > 3  # it played on after the crash


def _fails_after_one_answer(kind: str) -> str:
    """A bot that answers its first decision (the check before the tournament) and then
    behaves as BROKEN[kind] at its second."""
    script, _ = BROKEN[kind]
    body = textwrap.indent(textwrap.dedent(script).replace("for line in sys.stdin:",
                                                           "for line in lines:"), "    ")
    return textwrap.dedent("""
        import json, sys, time
        lines = iter(sys.stdin)
        first = next(lines)
        print(json.dumps({"action": json.loads(first)["legal"][0]}), flush=True)
        sys.stderr.write("warming up\\nthe second decision is where it goes wrong\\n")
        sys.stderr.flush()
        if True:
    """) + body


@pytest.mark.parametrize("kind", ["crashes_at_once", "hangs", "answers_illegal",
                                  "answers_malformed"])
def test_a_bot_that_fails_its_first_decision_stops_the_tournament_before_any_hand(
        tmp_path: Path, kind: str) -> None:
    script, words = BROKEN[kind]
    cmd = "cmd:" + write_bot(tmp_path, kind, script)
    tournament = Tournament(PAGAT, 2, (cmd, "greedy"), deals=2, seed=4,
                            time_limit=limit_for(kind))
    played: list[int] = []
    with pytest.raises(TienLenError, match="before any hand was played") as caught:
        run_tournament(tournament, progress=lambda done, total: played.append(done))
    assert words.replace("crashed", "crashed") in str(caught.value)
    assert played == []


@pytest.mark.parametrize("kind", ["crashes_at_once", "hangs", "answers_illegal",
                                  "answers_malformed"])
def test_a_tournament_goes_on_past_a_bot_failing_later_and_reports_it_once(
        tmp_path: Path, kind: str) -> None:
    _, words = BROKEN[kind]
    script = tmp_path / f"{kind}.py"
    script.write_text(_fails_after_one_answer(kind), encoding="utf-8")
    cmd = "cmd:" + command(script)
    tournament = Tournament(PAGAT, 2, (f"me={cmd}", "greedy"), deals=2, seed=4,
                            time_limit=limit_for(kind))
    report = run_tournament(tournament)
    assert report["hands"] == 4
    assert {b["name"]: b["hands"] for b in report["bots"]} == {"me": 4, "greedy": 4}
    failures = report["failures"]
    assert len(failures) == 4  # once in every hand: the next hand starts the bot afresh
    for failure in failures:
        assert set(failure) == {"bot", "deal", "rotation", "seat", "reason", "stderr",
                                "reason_key", "reason_params"}
        assert failure["bot"] == "me" and words in failure["reason"]
        # the code and its values say the same reason: json.dumps keeps them language-neutral
        assert failure["reason_key"].startswith("err.extbot.")
        assert t(failure["reason_key"], "en", **failure["reason_params"]) == failure["reason"]
        json.dumps(failure)
        assert "goes wrong" in failure["stderr"]
    assert {(f["deal"], f["rotation"]) for f in failures} == {(d, r) for d in range(2)
                                                              for r in range(2)}
    table = format_table(report)
    reported = [line for line in table.splitlines() if line.startswith("failure:")]
    assert len(reported) == 1  # once for the bot, not once a hand
    assert "bot 'me' failed in 4 hands" in reported[0] and words in reported[0]
    assert "    the second decision is where it goes wrong" in table
    vietnamese = [line for line in format_table(report, "vi").splitlines()
                  if line.startswith("lỗi:")]
    assert len(vietnamese) == 1 and "máy 'me' hỏng trong 4 ván" in vietnamese[0]
    said = t(failures[-1]["reason_key"], "vi", **failures[-1]["reason_params"])
    assert vietnamese[0].endswith(said) and said != failures[-1]["reason"]
    # the units still balance: random played the failing seat to the end of each hand
    assert sum(b["mean_units"] * b["hands"] for b in report["bots"]) == pytest.approx(0)


def test_a_tournament_with_a_bot_that_crashes_mid_hand_reports_it_too(tmp_path: Path) -> None:
    cmd = "cmd:" + write_bot(tmp_path, "crashes_mid_hand", CRASHES_MID_HAND)
    report = run_tournament(Tournament(PAGAT, 2, (cmd, "heuristic"), deals=1, seed=2))
    assert report["hands"] == 2
    assert len(report["failures"]) == 2
    assert all("crashed" in f["reason"] for f in report["failures"])


def test_a_bot_that_cannot_start_stops_the_tournament_at_once(tmp_path: Path) -> None:
    cmd = "cmd:" + shlex.quote(str(tmp_path / "no-such-bot"))
    with pytest.raises(TienLenError, match="could not start"):
        run_tournament(Tournament(PAGAT, 2, (cmd, "greedy"), deals=1, seed=2))


def test_an_external_bot_failure_is_a_bot_failure_error(tmp_path: Path) -> None:
    script, _ = BROKEN["answers_illegal"]
    bot: Bot = ExternalBot(write_bot(tmp_path, "illegal", script))
    game = Game.deal(PAGAT, 2, seed=1)
    try:
        with pytest.raises(BotFailure, match="not a legal action"):
            bot.choose(game.view(game.turn or 0))
    finally:
        assert isinstance(bot, ExternalBot)
        bot.close()


def test_a_bot_that_answers_every_time_has_no_failures(tmp_path: Path) -> None:
    cmd = "cmd:" + write_bot(tmp_path, "first_legal", FIRST_LEGAL)
    report = run_tournament(Tournament(PAGAT, 2, (cmd, "greedy"), deals=1, seed=2))
    assert report["failures"] == []
