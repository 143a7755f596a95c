"""The French of public routes: the sheet's sentences, the facts, the worked example."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...french import COLOR_ADJECTIVES, enumerate_fr, typo, words
from ..base import Fact, SheetWords

if TYPE_CHECKING:
    from ...ir import Edition
    from . import PublicRoutes

# The players of the worked example, in seat order.
EXAMPLE_PLAYERS = ("Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaspard", "Hélène")


def signed(points: int) -> str:
    """A number of points as printed, with a true minus sign: « −10 »."""
    return f"−{-points}" if points < 0 else str(points)


def _capital(text: str) -> str:
    """The first letter in capitals, the rest as it is (« Piste Shinkansen »)."""
    return text[:1].upper() + text[1:]


def points_of(points: int) -> str:
    """« 10 points », « 0 point », « −1 point » (French counts fewer than two in the singular)."""
    return f"{signed(points)} {'point' if abs(points) < 2 else 'points'}"


def rank_name(rank: int) -> str:
    """« 1er », « 2e »…, as the table's columns print them."""
    return "1er" if rank == 1 else f"{rank}e"


def example_track(players: int, pieces: int) -> list[int]:
    """The example's places on the track: one ahead, two tied behind, then one each, the last at 0
    (with a single piece, one builder and the others at 0)."""
    if pieces == 1:
        return [5] + [0] * (players - 1)
    if players == 2:
        return [5, 0]
    if players == 3:
        return [5, 5, 0]
    return [9, 5, 5, *range(3, 3 - (players - 4), -1)][: players - 1] + [0]


