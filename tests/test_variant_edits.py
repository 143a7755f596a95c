"""A variant changes anything it inherits, in a few lines (issue 8, §1).

The three example variants of ``tests/variants/`` are checked, built,
simulated and diffed; each edit a variant can make has a test of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.cli import main
from aventuriers.compiler.emit.example import load_engine

from .conformance_runner import run_case, start_state

VARIANTS = Path(__file__).resolve().parent / "variants"


def compiled(path: Path):
    result = compile_edition(path, loader())
    return result, load_engine(result.engine_source, result.edition.module_name)


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.aventuriers"
    path.write_text(f"edition {name}\n{body}", encoding="utf-8")
    return path


PARENTS = {
    "europe-sans-tunnels": "europe",
    "usa-sans-miami": "usa-classic",
    "europe-quatre-gares": "europe",
    "europe-sans-longs": "europe",
    "asie-sans-equipes": "asia-equipes",
    "usa-voies-triples": "usa-classic",
    "usa-montagnes": "usa-2025",
    "europe-grand-tour": "europe",
    "usa-ponts": "usa-2025",
    "suisse-paiements-nordiques": "switzerland",
    "usa-or": "usa-2025",
    "europe-voyageurs": "europe",
    "usa-regions": "usa-2025",
    "usa-actions": "usa-2025",
    "suisse-route-publique": "switzerland",
    "europe-cartes-ferry": "europe",
    "usa-deux-pioches": "usa-2025",
}


@pytest.mark.parametrize("name", sorted(PARENTS))
def test_each_example_variant_is_short_and_checks_builds_simulates_and_diffs(name, tmp_path, capsys) -> None:
    spec = VARIANTS / f"{name}.aventuriers"
    assert len(spec.read_text(encoding="utf-8").splitlines()) <= (20 if name in MECHANISM_VARIANTS else 15)
    assert main(["check", str(spec)]) == 0
    assert main(["build", str(spec), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / name.replace("-", "_") / "engine.py").exists()
    assert main(["simulate", str(spec), "--games", "3", "--players", "3", "--seed", "1"]) == 0
    parent = PARENTS[name]
    capsys.readouterr()
    assert main(["diff", parent, str(spec)]) == 0
    assert "Aucune différence" not in capsys.readouterr().out


def test_europe_without_tunnels_has_no_tunnel_left(capsys) -> None:
    result, engine = compiled(VARIANTS / "europe-sans-tunnels.aventuriers")
    assert not any(route.get("tunnel") for route in engine.ROUTES.values())
    assert not hasattr(engine, "TUNNEL_REVEAL")
    assert len(engine.ROUTES) == 101 and sum(bool(r.get("ferry")) for r in engine.ROUTES.values()) == 13
    rules = result.sheet.split("## Annexe")[0]
    assert "Exemple de tunnel" not in rules and "Tunnels (18 sur le plateau)" not in rules
    main(["diff", "europe", str(VARIANTS / "europe-sans-tunnels.aventuriers")])
    out = capsys.readouterr().out
    assert "Ne sont plus des tunnels\u00a0: Angora – Constantinople, Angora – Smyrna," in out
    assert "Madrid – Pamplona (noir), Madrid – Pamplona (blanc)" in out


def test_usa_without_miami_drops_its_routes_and_tickets(capsys) -> None:
    _, engine = compiled(VARIANTS / "usa-sans-miami.aventuriers")
    assert len(engine.ROUTES) == 97 and len(engine.TICKETS) == 27
    assert not any("miami" in name for name in [*engine.ROUTES, *engine.TICKETS])
    main(["diff", "usa-classic", str(VARIANTS / "usa-sans-miami.aventuriers")])
    out = capsys.readouterr().out
    assert "Routes retirées (3)\u00a0: Atlanta – Miami, Charleston – Miami et Miami – New Orleans." in out
    assert (
        "Tickets retirés (3)\u00a0: Boston – Miami (12), Los Angeles – Miami (20) et Toronto – Miami (10)."
        in out
    )


def test_europe_without_long_tickets_deals_regular_tickets_only(capsys) -> None:
    """Issue 20, §3: once, this took a copy of the whole 312-line edition."""
    result, engine = compiled(VARIANTS / "europe-sans-longs.aventuriers")
    assert not hasattr(engine, "SETUP_LONG_TICKETS") and len(engine.TICKETS) == 40
    assert all(record.get("kind", "regular") == "regular" for record in engine.TICKETS.values())
    game = engine.new_game(3, 2)
    assert all(len(player["pending_tickets"]) == 3 for player in game.to_dict()["players"])
    assert "ticket long" not in result.sheet.split("## Annexe")[0]
    main(["diff", "europe", str(VARIANTS / "europe-sans-longs.aventuriers")])
    assert (
        "Tickets distribués : trois (au lieu de quatre, un long et trois ordinaires)."
        in capsys.readouterr().out
    )


def test_the_asia_board_without_teams_is_every_player_for_themselves() -> None:
    result, engine = compiled(VARIANTS / "asie-sans-equipes.aventuriers")
    assert not hasattr(engine, "TEAM_SIZE") and engine.PLAYERS == (2, 5) and engine.TRAINS == 45
    assert "share_tickets" not in {action["type"] for action in engine.ACTIONS}
    game = engine.new_game(3, 1)
    assert "teams" not in game.to_dict()
    rules = result.sheet.split("## Annexe")[0]
    assert "porte-cartes" not in rules
    assert "équipe" not in rules.replace("la règle d’équipe d’Asie", "")  # the rulebook it comes from


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("without score_example", None),
        ("without market_reset", None),
        (
            "without teams",
            "v.aventuriers:3:1: E308: l’édition héritée n’a pas de règle « teams » à retirer",
        ),
        (
            "without long_tickets",
            "v.aventuriers:3:1: E308: l’édition héritée n’a pas de « long_tickets » à retirer",
        ),
        (
            "without score_example x",
            "v.aventuriers:3:1: V206: « without score_example » retire toute la règle",
        ),
    ],
)
def test_without_drops_every_optional_rule(tmp_path, capsys, statement, expected) -> None:
    spec = write(tmp_path, "v", f"extends usa-2025\n{statement}\n")
    status = main(["check", str(spec)])
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    if expected is None:
        assert status == 0, err
    else:
        assert status == 1 and expected in err, err


def test_a_variant_without_the_market_reset_never_resets(tmp_path) -> None:
    result, engine = compiled(write(tmp_path, "calme", "extends usa-2025\nwithout market_reset\n"))
    assert engine.MARKET_LOCOMOTIVE_RESET is None
    assert "Les cartes visibles ne sont jamais renouvelées" in result.sheet


def test_change_ticket_kind_no_longer_clashes(tmp_path) -> None:
    spec = write(tmp_path, "genre", "extends europe\nchange ticket brest-petrograd kind: regular\n")
    result, engine = compiled(spec)
    assert engine.TICKETS["brest-petrograd"]["kind"] == "regular"


def test_europe_with_four_stations_plays_four() -> None:
    _, engine = compiled(VARIANTS / "europe-quatre-gares.aventuriers")
    assert engine.STATIONS == 4 and engine.STATION_COST == (1, 2, 3, 3)


def test_change_edits_one_inherited_route_or_ticket_by_id(tmp_path) -> None:
    spec = write(
        tmp_path,
        "retouches",
        "extends europe\n"
        "change route madrid-pamplona-black tunnel: no\n"
        "without tunnel_example\n"
        "change route amsterdam-london ferry: 0 length: 3\n"
        "change ticket brest-marseille points: 9\n",
    )
    _, engine = compiled(spec)
    assert engine.ROUTES["madrid-pamplona-black"]["tunnel"] is False
    assert engine.ROUTES["madrid-pamplona-white"]["tunnel"] is True
    assert (
        engine.ROUTES["amsterdam-london"]["ferry"] == 0 and engine.ROUTES["amsterdam-london"]["length"] == 3
    )
    assert engine.TICKETS["brest-marseille"]["points"] == 9


def test_without_drops_stations_and_what_depends_on_them(tmp_path) -> None:
    _, engine = compiled(write(tmp_path, "sans-gares", "extends europe\nwithout stations\nwithout ferries\n"))
    assert not hasattr(engine, "STATIONS")
    assert not any(route.get("ferry") for route in engine.ROUTES.values())
    assert "build_station" not in str(engine.new_game(2, 1).to_dict())


def test_a_bonus_is_repriced_by_its_points_alone(tmp_path) -> None:
    result, engine = compiled(
        write(tmp_path, "chemin-15", "extends usa-2025\nbonus longest_path {\n  points 15\n}\n")
    )
    assert engine.BONUSES["longest_path"][1] == 15
    assert "Chemin le plus long" in result.sheet


def test_a_table_a_variant_gives_replaces_the_inherited_one_whole(tmp_path) -> None:
    """A table (route points by length, a network's points by regions, a score table's rows) is a
    value: a variant's replaces its parent's whole, so a row left out is dropped (issue 37, §5)."""
    without_eight = (
        "extends europe\nwithout route petrograd-stockholm\nroute_points 1: 1, 2: 2, 3: 4, 4: 7, 6: 15\n"
    )
    result, engine = compiled(write(tmp_path, "sans-huit", without_eight))
    assert engine.ROUTE_POINTS == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15}
    assert "| Longueur | 1 | 2 | 3 | 4 | 6 |\n| --- | --- | --- | --- | --- | --- |\n" in result.sheet
    for name in ("usa-regions", "europe-grand-tour"):
        (tmp_path / f"{name}.aventuriers").write_text(
            (VARIANTS / f"{name}.aventuriers").read_text(encoding="utf-8"), encoding="utf-8"
        )
    _, engine = compiled(
        write(tmp_path, "deux-lignes", "extends usa-regions\nregions {\n  points 3: 4, 5: 12\n}\n")
    )
    assert engine.REGION_POINTS == ((3, 4), (5, 12))
    _, engine = compiled(
        write(
            tmp_path, "tour-court", "extends europe-grand-tour\nscore_table grand_tour {\n  points 2: 10\n}\n"
        )
    )
    assert engine.SCORE_TABLES == {"grand_tour": ("tickets_two_paths", ((2, 10),))}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("without route atlanta-miamy\n", "E308: aucune route « atlanta-miamy » à retirer"),
        ("change ticket boston-miamy points: 3\n", "E308: aucun ticket « boston-miamy » à changer"),
        ("change route atlanta-miami points: 3\n", "V201: « points » ne se change pas sur une route"),
        ("without tunnels\n", "E308: l’édition héritée n’a pas de règle « tunnels » à retirer"),
    ],
)
def test_edits_of_things_that_are_not_there_are_located(tmp_path, capsys, body, expected) -> None:
    spec = write(tmp_path, "v", "extends usa-2025\n" + body)
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "v.aventuriers:3:" in err and expected in err, err


def test_a_conflict_the_variant_causes_is_reported_at_its_line(tmp_path, capsys) -> None:
    spec = write(tmp_path, "v", "extends europe\nstations 4 unused_points: 5\n")
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert err.startswith(
        "v.aventuriers:3:1: E311: 4 gares, mais 3 coûts\n"
        "    3 | stations 4 unused_points: 5\n"
        "      | ^^^^^^^^\n"
        "      = aide : la valeur héritée est en editions/europe.aventuriers:18\n"
    ), err


def test_a_change_that_breaks_the_tunnel_example_is_blamed_on_the_change(tmp_path, capsys) -> None:
    spec = write(tmp_path, "v", "extends europe\nchange route madrid-pamplona-black tunnel: no\n")
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert err.startswith("v.aventuriers:3:36: E311: « madrid-pamplona-black » n’est pas un tunnel\n"), err
    assert "retirez aussi l’exemple : « without tunnel_example »" in err


def test_a_local_file_named_like_a_shipped_edition_extends_the_shipped_one(tmp_path, capsys) -> None:
    spec = write(tmp_path, "europe", 'extends europe\ntitle "Mon Europe"\n')
    assert main(["check", str(spec)]) == 0
    err = capsys.readouterr().err
    assert "W402: ce fichier porte le nom de l’édition livrée « europe »" in err
    assert "héritage circulaire" not in err


def test_regrouping_double_route_rules_is_a_change_not_a_removal(tmp_path, capsys) -> None:
    spec = write(
        tmp_path,
        "doubles-ouvertes",
        "extends usa-2025\ndouble_routes {\n  rule players: 2..5 twin: other_player\n}\n",
    )
    assert main(["diff", "usa-2025", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "supprimé" not in out and "plus dans cette édition" not in out
    assert "Routes doubles\u00a0: de 2 à 5 joueurs, l’autre voie reste ouverte (au lieu d" in out


def position(engine, routes: dict[int, list[str]]) -> dict:
    """A finished 2-player game where each player holds ``routes`` and no ticket."""
    state = engine.new_game(2, 0).to_dict()
    for player in range(2):
        owned = routes.get(player, [])
        record = state["players"][player]
        lengths = [engine.ROUTES[route]["length"] for route in owned]
        record.update(
            routes=owned,
            trains=engine.TRAINS - sum(lengths),
            score=sum(engine.ROUTE_POINTS[length] for length in lengths),
            tickets=[],
            pending_tickets=[],
        )
    state["ticket_deck"] = list(engine.TICKETS)
    state["phase"] = "over"
    return state


def test_most_routes_and_largest_network_are_bonus_measures() -> None:
    _, engine = compiled(VARIANTS / "usa-explorateurs.aventuriers")
    assert engine.BONUSES["most_routes"] == ("most_routes", 10)
    assert engine.BONUSES["largest_network"] == ("largest_network", 10)
    # Player 0: three short routes in three separate places; player 1: two routes joining three cities.
    game = engine.Game.from_dict(
        position(
            engine,
            {
                0: ["portland-seattle-1", "boston-new-york-red", "el-paso-santa-fe"],
                1: ["atlanta-charleston", "charleston-raleigh"],
            },
        )
    )
    first, second = game.scores()
    assert (first["routes_claimed"], second["routes_claimed"]) == (3, 2)
    assert (first["largest_network"], second["largest_network"]) == (2, 3)
    assert first["bonuses"].get("most_routes") == 10 and "most_routes" not in second["bonuses"]
    assert second["bonuses"].get("largest_network") == 10 and "largest_network" not in first["bonuses"]


def test_the_new_measures_are_shared_on_a_tie_and_withheld_at_zero() -> None:
    _, engine = compiled(VARIANTS / "usa-explorateurs.aventuriers")
    tied = engine.Game.from_dict(
        position(engine, {0: ["boston-new-york-red"], 1: ["atlanta-charleston"]})
    ).scores()
    assert all(score["bonuses"].get("most_routes") == 10 for score in tied)
    assert all(score["bonuses"].get("largest_network") == 10 for score in tied)
    nobody = engine.Game.from_dict(position(engine, {})).scores()
    assert all("most_routes" not in s["bonuses"] and "largest_network" not in s["bonuses"] for s in nobody)


def test_a_score_example_at_more_players_is_laid_out_and_scored(tmp_path) -> None:
    """Found by the fuzz: the example's third player kept dealt tickets, an impossible finished game."""
    spec = write(tmp_path, "exemple-a-trois", "extends usa-2025\nscore_example {\n  players 3\n}\n")
    result, _ = compiled(spec)
    assert "Total pour Alex\u00a0: 71 points." in result.sheet


