"""Stage 4: load an edition with its ancestors, merge them, check meaning.

``extends`` names another edition of the editions folder; the child's
statements override the parent's (blocks merge key by key, everything else is
replaced). The merged document then goes through the semantic checks that a
schema cannot express: names, references, counts, consistency.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from compiler.diagnostics import Code, CompileError, Diagnostic, did_you_mean, raise_if_errors
from compiler.lower import Document, JsonPath, lower
from compiler.parse import parse
from compiler.positions import SourceFile
from compiler.validate import missing_keys, validate

SUFFIX = ".aventuriers"


def slug(text: str) -> str:
    """``"Sault St. Marie"`` → ``"sault-st-marie"``: readable, stable, ASCII ids."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = "".join(char if char.isalnum() else " " for char in folded).split()
    return "-".join(words) or "x"


def assign_ids(items: list[dict[str, Any]], *, by_color: bool) -> list[str]:
    """Ids from the endpoints; twins are told apart by colour, else by rank."""
    bases = [slug(item["a"]) + "-" + slug(item["b"]) for item in items]
    groups: dict[str, list[int]] = defaultdict(list)
    for index, base in enumerate(bases):
        groups[base].append(index)
    ids = list(bases)
    for members in groups.values():
        if len(members) < 2:
            continue
        colors = [items[index].get("color") for index in members]
        distinct = by_color and len(set(colors)) == len(colors)
        for rank, index in enumerate(members, start=1):
            ids[index] = f"{bases[index]}-{colors[rank - 1] if distinct else rank}"
    return [item.get("id") or generated for item, generated in zip(items, ids, strict=True)]


def load_document(path: Path, display_name: str) -> tuple[Document | None, list[Diagnostic]]:
    source = SourceFile.read(path, display_name)
    try:
        tree = parse(source)
    except CompileError as error:
        return None, list(error.diagnostics)
    document, diagnostics = lower(tree, source)
    return document, diagnostics + validate(document, complete=False)


def merge(parent: Document, child: Document) -> Document:
    data = _merge_values(parent.data, child.data)
    overridden = [path for path in child.spans if not isinstance(_get(child.data, path), dict)]
    spans = {
        path: span
        for path, span in parent.spans.items()
        if not any(path[: len(prefix)] == prefix and len(path) > len(prefix) for prefix in overridden)
    }
    spans.update(child.spans)
    return Document(source=child.source, data=data, spans=spans)


def _merge_values(parent: Any, child: Any) -> Any:
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = dict(parent)
        for key, value in child.items():
            merged[key] = _merge_values(parent[key], value) if key in parent else value
        return merged
    return child


def _get(data: Any, path: JsonPath) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


