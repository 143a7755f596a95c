"""The French of tokens on cities: the sheet's sentences, the facts, the worked example."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...french import COLOR_ADJECTIVES, enumerate_fr, typo, words

if TYPE_CHECKING:
    from . import Tokens

# The ranks after the first, for the majorities' points.
RANKS = (
    "le deuxième",
    "le troisième",
    "le quatrième",
    "le cinquième",
    "le sixième",
    "le septième",
    "le huitième",
    "le neuvième",
    "le dixième",
)
# The players of the worked example, in seat order.
EXAMPLE_PLAYERS = ("Alice", "Bruno", "Chloé", "David")
# Their tokens of one kind in the example: two tied for the first place, then one fewer, as
# the kind's supply allows.
EXAMPLE_COUNTS = {5: (2, 2, 1, 0), 2: (1, 1, 0, 0), 1: (1, 0, 0, 0)}


@dataclass(frozen=True, slots=True)
class TokenWording:
    tokens: Tokens

    # -- names -------------------------------------------------------------
    @property
    def several(self) -> bool:
        """Whether the set has several kinds (colours)."""
        return len(self.tokens.kinds) > 1

    def counted(self, count: int) -> str:
        return f"{count} {self.tokens.singular if count == 1 else self.tokens.plural}"

    def one(self) -> str:
        """« un voyageur », « une pépite »."""
        return f"{'une' if self.tokens.feminine else 'un'} {self.tokens.singular}"

    def title(self) -> str:
        return self.tokens.plural[:1].upper() + self.tokens.plural[1:]

    def adjective(self, kind: str, count: int) -> str:
        masculine, masculine_plural, feminine, feminine_plural = COLOR_ADJECTIVES[kind]
        if self.tokens.feminine:
            return feminine if count == 1 else feminine_plural
        return masculine if count == 1 else masculine_plural

    def kind_counts(self) -> list[str]:
        """« 10 rouges », « 10 verts »… (a set of several colours)."""
        return [f"{count} {self.adjective(kind, count)}" for kind, count in self.tokens.kinds]

    def each_kind(self) -> str:
        """« de chaque couleur », or nothing for a set of one kind."""
        return " de chaque couleur" if self.several else ""

    def the_most(self) -> str:
        """« le plus de voyageurs de chaque couleur »."""
        return f"le plus de {self.tokens.plural}{self.each_kind()}"

    # -- the sheet -----------------------------------------------------------
    def material(self) -> tuple[str, ...]:
        t = self.tokens
        supply = self.counted(t.supply)
        if self.several:
            supply += f" : {enumerate_fr(self.kind_counts())}"
        return (supply,) + ((f"un {t.bag}, pour tirer les {t.plural} au hasard",) if t.bag else ())

    def setup(self) -> str:
        t = self.tokens
        places = enumerate_fr([f"{count} {at}" for (_, count), at in zip(t.on, t.at, strict=True)])
        countries = any(not at.startswith("à ") for at in t.at)
        how = "au hasard " if self.several else ""
        rest = t.supply - t.placed
        left = ""
        if rest == 1:
            left = " ; l’autre reste dans la boîte"
        elif rest > 1:
            left = f" ; les {rest} autres restent dans la boîte"
        where = "les villes et les pays" if countries else "les villes"
        if t.bag:
            return typo(
                f"Mets les {t.plural} dans le {t.bag} et mélange-les, puis tire-les au hasard et pose-les sur "
                f"{where} : {places}{left}."
            )
        return typo(f"Pose {how}les {t.plural} sur {where} : {places}{left}.")

    def claim(self) -> str:
        choice = ", de la couleur de ton choix" if self.several else ""
        return typo(
            f"Quand tu prends une route, prends {self.one()} dans chacune de ses deux villes qui en a "
            f"encore{choice}. Tes {self.tokens.plural} restent devant toi, visibles de tous."
        )

    def rank_points(self) -> str:
        """« le joueur qui en a le plus marque 20 points, le deuxième 10 »."""
        majority = self.tokens.majority
        rest = "".join(f", {rank} {points}" for rank, points in zip(RANKS, majority[1:], strict=False))
        return f"le joueur qui en a le plus marque {majority[0]} points{rest}"

    def gain(self) -> str:
        """« 20 points pour le plus de voyageurs de chaque couleur, 10 pour le deuxième »."""
        majority = self.tokens.majority
        rest = "".join(f", {points} pour {rank}" for rank, points in zip(RANKS, majority[1:], strict=False))
        return f"{majority[0]} points pour {self.the_most()}{rest}"

    def scoring(self) -> str:
        t = self.tokens
        lead = f"pour chaque couleur de {t.plural}, " if self.several else ""
        tie = (
            "À égalité, chacun des joueurs à égalité marque les points de ce rang, et les rangs suivants "
            "qu’ils occupent ne sont pas donnés."
            if len(t.majority) > 1
            else "À égalité, chacun des joueurs à égalité les marque."
        )
        least = "une" if t.feminine else "un"
        return typo(
            f"Majorités de {t.plural} : {lead}{self.rank_points()}. Il faut en avoir au moins {least} pour "
            f"marquer. {tie}"
        )

    def mistake(self) -> str:
        return f"Oublier de prendre {self.one()} dans la seconde ville de la route prise."

    def taken(self) -> str:
        choice = ", de la couleur choisie" if self.several else ""
        return f"{self.one()} de chaque ville de la route qui en a encore{choice}"

    def summary(self) -> str:
        majority = " / ".join(str(points) for points in self.tokens.majority)
        scored = ""
        if majority:
            scored = f" ; majorités{' par couleur' if self.several else ''} : {majority} points"
        return typo(f"Route prise : {self.taken()}{scored}.")

    def formula(self) -> str:
        return f" + majorités de {self.tokens.plural}"

    def score_row(self) -> str:
        return typo(f"Majorités de {self.tokens.plural}")

    def example(self, engine: Any) -> tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """A worked example of the majorities, scored by the generated engine at build time."""
        t = self.tokens
        kind, supply = t.kinds[0]
        counts = EXAMPLE_COUNTS[max(size for size in EXAMPLE_COUNTS if size <= supply)]
        points = engine.majority_points(list(counts), t.majority)
        what = f"{t.plural} {self.adjective(kind, 2)}" if self.several else t.plural
        rows: list[tuple[str, ...]] = [("Joueur", what[:1].upper() + what[1:], "Points")]
        rows += [
            (player, str(count), str(scored))
            for player, count, scored in zip(EXAMPLE_PLAYERS, counts, points, strict=True)
        ]
        scorers = [
            f"{player} {scored} points"
            for player, scored in zip(EXAMPLE_PLAYERS, points, strict=True)
            if scored
        ]
        said = (
            f"{words(len(counts)).capitalize()} joueurs finissent avec "
            f"{enumerate_fr([str(count) for count in counts])} {what} : {enumerate_fr(scorers)} ; "
            "les autres ne marquent rien."
        )
        return (f"Exemple de majorité de {t.plural}", (typo(said),), tuple(rows))