def test_an_impossible_example_position_is_a_located_error(tmp_path, capsys) -> None:
    spec = write(
        tmp_path,
        "exemple-impossible",
        "extends usa-2025\nscore_example {\n  tickets [boston-miami, boston-miami]\n}\n",
    )
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "E311: l’exemple de score est refusé par le moteur : position impossible (" in err
    assert "Traceback" not in err


DESTINATIONS = Path(__file__).resolve().parent / "specs" / "broken" / "destinations.aventuriers"


def holding(engine, routes: list[str], tickets: list[str]):
    state = position(engine, {0: routes})
    state["players"][0]["tickets"] = tickets
    state["ticket_deck"] = [ticket for ticket in state["ticket_deck"] if ticket not in tickets]
    return engine.Game.from_dict(state)


def test_a_ticket_with_targets_scores_its_best_target_reached() -> None:
    _, engine = compiled(DESTINATIONS)
    assert engine.TICKETS["boston-chicago-denver"] == {
        "a": "Boston",
        "targets": {"Chicago": 3, "Denver": 6},
        "kind": "regular",
    }
    # Boston–Chicago and Chicago–Denver: both targets reached, the best (Denver, 6) scores.
    both = holding(engine, ["boston-chicago", "chicago-denver"], ["boston-chicago-denver"]).scores()[0]
    assert both["tickets_completed"] == [{"ticket": "boston-chicago-denver", "points": 6, "target": "Denver"}]
    # Only Chicago reached: its 3 points.
    one = holding(engine, ["boston-chicago"], ["boston-chicago-denver"]).scores()[0]
    assert one["tickets_completed"] == [{"ticket": "boston-chicago-denver", "points": 3, "target": "Chicago"}]
    assert one["total"] == one["route_points"] + 3 + sum(one["bonuses"].values())