class EditionLoader:
    """Finds editions by name in a folder and resolves their ``extends`` chains."""

    def __init__(self, editions_dir: Path, root: Path | None = None):
        self.editions_dir = editions_dir
        self.root = root or editions_dir.parent

    def display_name(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def available(self) -> list[str]:
        return sorted(path.name[: -len(SUFFIX)] for path in self.editions_dir.glob("*" + SUFFIX))

    def path_of(self, name: str) -> Path:
        return self.editions_dir / (name + SUFFIX)

    def load(self, path: Path) -> tuple[Document, list[Diagnostic]]:
        """The merged, checked document of the edition in ``path``; raises CompileError."""
        diagnostics: list[Diagnostic] = []
        self.chain: list[str] = []  # display names of the files read, base first
        document = self._load_chain(path, diagnostics, stack=())
        raise_if_errors(diagnostics)
        assert document is not None
        if document.data.get("abstract"):
            # A base is checked as a whole through the editions that extend it.
            return document, diagnostics
        diagnostics.extend(self._blame_child(missing_keys(document), document))
        raise_if_errors(diagnostics)
        diagnostics.extend(check(document))
        raise_if_errors(diagnostics)
        return document, diagnostics

    @staticmethod
    def _blame_child(found: list[Diagnostic], document: Document) -> list[Diagnostic]:
        """A key missing from the merged edition is the edition's to add, not its base's."""
        edition_span = document.span(("edition",))
        blamed = []
        for diagnostic in found:
            if diagnostic.span.source.name == document.source.name:
                blamed.append(diagnostic)
                continue
            hint = f"le bloc vient de {diagnostic.span.short} ; ajoutez la clé dans cette édition"
            blamed.append(
                Diagnostic(code=diagnostic.code, message=diagnostic.message, span=edition_span, hint=hint)
            )
        return blamed

    def parent_path(self, name: str, child: Path) -> Path:
        """``extends NAME``: a spec beside the child file first, then a shipped edition."""
        beside = child.parent / (name + SUFFIX)
        return beside if beside.exists() else self.path_of(name)

    def _load_chain(self, path: Path, diagnostics: list[Diagnostic], stack: tuple[Path, ...]):
        document, found = load_document(path, self.display_name(path))
        diagnostics.extend(found)
        if document is None:
            return None
        name = document.data.get("edition")
        if isinstance(name, str) and path.name.endswith(SUFFIX):
            if name != path.name[: -len(SUFFIX)]:
                diagnostics.append(
                    Diagnostic(
                        code=Code.EDITION_NAME_MISMATCH,
                        message=f"l\u2019édition « {name} » doit s\u2019appeler comme son fichier",
                        span=document.span(("edition",)),
                        hint=f"renommez-la « {path.name[: -len(SUFFIX)]} »",
                    )
                )
        parent_name = document.data.get("extends")
        self.chain.insert(0, document.source.name)
        if not isinstance(parent_name, str):
            return document
        parent_path = self.parent_path(parent_name, path)
        span = document.span(("extends",))
        if not parent_path.exists():
            diagnostics.append(
                Diagnostic(
                    code=Code.UNKNOWN_EDITION,
                    message=f"édition inconnue « {parent_name} »",
                    span=span,
                    hint=did_you_mean(
                        parent_name,
                        self.available() + [p.name[: -len(SUFFIX)] for p in path.parent.glob("*" + SUFFIX)],
                    ),
                )
            )
            return None
        if parent_path.resolve() in stack or parent_path.resolve() == path.resolve():
            chain = " → ".join([p.stem for p in stack] + [path.stem, parent_name])
            diagnostics.append(
                Diagnostic(code=Code.EXTENDS_CYCLE, message=f"héritage circulaire : {chain}", span=span)
            )
            return None
        parent = self._load_chain(parent_path, diagnostics, stack + (path.resolve(),))
        if parent is None:
            return None
        merged = merge(parent, document)
        if "abstract" not in document.data:
            merged.data.pop("abstract", None)  # abstractness is not inherited
        return merged


def check(document: Document) -> list[Diagnostic]:
    """The semantic checks of a merged edition document."""
    return _Checker(document).run()


class _Checker:
    def __init__(self, document: Document):
        self.document = document
        self.data = document.data
        self.found: list[Diagnostic] = []

    def report(self, code: Code, message: str, path: JsonPath, hint: str | None = None) -> None:
        self.found.append(Diagnostic(code=code, message=message, span=self.document.span(path), hint=hint))

    def run(self) -> list[Diagnostic]:
        cities = self.check_cities()
        route_ids = self.check_routes(cities)
        ticket_ids = self.check_tickets(cities)
        self.check_players()
        self.check_setup()
        self.check_bonuses()
        self.check_example(route_ids, ticket_ids)
        return self.found

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

    def check_routes(self, cities: list[str]) -> list[str]:
        board = self.data["board"]
        routes = board["route"]
        scored = {int(length) for length in self.data["route_points"]}
        colors = set(self.data["cards"]) - {"locomotive"}
        groups: dict[int, list[int]] = defaultdict(list)
        for index, route in enumerate(routes):
            path = ("board", "route", index)
            self.city_reference(route["a"], cities, path + ("a",))
            self.city_reference(route["b"], cities, path + ("b",))
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
            self.city_reference(ticket["b"], cities, path + ("b",))
        ids = assign_ids(tickets["ticket"], by_color=False)
        self.duplicates(ids, ("tickets", "ticket"), "ticket")
        listed = len(tickets["ticket"])
        self.count("tickets", listed, tickets.get("expect"), ("tickets", "expect"))
        printed = tickets.get("printed")
        if printed is not None and printed != listed:
            self.report(
                Code.PRINTED_COUNT_GAP,
                f"la règle imprime {printed} tickets, mais {listed} sont listés : le moteur joue avec {listed}",
                ("tickets", "printed"),
                hint=f"ajoutez les {abs(printed - listed)} ticket(s) manquant(s) quand ils seront sourcés",
            )
        return ids

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
        if tickets["deal"] * most > len(self.data["tickets"]["ticket"]):
            self.report(
                Code.INCONSISTENT_RULE,
                f"distribuer {tickets['deal']} ticket(s) à {most} joueurs en demande "
                f"{tickets['deal'] * most}, mais la pioche n\u2019en a que {len(self.data['tickets']['ticket'])}",
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
            if rule["criterion"] == "bonus" and rule.get("bonus") not in bonuses:
                name = rule.get("bonus", "")
                self.report(
                    Code.UNKNOWN_REFERENCE, f"bonus inconnu « {name} »", path, did_you_mean(name, bonuses)
                )

    def check_example(self, route_ids: list[str], ticket_ids: list[str]) -> None:
        example = self.data.get("score_example")
        if not example:
            return
        for key, known in (("routes", route_ids), ("opponent_routes", route_ids), ("tickets", ticket_ids)):
            for index, name in enumerate(example[key]):
                if name not in known:
                    self.report(
                        Code.UNKNOWN_REFERENCE,
                        f"« {name} » n\u2019existe pas",
                        ("score_example", key, index),
                        did_you_mean(name, known),
                    )
