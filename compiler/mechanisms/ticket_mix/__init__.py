"""Two decks of tickets, the player choosing how many of a deal or a draw come from each.

``ticket_mix { kind long; french "long"; others "court" }`` (Germany's short and long tickets):
the tickets of ``kind`` make a deck of their own. At set-up each player in turn says how many of
the tickets dealt to them come from it (phase ``ticket_mix``, a ``draw_tickets`` action with the
kind as a field: ``{"type": "draw_tickets", "long": 2}``), then keeps as usual; once everyone has
chosen, the tickets given back go back into their own deck and both decks are shuffled. A ticket
draw in a turn takes the same field (none: the other deck only); the tickets given back then go
under their own deck. Issue 24: ticket decks with a chosen mix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import typo, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ...ir.action_space import Part
from ..base import ActionSentence, ApiTypes, Fact, Mechanism, SheetWords, citation
from ..state import Scope, Seen, Shape, StateField


@dataclass(**IR)
class TicketMix:
    kind: str  # the kind of the tickets of the second deck
    french: str  # their French adjective, masculine singular (« long »)
    others: str  # the other tickets' (« court »)
    span: Span | None = field(default=None, compare=False)

    @property
    def plural(self) -> str:
        return self.french + "s"

    @property
    def others_plural(self) -> str:
        return self.others + "s"


@dataclass(frozen=True, slots=True)
class EngineView:
    rule: TicketMix
    most: int  # the most tickets a deal or a draw takes

    @property
    def literal(self) -> str:
        return repr({"kind": self.rule.kind, "french": self.rule.plural, "others": self.rule.others_plural})

    @property
    def plural(self) -> str:
        return self.rule.plural

    @property
    def citation(self) -> str:
        return citation((self.rule,))


class TicketMixRules(Mechanism):
    name = "ticket_mix"
    french = "les deux pioches de tickets"
    rule_types = (TicketMix,)
    folder = Path(__file__).resolve().parent
    statement = "ticket_mix"
    exports = ("TICKET_MIX",)
    # The native engine keeps the second deck in the game's struct, plays the choice of a
    # deal's mix as a phase before each player's choice at set-up, and a turn's draws with
    # some of the second deck after the core's draw.
    native = True
    native_scoring = True
    native_kinds = ("KIND_DRAW_MIX",)
    native_phases = {"ticket_mix": "TICKET_MIX"}
    setup_choice_phase = "ticket_mix"

    def native_turn_actions(self, edition: Edition) -> tuple[str, str, str | None] | None:
        return ("mix_draws", "mix_draw_id", None)

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {"ticket_mix": ("mix_options", "MIX_MOST + 1")}

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        item = data.get("ticket_mix")
        if not item:
            return ()
        return (
            TicketMix(
                kind=item["kind"], french=item["french"], others=item["others"], span=span("ticket_mix")
            ),
        )

    def check(self, checker: Any) -> None:
        """Tickets of the kind and others; a ticket draw in the turn; no long tickets dealt apart."""
        rule = checker.data.get("ticket_mix")
        if not rule or not checker.has("tickets"):
            return
        kinds = [ticket.get("kind", "regular") for ticket in checker.data["tickets"].get("ticket", [])]
        if rule["kind"] not in kinds:
            checker.report(
                Code.INCONSISTENT_RULE,
                f"aucun ticket n’est de la sorte « {rule['kind']} » : la seconde pioche serait vide",
                ("ticket_mix", "kind"),
                did_you_mean(rule["kind"], sorted(set(kinds)))
                or f"un ticket en est avec « kind: {rule['kind']} »",
            )
        elif all(kind == rule["kind"] for kind in kinds):
            checker.report(
                Code.INCONSISTENT_RULE,
                f"tous les tickets sont de la sorte « {rule['kind']} » : la première pioche serait vide",
                ("ticket_mix", "kind"),
            )
        turn = checker.data.get("turn") or {}
        if "draw_tickets" not in turn:
            checker.report(
                Code.INCONSISTENT_RULE,
                "les deux pioches de tickets demandent une pioche de tickets dans le tour",
                ("ticket_mix",),
                "ajoute « draw_tickets draw: 4 keep_at_least: 1 » au bloc « turn »",
            )
        setup = (checker.data.get("setup") or {}).get("tickets") or {}
        if setup.get("long"):
            checker.report(
                Code.INCONSISTENT_RULE,
                "les deux pioches de tickets ne se combinent pas avec des tickets longs donnés à part",
                ("ticket_mix",),
            )

    # -- engine ------------------------------------------------------------
    def action_clauses(self, edition: Edition) -> dict[str, tuple[ActionSentence, ...]]:
        rule = self.rule(edition)
        counted = (f"aucun {rule.french}", rule.french, rule.plural)
        return {
            "draw_tickets": (
                ActionSentence(
                    text=f", dont {{{rule.kind}:count}}", counts={rule.kind: counted}, present=rule.kind
                ),
            )
        }

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        rule = self.rule(edition)
        return (
            StateField(
                key="ticket_decks",
                scope=Scope.GAME,
                shape=Shape.PILES,
                label=f"pioche des tickets {rule.plural}",
                over=(rule.kind,),
                seen=Seen.SIZES,
                shown_as="ticket_deck_sizes",
                holds="tickets",
                keeps_every_ticket=True,  # every ticket given back returns to its deck
                pile_kinds=True,
                derived=True,
            ),
        )

    def engine_view(self, edition: Edition) -> EngineView:
        draw = edition.turn.draw_tickets.draw if edition.turn.draw_tickets else 0
        return EngineView(rule=self.rule(edition), most=max(edition.setup.tickets_dealt, draw))

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("ticket_mix",)

    def api_types(self, edition: Edition) -> ApiTypes:
        # The deck of the rule's kind, by that kind; a draw says how many of it it takes.
        kind = self.rule(edition).kind
        return ApiTypes(
            fields={
                "State": {"ticket_decks": "dict[str, list[TicketId]]"},
                "Observation": {"ticket_deck_sizes": "dict[str, int]"},
                "DrawTickets": {kind: "NotRequired[int]"},
            }
        )

    def engine_helpers(self, edition: Edition) -> frozenset[str]:
        return frozenset({"ticket_kinds"})  # each ticket's kind in TICKETS, which its deck follows

    def action_fields(self, edition: Edition) -> dict[str, tuple[str, ...]]:
        return {"draw_tickets": (self.rule(edition).kind,)}

    def messages(self, edition: Edition) -> dict[str, str]:
        return {
            "must_choose_ticket_mix": "Dis d’abord combien de tes tickets de départ sont {kind}.",
            "bad_ticket_mix": "Le nombre de tickets {kind} se donne en entier, de 0 à {most}.",
            "not_enough_mix_tickets": "Il ne reste que {left} tickets {kind} dans leur pioche.",
            "not_enough_other_tickets": "Il ne reste que {left} tickets {kind} dans leur pioche.",
        }

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:

        rule = self.rule(edition)
        view = self.engine_view(edition)
        return [Part(what="« ticket_mix »", actions=view.most + 1, span=rule.span)]

    # -- words -------------------------------------------------------------
    def _tables(self, edition: Edition) -> tuple[str, str]:
        return f"tickets {self.rule(edition).plural}", f"tickets {self.rule(edition).others_plural}"

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        rule = self.rule(edition)
        mixed, others = self._tables(edition)
        count = sum(1 for ticket in edition.tickets.tickets if ticket.kind == rule.kind)
        rest = len(edition.tickets.tickets) - count
        setup = edition.setup
        draw = edition.turn.draw_tickets
        return SheetWords(
            material=(typo(f"les tickets en deux pioches : {count} {mixed} et {rest} {others}"),),
            setup_tickets=typo(
                f"Mélange à part les {mixed} et les {others}, en deux pioches. Chacun à son tour annonce combien "
                f"des {words(setup.tickets_dealt)} tickets qu’il reçoit sont {rule.plural} (de zéro à "
                f"{words(setup.tickets_dealt)}), les pioche, puis en garde au moins "
                f"{words(setup.tickets_keep_at_least)}. Quand tous ont choisi, chaque ticket rendu retourne "
                "dans sa pioche, et les deux pioches sont mélangées."
            ),
            draw_tickets=typo(
                f"Annonce combien des {words(draw.draw)} tickets que tu pioches sont {rule.plural}, puis prends-les "
                f"sur leur pioche et les autres sur celle des {others} (ou tous ceux qui y restent), et garde-en "
                f"au moins {words(draw.keep_at_least)}. Les autres retournent sous leur pioche, dans l’ordre de "
                "ton choix. S’il ne reste aucun ticket, cette action n’est pas possible."
            )
            if draw
            else None,
            mistakes=(typo(f"Piocher des tickets sans annoncer d’abord combien sont {rule.plural}."),),
            decisions=(
                typo(
                    "À la mise en place, les joueurs annoncent leur mélange l’un après l’autre, dans l’ordre du "
                    "jeu, et non tous ensemble : chacun ne sait des choix des autres que combien de tickets ils "
                    "ont pris dans chaque pioche."
                ),
            ),
            summary=(
                typo(
                    f"Tickets : {mixed} et {others} en deux pioches ; on annonce combien de chaque avant de piocher."
                ),
            ),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        mixed, others = self._tables(edition)
        return [
            Fact(
                section="Mise en place",
                label="Tickets de départ",
                value=f"au choix parmi les {mixed} et les {others}, annoncé avant de piocher",
            ),
            Fact(
                section="Mise en place",
                label="Tickets rejetés",
                value="chacun dans sa pioche, puis les deux pioches mélangées",
            ),
            Fact(
                section="Le tour",
                label="Prendre des tickets",
                value=f"au choix parmi les {mixed} et les {others}",
            ),
        ]


MECHANISM = TicketMixRules()