def test_a_ticket_with_no_target_reached_loses_its_lowest() -> None:
    _, engine = compiled(DESTINATIONS)
    none = holding(engine, ["chicago-denver"], ["boston-chicago-denver"]).scores()[0]
    assert none["tickets_completed"] == []
    assert none["tickets_failed"] == [{"ticket": "boston-chicago-denver", "points": 3}]
    assert none["total"] == none["route_points"] - 3 + sum(none["bonuses"].values())


def test_a_ticket_with_targets_is_written_one_way_or_the_other(tmp_path, capsys) -> None:
    base = (Path(__file__).resolve().parent / "specs" / "broken" / "tiny.aventuriers").read_text(
        encoding="utf-8"
    )
    (tmp_path / "tiny.aventuriers").write_text(base, encoding="utf-8")
    spec = write(
        tmp_path,
        "v",
        'extends tiny\ntickets {\n  ticket "Atlanta" "Chicago" 5\n  ticket "Boston" "Denver" 4\n'
        '  ticket "Chicago" "Atlanta" 3\n  ticket "Boston" "Denver" 2 {\n    target "Chicago" 3\n'
        '    target "Denver" 6\n  }\n  ticket "Denver"\n  ticket "Atlanta" {\n    target "Paris" 3\n'
        '    target "Atlanta" 4\n  }\n}\n',
    )
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    both = "E311: un ticket relie deux villes (« ticket A B POINTS ») ou donne ses destinations (« target »)"
    assert f"v.aventuriers:7:3: {both}" in err and f"v.aventuriers:11:3: {both}" in err
    assert "v.aventuriers:13:12: E301: ville inconnue « Paris »" in err
    assert "v.aventuriers:14:12: E311: une destination ne mène pas à sa propre ville" in err


