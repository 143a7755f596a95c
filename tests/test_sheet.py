"""The French rule sheets: every number from the spec, French typography."""

from __future__ import annotations

import re

import pytest
from aventuriers.compiler.build import GENERATED
from aventuriers.compiler.french import typo

SHEETS = {path.parent.name: path.read_text(encoding="utf-8") for path in sorted(GENERATED.glob("*/fiche.md"))}


@pytest.mark.parametrize("name", SHEETS)
def test_french_spacing(name: str) -> None:
    text = SHEETS[name]
    assert not re.search(r"[^\s\u00a0\u202f|][:;!?]\s", text.replace("://", "")), "a mark without its space"
    assert not re.search(r" [:;!?»]", text), "an ordinary space before a high mark"
    assert not re.search(r"« ", text), "an ordinary space after «"


@pytest.mark.parametrize("name", SHEETS)
def test_sections_follow_the_rulebook(name: str) -> None:
    titles = re.findall(r"^## (.+)$", SHEETS[name].split("\n## Annexe")[0], flags=re.M)
    examples = [title for title in titles if title.startswith("Exemple de ")]
    assert examples, "a sheet shows at least one worked example"
    # A mechanism may add a section of its own after the examples (the Grand Tour's table): the
    # closing section then names it.
    own = titles[titles.index(examples[-1]) + 1 : titles.index("Dernier tour et victoire")]
    closing = SHEETS[name].split("## Dernier tour et victoire")[1].split("\n## ")[0]
    assert all(typo(f"« {title} »") in closing for title in own), own
    assert titles == [
        "Matériel",
        "But du jeu",
        "Mise en place",
        *(["Jouer en équipe"] if "Jouer en équipe" in titles else []),
        "Le tour",
        *examples,
        *own,
        "Dernier tour et victoire",
        "Erreurs fréquentes",
        "Quand la règle ne dit rien",
        "Résumé express",
    ]


def test_numbers_come_from_each_spec() -> None:
    new, classic = SHEETS["usa_2025"], SHEETS["usa_classic"]
    for text in (new, classic):
        assert "110 cartes Wagon = 8 × 12 + 14" in text
        assert "| Points | 1 | 2 | 4 | 7 | 10 | 15 |" in text
        assert "ses 45 wagons" in text
    assert "33 tickets Destination" in new and "30 tickets Destination" in classic
    assert typo("donnes-en quatre à chaque joueur. Chacun en garde au moins deux") in new
    assert typo("donnes-en trois à chaque joueur. Chacun en garde au moins deux") in classic
    assert "seuls 30 sont connus" in new


def test_worked_examples_are_the_rulebooks_figures() -> None:
    assert typo("48 + 12 + 8 − 7 = 61") in SHEETS["usa_2025"]
    assert "61 + 10 = 71" in SHEETS["usa_2025"]
    assert typo("62 + 11 + 8 − 9 = 72") in SHEETS["usa_classic"]
    assert "72 + 10 = 82" in SHEETS["usa_classic"]


def test_typo_rules() -> None:
    assert typo("Prix : 5 ; oui ! « mot »") == "Prix\u00a0: 5\u202f; oui\u202f! «\u00a0mot\u00a0»"
    assert typo("à 10:30, voir https://example.org") == "à 10:30, voir https://example.org"


def test_europe_sheet_explains_its_mechanisms_with_the_spec_numbers() -> None:
    europe = SHEETS["europe"]
    assert (
        "| Longueur | 1 | 2 | 3 | 4 | 6 | 8 |" in europe and "| Points | 1 | 2 | 4 | 7 | 15 | 21 |" in europe
    )
    assert "3 gares par joueur" in europe
    assert (
        typo("Tunnels (18 sur le plateau) : pose les cartes de la route, puis retourne les trois") in europe
    )
    assert typo("Ferries : une route marquée d’une ou plusieurs locomotives se paie avec au moins") in europe
    assert "(une ou deux)" not in europe
    assert typo("locomotives en joker : une pour la 1re, deux pour la 2e et trois pour la 3e") in europe
    assert "Chaque gare que tu n’as pas construite vaut 4 points." in europe
    assert typo("On retourne une noire, une locomotive et une rouge. Deux cartes correspondent") in europe
    assert typo("46 tickets Destination (40 ordinaires et 6 longs)") in europe


def test_usa_sheets_say_nothing_of_europe_mechanisms() -> None:
    for name, text in SHEETS.items():
        if name.startswith("usa"):
            assert "unnel" not in text and "erry" not in text and "gare" not in text.lower(), name
