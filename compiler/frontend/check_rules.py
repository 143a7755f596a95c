"""Stage 4b, the rules part: the semantic checks of the core's own rules.

The joker card, long tickets and the score example: each declared where it is
used, with numbers that fit together. The registered mechanisms check their own
rules (``compiler.mechanisms``). A mixin of the checker of ``compiler.check``,
which holds the document and reports.
"""

from __future__ import annotations

from ..diagnostics import Code, did_you_mean
from ..ir.build import selected
from ..mechanisms import example_ticket_keys
from .lower import Document, JsonPath


class RuleChecks:
    """The checks of the core's rules; the checker holds the fields annotated here."""

    __slots__ = ()
    document: Document
    data: dict

    def report(self, code: Code, message: str, path: JsonPath, hint: str | None = None) -> None:
        raise NotImplementedError  # the checker's

    def count(self, what: str, actual: int, declared: int | None, path: JsonPath) -> None:
        raise NotImplementedError  # the checker's

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

    def check_long_tickets(self) -> None:
        """Long tickets: as many in the deck as the players are dealt."""
        data = self.data
        long = data["setup"]["tickets"].get("long", 0)
        kinds = [data["tickets"]["ticket"][i].get("kind", "regular") for i in selected(data["tickets"])]
        if long and long * data["players"]["max"] > kinds.count("long"):
            self.report(
                Code.INCONSISTENT_RULE,
                f"{long} ticket(s) long(s) par joueur, mais la pioche n’en a que {kinds.count('long')}",
                ("setup", "tickets", "long"),
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
        missing = [
            (key, index, name, known)
            for key, known in (
                ("routes", route_ids),
                ("opponent_routes", route_ids),
                ("tickets", ticket_ids),
                *((key, ticket_ids) for key in example_ticket_keys()),
            )
            for index, name in enumerate(example.get(key, []))
            if name not in known
        ]
        inherited = self.document.span(("score_example",)).source.name != self.document.source.name
        if missing and inherited and "score_example" in self.document.edits:
            # A variant's own board or edits left the inherited example behind: one error, at its cause.
            shown = ", ".join(f"« {name} »" for _, _, name, _ in missing[:4]) + (
                " …" if len(missing) > 4 else ""
            )
            self.report(
                Code.UNKNOWN_REFERENCE,
                f"l’exemple de score hérité nomme {len(missing)} routes ou tickets absents de cette édition : {shown}",
                ("score_example",),
                hint="« without score_example », ou un exemple de score de cette édition",
            )
            return
        for key, index, name, known in missing:
            self.report(
                Code.UNKNOWN_REFERENCE,
                f"« {name} » n\u2019existe pas",
                ("score_example", key, index),
                did_you_mean(name, known),
            )
