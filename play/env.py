"""A PettingZoo AEC environment over any generated engine (the `[rl]` extra).

    from aventuriers.play.env import env
    environment = env("usa-2025", players=2, reward="score")

Agents `player_0`…: they play in the engine's turn order (a turn may take several steps:
two cards, a tunnel surcharge, the tickets kept). Actions are `Discrete(len(ACTIONS))`,
the engine's integer action index; each observation is a dict of `observation` (a fixed
vector per edition and player count, see `layout()`) and `action_mask` (the legal ids for
the agent to move, zeros for the others). Rewards come at the end: the final score
difference with the best other seat divided by 100 (`reward="score"`), or 1 for a win,
0 for a shared one, -1 for a loss (`reward="win"`). The vector is built from
`observation(player)` only: what that seat may see, seats listed from its own onwards.
"""

from __future__ import annotations

import types

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from .engines import shipped_engine
from .state_fields import declared, field_value, ids


def phases(engine: types.ModuleType) -> tuple[str, ...]:
    """The phases of the one-hot: every phase the engine's games may be in (`PHASES`)."""
    return tuple(engine.PHASES)


def layout(engine: types.ModuleType, players: int) -> list[tuple[str, int]]:
    """The slices of the observation vector, in order, as (name, length): the core's, then each
    field the engine's mechanisms declare (`STATE_FIELDS`) that a seat sees."""
    colors, routes, tickets = len(engine.COLORS), len(engine.ROUTES), len(engine.TICKETS)
    parts = [
        ("hand: my cards by colour (COLORS order)", colors),
        ("market: face-up cards by colour", colors),
        (
            "routes: for each route (ROUTES order), 1 in the slot of its owner, seats from mine; the first slot: open",
            routes * (players + 1),
        ),
        ("trains: trains left per seat, from mine", players),
        ("score: score track per seat, from mine", players),
        ("hand size per seat, from mine", players),
        ("tickets held per seat, from mine", players),
        ("my tickets: 1 per ticket held (TICKETS order)", tickets),
        ("my pending tickets: 1 per ticket offered to me", tickets),
        ("phase: one-hot " + ", ".join(phases(engine)), len(phases(engine))),
        (
            "counts: deck, discard, ticket deck, cards drawn this turn, final turns left (-1 before the last round)",
            5,
        ),
    ]
    for field in declared(engine, players):
        slice_ = _field_slice(engine, field, players)
        if slice_ is not None:
            parts.append(slice_)
    return parts


def _field_slice(engine: types.ModuleType, field: dict, players: int) -> tuple[str, int] | None:
    """A declared field's slice of the vector, or None when the vector does not show it."""
    shape, scope = field["shape"], field["scope"]
    name = " ".join([field["key"], *field.get("path", ())]) + f" ({field['label']})"
    over = len(ids(engine, field))
    if shape == "pending":
        return None  # what waits is the phase's one-hot
    if scope == "team":
        return f"{name}: my team's, 1 or a number per id", over
    if scope == "player":
        if shape == "count":
            return f"{name}: per seat, from mine", players if field.get("seen", "all") == "all" else 1
        if shape == "ids" and field.get("unique"):
            return (
                f"{name}: for each id, 1 in the slot of its holder, seats from mine; first slot: none",
                over * (players + 1),
            )
        seats = players if field.get("seen", "all") == "all" else 1
        return f"{name}: per seat, from mine, by id", seats * over
    if shape == "count":
        return name, 1
    if shape == "holders":
        return (
            f"{name}: for each id, 1 in the slot of its holder, seats from mine; first slot: none",
            over * (players + 1),
        )
    if shape == "grid":
        return f"{name}: for each id, by each second id", over * len(ids(engine, field, "by"))
    if shape == "card":
        return f"{name}: one-hot by colour", len(engine.COLORS)
    if shape == "choices":
        return f"{name}: the id the first choice waits on, one-hot", over
    return f"{name}: by id", over  # ids (1 each), tallies, numbers held, piles' sizes


def encode(engine: types.ModuleType, seen: dict) -> np.ndarray:
    """The vector of `layout()` from one seat's observation."""
    me, players = seen["player"], seen["players"]
    count = len(players)
    order = [(me + offset) % count for offset in range(count)]
    slot = {seat: index + 1 for index, seat in enumerate(order)}
    colors = engine.COLORS
    route_index = {route: index for index, route in enumerate(engine.ROUTES)}
    ticket_index = {ticket: index for index, ticket in enumerate(engine.TICKETS)}
    own = players[me]
    vector: list[float] = [own["hand"][color] for color in colors]
    vector += [sum(card == color for card in seen["market"]) for color in colors]
    owners = np.zeros((len(engine.ROUTES), count + 1))
    owners[:, 0] = 1
    for seat, record in enumerate(players):
        for route in record["routes"]:
            owners[route_index[route], 0] = 0
            owners[route_index[route], slot[seat]] = 1
    vector += owners.ravel().tolist()
    for field in ("trains", "score", "hand_size", "tickets_count"):
        vector += [players[seat][field] for seat in order]
    for field in ("tickets", "pending_tickets"):
        marks = [0.0] * len(engine.TICKETS)
        for ticket in own[field]:
            marks[ticket_index[ticket]] = 1
        vector += marks
    vector += [float(seen["phase"] == phase) for phase in phases(engine)]
    final = seen["final_turns_left"]
    vector += [
        seen["deck_size"],
        seen["discard_size"],
        seen["ticket_deck_size"],
        seen["cards_drawn"],
        -1 if final is None else final,
    ]
    for field in declared(engine, count):
        vector += _field_values(engine, field, seen, order, slot)
    return np.asarray(vector, dtype=np.float32)