@dataclass(frozen=True, slots=True)
class PublicWording:
    rule: PublicRoutes
    edition: Edition

    # -- names -------------------------------------------------------------
    @property
    def piece(self) -> str:
        return self.rule.singular

    def pieces(self, count: int) -> str:
        return f"{words(count)} {self.rule.singular if count == 1 else self.rule.plural}"

    def common(self, count: int) -> str:
        """« commun », agreed with the pieces."""
        return "commun" + ("e" if self.rule.feminine else "") + ("s" if count > 1 else "")

    def the_pieces(self) -> str:
        """The whole supply with its article: « les seize Shinkansen », « le viaduc »."""
        rule = self.rule
        if rule.pieces == 1:
            return f"{'la' if rule.feminine else 'le'} {rule.singular}"
        return f"les {self.pieces(rule.pieces)}"

    @property
    def routes_name(self) -> str:
        """« voies rapides »: the routes' plural, without article."""
        return self.rule.route_plural

    @property
    def route_name(self) -> str:
        """« voie rapide »."""
        return self.rule.route_singular

    @property
    def track(self) -> str:
        return self.rule.track_name

    def route_names(self) -> list[str]:
        """Each public route by its two ends, with its colour where another route joins them too."""
        routes = self.edition.board.routes
        by_id = {route.id: route for route in routes}
        names = []
        for route_id in self.rule.routes:
            route = by_id[route_id]
            shared = sum(1 for other in routes if {other.a, other.b} == {route.a, route.b}) > 1
            color = f" ({COLOR_ADJECTIVES[route.color][2]})" if shared else ""
            names.append(f"{route.a} – {route.b}{color}")
        return names

    # -- sentences ---------------------------------------------------------
    def last_round(self) -> str | None:
        """When the last round starts, in place of the core's sentence."""
        rule, trains = self.rule, words(self.edition.end.trains_at_most)
        if rule.last_round_pieces is None:
            return None
        supply = f"la réserve ne compte plus que {self.pieces(rule.last_round_pieces)} ou moins"
        if rule.with_trains.value == "both":
            return (
                f"Dès qu’à la fin d’un tour un joueur a {trains} wagons ou moins et que {supply}, le dernier "
                "tour commence : chacun joue encore une fois, celui qui vient de jouer compris. Puis on compte."
            )
        return (
            f"Quand un joueur termine son tour avec {trains} wagons ou moins, ou quand {supply}, le dernier "
            "tour commence : chacun joue encore une fois, celui qui vient de jouer compris. Puis on compte."
        )

    def last_round_summary(self) -> str | None:
        rule, trains = self.rule, words(self.edition.end.trains_at_most)
        if rule.last_round_pieces is None:
            return None
        joined = "et" if rule.with_trains.value == "both" else "ou"
        return (
            f"Un joueur à {trains} wagons ou moins {joined} {self.pieces(rule.last_round_pieces)} ou moins "
            "dans la réserve : chacun rejoue une fois, déclencheur compris."
        )

    def claim(self) -> tuple[str, ...]:
        rule = self.rule
        article = "une" if rule.feminine else "un"
        if len(rule.routes) == 1:
            opening = (
                f"La {self.route_name}, {self.route_names()[0]}, est publique. Tu la prends avec les cartes "
                "qu’une route de sa couleur demande"
            )
        else:
            opening = (
                f"Les {words(len(rule.routes), feminine=True)} {self.routes_name}, listées ci-dessous, sont "
                "publiques. Tu en prends une avec les cartes qu’une route de sa couleur demande"
            )
        paragraphs = [
            typo(
                f"{opening}, mais sans y poser tes wagons : tu y poses "
                + (
                    f"{self.the_pieces()} {self.common(1)}."
                    if rule.pieces == 1
                    else f"{article} {self.piece} de la réserve commune."
                )
                + " Elle ne te rapporte aucun point de route ; avance plutôt ton marqueur sur la "
                f"{self.track} d’autant de cases que la route en compte. Une fois prise, chaque joueur peut "
                "l’emprunter pour relier les villes de ses tickets."
            )
        ]
        if len(rule.routes) > 1:
            paragraphs.append(typo(f"{_capital(self.routes_name)} : {enumerate_fr(self.route_names())}."))
        if rule.pieces < len(rule.routes):
            paragraphs.append(
                typo(
                    f"Quand la réserve de {rule.plural} est vide, les {self.routes_name} encore libres deviennent "
                    "des routes ordinaires : on les prend avec ses wagons et elles rapportent leurs points."
                )
            )
        return tuple(paragraphs)

    def scoring(self) -> str:
        rule = self.rule
        zero = (
            f" Un joueur resté sur la case 0 marque {points_of(rule.no_contribution)} à la place."
            if rule.no_contribution is not None
            else ""
        )
        return typo(
            f"{_capital(self.track)} : les joueurs sont classés selon leur place sur la piste et marquent "
            f"les points de leur rang pour leur nombre (tableau « La {self.track} ») ; un nombre négatif se "
            "retire du score. À égalité, chacun des joueurs à égalité marque les points de son rang, et le "
            f"suivant prend le rang qu’il aurait sans l’égalité.{zero}"
        )

    def table(self) -> tuple[tuple[str, ...], ...]:
        most = max(len(row) for _, row in self.rule.ranks)
        header = ("Joueurs", *(rank_name(rank) for rank in range(1, most + 1)))
        rows = [
            (str(players), *(signed(points) for points in row), *("",) * (most - len(row)))
            for players, row in self.rule.ranks
        ]
        if self.rule.no_contribution is not None:
            rows.append(("Case 0", signed(self.rule.no_contribution), *("",) * (most - 1)))
        return (header, *rows)

    def example(self, engine: Any) -> tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The worked example, scored by the generated engine's `rank_points`."""
        rule = self.rule
        players = (
            max(count for count, _ in rule.ranks if count <= 4) if rule.ranks[0][0] <= 4 else rule.ranks[0][0]
        )
        track = example_track(players, rule.pieces)
        scored = engine.rank_points(track, rule.row(players), rule.no_contribution)
        names = EXAMPLE_PLAYERS[:players]
        places = enumerate_fr(
            [
                f"{name} à {f'{spaces} cases' if spaces else 'la case 0'}"
                for name, spaces in zip(names, track, strict=True)
            ]
        )
        said = [f"{name} marque {points_of(points)}" for name, points in zip(names, scored, strict=True)]
        text = typo(f"À {words(players)} joueurs : {places}. {enumerate_fr(said)}.")
        if len(set(track)) < len(track) and track.count(0) < 2:
            text += typo(" Chacun des joueurs à égalité prend les points de son rang.")
        if rule.no_contribution is not None and rule.no_contribution < 0:
            text += typo(
                f" Rester sur la case 0 coûte {points_of(-rule.no_contribution)}, quel que soit le rang."
            )
        elif rule.no_contribution == 0:
            text += typo(" Rester sur la case 0 ne rapporte rien, quel que soit le rang.")
        rows = (
            ("Joueur", "Cases", "Points"),
            *((n, str(s), signed(p)) for n, s, p in zip(names, track, scored, strict=True)),
        )
        return (f"Exemple de {self.track}", (text,), rows)

    def sheet(self, engine: Any) -> SheetWords:
        rule = self.rule
        return SheetWords(
            material=(
                typo(
                    f"{self.pieces(rule.pieces)} {self.common(rule.pieces)} à tous les joueurs, et la {self.track} "
                    "où chacun a un marqueur"
                ),
            ),
            setup=(
                typo(
                    f"Pose {self.the_pieces()} près du plateau, en réserve commune, et le marqueur de "
                    f"chaque joueur sur la case 0 de la {self.track}."
                ),
            ),
            gains_last=(f"ta place sur la {self.track}, qui rapporte ou coûte des points selon ton rang",),
            ticket_joined=typo(
                "Un ticket est réussi par un chemin continu entre {ends} fait de tes propres routes et des "
                f"{self.routes_name} déjà prises, par qui que ce soit : les autres routes des autres joueurs ne "
                "servent pas de raccord."
            ),
            claim=self.claim(),
            scoring=(self.scoring(),),
            last_round=self.last_round(),
            last_round_summary=self.last_round_summary(),
            mistakes=(
                typo(
                    f"Poser ses wagons sur une {self.route_name}, ou en marquer les points, tant qu’il reste "
                    f"des {rule.plural} dans la réserve."
                ),
            ),
            decisions=(
                typo(
                    f"Une {self.route_name} prise avec {'une' if rule.feminine else 'un'} {self.piece} "
                    "n’est à personne : elle sert aux tickets de tous les joueurs, mais ne compte ni dans le chemin "
                    "ni dans le réseau de son constructeur."
                ),
                typo(
                    f"On peut prendre une {self.route_name} avec moins de wagons qu’elle n’a de cases, "
                    "puisqu’on n’y pose pas de wagons."
                ),
            ),
            summary=(
                typo(
                    f"{_capital(self.route_name)} : cartes de sa couleur, {'une' if rule.feminine else 'un'} "
                    f"{self.piece} commun, pas de points ; avance d’autant sur la {self.track}."
                ),
            ),
            formula=(f" + {self.track}",),
            sections=(
                self.example(engine),
                (f"La {self.track}", (), self.table()),
            ),
        )

    def score_row(self) -> str:
        return _capital(self.track)

    def facts(self) -> list[Fact]:
        rule = self.rule
        ranks = "; ".join(
            f"{players} joueurs : {' / '.join(signed(points) for points in row)}"
            for players, row in rule.ranks
        )
        zero = f"; case 0 : {signed(rule.no_contribution)}" if rule.no_contribution is not None else ""
        found = [
            Fact(
                section="Matériel",
                label=_capital(rule.plural),
                value=f"{rule.pieces}, {self.common(rule.pieces)}",
            ),
            Fact(
                section="Le plateau",
                label=_capital(self.routes_name),
                value=f"{len(rule.routes)}, publiques ; une fois prises, elles servent aux tickets de tous les joueurs"
                if len(rule.routes) > 1
                else "1, publique ; une fois prise, elle sert aux tickets de tous les joueurs",
            ),
            Fact(
                section="Le tour",
                label=f"Prendre une {self.route_name}",
                value=f"{'une' if rule.feminine else 'un'} {self.piece} {self.common(1)} au lieu des wagons, pas "
                f"de points ; la {self.track} avance d’autant",
            ),
            Fact(section="Décompte", label=_capital(self.track), value=typo(ranks + zero)),
        ]
        if rule.last_round_pieces is not None:
            joined = "et" if rule.with_trains.value == "both" else "ou"
            found.append(
                Fact(
                    section="Décompte",
                    label="Dernier tour",
                    value=f"à {words(self.edition.end.trains_at_most)} wagons ou moins {joined} "
                    f"{self.pieces(rule.last_round_pieces)} ou moins dans la réserve",
                )
            )
        return found