def test_the_sheet_and_the_diff_explain_tickets_with_targets(capsys) -> None:
    result, _ = compiled(DESTINATIONS)
    assert "5 tickets Destination, dont 2 à plusieurs destinations" in result.sheet
    assert (
        "Tu marques ceux de la mieux payée que ton point de départ (une ville, ou un pays) rejoint"
        in result.sheet
    )
    main(["diff", str(DESTINATIONS.with_name("tiny.aventuriers")), str(DESTINATIONS)])
    out = capsys.readouterr().out
    assert "Boston – Chicago 3 ou Denver 6" in out


PAYS = DESTINATIONS.with_name("pays.aventuriers")


def test_a_route_to_a_country_ends_at_one_of_its_arrows() -> None:
    _, engine = compiled(PAYS)
    assert engine.ROUTES["boston-xland-1"] == {
        "a": "Boston",
        "b": "Xland",
        "length": 1,
        "color": "red",
        "twin": None,
        "endpoint": "Xland#1",
    }
    assert engine.ROUTES["boston-chicago"]["endpoint"] is None
    assert engine.COUNTRIES == {"Xland": ("Xland#1", "Xland#2"), "Yland": ("Yland#1",), "Zland": ("Zland#1",)}


def test_no_path_runs_through_a_country() -> None:
    _, engine = compiled(PAYS)
    # Boston and Denver both reach Xland, by two arrows: not joined, and no trail crosses Xland.
    score = holding(engine, ["boston-xland-1", "denver-xland-2"], ["boston-denver"]).scores()[0]
    assert score["tickets_failed"] == [{"ticket": "boston-denver", "points": 4}]
    assert score["longest_path"] == 2 and score["largest_network"] == 2
    # The same two cities joined by a route: the ticket is met.
    joined = holding(engine, ["boston-chicago", "chicago-denver"], ["boston-denver"]).scores()[0]
    assert joined["tickets_completed"] == [{"ticket": "boston-denver", "points": 4}]


def test_tickets_to_countries_score_the_best_country_reached() -> None:
    _, engine = compiled(PAYS)
    city = holding(engine, ["chicago-denver", "denver-xland-2"], ["chicago-xland-yland"]).scores()[0]
    assert city["tickets_completed"] == [{"ticket": "chicago-xland-yland", "points": 4, "target": "Xland"}]
    country = holding(
        engine, ["boston-xland-1", "atlanta-boston-red", "atlanta-yland-1"], ["xland-yland-zland"]
    ).scores()[0]
    assert country["tickets_completed"] == [{"ticket": "xland-yland-zland", "points": 5, "target": "Yland"}]
    lost = holding(engine, ["boston-xland-1"], ["xland-yland-zland"]).scores()[0]
    assert lost["tickets_failed"] == [{"ticket": "xland-yland-zland", "points": 3}]
    assert engine.TICKETS["xland-yland-zland"]["kind"] == "country_to_countries"
    assert engine.TICKETS["chicago-xland-yland"]["kind"] == "city_to_countries"


def test_countries_and_arrows_are_checked(tmp_path, capsys) -> None:
    base = PAYS.with_name("tiny.aventuriers").read_text(encoding="utf-8")
    (tmp_path / "tiny.aventuriers").write_text(base, encoding="utf-8")
    body = PAYS.read_text(encoding="utf-8").split("\n", 2)[2]
    body = body.replace('"Denver" "Xland#2"', '"Denver" "Xland#3"').replace(
        'route "Atlanta" "Yland#1" 1 blue', 'route "Xland#1" "Yland#1" 1 blue'
    )
    spec = write(tmp_path, "v", body.replace('country "Zland" arrows: 1', 'country "Denver" arrows: 1'))
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "E302: « Denver » est déjà déclaré" in err
    assert "E301: ville inconnue « Xland#3 »" in err
    assert "E311: une route part d’une ville : pas de route entre deux pays" in err


def test_switzerland_with_locomotives_that_pay_everything_is_a_few_lines(tmp_path) -> None:
    spec = VARIANTS / "suisse-locomotives.aventuriers"
    assert len(spec.read_text(encoding="utf-8").splitlines()) <= 15
    result, engine = compiled(spec)
    assert engine.COLORS[-1] == "locomotive" and "joker_tunnels_only" not in engine.MESSAGES
    state = engine.new_game(2, 1).to_dict()
    for player in state["players"]:
        state["ticket_deck"] += player["pending_tickets"]
        player["pending_tickets"] = []
    state.update(phase="turn", current_player=0)
    state["players"][0]["hand"] = {"locomotive": 1}
    game = engine.Game.from_dict(state)
    game.apply({"type": "claim_route", "route": "bern-fribourg-orange", "cards": {"locomotive": 1}})
    assert game.to_dict()["players"][0]["routes"] == ["bern-fribourg-orange"]
    assert "les locomotives remplacent n’importe quelle couleur." in result.sheet


