"""The PettingZoo environment (issue 12): the API test, and 100 games of masked random agents."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from aventuriers.play.env import env, layout  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from tests.engines import engine  # noqa: E402


# The observation is PettingZoo's action-masking shape, a Dict of the vector and the mask; its
# api_test passes it while suggesting a plain Box, which would leave the mask out.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(
    ("edition", "players"),
    [
        ("usa-2025", 2),
        ("usa-2025", 4),
        ("europe", 3),
        ("switzerland", 2),
        ("asia-equipes", 4),
        ("pennsylvania", 2),
        ("japan", 3),
        ("germany", 2),
        ("italy", 3),
    ],
)
def test_the_environment_passes_the_pettingzoo_api_test(edition: str, players: int) -> None:
    api_test(env(edition, players), num_cycles=500)


@pytest.mark.parametrize("reward", ["score", "win"])
def test_100_games_of_masked_random_agents(reward: str) -> None:
    environment = env("usa-2025", 3, reward=reward)
    for seed in range(50):
        environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        finals = {}
        for agent in environment.agent_iter():
            observation, reward_now, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                finals[agent] = reward_now
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            assert len(legal) > 0
            environment.step(int(rng.choice(legal)))
        assert environment.game.is_over() and set(finals) == set(environment.possible_agents)
        if reward == "win":
            winners = environment.game.winners()
            assert all(
                (value >= 0) == (int(agent.split("_")[1]) in winners) for agent, value in finals.items()
            )


def test_the_observation_layout_covers_the_vector() -> None:
    environment = env("europe", 3)
    environment.reset(seed=1)
    observation = environment.observe(environment.agent_selection)["observation"]
    assert len(observation) == sum(length for _, length in layout(engine("europe"), 3))
    assert environment.observation_space(environment.agent_selection)["observation"].contains(observation)


def test_a_player_count_the_edition_refuses() -> None:
    with pytest.raises(ValueError):
        env("asia-equipes", 5)


def test_the_package_offers_the_environment() -> None:
    import aventuriers

    environment = aventuriers.env("usa-2025", players=2, reward="win")
    environment.reset(seed=3)
    assert environment.agent_selection == "player_0"


@pytest.mark.parametrize(
    ("variant", "phase", "players"),
    [
        ("europe-voyageurs", "take_token", 3),
        ("usa-actions", "take_share", 3),
        ("usa-actions", "dummy_share", 2),
    ],
)
def test_tokens_and_shares_reach_the_vector(variant: str, phase: str, players: int) -> None:
    """Tokens on the cities or shares, held per seat and a choice waiting (variants of issue
    24): every slice of the layout, the choice's phase in the one-hot."""
    from aventuriers.compiler.build import compile_edition, loader
    from aventuriers.compiler.emit.example import load_engine
    from aventuriers.play.env import encode, phases

    from tests.test_variant_edits import VARIANTS

    result = compile_edition(VARIANTS / f"{variant}.aventuriers", loader())
    tokens = load_engine(result.engine_source, result.edition.module_name)
    assert phase in phases(tokens)
    game = tokens.new_game(players, 4)
    rng = np.random.default_rng(4)
    choosing = 0
    while not game.is_over():
        seen = game.observation(game.current_player)
        vector = encode(tokens, seen)
        assert len(vector) == sum(length for _, length in layout(tokens, players))
        if seen["phase"] == phase:
            choosing += 1
            waiting = layout(tokens, players)[-1][1]  # the last slice: what the claim waits for
            assert vector[-waiting:].sum() >= 1
        # A random player that never declines a share (the claims with "share": False), as
        # before declining was offered: the same games, which reach the choice.
        actions = [action for action in game.legal_actions() if action.get("share") is not False]
        game.apply(actions[int(rng.integers(len(actions)))])
    assert choosing > 0


def test_cards_owed_by_a_claim_are_a_phase_of_the_one_hot() -> None:
    from aventuriers.play.env import phases

    assert "owed_cards" in phases(engine("nordic-countries"))
    assert "owed_cards" not in phases(engine("usa-2025"))
