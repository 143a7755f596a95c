"""French wording of the rule sheet for the ticket deck: its kinds, and the long tickets dealt
apart, from their declaration in the spec with its numbers. The registered mechanisms
(``compiler.mechanisms``) write their own sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..french import counted, words
from ..ir import Edition, TicketsRejected


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketWording:
    edition: Edition

    def ticket_kinds(self) -> str:
        """« (40 ordinaires et 6 longs) » when the deck mixes kinds, else nothing."""
        several = sum(1 for ticket in self.edition.tickets.tickets if ticket.targets)
        if several:
            return f", dont {several} à plusieurs destinations"
        if not self.edition.setup.long_tickets_dealt:
            return ""
        kinds = [ticket.kind for ticket in self.edition.tickets.tickets]
        return f" ({kinds.count('regular')} ordinaires et {kinds.count('long')} longs)"

    def tickets_dealt(self) -> str:
        """« trois tickets », « quatre tickets (un long et trois ordinaires) »"""
        s = self.edition.setup
        dealt = s.long_tickets_dealt + s.tickets_dealt
        total = f"{words(dealt)} {counted(dealt, 'ticket', 'tickets')}"
        if not s.long_tickets_dealt:
            return total
        long = counted(s.long_tickets_dealt, "long", "longs")
        return f"{total} ({words(s.long_tickets_dealt)} {long} et {words(s.tickets_dealt)} ordinaires)"

    def setup_tickets(self) -> str | None:
        s = self.edition.setup
        if not s.long_tickets_dealt:
            return None
        long = counted(s.long_tickets_dealt, "ticket long", "tickets longs")
        rest = (
            "les tickets longs restants retournent dans la boîte"
            if s.long_tickets_rejected is TicketsRejected.OUT_OF_GAME
            else "les tickets longs restants sont mélangés et glissés sous la pioche une fois que tous ont choisi"
        )
        dealt = f"Donne à chaque joueur {words(s.long_tickets_dealt)} {long} et {words(s.tickets_dealt)} tickets ordinaires ; {rest}. "
        if s.keep_among_regular:
            keep = (
                f"Chacun garde au moins {words(s.tickets_keep_at_least)} de ses {words(s.tickets_dealt)} tickets "
                f"ordinaires, et garde ou rend son {long}. "
            )
        else:
            keep = (
                f"Chacun garde au moins {words(s.tickets_keep_at_least)} des "
                f"{words(s.long_tickets_dealt + s.tickets_dealt)}. "
            )
        where = {
            TicketsRejected.OUT_OF_GAME: "retourne dans la boîte",
            TicketsRejected.UNDER_CHOSEN_ORDER: "va sous la pioche, dans l’ordre choisi par le joueur",
            TicketsRejected.SHUFFLED_UNDER: "est mélangé avec les autres tickets rendus et va sous la pioche "
            "une fois que tous ont choisi",
        }
        together = {
            TicketsRejected.OUT_OF_GAME: "retournent dans la boîte",
            TicketsRejected.UNDER_CHOSEN_ORDER: "vont sous la pioche, dans l’ordre choisi par chaque joueur",
            TicketsRejected.SHUFFLED_UNDER: "sont mélangés et vont sous la pioche une fois que tous ont choisi",
        }
        if s.tickets_rejected is s.long_tickets_rejected:
            back = f"Tous les tickets rendus {together[s.tickets_rejected]}. "
        else:
            back = (
                f"Un ticket long rendu {where[s.long_tickets_rejected]} ; un ticket ordinaire rendu "
                f"{where[s.tickets_rejected]}. "
            )
        deck = (
            "La pioche ne contient que des tickets ordinaires."
            if s.long_tickets_rejected is TicketsRejected.OUT_OF_GAME
            else "La pioche mêle ensuite tickets longs et ordinaires."
        )
        return dealt + keep + back + deck
