"""A mechanism's class (issue 38, §1): what a mechanism changes of a method of the core's game is
an override of that method in its class (``engine/game.py.j2``), a subclass of the game below it,
the core's first, the public ``Game`` last; ``super()`` for what it keeps."""

from __future__ import annotations

import importlib

import pytest
from aventuriers.compiler.build import compile_ir, loader
from aventuriers.compiler.mechanisms import used_by

from .engines import EDITIONS, engine


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_game_is_the_core_s_with_its_mechanisms_classes_between(edition: str) -> None:
    module = engine(edition)
    editions = loader()
    ir = compile_ir(editions.path_of(edition), editions)
    expected = [m.class_name for m in reversed(used_by(ir)) if m.game_part(ir) is not None]
    chain = [cls.__name__ for cls in module.Game.__mro__]
    assert chain == ["Game", *expected, "_CoreGame", "object"]
    game = module.new_game(module.PLAYERS[0], 1)
    assert not hasattr(game, "__dict__")  # every class keeps to its slots
    assert type(game.copy()) is module.Game and type(module.Game.from_dict(game.to_dict())) is module.Game


def test_a_mechanism_overrides_the_core_s_method_it_changes() -> None:
    """Countries (Germany): a ticket to a country is joined by a network reaching any of its
    arrows; the core's test, two cities in one network, cannot see it. The override is the
    class's own, and the public Game plays it."""
    module = importlib.import_module("aventuriers.generated.germany.engine")
    countries = module._CountriesGame
    assert countries.__bases__ == (module._CoreGame,) and "_joins" in vars(countries)
    ticket = module._TICKET_INDEX["frankreich-munchen"]
    arrow = next(node for node, country in module._NODE_COUNTRY.items() if country == "Frankreich")
    network = {"München": "one", arrow: "one"}
    assert module.Game._joins(network, ticket) is True
    assert module._CoreGame._joins(network, ticket) is False
    assert module.Game._joins({"München": "one", arrow: "other"}, ticket) is False


def test_a_class_keeps_the_core_s_method_for_what_it_does_not_change() -> None:
    """Ticket targets (Switzerland), over countries: a ticket to several countries scores its
    best target reached, through its own `_ticket_result`; a ticket between two cities is the
    core's (`super()`), the same entry as `_CoreGame` gives."""
    module = importlib.import_module("aventuriers.generated.switzerland.engine")
    assert issubclass(module._TicketTargetsGame, module._CountriesGame)  # over countries (and tunnels)
    game = module.new_game(2, 1)
    to_countries = module._TICKET_INDEX["bern-france-deutschland-osterreich-italia"]
    arrows = {node: country for node, country in module._NODE_COUNTRY.items()}
    deutschland = next(node for node, country in arrows.items() if country == "Deutschland")
    network = {"Bern": "one", deutschland: "one", "Basel": "one"}
    assert game._ticket_result(network, to_countries) == (
        True,
        {"ticket": "bern-france-deutschland-osterreich-italia", "points": 6, "target": "Deutschland"},
    )
    plain = module._TICKET_INDEX["basel-bern"]
    assert game._ticket_result(network, plain) == module._CoreGame._ticket_result(game, network, plain)
    assert game._ticket_result(network, plain) == (True, {"ticket": "basel-bern", "points": 5})


def _classes(module) -> dict[str, type]:
    """The classes of an engine's game by name, the core's included."""
    return {cls.__name__: cls for cls in module.Game.__mro__}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mechanism_s_score_lines_are_its_class_s_override(edition: str) -> None:
    """Each part of a score a mechanism adds (its `ScoreLine`s) is written by its class's
    `_score_player` over the core's record (`super()`): the core's record holds none of them."""
    module = engine(edition)
    editions = loader()
    ir = compile_ir(editions.path_of(edition), editions)
    classes = _classes(module)
    core = classes["_CoreGame"]
    game = module.new_game(module.PLAYERS[0], 3)
    core_keys = set(core._score_player(game, 0, *core._score_networks(game, 0)))
    added = set(game.scores()[0]) - core_keys
    declared = set()
    for mechanism in used_by(ir):
        keys = {line.path[0] for line in mechanism.score_lines(ir)}
        declared |= keys
        if keys:
            assert "_score_player" in vars(classes[mechanism.class_name]), mechanism.name
    assert declared <= added and not declared & core_keys, edition
    overriding = [cls for cls in module.Game.__mro__[1:-2] if "_score_player" in vars(cls)]
    assert bool(added) == bool(overriding), edition  # the core writes no mechanism's key


def test_two_mechanisms_classes_add_their_lines_one_over_the_other(tmp_path) -> None:
    """Europe with a starting score: the tunnels' class over the core's, the stations' over the
    tunnels', the starting score's over the stations'; a record holds both lines and its total
    both points."""
    from aventuriers.compiler.build import compile_edition
    from aventuriers.compiler.emit.example import load_engine

    path = tmp_path / "europe-avance.aventuriers"
    path.write_text(
        'edition europe-avance\nextends europe\ntitle "Europe, avance par place"\n'
        "setup {\n  starting_score [0, 1, 2, 3, 4]\n}\n",
        encoding="utf-8",
    )
    result = compile_edition(path, loader())
    module = load_engine(result.engine_source, result.edition.module_name)
    chain = [cls.__name__ for cls in module.Game.__mro__]
    assert chain[:5] == ["Game", "_StartingScoreGame", "_StationsGame", "_TunnelsGame", "_CoreGame"]
    game = module.new_game(3, 11)
    scores = game.scores()  # nobody's routes yet: three unused stations each, every ticket failed
    for seat, record in enumerate(scores):
        assert record["starting_score"] == seat and record["stations"]["unused_points"] == 12
        failed = sum(entry["points"] for entry in record["tickets_failed"])
        assert record["total"] == seat + 12 - failed
