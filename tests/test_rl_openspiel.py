"""The optional OpenSpiel game (runs where ``open_spiel`` is installed)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import tienlen.rl.openspiel  # noqa: E402, F401  (registers python_tienlen)


@pytest.mark.parametrize("params", [{"players": 4, "rules": "pagat"},
                                    {"players": 3, "rules": "viet-cong", "reward": "units"},
                                    {"players": 4, "rules": "mien-nam", "reward": "first"}])
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_tienlen", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_observation_is_the_environments() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_tienlen", {"players": 4, "rules": "pagat"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    obs = make_observation(game)
    obs.set_from(state, state.current_player())
    assert obs.tensor.shape == (409,)
    assert obs.tensor[:52].sum() == 13
    assert sum(state.returns()) == 0
