"""Determinised Monte-Carlo search: the `mcts` bot.

At each decision the bot samples complete games consistent with what its seat sees (the
hidden cards and tickets dealt at random among the places it cannot see, in the numbers
the observation gives), tries in them, by UCB1, the few legal actions the greedy bot ranks first
(the first level of the tree, the information set it is in), plays each sample to the end (random moves inside
the engine by `Game.playout`, in C where the edition's playout core was built, or the greedy
bot), and picks the action tried most.
Its budget is a number of playouts (`mcts:400`) or seconds per move (`mcts:1s`),
optionally with greedy rollouts (`mcts:1s:greedy`) or the native core's guided ones
(`mcts:1s:guided`: the greedy bot's policy played in C by the native engine, tickets kept
and drawn as it does; the greedy bot's own rollouts where the edition has no native engine).
"""

from __future__ import annotations

import functools
import math
import random
import time
import types
from dataclasses import dataclass
from typing import Any

from .greedy import GreedyBot
from .state_fields import cards_shown, declared, field_value, present, values

# What `determinise` writes itself: the core's state, and each seat's hidden or counted parts.
_CORE_STATE = frozenset(
    {
        "edition", "players", "market", "current_player", "phase", "cards_drawn", "final_turns_left",
        "consecutive_passes", "turns_played", "rng", "teams", "discard", "deck", "ticket_deck",
        "ticket_decks", "setup_rejected",
    }
)  # fmt: skip
_CORE_PLAYER = frozenset({"trains", "routes", "score", "hand", "tickets", "pending_tickets"})


@functools.cache
def _secrets(engine: types.ModuleType, players: int) -> tuple[dict, ...]:
    """The declared fields (`STATE_FIELDS`) that hold cards or tickets and that only their owner
    sees (a team's holder, a card drawn blind): what `determinise` deals anew where it cannot see."""
    return tuple(
        field
        for field in declared(engine, players)
        if field.get("holds") in ("cards", "tickets") and field.get("seen", "all") == "owner"
    )


