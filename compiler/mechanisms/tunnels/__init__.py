"""Tunnels: a claim turns over cards of the deck, and each of the colour paid costs one more.

``tunnels reveal: 3`` (Europe, Switzerland, Nordic Countries) with routes marked ``tunnel: yes``
(a route may print its own ``reveal: N``): once the route's cards are laid, the top cards of the
deck are turned over; each of the colour paid, jokers included, asks one more card of that
colour or a joker (paid with jokers only, only the jokers turned over count). The player pays
it (``pay_tunnel``) or takes the cards back (``abandon_tunnel``); the turn ends either way.
``tunnel_example ROUTE { cards […]; revealed […] }`` is the sheet's worked example, played by
the engine at build time. The marks on the routes are board data (the joker reads them too);
this folder holds what they mean. Moved here from the core (issue 22).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...emit.worked import refused, restored
from ...french import CARD_ADJECTIVES, JOKERS, JokerWording, cards_phrase, counted, enumerate_fr, words
from ...frontend.positions import Span
from ...frontend.text import Text
from ...ir import IR, Edition, Route
from ...ir.action_space import MAX_ACTIONS, Part, ways_to_pay
from ...ir.ids import assign_ids
from ..base import ActionSentence, ApiTypes, Fact, Mechanism, SheetWords, citation
from ..state import Scope, Shape, StateField
from ..used import joker_wording, used_by


@dataclass(**IR)
class TunnelExample:
    route: str
    cards: tuple[str, ...]
    revealed: tuple[str, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Tunnels:
    """A tunnel claim turns over the top `reveal` cards; each of the colour used costs one more card."""

    reveal: int
    example: TunnelExample | None = None  # the sheet's worked example
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: Tunnels
    most_revealed: int = 1  # the most cards a tunnel of the board turns over

    @property
    def reveal(self) -> int:
        return self.rule.reveal

    @property
    def citation(self) -> str:
        return citation((self.rule,))


@dataclass(frozen=True, slots=True, kw_only=True)
class TunnelOutcome:
    """The spec's tunnel example as the generated engine settled it."""

    a: str
    b: str
    length: int
    cards: tuple[str, ...]
    revealed: tuple[str, ...]
    color: str  # the colour that counts: the one paid, or locomotive
    surcharge: int


def play_example(example: TunnelExample, edition: Edition, engine: types.ModuleType) -> TunnelOutcome:
    """Lay the cards, stack the deck with the revealed cards, and let the engine claim the tunnel."""
    state = engine.new_game(edition.players.min, 0).to_dict()
    for player in state["players"]:
        player["pending_tickets"] = []
    hand = {color: example.cards.count(color) for color in set(example.cards)}
    state["players"][0]["hand"] = {color: hand.get(color, 0) for color in engine.COLORS}
    state["deck"] = list(example.revealed)
    state.update(phase="turn", current_player=0, discard=[])
    game = restored(engine, state, example.span, "l’exemple de tunnel")
    try:
        game.apply({"type": "claim_route", "route": example.route, "cards": hand})
    except engine.IllegalAction as error:
        raise refused(example.span, "l’exemple de tunnel", error) from None
    tunnel = game.to_dict()["tunnel"]
    route = engine.ROUTES[example.route]
    plain = [color for color in example.cards if color != "locomotive"]
    return TunnelOutcome(
        a=Text(route["a"]),
        b=Text(route["b"]),
        length=route["length"],
        cards=example.cards,
        revealed=example.revealed,
        color=plain[0] if plain else "locomotive",
        surcharge=0 if tunnel is None else tunnel["surcharge"],
    )


def _laid(colors: tuple[str, ...]) -> str:
    """« trois cartes noires », « deux cartes rouges et une locomotive »"""
    kinds = sorted(set(colors), key=lambda color: (color in JOKERS, colors.index(color)))
    return enumerate_fr([cards_phrase(colors.count(color), color) for color in kinds])


def _revealed(colors: tuple[str, ...]) -> str:
    """« une noire, une locomotive et une rouge »"""
    return enumerate_fr(
        [
            f"une {JOKERS[color][0]}" if color in JOKERS else f"une {CARD_ADJECTIVES[color][0]}"
            for color in colors
        ]
    )


