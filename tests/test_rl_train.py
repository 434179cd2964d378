"""Self-play training (a short run) and the learned bot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from tienlen import Game, Rules  # noqa: E402
from tienlen.arena import play_out  # noqa: E402
from tienlen.bots import get_bot  # noqa: E402
from tienlen.bots.features import (  # noqa: E402
    INPUT_SIZE,
    LEGACY_ACTION_SIZE,
    LEGACY_INPUT_SIZE,
    MLP,
    STATE_SIZE,
    action_matrix,
    state_vector,
)
from tienlen.bots.heuristic import plan_tops  # noqa: E402
from tienlen.bots.learned import LearnedBot, view_inputs  # noqa: E402
from tienlen.game import packs_for  # noqa: E402
from tienlen.shapes import PASS, Play  # noqa: E402


@pytest.mark.parametrize(("rules", "players"), [
    (Rules.preset("pagat"), 4), (Rules.preset("pagat").replace(chop_out_of_turn=True), 4),
    (Rules.preset("mien-nam"), 4), (Rules.preset("pagat"), 3), (Rules.preset("pagat"), 6),
    (Rules.preset("pagat").replace(suit_order="alphabetical"), 4),
])
def test_training_inputs_equal_the_bots_inputs_from_the_view(rules: Rules, players: int) -> None:
    """The trainer reads the game; the bot reads only its view: both make the same vectors."""
    for seed in range(2):
        game = Game.deal(rules, players, seed)
        rng = random.Random(seed)
        played: list[list[int]] = [[] for _ in range(players)]
        while not game.is_over:
            asked = [(s, [*game.legal_plays(s), PASS]) for s in game.out_of_turn_seats()]
            if game.phase == "play":
                asked.append((game.turn, game.legal_plays()))  # type: ignore[arg-type]
            for seat, legal in asked:
                plays = [m for m in legal if isinstance(m, Play)]
                table = game.table
                state = state_vector(seat, players, game.state.hands[seat], played, game.counts(),
                                     game.finish_order, game.passed,
                                     table.keys if table is not None else None,
                                     table.shape if table is not None else None, game.table_seat,
                                     game.stacking, packs_for(players))
                actions = action_matrix(game.state.hands[seat], [(p.keys, p.shape) for p in plays],
                                        plan_tops(rules), state[52:104])
                view_state, view_actions = view_inputs(game.view(seat), plays)
                assert (state == view_state).all()
                assert (actions == view_actions).all()
            legal = game.legal_plays()
            move = rng.choice(list(legal)) if game.phase == "play" else get_bot("greedy").choose(
                game.view(game.turn))  # type: ignore[arg-type]
            game.play(move)
            if isinstance(move, Play):
                played[game.history[-1][0]].extend(move.keys)


def test_the_learned_bot_plays_legal_hands_with_the_shipped_weights() -> None:
    for preset, players in (("pagat", 4), ("viet-cong", 4), ("pagat", 5)):
        rules = Rules.preset(preset)
        game = Game.deal(rules, players, 3)
        play_out(game, [get_bot("learned", seed=s) for s in range(players)])
        assert game.is_over
        assert Game.from_record(game.record()).finish_order == game.finish_order


def test_the_shipped_weights_are_small_float16() -> None:
    path = Path(__file__).parent.parent / "src" / "tienlen" / "bots" / "data" / "learned.npz"
    assert path.stat().st_size < 4_000_000
    with np.load(path) as data:
        assert data["w0"].dtype == np.float16


def test_a_short_training_run_logs_progress_and_saves_weights_that_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tienlen.cli import main

    out = tmp_path / "run"
    assert main(["train", "--seconds", "2", "--out", str(out), "--eval-deals", "1", "--log-every", "0.5",
                 "--hidden", "32,16", "--seed", "3"]) == 0
    lines = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert lines[0]["kind"] == "start" and lines[0]["actors"] == "compiled"  # 64 hands at once
    assert any(r["kind"] == "progress" and r["frames"] > 0 and "fps" in r for r in lines)
    last_progress = [r for r in lines if r["kind"] == "progress"][-1]
    split = last_progress["split"]  # where the time went
    assert list(split) == ["environment", "features", "inference", "learning"]
    assert all(split[part] > 0 for part in ("environment", "features", "inference"))
    assert abs(sum(split.values()) - 1) < 0.01
    last = lines[-1]
    assert last["kind"] == "eval" and set(last) >= {"greedy", "heuristic"}
    assert (out / "state.pt").exists() and (out / "latest.npz").exists()
    net = MLP.load(out / "learned.npz")
    bot = LearnedBot(seed=1, net=net)
    game = Game.deal(Rules.preset("pagat"), 4, 9)
    play_out(game, [bot, get_bot("greedy"), get_bot("greedy"), get_bot("greedy")])
    assert game.is_over
    assert main(["train", "--seconds", "1", "--out", str(out), "--eval-deals", "0", "--resume",
                 "--hidden", "32,16", "--league", "greedy,heuristic", "--league-share", "0.5",
                 "--envs", "0"]) == 0
    lines = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert lines[-1]["frames"] > last["frames"]  # resumed: the counts go on
    resumed = [r for r in lines if r["kind"] == "start"][-1]
    assert resumed["actors"] == "pure (--envs 0)"  # one hand at a time on the pure engine


def test_the_network_gives_the_same_scores_with_and_without_blas() -> None:
    from tienlen.bots.learned import load_net

    shipped = load_net()
    rows = np.random.default_rng(0).integers(0, 2, (7, shipped.layers[0][0].shape[0])).astype(np.float32)
    plain = MLP(shipped.layers, blas=False)(rows)
    blas = MLP(shipped.layers, blas=True)(rows)
    assert np.allclose(plain, blas, atol=1e-4)


def test_many_decisions_scored_at_once_get_each_decisions_scores() -> None:
    from tienlen.bots.features import ACTION_SIZE, STATE_SIZE
    from tienlen.bots.learned import load_net

    net = load_net()
    rng = np.random.default_rng(2)
    states = rng.integers(0, 2, (3, STATE_SIZE)).astype(np.float32)
    actions = rng.integers(0, 2, (9, ACTION_SIZE)).astype(np.float32)
    owner = np.array([0, 0, 2, 2, 2, 1, 0, 1, 2])  # each move's decision
    together = net.batch_scores(states, actions, owner)
    for d in range(3):  # one decision at a time, the learned bot's way
        alone = net.scores(states[d], actions[owner == d])
        assert np.allclose(together[owner == d], alone, atol=1e-4)
    with pytest.raises(ValueError, match="721 inputs"):
        MLP([(np.zeros((691, 4), np.float32), np.zeros(4, np.float32))]).batch_scores(
            states, actions, owner)


def test_training_can_start_from_saved_weights(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from tienlen.rl.train import _load_weights, _to_numpy, _torch_net

    start = _to_numpy(_torch_net((32, 16)))
    model = _torch_net((32, 16))
    _load_weights(model, start)
    x = np.random.default_rng(1).random((5, start.layers[0][0].shape[0]), dtype=np.float32)
    with torch.no_grad():
        assert np.allclose(model(torch.from_numpy(x))[:, 0].numpy(), start(x), atol=1e-5)
    with pytest.raises(ValueError, match="widths"):
        _load_weights(_torch_net((16, 16)), start)
    from tienlen.cli import main

    path = tmp_path / "start.npz"
    start.save(path)
    out = tmp_path / "run"
    assert main(["train", "--seconds", "1", "--out", str(out), "--eval-deals", "0",
                 "--hidden", "32,16", "--init", str(path)]) == 0
    assert (out / "learned.npz").exists()


def _decisions(count: int) -> list[tuple[object, list[Play]]]:
    """Views and plays of real decisions (4-player pagat, heuristic bots playing)."""
    out: list[tuple[object, list[Play]]] = []
    seed = 0
    while len(out) < count:
        game = Game.deal(Rules.preset("pagat"), 4, seed)
        seed += 1
        while not game.is_over and len(out) < count:
            view = game.view(game.turn)  # type: ignore[arg-type]
            plays = [m for m in view.legal if isinstance(m, Play)]
            if view.phase == "play" and len(plays) > 1:
                out.append((view, plays))
            game.play(get_bot("heuristic").choose(view))
    return out


def test_the_shipped_weights_read_only_their_inputs_and_widened_score_the_same() -> None:
    from tienlen.bots.learned import load_net

    shipped = load_net()
    assert shipped.input_size in (LEGACY_INPUT_SIZE, INPUT_SIZE)
    old = MLP(load_net().layers)
    if old.input_size != LEGACY_INPUT_SIZE:  # the shipped weights read the plan: a 691-input cut
        old = MLP([(shipped.layers[0][0][:LEGACY_INPUT_SIZE], shipped.layers[0][1]),
                   *shipped.layers[1:]])
    wide = old.widened()
    assert wide.input_size == INPUT_SIZE
    old_bot, wide_bot = LearnedBot(seed=1, net=old), LearnedBot(seed=1, net=wide)
    for view, plays in _decisions(60):
        state, actions = view_inputs(view, plays)  # type: ignore[arg-type]
        legacy = actions.copy()  # type: ignore[attr-defined]
        legacy[:, LEGACY_ACTION_SIZE:] = 0.0  # what the old bot computes (no plan entries)
        scores = old.scores(state, legacy)  # type: ignore[arg-type]
        assert (old.scores(state, actions) == scores).all()  # type: ignore[arg-type]
        # zero weights add exact zeros; only BLAS's summation blocks may round differently
        assert np.allclose(wide.scores(state, actions), scores, rtol=0, atol=1e-5)  # type: ignore[arg-type]
        assert old_bot.choose(view) == wide_bot.choose(view)  # type: ignore[arg-type]


def test_the_plan_entries() -> None:
    rules = Rules.preset("pagat")
    key = {r: i for i, r in enumerate("3456789TJQKA2")}

    hand = [key["3"] * 4, key["3"] * 4 + 1, key["4"] * 4, key["5"] * 4, key["6"] * 4,
            key["9"] * 4, key["K"] * 4, key["2"] * 4 + 3]
    # the plan: pair of 3s, run 4-5-6, singles 9, K, 2 (5 groups, 3 loose singles)
    unseen = np.zeros(52, dtype=np.float32)
    unseen[key["A"] * 4] = 1.0  # the highest unseen card: an ace
    plays = [([key["4"] * 4, key["5"] * 4, key["6"] * 4], "run"), ([key["3"] * 4], "single"),
             ([key["9"] * 4], "single"), ([key["2"] * 4 + 3], "single"), ([], None)]
    m = action_matrix(hand, plays, plan_tops(rules), unseen)
    plan = m[:, LEGACY_ACTION_SIZE:]
    assert list(np.round(plan[:, 0] * 13)) == [4, 4, 4, 4, 5]  # groups after (3 3456 9 K 2)
    assert plan[0, 1 + 4] == 1 and plan[4, 1 + 5] == 1
    assert list(plan[:, 13]) == [1, 1, 1, 1, 0]  # the groups fall by one
    assert plan[1, 14] == 1 and plan[1, 14:19].sum() == 1  # a 3 breaks the pair
    assert plan[0, 14:19].sum() == 0
    assert plan[3, 25] == 0 and plan[4, 25] == 0.25  # the 2 is the one master kept
    assert list(plan[:, 29]) == [0, 0, 0, 1, 0]  # only the 2 tops every unseen card
    assert plan[4, 26] == (key["2"] * 4 + 3 + 1) / 52
    assert m.shape == (5, LEGACY_ACTION_SIZE + plan.shape[1])
    bare = action_matrix(hand, plays, plan_tops(rules), unseen, plan=False)
    assert (bare[:, :LEGACY_ACTION_SIZE] == m[:, :LEGACY_ACTION_SIZE]).all()
    assert not bare[:, LEGACY_ACTION_SIZE:].any()


def test_training_from_weights_without_the_plan_inputs_widens_them(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from tienlen.cli import main
    from tienlen.rl.train import _load_weights, _torch_net

    rng = np.random.default_rng(2)
    old = MLP([(rng.normal(size=(LEGACY_INPUT_SIZE, 32)).astype(np.float32) * 0.05,
                rng.normal(size=32).astype(np.float32) * 0.05),
               (rng.normal(size=(32, 16)).astype(np.float32) * 0.1, np.zeros(16, np.float32)),
               (rng.normal(size=(16, 1)).astype(np.float32) * 0.1, np.zeros(1, np.float32))])
    model = _torch_net((32, 16))
    _load_weights(model, old.widened())
    x = rng.random((6, INPUT_SIZE), dtype=np.float32)
    x[:, :STATE_SIZE] = x[0, :STATE_SIZE]
    with torch.no_grad():
        torch_scores = model(torch.from_numpy(x))[:, 0].numpy()
    assert np.allclose(torch_scores, old.scores(x[0, :STATE_SIZE], x[:, STATE_SIZE:]), atol=1e-5)
    path = tmp_path / "old.npz"
    old.save(path)
    out = tmp_path / "run"
    assert main(["train", "--seconds", "1", "--out", str(out), "--eval-deals", "0",
                 "--hidden", "32,16", "--init", str(path)]) == 0
    assert MLP.load(out / "learned.npz").input_size == INPUT_SIZE


def test_without_torch_train_says_in_one_line_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import sys

    from tienlen.cli import main

    monkeypatch.setitem(sys.modules, "torch", None)  # as if it were not installed
    code = main(["train", "--seconds", "1", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "torch is missing" in err and "download.pytorch.org/whl/cpu" in err
    assert not (tmp_path / "run").exists()  # nothing begun


def test_training_with_ray_actors_feeds_one_learner_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    ray = pytest.importorskip("ray")  # the test extra installs it
    from tienlen.cli import main

    out = tmp_path / "run"
    common = ["--out", str(out), "--eval-deals", "0", "--log-every", "0.5", "--hidden", "32,16",
              "--backend", "ray", "--actors", "2", "--envs", "8"]
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)  # kept for both runs
    try:
        assert main(["train", "--seconds", "2", *common]) == 0  # a batch at least: steps too
        lines = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
        assert lines[0]["actors"] == "compiled, 2 on ray"
        progress = [r for r in lines if r["kind"] == "progress"]
        assert progress[-1]["frames"] > 0 and progress[-1]["steps"] > 0
        split = progress[-1]["split"]  # the actors' CPU time comes back with their hands
        assert all(split[part] > 0 for part in ("environment", "features", "inference", "learning"))
        assert (out / "state.pt").exists() and (out / "learned.npz").exists()
        assert main(["train", "--seconds", "1", "--resume", *common]) == 0
        lines = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
        assert lines[-1]["frames"] > progress[-1]["frames"]  # resumed: the counts go on
    finally:
        ray.shutdown()


def test_the_ray_back_end_says_what_its_actors_cannot_run(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from tienlen.cli import main

    code = main(["train", "--seconds", "1", "--out", str(tmp_path / "run"), "--backend", "ray",
                 "--league", "search", "--league-share", "0.5"])
    err = capsys.readouterr().err
    assert code != 0
    assert "the ray back end runs the compiled actors" in err and "'search'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("option", ["--league-share", "--epsilon"])
def test_a_share_outside_0_to_1_is_refused_in_one_line(option: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from tienlen.cli import main

    with pytest.raises(SystemExit):
        main(["train", "--seconds", "1", option, "1.5"])
    err = capsys.readouterr().err
    assert "must be a share from 0 to 1, not 1.5" in err and "Traceback" not in err