MECHANISM_VARIANTS = (
    "usa-montagnes",
    "europe-grand-tour",
    "suisse-paiements-nordiques",
    "usa-ponts",
    "usa-or",
    "europe-voyageurs",
    "usa-regions",
    "usa-actions",
    "suisse-route-publique",
    "europe-cartes-ferry",
    "asie-dernier-tour-chacun",
    "usa-deux-pioches",
)


@pytest.mark.parametrize("name", MECHANISM_VARIANTS)
def test_a_variant_mixing_mechanisms_plays_its_cases(name) -> None:
    """Mechanisms of one published edition on another's board, by declarations only: each
    variant's cases (beside it, accepted and refused) run on its engine."""
    _, engine = compiled(VARIANTS / f"{name}.aventuriers")
    cases = yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))["cases"]
    for case in cases:
        run_case(engine, case)


def test_usa_with_mountains_states_them() -> None:
    result, engine = compiled(VARIANTS / "usa-montagnes.aventuriers")
    assert engine.ROUTES["denver-salt-lake-city-red"]["mountain"] == 2
    assert engine.ROUTES["atlanta-miami"]["mountain"] == 0
    rules, annex = result.sheet.split("## Annexe")
    assert "Chaque montagne d’une route coûte un wagon de plus" in rules
    assert (
        "4 routes (5 voies) avec des montagnes (7 montagnes en tout, une croix sur le plateau pour chacune)"
        in rules
    )
    assert "Denver – Salt Lake City (rouge)\u00a0: 2 montagnes." in annex


PASSES = 'extends usa-2025\nboard {\n  property pass default: 0 french: "col" feminine: no\n}\nclaim_effect passes per: pass trains: 1\n'


def test_a_route_propertys_french_noun_reads_right_on_the_sheet(tmp_path) -> None:
    """A property's French name is a noun for what a route carries (issue 37, §5): masculine, one
    of them, or yes/no, each material line reads as French."""
    passes = (
        PASSES
        + "change route denver-salt-lake-city-red pass: 2\nchange route helena-salt-lake-city pass: 1\n"
    )
    result, _ = compiled(write(tmp_path, "cols", passes))
    assert (
        "- 2 routes avec des cols (3 cols en tout, une croix sur le plateau pour chacun)\u202f;\n"
        in result.sheet
    )
    result, _ = compiled(write(tmp_path, "un-col", PASSES + "change route helena-salt-lake-city pass: 1\n"))
    assert "- 1 route avec un col (une croix sur le plateau)\u202f;\n" in result.sheet
    curse = 'extends usa-2025\nboard {\n  property cursed default: no french: "malédiction"\n}\n'
    curse += "claim_effect curse per: cursed points: -2\nchange route helena-salt-lake-city cursed: yes\n"
    result, _ = compiled(write(tmp_path, "maudite", curse))
    assert "- 1 route avec une malédiction\u202f;\n" in result.sheet
    assert "Une route avec une malédiction fait perdre aussitôt 2 points.\n" in result.sheet


def test_europe_with_the_grand_tour_states_it() -> None:
    result, engine = compiled(VARIANTS / "europe-grand-tour.aventuriers")
    assert engine.SCORE_TABLES == {
        "grand_tour": ("tickets_two_paths", ((1, 5), (2, 10), (3, 20), (4, 30), (5, 40)))
    }
    rules = result.sheet.split("## Annexe")[0]
    assert "## Grand Tour" in rules
    assert "Les routes empruntées par une gare ne comptent pas pour les deux chemins." in rules


def test_bridges_a_rule_no_edition_has_are_stated() -> None:
    """Written with the language's declarations only: a property, a claim effect, six changes."""
    result, engine = compiled(VARIANTS / "usa-ponts.aventuriers")
    assert engine.CARD_EFFECTS == {"bridges": ("bridge", 1)}
    rules, annex = result.sheet.split("## Annexe")
    assert (
        "Une route avec un pont coûte une carte de plus, de n’importe quelle couleur, donnée après les "
        "cartes de la route, et rapporte aussitôt 2 points." in rules
    )
    assert "- 5 routes (6 voies) avec un pont" in rules
    assert "Little Rock – Nashville\u00a0: pont." in annex


def test_switzerland_with_nordic_payments_states_them() -> None:
    """The sheet says each payment rule with the edition's own joker card, the tunnel card."""
    result, _ = compiled(VARIANTS / "suisse-paiements-nordiques.aventuriers")
    sheet = result.sheet.replace("\u202f", " ").replace("\u00a0", " ")  # French spacing, as typed
    assert "mais sur un tunnel ou un ferry seulement : jamais sur une route ordinaire" in sheet
    assert "Ferries : une route marquée d’une locomotive se paie avec au moins une carte Tunnel" in sheet
    assert "Au lieu de chaque carte Tunnel qu’un ferry demande, tu peux donner trois cartes" in sheet
    assert (
        "Sur Genève – Yverdon, chaque carte de la couleur payée peut être remplacée par quatre cartes"
        in sheet
    )
    assert "Les cartes visibles ne sont jamais renouvelées" in sheet


