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

PHASES = ("setup_tickets", "turn", "second_card", "keep_tickets", "tunnel", "over")


def phases(engine: types.ModuleType) -> tuple[str, ...]:
    """The phases of the one-hot: team play adds the first card drawn blind, waiting for its
    place; cards of any colour owed by a claim, their giving; tokens on cities, the choice of
    the token a claim takes; two decks of tickets, the mix said at set-up."""
    found = PHASES
    if hasattr(engine, "TEAM_SIZE"):
        found += ("place_card",)
    if hasattr(engine, "CARD_EFFECTS") or hasattr(engine, "SUBSTITUTES"):
        found += ("owed_cards",)
    if hasattr(engine, "TOKENS"):
        found += ("take_token",)
    if hasattr(engine, "SHARES"):
        found += ("take_share",)
    if getattr(engine, "SHARE_DUMMY", None) is not None:
        found += ("dummy_share",)
    if hasattr(engine, "TICKET_MIX"):
        found += ("ticket_mix",)
    return found


def layout(engine: types.ModuleType, players: int) -> list[tuple[str, int]]:
    """The slices of the observation vector, in order, as (name, length)."""
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
    if hasattr(engine, "STATIONS"):
        parts.append(
            (
                "stations: for each city (CITIES order), 1 in the slot of its owner, seats from mine; first slot: none",
                len(engine.CITIES) * (players + 1),
            )
        )
    if hasattr(engine, "TEAM_SIZE"):
        parts.append(("my team's card holder by colour", colors))
        parts.append(("my team's tickets: 1 per ticket in its holder", tickets))
        parts.append(("the card I drew blind, to place: one-hot by colour", colors))
    for tokens, record in getattr(engine, "TOKENS", {}).items():
        kinds, places = len(record["kinds"]), len(record["on"])
        parts.append((f"tokens {tokens}: on each place (TOKENS order), by kind", places * kinds))
        parts.append((f"tokens {tokens}: held per seat, from mine, by kind", players * kinds))
        parts.append((f"tokens {tokens}: the place where a claim waits for my choice, one-hot", places))
    if hasattr(engine, "SHARES"):
        companies = len(engine.SHARES)
        parts.append(("shares: taken of each company (SHARES order)", companies))
        parts.append(("shares: held per seat, from mine, by company", players * companies))
        parts.append(("shares: the companies a claim offers me now, 1 each", companies))
    if hasattr(engine, "PUBLIC_ROUTES"):
        routes = len(engine.PUBLIC_ROUTES["routes"])
        parts.append(("public routes: pieces left in the supply", 1))
        parts.append(("public routes: contribution track per seat, from mine", players))
        parts.append(
            (
                "public routes: for each (PUBLIC_ROUTES order), 1 in the slot of its builder, seats from mine; first slot: none",
                routes * (players + 1),
            )
        )
    if hasattr(engine, "EXTRA_DECK"):
        parts.append(("second deck: its pile's size", 1))
        parts.append(("second deck: its cards held per seat, from mine", players))
    if hasattr(engine, "TICKET_MIX"):
        parts.append(("tickets: the second deck's size (TICKET_MIX kind)", 1))
    if getattr(engine, "SHARE_DUMMY", None) == players:
        parts.append(("shares: the dummy shareholder's, by company", len(engine.SHARES)))
        parts.append(("shares: the companies I choose the dummy's share among, 1 each", len(engine.SHARES)))
    return parts


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
    if hasattr(engine, "STATIONS"):
        built = np.zeros((len(engine.CITIES), count + 1))
        built[:, 0] = 1
        city_index = {city: index for index, city in enumerate(engine.CITIES)}
        for seat, record in enumerate(players):
            for city in record["stations"]:
                built[city_index[city], 0] = 0
                built[city_index[city], slot[seat]] = 1
        vector += built.ravel().tolist()
    if hasattr(engine, "TEAM_SIZE"):
        team = next(team for team in seen["teams"] if me in team["players"])
        vector += [team["holder"][color] for color in colors]
        marks = [0.0] * len(engine.TICKETS)
        for ticket in team["tickets"]:
            marks[ticket_index[ticket]] = 1
        vector += marks
        vector += [float(seen["drawn_card"] == color) for color in colors]
    for tokens, record in getattr(engine, "TOKENS", {}).items():
        kinds = list(record["kinds"])
        for place in record["on"]:
            vector += [seen["tokens"][tokens][place].get(kind, 0) for kind in kinds]
        for seat in order:
            vector += [players[seat]["tokens"][tokens].get(kind, 0) for kind in kinds]
        waiting = {choice["city"] for choice in seen["token_choices"][:1] if choice["tokens"] == tokens}
        vector += [float(place in waiting) for place in record["on"]]
    if hasattr(engine, "SHARES"):
        vector += [seen["shares_taken"][company] for company in engine.SHARES]
        for seat in order:
            vector += [len(players[seat]["shares"].get(company, [])) for company in engine.SHARES]
        vector += [float(company in seen["share_choices"]) for company in engine.SHARES]
    if hasattr(engine, "PUBLIC_ROUTES"):
        vector.append(seen["public_pieces"])
        vector += [players[seat]["public_track"] for seat in order]
        built = np.zeros((len(engine.PUBLIC_ROUTES["routes"]), count + 1))
        for row, route in enumerate(engine.PUBLIC_ROUTES["routes"]):
            builder = seen["public_routes"].get(route)
            built[row, 0 if builder is None else slot[builder]] = 1
        vector += built.ravel().tolist()
    if hasattr(engine, "EXTRA_DECK"):
        vector.append(seen["extra_pile"])
        vector += [players[seat]["extra_cards"] for seat in order]
    if hasattr(engine, "TICKET_MIX"):
        vector.append(seen["ticket_deck_sizes"][engine.TICKET_MIX["kind"]])
    if "dummy_shares" in seen:
        vector += [len(seen["dummy_shares"].get(company, [])) for company in engine.SHARES]
        vector += [float(company in seen["dummy_choices"]) for company in engine.SHARES]
    return np.asarray(vector, dtype=np.float32)


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
