"""The engines refuse what is impossible (issue 7, §3 and §6).

``Game.from_dict`` raises ValueError, saying what is wrong, for a state the
edition can never reach (some used to hang or crash later); the market reset
does bounded work whatever the deck.
"""

from __future__ import annotations

import copy

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from tests.engines import EDITIONS, engine, seats


def turn_state(module, players: int = 3) -> dict:
    game = module.new_game(seats(module, players), 4)
    while game.to_dict()["phase"] in ("setup_tickets", "ticket_mix"):
        game.apply(game.legal_actions()[-1])
    return game.to_dict()


def player(index: int, **fields):
    return lambda state: state["players"][index].update(fields)


BROKEN_STATES = {
    "an unknown phase": (lambda s: s.update(phase="lunch"), "phase doit être l’une des phases"),
    "a current player past the last": (
        lambda s: s.update(current_player=9),
        "current_player doit être un entier",
    ),
    "a negative current player": (
        lambda s: s.update(current_player=-1),
        "current_player doit être un entier",
    ),
    "negative trains": (player(0, trains=-5), "players[0].trains doit être un entier"),
    "a negative hand": (player(0, hand={"red": -3}), "players[0].hand.red doit être un entier"),
    "a hand count as text": (player(0, hand={"red": "3"}), "players[0].hand.red doit être un entier"),
    "an unknown colour": (player(0, hand={"purple": 1}), "couleur inconnue, 'purple'"),
    "a duplicated deck": (lambda s: s.update(deck=s["deck"] * 2), "en jeu, quand l’édition en a"),
    "a market of 3": (lambda s: s.update(market=s["market"][:3]), "market doit être une liste de 5"),
    "one player": (lambda s: s.update(players=s["players"][:1]), "players doit être une liste de"),
    "six players": (lambda s: s.update(players=s["players"] * 2), "players doit être une liste de"),
    "twenty-five pending tickets": (
        lambda s: (
            s["players"][0].update(pending_tickets=s["ticket_deck"][:25])
            or s.update(ticket_deck=s["ticket_deck"][25:])
        ),
        "tickets en attente en phase turn",
    ),
    "a ticket held twice": (
        lambda s: s["players"][0].update(tickets=s["ticket_deck"][:1] * 2),
        "est à deux endroits",
    ),
    "a ticket held and in the deck": (
        lambda s: s["players"][0].update(tickets=s["ticket_deck"][:1]),
        "est à deux endroits",
    ),
    "a score that is not the routes' points": (player(0, score=99), "players[0].score doit valoir 0"),
    "second card phase with no card drawn": (
        lambda s: s.update(phase="second_card"),
        "cards_drawn d’au moins 1",
    ),
    "a huge rng": (lambda s: s.update(rng=1 << 70), "rng doit être un entier"),
}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("case", sorted(BROKEN_STATES))
def test_an_impossible_state_is_a_value_error(edition, case) -> None:
    module = engine(edition)
    state = turn_state(module)
    module.Game.from_dict(copy.deepcopy(state))  # the untouched state is accepted
    breaks, expected = BROKEN_STATES[case]
    breaks(state)
    with pytest.raises(ValueError, match="état impossible pour") as failure:
        module.Game.from_dict(state)
    assert expected in str(failure.value), str(failure.value)


@pytest.mark.parametrize("edition", EDITIONS)
def test_routes_owned_twice_or_beyond_the_trains_are_refused(edition) -> None:
    module = engine(edition)
    state = turn_state(module)
    route = next(iter(module.ROUTES))
    length = module.ROUTES[route]["length"]
    points = module.ROUTE_POINTS[length]
    for index in (0, 1):
        state["players"][index].update(routes=[route], trains=module.TRAINS - length, score=points)
    with pytest.raises(ValueError, match="a deux propriétaires"):
        module.Game.from_dict(state)
    # Every route to one player: `scores()` once searched paths for ever; now the trains say no.
    everything = list(module.ROUTES)
    state["players"][1].update(routes=[], trains=module.TRAINS, score=0)
    state["players"][0].update(
        routes=everything,
        trains=0,
        score=sum(module.ROUTE_POINTS[module.ROUTES[r]["length"]] for r in everything),
    )
    with pytest.raises(ValueError, match="players\\[0\\].trains doit être un entier de 0 à -"):
        module.Game.from_dict(state)


def test_europe_states_with_impossible_stations_and_tunnels_are_refused() -> None:
    module = engine("europe")
    state = turn_state(module)
    broken = copy.deepcopy(state)
    broken["players"][0]["stations"] = list(module.CITIES[:20])
    with pytest.raises(ValueError, match="players\\[0\\].stations en compte 20, au plus 3"):
        module.Game.from_dict(broken)
    broken = copy.deepcopy(state)
    broken["players"][0]["stations"] = ["Paris"]
    broken["players"][1]["stations"] = ["Paris"]
    with pytest.raises(ValueError, match="deux joueurs ont 'Paris' dans stations"):
        module.Game.from_dict(broken)
    broken = copy.deepcopy(state)
    broken["phase"] = "tunnel"
    with pytest.raises(ValueError, match="si et seulement si la phase est tunnel"):
        module.Game.from_dict(broken)


