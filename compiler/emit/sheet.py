"""Stage 6b: IR to the French rule sheet (``fiche.md``).

All wording is here, built from the IR: every number on the sheet comes from
the spec, and the worked score example is played by the edition's own
generated engine. The template only loops and prints.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field

from ..french import (
    COLOR_NAMES,
    JokerWording,
    TrackWording,
    counted,
    enumerate_fr,
    kept_phrase,
    players_phrase,
    typo,
    words,
)
from ..ir import Edition, TicketsRejected, TwinPolicy
from ..mechanisms import SheetWords, SideWords, joker_kinds, joker_wording, side_size, used_by
from .engine import environment
from .escape import for_markdown
from .example import ExampleScore, play_example
from .sheet_closing import ClosingSections
from .sheet_model import Section, Sheet, Subsection, typeset
from .sheet_tickets import TicketWording


@dataclass(slots=True)
class _SheetWriter(ClosingSections):
    edition: Edition
    example: ExampleScore | None
    tickets: TicketWording
    # What the registered mechanisms the edition uses say, section by section.
    words: tuple[SheetWords, ...] = ()
    decisions: list[str] = field(default_factory=list)

    # -- numbers the sheet repeats ------------------------------------------------

    @property
    def plain_cards(self) -> list[tuple[str, int]]:
        return [(c.color.value, c.count) for c in self.edition.cards if c.color is not self.edition.joker]

    @property
    def jokers(self) -> int:
        return next((c.count for c in self.edition.cards if c.color is self.edition.joker), 0)

    @property
    def joker(self) -> JokerWording:
        return joker_wording(self.edition)

    @property
    def sides(self) -> SideWords | None:
        """The words of a game played by sides of several players (teams), when a mechanism has them."""
        return self.first_said("sides")

    def cards_formula(self) -> str:
        counts = {count for _, count in self.plain_cards}
        total = self.edition.total_cards
        if len(counts) == 1:
            each = counts.pop()
            return (
                f"{total} cartes Wagon = {len(self.plain_cards)} × {each} + {self.jokers} : "
                f"{words(each)} cartes de chacune des {words(len(self.plain_cards))} couleurs "
                f"({enumerate_fr([COLOR_NAMES[c] for c, _ in self.plain_cards])}) "
                f"et {self.jokers} {self.joker.described}"
            )
        parts = [f"{count} {COLOR_NAMES[color]}" for color, count in self.plain_cards]
        return f"{total} cartes Wagon : {enumerate_fr(parts)} et {self.jokers} {self.joker.many}"

    def material(self) -> Section:
        e = self.edition
        groups = e.board.track_groups()
        doubles = sum(len(tracks) == 2 for tracks in groups)
        triples = len(groups) - doubles
        deck = f" ({e.tickets.name})" if e.tickets.name else ""
        places = (
            f"{len(e.board.cities)} villes et {len(e.board.countries)} "
            f"{'pays voisin' if len(e.board.countries) == 1 else 'pays voisins'} reliés"
            if e.board.countries
            else f"{len(e.board.cities)} villes reliées"
        )
        items = [
            # A double route is one route of two tracks: the routes a player sees, then the tracks.
            f"le plateau {e.board.map} : {places} par "
            f"{len(e.board.routes) - sum(len(tracks) - 1 for tracks in groups)} routes"
            + (
                ", dont "
                + enumerate_fr(
                    [f"{doubles} {counted(doubles, 'route double', 'routes doubles')}"] * bool(doubles)
                    + [f"{triples} {counted(triples, 'route triple', 'routes triples')}"] * bool(triples)
                )
                + f" ({len(e.board.routes)} voies en tout)"
                if groups
                else ""
            ),
            self.sides.trains_item
            if self.sides
            else f"{e.trains} wagons par joueur, un jeu de couleur par joueur",
            *(item for said in self.words for item in said.material),
            self.cards_formula(),
            f"{e.tickets.printed} tickets Destination{self.tickets.ticket_kinds()}{deck}"
            + (
                f", dont {len(e.tickets.tickets)} en jeu ici (voir « Quand la règle ne dit rien »)"
                if e.tickets.printed != len(e.tickets.tickets)
                else ""
            ),
            *(item for said in self.words for item in said.material_last),
        ]
        listed = len(e.tickets.tickets)
        if e.tickets.printed != listed:
            self.decisions.append(
                f"La notice compte {e.tickets.printed} tickets, mais seuls {listed} sont connus avec "
                f"certitude : on joue avec ces {listed} tickets, en attendant les autres."
            )
        bullets = [item + " ;" for item in items[:-1]] + [items[-1] + "."]
        return Section(title="Matériel", bullets=tuple(bullets))

    def goal(self) -> Section:
        e = self.edition
        gains = [
            "tes tickets réussis",
            *(gain for said in self.words for gain in said.gains),
            *(gain for said in self.words for gain in said.gains_last),
        ]
        # A ticket to countries runs from a city (or a country) to a country: not « ses deux villes ».
        ends = "son départ et sa destination" if e.board.countries else "ses deux villes"
        own = self.first_said("ticket_joined")
        if own:
            joined = own.format(ends=ends)
        else:
            joined = (
                f"Un ticket n’est réussi que par un chemin continu de tes propres routes entre {ends} : "
                "les routes des autres ne servent pas de raccord."
            )
        if self.sides:
            return Section(title="But du jeu", paragraphs=self.sides.goal)
        return Section(
            title="But du jeu",
            paragraphs=(
                "Le but : finir la partie avec le plus de points. Tu en marques tout de suite en prenant des routes, "
                f"puis en fin de partie avec {enumerate_fr(gains)}. Un ticket raté retire ses points.",
                f"{joined} Une route isolée peut être prise à tout moment.",
            ),
        )

    def market_reset_sentence(self) -> str:
        s = self.edition.setup
        if s.market_locomotive_reset is None:
            return (
                f"Les cartes visibles ne sont jamais renouvelées, quel que soit le nombre de {self.joker.many} "
                "parmi elles."
            )
        return (
            f"Si au moins {words(s.market_locomotive_reset, feminine=True)} des {words(s.market_size, feminine=True)} "
            f"cartes visibles sont des {self.joker.many}, défausse-les toutes et retournes-en "
            f"{words(s.market_size, feminine=True)} nouvelles."
        )

    def setup(self) -> Section:
        e, s = self.edition, self.edition.setup
        rejected = {
            TicketsRejected.SHUFFLED_UNDER: "Mélange ensemble les tickets rejetés et place-les sous la pioche "
            "des tickets.",
            TicketsRejected.UNDER_CHOSEN_ORDER: "Les tickets rejetés vont sous la pioche des tickets, dans "
            "l’ordre choisi par le joueur.",
            TicketsRejected.OUT_OF_GAME: "Les tickets rejetés sont retirés du jeu.",
        }[s.tickets_rejected]
        if s.tickets_rejected is TicketsRejected.UNDER_CHOSEN_ORDER:
            self.decisions.append(
                "À la mise en place, la règle ne dit pas dans quel ordre les tickets rendus passent sous la "
                "pioche : chaque joueur choisit, comme en cours de partie."
            )
        keep_all = (
            f", et peut en garder jusqu’à {words(s.tickets_dealt)}"
            if s.tickets_dealt > s.tickets_keep_at_least and s.tickets_keep_at_most is None
            else ""
        )
        bullets = [
            self.sides.setup_trains
            if self.sides
            else f"Chaque joueur prend ses {e.trains} wagons."
            if any(said.score_start for said in self.words)
            else f"Chaque joueur prend ses {e.trains} wagons et pose son marqueur de score sur zéro.",
            *e.setup.steps,
            f"Mélange les {e.total_cards} cartes Wagon, donnes-en {words(s.train_cards)} à chaque joueur, "
            f"puis retourne les {words(s.market_size)} suivantes face visible à côté de la pioche.",
            self.market_reset_sentence(),
            f"{self.sides.setup_tickets} {rejected}"
            if self.sides
            else self.first_said("setup_tickets")
            or self.tickets.setup_tickets()
            or f"Mélange les tickets et donnes-en {words(s.tickets_dealt)} à chaque joueur. Chacun en garde "
            f"{kept_phrase(s.tickets_keep_at_least, s.tickets_keep_at_most)}, en secret{keep_all}. {rejected}",
        ]
        bullets += [step for said in self.words for step in said.setup_first]
        bullets.append("Choisis le premier joueur comme tu veux ; on joue ensuite dans le sens horaire.")
        bullets += [step for said in self.words for step in said.setup]
        self.decisions.append(
            "Un emplacement visible resté vide faute de cartes est rempli dès que des cartes reviennent "
            "dans la défausse, à la fin de l’action qui les y met."
        )
        if s.market_locomotive_reset is None:
            return Section(title="Mise en place", bullets=tuple(bullets))
        fewer = f"moins de {words(s.market_locomotive_reset, feminine=True)} {self.joker.many}"
        shown = f"{words(s.market_size, feminine=True)} cartes visibles"
        self.decisions.append(
            f"Quand les cartes restantes (pioche, défausse et cartes visibles) ne peuvent plus donner {shown} "
            f"avec {fewer}, on garde les cartes visibles telles quelles au lieu de recommencer sans fin, et "
            "l’on vérifie de nouveau dès qu’une action remet des cartes dans la défausse. Quand elles le peuvent "
            "mais que les cartes retournées n’y arrivent pas (la pioche s’épuise et la défausse ramène les mêmes "
            f"{self.joker.many}), on tire directement les {shown} parmi toutes ces cartes, avec {fewer}, "
            "et le reste, mélangé, forme la pioche."
        )
        return Section(title="Mise en place", bullets=tuple(bullets))

    def turn(self) -> Section:
        t = self.edition.turn
        subsections = []
        if t.draw_cards:
            subsections.append(self.draw_cards())
        if t.claim_route:
            subsections.append(self.claim_route())
        if t.draw_tickets:
            subsections.append(self.draw_tickets())
        subsections += [
            Subsection(title=action.title, paragraphs=action.paragraphs)
            for said in self.words
            for action in said.actions
        ]
        names = self.action_names()
        return Section(
            title="Le tour",
            paragraphs=(
                f"À ton tour, fais une seule action parmi {words(len(subsections))} : {names}. "
                "On ne combine jamais deux actions dans le même tour.",
            ),
            subsections=tuple(subsections),
        )

    def action_names(self) -> str:
        """« prendre des cartes Wagon, prendre une route ou prendre des tickets »"""
        t = self.edition.turn
        names = [
            name
            for present, name in (
                (t.draw_cards, "prendre des cartes Wagon"),
                (t.claim_route, "prendre une route"),
                (t.draw_tickets, "prendre des tickets"),
                *((True, action.name) for said in self.words for action in said.actions),
            )
            if present
        ]
        return ", ".join(names[:-1]) + " ou " + names[-1] if len(names) > 1 else "".join(names)

    def draw_cards(self) -> Subsection:
        d = self.edition.turn.draw_cards
        market = self.edition.setup.market_size
        paragraphs = [
            f"Prends {words(d.count)} cartes, l’une après l’autre, chacune parmi les {words(market)} cartes "
            "visibles ou sur le dessus de la pioche. Une carte visible prise est remplacée tout de suite, "
            "avant le choix suivant : la nouvelle carte peut être prise. La main n’a pas de limite.",
        ]
        one = self.joker.one
        if self.edition.turn.face_up_locomotive_ends_draw:
            paragraphs.append(
                f"Une {one} visible ne se prend qu’en premier choix, et elle est alors toute l’action : "
                f"pas de deuxième carte. Une {one} piochée à l’aveugle compte comme une carte ordinaire."
            )
        else:
            paragraphs.append(
                f"Une {one} visible se prend comme n’importe quelle carte : en premier ou en deuxième choix, "
                "et une autre carte peut la suivre."
            )
        if self.sides:
            paragraphs += self.sides.draw
        reset = self.market_reset_sentence()
        paragraphs.append(
            reset
            if self.edition.setup.market_locomotive_reset is None
            else f"À tout moment de la partie, pas seulement à la mise en place : {reset[0].lower()}{reset[1:]}"
        )
        paragraphs.append(
            "Quand la pioche est vide, mélange la défausse pour en refaire une. Si aucune carte n’est "
            "disponible, cette action n’est pas possible ; s’il ne reste qu’une carte, le tour s’arrête "
            "après elle."
        )
        return Subsection(title="Prendre des cartes Wagon", paragraphs=tuple(paragraphs))

    def claim_route(self) -> Subsection:
        e = self.edition
        between = (
            "entre deux villes voisines, ou entre une ville et un pays voisin,"
            if e.board.countries
            else "entre deux villes voisines"
        )
        # Where the joker pays some routes only, the gray ones it completes are said in parentheses.
        completed = (
            f" (complétée si besoin par des {self.joker.many} {self.joker.where} gris),"
            if joker_kinds(e)
            else f", complétée si besoin par des {self.joker.many},"
        )
        paragraphs = [
            f"Choisis une route libre {between} et défausse exactement autant de cartes "
            f"qu’elle a de cases, toutes de sa couleur ; {self.joker.stands_in}. "
            f"Une route grise se paie dans une seule couleur de ton choix{completed} jamais avec un "
            "mélange de couleurs.",
            "Il faut assez de wagons pour couvrir toute la route. Une seule route par tour, n’importe où "
            "sur le plateau. Marque aussitôt ses points :",
        ]
        table = (
            ("Longueur", *(str(length) for length, _ in e.route_points)),
            ("Points", *(str(points) for _, points in e.route_points)),
        )
        tracks = TrackWording(triples=e.board.has_triple_routes)
        doubles = [tracks.never_two]
        for rule in e.double_rules:
            if rule.twin is TwinPolicy.CLOSED:
                doubles.append(f"{players_phrase(rule.players, side_size(e))}, {tracks.closed}")
            elif rule.twin is TwinPolicy.OTHER_PLAYER:
                doubles.append(f"{players_phrase(rule.players, side_size(e))}, {tracks.open_to_players}")
        if self.sides:
            doubles += self.sides.doubles
        doubles += self.unusual_tracks()
        return Subsection(
            title="Prendre une route",
            paragraphs=tuple(paragraphs),
            table=table,
            after_table=(
                " ".join(doubles),
                *(self.sides.claim if self.sides else ()),
                *(paragraph for said in self.words for paragraph in said.claim),
            ),
        )

    def unusual_tracks(self) -> list[str]:
        """What the board's drawing does not tell: a double route whose tracks differ in length is a
        double route all the same (Nordic Countries), and two tracks joining the same places outside
        one double route are two routes (Japan's Aomori – Hakodate)."""
        board = self.edition.board
        groups: dict[int, list] = {}
        ends: dict[tuple[str, str], list] = {}
        for route in board.routes:
            if route.double_group is not None:
                groups.setdefault(route.double_group, []).append(route)
            ends.setdefault(tuple(sorted((route.a, route.endpoint or route.b))), []).append(route)
        said = []
        unequal = [
            f"{tracks[0].a} – {tracks[0].b}"
            for tracks in groups.values()
            if len({track.length for track in tracks}) > 1
        ]
        if unequal:
            said.append(
                f"{enumerate_fr(unequal)} {'sont des routes doubles' if len(unequal) > 1 else 'est une route double'}"
                f", bien que {'leurs' if len(unequal) > 1 else 'ses'} voies n’aient pas la même longueur : la règle "
                "des routes doubles s’y applique."
            )
        for tracks in ends.values():
            groups_of = {track.double_group for track in tracks}
            if len(tracks) > 1 and (len(groups_of) > 1 or None in groups_of):
                lengths = enumerate_fr([f"{track.length}" for track in tracks])
                said.append(
                    f"{tracks[0].a} – {tracks[0].b} a {words(len(tracks), feminine=True)} voies, de {lengths} "
                    "cases, qui ne forment pas une route double : chacune est une route à part, et un même "
                    f"joueur peut {'les' if len(tracks) == 2 else 'toutes les'} prendre."
                )
        return said

    def draw_tickets(self) -> Subsection:
        d = self.edition.turn.draw_tickets
        # After a sentence on the tickets kept (« les autres restent secrets »), « les autres » would be
        # ambiguous.
        kept = self.sides.tickets_kept if self.sides else ""
        others = "Les tickets que tu ne gardes pas" if kept else "Les autres"
        returned = {
            TicketsRejected.UNDER_CHOSEN_ORDER: f"{others} vont sous la pioche, dans l’ordre de ton choix.",
            TicketsRejected.SHUFFLED_UNDER: f"{others} sont mélangés et vont sous la pioche.",
            TicketsRejected.OUT_OF_GAME: f"{others} sont retirés du jeu.",
        }[d.rejected]
        own = self.first_said("draw_tickets")
        if own:
            # A mechanism's own draw (two decks) keeps the core's rule on the tickets kept.
            return Subsection(
                title="Prendre des tickets",
                paragraphs=(f"{own} Un ticket gardé ne peut plus jamais être rendu.",),
            )
        return Subsection(
            title="Prendre des tickets",
            paragraphs=(
                f"Pioche les {words(d.draw)} premiers tickets, ou tous ceux qui restent s’il y en a moins, "
                f"et garde-en {kept_phrase(d.keep_at_least, d.keep_at_most)}."
                f"{kept} {returned} Un ticket gardé ne peut plus "
                "jamais être rendu. S’il ne reste aucun ticket, cette action n’est pas possible.",
            ),
        )

    def sheet(self) -> Sheet:
        e = self.edition
        sections = [self.material(), self.goal(), self.setup(), self.turn()]
        if self.sides:
            title, paragraphs = self.sides.section
            sections.insert(3, Section(title=title, paragraphs=paragraphs))
        example = self.example_section()
        if example:
            sections.append(example)
        for said in self.words:
            sections += [
                Section(title=title, paragraphs=paragraphs, table=table)
                for title, paragraphs, table in said.sections
            ]
        sections += [self.last_round(), self.mistakes(), self.decisions_section(), self.summary()]
        duration = ""
        if e.duration:
            duration = (
                f" · {e.duration.min} min"
                if e.duration.min == e.duration.max
                else f" · {e.duration.min} à {e.duration.max} min"
            )
        rulebook = f" · d’après la {e.rulebook}" if e.rulebook else ""
        return Sheet(
            title=typo(f"{e.game} — {e.title}"),
            tagline=typo(
                f"{players_phrase(e.players, side_size(e)).removeprefix('À ').removeprefix('De ')}"
                f"{duration}{rulebook}"
            ),
            sections=tuple(typeset(section) for section in sections),
            footer=typo("Fiche établie par aventuriers, à partir des règles de l’édition."),
        )


def emit_sheet(edition: Edition, engine: types.ModuleType, *, annex: str | None = None) -> str:
    """The rule sheet; ``annex`` (a rendered differences page) is appended when given."""
    # The examples are played with the spec's own strings; the sheet shows them escaped.
    example = play_example(edition, engine)
    edition, example = for_markdown(edition), for_markdown(example)
    tickets = TicketWording(edition=edition)
    words = tuple(mechanism.sheet(edition, engine) for mechanism in used_by(edition))
    writer = _SheetWriter(edition=edition, example=example, tickets=tickets, words=words)
    sheet = writer.sheet()
    return environment().get_template("fiche.md.j2").render(sheet=sheet, annex=annex)