def test_gold_nuggets_a_rule_no_edition_has_are_stated_and_scored() -> None:
    """Written with the language's declarations only (issue 24, §3): five tokens on five cities,
    taken by the routes that reach them, 15 points to whoever holds the most."""
    result, engine = compiled(VARIANTS / "usa-or.aventuriers")
    assert engine.TOKENS == {
        "gold": {
            "kinds": {"gold": 5},
            "on": {"Denver": 1, "Helena": 1, "Salt Lake City": 1, "San Francisco": 1, "Phoenix": 1},
            "majority": (15,),
        }
    }
    assert engine.majority_points([2, 2, 1, 0], (15,)) == [15, 15, 0, 0]
    rules, annex = result.sheet.split("## Annexe")
    rules, annex = (text.replace("\u202f", " ").replace("\u00a0", " ") for text in (rules, annex))
    assert "- 5 pépites ;" in rules
    assert (
        "Pose les pépites sur les villes : 1 à Denver, 1 à Helena, 1 à Salt Lake City, 1 à San Francisco "
        "et 1 à Phoenix." in rules
    )
    assert (
        "Quand tu prends une route, prends une pépite dans chacune de ses deux villes qui en a encore."
        in rules
    )
    assert (
        "Majorités de pépites : le joueur qui en a le plus marque 15 points. Il faut en avoir au moins une "
        "pour marquer. À égalité, chacun des joueurs à égalité les marque." in rules
    )
    assert "| Alice | 2 | 15 |" in rules and "| Chloé | 1 | 0 |" in rules
    # What the mechanism states is a rule, said with the rules, not a decision (issue 37, §2).
    assert "Tes pépites restent devant toi, visibles de tous." in rules
    assert "restent visibles de tous, et leur nombre aussi" not in rules
    assert "- Majorités de pépites : 15 points (nouveau)." in annex


def test_europe_with_passengers_states_the_choice_and_the_majorities() -> None:
    result, engine = compiled(VARIANTS / "europe-voyageurs.aventuriers")
    assert engine.majority_points([3, 3, 2, 1], (20, 10)) == [20, 20, 0, 0]
    assert engine.majority_points([3, 2, 2, 0], (20, 10)) == [20, 10, 10, 0]
    assert engine.majority_points([0, 0], (20, 10)) == [0, 0]
    rules = result.sheet.split("## Annexe")[0].replace("\u202f", " ").replace("\u00a0", " ")
    assert "- 24 voyageurs : 8 rouges, 8 bleus et 8 noirs ;" in rules
    assert "Pose au hasard les voyageurs sur les villes : 4 à Paris, 4 à Berlin," in rules
    assert (
        "Quand tu prends une route, prends un voyageur dans chacune de ses deux villes qui en a encore, de "
        "la couleur de ton choix." in rules
    )
    assert (
        "Majorités de voyageurs : pour chaque couleur de voyageurs, le joueur qui en a le plus marque 20 "
        "points, le deuxième 10." in rules
    )
    assert (
        "Quatre joueurs finissent avec 2, 2, 1 et 0 voyageurs rouges : Alice 20 points et Bruno 20 points ; "
        "les autres ne marquent rien." in rules
    )


def _one_blue_passenger_made_red(state: dict) -> None:
    paris = state["tokens"]["passengers"]["Paris"]
    paris["blue"] -= 1
    paris["red"] = paris.get("red", 0) + 1


def _a_choice_where_no_token_lies(state: dict) -> None:
    """Paris's passengers moved to Berlin (the totals kept), and a choice asked at Paris."""
    board = state["tokens"]["passengers"]
    for kind, number in board.pop("Paris").items():
        board["Berlin"][kind] = board["Berlin"].get(kind, 0) + number
    state.update(phase="take_token", token_choices=[{"tokens": "passengers", "city": "Paris"}])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s["tokens"]["passengers"]["Paris"].update(red=30),
            "tokens.passengers et players[…].tokens.passengers font 52, quand ils doivent faire au plus 24",
        ),
        (
            _one_blue_passenger_made_red,
            "9 jetons «\u00a0red\u00a0» de passengers en jeu, quand l’édition en a 8",
        ),
        (
            lambda s: s["players"][0].update(tokens={"passengers": {"green": 1}}),
            "players[0].tokens.passengers doit être un dict dont les clés sont parmi red, blue, black, pas {'green': 1}",
        ),
        (
            lambda s: s["players"][0].update(tokens={"nuggets": {}}),
            "players[0].tokens doit être un dict dont les clés sont parmi passengers, pas {'nuggets': {}}",
        ),
        (
            lambda s: s["players"][0].update(tokens={"passengers": {"red": -1}}),
            "players[0].tokens.passengers.red doit être un entier d’au moins 0, pas -1",
        ),
        (
            lambda s: s["tokens"]["passengers"].update(Lyon={}),
            "tokens.passengers doit être un dict dont les clés sont parmi Paris, Berlin, Wien, Roma, Madrid, London, Moskva, Constantinople, Budapest, München, pas",
        ),
        (
            lambda s: s.update(tokens=[]),
            "tokens doit être un dict dont les clés sont parmi passengers, pas []",
        ),
        (
            lambda s: s.update(token_choices=[{"tokens": "passengers", "city": "Paris"}]),
            "token_choices n’est pas vide si et seulement si la phase est take_token",
        ),
        (
            lambda s: s.update(phase="take_token", token_choices=[["passengers"]]),
            "un choix de token_choices nomme tokens et city, pas ['passengers']",
        ),
        (
            lambda s: s.update(phase="take_token", token_choices=[{"tokens": "passengers", "city": "Lyon"}]),
            "un choix de token_choices nomme tokens et city parmi ceux de l’édition, pas {'tokens': 'passengers', 'city': 'Lyon'}",
        ),
        (
            _a_choice_where_no_token_lies,
            "un choix de jeton à 'Paris' demande des jetons de deux sortes à cet endroit",
        ),
    ],
)
def test_a_state_with_tokens_the_edition_cannot_reach_is_refused(change, message) -> None:
    _, engine = compiled(VARIANTS / "europe-voyageurs.aventuriers")
    state = engine.new_game(2, 1).to_dict()
    for player in state["players"]:  # on to the first turn, each ticket back in the deck
        state["ticket_deck"] += player["pending_tickets"]
        player["pending_tickets"] = []
    state["phase"] = "turn"
    engine.Game.from_dict(state)
    change(state)
    with pytest.raises(ValueError) as error:
        engine.Game.from_dict(state)
    assert str(error.value).startswith("état impossible pour europe-voyageurs\u00a0: " + message)


