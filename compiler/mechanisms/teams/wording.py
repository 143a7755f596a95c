"""French wording of the rule sheet for team play.

Everything comes from the edition's declarations: the size of the teams, where
drawn cards and kept tickets go, the share action, whose trains end the game,
double routes closed to a team. An edition without teams gets none of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...french import JokerWording, TrackWording, counted, enumerate_or, players_phrase, words
from ...ir import Edition, TwinPolicy
from ..base import SideWords
from ..used import bonus_rows, joker_wording
from .rule import Teams, teams_of


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamWording:
    edition: Edition

    @property
    def teams(self) -> Teams:
        teams = teams_of(self.edition)
        assert teams is not None
        return teams

    @property
    def joker(self) -> JokerWording:
        return joker_wording(self.edition)

    @property
    def mate(self) -> str:
        """« ton coéquipier » or « tes coéquipiers »"""
        return "ton coéquipier" if self.teams.size == 2 else "tes coéquipiers"

    def counts(self) -> str:
        """« 4 ou 6 joueurs »: the player counts that make whole teams."""
        players = self.edition.players
        counts = [str(n) for n in range(players.min, players.max + 1) if n % self.teams.size == 0]
        return (", ".join(counts[:-1]) + " ou " + counts[-1] if len(counts) > 1 else counts[0]) + " joueurs"

    def material_items(self) -> list[str]:
        return [
            "deux porte-cartes par équipe, posés entre ses joueurs : l’un pour les cartes Wagon, l’autre pour "
            "les tickets de l’équipe"
        ]

    def trains_item(self) -> str:
        e = self.edition
        return (
            f"{e.trains} wagons par joueur ({e.trains * self.teams.size} par équipe) : les joueurs d’une "
            "équipe ont la même couleur mais gardent chacun leur réserve ; un marqueur de score par équipe"
        )

    def goal(self) -> tuple[str, str]:
        return (
            f"Joue en équipe de {words(self.teams.size)} et termine avec le plus de points : l’équipe marque "
            "ensemble les routes de ses joueurs, puis en fin de partie les tickets de ses joueurs et de son "
            "porte-cartes.",
            "Un ticket est réussi par un chemin continu de routes de ton équipe (les tiennes et celles de "
            f"{self.mate}, mêlées) entre ses deux villes ; les routes des autres équipes ne servent pas de "
            "raccord. Une route isolée peut être prise à tout moment.",
        )

    def team_section(self) -> tuple[str, ...]:
        """The section « Jouer en équipe »: seats, holders, who sees what."""
        size = self.teams.size
        return (
            f"On joue à {self.counts()}, en équipes de {words(size)} : les joueurs d’une équipe s’assoient "
            "côte à côte et jouent l’un après l’autre. Chacun a sa main de cartes Wagon et ses tickets, et "
            "l’équipe a deux porte-cartes communs, l’un pour des cartes Wagon, l’autre pour des tickets.",
            "Qui voit quoi : ta main et tes tickets sont secrets, même pour "
            f"{self.mate} ; les deux porte-cartes de ton équipe sont vus de ses seuls joueurs. Les autres "
            "joueurs ne connaissent que le nombre de cartes et de tickets de chacun. Entre coéquipiers, on "
            "peut bavarder, mais sans rien dire du jeu : on ne partage qu’en posant des cartes et des tickets dans "
            "les porte-cartes.",
        )

    def setup_tickets(self) -> str:
        s, t = self.edition.setup, self.teams
        share = ""
        if t.share_at_setup:
            share = (
                f" Quand tous ont choisi, chacun pose en même temps {words(t.share_at_setup)} "
                f"{counted(t.share_at_setup, 'ticket', 'tickets')} de ceux qu’il garde dans le porte-cartes de "
                "son équipe."
            )
        return (
            f"Mélange les tickets et donnes-en {words(s.tickets_dealt)} à chaque joueur. Chacun en garde au "
            f"moins {words(s.tickets_keep_at_least)}, en secret.{share} Le porte-cartes Wagon de chaque équipe "
            "commence vide."
        )

    def draw_paragraph(self) -> str:
        sentence = (
            "En équipe, la première carte prise va, au choix, dans ta main ou dans le porte-cartes de ton "
            "équipe : tu décides dès que tu l’as vue (une carte de la pioche, tu la regardes d’abord) ; la "
            "suivante va à l’autre place."
        )
        if self.teams.face_up_locomotive_to_holder:
            sentence += f" Une {self.joker.one} visible prise seule va dans le porte-cartes."
        return sentence

    def claim_paragraph(self) -> str:
        return (
            "En équipe, paie avec les cartes de ta main et celles du porte-cartes de ton équipe, mêlées à ta "
            f"guise, mais jamais avec la main de {self.mate}. Les wagons posés sont les tiens."
        )

    def doubles(self) -> list[str]:
        sentences = []
        for rule in self.edition.double_rules:
            if rule.twin is TwinPolicy.OTHER_TEAM:
                tracks = TrackWording(triples=self.edition.board.has_triple_routes)
                sentences.append(
                    f"{players_phrase(rule.players, self.teams.size)}, {tracks.open_to_teams(self.mate)}"
                )
        return sentences

    def draw_tickets_sentence(self) -> str:
        shared = self.teams.share_at_draw
        if not shared:
            return ""
        return (
            f" Pose {words(shared)} des tickets que tu viens de garder dans le porte-cartes de ton équipe ; "
            "les autres restent secrets."
        )

    def share_paragraph(self) -> str:
        share = self.teams.share_tickets
        assert share is not None
        return (
            f"Pose {enumerate_or([words(n) for n in range(1, share.at_most + 1)])} de tes tickets dans le "
            "porte-cartes de ton équipe : c’est "
            "tout ton tour. Un ticket posé appartient à l’équipe et ne revient plus dans ta main."
        )

    def last_round_sentence(self) -> str:
        end = self.edition.end
        when = (
            f"Quand les joueurs d’une équipe n’ont plus, ensemble, que {words(end.trains_at_most)} wagons ou moins"
            if end.trains_of_team
            else f"Quand un joueur termine son tour avec {words(end.trains_at_most)} wagons ou moins"
        )
        return (
            f"{when} à la fin d’un tour, le dernier tour commence : chacun joue encore une fois, déclencheur "
            "compris. Puis on compte par équipe."
        )

    def scoring_paragraph(self) -> str:
        return (
            "Chaque équipe ajoute les points des tickets réussis de ses joueurs et de son porte-cartes et "
            "retire ceux des tickets ratés."
        )

    def mistakes(self) -> list[str]:
        bullets = [
            "Mettre les deux cartes d’une pioche au même endroit.",
            f"Payer une route avec des cartes de la main de {self.mate}.",
        ]
        if self.teams.share_at_setup:
            bullets.append(
                f"Oublier de poser {words(self.teams.share_at_setup)} "
                f"{counted(self.teams.share_at_setup, 'ticket', 'tickets')} dans le porte-cartes à la mise "
                "en place."
            )
        return bullets

    def decisions(self) -> list[str]:
        found = [
            "À la mise en place, le ticket que chacun partage reste caché jusqu’à ce que tous aient choisi ; "
            "puis tous arrivent ensemble dans les porte-cartes.",
            "Les porte-cartes d’une équipe ne sont vus que de ses joueurs : les autres équipes n’en "
            "connaissent que le nombre de cartes et de tickets.",
            "Quand il ne reste qu’une seule carte à prendre, elle va où tu veux, dans ta main ou dans le "
            "porte-cartes, et ton tour s’arrête là.",
        ]
        if bonus_rows(self.edition):
            found.append(
                "Les cartes bonus se jugent par équipe, sur les routes de ses joueurs réunies en un seul "
                "réseau."
            )
        return found

    def summary(self) -> list[str]:
        return [
            "Pioche : une carte dans ta main, l’autre dans le porte-cartes ; une route se paie avec ta main "
            f"et le porte-cartes, jamais avec la main de {self.mate}.",
        ]

    def sides(self) -> SideWords:
        """Every sentence of the sheet that speaks of a team where the core speaks of a player."""
        e = self.edition
        return SideWords(
            trains_item=self.trains_item(),
            goal=self.goal(),
            setup_trains=f"Chaque joueur prend ses {e.trains} wagons ; chaque équipe pose son marqueur de score sur zéro.",
            setup_tickets=self.setup_tickets(),
            section=("Jouer en équipe", self.team_section()),
            draw=(self.draw_paragraph(),),
            doubles=tuple(self.doubles()),
            claim=(self.claim_paragraph(),),
            tickets_kept=self.draw_tickets_sentence(),
            last_round=(self.last_round_sentence(), self.scoring_paragraph()),
            winner="L’équipe au plus gros total gagne.",
            opponent="l’équipe adverse",
            total_of="l’équipe de {player}",
            shared_tickets="Le porte-cartes de son équipe",
            summary=tuple(self.summary()),
            formula_head="Par équipe : routes",
        )
