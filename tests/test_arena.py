"""Tournaments: duplicate deals (every deal at every rotation, every bot in every seat), the
statistics and their intervals, the JSON document, reproducibility whatever the number of
workers or the back end, and the ``tienlen tournament`` command."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tienlen import Game, Rules, TienLenError, arena
from tienlen.arena import (
    HandResult,
    Tournament,
    format_table,
    parse_bots,
    run_local,
    run_tournament,
    summarize,
)
from tienlen.cli import main

PAGAT = Rules.preset("pagat")
TRIO = ("random", "greedy", "heuristic")
# seeded and deterministic (no clock) so that results repeat across processes
SEARCH = "search:worlds=1:seconds=none"


def small(seed: int = 5, deals: int = 3, bots: tuple[str, ...] = TRIO,
          rules: Rules = PAGAT) -> Tournament:
    return Tournament(rules, len(bots), bots, deals=deals, seed=seed)


def results_of(t: Tournament) -> list[HandResult]:
    return [r for batch in run_local(t) for r in batch]


# ---------------------------------------------------------------------- duplicate deals
def test_every_deal_is_played_once_at_each_rotation_with_every_bot_in_every_seat() -> None:
    t = small(deals=4)
    results = results_of(t)
    by_deal: dict[int, list[HandResult]] = defaultdict(list)
    for r in results:
        by_deal[r.deal].append(r)
    assert sorted(by_deal) == [0, 1, 2, 3]
    for hands in by_deal.values():
        assert sorted(r.rotation for r in hands) == [0, 1, 2]
        for r in hands:  # the rotation turns the line-up round the table
            assert r.bots == tuple(TRIO[(seat - r.rotation) % 3] for seat in range(3))
        for bot in TRIO:
            assert sorted(r.bots.index(bot) for r in hands) == [0, 1, 2]


def test_a_deal_is_the_same_cards_at_every_rotation_and_deals_differ(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: list[tuple[Any, int]] = []
    real_play_out = arena.play_out

    def recording(game: Game, bots: list[Any], max_steps: int = 100_000,
                  failed: list[Any] | None = None) -> list[str]:
        dealt.append((game.dealt, game.dealer))
        return real_play_out(game, bots, max_steps, failed)

    monkeypatch.setattr(arena, "play_out", recording)
    t = small(deals=3)
    results = results_of(t)
    assert len(dealt) == len(results) == 9
    for deal in range(3):
        rotations = [dealt[i] for i, r in enumerate(results) if r.deal == deal]
        assert len(rotations) == 3 and len(set(rotations)) == 1
        expected = Game.deal(PAGAT, 3, t.deal_seed(deal))
        assert rotations[0] == (expected.dealt, expected.dealer)
    assert len({dealt[i] for i in range(0, 9, 3)}) == 3


def test_a_deals_seed_comes_from_the_tournament_seed_and_the_deal_number_alone() -> None:
    a, b = small(seed=1), small(seed=1, deals=50, bots=("greedy", "greedy", "random"))
    assert [a.deal_seed(d) for d in range(3)] == [b.deal_seed(d) for d in range(3)]
    assert len({a.deal_seed(d) for d in range(50)}) == 50
    assert a.deal_seed(0) != small(seed=2).deal_seed(0)


# ---------------------------------------------------------------------- statistics
def test_the_statistics_count_every_hand_and_keep_rates_and_intervals_in_bounds() -> None:
    # "random:" is random again under another label: four bots, four seats
    t = small(deals=6, bots=("random", "greedy", "heuristic", "random:"))
    report = run_tournament(t)
    assert report["hands"] == 24
    bots = {b["name"]: b for b in report["bots"]}
    assert set(bots) == {"random", "greedy", "heuristic", "random:"}
    for b in bots.values():
        assert b["hands"] == 24  # one seat in each hand of each deal
        for rate, ci in (("first_rate", "first_ci"), ("last_rate", "last_ci")):
            assert 0.0 <= b[ci][0] <= b[rate] <= b[ci][1] <= 1.0
        assert b["place_ci"][0] <= b["mean_place"] <= b["place_ci"][1]
        assert b["units_ci"][0] <= b["mean_units"] <= b["units_ci"][1]
        assert 1.0 <= b["mean_place"] <= 4.0
    # every hand has one winner and one loser; the units of all seats sum to zero
    assert sum(b["first_rate"] * b["hands"] for b in bots.values()) == pytest.approx(24)
    assert sum(b["last_rate"] * b["hands"] for b in bots.values()) == pytest.approx(24)
    assert sum(b["mean_units"] * b["hands"] for b in bots.values()) == pytest.approx(0)


def test_the_statistics_agree_with_the_hands_played() -> None:
    t = small(deals=4)
    results = results_of(t)
    for r in results:
        assert sorted(r.places) == [0, 1, 2]
        assert sum(r.units) == 0
    for b in summarize(results, 3):
        seats = [(r, r.bots.index(b["name"])) for r in results]
        assert b["hands"] == len(seats)
        assert b["first_rate"] == pytest.approx(sum(r.places[s] == 0 for r, s in seats) / len(seats))
        assert b["last_rate"] == pytest.approx(sum(r.places[s] == 2 for r, s in seats) / len(seats))
        assert b["mean_place"] == pytest.approx(sum(r.places[s] + 1 for r, s in seats) / len(seats))
        assert b["mean_units"] == pytest.approx(sum(r.units[s] for r, s in seats) / len(seats))


def test_intervals_treat_the_deals_as_the_independent_samples() -> None:
    """Two deals of a two-seat match. A wins both hands of deal 1 and one of deal 0:
    A's first rate is 3/4 with per-deal means 1/2 and 1, so its cluster standard error is
    sqrt(2/1 * (2^2 (1/2-3/4)^2 + 2^2 (1-3/4)^2)) / 4 = 1/4."""
    ab, ba = ("A", "B"), ("B", "A")
    results = [HandResult(0, 0, ab, (0, 1), (1, -1)), HandResult(0, 1, ba, (0, 1), (1, -1)),
               HandResult(1, 0, ab, (0, 1), (1, -1)), HandResult(1, 1, ba, (1, 0), (-1, 1))]
    stats = {b["name"]: b for b in summarize(results, 2)}
    a, b = stats["A"], stats["B"]
    z = arena.t95(1)  # two deals: Student's t with one degree of freedom
    assert a["hands"] == b["hands"] == 4
    assert a["first_rate"] == pytest.approx(0.75) and b["first_rate"] == pytest.approx(0.25)
    assert a["first_ci"] == pytest.approx([max(0.0, 0.75 - z * 0.25), 1.0])  # clipped at 100%
    assert b["first_ci"] == pytest.approx([0.0, min(1.0, 0.25 + z * 0.25)])  # clipped at 0%
    assert a["mean_place"] == pytest.approx(1.25)
    # units per deal: A 0 then +1, mean 1/2, standard error 1/2
    assert a["mean_units"] == pytest.approx(0.5) and b["mean_units"] == pytest.approx(-0.5)
    assert a["units_ci"] == pytest.approx([0.5 - z * 0.5, 0.5 + z * 0.5])


def test_the_report_is_the_json_document_of_the_issue() -> None:
    report = run_tournament(small(deals=2))
    document = json.loads(json.dumps(report))
    assert {"rules", "deals", "bots"} <= set(document)
    assert document["rules"] == "pagat" and document["deals"] == 2
    assert [b["name"] for b in document["bots"]] and len(document["bots"]) == 3
    for b in document["bots"]:
        assert {"name", "hands", "first_rate", "first_ci", "last_rate", "mean_place",
                "mean_units", "units_ci"} <= set(b)
        assert len(b["first_ci"]) == 2 and len(b["units_ci"]) == 2
    assert document["failures"] == []


def test_the_table_lists_every_bot_with_its_figures() -> None:
    report = run_tournament(small(deals=2))
    table = format_table(report)
    lines = table.splitlines()
    assert lines[0] == "pagat, 3 players, 2 deals x 3 rotations = 6 hands"
    for b in report["bots"]:
        row = next(line for line in lines if line.startswith(b["name"] + " "))
        assert f"{100 * b['first_rate']:5.1f}" in row and f"{b['mean_place']:6.2f}" in row


def test_progress_is_reported_once_per_deal() -> None:
    seen: list[tuple[int, int]] = []
    run_tournament(small(deals=3), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


# ---------------------------------------------------------------------- reproducible
def test_the_same_seed_gives_the_same_report_with_one_worker_or_two() -> None:
    t = small(seed=9, deals=4, bots=("random", SEARCH, "heuristic"))
    one = run_tournament(t, workers=1)
    assert run_tournament(t, workers=1) == one
    assert run_tournament(t, workers=2) == one
    other = run_tournament(small(seed=10, deals=4, bots=("random", SEARCH, "heuristic")))
    assert other["bots"] != one["bots"]


def test_an_unknown_back_end_is_an_error() -> None:
    with pytest.raises(TienLenError, match="local or ray"):
        run_tournament(small(deals=1), backend="spark")


def test_the_ray_back_end_gives_the_local_result() -> None:
    pytest.importorskip("ray")  # the `ray` extra; skipped only where Ray cannot be imported
    t = small(seed=3, deals=3, bots=("random", "greedy", "heuristic"))
    assert run_tournament(t, backend="ray", num_cpus=2) == run_tournament(t)


# ---------------------------------------------------------------------- the command
def test_the_tournament_command_prints_the_table_and_writes_the_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.json"
    code = main(["tournament", "--rules", "pagat", "--players", "3", "--bots",
                 "random, greedy ,heuristic", "--deals", "2", "--seed", "4", "--quiet",
                 "--json", str(out)])
    assert code == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    expected = json.loads(json.dumps(run_tournament(small(seed=4, deals=2))))
    assert written == expected
    printed = capsys.readouterr().out
    assert printed.strip() == format_table(expected)


def test_the_tournament_command_shows_progress_unless_quiet(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--players", "2", "--bots", "greedy,random", "--deals", "2"]) == 0
    assert "2/2 deals" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "3", "--bots", "random,nosuch,greedy"],
     "unknown bot 'nosuch'; bots: random, greedy, heuristic, search"),
    (["--players", "4", "--bots", "random,greedy"], "name one bot per seat: 4 players but 2 bots"),
    (["--players", "2", "--bots", "random,greedy,heuristic"],
     "name one bot per seat: 2 players but 3 bots"),
    (["--players", "2", "--bots", "search:worlds,greedy"], "write options as key=value"),
    (["--players", "2", "--bots", "search:worlds=lots,greedy"], "worlds must be a whole number"),
    (["--players", "2", "--bots", "greedy:worlds=2,random"], "bot 'greedy:worlds=2'"),
    (["--players", "2", "--bots", "py:nope,random"], "'nope' names no bot"),
    (["--players", "2", "--bots", "py:no_such_module_x:bot,random"],
     "the bot 'no_such_module_x:bot' could not be loaded"),
    (["--players", "9"], "players must be a number from 2 to 8"),
    (["--players", "2", "--deals", "0"], "play at least one deal"),
])
def test_bad_bots_and_bot_counts_are_clear_errors(args: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--quiet", "--deals", "1", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tienlen: ") and message in err
    assert "Traceback" not in err


def test_bot_lists_are_split_on_commas_and_trimmed() -> None:
    assert parse_bots(" random, greedy,,heuristic ") == ("random", "greedy", "heuristic")
    assert parse_bots("cmd:python bot.py --fast,greedy") == ("cmd:python bot.py --fast", "greedy")
