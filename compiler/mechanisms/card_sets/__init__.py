"""Card sets: any N cards standing in for one card of a claim.

Nordic Countries: any 3 cards for each locomotive a ferry needs, and on Murmansk – Lieksa any 4
cards for one card of the route's colour. Written
``substitute ferry_locomotives cards: 3 replaces: locomotive on: ferries``. The claim lays its
other cards (fewer than the route's spaces); the sets' cards follow one by one (`pay_card`,
the engine's `owed_cards` phase).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...emit.worked import refused
from ...french import CARD_ADJECTIVES, JOKERS, cards_phrase, counted, enumerate_fr, words
from ...frontend.positions import Span
from ...ir import IR, Edition, Route
from ...ir.action_space import Part
from ..base import Fact, Mechanism, SheetWords, citation, ends_name
from ..used import joker_pays_route

KINDS = ("ferries", "routes")  # the kinds of route `on:` names, besides a yes/no property


def _lowered(sentence: str) -> str:
    """A sentence continuing another: its first letter in lower case, the rest as written."""
    return sentence[:1].lower() + sentence[1:]


@dataclass(**IR)
class Substitute:
    id: str
    cards: int  # cards of any colour in one set
    replaces: str  # "locomotive" (one a ferry needs) or "color" (one of the route's colour)
    on: str  # "ferries", "routes", or a yes/no route property
    span: Span | None = field(default=None, compare=False)


def applies(replaces: str, on: str, ferry: int, flagged: bool) -> bool:
    """Whether a set applies to a route with `ferry` locomotives (and `flagged` by the property
    `on`, when `on` names one): a locomotive set, only to a ferry's locomotives."""
    if replaces == "locomotive" and not ferry:
        return False
    return on == "routes" or (on == "ferries" and ferry > 0) or (on not in KINDS and flagged)


def covers(edition: Edition, route: Route, substitute: Substitute) -> bool:
    """Whether the substitute applies to the route."""
    flagged = substitute.on not in KINDS and bool(edition.route_property(route, substitute.on))
    return applies(substitute.replaces, substitute.on, route.ferry, flagged)


@dataclass(frozen=True, slots=True)
class EngineView:
    edition: Edition
    substitutes: tuple[Substitute, ...]

    @property
    def substitutes_literal(self) -> str:
        return repr({s.id: (s.cards, s.replaces, s.on) for s in self.substitutes})

    @property
    def citation(self) -> str:
        return citation(self.substitutes)


