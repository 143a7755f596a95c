"""from_dict's checks of the fields a mechanism keeps itself (issue 38, §1).

Each mechanism's class checks its own fields in `_check_fields`, once the core has read the
players, and before the core counts the cards in play and the scores. Each case breaks one
field of a state a new game gives and compares the whole French message; a state the rules
allow is accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from .engines import engine

VARIANTS = Path(__file__).resolve().parent / "variants"


def _variant(name: str) -> Any:
    result = compile_edition(VARIANTS / f"{name}.aventuriers", loader())
    return load_engine(result.engine_source, name.replace("-", "_"))


def _shares_too_many(state: dict, module: Any) -> None:
    state["players"][0]["setup_share"] = [
        state["ticket_deck"].pop() for _ in range(module.SHARE_AT_SETUP + 1)
    ]


def _public_route_taken(state: dict, module: Any) -> None:
    route = module.PUBLIC_ROUTES["routes"][0]
    length = module.ROUTES[route]["length"]
    record = state["players"][0]
    record["routes"] = [route]
    record["trains"] -= length
    record["score"] += module.ROUTE_POINTS[length]


def _one_company_to_choose(state: dict, module: Any) -> None:
    for record in state["players"]:
        record["pending_tickets"] = []
    state.update(phase="take_share", share_choices=[next(iter(module.SHARES))])


def _long_ticket_in_the_core_deck(state: dict, module: Any) -> None:
    state["ticket_deck"].append(state["ticket_decks"][module.TICKET_MIX["kind"]].pop())


CASES: list[tuple[str, int, Callable[[dict, Any], None], str]] = [
    ("asia-equipes", 4, lambda state, _: state.update(teams=[]), "teams doit être une liste de 2 équipes"),
    (
        "asia-equipes",
        4,
        lambda state, _: state["teams"][0].update(holder={"purple": 1}),
        "teams[0].holder doit être un dict dont les clés sont parmi red, blue, green, yellow, orange, black, white,"
        " pink, locomotive, pas {'purple': 1}",
    ),
    ("asia-equipes", 4, _shares_too_many, "players[0] a 2 tickets à partager en phase setup_tickets"),
    (
        "asia-equipes",
        4,
        lambda state, _: state.update(drawn_card="red"),
        "drawn_card attend si et seulement si la phase est place_card",
    ),
    (
        "asia-equipes",
        4,
        lambda state, _: state.update(last_card_to="hand"),
        "last_card_to attend si et seulement si la phase est second_card",
    ),
    (
        "asia-equipes",
        4,
        lambda state, _: state.update(last_card_to="pocket"),
        "last_card_to doit être l’un de hand, holder, ou null, pas 'pocket'",
    ),
    (
        "europe",
        3,
        lambda state, _: state.update(tunnel={"route": "x"}),
        "tunnel attend si et seulement si la phase est tunnel",
    ),
    (
        "japan",
        3,
        _public_route_taken,
        "une route publique est prise alors qu’il reste des pièces\u00a0: elle se construit avec une pièce",
    ),
    (
        "pennsylvania",
        3,
        _one_company_to_choose,
        "share_choices doit nommer au moins deux compagnies qui ont encore des actions",
    ),
    (
        "germany",
        3,
        lambda state, _: state.update(ticket_decks={"autre": []}),
        "ticket_decks doit être un dict dont les clés sont parmi long, pas {'autre': []}",
    ),
    (
        "germany",
        3,
        _long_ticket_in_the_core_deck,
        "le ticket 'schwerin-frankfurt' est long\u00a0: sa place est dans ticket_decks",
    ),
    (
        "usa-or",
        3,
        lambda state, _: state.update(token_choices=[{"tokens": "x"}]),
        "un choix de token_choices nomme tokens et city, pas {'tokens': 'x'}",
    ),
]


def _module(name: str) -> Any:
    return _variant(name) if (VARIANTS / f"{name}.aventuriers").exists() else engine(name)


@pytest.mark.parametrize(
    ("name", "players", "mutate", "message"), CASES, ids=[case[3][:40] for case in CASES]
)
def test_a_mechanism_s_field_broken_is_refused_with_its_message(
    name: str, players: int, mutate: Callable[[dict, Any], None], message: str
) -> None:
    module = _module(name)
    state = module.new_game(players, 3).to_dict()
    module.Game.from_dict(state)  # the state as dealt is accepted
    mutate(state, module)
    with pytest.raises(ValueError) as refused:
        module.Game.from_dict(state)
    assert str(refused.value) == f"état impossible pour {name}\u00a0: {message}"
