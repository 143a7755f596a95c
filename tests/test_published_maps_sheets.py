"""The seven published maps' sheets as a family reads them (issue 37, §1–3).

Each test is a finding of the reading of 98f35ae: a sourced rule printed as a decision, a rule
missing, a sentence that misleads, a French slip. The sentences are compared as rendered.
"""

from __future__ import annotations

import re

import pytest
from aventuriers.compiler.build import GENERATED
from aventuriers.compiler.cli import main
from aventuriers.compiler.french import alphabetical

SHEETS = {path.parent.name: path.read_text(encoding="utf-8") for path in sorted(GENERATED.glob("*/fiche.md"))}
NBSP = "\u00a0"


def section(sheet: str, title: str) -> str:
    start = sheet.index(f"## {title}")
    following = sheet.find("\n## ", start + 1)
    return sheet[start : following if following > 0 else None]


def plain(text: str) -> str:
    """The text with its non-breaking spaces as spaces, so the expected sentences read plainly."""
    return text.replace(NBSP, " ").replace("\u202f", " ")


def decisions(name: str) -> str:
    return plain(section(SHEETS[name], "Quand la règle ne dit rien"))


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_no_sheet_says_marche_for_the_visible_cards(name) -> None:
    assert "marché" not in SHEETS[name]


def test_the_never_renewed_market_is_said_with_its_cards() -> None:
    assert (
        "Les cartes visibles ne sont jamais renouvelées, quel que soit le nombre de locomotives parmi elles."
        in plain(SHEETS["nordic_countries"])
    )


def test_the_summary_formula_prints_bonus_titles_as_titles() -> None:
    summary = plain(section(SHEETS["legendary_asia"], "Résumé express"))
    assert (
        "- Routes + tickets réussis − tickets ratés + « Grand explorateur de l’Asie » (10) : le plus gros total "
        "gagne." in summary
    )
    assert "+ « Indian Express » (10) + « Grand Tour » : le plus gros total gagne." in plain(SHEETS["india"])


def test_the_longest_path_goes_to_a_player_not_to_a_path() -> None:
    closing = plain(section(SHEETS["europe"], "Dernier tour et victoire"))
    assert "« Chemin le plus long » : 10 points au joueur qui a le chemin continu le plus long." in closing


def test_regions_are_listed_in_french_alphabetical_order() -> None:
    material = plain(section(SHEETS["italy"], "Matériel"))
    assert (
        "- 17 régions : les Abruzzes (Pescara), la Calabre (Cosenza), la Campanie (Napoli et Salerno), "
        "l’Émilie-Romagne (Bologna, Parma et Ravenna), le Frioul-Vénétie Julienne (Tarvisio et Trieste), "
        "le Latium (Roma), la Ligurie (Genova), la Lombardie (Bergamo et Milano), les Marches (Ancona), "
        "l’Ombrie (Perugia), le Piémont (Torino)," in material
    )
    # The article and the accent do not decide the order; the name does.
    assert alphabetical(["le Trentin", "l’Ombrie", "la Vénétie", "l’Émilie", "les Abruzzes"]) == [
        "les Abruzzes",
        "l’Émilie",
        "l’Ombrie",
        "le Trentin",
        "la Vénétie",
    ]


def test_legendary_asia_example_puts_the_mountains_on_the_track_at_the_claim() -> None:
    example = plain(section(SHEETS["legendary_asia"], "Exemple de score"))
    assert (
        "Mei a pris 7 routes (15 wagons, et 3 de plus pour ses 3 montagnes) : 24 points sur la piste de "
        "score, dont 6 pour ses 3 montagnes. Mei réussit « Moscow – Ankara » (7) mais rate « Omsk – Baghdad » "
        "(10) : 24 + 7 − 10 = 21." in example
    )


def test_legendary_asia_explorer_tiebreak_is_a_decision() -> None:
    assert (
        "- À égalité de points et de tickets réussis, la carte « Grand explorateur de l’Asie » départage : "
        "aucune source publiée de cette édition ne le dit" in decisions("legendary_asia")
    )


