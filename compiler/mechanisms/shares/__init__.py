"""Shares: a claim takes a share of a company whose logo the route bears; majorities at the end.

``shares { company prr "la Pennsylvania Railroad" count: 15 points: [30, 21, 14, 9, 6] on: [ids…] }``
(Pennsylvania): each company has ``count`` shares, numbered 1 to ``count`` and taken in that
order; its logo is on the routes ``on`` lists. A claim of such a route may take the top share of
one of its companies that has any left, the player choosing where there are several (phase
``take_share``); a claim with ``"share": False`` takes none (without the field, it takes one), and
then the dummy takes none either. At the end each company's shareholders are ranked by the shares they hold, ties
going to whoever holds the lowest-numbered share, and score its ``points`` by rank; without a
share of a company, nothing for it. Issue 24: counters per player, a supply per company, an
effect of the claim with a choice, majorities with a points table per company.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import enumerate_fr, of_name, typo, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ...ir.action_space import Part, ways_to_pay
from ..base import (
    ActionSentence,
    ApiTypes,
    Attribute,
    Fact,
    Mechanism,
    ScoreLine,
    SheetWords,
    citation,
    literal,
    route_ids,
    sentence_text,
)
from ..marks import BoardMark, MarkKind
from ..state import Scope, Shape, StateField
from ..used import joker_pays_route

# The players of the worked example, in seat order, and the numbers of the shares each holds of
# the first company: Alice and Bruno hold as many, Bruno the lowest number.
EXAMPLE = (("Alice", (2, 5)), ("Bruno", (1, 4)), ("Chloé", (3,)))


@dataclass(**IR)
class Company:
    id: str
    name: str  # its French name, with its article
    count: int  # its shares, numbered 1 to count
    points: tuple[int, ...]  # its first shareholder's points, the second's…
    routes: tuple[str, ...]  # the routes bearing its logo, by id
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Shares:
    companies: tuple[Company, ...]
    dummy: int | None = None  # the player count at which a dummy shareholder plays
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Shares

    @property
    def literal(self) -> str:
        return repr(
            {
                c.id: {"name": c.name, "count": c.count, "points": c.points, "routes": c.routes}
                for c in self.rule.companies
            }
        )

    @property
    def dummy(self) -> int | None:
        return self.rule.dummy

    @property
    def ranks_most(self) -> int:
        """The most ranks of one company that score (the native engine's room for them)."""
        return max(len(company.points) for company in self.rule.companies)

    @property
    def marks(self) -> tuple[tuple[int, ...], ...]:
        """Each set of companies some route bears the logos of (their places in SHARES), in the
        order of the routes that first bear it: mark 1, 2… of the native engine's shapes."""
        return company_sets(self.rule)

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class ShareRules(Mechanism):
    name = "shares"
    french = "les actions des compagnies"
    rule_types = (Shares,)
    folder = Path(__file__).resolve().parent
    statement = "shares"
    exports = ("SHARES", "SHARE_DUMMY", "share_points")

    leaves_claim_choices = True  # the company whose share a claim takes
    # The native engine plays it: a route's claims listed twice while its logos offer a share
    # (`shape_mark`), the choices of a company as phases, the shares kept in the core's fields.
    native = True
    native_scoring = True
    native_kinds = ("KIND_SHARE_DECLINED", "KIND_TAKE_SHARE")
    native_phases = {"take_share": "TAKE_SHARE", "dummy_share": "DUMMY_SHARE"}

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {
            "take_share": ("share_options", "SHARE_COMPANIES"),
            "dummy_share": ("dummy_options", "SHARE_COMPANIES"),
        }

    def shape_mark(self, edition: Edition, route: Any) -> int:
        rule = self.rule(edition)
        companies = _companies_of(rule, route.id)
        return company_sets(rule).index(companies) + 1 if companies else 0

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        return {"take_share": ("_apply_take_share", ("company",), ())}

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        rule = data.get("shares")
        if not rule:
            return ()
        return (
            Shares(
                companies=tuple(
                    Company(
                        id=item["id"],
                        name=item["name"],
                        count=item["count"],
                        points=tuple(item["points"]),
                        routes=tuple(item["on"]),
                        span=span("shares", "company", index),
                    )
                    for index, item in enumerate(rule["company"])
                ),
                dummy=rule.get("dummy"),
                span=span("shares"),
            ),
        )

    def check(self, checker: Any) -> None:
        """Routes of the board, companies named once."""
        rule = checker.data.get("shares")
        if not rule or not checker.has("board"):
            return
        dummy, players = rule.get("dummy"), checker.data.get("players")
        if dummy is not None and isinstance(players, dict) and not players["min"] <= dummy <= players["max"]:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"le joueur fictif joue à {dummy} joueurs, mais l’édition se joue de {players['min']} à "
                f"{players['max']}",
                ("shares", "dummy"),
            )
        # A claim declining its share is listed beside each claim of its route and takes the route
        # at once: not yet with claims listed or settled otherwise.
        data = checker.data
        others = [
            name
            for name, present in (
                ("les tunnels", any(route.get("tunnel") for route in data["board"].get("route", []))),
                ("le jeu en équipe (« teams »)", bool(data.get("teams"))),
                ("la seconde pioche (« extra_deck »)", bool(data.get("extra_deck"))),
                ("les lots de cartes (« substitute »)", bool(data.get("substitute"))),
                (
                    "les cartes de plus d’un effet de prise",
                    any(item.get("cards") for item in data.get("claim_effect", [])),
                ),
            )
            if present
        ]
        if others:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"les actions des compagnies ne se combinent pas encore avec {enumerate_fr(others)} : "
                "une prise qui refuse son action doit prendre sa route aussitôt",
                ("shares",),
            )
        routes = route_ids(checker.data)
        known = set(routes)
        seen: set[str] = set()
        for index, item in enumerate(rule["company"]):
            if item["id"] in seen:
                checker.report(
                    Code.DUPLICATE_NAME,
                    f"la compagnie « {item['id']} » est déjà déclarée",
                    ("shares", "company", index, "id"),
                )
            seen.add(item["id"])
            for at, route in enumerate(item["on"]):
                if route not in known:
                    checker.report(
                        Code.UNKNOWN_REFERENCE,
                        f"« {route} » n’est pas une route de ce plateau",
                        ("shares", "company", index, "on", at),
                        did_you_mean(route, routes),
                    )

    # -- engine ------------------------------------------------------------
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        names = {c.id: sentence_text(of_name(c.name)) for c in self.rule(edition).companies}
        return {"take_share": ActionSentence(text="prend une action {company}", names={"company": names})}

    def action_clauses(self, edition: Edition) -> dict[str, tuple[ActionSentence, ...]]:
        # A claim may decline the route's share.
        return {"claim_route": (ActionSentence(text=" sans prendre d’action", when=("share", False)),)}

    def attributes(self, edition: Edition) -> tuple[Attribute, ...]:
        # Set just before the route is taken, read and cleared at once (never true between two
        # actions); the shares themselves are fields the core keeps (`state_fields`).
        return (
            Attribute(
                name="_share_declined",
                type="bool",
                start="False",
                why="The claim being settled declines its share.",
            ),
        )

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        rule = self.rule(edition)
        names = tuple(company.name for company in rule.companies)
        found = [
            StateField(
                key="shares_taken",
                derived=True,
                scope=Scope.GAME,
                shape=Shape.TALLY,
                label="actions prises de chaque compagnie",
                over="SHARES",
                names=names,
                at_most=tuple(company.count for company in rule.companies),
            ),
            StateField(
                key="shares",
                derived=True,
                scope=Scope.PLAYER,
                shape=Shape.NUMBERS,
                label="actions détenues",
                over="SHARES",
                names=names,
                numbered_by="shares_taken",
            ),
            StateField(
                key="share_choices",
                derived=True,
                scope=Scope.GAME,
                shape=Shape.IDS,
                label="compagnies dont une action est à prendre",
                over="SHARES",
                phase="take_share",
            ),
        ]
        if rule.dummy is not None:
            found += [
                StateField(
                    key="dummy_shares",
                    derived=True,
                    scope=Scope.GAME,
                    shape=Shape.NUMBERS,
                    label="actions du joueur fictif",
                    over="SHARES",
                    names=names,
                    numbered_by="shares_taken",
                    players=rule.dummy,
                ),
                StateField(
                    key="dummy_choices",
                    derived=True,
                    scope=Scope.GAME,
                    shape=Shape.IDS,
                    label="compagnies parmi lesquelles choisir l’action du joueur fictif",
                    over="SHARES",
                    phase="dummy_share",
                    players=rule.dummy,
                ),
            ]
        return tuple(found)

    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        """Each company's initials on the routes bearing its logo."""
        return tuple(
            BoardMark(
                kind=MarkKind.ROUTE_BADGE,
                targets=company.routes,
                label=company.id.upper(),
                meaning=company.name,
            )
            for company in self.rule(edition).companies
            if company.routes
        )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return (ScoreLine(label="actions des compagnies", path=("shares",), reads="sum"),)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("take_share", "dummy_share") if self.rule(edition).dummy else ("take_share",)

    def api_types(self, edition: Edition) -> ApiTypes:
        # Taken by company: how many of each (the next is numbered one more), the numbers held.
        table = {"shares_taken": "dict[Company, int]", "share_choices": "list[Company]"}
        if self.rule(edition).dummy:  # only in a game of the dummy's player count
            table |= {
                "dummy_shares": "NotRequired[dict[Company, list[int]]]",
                "dummy_choices": "NotRequired[list[Company]]",
            }
        held = {"shares": "dict[Company, list[int]]"}
        return ApiTypes(
            fields={
                "State": table,
                "PlayerState": held,
                "Observation": table,
                "ObservedPlayer": held,
                "ScoreRecord": {"shares": "dict[Company, int]"},
                "ClaimRoute": {"share": "NotRequired[bool]"},
            },
            actions={"take_share": {"company": "Company"}},
            aliases={"Company": literal(company.id for company in self.rule(edition).companies)},
        )

    def messages(self, edition: Edition) -> dict[str, str]:
        return {
            "must_take_share": "Prends d’abord l’action d’une compagnie de la route : {companies}.",
            "no_share_to_take": "Aucune action n’attend d’être prise.",
            "must_take_dummy_share": "Choisis d’abord l’action du joueur fictif : {companies}.",
            "share_not_offered": "« {company} » n’est pas une compagnie dont tu peux prendre une action : "
            "{companies}.",
            "bad_share": "« share » vaut true (prendre une action de la route) ou false (n’en prendre "
            "aucune), pas {value}.",
            "no_share_to_decline": "La route {route} ne donne aucune action à refuser : aucune compagnie de "
            "ses logos n’en a encore.",
        }

    def action_fields(self, edition: Edition) -> dict[str, tuple[str, ...]]:
        return {"claim_route": ("share",)}

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:

        rule = self.rule(edition)
        # One id per company: the same action chooses the player's share or the dummy's; and
        # each claim of a route bearing logos, declining its share.
        logos = {route for company in rule.companies for route in company.routes}
        plain = len(edition.cards) - 1
        declined = sum(
            ways_to_pay(
                route.length,
                plain if route.color == "gray" else 1,
                route.ferry,
                joker_pays_route(edition, route),
                split,
            )
            for route in edition.board.routes
            if route.id in logos
        )
        return [Part(what="« shares »", actions=len(rule.companies) + declined, span=rule.span)]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        total = sum(c.count for c in rule.companies)
        first = rule.companies[0]
        numbers = [numbers for _, numbers in EXAMPLE]
        scored = engine.share_points([list(held) for held in numbers], first.points)
        example_rows: list[tuple[str, ...]] = [("Joueur", "Actions (numéros)", "Points")] + [
            (player, ", ".join(str(n) for n in held), str(points))
            for (player, held), points in zip(EXAMPLE, scored, strict=True)
        ]
        table: list[tuple[str, ...]] = [("Compagnie", "Actions", "Points par rang")] + [
            (typo(c.name[:1].upper() + c.name[1:]), str(c.count), " / ".join(str(p) for p in c.points))
            for c in rule.companies
        ]
        example = (
            f"Pour {first.name} : Alice a les actions 2 et 5, Bruno les actions 1 et 4, Chloé "
            f"l’action 3. Alice et Bruno en ont autant, et Bruno a le plus petit numéro : il est premier. "
            f"Bruno marque {scored[1]} points, Alice {scored[0]} et Chloé {scored[2]}."
        )
        claim = typo(
            "Quand tu prends une route qui porte des logos de compagnies, tu peux aussi prendre la carte Action "
            "du dessus de la pile de l’une d’elles, celle de plus petit numéro, ou n’en prendre aucune. Si la "
            "route en porte plusieurs qui ont encore des actions, tu choisis la compagnie. Une compagnie dont "
            "toutes les actions sont prises n’en donne plus : choisis-en une autre de la route, s’il en reste. "
            "Garde tes cartes Action devant toi, face cachée."
        )
        scoring = typo(
            "Actions : pour chaque compagnie, ses actionnaires sont classés selon le nombre de ses actions "
            "qu’ils ont ; à égalité, celui qui a l’action de plus petit numéro passe devant. Chacun marque "
            "les points de son rang dans le tableau « Les compagnies » ; sans action d’une compagnie, on ne marque "
            "rien pour elle."
        )
        return SheetWords(
            material=(
                typo(
                    f"{total} cartes Action de {words(len(rule.companies), feminine=True)} compagnies : "
                    + enumerate_fr([f"{c.count} {of_name(c.name)}" for c in rule.companies])
                ),
            ),
            gains_last=("les actions des compagnies, selon ton rang parmi leurs actionnaires",),
            claim=(claim, *self._dummy_paragraphs(rule)),
            scoring=(scoring,),
            mistakes=("Prendre une action d’une compagnie dont la route prise ne porte pas le logo.",),
            decisions=(
                *self._dummy_decisions(rule),
                "Les cartes Action se gardent face cachée, mais chacun voit de quelle pile elles sont prises, "
                "et dans quel ordre : elles sont donc connues de tous, avec leur numéro.",
            ),
            summary=(
                typo(
                    "Route à logos : si tu veux, la carte Action du dessus d’une de ses compagnies ; majorités "
                    "par compagnie."
                ),
            ),
            formula=(" + actions",),
            sections=(
                ("Exemple de majorité d’actions", (typo(example),), tuple(example_rows)),
                ("Les compagnies", (), tuple(table)),
            ),
        )

    @staticmethod
    def _dummy_paragraphs(rule: Shares) -> tuple[str, ...]:
        if rule.dummy is None:
            return ()
        return (
            typo(
                f"À {words(rule.dummy)} joueurs, un joueur fictif prend aussi des actions : chaque fois que tu "
                "prends une carte Action, choisis-en une pour lui parmi les compagnies de la route qui en ont "
                "encore, et pose-la face cachée à côté des siennes ; si tu n’en prends pas, il n’en prend pas "
                "non plus. À la fin, mélange ses actions et retournes-en la "
                "moitié, arrondie à l’entier supérieur : elles comptent pour lui dans le classement de chaque compagnie, "
                "mais il ne marque rien."
            ),
        )

    @staticmethod
    def _dummy_decisions(rule: Shares) -> tuple[str, ...]:
        if rule.dummy is None:
            return ()
        return (
            "Les actions du joueur fictif qui comptent à la fin sont tirées au hasard, avec le générateur de "
            "la partie : une partie rejouée depuis le même départ donne le même tirage.",
        )

    def score_rows(self, edition: Edition) -> list[str]:
        return ["Actions des compagnies"]

    def facts(self, edition: Edition) -> list[Fact]:
        rule = self.rule(edition)
        found = [
            Fact(
                section="Matériel",
                label="Actions",
                value=typo(enumerate_fr([f"{c.count} {of_name(c.name)}" for c in rule.companies])),
            ),
            Fact(
                section="Le tour",
                label="Prendre une route à logos",
                value="au choix, la carte Action du dessus d’une de ses compagnies, ou aucune",
            ),
        ]
        if rule.dummy is not None:
            found.append(
                Fact(
                    section="Le tour",
                    label="Joueur fictif",
                    value=f"à {words(rule.dummy)} joueurs, il prend aussi une action chaque fois qu’un joueur en "
                    "prend une, d’une compagnie de la route choisie par ce joueur ; à la fin, la moitié de ses "
                    "actions (arrondie à l’entier supérieur), tirées au hasard, comptent dans les majorités, "
                    "sans points pour lui",
                )
            )
        found.append(
            Fact(
                section="Décompte",
                label="Majorités d’actions",
                value=typo(
                    "; ".join(f"{c.name} {' / '.join(str(p) for p in c.points)}" for c in rule.companies)
                ),
            )
        )
        return found

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        points = sum(result.get("shares", {}).values())
        if not points:
            return []
        return [(f"Ses actions lui rapportent {points} points", points)]


MECHANISM = ShareRules()


def _companies_of(rule: Shares, route: str) -> tuple[int, ...]:
    """The companies whose logo `route` bears, by their places in SHARES."""
    return tuple(place for place, company in enumerate(rule.companies) if route in company.routes)


def company_sets(rule: Shares) -> tuple[tuple[int, ...], ...]:
    """Each set of companies some route bears the logos of, in the order routes first bear it
    (the routes of every company, in the order the companies list them)."""
    found: list[tuple[int, ...]] = []
    for company in rule.companies:
        for route in company.routes:
            companies = _companies_of(rule, route)
            if companies not in found:
                found.append(companies)
    return tuple(found)