@pytest.mark.parametrize(
    "name", ["usa-or", "europe-voyageurs", "usa-actions", "suisse-route-publique", "europe-cartes-ferry"]
)
def test_the_economies_on_other_boards_keep_their_invariants_and_are_native(name) -> None:
    """Every token placed at set-up stays on its city or in a player's hands, every share and
    public piece is somewhere, at every step of random games (the invariants of every engine);
    and the native engine covers these variants (`test_a_mechanism_variant_plays_natively_as_in_python`
    plays them against the pure one)."""
    from aventuriers.compiler.build import compile_ir
    from aventuriers.compiler.emit.native_core import unsupported

    from .engines import play_random, seats

    result, engine = compiled(VARIANTS / f"{name}.aventuriers")
    for seed in range(12):
        play_random(engine, seats(engine, 2 + seed % 4), seed, check_every_step=True)
    assert unsupported(compile_ir(VARIANTS / f"{name}.aventuriers", loader())) is None


def test_every_shipped_edition_has_a_native_engine() -> None:
    """Germany's two decks of tickets were the last rules the native core lacked (issue 38, §2);
    what it still lacks (team play with tunnels) is said by the build (`tests/test_teams.py`)."""
    from aventuriers.compiler.build import compile_ir
    from aventuriers.compiler.emit.native_core import unsupported

    from .engines import EDITIONS

    editions = loader()
    lacking = {name: unsupported(compile_ir(editions.path_of(name), editions)) for name in EDITIONS}
    assert {name: why for name, why in lacking.items() if why} == {}


def test_a_refused_token_says_why_in_french() -> None:
    _, engine = compiled(VARIANTS / "europe-voyageurs.aventuriers")
    given = {
        "players": {0: {"hand": {"black": 3}}},
        "tokens": {"passengers": {"Paris": {"red": 1, "blue": 1}}},
    }
    game = engine.Game.from_dict(start_state(engine, {"given": given}))
    game.apply({"type": "claim_route", "route": "brest-paris", "cards": {"black": 3}})
    refusals = {
        "draw": ({"type": "draw_card", "source": "deck"}, "Prends d’abord un voyageur à Paris."),
        "city": (
            {"type": "take_token", "city": "Berlin", "kind": "red"},
            "C’est à Paris que tu prends un voyageur, pas à «\u00a0Berlin\u00a0».",
        ),
        "kind": (
            {"type": "take_token", "city": "Paris", "kind": "black"},
            "Il n’y a pas de jeton «\u00a0black\u00a0» à prendre à Paris.",
        ),
    }
    for action, message in refusals.values():
        with pytest.raises(engine.IllegalAction) as refused:
            game.apply(action)
        assert refused.value.message == message
    game.apply({"type": "take_token", "city": "Paris", "kind": "red"})
    with pytest.raises(engine.IllegalAction) as refused:
        game.apply({"type": "take_token", "city": "Paris", "kind": "blue"})
    assert (refused.value.code, refused.value.message) == (
        "no_token_to_take",
        "Aucun jeton n’attend d’être pris.",
    )


def test_regions_score_each_network_and_are_stated() -> None:
    """Written with the language's declarations only (issue 24): regions on the USA board, each
    network scoring by the regions it reaches, the Canada counting double when whole."""
    result, engine = compiled(VARIANTS / "usa-regions.aventuriers")
    assert engine.REGION_POINTS == ((3, 4), (4, 8), (5, 12), (6, 18), (7, 25))
    assert engine.REGIONS["canada"]["whole_counts"] == 2
    assert [engine.region_points(count) for count in (2, 3, 6, 7, 9)] == [0, 4, 18, 25, 25]
    rules, annex = result.sheet.split("## Annexe")
    rules, annex = (text.replace("\u202f", " ").replace("\u00a0", " ") for text in (rules, annex))
    assert (
        "- 6 régions : le Canada (Calgary, Montréal, Sault St. Marie, Toronto, Vancouver et Winnipeg),"
        in rules
    )
    assert (
        "Régions : à la fin, chacun de tes réseaux (les villes que tes routes relient entre elles) rapporte les "
        "points du tableau « Régions » selon le nombre de régions qu’il touche ; le Canada compte pour deux quand "
        "le réseau relie toutes ses villes. Chaque réseau compte à part." in rules
    )
    assert "| 7 et plus | 25 |" in rules
    assert (
        "Un réseau qui touche toutes les régions du plateau (elles comptent alors pour 7) rapporte 25 points"
        in rules
    )
    # The score example, scored by the engine: the network, the regions it reaches, their points.
    assert "Son réseau touche trois régions (l’Est, les Grandes Plaines et le Sud) : 4 points" in rules
    assert "- Régions par réseau : 3 → 4, 4 → 8, 5 → 12, 6 → 18, 7 → 25 points ; le Canada compte" in annex


def test_shares_on_the_usa_are_stated_and_scored() -> None:
    """Pennsylvania's shares on ten routes of the USA (issue 24, §3), by declarations only."""
    result, engine = compiled(VARIANTS / "usa-actions.aventuriers")
    assert engine.SHARES["prr"]["points"] == (30, 21, 14, 9, 6)
    assert engine.share_points([[2, 5], [1, 4], [3]], (30, 21, 14, 9, 6)) == [21, 30, 14]
    assert engine.share_points([[], [1]], (10, 6, 3)) == [0, 10]
    rules, annex = result.sheet.split("## Annexe")
    rules, annex = (text.replace("\u202f", " ").replace("\u00a0", " ") for text in (rules, annex))
    assert (
        "- 30 cartes Action de trois compagnies : 15 de la Pennsylvania Railroad, 10 de la Baltimore \\& Ohio "
        "et 5 de la New York Central ;" in rules
    )
    assert (
        "tu peux aussi prendre la carte Action du dessus de la pile de l’une d’elles, celle de plus petit "
        "numéro, ou n’en prendre aucune." in rules
    )
    assert "à égalité, celui qui a l’action de plus petit numéro passe devant." in rules
    assert "Bruno marque 30 points, Alice 21 et Chloé 14." in rules
    assert "| La Pennsylvania Railroad | 15 | 30 / 21 / 14 / 9 / 6 |" in rules
    assert (
        "- Prendre une route à logos : au choix, la carte Action du dessus d’une de ses compagnies, ou aucune "
        "(nouveau)." in annex
    )
    assert (
        "À deux joueurs, un joueur fictif prend aussi des actions : chaque fois que tu prends une carte "
        "Action, choisis-en une pour lui parmi les compagnies de la route qui en ont encore" in rules
    )