def example_paragraph(x: TunnelOutcome, joker: JokerWording) -> str:
    if x.color in JOKERS:
        what = f"seules les {joker.many} retournées comptent"
        extra = cards_phrase(x.surcharge, x.color)
    else:
        what = f"les {CARD_ADJECTIVES[x.color][1]} et les {joker.many} retournées comptent"
        extra = f"{cards_phrase(x.surcharge, x.color)} ou {joker.many if x.surcharge > 1 else joker.one}"
    matches = counted(x.surcharge, "carte correspond", "cartes correspondent")
    outcome = (
        f"{words(x.surcharge, feminine=True).capitalize()} {matches} : il faut payer {extra} de plus, ou "
        "reprendre ses cartes et finir son tour."
        if x.surcharge
        else "Aucune carte ne correspond : la route est prise sans rien payer de plus."
    )
    return (
        f"Pour prendre le tunnel {x.a} – {x.b} ({x.length} cases), tu poses {_laid(x.cards)} : {what}. "
        f"On retourne {_revealed(x.revealed)}. {outcome}"
    )


class TunnelRules(Mechanism):
    name = "tunnels"
    french = "les tunnels"
    native = True  # the native engine plays the tunnel phase (its `native` parts)
    native_scoring = True  # it changes neither the set-up nor the scoring
    native_kinds = ("KIND_PAY_TUNNEL", "KIND_ABANDON_TUNNEL")
    native_phases = {"tunnel": "TUNNEL"}
    rule_types = (Tunnels,)
    folder = Path(__file__).resolve().parent
    exports = ("TUNNEL_REVEAL",)

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {"tunnel": ("tunnel_options", "REVEAL_MOST + 2")}  # each way to pay, and giving up

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        shared = ("holder_cards",) if any(m.pays_from_shared(edition) for m in used_by(edition)) else ()
        return {
            "pay_tunnel": ("_apply_pay_tunnel", ("cards",), shared),
            "abandon_tunnel": ("_apply_abandon_tunnel", (), ()),
        }

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        if "tunnels" not in data:
            return ()
        example = data.get("tunnel_example")
        return (
            Tunnels(
                reveal=data["tunnels"]["reveal"],
                example=TunnelExample(
                    route=example["route"],
                    cards=tuple(example["cards"]),
                    revealed=tuple(example["revealed"]),
                    span=span("tunnel_example"),
                )
                if example
                else None,
                span=span("tunnels"),
            ),
        )

    # -- checks --------------------------------------------------------------
    def check(self, checker: Any) -> None:
        data = checker.data
        board = data.get("board", {})
        routes = board.get("route")
        if not isinstance(routes, list):
            return
        for index, route in enumerate(routes):
            path = ("board", "route", index)
            if route.get("reveal") and not route.get("tunnel"):
                checker.report(
                    Code.INCONSISTENT_RULE,
                    "seul un tunnel retourne des cartes (« reveal »)",
                    path + ("reveal",),
                )
            if route.get("tunnel") and "tunnels" not in data:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    "une route tunnel demande la règle « tunnels »",
                    path + ("tunnel",),
                )
        checker.count(
            "tunnels",
            sum(bool(r.get("tunnel")) for r in routes),
            board.get("expect", {}).get("tunnels"),
            ("board", "expect", "tunnels"),
        )
        if data.get("tunnel_example") and "cards" in data:
            self._check_example(checker, data["tunnel_example"], routes)

    def _check_example(self, checker: Any, example: dict, routes: list[dict]) -> None:
        route_ids = assign_ids(routes, by_color=True)
        if example["route"] not in route_ids:
            checker.report(
                Code.UNKNOWN_REFERENCE,
                f"« {example['route']} » n’existe pas",
                ("tunnel_example", "route"),
                did_you_mean(example["route"], route_ids),
            )
        elif not routes[route_ids.index(example["route"])].get("tunnel"):
            # Blamed on the route's own `tunnel` mark when the edition changed it there.
            marked = ("board", "route", route_ids.index(example["route"]), "tunnel")
            local = checker.declared_here(marked)
            checker.report(
                Code.INCONSISTENT_RULE,
                f"« {example['route']} » n’est pas un tunnel",
                marked if local else ("tunnel_example", "route"),
                hint="retirez aussi l’exemple : « without tunnel_example »" if local else None,
            )
        else:
            self._check_example_reveal(checker, example, route_ids.index(example["route"]))
        in_deck = {card for card, count in checker.data["cards"].items() if count}
        for key in ("cards", "revealed"):
            unknown = sorted({card for card in example[key] if card not in in_deck})
            if unknown:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"l’exemple de tunnel nomme des cartes que l’édition n’a pas : {', '.join(unknown)}",
                    ("tunnel_example", key),
                    hint="« without tunnel_example », ou un exemple avec les cartes de l’édition",
                )

    @staticmethod
    def _check_example_reveal(checker: Any, example: dict, index: int) -> None:
        """The example turns over as many cards as its tunnel does; blamed on the edition's own
        rule (`tunnels reveal`, or the route's printed `reveal`) when it changed the rule under an
        inherited example."""
        data = checker.data
        route = data["board"]["route"][index]
        reveal = route.get("reveal") or data.get("tunnels", {}).get("reveal")
        if reveal is None or len(example["revealed"]) == reveal:
            return
        rule_path = ("board", "route", index, "reveal") if route.get("reveal") else ("tunnels", "reveal")
        rule_changed_here = checker.declared_here(rule_path)
        inherited_example = not checker.declared_here(("tunnel_example", "revealed"))
        checker.report(
            Code.INCONSISTENT_RULE,
            f"l’exemple de tunnel retourne {len(example['revealed'])} cartes, mais ce tunnel en retourne {reveal}",
            rule_path if rule_changed_here and inherited_example else ("tunnel_example", "revealed"),
            hint=f"un exemple qui retourne {reveal} cartes, ou « without tunnel_example »",
        )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        """``without tunnels``: the rule, its example, every route's mark and the count that checks them."""
        if "tunnels" not in data:
            return None
        data.pop("tunnels")
        data.pop("tunnel_example", None)
        board = data["board"] = dict(data["board"])  # it may be the parent's own
        board["route"] = [
            {key: value for key, value in route.items() if key != "tunnel"} for route in board["route"]
        ]
        expect = board.get("expect")
        if isinstance(expect, dict) and "tunnels" in expect:
            board["expect"] = {key: value for key, value in expect.items() if key != "tunnels"}
        return ("tunnels", "board", "tunnel_example")

    # -- engine ------------------------------------------------------------
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        return {
            "pay_tunnel": ActionSentence(text="paie le supplément du tunnel : {cards:payment}"),
            "abandon_tunnel": ActionSentence(text="renonce au tunnel"),
        }

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        return (
            StateField(
                key="tunnel",
                scope=Scope.GAME,
                shape=Shape.PENDING,
                label="tunnel en attente de son supplément",
                phase="tunnel",
                # The cards laid from a team's holder are kept apart, where team play pays from it.
                keys=("route", "cards", "revealed", "color", "surcharge")
                + (("holder_cards",) if any(m.pays_from_shared(edition) for m in used_by(edition)) else ()),
                derived=True,
            ),
        )

    def engine_view(self, edition: Edition) -> EngineView:
        rule = self.rule(edition)
        turned = [route.reveal or rule.reveal for route in edition.board.routes if route.tunnel]
        return EngineView(rule=rule, most_revealed=max(turned, default=1))

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("tunnel",)

    def api_types(self, edition: Edition) -> ApiTypes:
        claim = {
            "route": "RouteId",
            "cards": "Cards",
            "revealed": "list[Color]",
            "color": "Color",
            "surcharge": "int",
        }
        pay = {"cards": "Cards"}
        if any(mechanism.pays_from_shared(edition) for mechanism in used_by(edition)):
            claim["holder_cards"] = "Cards"  # the claim's cards from the team's holder
            pay["holder_cards"] = "NotRequired[Cards]"
        return ApiTypes(
            fields={
                "RouteRecord": {"tunnel": "bool", "reveal": "int"},
                "State": {"tunnel": "TunnelClaim | None"},
                "Observation": {"tunnel": "TunnelClaim | None"},
            },
            records={"TunnelClaim": claim},
            actions={"pay_tunnel": pay, "abandon_tunnel": {}},
        )

    def route_record(self, edition: Edition, route: Route) -> dict[str, Any]:
        return {
            "tunnel": route.tunnel,
            "reveal": (route.reveal or self.rule(edition).reveal) if route.tunnel else 0,
        }

    def engine_helpers(self, edition: Edition) -> frozenset[str]:
        return frozenset({"payments"})

    def messages(self, edition: Edition) -> dict[str, str]:
        return {
            "must_settle_tunnel": "Paie le supplément du tunnel ou renonces-y d’abord.",
            "no_tunnel_pending": "Aucun tunnel n’attend de paiement.",
            "wrong_tunnel_payment": "Le supplément du tunnel est de {cards}.",
        }

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:

        rule = self.rule(edition)
        plain = len(edition.cards) - 1
        revealed = max(
            (route.reveal or rule.reveal for route in edition.board.routes if route.tunnel), default=0
        )
        surcharges, surcharge = 1, 0  # abandoning the tunnel, then paying 1, 2… more cards
        while surcharge < revealed and surcharges <= MAX_ACTIONS:
            surcharge += 1
            surcharges += ways_to_pay(surcharge, plain, 0, True, split)
        return [Part(what="« tunnels »", actions=surcharges, span=rule.span, capped=surcharge < revealed)]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: types.ModuleType) -> SheetWords:
        rule = self.rule(edition)
        joker = joker_wording(edition)
        tunnels = [route for route in edition.board.routes if route.tunnel]
        reveals = sorted({route.reveal or rule.reveal for route in tunnels})
        if len(reveals) > 1:
            # Each tunnel prints its own number of cards to turn over.
            top = f"autant de cartes de la pioche que le tunnel en indique (de {reveals[0]} à {reveals[-1]})"
            short = "s’il en reste moins, on retourne celles qui restent, et aucune si la pioche est vide"
        elif rule.reveal == 1:
            top = "la première carte de la pioche"
            short = "si la pioche est vide, on n’en retourne aucune"
        else:
            top = f"les {words(rule.reveal, feminine=True)} premières cartes de la pioche"
            short = (
                "si la pioche s’épuise pendant qu’on retourne, la défausse est mélangée pour la refaire ; "
                f"s’il reste en tout moins de {words(rule.reveal, feminine=True)} cartes, on retourne "
                "celles qui restent"
            )
        claim = (
            f"Tunnels ({len(tunnels)} sur le plateau) : pose les cartes de la route, puis retourne {top}. "
            "Chaque carte retournée de la couleur que tu "
            f"as jouée, {joker.many} comprises, demande une carte de plus de cette couleur ou une "
            f"{joker.one}. Si tu as payé uniquement avec des {joker.many}, seules les "
            f"{joker.many} retournées comptent, et seules des {joker.many} paient le supplément. "
            "Paie le supplément, ou reprends tes cartes : ton tour est fini. Les cartes retournées sont "
            f"défaussées ; {short}."
        )
        sections = ()
        if rule.example is not None:
            from ...emit.escape import for_markdown  # the emitters import the mechanisms

            outcome = for_markdown(play_example(rule.example, edition, engine))
            sections = (("Exemple de tunnel", (example_paragraph(outcome, joker),), ()),)
        return SheetWords(
            claim=(claim,),
            sections=sections,
            mistakes=(
                f"Oublier que les {joker.many} retournées comptent aussi pour le supplément d’un tunnel.",
            ),
            decisions=("Quand aucune carte retournée ne correspond, le tunnel est pris sans autre choix.",),
            summary=(
                f"Tunnel = {cards_phrase(rule.reveal, 'any')} retournée{'s' if rule.reveal > 1 else ''}, "
                "une de plus par correspondance.",
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        rule = self.rule(edition)
        tunnels = sum(1 for route in edition.board.routes if route.tunnel)
        if not tunnels:
            return []
        return [
            Fact(
                section="Le plateau",
                label="Tunnels",
                value=f"{tunnels}, {cards_phrase(rule.reveal, 'any')} "
                f"{counted(rule.reveal, 'retournée', 'retournées')}",
            )
        ]


MECHANISM = TunnelRules()
