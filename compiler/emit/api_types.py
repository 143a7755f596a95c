"""The types of an edition's engine API: its records and actions as TypedDicts, from the IR.

The core declares its own keys here, once; each mechanism declares in its folder the keys,
records and actions it adds (``Mechanism.api_types``), and an edition's types are the core's
with those of the mechanisms it uses, in the registry's order. The engine prints them for type
checkers and editors only: it never reads them at run time (``tests/test_typed_api.py`` checks
that every record a game writes conforms, and that mypy understands them).

A type is written as the generated engine spells it (``list[RouteId]``,
``NotRequired[Cards]``); names of the edition (route ids, ticket ids, cities, colours) become
``Literal`` aliases through ``repr``, never pasted raw.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Edition
from ..mechanisms.base import literal

# The records every engine has, in the order the engine prints them: key -> type.
CORE_RECORDS: dict[str, dict[str, str]] = {
    "RouteRecord": {
        "a": "City",
        "b": "City",
        "length": "int",
        "color": "RouteColor",
        "twin": "RouteId | None",
    },
    "TicketRecord": {"a": "City", "b": "City", "points": "int"},
    "PlayerState": {
        "hand": "Cards",
        "trains": "int",
        "routes": "list[RouteId]",
        "tickets": "list[TicketId]",
        "pending_tickets": "list[TicketId]",
        "score": "int",
    },
    "State": {
        "edition": "Edition",
        "players": "list[PlayerState]",
        "market": "list[Color | None]",
        "deck": "list[Color]",
        "discard": "list[Color]",
        "ticket_deck": "list[TicketId]",
        "setup_rejected": "list[TicketId]",
        "current_player": "int",
        "phase": "Phase",
        "cards_drawn": "int",
        "final_turns_left": "int | None",
        "consecutive_passes": "int",
        "turns_played": "int",
        "rng": "int",
    },
    # A player as an observation shows them: the secrets only in the observer's own record.
    "ObservedPlayer": {
        "trains": "int",
        "routes": "list[RouteId]",
        "score": "int",
        "hand_size": "int",
        "tickets_count": "int",
        "pending_tickets_count": "int",
        "hand": "NotRequired[Cards]",
        "tickets": "NotRequired[list[TicketId]]",
        "pending_tickets": "NotRequired[list[TicketId]]",
    },
    "Observation": {
        "edition": "Edition",
        "player": "int",
        "players": "list[ObservedPlayer]",
        "market": "list[Color | None]",
        "deck_size": "int",
        "discard_size": "int",
        "ticket_deck_size": "int",
        "setup_rejected_count": "int",
        "current_player": "int",
        "phase": "Phase",
        "cards_drawn": "int",
        "final_turns_left": "int | None",
        "consecutive_passes": "int",
        "turns_played": "int",
    },
    "TicketResult": {"ticket": "TicketId", "points": "int"},
    "ScoreRecord": {
        "player": "int",
        "route_points": "int",
        "tickets_completed": "list[TicketResult]",
        "tickets_failed": "list[TicketResult]",
        "longest_path": "int",
        "routes_claimed": "int",
        "largest_network": "int",
        "bonuses": "dict[str, int]",
        "total": "int",
    },
}

# A claim waiting for cards of any colour (`owed_cards`), where a claim may owe them.
OWED_CLAIM = {"route": "RouteId", "cards": "Cards", "owed": "int", "given": "Cards"}

# The core's actions by type, as `_HANDLERS` takes them (field -> type).
CORE_ACTIONS: dict[str, dict[str, str]] = {
    "draw_card": {"source": "Literal['deck', 'market']", "slot": "NotRequired[int]"},
    "claim_route": {"route": "RouteId", "cards": "Cards"},
    "draw_tickets": {},
    "keep_tickets": {"tickets": "list[TicketId]", "return_order": "NotRequired[list[TicketId]]"},
    "pay_card": {"color": "Color"},
    "pass": {},
}

# The entries of ACTIONS that choose tickets by position among those offered (see `apply_id`).
KEEP_BY_POSITION = {"type": "Literal['keep_tickets']", "offered": "int", "kept": "list[int]"}


@dataclass(frozen=True, slots=True)
class TypedRecord:
    """One TypedDict of the engine: its name and its keys, each with its type."""

    name: str
    fields: tuple[tuple[str, str], ...]
    doc: str

    @property
    def items(self) -> list[str]:
        """Its keys and their types as the entries of the functional form's dict literal: a key may
        come from the spec (a route property), so every key and type goes through ``repr``."""
        return [f"{key!r}: {value!r}" for key, value in self.fields]

    @property
    def name_literal(self) -> str:
        return repr(self.name)


def class_name(action: str) -> str:
    """The TypedDict of an action type: ``claim_route`` -> ``ClaimRoute``."""
    return "".join(part.capitalize() for part in action.split("_"))


@dataclass(frozen=True, slots=True)
class ApiTypesView:
    """The types section of one edition's engine."""

    aliases: tuple[tuple[str, str], ...]
    records: tuple[TypedRecord, ...]
    actions: tuple[str, ...]  # the action TypedDicts, in `_HANDLERS`' order
    entries: tuple[str, ...]  # the other entries of ACTIONS (choices by position)

    @property
    def exports(self) -> list[str]:
        """The public names it defines, as literals for `__all__`."""
        names = [name for name, _ in self.aliases] + [record.name for record in self.records]
        return [repr(name) for name in names + ["Action", "ActionEntry", "RandomRange", "RandomBits"]]

    @property
    def action_union(self) -> str:
        return " | ".join(self.actions)

    @property
    def entry_union(self) -> str:
        return " | ".join(("Action", *self.entries))


