"""French wording of the rule sheet for the mechanisms only some editions use.

Ferries, tunnels and long tickets are each described from their
declaration in the spec, with its numbers; an edition that does not use a
mechanism gets none of its sentences. The tunnel example comes from the
generated engine (``compiler.example``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..french import CARD_ADJECTIVES, JOKERS, JokerWording, cards_phrase, counted, enumerate_fr, words
from ..ir import Edition, TicketsRejected
from .example import TunnelOutcome


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


@dataclass(frozen=True, slots=True, kw_only=True)
class MechanismWording:
    edition: Edition
    tunnel: TunnelOutcome | None

    @property
    def ferries(self) -> list[int]:
        return sorted({route.ferry for route in self.edition.board.routes if route.ferry})

    @property
    def joker(self) -> JokerWording:
        return JokerWording(
            card=self.edition.joker.value,
            tunnels_only=self.edition.joker_pays_tunnels_only,
            kinds=self.edition.joker_pays_kinds,
        )

    @property
    def tunnel_count(self) -> int:
        return sum(route.tunnel for route in self.edition.board.routes)

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

    def claim_paragraphs(self) -> list[str]:
        paragraphs = []
        countries = self.edition.board.countries
        if countries:
            border = sum(1 for route in self.edition.board.routes if route.endpoint)
            paragraphs.append(
                f"Pays voisins : {border} routes ne mènent pas à une ville mais à un pays voisin, par l’une "
                f"des flèches de sa frontière : {enumerate_fr([_country(country) for country in countries])}. "
                "Un pays se rejoint par n’importe laquelle de ses flèches."
            )
        if self.ferries == [1]:
            paragraphs.append(
                "Ferries : une route marquée d’une locomotive se paie avec au moins une locomotive ; le reste "
                "se paie comme d’habitude."
            )
        elif self.ferries:
            counts = enumerate_fr([words(n, feminine=True) for n in self.ferries]).replace(" et ", " ou ")
            paragraphs.append(
                f"Ferries : une route marquée d’une ou plusieurs locomotives ({counts}) se paie avec au moins "
                "autant de locomotives ; le reste se paie comme d’habitude."
            )
        tunnels = self.edition.tunnels
        if tunnels:
            reveals = sorted(
                {route.reveal or tunnels.reveal for route in self.edition.board.routes if route.tunnel}
            )
            if len(reveals) > 1:
                # Each tunnel prints its own number of cards to turn over.
                top = f"autant de cartes de la pioche que le tunnel en indique (de {reveals[0]} à {reveals[-1]})"
                short = "s’il en reste moins, on retourne celles qui restent, et aucune si la pioche est vide"
            elif tunnels.reveal == 1:
                top = "la première carte de la pioche"
                short = "si la pioche est vide, on n’en retourne aucune"
            else:
                top = f"les {words(tunnels.reveal, feminine=True)} premières cartes de la pioche"
                short = (
                    "si la pioche s’épuise pendant qu’on retourne, la défausse est mélangée pour la refaire ; "
                    f"s’il reste en tout moins de {words(tunnels.reveal, feminine=True)} cartes, on retourne "
                    "celles qui restent"
                )
            paragraphs.append(
                f"Tunnels ({self.tunnel_count} sur le plateau) : pose les cartes de la route, puis retourne {top}. "
                "Chaque carte retournée de la couleur que tu "
                f"as jouée, {self.joker.many} comprises, demande une carte de plus de cette couleur ou une "
                f"{self.joker.one}. Si tu as payé uniquement avec des {self.joker.many}, seules les "
                f"{self.joker.many} retournées comptent, et seules des {self.joker.many} paient le supplément. "
                "Paie le "
                "supplément, ou reprends tes cartes : ton tour est fini. Les cartes retournées sont défaussées ; "
                f"{short}."
            )
        return paragraphs

    def tunnel_example(self) -> list[str]:
        x = self.tunnel
        if x is None:
            return []
        joker = self.joker
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
        return [
            f"Pour prendre le tunnel {x.a} – {x.b} ({x.length} cases), tu poses {_laid(x.cards)} : {what}. "
            f"On retourne {_revealed(x.revealed)}. {outcome}",
        ]

    def end_paragraphs(self) -> list[str]:
        paragraphs = []
        if any(ticket.targets for ticket in self.edition.tickets.tickets):
            paragraphs.append(
                "Tickets à plusieurs destinations : chacune a ses points. Tu marques ceux de la mieux payée que "
                "ton point de départ (une ville, ou un pays) rejoint par tes routes ; s’il n’en rejoint aucune, "
                "tu perds les points de la moins payée."
            )
        return paragraphs

    def mistakes(self) -> list[str]:
        bullets = []
        if self.ferries:
            bullets.append("Payer un ferry sans ses locomotives.")
        if self.edition.tunnels:
            bullets.append(
                f"Oublier que les {self.joker.many} retournées comptent aussi pour le supplément d’un tunnel."
            )
        return bullets

    def decisions(self) -> list[str]:
        found = []
        if self.edition.board.countries:
            found.append(
                "Un pays voisin ne se traverse jamais : deux flèches d’un même pays ne se relient pas, et une "
                "route vers un pays ne compte dans le chemin le plus long que comme une extrémité."
            )
        if self.edition.tunnels:
            found.append("Quand aucune carte retournée ne correspond, le tunnel est pris sans autre choix.")
        return found

    def summary(self) -> list[str]:
        bullets = []
        if self.edition.joker_restricted:
            many = self.joker.many  # « cartes Tunnel »: only its first letter becomes a capital
            bullets.append(
                f"{many[0].upper()}{many[1:]} : {self.joker.where_all} seulement, jamais sur une route ordinaire."
            )
        if self.ferries:
            bullets.append("Ferry = ses locomotives d’abord.")
        if self.edition.tunnels:
            bullets.append(
                f"Tunnel = {cards_phrase(self.edition.tunnels.reveal, 'any')} retournée"
                f"{'s' if self.edition.tunnels.reveal > 1 else ''}, une de plus par correspondance."
            )
        return bullets


def _country(country) -> str:
    """« Allemagne (Deutschland, 5 flèches) », « France (4 flèches) »: as players look for it on the board."""
    arrows = f"{country.arrows} {counted(country.arrows, 'flèche', 'flèches')}"
    if country.french and country.french != country.name:
        return f"{country.french} ({country.name}, {arrows})"
    return f"{country.name} ({arrows})"