def test_a_deck_of_locomotives_does_not_make_the_market_reset_loop(tmp_path) -> None:
    """`locomotive 1000, locomotive_reset: 1`: new_game once took 94 s."""
    spec = tmp_path / "locos.aventuriers"
    spec.write_text(
        "edition locos\nextends usa-2025\ncards {\n  locomotive 1000\n}\nsetup {\n  market 5 locomotive_reset: 1\n}\n",
        encoding="utf-8",
    )
    module = load_engine(compile_edition(spec, loader()).engine_source, "locos")
    draws = 0
    original = module.Game._draw_from_deck

    def counted(self):
        nonlocal draws
        draws += 1
        return original(self)

    module.Game._draw_from_deck = counted
    game = module.new_game(seats(module, 2), 1)
    pool = sum(module.DECK) - 2 * module.HAND_SIZE
    assert draws <= 2 * pool, f"{draws} cards dealt for a pool of {pool}"
    assert game.legal_actions()


HOSTILE_ACTIONS = [
    {"type": None},
    {"type": "draw_card", "source": None},
    {"type": "draw_card", "source": "market", "slot": None},
    {"type": "draw_card", "source": "market", "slot": "0"},
    {"type": "claim_route", "route": None, "cards": {"red": 1}},
    {"type": "claim_route", "route": "x", "cards": None},
    {"type": "claim_route", "route": "x", "cards": {None: 1}},
    {"type": "claim_route", "route": "x", "cards": {"red": None}},
    {"type": "keep_tickets", "tickets": [None]},
    {"type": "keep_tickets", "tickets": None},
    {"type": "build_station", "city": None, "cards": {"red": 1}},
    {"type": "pay_tunnel", "cards": None},
    {"type": "pass", "why": None},
]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_refusal_prints_none(edition) -> None:
    module = engine(edition)
    for phase_start in (turn_state(module), module.new_game(seats(module, 3), 4).to_dict()):
        game = module.Game.from_dict(phase_start)
        for action in HOSTILE_ACTIONS:
            with pytest.raises(module.IllegalAction) as refusal:
                game.apply(action)
            assert "None" not in refusal.value.message, (action, refusal.value.message)
            assert game.to_dict() == phase_start


def test_a_player_holding_more_ferry_cards_than_the_limit_is_refused() -> None:
    """Italy allows two ferry cards in a hand (issue 37, §1): a state with three is one the game
    never reaches, whatever the pile."""
    module = engine("italy")
    state = turn_state(module, 2)
    state["players"][0]["extra_cards"] = 3
    state["extra_pile"] = module.EXTRA_DECK["cards"] - 3
    with pytest.raises(ValueError, match=r"players\[0\]\.extra_cards doit être un entier de 0 à 2, pas 3"):
        module.Game.from_dict(state)
    state["players"][0]["extra_cards"] = 2
    state["extra_pile"] = module.EXTRA_DECK["cards"] - 2
    assert module.Game.from_dict(state).to_dict()["players"][0]["extra_cards"] == 2
    # The pile and the hands make the whole second deck: a card more or less is refused.
    state["extra_pile"] = module.EXTRA_DECK["cards"] - 1
    cards = module.EXTRA_DECK["cards"]
    with pytest.raises(
        ValueError, match=f"extra_pile et extra_cards font {cards + 1}, quand ils doivent faire {cards}"
    ):
        module.Game.from_dict(state)


def test_public_routes_the_core_keeps_are_checked_from_their_declaration() -> None:
    """Japan's public routes (issue 38, §1): a built one held by a player too, one the supply has
    no piece for, and a contribution track that is not their spaces are refused."""
    module = engine("japan")
    state = turn_state(module, 2)
    route = module.PUBLIC_ROUTES["routes"][0]
    state["public_routes"] = {route: 0}
    state["public_pieces"] -= 1
    state["players"][0]["public_track"] = module.ROUTES[route]["length"]
    module.Game.from_dict(state)
    state["players"][1]["routes"].append(route)
    state["players"][1]["trains"] -= module.ROUTES[route]["length"]
    state["players"][1]["score"] += module.ROUTE_POINTS[module.ROUTES[route]["length"]]
    with pytest.raises(
        ValueError, match=f"{route} est à la fois dans public_routes et parmi les routes d’un joueur"
    ):
        module.Game.from_dict(state)
    state["players"][1]["routes"].pop()
    state["players"][1]["trains"] += module.ROUTES[route]["length"]
    state["players"][1]["score"] -= module.ROUTE_POINTS[module.ROUTES[route]["length"]]
    state["public_pieces"] += 1
    with pytest.raises(
        ValueError, match="public_pieces et public_routes font 17, quand ils doivent faire 16"
    ):
        module.Game.from_dict(state)
    state["public_pieces"] -= 1
    state["players"][0]["public_track"] += 1
    with pytest.raises(ValueError, match=r"players\[0\]\.public_track doit valoir"):
        module.Game.from_dict(state)