def _by_id(shape: str, value, over: tuple[str, ...]) -> list[float]:
    """One number per id: 1 for an id listed, a tally's number, how many numbered items are held."""
    if shape == "ids":
        listed = set(value or ())
        return [float(key in listed) for key in over]
    if shape == "numbers":
        return [len((value or {}).get(key, [])) for key in over]
    return [(value or {}).get(key, 0) for key in over]


def _field_values(
    engine: types.ModuleType, field: dict, seen: dict, order: list[int], slot: dict
) -> list[float]:
    shape, scope = field["shape"], field["scope"]
    over = ids(engine, field)
    players, me = seen["players"], seen["player"]
    if shape == "pending":
        return []
    if scope == "team":
        team = next(team for team in seen["teams"] if me in team["players"])
        return _by_id(shape, field_value(team, field), over)
    if scope == "player":
        seats = order if field.get("seen", "all") == "all" else [me]
        if shape == "count":
            return [field_value(players[seat], field) for seat in seats]
        if shape == "ids" and field.get("unique"):
            return _slots(
                {key: seat for seat in order for key in field_value(players[seat], field)}, over, slot
            )
        return [number for seat in seats for number in _by_id(shape, field_value(players[seat], field), over)]
    if field.get("seen") == "sizes":
        return [seen[field["shown_as"]][key] for key in over]
    value = field_value(seen, field)
    if shape == "count":
        return [value]
    if shape == "holders":
        return _slots(value, over, slot)
    if shape == "grid":
        by = ids(engine, field, "by")
        return [value[key].get(second, 0) for key in over for second in by]
    if shape == "card":
        return [float(value == color) for color in engine.COLORS]
    if shape == "choices":
        key, wanted = field.get("match") or (None, None)
        waiting = {choice[field["pick"]] for choice in value[:1] if key is None or choice[key] == wanted}
        return [float(place in waiting) for place in over]
    return _by_id(shape, value, over)


def _slots(holders: dict, over: tuple[str, ...], slot: dict) -> list[float]:
    """For each id, 1 in the slot of its holder (seats from mine), the first slot for nobody."""
    table = np.zeros((len(over), len(slot) + 1))
    for row, key in enumerate(over):
        holder = holders.get(key)
        table[row, 0 if holder is None else slot[holder]] = 1
    return table.ravel().tolist()


class AventuriersEnv(AECEnv):
    metadata = {"name": "aventuriers_v0", "is_parallelizable": False, "render_modes": []}

    def __init__(self, edition: str = "usa-2025", players: int = 2, reward: str = "score"):
        super().__init__()
        if reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', not {reward!r}")
        self.engine = shipped_engine(edition)
        self.engine.new_game(players, 0)  # a player count the edition refuses fails here
        self.players = players
        self.reward_kind = reward
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size = sum(length for _, length in layout(self.engine, players))
        actions = len(self.engine.ACTIONS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=-1, high=10_000, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.game = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.game = self.engine.new_game(self.players, 0 if seed is None else seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(len(self.engine.ACTIONS), dtype=np.int8)
        if agent == self.agent_selection and not self.game.is_over():
            mask[:] = np.frombuffer(self.game.action_mask(), dtype=np.int8)
        return {"observation": encode(self.engine, self.game.observation(seat)), "action_mask": mask}

    def step(self, action) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_id(int(action))
        if self.game.is_over():
            self.rewards = self._final_rewards()
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self.agent_selection = self._agent_selector.reset()
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.game.current_player]

    def render(self) -> str:
        """The scores so far, as text (the environment has no picture)."""
        records = self.game.to_dict()["players"]
        return " · ".join(
            f"{agent} : {record['score']} points"
            for agent, record in zip(self.possible_agents, records, strict=True)
        )

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""
        self.game = None

    def _final_rewards(self) -> dict[str, float]:
        game = self.game
        if hasattr(game, "team_scores"):
            team_totals = {team["team"]: team["total"] for team in game.team_scores()}
            totals = [team_totals[record["team"]] for record in game.scores()]
        else:
            totals = [record["total"] for record in game.scores()]
        winners = game.winners()
        rewards = {}
        for seat, agent in enumerate(self.possible_agents):
            if self.reward_kind == "win":
                rewards[agent] = (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0
            else:
                others = [total for other, total in enumerate(totals) if other != seat]
                rewards[agent] = (totals[seat] - max(others)) / 100
        return rewards


def env(edition: str = "usa-2025", players: int = 2, reward: str = "score") -> AventuriersEnv:
    """The AEC environment of a shipped edition."""
    return AventuriersEnv(edition, players, reward)