class CardSets(Mechanism):
    name = "card_sets"
    french = "les lots de cartes"
    native = True  # the native engine lists its claims and the cards given one by one
    native_scoring = True  # it changes neither the set-up nor the scoring
    native_kinds = ("KIND_BASE_CLAIM",)
    rule_types = (Substitute,)
    folder = Path(__file__).resolve().parent
    statement = "substitute"
    exports = ("SUBSTITUTES",)

    def native_more_claims(self, edition: Edition) -> tuple[str, str] | None:
        return ("base_claims", "BASE_ID")

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        return tuple(
            Substitute(
                id=item["id"],
                cards=item["cards"],
                replaces=item["replaces"],
                on=item["on"],
                span=span("substitute", index),
            )
            for index, item in enumerate(data.get("substitute", []))
        )

    def check(self, checker: Any) -> None:
        data = checker.data
        declared = {p["name"]: p["default"] for p in data["board"].get("property", [])}
        flags = [name for name, default in declared.items() if isinstance(default, bool)]
        covered: dict[tuple[int, str], str] = {}
        for index, item in enumerate(data.get("substitute", [])):
            on = item.get("on")
            if on not in KINDS and on not in flags:
                checker.report(
                    Code.UNKNOWN_REFERENCE,
                    f"« {on} » ne désigne pas de routes : ferries, routes, ou une propriété oui/non du plateau",
                    ("substitute", index, "on"),
                    did_you_mean(on, [*KINDS, *flags]),
                )
                continue
            if "teams" in data:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    "des lots de cartes ne se paient pas en équipe (la main et le porte-cartes paient ensemble)",
                    ("substitute", index),
                )
            tunnels = []
            for number, route in enumerate(data["board"]["route"]):
                if not applies(item.get("replaces"), on, route.get("ferry", 0), route.get(on) is True):
                    continue
                if route.get("tunnel"):
                    tunnels.append(f"{route.get('a')} – {route.get('b')}")
                slot = (number, item.get("replaces"))
                if slot in covered:
                    checker.report(
                        Code.INCONSISTENT_RULE,
                        f"deux lots remplacent la même carte de cette route : « {covered[slot]} » et "
                        f"« {item['id']} »",
                        ("substitute", index),
                    )
                covered[slot] = item["id"]
            if tunnels:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"un lot de cartes ne paie pas un tunnel, dont le supplément compte la couleur payée : "
                    f"« {on} » en couvre {len(tunnels)} ({enumerate_fr(sorted(set(tunnels)))})",
                    ("substitute", index, "on"),
                )

    def properties_used(self, edition: Edition) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.on for s in self.rules(edition) if s.on not in KINDS))

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(edition=edition, substitutes=self.rules(edition))

    def owes_cards(self, edition: Edition) -> bool:
        return self.used(edition)

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:
        """The claims that lay fewer cards than the route's spaces, as the engine's index lists them."""

        plain = len(edition.cards) - 1
        count = 0
        for route in edition.board.routes:
            loco = any(covers(edition, route, s) for s in self.rules(edition) if s.replaces == "locomotive")
            color = any(covers(edition, route, s) for s in self.rules(edition) if s.replaces == "color")
            if not (loco or color):
                continue
            jokers_pay = joker_pays_route(edition, route)
            for jokers in range((route.length if jokers_pay else 0) + 1):
                for colored in range(route.length - jokers):
                    loco_sets = max(0, route.ferry - jokers) if loco else 0
                    color_sets = max(0, route.length - jokers - colored - loco_sets) if color else 0
                    if (
                        colored + jokers + loco_sets + color_sets != route.length
                        or jokers + loco_sets < route.ferry
                    ):
                        continue
                    count += (plain if route.color == "gray" else 1) if colored else 1
        first = self.rules(edition)[0]
        return [Part(what="« substitute »", actions=count, span=first.span)]

    def expressions(self, edition: Edition) -> dict[str, str]:
        return {
            "claim_covered": "loco_sets + color_sets",
            "ferry_covered": "loco_sets",
            "claim_owed": "loco_sets * _SET_LOCOMOTIVE[route] + color_sets * _SET_COLOR[route]",
        }

    # -- words -------------------------------------------------------------
    def _routes(self, edition: Edition, substitute: Substitute) -> list[Route]:
        return [route for route in edition.board.routes if covers(edition, route, substitute)]

    def sentence(self, edition: Edition, substitute: Substitute) -> str:
        cards = f"{words(substitute.cards, feminine=True)} cartes de n’importe quelle couleur"
        jokers = f"{JOKERS[edition.joker.value][1]} comprises"
        if substitute.replaces == "locomotive":
            one = JOKERS[edition.joker.value][0]  # the card that pays a ferry: a locomotive, a tunnel card
            where = f"chaque {one} qu’un ferry demande"
            if substitute.on not in KINDS:
                names = enumerate_fr(sorted({ends_name(r) for r in self._routes(edition, substitute)}))
                where = f"sur {names}, chaque {one} que le ferry demande"
            return (
                f"Au lieu de {where}, tu peux donner {cards}, {jokers} : ces cartes suivent les "
                "autres cartes de la route, une à une."
            )
        names = enumerate_fr(sorted({ends_name(r) for r in self._routes(edition, substitute)}))
        where = "sur toute route" if substitute.on == "routes" else f"sur {names}"
        return (
            f"{where[0].upper()}{where[1:]}, chaque carte de la couleur payée peut être remplacée par {cards}, "
            f"{jokers} : ces cartes suivent les autres cartes de la route, une à une."
        )

    def example(self, edition: Edition, engine: Any) -> tuple[str, tuple[str, ...], tuple] | None:
        """A ferry paid with a set instead of its locomotive, played by the engine at build time."""
        substitute = next((s for s in self.rules(edition) if s.replaces == "locomotive"), None)
        if substitute is None:
            return None
        route = next(
            (
                r
                for r in edition.board.routes
                if covers(edition, r, substitute) and r.ferry == 1 and r.length >= 2 and r.color != "gray"
            ),
            None,
        )
        if route is None:
            return None
        others = [
            c.color.value for c in edition.cards if c.color.value not in (route.color, edition.joker.value)
        ]
        given = [others[index % 2] for index in range(substitute.cards)]
        hand = {route.color: route.length - 1}
        for color in given:
            hand[color] = hand.get(color, 0) + 1
        state = engine.new_game(edition.players.min, 0).to_dict()
        for player in state["players"]:
            player["pending_tickets"] = []
        state["players"][0]["hand"] = {color: hand.get(color, 0) for color in engine.COLORS}
        state.update(phase="turn", current_player=0, deck=[], discard=[])
        what = "l’exemple de lot de cartes"
        try:
            game = engine.Game.from_dict(state)
            game.apply({"type": "claim_route", "route": route.id, "cards": {route.color: route.length - 1}})
            owed = game.to_dict()["owed_cards"]["owed"]
            for color in given:
                game.apply({"type": "pay_card", "color": color})
        except (ValueError, engine.IllegalAction) as error:
            raise refused(substitute.span, what, error) from None
        after = game.to_dict()["players"][0]
        assert route.id in after["routes"], "the example's route is taken"
        laid = cards_phrase(route.length - 1, route.color)
        shown = enumerate_fr([cards_phrase(1, color) for color in given])
        return (
            "Exemple de lot de cartes",
            (
                f"Le ferry {ends_name(route)} a {words(route.length, feminine=True)} cases {CARD_ADJECTIVES[route.color][1]}, dont une "
                f"locomotive. Sans {JOKERS[edition.joker.value][0]}, tu poses {laid}, puis tu donnes, une à une, "
                f"les {words(owed, feminine=True)} cartes du lot qui la remplacent : {shown}. La route est à toi et "
                f"te rapporte {after['score']} points.",
            ),
            (),
        )

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        substitutes = self.rules(edition)
        shown = self.example(edition, engine)
        joker = JOKERS[edition.joker.value][0]
        return SheetWords(
            sections=(shown,) if shown else (),
            claim=tuple(self.sentence(edition, s) for s in substitutes),
            summary=tuple(
                f"{joker[0].upper() + joker[1:] + ' d’un ferry' if s.replaces == 'locomotive' else 'Carte de la couleur'} = "
                f"{s.cards} cartes au choix"
                + (
                    ""
                    if s.on in KINDS
                    else f" ({enumerate_fr(sorted({ends_name(r) for r in self._routes(edition, s)}))})"
                )
                + "."
                for s in substitutes
            ),
            mistakes=tuple(
                f"Payer un lot de {s.cards} cartes ailleurs qu’{'un ferry' if s.replaces == 'locomotive' else 'où la règle le permet'}, "
                "ou avec moins de cartes."
                for s in substitutes
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        return [
            Fact(
                section="Le tour",
                label="Lots de cartes pour "
                + ("une locomotive de ferry" if s.replaces == "locomotive" else "une carte de la couleur"),
                value=f"{s.cards} {counted(s.cards, 'carte', 'cartes')} ; {_lowered(self.sentence(edition, s)[:-1])}",
            )
            for s in self.rules(edition)
        ]


MECHANISM = CardSets()
