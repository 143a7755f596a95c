"""The closing sections of the rule sheet: the worked score example, the last round and
victory, frequent mistakes, the decisions taken where the rules are silent, the summary.

A mixin of the sheet writer (``emit.sheet``): the same IR, the same
wording helpers, one module per part of the sheet.
"""

from __future__ import annotations

from typing import Any

from ..french import (
    JokerWording,
    TrackWording,
    counted,
    elided,
    enumerate_fr,
    guillemets,
    kept_phrase,
    players_phrase,
    words,
)
from ..ir import Edition, TicketsRejected, TwinPolicy
from ..mechanisms import SheetWords, SideWords, bonus_rows, side_size
from .example import ExampleScore
from .sheet_model import Section, tiebreak_phrases
from .sheet_tickets import TicketWording


class ClosingSections:
    """The sections after « Le tour »; the writer holds the fields annotated here."""

    __slots__ = ()
    edition: Edition
    example: ExampleScore | None
    tickets: TicketWording
    sides: SideWords | None
    decisions: list[str]
    joker: JokerWording
    words: tuple[SheetWords, ...]

    def first_said(self, name: str) -> Any:
        """What the first mechanism saying it says in place of the core's sentence `name` of
        `SheetWords` (« draw_tickets », « last_round »…), or None where none does."""
        return next((getattr(said, name) for said in self.words if getattr(said, name)), None)

    def action_names(self) -> str:  # defined by the writer
        raise NotImplementedError

    def example_section(self) -> Section | None:
        x = self.example
        if x is None:
            return None
        done = enumerate_fr([f"{guillemets(name)} ({points})" for name, points in x.completed])
        missed = enumerate_fr([f"{guillemets(name)} ({points})" for name, points in x.failed])
        track = x.route_points + sum(points for _, points, _ in x.track_lines)
        subtotal = track + sum(p for _, p in x.completed) - sum(p for _, p in x.failed)
        terms = " + ".join([str(track), *(str(p) for _, p in x.completed)])
        terms += "".join(f" − {p}" for _, p in x.failed)
        extra = enumerate_fr([f"{trains} de plus pour {what}" for what, _, trains in x.track_lines if trains])
        scored = enumerate_fr(
            [f"{points if points >= 0 else f'−{-points}'} pour {what}" for what, points, _ in x.track_lines]
        )
        paragraphs = [
            f"{x.player} a pris {x.routes} routes ({x.trains_used} wagons{f', et {extra}' if extra else ''}) : "
            f"{track} points sur la piste de score{f', dont {scored}' if scored else ''}. {x.player} réussit {done}"
            + (f" mais rate {missed}" if x.failed else "")
            + f" : {terms} = {subtotal}.",
        ]
        for origin, reached, targets in x.targets:
            listed = enumerate_fr([f"{place} {points}" for place, points in targets]).replace(" et ", " ou ")
            if reached:
                best = dict(targets)[reached]
                paragraphs.append(
                    f"Le ticket de {origin} propose {listed}. La mieux payée des destinations que ses routes "
                    f"atteignent est {reached} : {best} points."
                )
            else:
                lowest = min(points for _, points in targets)
                paragraphs.append(
                    f"Le ticket de {origin} propose {listed} : aucune n’est atteinte, il retire donc "
                    f"{lowest} points, la moins payée."
                )
        running = subtotal
        if self.sides and (x.shared_completed or x.shared_failed):
            gained = sum(p for _, p in x.shared_completed) - sum(p for _, p in x.shared_failed)
            held = enumerate_fr([f"{guillemets(name)} ({points})" for name, points in x.shared_completed])
            lost = enumerate_fr([f"{guillemets(name)} ({points})" for name, points in x.shared_failed])
            sentence = f"{self.sides.shared_tickets} " + (f"réussit {held}" if held else "")
            sentence += (" mais rate " if held else "rate ") + lost if lost else ""
            terms = "".join(f" + {p}" for _, p in x.shared_completed) + "".join(
                f" − {p}" for _, p in x.shared_failed
            )
            paragraphs.append(f"{sentence} : {running}{terms} = {running + gained}.")
            running += gained
        for bonus in x.bonuses:
            measured = bonus.example.format(player=x.player, value=bonus.value)
            paragraphs.append(
                f"{measured}, contre {bonus.opponent_value} pour {self.sides.opponent if self.sides else 'son adversaire'} : la carte "
                f"{guillemets(bonus.title)} ajoute {bonus.points} points, soit {running} + {bonus.points} = "
                f"{running + bonus.points}."
            )
            running += bonus.points
        for sentence, points in x.mechanism_lines:
            sign = "+" if points >= 0 else "−"
            paragraphs.append(f"{sentence}, soit {running} {sign} {abs(points)} = {running + points}.")
            running += points
        who = self.sides.total_of.format(player=x.player) if self.sides else x.player
        paragraphs.append(f"Total pour {who} : {x.total} points.")
        return Section(title="Exemple de score", paragraphs=tuple(paragraphs))

    def last_round(self) -> Section:
        e = self.edition
        trigger = self.first_said("last_round")
        paragraphs = [
            trigger
            or f"Quand un joueur termine son tour avec {words(e.end.trains_at_most)} wagons ou moins, le dernier "
            "tour commence : chacun joue encore une fois, lui compris. Puis on compte.",
            "Ajoute les points de tes tickets réussis et retire ceux de tes tickets ratés.",
        ]
        if self.sides:
            paragraphs = list(self.sides.last_round)
        paragraphs += [paragraph for said in self.words for paragraph in said.scoring]
        paragraphs += self.bonuses_absent()
        ties = tiebreak_phrases(e)
        winner = self.sides.winner if self.sides else "Le plus gros total gagne."
        if ties:
            winner += (
                f" À égalité, on départage par {', puis par '.join(ties)} ; sinon, la victoire est partagée."
            )
        else:
            winner += " À égalité, la victoire est partagée."
        paragraphs.append(winner)
        if e.end.when_nobody_can_play == "end_game":
            self.decisions.append(
                "Si plus personne ne peut jouer (ni carte, ni ticket, ni route payable), chacun passe son tour ; "
                "après un tour de table où tous ont passé, la partie s’arrête et l’on compte."
            )
        return Section(title="Dernier tour et victoire", paragraphs=tuple(paragraphs))

    def bonuses_absent(self) -> list[str]:
        """The base game's bonus cards that this edition leaves out, said since a family that knows
        the base game looks for them."""
        measures = {bonus.measure for bonus in bonus_rows(self.edition)}
        if not measures:
            return ["Il n’y a aucune carte bonus : ni chemin le plus long, ni Globetrotter."]
        if "longest_trail" not in measures:
            return ["Il n’y a pas de bonus du chemin le plus long."]
        return []

    def mistakes(self) -> Section:
        e = self.edition
        s = e.setup
        regular = " ordinaires" if s.keep_among_regular else ""
        bullets = [
            f"Donner un autre nombre {elided('que', self.tickets.tickets_dealt())} au départ, ou "
            + (
                f"n’en garder aucun{regular.rstrip('s')}."
                if s.tickets_keep_at_least == 1
                else f"en garder moins de {words(s.tickets_keep_at_least)}{regular}"
                + (
                    f" ou plus de {words(s.tickets_keep_at_most)}."
                    if s.tickets_keep_at_most is not None
                    else "."
                )
            )
        ]
        if e.turn.face_up_locomotive_ends_draw:
            bullets.append(
                f"Prendre une {self.joker.one} visible en deuxième carte, ou une autre carte après elle."
            )
        bullets += [
            "Payer une route grise avec plusieurs couleurs mélangées.",
            "Ne payer qu’une partie d’une route.",
        ]
        tracks = TrackWording(triples=e.board.has_triple_routes)
        for rule in e.double_rules:
            if rule.twin is TwinPolicy.CLOSED:
                bullets.append(f"{tracks.mistake} {players_phrase(rule.players, side_size(e)).lower()}.")
        bullets += [mistake for said in self.words for mistake in said.mistakes]
        bullets.append("Oublier que le joueur qui déclenche le dernier tour rejoue aussi.")
        return Section(title="Erreurs fréquentes", bullets=tuple(bullets))

    def decisions_section(self) -> Section:
        self.decisions += [decision for said in self.words for decision in said.decisions]
        self.decisions.extend(decision.text for decision in self.edition.decisions)
        return Section(
            title="Quand la règle ne dit rien",
            paragraphs=("Ces points ne sont pas écrits dans la règle ; voici ce que nous avons décidé :",),
            bullets=tuple(self.decisions),
        )

    def summary(self) -> Section:
        e, s = self.edition, self.edition.setup
        bullets = [
            f"{e.title} : {e.trains} wagons chacun, {words(s.train_cards, feminine=True)} cartes Wagon et "
            f"{self.tickets.tickets_dealt()} au départ, {kept_phrase(s.tickets_keep_at_least, s.tickets_keep_at_most)}"
            f"{' ordinaires' if s.keep_among_regular else ''} "
            f"{counted(s.tickets_keep_at_least, 'gardé', 'gardés')}.",
            f"Tour : {self.action_names()}.",
        ]
        if e.turn.face_up_locomotive_ends_draw:
            one = self.joker.one
            bullets.append(f"{one.capitalize()} visible = tout le tour ; {one} cachée = une carte ordinaire.")
        bullets += [
            "Une route se paie en entier, dans sa couleur ; une route grise, dans une seule couleur au choix.",
            *(line for said in self.words for line in said.summary),
            *(
                ["Tickets rendus : retirés du jeu."]
                if s.tickets_rejected is TicketsRejected.OUT_OF_GAME
                and (
                    e.turn.draw_tickets is None or e.turn.draw_tickets.rejected is TicketsRejected.OUT_OF_GAME
                )
                else []
            ),
            *(self.sides.summary if self.sides else ()),
            self.first_said("last_round_summary")
            or ("Une équipe à " if e.end.trains_of_team else "")
            + f"{words(e.end.trains_at_most).capitalize() if not e.end.trains_of_team else words(e.end.trains_at_most)}"
            " wagons ou moins : chacun rejoue une fois, déclencheur "
            "compris.",
            (self.sides.formula_head if self.sides else "Routes")
            + " + tickets réussis − tickets ratés"
            + "".join(f" + {guillemets(b.title)} ({b.points})" for b in bonus_rows(e))
            + "".join(term for said in self.words for term in said.formula)
            + " : le plus gros total gagne.",
        ]
        return Section(title="Résumé express", bullets=tuple(bullets))
