"""The sheets as a family at a table reads them (issue 8, §2).

Each test is a finding of the rules audit against the seeds: a rule stated
wrongly, an omission, a word meant for programmers, a French mistake.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aventuriers.compiler.build import GENERATED, compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from tests.engines import EDITIONS, engine, seats

SHEETS = {path.parent.name: path.read_text(encoding="utf-8") for path in sorted(GENERATED.glob("*/fiche.md"))}
TINY = Path(__file__).resolve().parent / "specs" / "broken" / "tiny.aventuriers"


def section(sheet: str, title: str) -> str:
    start = sheet.index(f"# {title}")
    following = sheet.find("\n## ", start + 1)
    return sheet[start : following if following > 0 else None]


def test_the_europe_goal_and_summary_count_stations() -> None:
    europe = SHEETS["europe"]
    goal = section(europe, "But du jeu")
    assert "ne servent pas de raccord" not in goal
    assert "chacune de tes gares peut y ajouter une route d’un autre joueur" in goal
    assert "et 4\u00a0points par gare que tu n’as pas construite" in goal.replace(" points", "\u00a0points")
    assert "+ 4 par gare non construite\u00a0: le plus gros total gagne." in section(europe, "Résumé express")


def test_the_europe_setup_follows_the_seed() -> None:
    setup = section(SHEETS["europe"], "Mise en place")
    assert (
        "Chacun garde au moins deux de ses trois tickets ordinaires, et garde ou rend son ticket long. "
        "Tous les tickets rendus retournent dans la boîte." in setup
    )


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_the_market_reset_happens_at_any_moment(name) -> None:
    draw = section(SHEETS[name], "Prendre des cartes Wagon")
    if "jamais renouvelé" in draw:  # Nordic Countries: no reset at all
        assert (
            "Les cartes visibles ne sont jamais renouvelées, quel que soit le nombre de locomotives parmi elles."
            in draw
        )
        return
    assert "À tout moment de la partie, pas seulement à la mise en place\u00a0: si au moins trois" in draw


def test_big_cities_names_its_seven_cities_and_1910_sets_the_other_tickets_aside() -> None:
    setup = section(SHEETS["usa_big_cities"], "Mise en place")
    assert "Chicago, Dallas, Houston, Los Angeles, Miami, New York et Seattle" in setup
    for name in ("usa_1910", "usa_big_cities", "usa_mega"):
        assert "Utilise les grandes cartes de l’extension à la place de celles du jeu de base" in SHEETS[name]
    assert (
        "Garde les cartes Destination marquées 1910 et range les autres dans la boîte." in SHEETS["usa_1910"]
    )


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_a_sheet_speaks_to_players_at_a_table(name) -> None:
    sheet = SHEETS[name]
    assert "moteur" not in sheet and "pour toi" not in sheet
    # One form of address: tu. No « vous », no imperative in -ez.
    assert not re.search(r"\b([Vv]ous|[Vv]otre|[Vv]os)\b", sheet)
    assert not re.search(
        r"\b(Mélangez|Donnez|Posez|Choisissez|[Dd]épartagez|défaussez|retournez|placez)\b", sheet
    )
    assert "(s)" not in sheet


def test_french_agreement_on_a_board_of_ones() -> None:
    """The small test base: one double route, one ticket dealt, keep at least one, 2 or 3 players."""
    result = compile_edition(TINY, loader())
    sheet = result.sheet
    assert "*2 ou 3 joueurs*" in sheet
    assert "4 villes reliées par 4 routes, dont 1 route double (5 voies en tout)\u202f;" in sheet
    assert "deux cartes Wagon et un ticket au départ, au moins un gardé." in sheet
    assert "Donner un autre nombre qu’un ticket au départ, ou n’en garder aucun." in sheet
    assert "moins de un" not in sheet and "un tickets" not in sheet


@pytest.mark.parametrize("edition", EDITIONS)
def test_refusal_messages_agree_with_their_numbers(edition) -> None:
    module = engine(edition)
    assert not any("(s)" in text or "Vous" in text or "vous" in text for text in module.MESSAGES.values())
    state = module.new_game(seats(module, 2), 3).to_dict()
    for player in state["players"]:
        state["ticket_deck"] += player["pending_tickets"]
        player["pending_tickets"] = []
    state["phase"] = "turn"
    state["current_player"] = 0
    state["players"][0]["hand"] = {"red": 1}
    game = module.Game.from_dict(state)
    one_red = next(
        route for route, record in module.ROUTES.items() if record["length"] == 2 and not record.get("ferry")
    )
    with pytest.raises(module.IllegalAction) as refusal:
        game.apply({"type": "claim_route", "route": one_red, "cards": {"red": 2}})
    assert refusal.value.code in ("not_enough_cards", "wrong_color")
    if refusal.value.code == "not_enough_cards":
        assert refusal.value.message == "Il te faut 2\u00a0cartes rouges et tu en as 1.".replace(
            "\u00a0", " "
        )


def test_a_one_card_tunnel_is_worded_in_the_singular(tmp_path) -> None:
    spec = tmp_path / "tunnel-court.aventuriers"
    spec.write_text(
        'edition tunnel-court\nextends europe\ntitle "Europe, tunnels courts"\ntunnels reveal: 1\n'
        "without tunnel_example\n",
        encoding="utf-8",
    )
    result = compile_edition(spec, loader())
    assert "puis retourne la première carte de la pioche" in result.sheet
    assert "Tunnel = une carte retournée, une de plus par correspondance." in result.sheet
    load_engine(result.engine_source, "tunnel_court")


def test_the_audits_sentences_are_gone() -> None:
    """Issue 20, §4: sentences a rules audit found wrong or clumsy, each checked where it was."""
    asia = _sheet("asia_equipes")
    europe = _sheet("europe")
    assert asia.splitlines()[2].startswith("*4 ou 6 joueurs")  # 5 is refused: never « 4 à 6 »
    assert "mais sans rien dire du jeu" in asia
    assert "Pose un ou deux de tes tickets" in asia and "Pose de un à deux" not in asia
    assert "les autres restent secrets. Les tickets que tu ne gardes pas vont sous la pioche" in asia
    assert "ou en garder moins de deux ordinaires." in europe
    for edition in ("usa_2025", "europe", "switzerland", "asia_equipes"):
        footer = _sheet(edition).rstrip().splitlines()[-1]
        assert footer == "Fiche établie par aventuriers, à partir des règles de l’édition.", footer


def _sheet(module: str) -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parent.parent / "generated" / module / "fiche.md").read_text(
        encoding="utf-8"
    )


def test_refusals_name_routes_by_their_cities() -> None:
    from tests.engines import engine

    usa = engine("usa-2025")
    game = usa.new_game(2, 1)
    while game.to_dict()["phase"] != "turn":
        game.apply(game.legal_actions()[0])
    state = game.to_dict()
    state["players"][1]["routes"] = ["atlanta-raleigh-1"]
    state["players"][1]["trains"] -= 2
    state["players"][1]["score"] = 2
    game = usa.Game.from_dict(state)
    try:
        game.apply({"type": "claim_route", "route": "atlanta-raleigh-1", "cards": {"locomotive": 2}})
    except usa.IllegalAction as refused:
        assert "Atlanta – Raleigh" in refused.message and "atlanta-raleigh" not in refused.message
    else:
        raise AssertionError("a route already taken was accepted")


def test_the_serve_log_says_porte_cartes_like_the_sheet() -> None:
    from aventuriers.play.describe import describe

    from tests.engines import engine

    asia = engine("asia-equipes")
    text = describe(asia, {"type": "share_tickets", "tickets": ["a", "b"]}, None)
    assert "porte-cartes de l’équipe" in text and "support" not in text


def test_the_serve_log_names_a_company_as_the_sheet_does() -> None:
    from aventuriers.play.describe import describe

    from tests.engines import engine

    penn = engine("pennsylvania")
    assert describe(penn, {"type": "take_share", "company": "rdg"}) == "prend une action des Reading Lines"
    assert (
        describe(penn, {"type": "take_share", "company": "prr"})
        == "prend une action de la Pennsylvania Railroad"
    )
    claim = {"type": "claim_route", "route": "altoona-dubois", "cards": {"red": 2}}
    assert describe(penn, claim) == "prend la route Altoona – Dubois (2) avec 2 cartes rouges"
    assert (
        describe(penn, {**claim, "share": False})
        == "prend la route Altoona – Dubois (2) avec 2 cartes rouges sans prendre d’action"
    )
    sheet = _sheet("pennsylvania")
    assert "34 villes et 1 pays voisin reliés par 71 routes" in sheet
    assert "7 des Reading Lines" in sheet and "5 du New York Central System" in sheet


def test_pennsylvania_says_a_share_may_be_declined_and_what_rests_on_one_source() -> None:
    """Issue 37, §1 and §2: a claim *may* take a share (fandom, « Shares »), the exhausted
    companies' rule is a rule, not a decision, and the whole payout table rests on one source."""
    sheet = _sheet("pennsylvania")
    claim = section(sheet, "Prendre une route")
    nb = "\u00a0"
    assert (
        "Quand tu prends une route qui porte des logos de compagnies, tu peux aussi prendre la carte Action "
        "du dessus de la pile de l’une d’elles, celle de plus petit numéro, ou n’en prendre aucune. Si la "
        "route en porte plusieurs qui ont encore des actions, tu choisis la compagnie. Une compagnie dont "
        f"toutes les actions sont prises n’en donne plus{nb}: choisis-en une autre de la route, s’il en reste. "
        "Garde tes cartes Action devant toi, face cachée." in claim
    )
    assert "prends la carte Action du dessus" not in sheet
    assert (
        "et pose-la face cachée à côté des siennes\u202f; si tu n’en prends pas, il n’en prend pas non plus."
        in claim
    )
    decisions = section(sheet, "Quand la règle ne dit rien")
    assert "Une compagnie qui n’a plus d’action" not in decisions and "toutes les actions" not in decisions
    assert (
        f"- Les points par rang du tableau «{nb}Les compagnies{nb}» ne viennent que d’une source, l’adaptation "
        f"de Board Game Arena{nb}: aucun texte de la règle ne les donne.\n" in decisions
    )
    assert (
        "- Les Reading Lines donnent 15 points à leur premier actionnaire (Board Game Arena)\u202f; une autre "
        "lecture des cartes dit 14.\n" in decisions
    )
    summary = section(sheet, "Résumé express")
    assert (
        f"- Route à logos{nb}: si tu veux, la carte Action du dessus d’une de ses compagnies\u202f; majorités "
        "par compagnie.\n" in summary
    )