def test_unequal_tracks_of_a_double_route_are_said_double() -> None:
    turn = plain(section(SHEETS["nordic_countries"], "Le tour"))
    assert (
        "Kristiansand – Stavanger et Mo I Rana – Trondheim sont des routes doubles, bien que leurs voies "
        "n’aient pas la même longueur : la règle des routes doubles s’y applique." in turn
    )


def test_parallel_tracks_that_are_no_double_route_are_said_apart() -> None:
    turn = plain(section(SHEETS["japan"], "Le tour"))
    assert (
        "Aomori – Hakodate a deux voies, de 2 et 3 cases, qui ne forment pas une route double : chacune est "
        "une route à part, et un même joueur peut les prendre." in turn
    )


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("japan", "Il n’y a aucune carte bonus : ni chemin le plus long, ni Globetrotter."),
        ("italy", "Il n’y a aucune carte bonus : ni chemin le plus long, ni Globetrotter."),
        ("germany", "Il n’y a pas de bonus du chemin le plus long."),
        ("nordic_countries", "Il n’y a pas de bonus du chemin le plus long."),
    ],
)
def test_a_missing_bonus_is_a_rule_said_with_the_scoring(name, sentence) -> None:
    assert sentence in plain(section(SHEETS[name], "Dernier tour et victoire"))
    assert "chemin le plus long" not in decisions(name).replace("comme pour le chemin le plus long", "")


def test_germany_material_setup_and_ticket_draw() -> None:
    germany = plain(SHEETS["germany"])
    assert "- un sac en tissu, pour tirer les voyageurs au hasard ;" in section(germany, "Matériel")
    assert (
        "- Mets les voyageurs dans le sac en tissu et mélange-les, puis tire-les au hasard et pose-les sur "
        "les villes et les pays : 1 à Augsburg, 5 à Berlin," in section(germany, "Mise en place")
    )
    assert (
        "et garde-en au moins un. Les autres retournent sous leur pioche, dans l’ordre de ton choix. S’il ne "
        "reste aucun ticket, cette action n’est pas possible. Un ticket gardé ne peut plus jamais être rendu."
        in section(germany, "Le tour")
    )
    assert (
        "- À égalité de points, le plus de tickets réussis départage, comme au jeu de base : les sources lues "
        "de l’Allemagne ne disent pas comment départager." in decisions("germany")
    )


def test_neighbouring_countries_are_named_in_french_and_their_dead_end_is_a_rule() -> None:
    assert (
        "Pays voisins : 14 routes ne mènent pas à une ville mais à un pays voisin, par l’une des flèches de sa "
        "frontière : Autriche (3 flèches), Danemark (2 flèches), France (3 flèches), Pays-Bas (3 flèches) et "
        "Suisse (3 flèches). Un pays se rejoint par n’importe laquelle de ses flèches, mais ne se traverse "
        "jamais : deux flèches d’un même pays ne se relient pas." in plain(SHEETS["germany"])
    )
    assert "par l’une des flèches de sa frontière : la province de l’Ontario (2 flèches)." in plain(
        SHEETS["pennsylvania"]
    )
    assert "Le ticket de Bern propose France 5, Allemagne 6, Autriche 11 ou Italie 8." in plain(
        SHEETS["switzerland"]
    )
    assert "pays voisin ne se traverse" not in decisions("germany")
    for name, sheet in SHEETS.items():
        assert not re.search(r"\b(Austria|Dänemark|Deutschland|Schweiz|Nederland|(?<!l’)Ontario)", sheet), (
            name
        )


def test_japan_says_its_insets_are_one_city_among_the_rules() -> None:
    text = (
        "Tokyo et Kokura figurent deux fois sur le plateau, sur la carte principale et dans un médaillon (le "
        "métro de Tokyo, l’île de Kyushu) : c’est chaque fois la même ville."
    )
    assert text in plain(section(SHEETS["japan"], "Le tour"))
    assert "Tokyo et Kokura" not in decisions("japan")


