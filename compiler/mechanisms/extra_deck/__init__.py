"""A second deck of cards: identical cards, each covering some of the locomotives a ferry needs.

``extra_deck { french "carte Ferry"; cards 10; covers 2; hold_at_most 2 }`` (Italy's ferry
cards): the cards make a face-down pile beside the train cards. Taking its top card is a whole
turn (``{"type": "draw_extra_card"}``); with ``hold_at_most N``, a player holding N takes none
(``extra_hand_full``), the limit any holding may declare (``french.hold_limit`` words it). A claim of a ferry may lay some of them
(``"extra_cards": N``), each standing for up to ``covers`` of the locomotives the ferry needs
(its wave spaces); locomotives pay the rest of them, and the route's other spaces are paid as
usual. The cards laid go back under their pile (they are all alike, so the pile is a count); how
many each player holds is public. Issue 24: a second deck of cards with its own draw and use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...emit.worked import refused
from ...french import JOKERS, cards_phrase, hold_limit, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ...ir.action_space import Part, ways_to_pay
from ..base import (
    ActionSentence,
    ActionWords,
    ApiTypes,
    Fact,
    Mechanism,
    SheetWords,
    citation,
    ends_name,
    sentence_text,
)
from ..state import Scope, Shape, StateField


@dataclass(**IR)
class ExtraDeck:
    singular: str  # « carte Ferry »
    plural: str  # « cartes Ferry »
    cards: int  # the cards of the deck
    covers: int  # the most locomotives of a ferry one card stands for
    hold_at_most: int | None = None  # the most a player may hold; None: no limit
    span: Span | None = field(default=None, compare=False)

    @property
    def most_held(self) -> int:
        """The most one player can hold: the limit, or the whole deck."""
        return min(self.cards, self.hold_at_most) if self.hold_at_most is not None else self.cards

    def limit_words(self) -> tuple[str, str] | None:
        """The limit's sentence on the sheet and its refusal, or None without one."""
        if self.hold_at_most is None:
            return None
        return hold_limit(self.hold_at_most, self.singular, self.plural)

    def most_for(self, ferry: int) -> int:
        """The most cards a claim of a ferry needing `ferry` locomotives may lay: each covers one at least."""
        return -(-ferry // self.covers)


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: ExtraDeck

    @property
    def literal(self) -> str:
        rule = self.rule
        return repr(
            {
                "singular": rule.singular,
                "plural": rule.plural,
                "cards": rule.cards,
                "covers": rule.covers,
                "hold_at_most": rule.hold_at_most,
            }
        )

    @property
    def limit(self) -> int | None:
        """The most cards of the deck a player may hold, None without a limit."""
        return self.rule.hold_at_most

    @property
    def citation(self) -> str:
        return citation((self.rule,))


def plural_of(name: str) -> str:
    """The plural of a card's name when the spec gives none: its first word takes the s
    (« carte Ferry » → « cartes Ferry »)."""
    first, _, rest = name.partition(" ")
    return f"{first}s {rest}" if rest else f"{first}s"


class ExtraDeckRules(Mechanism):
    name = "extra_deck"
    french = "la seconde pioche de cartes"
    rule_types = (ExtraDeck,)
    folder = Path(__file__).resolve().parent
    statement = "extra_deck"
    exports = ("EXTRA_DECK",)
    # The native engine lists its claims and its draw from its tables (`extra_claims`), and
    # deals it from its declared fields; it adds no score line.
    native = True
    native_scoring = True
    native_kinds = ("KIND_EXTRA_CLAIM", "KIND_EXTRA_DRAW")

    def native_more_claims(self, edition: Edition) -> tuple[str, str] | None:
        return ("extra_claims", "EXTRA_ID")

    def native_turn_actions(self, edition: Edition) -> tuple[str, str, str | None] | None:
        return ("extra_draws", "extra_draw_id", None)

    api = ApiTypes(
        fields={
            "State": {"extra_pile": "int"},
            "PlayerState": {"extra_cards": "int"},
            "Observation": {"extra_pile": "int"},
            "ObservedPlayer": {"extra_cards": "int"},
            "ClaimRoute": {"extra_cards": "NotRequired[int]"},
        },
        actions={"draw_extra_card": {}},
    )

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        return {"draw_extra_card": ("_apply_draw_extra_card", (), ())}

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        item = data.get("extra_deck")
        if not item:
            return ()
        return (
            ExtraDeck(
                singular=item["french"],
                plural=item.get("plural", plural_of(item["french"])),
                cards=item["cards"],
                covers=item["covers"],
                hold_at_most=item.get("hold_at_most"),
                span=span("extra_deck"),
            ),
        )

    def check(self, checker: Any) -> None:
        """A board with ferries, none a tunnel; no sets of cards for a ferry's locomotives, no teams."""
        rule = checker.data.get("extra_deck")
        if not rule or not checker.has("board"):
            return
        routes = checker.data["board"].get("route", [])
        ferries = [route for route in routes if route.get("ferry")]
        if not ferries:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"les {rule.get('plural', plural_of(rule['french']))} couvrent les locomotives des ferries, et ce "
                "plateau n’a pas de ferry",
                ("extra_deck",),
                "marque les ferries de leurs locomotives : « route … ferry: N »",
            )
        tunnels = sorted({f"{route['a']} – {route['b']}" for route in ferries if route.get("tunnel")})
        if tunnels:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"un ferry payé avec la seconde pioche ne peut pas être un tunnel : {', '.join(tunnels)}",
                ("extra_deck",),
            )
        if any(item.get("replaces") == "locomotive" for item in checker.data.get("substitute", [])):
            checker.report(
                Code.INCONSISTENT_RULE,
                "la seconde pioche et un lot de cartes couvrent tous deux les locomotives des ferries : "
                "garde l’un des deux",
                ("extra_deck",),
            )
        if checker.data.get("teams"):
            checker.report(
                Code.INCONSISTENT_RULE,
                "la seconde pioche ne se combine pas encore avec « teams »",
                ("extra_deck",),
            )

    # -- engine ------------------------------------------------------------
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        return {
            "draw_extra_card": ActionSentence(text=f"prend une {sentence_text(self.rule(edition).singular)}")
        }

    def payment_words(self, edition: Edition) -> tuple[tuple[str, str, str], ...]:
        rule = self.rule(edition)
        return (("extra_cards", rule.singular, rule.plural),)

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        rule = self.rule(edition)
        conserved = ("extra deck", rule.cards)
        return (
            StateField(
                key="extra_pile",
                derived=True,
                scope=Scope.GAME,
                shape=Shape.COUNT,
                label=f"{rule.plural} de la pioche",
                start=rule.cards,
                at_most=rule.cards,
                conserved=conserved,
            ),
            StateField(
                key="extra_cards",
                derived=True,
                scope=Scope.PLAYER,
                shape=Shape.COUNT,
                label=f"{rule.plural} en main",
                conserved=conserved,
                at_most=rule.most_held,
            ),
        )

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(rule=self.rule(edition))

    def expressions(self, edition: Edition) -> dict[str, str]:
        # The locomotives of a ferry the claim's cards of the second deck stand for.
        return {"claim_covered": "extra_covered", "ferry_covered": "extra_covered"}

    def action_fields(self, edition: Edition) -> dict[str, tuple[str, ...]]:
        return {"claim_route": ("extra_cards",)}

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:
        """The draw of its top card, and each ferry's claims laying some of its cards."""

        rule = self.rule(edition)
        plain = len(edition.cards) - 1
        count = 1
        for route in edition.board.routes:
            for laid in range(1, rule.most_for(route.ferry) + 1 if route.ferry else 1):
                covered = min(laid * rule.covers, route.ferry)
                rest = route.length - covered
                colors = plain if route.color == "gray" else 1
                count += ways_to_pay(rest, colors, route.ferry - covered, True, False) if rest else 1
        return [Part(what="« extra_deck »", actions=count, span=rule.span)]

    def messages(self, edition: Edition) -> dict[str, str]:
        rule = self.rule(edition)
        limit = rule.limit_words()
        held = {"extra_hand_full": limit[1]} if limit else {}
        return held | {
            "bad_extra_cards": f"Le nombre de {rule.plural} doit être un entier positif, pas {{count}}.",
            "extra_cards_not_ferry": f"Les {rule.plural} ne se jouent que sur un ferry, pas sur {{route}}.",
            "extra_cards_too_many": "Ce ferry demande {locomotives} : au plus {most} y suffisent.",
            "not_enough_extra_cards": f"Pas assez de {rule.plural} : il en faut {{wanted}}, tu en as {{held}}.",
            "extra_pile_empty": f"La pioche des {rule.plural} est vide.",
        }

    # -- words -------------------------------------------------------------
    def example(self, edition: Edition, engine: Any) -> tuple[str, tuple[str, ...], tuple] | None:
        """A ferry claimed with one card of the deck and a locomotive, played by the engine at build time."""
        rule = self.rule(edition)
        candidates = [
            r
            for r in edition.board.routes
            if r.ferry > rule.covers and r.length > r.ferry and r.double_group is None
        ]
        if not candidates:
            return None
        route = min(candidates, key=lambda r: (r.ferry, r.length, r.id))
        color = "red" if route.color == "gray" else route.color
        joker = edition.joker.value
        jokers = route.ferry - rule.covers
        colored = route.length - route.ferry
        state = engine.new_game(edition.players.min, 0).to_dict()
        for player in state["players"]:
            player["pending_tickets"] = []
        hand = {color: colored, joker: jokers}
        state["players"][0]["hand"] = {c: hand.get(c, 0) for c in engine.COLORS}
        state["players"][0]["extra_cards"] = 1
        state["extra_pile"] = rule.cards - 1
        state.update(phase="turn", current_player=0, deck=[], discard=[])
        what = f"l’exemple de {rule.singular}"
        try:
            game = engine.Game.from_dict(state)
            game.apply({"type": "claim_route", "route": route.id, "cards": dict(hand), "extra_cards": 1})
        except (ValueError, engine.IllegalAction) as error:
            raise refused(rule.span, what, error) from None
        after = game.to_dict()
        assert route.id in after["players"][0]["routes"], "the example's route is taken"
        assert after["extra_pile"] == rule.cards, "the card laid goes back under its pile"
        laid = cards_phrase(colored, color)
        locomotives = cards_phrase(jokers, joker)
        covered = words(rule.covers, feminine=True)
        return (
            f"Exemple de {rule.singular}",
            (
                f"Le ferry {ends_name(route)} a {words(route.length, feminine=True)} cases, dont "
                f"{words(route.ferry, feminine=True)} marquées d’une locomotive. Tu poses une {rule.singular}, qui "
                f"en couvre {covered}, {locomotives} pour "
                f"{'la dernière' if jokers == 1 else 'les autres'}, et {laid} pour les cases sans locomotive. "
                f"La route est à toi et te rapporte {after['players'][0]['score']} points ; ta {rule.singular} "
                "retourne sous sa pioche.",
            ),
            (),
        )

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        shown = self.example(edition, engine)
        one, many = JOKERS[edition.joker.value]
        covered = words(rule.covers, feminine=True)
        pile = f"la pioche des {rule.plural}"
        limit = rule.limit_words()
        # The limit is said where the card is taken, and in the mistakes and the summary.
        held = f" {limit[0]}" if limit else ""
        most = f" ; {words(rule.hold_at_most, feminine=True)} au plus en main" if limit else ""
        beyond = (
            (
                f"Prendre une {rule.singular} quand on en a déjà {words(rule.hold_at_most, feminine=True)} en main.",
            )
            if limit
            else ()
        )
        return SheetWords(
            sections=(shown,) if shown else (),
            material_last=(f"{rule.cards} {rule.plural}, toutes pareilles",),
            setup_first=(
                f"Mélange à part les {rule.plural} : elles forment une pioche face cachée, à côté des cartes "
                "Wagon. Personne n’en a au départ.",
            ),
            actions=(
                ActionWords(
                    name=f"prendre une {rule.singular}",
                    title=f"Prendre une {rule.singular}",
                    paragraphs=(
                        f"Prends la carte du dessus de {pile} : c’est tout ton tour, comme une {one} prise "
                        f"face visible.{held} Les {rule.plural} que chacun tient se montrent : elles sont "
                        "toutes pareilles. Quand la pioche est vide, on ne peut plus en prendre.",
                    ),
                ),
            ),
            claim=(
                f"Une {rule.singular} peut remplacer jusqu’à {covered} des {many} qu’un ferry demande ; les "
                f"{many} paient celles qui restent, et les autres cases se paient comme d’habitude. Les "
                f"{rule.plural} posées retournent sous leur pioche.",
            ),
            mistakes=(
                f"Jouer une {rule.singular} ailleurs que sur un ferry, ou la garder après l’avoir posée.",
                *beyond,
            ),
            summary=(
                f"{rule.singular[0].upper()}{rule.singular[1:]} = jusqu’à {covered} {many} d’un ferry ; en "
                f"prendre une est tout le tour{most}.",
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        rule = self.rule(edition)
        name = rule.plural[0].upper() + rule.plural[1:]
        return [
            Fact(section="Matériel", label=name, value=str(rule.cards)),
            Fact(
                section="Le tour",
                label=f"Prendre une {rule.singular}",
                value=f"tout le tour ; elle couvre jusqu’à {words(rule.covers, feminine=True)} {JOKERS[edition.joker.value][1]} d’un ferry",
            ),
        ] + (
            [
                Fact(
                    section="Le tour",
                    label=f"{name} en main",
                    value=f"{words(rule.hold_at_most, feminine=True)} au plus",
                )
            ]
            if rule.hold_at_most is not None
            else []
        )


MECHANISM = ExtraDeckRules()