DOCS = {
    "RouteRecord": "A route of `ROUTES`.",
    "TicketRecord": "A ticket of `TICKETS`.",
    "PlayerState": "A player's record in `Game.to_dict()`.",
    "State": "The whole state: `Game.to_dict()`, what `Game.from_dict` restores.",
    "ObservedPlayer": "A player in `Game.observation()`: the observer's own record also shows their secrets.",
    "Observation": "The game as one player sees it: `Game.observation(player)`.",
    "TicketResult": "A ticket scored in a `ScoreRecord`.",
    "ScoreRecord": "One player's final score: an entry of `Game.scores()`.",
    "OwedClaim": "A claim waiting for cards of any colour, given one by one (`pay_card`).",
    "KeepTicketsByPosition": "An entry of `ACTIONS` keeping tickets by their position among those offered.",
}


def api_types(edition: Edition, view) -> ApiTypesView:
    """The types of `edition`'s engine; `view` is its `EngineView` (what the core emits)."""
    board = edition.board
    places = list(board.cities) + [country.name for country in board.countries]
    phases = ["setup_tickets", "turn", "second_card", "keep_tickets"]
    phases += [phase for m in view.used_mechanisms for phase in m.phases(edition)]
    phases += ["owed_cards"] * view.owes_cards + ["over"]
    colors = [card.color.value for card in edition.cards]
    aliases = {
        "Edition": literal([edition.name]),
        "RouteId": literal(route.id for route in board.routes),
        "TicketId": literal(ticket.id for ticket in edition.tickets.tickets),
        "City": literal(places),
        "Color": literal(colors),
        "RouteColor": literal([*colors[: view.locomotive_index], "gray"]),
        "Phase": literal(phases),
        "Cards": "dict[Color, int]",
    }
    records = {name: dict(fields) for name, fields in CORE_RECORDS.items()}
    route, ticket = records["RouteRecord"], records["TicketRecord"]
    if view.triple_routes:
        route["siblings"] = "list[RouteId]"
    if view.ferries:
        route["ferry"] = "int"
    if view.countries:
        route["endpoint"] = "str | None"
    for name in dict.fromkeys(name for m in view.used_mechanisms for name in m.properties_used(edition)):
        values = {type(edition.route_property(r, name)).__name__ for r in board.routes}
        route[name] = " | ".join(sorted(values))
    if view.ticket_kinds:
        aliases["TicketKind"] = literal(t.kind for t in edition.tickets.tickets)
        ticket["kind"] = "TicketKind"
    if view.owes_cards:
        records["OwedClaim"] = dict(OWED_CLAIM)
        records["State"]["owed_cards"] = "OwedClaim | None"
        records["Observation"]["owed_cards"] = "OwedClaim | None"
    actions = {
        kind: dict(fields)
        for kind, fields in CORE_ACTIONS.items()
        if {"draw_card": view.draw_cards, "claim_route": view.claim_route}.get(kind, True)
        and (kind != "draw_tickets" or view.draw_tickets)
        and (kind != "pay_card" or view.owes_cards)
    }
    entries = ["KeepTicketsByPosition"]
    records["KeepTicketsByPosition"] = dict(KEEP_BY_POSITION)
    declared = [m.api_types(edition) for m in view.used_mechanisms]
    for types in declared:
        aliases.update(types.aliases)
        records.update({name: dict(fields) for name, fields in types.records.items()})
        for kind, fields in types.actions.items():
            actions[kind] = dict(fields)
        entries += types.entries
    action_names = {class_name(kind): kind for kind in actions}
    for types in declared:
        for name, fields in types.fields.items():
            if name in action_names:
                actions[action_names[name]].update(fields)
            elif name in records:
                records[name].update(fields)
    typed = []
    for kind, fields in actions.items():
        name = class_name(kind)
        typed.append(
            TypedRecord(
                name, (("type", literal([kind])), *fields.items()), f"The action {kind!r} (`Game.apply`)."
            )
        )
    for name, fields in records.items():
        typed.append(TypedRecord(name, tuple(fields.items()), DOCS.get(name, "")))
    return ApiTypesView(
        aliases=tuple(aliases.items()),
        records=tuple(typed),
        actions=tuple(class_name(kind) for kind in actions),
        entries=tuple(entries),
    )