def test_japan_decisions_name_their_sources() -> None:
    said = decisions("japan")
    assert (
        "- Un joueur resté à 0 sur la piste Train Rapide marque −20 au lieu des points de son rang, et non en "
        "plus : seule la mise en œuvre de Board Game Arena donne ce −20, aucun texte de règle lu ne le dit."
        in said
    )
    assert (
        "comme le disent la mise en œuvre de Board Game Arena et la critique de justpushstart (2019) : un "
        "joueur sans wagons peut encore construire des voies rapides. Une autre critique fait finir la "
        "partie quand tous les trains rapides sont construits ; le texte officiel n’a pas été lu." in said
    )


def test_the_ferry_mistake_names_the_sets_of_cards_that_stand_for_locomotives() -> None:
    mistakes = plain(section(SHEETS["nordic_countries"], "Erreurs fréquentes"))
    assert "- Payer un ferry sans ses locomotives ni, pour chacune, un lot de 3 cartes." in mistakes
    assert "- Payer un ferry sans ses locomotives.\n" in plain(SHEETS["europe"])


@pytest.mark.parametrize(
    ("name", "sourced"),
    [
        ("nordic_countries", "règle publiée"),
        ("india", "propres routes"),
        ("germany", "bonus du chemin le plus long"),
        ("switzerland", "pays voisin relie"),  # decided, with the dead end stated among the rules
    ],
)
def test_decisions_hold_no_sourced_rule(name, sourced) -> None:
    said = decisions(name)
    if name == "switzerland":
        # The seed is silent: a decision, said as one; the dead end itself is with the rules.
        assert (
            "La règle ne dit pas si un pays voisin relie les routes qui y mènent : nous avons décidé" in said
        )
        assert "mais ne se traverse jamais" in plain(section(SHEETS[name], "Le tour"))
    else:
        assert sourced not in said


def test_the_rule_books_are_the_french_boxes() -> None:
    for name, sheet in SHEETS.items():
        assert "Map Collection" not in sheet, name
    assert "la règle de l’Italie, dans la boîte « Japon \\& Italie » (7ᵉ extension)" in plain(SHEETS["italy"])


def test_a_stated_rule_is_printed_with_the_rules_and_escaped(tmp_path, capsys) -> None:
    spec = tmp_path / "usa-dit.aventuriers"
    spec.write_text(
        'edition usa-dit\nextends usa-2025\ntitle "USA dit"\n'
        'stated insets in: material "un médaillon *gras* [clic](https://x.example/)"\n'
        'stated one_city in: claim "Denver figure une fois."\n',
        encoding="utf-8",
    )
    assert main(["sheet", str(spec)]) == 0
    page = capsys.readouterr().out
    assert "- un médaillon \\*gras\\* \\[clic\\]" in section(page, "Matériel")
    assert "Denver figure une fois." in section(page, "Le tour")
    assert "Denver" not in section(page, "Quand la règle ne dit rien")


def test_a_stated_rule_in_an_unknown_part_is_refused(tmp_path, capsys) -> None:
    spec = tmp_path / "usa-dit.aventuriers"
    spec.write_text(
        'edition usa-dit\nextends usa-2025\ntitle "USA dit"\nstated insets in: box "Un médaillon."\n',
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 1
    said = capsys.readouterr().err
    assert (
        ":4:15: V204: « box » n’est pas permis pour « in » ; valeurs possibles : material, setup, claim, scoring\n"
        in plain(said)
    )


def test_japan_speaks_the_french_box_words_for_its_bullet_trains() -> None:
    japan = plain(SHEETS["japan"])
    assert (
        "- 16 trains rapides communs à tous les joueurs, et la piste Train Rapide où chacun a un marqueur ;"
        in japan
    )
    assert "Les 23 voies rapides, listées ci-dessous, sont publiques." in japan
    assert (
        "Quand la réserve de trains rapides est vide, les voies rapides encore libres deviennent des routes "
        in japan
    )
    assert "Shinkansen" not in japan


def test_the_dummy_shares_are_rounded_up_in_plain_french() -> None:
    pennsylvania = plain(SHEETS["pennsylvania"])
    assert "arrondie au-dessus" not in pennsylvania
    assert "moitié, arrondie à l’entier supérieur : elles comptent pour lui" in pennsylvania