def test_the_dummy_shareholder_plays_at_two_players_only() -> None:
    _, engine = compiled(VARIANTS / "usa-actions.aventuriers")
    assert engine.SHARE_DUMMY == 2
    assert "dummy_shares" in engine.new_game(2, 1).to_dict()
    state = start_state(engine, {"players": 3})
    assert "dummy_shares" not in state
    state["dummy_shares"] = {}
    with pytest.raises(ValueError, match="dummy_shares n’existe qu’à 2 joueurs"):
        engine.Game.from_dict(state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["players"][0].update(shares={"prr": [1, 1]}), "le numéro 1 de prr est détenu deux fois"),
        (lambda s: s["players"][0].update(shares={"prr": [16]}), "players\\[0\\].shares.prr"),
        (
            lambda s: s["players"][0].update(shares={"up": [1]}),
            "shares doit être un dict dont les clés sont parmi",
        ),
        (lambda s: s.update(phase="take_share", share_choices=["prr"]), "au moins deux compagnies"),
        (
            lambda s: s["players"][0].update(shares={"prr": [3]}),
            "le numéro 3 de prr est détenu, mais shares_taken n’en compte que 0",
        ),
        (lambda s: s.update(shares_taken={"prr": 16}), "shares_taken.prr"),
        (lambda s: s.update(share_choices=["prr", "nyc"]), "si et seulement si la phase est take_share"),
        (lambda s: s.update(phase="take_share", share_choices=["prr"]), "au moins deux compagnies"),
        (
            lambda s: s.update(phase="take_share", share_choices=["prr", ["x"]]),
            "share_choices doit être une liste parmi prr, bo, nyc",
        ),
        (
            lambda s: s.update(dummy_shares={"prr": [1]}),
            "le numéro 1 de prr est détenu, mais shares_taken n’en compte que 0",
        ),
        (
            lambda s: (
                s.update(shares_taken={"prr": 1}, dummy_shares={"prr": [1]})
                or s["players"][0].update(shares={"prr": [1]})
            ),
            "le numéro 1 de prr est détenu deux fois",
        ),
        (lambda s: s.update(dummy_choices=["prr", "nyc"]), "si et seulement si la phase est dummy_share"),
        (
            lambda s: s.update(dummy_shares=[]),
            "dummy_shares doit être un dict dont les clés sont parmi prr, bo, nyc",
        ),
    ],
)
def test_a_state_with_shares_the_edition_cannot_reach_is_refused(change, message) -> None:
    _, engine = compiled(VARIANTS / "usa-actions.aventuriers")
    state = start_state(engine, {})
    engine.Game.from_dict(state)
    change(state)
    with pytest.raises(ValueError, match=message):
        engine.Game.from_dict(state)


# -- the mechanism variants' native engines ---------------------------------------------------


def _native_variants() -> list[str]:
    """The mechanism variants the native engine covers (`unsupported` says None)."""
    from aventuriers.compiler.build import compile_ir
    from aventuriers.compiler.emit.native_core import unsupported

    editions = loader()
    return [
        name
        for name in MECHANISM_VARIANTS
        if unsupported(compile_ir(VARIANTS / f"{name}.aventuriers", editions)) is None
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", _native_variants())
def test_a_mechanism_variant_plays_natively_as_in_python(name, tmp_path) -> None:
    """A mechanism on another edition's board, built natively: every case, the same legal
    actions and state at every step of random games, the same playouts and score records."""
    import json
    import os
    import random

    from aventuriers.compiler.native import missing_toolchain

    from .engines import load_native

    lacking = missing_toolchain()
    if lacking is not None and os.environ.get("AVENTURIERS_NATIVE_TESTS") != "required":
        pytest.skip(f"pas de construction native ici : {lacking}")
    out = tmp_path / "generated"
    assert main(["build", str(VARIANTS / f"{name}.aventuriers"), "--out", str(out), "--native"]) == 0
    native = load_native(out / name.replace("-", "_"), f"variant_{name.replace('-', '_')}")
    assert native is not None, f"{name}: no native engine built"
    pure = native._pure
    for case in yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))["cases"]:
        run_case(native, case)
    low, high = pure.PLAYERS
    for seed in range(24):
        players = low + seed % (high - low + 1)
        if players % getattr(pure, "TEAM_SIZE", 1):
            continue
        fast, slow = native.new_game(players, seed), pure.new_game(players, seed)
        rng = random.Random(seed)
        while not slow.is_over():
            actions = slow.legal_actions()
            assert fast.to_dict() == slow.to_dict() and fast.legal_actions() == actions, seed
            action = actions[rng.randrange(len(actions))]
            fast.apply(action)
            slow.apply(action)
        assert fast.is_over() and json.dumps(fast.scores()) == json.dumps(slow.scores())
        first, second = native.new_game(players, seed), pure.new_game(players, seed)
        first.playout(random.Random(seed))
        second.playout(random.Random(seed))
        assert json.dumps(first.to_dict()) == json.dumps(second.to_dict()), seed
        assert (
            json.dumps(first.scores()) == json.dumps(second.scores()) and first.winners() == second.winners()
        )
