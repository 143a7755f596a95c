"""Stage 4b: the semantic checks of a merged edition document.

What a schema cannot say: names that must exist (cities, bonuses, routes of
the example), names that must be unique, counts that must agree, numbers
that must fit together. Every finding is located; "did you mean" where it helps.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .build_ir import arrows_of, assign_ids, selected
from .diagnostics import Code, Diagnostic, did_you_mean
from .lower import Document, JsonPath
from .positions import Span


def check(document: Document) -> list[Diagnostic]:
    """The semantic checks of a merged edition document."""
    return _Checker(document).run()


class _Checker:
    def __init__(self, document: Document):
        self.document = document
        self.data = document.data
        self.found: list[Diagnostic] = []

    def report(self, code: Code, message: str, path: JsonPath, hint: str | None = None) -> None:
        """Report at ``path``; a conflict between an inherited value and the edition's own
        statements is reported at the edition's statement, with a note saying where the
        inherited value stands."""
        span = self.document.span(path)
        local = self.local_cause(path) if span.source.name != self.document.source.name else None
        if local is not None:
            note = f"la valeur héritée est en {span.short}"
            hint, span = (f"{hint} ; {note}" if hint else note), local
        self.found.append(Diagnostic(code=code, message=message, span=span, hint=hint))

    def local_cause(self, path: JsonPath) -> Span | None:
        """The edition's own statement nearest to ``path``, when it has one there."""
        own = self.document.source.name
        for end in range(len(path), 0, -1):
            span = self.document.spans.get(tuple(path[:end]))
            if span is not None and span.source.name == own:
                return span
        return self.document.edits.get(str(path[0])) if path else None

    def has(self, *paths: str) -> bool:
        """Whether every dotted path is declared: an abstract base may leave some to its children."""
        for path in paths:
            node = self.data
            for step in path.split("."):
                if not isinstance(node, dict) or step not in node:
                    return False
                node = node[step]
        return True

    def run(self) -> list[Diagnostic]:
        board = self.has("board.city", "board.route", "route_points", "cards")
        if not self.has("board.city"):
            return self.found  # nothing else can be checked without the cities
        cities = self.check_cities()
        countries = self.check_countries(cities)
        arrows = list(arrows_of(self.data["board"]))
        route_ids = self.check_routes(cities, arrows) if board else []
        ticket_ids = self.check_tickets(cities + countries) if self.has("tickets.ticket") else []
        if self.has("players", "double_routes.rule"):
            self.check_players()
        if self.has(
            "setup.tickets", "setup.train_cards", "setup.market", "players", "cards", "tickets", "turn"
        ):
            self.check_setup()
        self.check_bonuses()
        if self.has("players"):
            self.check_example(route_ids, ticket_ids)
        if board and self.has("setup.tickets", "tickets.ticket", "turn", "players"):
            self.check_mechanisms(route_ids)
        if self.has("players", "turn", "setup.tickets", "end", "double_routes.rule"):
            self.check_teams()
        if "stand_in" in self.data["board"]:
            self.report(
                Code.STAND_IN_BOARD,
                f"plateau de remplacement : {self.data['board']['stand_in']}",
                ("board", "stand_in"),
            )
        return self.found

    def check_teams(self) -> None:
        """Team play: player counts the teams divide, shares the kept tickets allow, and the
        team-only rules (sharing tickets, team trains, doubles closed to a team) only with teams."""
        data = self.data
        teams = data.get("teams")
        team_only = [("turn", "share_tickets")] if "share_tickets" in data["turn"] else []
        if data["end"].get("trains_of") == "team":
            team_only.append(("end", "trains_of"))
        team_only += [
            ("double_routes", "rule", i, "twin")
            for i, rule in enumerate(data["double_routes"]["rule"])
            if rule["twin"] == "other_team"
        ]
        if teams is None:
            for path in team_only:
                self.report(
                    Code.INCONSISTENT_RULE,
                    f"« {path[-1]} » ne se joue qu’en équipes",
                    path,
                    hint="déclarez les équipes : « teams 2 … »",
                )
            return
        size, players = teams["size"], data["players"]
        if not any(count % size == 0 for count in range(players["min"], players["max"] + 1)):
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"aucun nombre de joueurs de {players['min']} à {players['max']} ne forme des équipes de {size}",
                ("teams", "size"),
            )
        if "stations" in data:
            self.report(
                Code.INCONSISTENT_RULE,
                "les gares ne se jouent pas en équipes",
                ("teams",),
                hint="« without stations »",
            )
        if teams["share_at_setup"] > data["setup"]["tickets"]["keep_at_least"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager à la mise en place plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_setup"),
            )
        draw = data["turn"].get("draw_tickets")
        if draw and teams["share_at_draw"] > draw["keep_at_least"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager après une pioche plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_draw"),
            )

    def check_joker(self) -> None:
        """Exactly one joker card in the deck, the one `joker` declares (a locomotive by default)."""
        joker = self.data.get("joker", {}).get("card", "locomotive")
        jokers = [card for card in ("locomotive", "tunnel") if self.data["cards"].get(card)]
        if jokers != [joker]:
            self.report(
                Code.INCONSISTENT_RULE,
                f"le paquet doit avoir une seule sorte de joker, « {joker} »"
                + (f" (trouvé : {', '.join(jokers)})" if jokers else " (absent)"),
                ("joker",) if "joker" in self.data else ("cards",),
                hint="« joker tunnel pays: tunnels » avec « cards { … tunnel 14 } »",
            )
        if self.data.get("joker", {}).get("pays") == "tunnels":
            if "tunnels" not in self.data:
                self.report(
                    Code.INCONSISTENT_RULE,
                    "un joker qui ne paie que les tunnels demande « tunnels »",
                    ("joker",),
                )
            if any(route.get("ferry") for route in self.data["board"]["route"]):
                self.report(
                    Code.INCONSISTENT_RULE,
                    "un ferry se paie en locomotives : il demande un joker qui paie toutes les routes",
                    ("joker",),
                    hint="« without ferries »",
                )

    def check_mechanisms(self, route_ids: list[str]) -> None:
        """Tunnels, ferries, stations and long tickets: each declared where it is used."""
        data = self.data
        self.check_joker()
        routes = data["board"]["route"]
        for index, route in enumerate(routes):
            path = ("board", "route", index)
            if route.get("reveal") and not route.get("tunnel"):
                self.report(
                    Code.INCONSISTENT_RULE,
                    "seul un tunnel retourne des cartes (« reveal »)",
                    path + ("reveal",),
                )
            if route.get("tunnel") and "tunnels" not in data:
                self.report(
                    Code.INCONSISTENT_RULE,
                    "une route tunnel demande la règle « tunnels »",
                    path + ("tunnel",),
                )
            if route.get("ferry", 0) > route["length"]:
                self.report(
                    Code.INCONSISTENT_RULE,
                    "un ferry ne peut pas demander plus de locomotives que de cases",
                    path + ("ferry",),
                )
        expected = data["board"].get("expect", {})
        self.count(
            "tunnels",
            sum(bool(r.get("tunnel")) for r in routes),
            expected.get("tunnels"),
            ("board", "expect", "tunnels"),
        )
        self.count(
            "ferries",
            sum(bool(r.get("ferry")) for r in routes),
            expected.get("ferries"),
            ("board", "expect", "ferries"),
        )
        stations = data.get("stations")
        if stations and len(stations["cost"]) != stations["count"]:
            self.report(
                Code.INCONSISTENT_RULE,
                f"{stations['count']} gares, mais {len(stations['cost'])} coûts",
                ("stations", "cost"),
            )
        if bool(stations) != bool(data["turn"].get("build_station")):
            where = ("stations",) if stations else ("turn", "build_station")
            self.report(
                Code.INCONSISTENT_RULE, "« stations » et l’action « build_station » vont ensemble", where
            )
        long = data["setup"]["tickets"].get("long", 0)
        kinds = [data["tickets"]["ticket"][i].get("kind", "regular") for i in selected(data["tickets"])]
        if long and long * data["players"]["max"] > kinds.count("long"):
            self.report(
                Code.INCONSISTENT_RULE,
                f"{long} ticket(s) long(s) par joueur, mais la pioche n’en a que {kinds.count('long')}",
                ("setup", "tickets", "long"),
            )
        example = data.get("tunnel_example")
        if example:
            if example["route"] not in route_ids:
                self.report(
                    Code.UNKNOWN_REFERENCE,
                    f"« {example['route']} » n’existe pas",
                    ("tunnel_example", "route"),
                    did_you_mean(example["route"], route_ids),
                )
            elif not routes[route_ids.index(example["route"])].get("tunnel"):
                # Blamed on the route's own `tunnel` mark when the edition changed it there.
                marked = ("board", "route", route_ids.index(example["route"]), "tunnel")
                own = self.document.spans.get(marked)
                local = own is not None and own.source.name == self.document.source.name
                self.report(
                    Code.INCONSISTENT_RULE,
                    f"« {example['route']} » n’est pas un tunnel",
                    marked if local else ("tunnel_example", "route"),
                    hint="retirez aussi l’exemple : « without tunnel_example »" if local else None,
                )

    def check_cities(self) -> list[str]:
        cities = self.data["board"]["city"]
        seen: set[str] = set()
        for index, city in enumerate(cities):
            if city in seen:
                self.report(
                    Code.DUPLICATE_NAME, f"ville « {city} » déclarée deux fois", ("board", "city", index)
                )
            seen.add(city)
        expected = self.data["board"].get("expect", {})
        self.count("villes", len(cities), expected.get("cities"), ("board", "expect", "cities"))
        return cities

    def check_countries(self, cities: list[str]) -> list[str]:
        """Neighbouring countries: named once each, never like a city."""
        names = []
        for index, country in enumerate(self.data["board"].get("country", [])):
            path = ("board", "country", index)
            if country["name"] in names or country["name"] in cities:
                self.report(Code.DUPLICATE_NAME, f"« {country['name']} » est déjà déclaré", path)
            names.append(country["name"])
        return names

    def city_reference(self, city: str, cities: list[str], path: JsonPath) -> None:
        if city not in cities:
            self.report(Code.UNKNOWN_CITY, f"ville inconnue « {city} »", path, did_you_mean(city, cities))

    def count(self, what: str, actual: int, declared: int | None, path: JsonPath) -> None:
        if declared is not None and declared != actual:
            self.report(
                Code.COUNT_MISMATCH,
                f"la spec annonce {declared} {what}, mais en liste {actual}",
                path,
            )

    def check_routes(self, cities: list[str], arrows: list[str]) -> list[str]:
        board = self.data["board"]
        routes = board["route"]
        scored = {int(length) for length in self.data["route_points"]}
        colors = set(self.data["cards"]) - {"locomotive", "tunnel"}
        groups: dict[int, list[int]] = defaultdict(list)
        for index, route in enumerate(routes):
            path = ("board", "route", index)
            self.city_reference(route["a"], cities + arrows, path + ("a",))
            self.city_reference(route["b"], cities + arrows, path + ("b",))
            if route["a"] in arrows and route["b"] in arrows:
                self.report(
                    Code.INCONSISTENT_RULE, "une route part d’une ville : pas de route entre deux pays", path
                )
            if route["a"] == route["b"]:
                self.report(Code.INCONSISTENT_RULE, "une route relie deux villes différentes", path)
            if route["length"] not in scored:
                self.report(
                    Code.LENGTH_NOT_SCORED,
                    f"aucun barème pour une route de longueur {route['length']}",
                    path + ("length",),
                    hint="ajoutez-la à « route_points »",
                )
            if route["color"] != "gray" and route["color"] not in colors:
                self.report(
                    Code.UNKNOWN_REFERENCE,
                    f"aucune carte « {route['color']} » dans « cards »",
                    path + ("color",),
                )
            if "double" in route:
                groups[route["double"]].append(index)
        for group, members in sorted(groups.items()):
            pairs = {frozenset((routes[i]["a"], routes[i]["b"])) for i in members}
            if len(members) != 2 or len(pairs) != 1:
                self.report(
                    Code.BAD_DOUBLE_GROUP,
                    f"la route double {group} doit réunir exactement deux routes entre les mêmes villes"
                    f" (trouvé : {len(members)} route(s))",
                    ("board", "route", members[-1], "double"),
                )
        ids = assign_ids(routes, by_color=True)
        self.duplicates(ids, ("board", "route"), "route")
        expected = board.get("expect", {})
        self.count("routes", len(routes), expected.get("routes"), ("board", "expect", "routes"))
        self.count("routes doubles", len(groups), expected.get("doubles"), ("board", "expect", "doubles"))
        spaces = sum(route["length"] for route in routes)
        self.count("cases", spaces, expected.get("spaces"), ("board", "expect", "spaces"))
        return ids

    def duplicates(self, ids: list[str], path: JsonPath, what: str) -> None:
        for name, number in Counter(ids).items():
            if number > 1:
                index = len(ids) - 1 - ids[::-1].index(name)
                self.report(Code.DUPLICATE_NAME, f"{what} « {name} » déclarée {number} fois", path + (index,))

    def check_tickets(self, cities: list[str]) -> list[str]:
        tickets = self.data["tickets"]
        for index, ticket in enumerate(tickets["ticket"]):
            path = ("tickets", "ticket", index)
            self.city_reference(ticket["a"], cities, path + ("a",))
            targets = ticket.get("target", [])
            two_places = "b" in ticket and "points" in ticket
            if two_places == bool(targets):
                self.report(
                    Code.INCONSISTENT_RULE,
                    "un ticket relie deux villes (« ticket A B POINTS ») ou donne ses destinations "
                    "(« target »), l’un ou l’autre",
                    path,
                )
            if "b" in ticket:
                self.city_reference(ticket["b"], cities, path + ("b",))
            for number, target in enumerate(targets):
                where = path + ("target", number, "place")
                self.city_reference(target["place"], cities, where)
                if target["place"] == ticket["a"]:
                    self.report(
                        Code.INCONSISTENT_RULE, "une destination ne mène pas à sa propre ville", where
                    )
        ids = assign_ids(tickets["ticket"], by_color=False)
        self.duplicates(ids, ("tickets", "ticket"), "ticket")
        playing = selected(tickets)
        if not playing:
            self.report(Code.INCONSISTENT_RULE, "« select » ne garde aucun ticket", ("tickets", "select"))
        listed = len(playing)
        self.count("tickets", listed, tickets.get("expect"), ("tickets", "expect"))
        printed = tickets.get("printed")
        if printed is not None and printed != listed:
            self.report(
                Code.PRINTED_COUNT_GAP,
                f"la règle imprime {printed} tickets, mais {listed} sont listés : le moteur joue avec {listed}",
                ("tickets", "printed"),
                hint=f"ajoutez les {abs(printed - listed)} ticket(s) manquant(s) quand ils seront sourcés",
            )
        return [ids[index] for index in playing]

    def check_players(self) -> None:
        players = self.data["players"]
        if not 2 <= players["min"] <= players["max"]:
            self.report(Code.BAD_PLAYER_RANGES, "nombre de joueurs invalide", ("players",))
            return
        covered: Counter[int] = Counter()
        for rule in self.data["double_routes"]["rule"]:
            covered.update(range(rule["players"]["min"], rule["players"]["max"] + 1))
        wanted = range(players["min"], players["max"] + 1)
        wrong = [n for n in wanted if covered[n] != 1] + [n for n in covered if n not in wanted]
        if wrong:
            self.report(
                Code.BAD_PLAYER_RANGES,
                "les règles des routes doubles doivent couvrir chaque nombre de joueurs une fois exactement"
                f" (en défaut : {', '.join(map(str, sorted(set(wrong))))})",
                ("double_routes",),
            )

    def check_setup(self) -> None:
        setup = self.data["setup"]
        most = self.data["players"]["max"]
        tickets = setup["tickets"]
        if tickets["keep_at_least"] > tickets["deal"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas garder plus de tickets que distribués",
                ("setup", "tickets"),
            )
        deck = len(selected(self.data["tickets"]))
        if tickets["deal"] * most > deck:
            self.report(
                Code.INCONSISTENT_RULE,
                f"distribuer {tickets['deal']} ticket(s) à {most} joueurs en demande "
                f"{tickets['deal'] * most}, mais la pioche n\u2019en a que {deck}",
                ("setup", "tickets"),
            )
        cards = sum(self.data["cards"].values())
        if setup["train_cards"] * most + setup["market"]["size"] > cards:
            self.report(
                Code.INCONSISTENT_RULE,
                "pas assez de cartes Wagon pour la mise en place",
                ("setup", "train_cards"),
            )
        draw = self.data["turn"].get("draw_tickets")
        if draw and draw["keep_at_least"] > draw["draw"]:
            self.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas garder plus de tickets que piochés",
                ("turn", "draw_tickets"),
            )

    def check_bonuses(self) -> None:
        bonuses = [bonus["id"] for bonus in self.data.get("bonus", [])]
        self.duplicates(bonuses, ("bonus",), "bonus")
        for index, rule in enumerate(self.data.get("tiebreak", [])):
            path = ("tiebreak", index)
            if rule["criterion"] == "fewest_stations" and "stations" not in self.data:
                self.report(Code.INCONSISTENT_RULE, "départager aux gares demande « stations »", path)
            dropped = ("bonus", rule.get("bonus")) in self.document.removed
            if rule["criterion"] == "bonus" and rule.get("bonus") not in bonuses and not dropped:
                name = rule.get("bonus", "")
                self.report(
                    Code.UNKNOWN_REFERENCE, f"bonus inconnu « {name} »", path, did_you_mean(name, bonuses)
                )

    def check_example(self, route_ids: list[str], ticket_ids: list[str]) -> None:
        example = self.data.get("score_example")
        if not example:
            return
        players = self.data["players"]
        if not players["min"] <= example["players"] <= players["max"]:
            self.report(
                Code.BAD_PLAYER_RANGES,
                f"l’exemple se joue à {example['players']} joueurs ; l’édition se joue de {players['min']} à "
                f"{players['max']}",
                ("score_example", "players"),
            )
        for key, known in (("routes", route_ids), ("opponent_routes", route_ids), ("tickets", ticket_ids)):
            for index, name in enumerate(example[key]):
                if name not in known:
                    self.report(
                        Code.UNKNOWN_REFERENCE,
                        f"« {name} » n\u2019existe pas",
                        ("score_example", key, index),
                        did_you_mean(name, known),
                    )
