"""The differences pages of the published maps, sentence by sentence as rendered (issue 37, §4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.build import GENERATED
from aventuriers.compiler.cli import main

NBSP, NNBSP = "\u00a0", "\u202f"


def diff(capsys, old: str, new: str) -> list[str]:
    """The bullets of `aventuriers diff OLD NEW`, with the page's title and intro."""
    assert main(["diff", old, new]) == 0
    return [line for line in capsys.readouterr().out.splitlines() if line]


def write(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.aventuriers"
    path.write_text(f"edition {name}\n{body}", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("edition", "line"),
    [
        (
            "india",
            f"- Le plateau Inde remplace celui de l’édition «{NBSP}USA, règle classique{NBSP}»{NBSP}: "
            "39 villes, 80 routes et 108 voies.",
        ),
        (
            "germany",
            f"- Le plateau Allemagne remplace celui de l’édition «{NBSP}USA, règle classique{NBSP}»{NBSP}: "
            "35 villes et 5 pays voisins, 85 routes et 110 voies.",
        ),
    ],
)
def test_a_board_replaced_whole_is_said_in_one_line(capsys, edition: str, line: str) -> None:
    lines = diff(capsys, "usa-classic", edition)
    plateau = lines[lines.index("## Le plateau") + 1 :]
    assert plateau[0] == line
    assert not [
        bullet
        for bullet in lines
        if bullet.startswith(
            ("- Routes retirées", "- Routes ajoutées", "- Villes", "- Routes\u00a0:", "- Voies")
        )
    ]
    # A board that keeps some of its routes is still said route by route.
    edited = diff(capsys, "usa-classic", "tests/variants/usa-sans-miami.aventuriers")
    assert (
        f"- Routes retirées (3){NBSP}: Atlanta – Miami, Charleston – Miami et Miami – New Orleans." in edited
    )


def test_the_title_of_an_edition_is_said_with_the_word_edition(capsys) -> None:
    lines = diff(capsys, "usa-classic", "italy")
    assert lines[1] == (
        f"Cette page présente les changements de règles de l’édition «{NBSP}Italie{NBSP}» par rapport à "
        f"l’édition «{NBSP}USA, règle classique{NBSP}». Tout ce qui n’y figure pas se joue de la même façon."
    )
    assert (
        f"- Pioche de tickets{NBSP}: 56 tickets, tous nouveaux{NNBSP}; les 30 tickets de l’édition "
        f"«{NBSP}USA, règle classique{NBSP}» n’y sont plus."
    ) in lines


def test_an_annex_names_its_base_as_an_edition() -> None:
    sheet = (GENERATED / "usa_mega" / "fiche.md").read_text(encoding="utf-8")
    assert f"## Annexe{NBSP}: les différences avec l’édition «{NBSP}USA, règle classique{NBSP}»\n" in sheet


def test_what_a_team_rule_leaves_in_its_place_is_said(capsys) -> None:
    lines = diff(capsys, "asia-equipes", "legendary-asia")
    assert (
        f"- Cartes piochées{NBSP}: les deux dans la main (avant{NBSP}: la première dans la main ou dans le "
        f"porte-cartes, au choix, la suivante à l’autre place{NNBSP}; une locomotive visible prise seule, dans "
        "le porte-cartes)."
    ) in lines
    assert (
        f"- Équipes{NBSP}: aucune, chacun joue pour soi (avant{NBSP}: de deux joueurs, avec un porte-cartes "
        f"Wagon et un porte-cartes de tickets communs{NNBSP}; les routes et les tickets se comptent par équipe)."
    ) in lines
    assert not [line for line in lines if "plus dans cette édition" in line and "Cartes piochées" in line]
    back = diff(capsys, "legendary-asia", "asia-equipes")
    assert (
        f"- Cartes piochées{NBSP}: la première dans la main ou dans le porte-cartes, au choix, la suivante à "
        f"l’autre place{NNBSP}; une locomotive visible prise seule, dans le porte-cartes (au lieu des deux dans "
        "la main)."
    ) in back


def test_mountains_are_counted_in_routes_as_the_sheet_counts_them(capsys) -> None:
    lines = diff(capsys, "asia-equipes", "legendary-asia")
    assert (
        f"- Routes avec des montagnes{NBSP}: 27 (31 voies){NNBSP}; chaque montagne d’une route coûte un wagon "
        "de plus, pris dans ta réserve et mis de côté jusqu’à la fin de la partie, et rapporte aussitôt "
        "2 points (nouveau)."
    ) in lines


def test_the_tickets_dealt_count_the_long_ones(capsys) -> None:
    lines = diff(capsys, "asia-equipes", "legendary-asia")
    assert f"- Tickets distribués{NBSP}: quatre, un long et trois ordinaires (au lieu de cinq)." in lines
    assert not [line for line in lines if line.startswith("- Tickets longs distribués")]
    europe = diff(capsys, "usa-classic", "europe")
    assert f"- Tickets distribués{NBSP}: quatre, un long et trois ordinaires (au lieu de trois)." in europe


def test_tokens_on_countries_are_said_apart_from_the_cities(capsys) -> None:
    lines = diff(capsys, "usa-classic", "germany")
    assert (
        f"- Voyageurs{NBSP}: 60 sur 35 villes et 5 pays (10 rouges, 10 verts, 10 noirs, 10 jaunes, 10 bleus "
        "et 10 blancs) (nouveau)."
    ) in lines


def test_the_dummy_shareholder_is_on_the_page(capsys) -> None:
    lines = diff(capsys, "usa-classic", "pennsylvania")
    assert (
        f"- Joueur fictif{NBSP}: à deux joueurs, il prend aussi une action chaque fois qu’un joueur en prend "
        f"une, d’une compagnie de la route choisie par ce joueur{NNBSP}; à la fin, la moitié de ses actions "
        "(arrondie à l’entier supérieur), tirées au hasard, comptent dans les majorités, sans points pour lui "
        "(nouveau)."
    ) in lines


def test_public_routes_are_said_to_serve_everyone(capsys) -> None:
    lines = diff(capsys, "usa-classic", "japan")
    assert (
        f"- Voies rapides{NBSP}: 23, publiques{NNBSP}; une fois prises, elles servent aux tickets de tous "
        "les joueurs (nouveau)."
    ) in lines


def test_tracks_between_the_same_two_cities_are_told_apart(tmp_path, capsys) -> None:
    variant = write(
        tmp_path,
        "japon-hakodate-rouge",
        'extends japan\ntitle "Japon, Hakodate en rouge"\n'
        'without route aomori-hakodate-white\nboard {\n  route "Aomori" "Hakodate" 4 red\n}\n',
    )
    lines = diff(capsys, "japan", variant)
    assert f"- Route retirée{NBSP}: Aomori – Hakodate (blanc, 3 cases)." in lines
    assert f"- Route ajoutée{NBSP}: Aomori – Hakodate (rouge, 4 cases)." in lines


def test_a_range_of_tickets_kept_elides_de_before_un(tmp_path, capsys) -> None:
    variant = write(
        tmp_path,
        "usa-un-ou-deux",
        'extends usa-classic\ntitle "USA, un ou deux tickets"\n'
        "turn {\n  draw_tickets draw: 3 keep_at_least: 1 keep_at_most: 2 rejected: under_chosen_order\n}\n",
    )
    lines = diff(capsys, "usa-classic", variant)
    assert f"- Tickets gardés après une pioche{NBSP}: d’un à deux (au lieu d’au moins un)." in lines
    assert main(["sheet", variant]) == 0
    assert "et garde-en d’un à deux." in capsys.readouterr().out