def test_route_counts_count_routes_and_tracks() -> None:
    """A double route is one route of two tracks: « 101 routes, dont 11 doubles » counted tracks."""
    assert "47 villes reliées par 90 routes, dont 11 routes doubles (101 voies en tout)" in _sheet("europe")
    europe = _sheet("europe")
    assert "l’application" not in europe and "d’après la règle de l’éditeur" not in europe


def test_switzerland_says_what_its_engine_plays() -> None:
    """Issue 20, §4: the rules audit of seed 003 against the Switzerland sheet."""
    swiss = _sheet("switzerland")
    assert (
        "complétée si besoin par des cartes Tunnel, jamais" not in swiss
    )  # five gray routes are not tunnels
    assert "de ton choix (complétée si besoin par des cartes Tunnel sur un tunnel gris), jamais" in swiss
    assert "entre ses deux villes" not in swiss and "entre son départ et sa destination" in swiss
    assert "ou entre une ville et un pays voisin, et défausse" in swiss
    assert "## Exemple de tunnel" in swiss and "deux cartes rouges et une carte Tunnel" in swiss
    summary = swiss.split("## Résumé express")[1]
    assert (
        "Cartes Tunnel\u00a0: sur les tunnels seulement" in summary
        and "Tickets rendus\u00a0: retirés du jeu." in summary
    )
    decisions = swiss.split("## Quand la règle ne dit rien")[1].split("## ")[0]
    # The seed is silent on crossing a country: a decision, said as one (issue 37, §2).
    assert "La règle ne dit pas si un pays voisin relie les routes qui y mènent" in decisions
    assert (
        "mais ne se traverse jamais : deux flèches d’un même pays ne se relient pas".replace(" :", "\u00a0:")
        in swiss
    )
    assert "la défausse est mélangée pour la refaire" in swiss
    assert "Termine avec le plus de points" not in swiss


