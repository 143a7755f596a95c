"""Claim effects: what a route's claim costs and gains for each unit of one of its properties.

Legendary Asia's mountains: each mountain mark (X) of a route costs one more train from the
player's supply, set aside, and scores 2 points at the claim. Written
``claim_effect mountains per: mountain trains: 1 points: 2``; any edition may count any
property it declares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import amount, counted, words
from ...frontend.positions import Span
from ...ir import IR, Edition, Route
from ..base import ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation
from ..marks import BoardMark, MarkKind


def _lowered(sentence: str) -> str:
    """A sentence continuing another: its first letter in lower case, the rest as written."""
    return sentence[:1].lower() + sentence[1:]


@dataclass(**IR)
class ClaimEffect:
    id: str
    per: str  # the route property counted
    trains: int = 0  # trains set aside per unit
    cards: int = 0  # cards of any colour paid besides the route's own, per unit
    points: int = 0  # points scored at the claim per unit
    span: Span | None = field(default=None, compare=False)


def units(edition: Edition, route: Route, effect: ClaimEffect) -> int:
    """How many times the effect applies to the route: its property, yes counting 1."""
    return int(edition.route_property(route, effect.per))


@dataclass(frozen=True, slots=True)
class EngineView:
    edition: Edition
    effects: tuple[ClaimEffect, ...]

    @property
    def effects_literal(self) -> str:
        return repr({e.id: (e.per, e.trains, e.points) for e in self.effects})

    @property
    def cards_literal(self) -> str:
        return repr({e.id: (e.per, e.cards) for e in self.effects if e.cards})

    @property
    def owes_cards(self) -> bool:
        return any(e.cards for e in self.effects)

    @property
    def citation(self) -> str:
        return citation(self.effects)


class ClaimEffects(Mechanism):
    name = "claim_effects"
    french = "les coûts et gains d’une prise"
    native = True  # trains set aside and points at the claim (`plays_natively`: not cards owed)
    native_scoring = True  # each effect's points in the record: its `score_player` part
    rule_types = (ClaimEffect,)
    folder = Path(__file__).resolve().parent
    statement = "claim_effect"
    exports = ("CLAIM_EFFECTS",)
    api = ApiTypes(fields={"ScoreRecord": {"claim_effects": "dict[str, int]"}})  # points by effect

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        return tuple(
            ClaimEffect(
                id=item["id"],
                per=item["per"],
                trains=item.get("trains", 0),
                cards=item.get("cards", 0),
                points=item.get("points", 0),
                span=span("claim_effect", index),
            )
            for index, item in enumerate(data.get("claim_effect", []))
        )

    def check(self, checker: Any) -> None:
        declared = {p["name"]: p["default"] for p in checker.data["board"].get("property", [])}
        for index, item in enumerate(checker.data.get("claim_effect", [])):
            per = item.get("per")
            if per not in declared:
                checker.report(
                    Code.UNKNOWN_REFERENCE,
                    f"« {per} » n’est pas une propriété des routes de ce plateau",
                    ("claim_effect", index, "per"),
                    did_you_mean(per, list(declared))
                    or 'déclarez-la dans le plateau : property NOM default: 0 french: "…"',
                )
            elif isinstance(declared[per], str):
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"« {per} » est un nom, pas un nombre : un effet ne peut pas le compter",
                    ("claim_effect", index, "per"),
                )
            elif item.get("cards"):
                self._check_cards(checker, index, per)

    @staticmethod
    def _check_cards(checker: Any, index: int, per: str) -> None:
        """Cards of any colour owed after a claim: never on a tunnel (whose surcharge counts the
        colour paid), nor in team play (whose claims pay from two places)."""
        if "teams" in checker.data:
            checker.report(
                Code.INCONSISTENT_RULE,
                "des cartes de plus ne se paient pas en équipe (la main et le porte-cartes paient ensemble)",
                ("claim_effect", index, "cards"),
            )
        for number, route in enumerate(checker.data["board"]["route"]):
            if route.get(per) and route.get("tunnel"):
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"un tunnel ne coûte pas de cartes de plus (« {per} ») : son supplément compte la "
                    "couleur payée",
                    ("board", "route", number, per),
                )

    def properties_used(self, edition: Edition) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.per for e in self.rules(edition)))

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return tuple(
            ScoreLine(label=edition.property_named(effect.per).plural, path=("claim_effects", effect.id))
            for effect in self.rules(edition)
            if effect.points
        )

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(edition=edition, effects=self.rules(edition))

    def expressions(self, edition: Edition) -> dict[str, str]:
        terms = {}
        if any(e.trains for e in self.rules(edition)):
            terms["claim_trains"] = "_ROUTE_SET_ASIDE[route]"
        if self.owes_cards(edition):
            terms["claim_owed"] = terms["claim_extra_cards"] = "_ROUTE_EXTRA_CARDS[route]"
        return terms

    def owes_cards(self, edition: Edition) -> bool:
        return any(e.cards for e in self.rules(edition))

    def plays_natively(self, edition: Edition) -> bool:
        # Trains set aside and points are native; cards of any colour owed are not yet.
        return not self.owes_cards(edition)

    def set_aside(self, edition: Edition, route: Any) -> int:
        return sum(units(edition, route, e) * e.trains for e in self.rules(edition))

    def claim_points(self, edition: Edition, route: Any) -> int:
        return sum(units(edition, route, e) * e.points for e in self.rules(edition))

    def exports_for(self, edition: Edition) -> tuple[str, ...]:
        return self.exports + (("CARD_EFFECTS",) if self.owes_cards(edition) else ())

    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        marks = []
        for effect in self.rules(edition):
            prop = edition.property_named(effect.per)
            meaning = f"{'une' if prop.feminine else 'un'} {prop.singular}"
            for route in self._marked(edition, effect):
                count = units(edition, route, effect)
                marks.append(
                    BoardMark(kind=MarkKind.CROSSES, targets=(route.id,), count=count, meaning=meaning)
                )
        return tuple(marks)

    # -- worked examples ---------------------------------------------------
    def lay_routes(
        self, edition: Edition, engine: Any, record: dict, routes: tuple[str, ...], seat: int
    ) -> None:
        for per, trains, points in engine.CLAIM_EFFECTS.values():
            for route in routes:
                marks = int(engine.ROUTES[route][per])
                record["trains"] -= marks * trains
                record["score"] += marks * points

    def example_track(self, edition: Edition, result: dict) -> list[tuple[str, int, int]]:
        lines = []
        for effect in self.rules(edition):
            points = result["claim_effects"][effect.id]
            if not points or not effect.points:
                continue
            prop = edition.property_named(effect.per)
            units_held = points // effect.points
            held = (
                f"ses {units_held} {prop.plural}"
                if units_held > 1
                else f"{'sa' if prop.feminine else 'son'} {prop.singular}"
            )
            lines.append((held, points, units_held * effect.trains))
        return lines

    # -- words -----------------------------------------------------------
    def _marked(self, edition: Edition, effect: ClaimEffect) -> list[Route]:
        return [route for route in edition.board.routes if units(edition, route, effect)]

    def sentence(self, edition: Edition, effect: ClaimEffect) -> str:
        """The rule in one French sentence: « Chaque montagne d’une route coûte un wagon de plus… »."""
        prop = edition.property_named(effect.per)
        article = "une" if prop.feminine else "un"
        lead = (
            f"Une route avec {article} {prop.singular}"
            if isinstance(prop.default, bool)
            else f"Chaque {prop.singular} d’une route"
        )
        parts = []
        if effect.trains:
            parts.append(
                f"coûte {words(effect.trains)} {counted(effect.trains, 'wagon', 'wagons')} de plus, "
                "pris dans ta réserve et mis de côté jusqu’à la fin de la partie"
            )
        if effect.cards:
            parts.append(
                f"coûte {words(effect.cards, feminine=True)} {counted(effect.cards, 'carte', 'cartes')} de plus, "
                f"de n’importe quelle couleur, {'données une à une' if effect.cards > 1 else 'donnée'} après "
                "les cartes de la route"
            )
        if effect.points:
            verb = "rapporte" if effect.points > 0 else "fait perdre"
            parts.append(
                f"{verb} aussitôt {abs(effect.points)} {counted(abs(effect.points), 'point', 'points')}"
            )
        return f"{lead} {', et '.join(parts)}."

    def summary_line(self, edition: Edition, effect: ClaimEffect) -> str:
        """« Montagne : un wagon de plus, mis de côté ; +2 points. »"""
        prop = edition.property_named(effect.per)
        lead = (
            f"Route avec {'une' if prop.feminine else 'un'} {prop.singular}"
            if isinstance(prop.default, bool)
            else prop.singular[:1].upper() + prop.singular[1:]
        )
        parts = []
        if effect.trains:
            parts.append(
                f"{words(effect.trains)} {counted(effect.trains, 'wagon', 'wagons')} de plus, mis de côté"
            )
        if effect.cards:
            many = counted(effect.cards, "carte", "cartes")
            parts.append(f"{words(effect.cards, feminine=True)} {many} de plus, de n’importe quelle couleur")
        if effect.points:
            parts.append(f"{'+' if effect.points > 0 else '−'}{abs(effect.points)} points")
        return f"{lead} : {' ; '.join(parts)}."

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        claim, material, mistakes, summary = [], [], [], []
        for effect in self.rules(edition):
            prop = edition.property_named(effect.per)
            marked = self._marked(edition, effect)
            total = sum(units(edition, route, effect) for route in marked)
            routes, tracks = _routes_and_tracks(marked)
            routes = f"{routes} {counted(routes, 'route', 'routes')}" + tracks
            one = f"{'une' if prop.feminine else 'un'} {prop.singular}"
            if isinstance(prop.default, bool):
                material.append(f"{routes} avec {one}")
            elif total == 1:
                material.append(f"{routes} avec {one} (une croix sur le plateau)")
            else:
                each = "chacune" if prop.feminine else "chacun"
                material.append(
                    f"{routes} avec des {prop.plural} ({total} {prop.plural} en tout, "
                    f"une croix sur le plateau pour {each})"
                )
            claim.append(self.sentence(edition, effect))
            if effect.trains:
                claim.append(
                    "Pour prendre une telle route, il faut donc assez de wagons pour ses cases et pour ses "
                    f"{prop.plural} ; les wagons mis de côté comptent comme joués pour le dernier tour."
                )
                mistakes.append(f"Prendre une route sans mettre de côté les wagons de ses {prop.plural}.")
            summary.append(self.summary_line(edition, effect))
        return SheetWords(
            material=tuple(material), claim=tuple(claim), mistakes=tuple(mistakes), summary=tuple(summary)
        )

    def facts(self, edition: Edition) -> list[Fact]:
        found = []
        for effect in self.rules(edition):
            prop = edition.property_named(effect.per)
            routes, tracks = _routes_and_tracks(self._marked(edition, effect))
            found.append(
                Fact(
                    section="Le tour",
                    label=f"Routes avec des {prop.plural}",
                    value=f"{routes}{tracks} ; {_lowered(self.sentence(edition, effect)[:-1])}",
                )
            )
        return found

    def claim_notes(self, edition: Edition, route: Route) -> list[str]:
        effects = self.rules(edition)
        trains = sum(units(edition, route, effect) * effect.trains for effect in effects)
        cards = sum(units(edition, route, effect) * effect.cards for effect in effects)
        points = sum(units(edition, route, effect) * effect.points for effect in effects)
        notes = [f"{amount(trains, 'wagon', 'wagons')} de plus, mis de côté"] * bool(trains)
        notes += [f"{amount(cards, 'carte', 'cartes')} de plus, de n’importe quelle couleur"] * bool(cards)
        notes += [f"{'+' if points > 0 else '−'}{abs(points)} points à la prise"] * bool(points)
        return notes

    def route_words(self, edition: Edition, route: Route) -> list[str]:
        found = []
        for effect in self.rules(edition):
            count = units(edition, route, effect)
            if count:
                prop = edition.property_named(effect.per)
                found.append(
                    prop.singular
                    if isinstance(prop.default, bool)
                    else f"{count} {counted(count, prop.singular, prop.plural)}"
                )
        return found


def _routes_and_tracks(marked: list[Route]) -> tuple[int, str]:
    """The routes as the sheet counts them (the tracks of a double route are one route), and their
    tracks in brackets where there are more: 27, « (31 voies) »."""
    groups = {route.double_group if route.double_group is not None else route.id for route in marked}
    return len(groups), f" ({len(marked)} voies)" if len(groups) != len(marked) else ""


MECHANISM = ClaimEffects()
