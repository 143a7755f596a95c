"""The joker card as a declaration (issue 9, third part): Switzerland's tunnel cards.

`tests/specs/broken/cartes-tunnel.aventuriers` is Europe with 14 tunnel cards
instead of locomotives (`joker tunnel pays: tunnels`, a face-up one a card like
any other). Each rule of seed 003 on tunnel cards is a case, accepted and
refused, run by the conformance runner.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from tests.conformance_runner import run_case

SPEC = Path(__file__).resolve().parent / "specs" / "broken" / "cartes-tunnel.aventuriers"

CASES = yaml.safe_load(
    """
- name: a tunnel card never pays an ordinary route
  given: {players: {0: {hand: {red: 1, tunnel: 2}}}}
  steps:
    - refuse: {type: claim_route, route: brest-paris, cards: {red: 1, tunnel: 2}}
      code: joker_tunnels_only
    - refuse: {type: claim_route, route: amsterdam-bruxelles, cards: {tunnel: 1}}
      code: joker_tunnels_only

- name: a tunnel card pays any space of a tunnel, whatever its colour
  given:
    deck: [red, blue, green, white]
    discard: []
    players: {0: {hand: {black: 1, tunnel: 2}}}
  steps:
    - legal_includes: [{type: claim_route, route: madrid-pamplona-black, cards: {black: 1, tunnel: 2}}]
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {black: 1, tunnel: 2}}
    - expect: {phase: turn, players: {0: {routes: [madrid-pamplona-black], hand: {black: 0, tunnel: 0}}}}

- name: a face-up tunnel card is drawn like any card, and a second card follows
  given:
    market: [tunnel, red, blue, green, yellow]
    deck: [white, black, orange]
  steps:
    - play: {type: draw_card, source: market, slot: 0}
    - expect: {phase: second_card, players: {0: {hand: {tunnel: 1}}}}
    - play: {type: draw_card, source: market, slot: 1}
    - expect: {phase: turn, current_player: 1}

- name: three face-up tunnel cards, at any moment, are discarded and five more dealt
  given:
    market: [tunnel, tunnel, red, blue, green]
    deck: [tunnel, white, black, orange, yellow, pink, red]
    discard: []
  steps:
    - play: {type: draw_card, source: market, slot: 2}
    - expect:
        market: [white, black, orange, yellow, pink]
        discard: [green, blue, tunnel, tunnel, tunnel]

- name: each revealed tunnel card, like each card of the colour used, costs one more card
  given:
    deck: [black, tunnel, red, white]
    discard: []
    players: {0: {hand: {black: 4, tunnel: 1}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {black: 3}}
    - expect: {phase: tunnel, tunnel: {surcharge: 2, revealed: [black, tunnel, red]}}
    - refuse: {type: pay_tunnel, cards: {black: 1, red: 1}}
      code: wrong_tunnel_payment
    - play: {type: pay_tunnel, cards: {black: 1, tunnel: 1}}
    - expect: {phase: turn, players: {0: {routes: [madrid-pamplona-black]}}}

- name: paid with tunnel cards only, only revealed tunnel cards count, and only tunnel cards pay
  given:
    deck: [black, tunnel, red, white]
    discard: []
    players: {0: {hand: {black: 1, tunnel: 4}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {tunnel: 3}}
    - expect: {phase: tunnel, tunnel: {surcharge: 1, color: tunnel}}
    - refuse: {type: pay_tunnel, cards: {black: 1}}
      code: wrong_tunnel_payment
    - legal: [{type: pay_tunnel, cards: {tunnel: 1}}, {type: abandon_tunnel}]
    - play: {type: pay_tunnel, cards: {tunnel: 1}}
    - expect: {phase: turn, players: {0: {hand: {black: 1, tunnel: 0}}}}
"""
)


@pytest.fixture(scope="module")
def engine():
    result = compile_edition(SPEC, loader())
    return load_engine(result.engine_source, result.edition.module_name)


def test_the_joker_is_the_tunnel_card(engine) -> None:
    assert engine.COLORS[-1] == "tunnel" and "locomotive" not in engine.COLORS
    assert engine.DECK[-1] == 14 and sum(engine.DECK) == 110
    assert engine.MESSAGES["joker_tunnels_only"].startswith("Une carte Tunnel ne se joue que sur un tunnel")


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_tunnel_card_rules(engine, case) -> None:
    run_case(engine, case)


def test_a_joker_that_pays_tunnels_only_needs_tunnels_and_no_ferry(tmp_path, capsys) -> None:
    from aventuriers.compiler.cli import main

    spec = tmp_path / "v.aventuriers"
    spec.write_text(
        SPEC.read_text(encoding="utf-8")
        .replace("without ferries\n", "")
        .replace("edition cartes-tunnel", "edition v"),
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert (
        "E311: les locomotives d’un ferry se paient en jokers : il demande un joker qui paie les ferries, "
        "pas seulement les tunnels\n"
    ) in err
    assert "      = aide : « pays: [tunnels, ferries] », « pays: all », ou « without ferries »\n" in err
    # What the message asks for is enough: a joker that pays the ferries too, as Nordic Countries' does.
    spec.write_text(
        spec.read_text(encoding="utf-8").replace("pays: tunnels", "pays: [tunnels, ferries]"),
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 0, capsys.readouterr().err
