"""A trained agent as a bot (``tienlen.rl.policy``): it sees what the environments show its seat,
plays in a tournament by ``py:…``, and a policy's illegal answer is replaced as the environments
replace it; a Python bot that cannot be loaded is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from tienlen import Rules, TienLenError  # noqa: E402
from tienlen.arena import python_bot  # noqa: E402
from tienlen.cli import main  # noqa: E402
from tienlen.rl.aec import TienLenEnv  # noqa: E402
from tienlen.rl.policy import PolicyBot  # noqa: E402
from tienlen.turns import view_for_decision  # noqa: E402

AGENT = Path(__file__).resolve().parent.parent / "examples" / "policy_agent.py"


@pytest.mark.parametrize(("rules", "players"), [("pagat", 4), ("mien-nam", 4), ("pagat", 6)])
def test_the_bot_sees_what_the_environment_shows_the_seat_asked(rules: str, players: int) -> None:
    env = TienLenEnv(rules=Rules.preset(rules), players=players)
    bot = python_bot(f"{AGENT}:bot")
    assert isinstance(bot, PolicyBot)
    rng = np.random.default_rng(1)
    for hand in range(3):
        env.reset(seed=hand)
        while not env.game.is_over:
            agent = env.agent_selection
            view = view_for_decision(env.game, env._decision)  # what a bot at that seat is shown
            obs, _ = bot.observe(view)
            shown = env.observe(agent)
            assert np.array_equal(obs["action_mask"], shown["action_mask"])
            assert np.array_equal(obs["observation"], shown["observation"])
            env.step(int(rng.choice(np.flatnonzero(shown["action_mask"]))))


def test_a_policy_plays_a_tournament_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--players", "3", "--deals", "3", "--quiet", "--bots",
                 f"me=py:{AGENT}:bot,greedy,random"])
    assert code == 0
    table = capsys.readouterr().out
    assert "me" in table and "greedy" in table


def test_an_illegal_answer_is_replaced_and_counted() -> None:
    env = TienLenEnv(rules=Rules.preset("pagat"), players=4)
    env.reset(seed=2)
    bot = PolicyBot(lambda obs: 10_000)  # never a legal id
    view = view_for_decision(env.game, env._decision)
    move = bot.choose(view)
    assert move in view.legal and bot.illegal == 1


@pytest.mark.parametrize(("spec", "words"), [
    ("nocolon", "names no bot: write py:MODULE:NAME"),
    ("no_such_module_x:bot", "could not be loaded: No module named 'no_such_module_x'"),
    (f"{AGENT}:nothing", "could not be loaded"),
    (f"{AGENT}:policy", "could not be loaded"),  # a policy, not a bot: PolicyBot makes one
    ("missing/file.py:bot", "could not be loaded: no file missing/file.py"),
])
def test_a_python_bot_that_cannot_be_loaded_is_a_clear_error(spec: str, words: str) -> None:
    with pytest.raises(TienLenError, match=words):
        python_bot(spec)


def test_a_maskable_predict_policy_is_asked_with_its_mask() -> None:
    asked = []

    class Maskable:  # Stable-Baselines3's maskable policies: predict(obs, action_masks=...)
        def predict(self, obs: dict[str, object], action_masks: object = None) -> tuple[int, None]:
            asked.append(action_masks)
            return int(np.flatnonzero(action_masks)[-1]), None

    env = TienLenEnv(rules=Rules.preset("pagat"), players=4)
    env.reset(seed=3)
    bot = PolicyBot(Maskable())
    view = view_for_decision(env.game, env._decision)
    move = bot.choose(view)
    assert move in view.legal and bot.illegal == 0
    assert asked[0].dtype == bool and asked[0].sum() == len(view.legal)


def test_the_training_example_trains_saves_and_plays_as_a_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    import importlib.util

    spec = importlib.util.spec_from_file_location("train_ppo", AGENT.parent / "train_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "agent.pt"
    monkeypatch.setattr("sys.argv", ["train_ppo.py", "--steps", "1024", "--envs", "4",
                                     "--out", str(out)])
    example.main()  # a few updates: it runs end to end, not yet a good agent
    assert out.exists()
    monkeypatch.setenv("TIENLEN_AGENT", str(out))
    code = main(["tournament", "--players", "2", "--deals", "2", "--quiet", "--bots",
                 f"me=py:{AGENT.parent / 'train_ppo.py'}:bot,random"])
    assert code == 0 and "me" in capsys.readouterr().out