@functools.cache
def _shown_as_kept(engine: types.ModuleType, players: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys of the state and of each seat's record that an observation shows as `to_dict()`
    keeps them, besides the core's: what the mechanisms put on the table (stations, tokens,
    shares, public routes, a pending claim's cards…), copied as seen. Read from a new game's
    `to_dict()`, whose keys every position of the edition has; in sorted order, so that a seed
    samples the same state whatever the process's string hashing."""
    state = engine.new_game(players, 0).to_dict()
    hidden = {field["key"] for field in _secrets(engine, players)}
    return (
        tuple(sorted(set(state) - _CORE_STATE - hidden)),
        tuple(sorted(set(state["players"][0]) - _CORE_PLAYER - hidden)),
    )


def determinise(engine: types.ModuleType, observation: dict, rng: random.Random) -> dict:
    """A whole state in the shape of `to_dict()`, equal to `observation` wherever the seat can
    see, its hidden cards and tickets drawn at random from those it has not seen."""
    me = observation["player"]
    colors = engine.COLORS
    unseen = {color: count for color, count in zip(colors, engine.DECK, strict=True)}
    seen_tickets: set[str] = set()
    own = observation["players"][me]
    for color, count in own["hand"].items():
        unseen[color] -= count
    for card in observation["market"]:
        if card is not None:
            unseen[card] -= 1
    teams = observation.get("teams", [])
    secrets = _secrets(engine, len(observation["players"]))
    for color, count in cards_shown(engine, observation).items():  # its own, its team's
        unseen[color] -= count
    for field in secrets:
        if field["holds"] == "tickets":
            for _, _, value in values(observation, field):
                seen_tickets.update(value or ())
    for field in ("tickets", "pending_tickets"):
        seen_tickets.update(own.get(field, []))
    for record in observation["players"]:  # another seat's tickets, where a rule shows them
        seen_tickets.update(record.get("tickets", []))
    # Some of a seat's kept tickets that a rule shows (those scored when completed): theirs.
    within = [
        f for f in engine.STATE_FIELDS if f.get("within") == "tickets" and f.get("seen", "all") == "all"
    ]
    shown_within = [
        [ticket for field in within for ticket in (record.get(field["key"]) or [])]
        for record in observation["players"]
    ]
    for shown in shown_within:
        seen_tickets.update(shown)
    # The cards a claim has laid on the table (a tunnel's, those given to a claim that owes some)
    # are the current player's, seen by all: they stay in that hand, the rest is drawn.
    laid: dict[str, int] = {}
    current = observation["current_player"]
    for pending in (observation.get("tunnel"), observation.get("owed_cards")):
        if pending is not None and current != me:
            for field in ("cards", "given"):
                for color, count in pending.get(field, {}).items():
                    laid[color] = laid.get(color, 0) + count
                    unseen[color] -= count
    cards = [color for color, count in unseen.items() for _ in range(max(0, count))]
    rng.shuffle(cards)
    tickets = [ticket for ticket in engine.TICKETS if ticket not in seen_tickets]
    rng.shuffle(tickets)
    # Decks of tickets kept apart by kind (a mix drawn from each): each is drawn first, from the
    # unseen tickets of its kind, so that it holds its own kind only; the others take the rest.
    decks: dict[str, list[str]] = {}
    split = observation.get("ticket_deck_sizes")
    if split:
        for kind, size in split.items():
            decks[kind] = [ticket for ticket in tickets if engine.TICKETS[ticket]["kind"] == kind][:size]
        rest = [ticket for ticket in tickets if engine.TICKETS[ticket]["kind"] not in split]
        plain = rest[: observation["ticket_deck_size"]]
        tickets[:] = [
            ticket
            for ticket in tickets
            if ticket not in plain and all(ticket not in d for d in decks.values())
        ]

    def take_cards(count: int) -> dict[str, int]:
        hand = dict.fromkeys(colors, 0)
        for _ in range(count):
            if cards:
                hand[cards.pop()] += 1
        return hand

    def take_cards_list(count: int) -> list[str]:
        return [cards.pop() for _ in range(min(count, len(cards)))]

    def take_tickets(count: int) -> list[str]:
        taken = tickets[:count]
        del tickets[:count]
        return taken

    def dealt(field: dict, record: dict) -> Any:
        """A secret field's value: as seen, or dealt in the size the observation counts it."""
        if present(record, field):
            value = field_value(record, field)
            return (
                list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
            )
        count = record.get(field["counted_as"], 0)
        return take_tickets(count) if field["holds"] == "tickets" else take_cards(count)

    shown_state, shown_player = _shown_as_kept(engine, len(observation["players"]))
    secret = [field for field in secrets if field["scope"] == "player"]
    players = []
    for seat, record in enumerate(observation["players"]):
        player = {key: record[key] for key in ("trains", "routes", "score") if key in record}
        for public in shown_player:  # what the mechanisms show of each seat
            if public in record:
                player[public] = record[public]
        if seat == me:
            player["hand"] = dict(own["hand"])
            for key in ("tickets", "pending_tickets"):
                if key in own:
                    player[key] = list(own[key])
            for field in secret:
                if present(own, field):
                    player[field["key"]] = dealt(field, own)
        else:
            shown = laid if seat == current else {}
            player["hand"] = take_cards(record["hand_size"] - sum(shown.values()))
            for color, count in shown.items():
                player["hand"][color] += count
            if "tickets" in record:
                player["tickets"] = list(record["tickets"])
            else:
                known = shown_within[seat]
                player["tickets"] = known + take_tickets(record["tickets_count"] - len(known))
            player["pending_tickets"] = take_tickets(record["pending_tickets_count"])
            for field in secret:
                if field["counted_as"] in record:
                    player[field["key"]] = dealt(field, record)
        players.append(player)
    state = {
        "edition": engine.EDITION,
        "players": players,
        "market": list(observation["market"]),
        "current_player": observation["current_player"],
        "phase": observation["phase"],
        "cards_drawn": observation["cards_drawn"],
        "final_turns_left": observation["final_turns_left"],
        "consecutive_passes": observation["consecutive_passes"],
        "turns_played": observation["turns_played"],
        "rng": rng.randrange(2**64),
    }
    if teams:
        state["teams"] = [
            {"players": team["players"]}
            | {field["key"]: dealt(field, team) for field in secrets if field["scope"] == "team"}
            for team in teams
        ]
    for field in secrets:  # the game's: a card drawn blind, in the phase it waits to be placed
        if field["scope"] == "game":
            value = field_value(observation, field)
            if value is None and field.get("phase") == observation["phase"]:
                value = next(iter(take_cards_list(1)), colors[0])
            state[field["key"]] = value
    # What the mechanisms put on the table for all to see: a pending claim's cards, the tokens on
    # the cities, the shares taken, the public routes built…
    for public in shown_state:
        if public in observation:
            state[public] = observation[public]
    state["discard"] = [cards.pop() for _ in range(min(observation["discard_size"], len(cards)))]
    state["deck"] = list(cards)
    if split:
        state["ticket_deck"] = plain
        state["ticket_decks"] = decks
    else:
        state["ticket_deck"] = take_tickets(observation["ticket_deck_size"])
    state["setup_rejected"] = take_tickets(observation["setup_rejected_count"])
    return state


def _outcome(game, seat: int) -> float:
    """1 for a win (1/k for a victory shared by k), plus a little for the margin."""
    winners = game.winners()
    scores = game.team_scores() if hasattr(game, "team_scores") else game.scores()
    totals = {
        player: record["total"]
        for record in scores
        for player in record.get("players", [record.get("player")])
    }
    mine = totals[seat]
    best_other = max((total for player, total in totals.items() if player != seat), default=mine)
    won = 1 / len(winners) if seat in winners else 0.0
    return won + 0.001 * (mine - best_other)


@dataclass
class MctsBot:
    name: str = "mcts"
    playouts: int = 200
    seconds: float | None = None
    rollout: str = "random"  # or "greedy"
    exploration: float = 0.7
    candidates: int = 6  # the actions searched: the greedy bot's choice and the next ones it ranks

    @classmethod
    def from_budget(cls, budget: str) -> MctsBot:
        """`400` playouts, `1s` per move, either followed by `:greedy` or `:guided` rollouts."""
        size, _, rollout = budget.partition(":")
        if rollout not in ("", "random", "greedy", "guided"):
            raise ValueError(f"rollout inconnu : « {rollout} » (random, greedy, guided)")
        name = "mcts" + (f":{budget}" if budget else "")
        if not size:
            return cls(name=name, rollout=rollout or "random")
        if size.endswith("s"):
            return cls(name=name, seconds=float(size[:-1]), rollout=rollout or "random")
        return cls(name=name, playouts=int(size), rollout=rollout or "random")

    def choose(self, engine: types.ModuleType, observation: dict, legal: list, rng: random.Random) -> dict:
        if len(legal) == 1:
            return legal[0]
        seat = observation["player"]
        legal = GreedyBot().ranked(engine, observation, legal)[: self.candidates]
        if len(legal) == 1:
            return legal[0]
        visits = [0] * len(legal)
        value = [0.0] * len(legal)
        # Where the edition's native engine was built (`build --native`), each sampled game is
        # one of its games: the same random playouts, in C, and scored in C; guided rollouts
        # are its own policy, and the greedy bot's where there is none.
        from aventuriers.compiler.native import native_engine  # the native build: only when searching

        fast = native_engine(engine)
        sampled = (fast or engine).Game
        playout = fast.playout if fast else engine.Game.playout
        guided = (
            functools.partial(fast.guided_rollout, late_trains=GreedyBot.late_trains)
            if fast and self.rollout == "guided"
            else None
        )
        playout = guided or playout
        greedy = (
            GreedyBot() if self.rollout == "greedy" or (self.rollout == "guided" and not guided) else None
        )
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (done < self.playouts) if deadline is None else (time.perf_counter() < deadline):
            done += 1
            if done <= len(legal):
                pick = done - 1
            else:
                total = math.log(done)
                pick = max(
                    range(len(legal)),
                    key=lambda i: value[i] / visits[i] + self.exploration * math.sqrt(total / visits[i]),
                )
            game = sampled.from_dict(determinise(engine, observation, rng))
            game.apply(dict(legal[pick]))
            if greedy is None:
                playout(game, rng)
            else:
                while not game.is_over():
                    player = game.current_player
                    game.apply(greedy.choose(engine, game.observation(player), game.legal_actions(), rng))
            visits[pick] += 1
            value[pick] += _outcome(game, seat)
        return legal[max(range(len(legal)), key=lambda i: (visits[i], value[i]))]
