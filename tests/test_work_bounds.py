"""What a spec asks of the compiler and its engine is bounded, and every answer is located (issue 19, §2).

Values inside the schema's limits once made the compiler and every engine loader list
hundreds of thousands of actions (`share_tickets 5`: 443,703; 6: 1.25 GB; `tunnels reveal:
1000`: 54 s and 3.96 GB); others ended in a traceback. The whole rendered diagnostic is
compared.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.frontend.resolve import EditionLoader
from aventuriers.compiler.ir.cost import MAX_ACTIONS, action_count

from .engines import EACH_EDITION
from .test_strict_inputs import check

TESTS = Path(__file__).resolve().parent
TEST_EDITIONS = TESTS / "specs" / "broken"


def _copy_test_editions(folder: Path) -> None:
    for name in ("tiny", "pays", "destinations", "equipes"):
        source = TEST_EDITIONS / f"{name}.aventuriers"
        (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.mark.parametrize("edition", EACH_EDITION)
def test_the_count_of_actions_is_the_engines(edition: str) -> None:
    """The compiler's count, made without listing anything, is exactly the engine's ``ACTIONS``."""
    compiled = compile_edition(loader().path_of(edition), loader())
    engine = importlib.import_module(f"aventuriers.generated.{compiled.edition.module_name}")
    assert action_count(compiled.edition) == len(engine.ACTIONS)


@pytest.mark.parametrize(
    "spec",
    [
        *sorted((TESTS / "variants").glob("*.aventuriers")),
        TEST_EDITIONS / "pays.aventuriers",
        TEST_EDITIONS / "destinations.aventuriers",
        TEST_EDITIONS / "cartes-tunnel.aventuriers",
        TEST_EDITIONS / "equipes-tunnels.aventuriers",
    ],
    ids=lambda path: path.stem,
)
def test_the_count_of_actions_holds_for_variants_and_test_editions(spec: Path) -> None:
    from aventuriers.compiler.emit.example import load_engine

    editions = EditionLoader(loader().editions_dir, loader().root)
    compiled = compile_edition(spec, editions)
    engine = load_engine(compiled.engine_source, compiled.edition.module_name)
    assert action_count(compiled.edition) == len(engine.ACTIONS)


COSTLY = [
    (
        "asia-equipes",
        "turn {\n  share_tickets 5\n}",
        "v.aventuriers:4:3: E316: le moteur listerait 448 322 actions possibles, pour 50 000 au plus : "
        "« share_tickets » en demande 443 703\n"
        "    4 |   share_tickets 5\n"
        "      |   ^^^^^^^^^^^^^\n"
        "      = aide : chaque action possible est préparée au chargement du moteur ; « share_tickets » : "
        "443 703 ; les routes du plateau : 4 468 ; les tickets distribués (« setup ») : 134 ; "
        "« draw_cards » : 15\n",
    ),
    (
        "switzerland",
        "tunnels reveal: 1000\nwithout tunnel_example",
        "v.aventuriers:3:1: E316: le moteur listerait plus de 51 287 actions possibles, pour 50 000 au plus : "
        "« tunnels » en demande plus de 50 737\n",
    ),
    (
        "usa-mega",
        "turn {\n  draw_tickets draw: 24 keep_at_least: 1 rejected: under_chosen_order\n}",
        "v.aventuriers:4:3: E316: le moteur listerait plus de 66 602 actions possibles, pour 50 000 au plus : "
        "« draw_tickets » en demande plus de 65 534\n",
    ),
    (
        "asia-equipes",
        "turn {\n  share_tickets 1000\n}",
        "v.aventuriers:4:3: E316: le moteur listerait plus d’un milliard d’actions possibles, pour 50 000 "
        "au plus : « share_tickets » en demande plus d’un milliard\n",
    ),
]


@pytest.mark.parametrize(("base", "statement", "expected"), COSTLY, ids=["share", "reveal", "draw", "huge"])
def test_a_spec_that_would_list_too_many_actions_is_refused_where_it_asks(
    tmp_path, capsys, base, statement, expected
) -> None:
    status, err = check(tmp_path, f"edition v\nextends {base}\n{statement}\n", capsys=capsys)
    assert status == 1
    assert expected in err.replace("\u202f", " "), err
    assert MAX_ACTIONS == 50_000


@pytest.mark.parametrize(
    ("base", "statement", "expected"),
    [
        (
            "usa-2025",
            "teams 2 face_up_locomotive: holder share_at_setup: 1 share_at_draw: 1",
            "editions/usa-2025.aventuriers:25:11: E309: l’exemple se joue à 2 joueurs : il faut au moins deux "
            "équipes entières de 2\n"
            "   25 |   players 2\n"
            "      |           ^\n"
            "      = aide : « players 4 » dans « score_example »\n",
        ),
        (
            "switzerland",
            "teams 2 face_up_locomotive: holder share_at_setup: 1 share_at_draw: 1",
            "v.aventuriers:3:7: E309: aucun nombre de joueurs de 2 à 3 ne forme au moins deux équipes de 2\n",
        ),
        (
            "europe",
            "stations count: 3 cost: [0, 1, 2] unused_points: 4",
            "v.aventuriers:3:26: V205: « cost » vaut 0 ; il faut au moins 1\n",
        ),
    ],
    ids=["teams-usa", "teams-switzerland", "free-station"],
)
def test_rules_that_broke_the_examples_or_the_engine_are_refused(
    tmp_path, capsys, base, statement, expected
) -> None:
    status, err = check(tmp_path, f"edition v\nextends {base}\n{statement}\n", capsys=capsys)
    assert status == 1
    assert expected in err.replace(str(loader().root) + "/", ""), err


PAYS_BOARD = (TEST_EDITIONS / "pays.aventuriers").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("written", "instead", "expected"),
    [
        (
            '"Xland',
            '"Fr#ance',
            "v.aventuriers:12:11: E311: un nom de pays ne contient pas « # » : « Fr#ance »\n"
            '   12 |   country "Fr#ance" arrows: 2\n'
            "      |           ^^^^^^^^^\n"
            "      = aide : « # » sépare le pays du numéro de sa flèche, « France#2 »\n",
        ),
        (
            'target "Yland" 6',
            'target "Xland" 6',
            "v.aventuriers:32:12: E302: destination « Xland » donnée deux fois sur ce ticket\n"
            '   32 |     target "Xland" 6\n'
            "      |            ^^^^^^^\n",
        ),
    ],
    ids=["arrow-sign-in-a-country", "target-twice"],
)
def test_countries_and_targets_the_engine_would_misread_are_refused(
    tmp_path, capsys, written, instead, expected
) -> None:
    _copy_test_editions(tmp_path)
    text = PAYS_BOARD.replace("edition pays", "edition v").replace(written, instead)
    status, err = check(tmp_path, text, capsys=capsys)
    assert status == 1
    assert expected in err, err


def test_positions_of_a_country_with_the_arrow_sign_give_no_traceback(tmp_path, capsys) -> None:
    _copy_test_editions(tmp_path)
    text = PAYS_BOARD.replace("edition pays", "edition v").replace('"Xland', '"Fr#ance')
    text = text.replace('city "Atlanta"', 'city "Atlanta" at: 33.7, -84.4')
    status, err = check(tmp_path, text, capsys=capsys)
    assert status == 1 and "E318" in err and "E311" in err


def test_a_variant_with_one_city_adds_it(tmp_path, capsys) -> None:
    variant = 'edition v\nextends europe\nboard {\n  city "Atlanta" at: 33.7, -84.4\n}\n'
    status, err = check(tmp_path, variant, capsys=capsys)
    assert status == 0, err
    status, err = check(
        tmp_path, 'edition base\nplayers 2..3\nboard {\n  city "A"\n}\n', name="base", capsys=capsys
    )
    assert "V204: 1 « city » ; il en faut au moins 2" in err


def test_check_of_a_costly_spec_is_quick(tmp_path, capsys) -> None:
    """The refusal itself costs little: the count stops at the limit (no timing, only work done)."""
    import tracemalloc

    tracemalloc.start()
    try:
        status, _ = check(
            tmp_path,
            "edition v\nextends switzerland\ntunnels reveal: 1000\nwithout tunnel_example\n",
            capsys=capsys,
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 1 and peak < 200 * 2**20
    assert main(["check", "switzerland"]) == 0
