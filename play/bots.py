"""Bots that play any generated engine through its public API.

A bot sees only what its seat may see: `game.observation(player)` and the legal actions
(plus the engine module's constant tables: the board, the tickets, the rules' numbers).
`choose(engine, observation, legal, rng)` returns one of the legal actions.

- `random`: a legal action drawn uniformly.
- `greedy`: plans the shortest paths of its tickets over the routes still open, draws the
  colours the plan needs, claims on the plan (longest routes first), takes new tickets when
  its own are done or out of reach, and claims the longest routes it can pay late in the game.
- `mcts` (``play.mcts``): determinised Monte-Carlo tree search.

The bots themselves live in ``play.greedy`` and ``play.mcts``; this module names them
(``make_bot``), as the tournament, the page and the commands ask for them.
"""

from __future__ import annotations

from .greedy import (
    Board,
    Bot,
    GreedyBot,
    RandomBot,
    board_of,
    hand_of,
    my_side,
    route_costs,
    shortest_path,
    ticket_goals,
    ticket_plan,
)
from .mcts import MctsBot


class BotNameError(ValueError):
    """A bot name `make_bot` does not know, said in French with the name meant when one is close."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message if hint is None else f"{message} ; {hint}")
        self.message, self.hint = message, hint


BOT_KINDS = ("random", "greedy", "mcts")


def make_bot(name: str) -> Bot:
    """A bot by name: random, greedy, or mcts (with an optional budget: mcts:200, mcts:1s)."""
    kind, _, budget = name.partition(":")
    if kind == "random":
        return RandomBot()
    if kind == "greedy":
        return GreedyBot()
    if kind == "mcts":
        try:
            return MctsBot.from_budget(budget)
        except ValueError as error:
            raise BotNameError(f"bot inconnu : « {name} » ({error})") from None
    from aventuriers.compiler.diagnostics import did_you_mean  # only to say a wrong name

    raise BotNameError(f"bot inconnu : « {name} » ({', '.join(BOT_KINDS)})", did_you_mean(kind, BOT_KINDS))


__all__ = [
    "BOT_KINDS",
    "Board",
    "Bot",
    "BotNameError",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "board_of",
    "hand_of",
    "make_bot",
    "my_side",
    "route_costs",
    "shortest_path",
    "ticket_goals",
    "ticket_plan",
]
