"""Stage 4b: the semantic checks of a merged edition document.

What a schema cannot say: names that must exist (cities, bonuses, routes of
the example), names that must be unique, counts that must agree, numbers
that must fit together. Every finding is located; "did you mean" where it helps.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from ..diagnostics import Code, Diagnostic, did_you_mean
from ..french import counted
from ..ir.build import arrows_of, selected
from ..ir.ids import assign_ids
from .check_properties import check_mechanisms, check_properties
from .check_rules import RuleChecks
from .lower import Document, JsonPath
from .positions import Span


def check(document: Document) -> list[Diagnostic]:
    """The semantic checks of a merged edition document."""
    return _Checker(document).run()


class _Checker(RuleChecks):
    def __init__(self, document: Document):
        self.document = document
        self.data = document.data
        self.found: list[Diagnostic] = []

    def report(
        self, code: Code, message: str, path: JsonPath, hint: str | None = None, cause: str | None = None
    ) -> None:
        """Report at ``path``; a conflict between an inherited value and the edition's own
        statements is reported at the edition's statement, with a note saying where the
        inherited value stands. ``cause``: the key of the edits that may cause it (a count's,
        ``tickets:count``), where it is not any edit of the path's section."""
        span = self.document.span(path)
        local = self.local_cause(path, cause) if span.source.name != self.document.source.name else None
        if local is not None:
            note = f"la valeur héritée est en {span.short}"
            hint, span = (f"{hint} ; {note}" if hint else note), local
        self.found.append(Diagnostic(code=code, message=message, span=span, hint=hint))

    def local_cause(self, path: JsonPath, cause: str | None = None) -> Span | None:
        """The edition's own statement nearest to ``path``, when it has one there."""
        own = self.document.source.name
        for end in range(len(path), 0, -1):
            span = self.document.spans.get(tuple(path[:end]))
            if span is not None and span.source.name == own:
                return span
        return self.document.edits.get(cause or str(path[0])) if path else None

    def declared_here(self, path: JsonPath) -> bool:
        """Whether the edition's own file, not a parent, wrote the value at ``path``."""
        span = self.document.spans.get(tuple(path))
        return span is not None and span.source.name == self.document.source.name

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
        self.check_positions(cities, arrows)
        route_ids = self.check_routes(cities, arrows) if board else []
        ticket_ids = self.check_tickets(cities + countries) if self.has("tickets.ticket") else []
        if self.has("players", "double_routes.rule"):
            self.check_players()
        if self.has(
            "setup.tickets", "setup.train_cards", "setup.market", "players", "cards", "tickets", "turn"
        ):
            self.check_setup()
        if self.has("players"):
            self.check_example(route_ids, ticket_ids)
        if board and self.has("setup.tickets", "tickets.ticket", "turn", "players"):
            self.check_joker()
            self.check_long_tickets()
        check_properties(self)
        check_mechanisms(self)
        if "stand_in" in self.data["board"]:
            self.report(
                Code.STAND_IN_BOARD,
                # The spec's own words, with French apostrophes like every message.
                f"plateau de remplacement : {self.data['board']['stand_in'].replace(chr(39), '’')}",
                ("board", "stand_in"),
            )
        return self.found

    def check_cities(self) -> list[str]:
        cities = [city["name"] for city in self.data["board"]["city"]]
        seen: set[str] = set()
        for index, city in enumerate(cities):
            if city in seen:
                self.report(
                    Code.DUPLICATE_NAME,
                    f"ville « {city} » déclarée deux fois",
                    ("board", "city", index, "name"),
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
            if "#" in country["name"]:
                # « France#2 » names an arrow: the country's name ends at the « # ».
                self.report(
                    Code.INCONSISTENT_RULE,
                    f"un nom de pays ne contient pas « # » : « {country['name']} »",
                    path + ("name",),
                    hint="« # » sépare le pays du numéro de sa flèche, « France#2 »",
                )
            names.append(country["name"])
        return names

    def check_positions(self, cities: list[str], arrows: list[str]) -> None:
        """Places on the map: each border arrow once and known; all or none of the board placed."""
        board = self.data["board"]
        placed = {city["name"] for city in board["city"] if "at" in city}
        for index, arrow in enumerate(board.get("arrow", [])):
            path = ("board", "arrow", index, "name")
            if arrow["name"] not in arrows:
                hint = did_you_mean(arrow["name"], arrows) or (
                    "une flèche se nomme comme le pays suivi de « #N » : « France#1 »"
                )
                self.report(Code.UNKNOWN_REFERENCE, f"flèche inconnue « {arrow['name']} »", path, hint)
            elif arrow["name"] in placed:
                self.report(Code.DUPLICATE_NAME, f"flèche « {arrow['name']} » placée deux fois", path)
            placed.add(arrow["name"])
        missing = [name for name in cities + arrows if name not in placed]
        if placed and missing:
            shown = ", ".join(f"« {name} »" for name in missing[:5]) + (" …" if len(missing) > 5 else "")
            first = missing[0]
            where: JsonPath = (
                ("board", "city", cities.index(first), "name")
                if first in cities
                else ("board", "country", self.country_index(first))
            )
            self.report(
                Code.MISSING_POSITION,
                f"{len(missing)} {counted(len(missing), 'lieu', 'lieux')} du plateau sans position : {shown}",
                where,
                'chaque ville s’écrit avec sa place, « city "Paris" at: 48.86, 2.35 », '
                'et chaque flèche de pays de même, « arrow "France#1" at: 46.05, 6.95 » ; '
                "sans aucune position, le plateau se construit sans dessin",
            )

    def country_index(self, arrow: str) -> int:
        names = [country["name"] for country in self.data["board"].get("country", [])]
        return names.index(arrow.rpartition("#")[0])

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
                where, hint = path + ("length",), "ajoutez-la à « route_points »"
                if self.declared_here(("route_points",)) and not self.declared_here(where):
                    # An inherited route the edition's own table leaves out (its parent's is replaced whole).
                    where, hint = (
                        ("route_points",),
                        f"{hint} ; la route est en {self.document.span(where).short}",
                    )
                self.report(
                    Code.LENGTH_NOT_SCORED,
                    f"aucun barème pour une route de longueur {route['length']}",
                    where,
                    hint=hint,
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
            if len(pairs) != 1:
                ends = sorted(" – ".join(sorted(pair)) for pair in pairs)
                self.report(
                    Code.BAD_DOUBLE_GROUP,
                    f"la route double {group} réunit des routes entre des villes différentes ({', '.join(ends)})",
                    ("board", "route", members[-1], "double"),
                    hint="les voies d’une route double relient les deux mêmes villes",
                )
            # Two tracks make a double route, three a triple one (Germany, Italy).
            elif len(members) not in (2, 3):
                self.report(
                    Code.BAD_DOUBLE_GROUP,
                    f"la route double {group} doit réunir deux ou trois voies"
                    f" (trouvé : {len(members)} {counted(len(members), 'voie', 'voies')})",
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
            seen_targets: set[str] = set()
            for number, target in enumerate(targets):
                where = path + ("target", number, "place")
                self.city_reference(target["place"], cities, where)
                if target["place"] == ticket["a"]:
                    self.report(
                        Code.INCONSISTENT_RULE, "une destination ne mène pas à sa propre ville", where
                    )
                if target["place"] in seen_targets:
                    # The engine keys a ticket's targets by place: a second line would vanish.
                    self.report(
                        Code.DUPLICATE_NAME,
                        f"destination « {target['place']} » donnée deux fois sur ce ticket",
                        where,
                    )
                seen_targets.add(target["place"])
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
                cause="tickets:count",  # a change of a ticket's fields leaves the count as it was
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
        market = setup["market"]
        if market["locomotive_reset"] != "never" and market["locomotive_reset"] > market["size"]:
            self.report(
                Code.INCONSISTENT_RULE,
                f"« locomotive_reset » vaut {market['locomotive_reset']}, mais le marché n’a que "
                f"{market['size']} cartes : il ne serait jamais renouvelé",
                ("setup", "market", "locomotive_reset"),
                hint="« locomotive_reset: never » pour un marché jamais renouvelé",
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
        offered = tickets["deal"] + tickets.get("long", 0)
        for path, rule, count in (
            (("setup", "tickets"), tickets, offered),
            (("turn", "draw_tickets"), draw, None),
        ):
            most = (rule or {}).get("keep_at_most")
            if most is None:
                continue
            if most < rule["keep_at_least"] or most > (count if count is not None else rule["draw"]):
                self.report(
                    Code.INCONSISTENT_RULE,
                    f"« keep_at_most » vaut {most} : il faut au moins « keep_at_least » ({rule['keep_at_least']}) "
                    f"et au plus les tickets proposés ({count if count is not None else rule['draw']})",
                    path + ("keep_at_most",),
                )