def test_asia_team_says_its_decisions_as_decisions() -> None:
    """Issue 20, §4: decisions printed as rules go to « Quand la règle ne dit rien »."""
    asia = _sheet("asia_equipes")
    decisions = asia.split("## Quand la règle ne dit rien")[1].split("## ")[0]
    for decision in (
        "Les 6 tickets longs du plateau sont mêlés aux 30 autres",
        "les tickets que chacun rend, rendus par tous en même temps, sont mélangés ensemble",
        "Les cartes bonus se jugent par équipe",
        "Quand il ne reste qu’une seule carte à prendre, elle va où tu veux",
        "Les porte-cartes d’une équipe ne sont vus que de ses joueurs",
        "ce plateau n’a pas de tunnels",
    ):
        assert decision in decisions, decision
    material = asia.split("## Matériel")[1].split("## ")[0]
    assert "un marqueur de score par équipe" in material
    assert "chaque équipe pose son marqueur de score sur zéro" in asia


def test_team_play_names_only_the_player_counts_it_is_played_at() -> None:
    """Issue 37, §6: Asia team play is played at 4 or 6, so its doubles rule says so, not « De 4
    à 6 joueurs » (a count of 5 makes no teams)."""
    asia = _sheet("asia_equipes")
    assert "À 4 ou 6 joueurs, l’autre voie reste ouverte à une autre équipe, jamais à ton coéquipier." in asia
    assert "De 4 à 6" not in asia and "de 4 à 6" not in asia


