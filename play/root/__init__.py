"""aventuriers: the rules compiler of Les Aventuriers du Rail and what plays its engines.

`aventuriers.compiler` (the compiler), `aventuriers.generated.<edition>` (the shipped
engines), `aventuriers.play` (bots, tournaments, the RL environment). `aventuriers.env`
is the PettingZoo environment of an edition (the `[rl]` extra).
"""


def env(edition: str = "usa-2025", players: int = 2, reward: str = "score"):
    """The PettingZoo AEC environment of a shipped edition (see aventuriers.play.env)."""
    try:
        from .play.env import env as environment
    except ImportError as missing:
        raise ImportError(
            f"aventuriers.env demande l’extra [rl] ({missing.name} manque) : pip install 'aventuriers[rl]'"
        ) from missing

    return environment(edition, players, reward)
