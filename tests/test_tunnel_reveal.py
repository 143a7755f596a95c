"""Tunnels that turn over the number of cards printed on them (issue 10, second part; seed 004).

`tests/specs/broken/tunnels-imprimes.aventuriers` is Europe with three tunnels
printing 4, 5 and 6; each case runs through the conformance runner.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from tests.conformance_runner import run_case

SPEC = Path(__file__).resolve().parent / "specs" / "broken" / "tunnels-imprimes.aventuriers"

CASES = yaml.safe_load(
    """
- name: a tunnel printing 4 turns over four cards
  given: {deck: [black, red, blue, black, white], discard: [], players: {0: {hand: {black: 5}}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {black: 3}}
    - expect: {phase: tunnel, deck: [white], tunnel: {revealed: [black, red, blue, black], surcharge: 2}}
    - refuse: {type: pay_tunnel, cards: {black: 1}}
      code: wrong_tunnel_payment
    - play: {type: pay_tunnel, cards: {black: 2}}
    - expect: {phase: turn, current_player: 1, players: {0: {routes: [madrid-pamplona-black], hand: {black: 0}}}}

- name: a tunnel printing 5 turns over five cards, locomotives counting
  given: {deck: [white, locomotive, red, white, green, pink], discard: [], players: {0: {hand: {white: 6}}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-white, cards: {white: 3}}
    - expect: {deck: [pink], tunnel: {revealed: [white, locomotive, red, white, green], surcharge: 3}}

- name: a tunnel printing 6 turns over six cards
  given: {deck: [red, red, locomotive, blue, green, yellow, white], discard: [], players: {0: {hand: {red: 4}}}}
  steps:
    - play: {type: claim_route, route: marseille-roma, cards: {red: 4}}
    - expect: {deck: [white], tunnel: {surcharge: 3}}
    - play: {type: abandon_tunnel}
    - expect: {phase: turn, current_player: 1, players: {0: {routes: [], hand: {red: 4}}}}

- name: paid with locomotives only, only the revealed locomotives count
  given: {deck: [black, locomotive, red, locomotive, white], discard: [], players: {0: {hand: {locomotive: 5}}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {locomotive: 3}}
    - expect: {tunnel: {surcharge: 2, color: locomotive}}
    - legal: [{type: pay_tunnel, cards: {locomotive: 2}}, {type: abandon_tunnel}]

- name: a short deck turns over what remains
  given: {deck: [black, red], discard: [], players: {0: {hand: {black: 4}}}}
  steps:
    - play: {type: claim_route, route: madrid-pamplona-black, cards: {black: 3}}
    - expect: {deck: [], tunnel: {revealed: [black, red], surcharge: 1}}

- name: with nothing to turn over, the tunnel is taken without surcharge
  given: {deck: [], discard: [], players: {0: {hand: {black: 4}}}}
  steps:
    - play: {type: claim_route, route: marseille-roma, cards: {black: 4}}
    - expect: {phase: turn, tunnel: null, players: {0: {routes: [marseille-roma]}}}
"""
)


@pytest.fixture(scope="module")
def engine():
    result = compile_edition(SPEC, loader())
    return load_engine(result.engine_source, result.edition.module_name)


def test_every_tunnel_record_says_how_many_cards_it_turns_over(engine) -> None:
    assert engine.ROUTES["madrid-pamplona-black"]["reveal"] == 4
    assert engine.ROUTES["madrid-pamplona-white"]["reveal"] == 5
    assert engine.ROUTES["marseille-roma"]["reveal"] == 6
    assert engine.ROUTES["paris-zurich"]["reveal"] == 3 and engine.ROUTES["brest-paris"]["reveal"] == 0


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_printed_reveal_rules(engine, case) -> None:
    run_case(engine, case)


def test_only_a_tunnel_turns_cards_over(tmp_path, capsys) -> None:
    from aventuriers.compiler.cli import main

    spec = tmp_path / "v.aventuriers"
    spec.write_text("edition v\nextends europe\nchange route brest-paris reveal: 4\n", encoding="utf-8")
    assert main(["check", str(spec)]) == 1
    assert "E311: seul un tunnel retourne des cartes (« reveal »)" in capsys.readouterr().err