def test_the_asia_score_example_is_told_for_a_team() -> None:
    example = _sheet("asia_equipes").split("## Exemple de score")[1].split("## ")[0]
    assert (
        "Le porte-cartes de son équipe réussit «\u00a0Perm – Tehran\u00a0» (6)\u00a0: 14 + 6 = 20." in example
    )
    assert "contre 3 pour l’équipe adverse" in example
    assert "Total pour l’équipe de Mei\u00a0: 30 points." in example


def test_switzerland_names_its_countries_in_french_only() -> None:
    # Issue 37, §3: the French names, never the board's (« Deutschland », « Österreich »), in French
    # alphabetical order.
    sheet = _sheet("switzerland").replace("\u00a0", " ")
    assert "Allemagne (5 flèches), Autriche (3 flèches), France (4 flèches) et Italie (5 flèches)." in sheet
    assert "Deutschland" not in sheet and "Österreich" not in sheet


def test_europe_has_a_worked_score_example_like_the_other_editions() -> None:
    example = _sheet("europe").split("## Exemple de score")[1].split("## ")[0]
    assert "Marie réussit" in example and "rate «\u00a0Athina – Angora\u00a0» (5)" in example
    assert "Ses trois gares non construites rapportent 3 × 4 = 12 points, soit 45 + 12 = 57." in example
    assert "Total pour Marie\u00a0: 57 points." in example


def test_italy_says_its_ten_ferry_cards_and_the_limit_of_two_in_a_hand() -> None:
    """Issue 37, §1 and §3: ten cards Ferry (trictrac, polygamer), two at most in a hand (vindjeu,
    Board Game Arena), under the French edition's name, never « Traghetto »."""
    italy = _sheet("italy")
    nbsp = "\u00a0"
    assert "- 10 cartes Ferry, toutes pareilles." in section(italy, "Matériel")
    assert (
        f"Prends la carte du dessus de la pioche des cartes Ferry{nbsp}: c’est tout ton tour, comme une "
        "locomotive prise face visible. Tu ne peux pas avoir plus de deux cartes Ferry en main. Les cartes "
        f"Ferry que chacun tient se montrent{nbsp}: elles sont toutes pareilles."
    ) in section(italy, "Prendre une carte Ferry")
    assert "- Prendre une carte Ferry quand on en a déjà deux en main." in section(
        italy, "Erreurs fréquentes"
    )
    assert (
        "- Carte Ferry = jusqu’à deux locomotives d’un ferry\u202f; en prendre une est tout le tour\u202f; "
        "deux au plus en main." in section(italy, "Résumé express")
    )
    assert "Traghetto" not in italy and "12 cartes" not in italy
    decisions = section(italy, "Quand la règle ne dit rien")
    assert "leur nombre n’a été lu dans aucune source" not in decisions


def test_italy_says_every_gray_route_is_a_ferry_as_its_board_has_it() -> None:
    """Issue 37, §1: the ferry paragraph reads it from the board (every gray route of Italy is a
    ferry), so a board with gray routes off the sea says nothing of the kind."""
    assert (
        "Ferries\u00a0: sur ce plateau, toutes les routes grises sont des ferries. Une route marquée d’une ou "
        "plusieurs locomotives se paie avec au moins autant de locomotives"
    ) in _sheet("italy")
    for name in ("europe", "nordic_countries", "legendary_asia", "india", "pennsylvania"):
        assert "toutes les routes grises sont des ferries" not in _sheet(name), name


def test_italy_leaves_the_data_audit_to_the_sources_file() -> None:
    """Issue 37, §3: the sheet says that board and tickets have one unchecked source, not the
    audit's remarks (pink's extra space, Genova – Pescara's value), which SOURCES.md keeps."""
    italy = _sheet("italy")
    assert (
        "- Le plateau (longueurs, couleurs, vagues des ferries, régions) et les tickets viennent d’une seule "
        "source, la version de Board Game Arena, que rien n’a encore permis de vérifier sur le plateau "
        "imprimé.\n"
    ) in section(italy, "Quand la règle ne dit rien")
    assert "case de plus" not in italy and "Genova – Pescara" not in italy
    sources = (Path(__file__).resolve().parent.parent / "editions" / "SOURCES.md").read_text(encoding="utf-8")
    assert "pink has one space more than every other" in sources
    assert "Genova – Pescara (7) is worth less than the shortest path (10)" in sources


def test_the_differences_page_says_the_limit_of_ferry_cards(capsys) -> None:
    """Issue 37, §1: the limit on the ferry cards held is a rule of the edition, so `diff` says it."""
    from aventuriers.compiler.cli import main

    assert main(["diff", "europe", "italy"]) == 0
    out = capsys.readouterr().out
    assert "- Cartes Ferry\u00a0: 10 (nouveau)." in out
    assert "- Cartes Ferry en main\u00a0: deux au plus (nouveau)." in out
