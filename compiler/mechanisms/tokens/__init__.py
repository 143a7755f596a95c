"""Tokens on the board's cities, taken when a route reaches them, and their majorities.

``tokens passengers { french "voyageur"; kinds red: 10, green: 10; on berlin: 5, hamburg: 2;
majority [20, 10] }`` (Germany's passengers): at set-up each city named in ``on`` gets that
many tokens drawn at random from the supply (``kinds``: how many of each kind; any left over
stay in the box); a claim takes one token from each end of its route that still holds any, the
kind chosen by the player where the city holds several (phase ``take_token``, one
``take_token`` action per choice); at the end, for each kind, the player holding the most scores
the first points of ``majority``, the next the second, and so on. A rule no edition prints is
written the same way: five gold nuggets, one on each of five cities, 15 points to whoever holds
the most. The first piece of the economies (issue 24): counters per player, supplies on the
board, an effect of the claim with a choice, scoring over counters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Code, did_you_mean
from ...french import COLOR_NAMES, at_country, counted, enumerate_fr
from ...frontend.positions import Span
from ...ir import IR, Edition
from ...ir.action_space import Part
from ..base import ActionSentence, ApiTypes, Fact, Mechanism, ScoreLine, SheetWords, citation, places_by_id
from ..marks import BoardMark, Drawn, MarkKind
from ..state import Scope, Shape, StateField
from .wording import TokenWording


@dataclass(**IR)
class Tokens:
    """A set of tokens: its French name, its supply by kind, its cities, its majority points."""

    id: str
    singular: str
    plural: str
    feminine: bool
    kinds: tuple[tuple[str, int], ...]  # the supply: each kind and how many, in spec order
    on: tuple[tuple[str, int], ...]  # each place (a city or a country, by name) and how many it gets
    majority: tuple[int, ...] = ()  # the points of the most tokens of a kind, then the second most…
    # Where each place of `on` is, in French (« à Berlin », « au Danemark »), for the sheet.
    at: tuple[str, ...] = ()
    bag: str | None = None  # what they are drawn from at set-up (« sac en tissu »), for the sheet
    span: Span | None = field(default=None, compare=False)

    @property
    def placed(self) -> int:
        return sum(count for _, count in self.on)

    @property
    def supply(self) -> int:
        return sum(count for _, count in self.kinds)


@dataclass(frozen=True, slots=True)
class EngineView:
    sets: tuple[Tokens, ...]

    @property
    def literal(self) -> str:
        """`TOKENS`: each set's kinds and supply, its places and how many each, its majority."""
        return repr(
            {
                tokens.id: {
                    "kinds": dict(tokens.kinds),
                    "on": dict(tokens.on),
                    "majority": tokens.majority,
                }
                for tokens in self.sets
            }
        )

    @property
    def names_literal(self) -> str:
        """One token of each set in French, with its article (« un voyageur »), for the messages."""
        return repr({tokens.id: TokenWording(tokens=tokens).one() for tokens in self.sets})

    @property
    def places_most(self) -> int:
        """The most places of one set (the native engine's room for them)."""
        return max(len(tokens.on) for tokens in self.sets)

    @property
    def kinds_most(self) -> int:
        return max(len(tokens.kinds) for tokens in self.sets)

    @property
    def supply_most(self) -> int:
        return max(tokens.supply for tokens in self.sets)

    @property
    def citation(self) -> str:
        return citation(self.sets)


def _places(edition: Edition, tokens: Tokens) -> str:
    """Where the tokens are placed, as the board names them: « 35 villes et 5 pays »."""
    countries = {country.name for country in edition.board.countries}
    abroad = sum(place in countries for place, _ in tokens.on)
    cities = len(tokens.on) - abroad
    said = [f"{cities} {counted(cities, 'ville', 'villes')}"] * bool(cities) + [f"{abroad} pays"] * bool(
        abroad
    )
    return " et ".join(said)


class TokenRules(Mechanism):
    name = "tokens"
    french = "les jetons sur les villes"
    rule_types = (Tokens,)
    folder = Path(__file__).resolve().parent
    statement = "tokens"
    exports = ("TOKENS", "majority_points")
    # The native engine plays it (its tokens in the game's struct, dealt from the same shuffle;
    # the choice of a kind as a phase) and scores the majorities.
    native = True
    native_scoring = True
    native_kinds = ("KIND_TAKE_TOKEN",)
    native_phases = {"take_token": "TAKE_TOKEN"}

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {"take_token": ("token_options", "TOKEN_KINDS_MOST")}

    # Tokens by set, then by place (every place of the set), then by kind (those left out: none).
    api = ApiTypes(
        fields={
            "State": {
                "tokens": "dict[str, dict[City, dict[str, int]]]",
                "token_choices": "list[TokenChoice]",
            },
            "PlayerState": {"tokens": "dict[str, dict[str, int]]"},
            "Observation": {
                "tokens": "dict[str, dict[City, dict[str, int]]]",
                "token_choices": "list[TokenChoice]",
            },
            "ObservedPlayer": {"tokens": "dict[str, dict[str, int]]"},
            "ScoreRecord": {"majorities": "dict[str, dict[str, int]]"},
        },
        records={"TokenChoice": {"tokens": "str", "city": "City"}},
        actions={"take_token": {"city": "City", "kind": "str"}},
    )

    leaves_claim_choices = True  # the kind of token a claim takes

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        return {"take_token": ("_apply_take_token", ("city", "kind"), ())}

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        places = places_by_id(data, countries=True)
        french = {
            country["name"]: country.get("french", country["name"])
            for country in data["board"].get("country", [])
        }

        def where(place: str) -> str:
            return at_country(french[place]) if place in french else f"à {place}"

        return tuple(
            Tokens(
                id=item["id"],
                singular=item["french"],
                plural=item.get("plural", item["french"] + "s"),
                feminine=item.get("feminine", False),
                kinds=tuple(item["kinds"].items()),
                on=tuple((places[place], count) for place, count in item["on"].items()),
                majority=tuple(item.get("majority", ())),
                at=tuple(where(places[place]) for place in item["on"]),
                bag=item.get("bag"),
                span=span("tokens", index),
            )
            for index, item in enumerate(data.get("tokens", []))
        )

    def check(self, checker: Any) -> None:
        """Places on the board, no more placed than the supply, kinds named in French (card
        colours where a set has several) and each kind in one set only."""
        if not checker.has("board"):
            return
        places = places_by_id(checker.data, countries=True)
        owner: dict[str, str] = {}
        for index, item in enumerate(checker.data.get("tokens", [])):
            for place in item["on"]:
                if place not in places:
                    checker.report(
                        Code.UNKNOWN_CITY,
                        f"« {place} » n’est ni une ville ni un pays de ce plateau",
                        ("tokens", index, "on", place),
                        did_you_mean(place, list(places))
                        or "une ville se nomme par son identifiant : berlin",
                    )
            placed, supply = sum(item["on"].values()), sum(item["kinds"].values())
            if placed > supply:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"{placed} jetons « {item['id']} » posés sur les villes, mais la réserve n’en a que {supply}",
                    ("tokens", index, "on"),
                )
            kinds = item["kinds"]
            for kind in kinds:
                if len(kinds) > 1 and kind not in COLOR_NAMES:
                    checker.report(
                        Code.INCONSISTENT_RULE,
                        f"« {kind} » n’est pas une couleur : des jetons de plusieurs sortes se distinguent "
                        "par leur couleur",
                        ("tokens", index, "kinds", kind),
                        hint=did_you_mean(kind, list(COLOR_NAMES)),
                    )
                if kind in owner:
                    checker.report(
                        Code.DUPLICATE_NAME,
                        f"la sorte « {kind} » est déjà celle des jetons « {owner[kind]} »",
                        ("tokens", index, "kinds", kind),
                    )
                owner.setdefault(kind, item["id"])

    # -- engine ------------------------------------------------------------
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        return {"take_token": ActionSentence(text="prend le jeton « {kind} » à {city}")}

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        found: list[StateField] = []
        for tokens in self.rules(edition):
            places = tuple(place for place, _ in tokens.on)
            kinds = tuple(kind for kind, _ in tokens.kinds)
            conserved = (f"tokens {tokens.id}", tokens.placed)
            found += [
                StateField(
                    key="tokens",
                    path=(tokens.id,),
                    scope=Scope.GAME,
                    shape=Shape.GRID,
                    label=f"{tokens.plural} sur le plateau",
                    over=places,
                    by=kinds,
                    positive=True,
                    conserved=conserved,
                    drawn=Drawn.COUNTS,
                    derived=True,
                ),
                StateField(
                    key="tokens",
                    path=(tokens.id,),
                    scope=Scope.PLAYER,
                    shape=Shape.TALLY,
                    label=f"{tokens.plural} pris",
                    over=kinds,
                    positive=True,
                    conserved=conserved,
                    derived=True,
                ),
                StateField(
                    key="token_choices",
                    scope=Scope.GAME,
                    shape=Shape.CHOICES,
                    label=f"{tokens.plural} à choisir",
                    over=places,
                    pick="city",
                    match=("tokens", tokens.id),
                    phase="take_token",
                    derived=True,
                ),
            ]
        return tuple(found)

    def board_marks(self, edition: Edition) -> tuple[BoardMark, ...]:
        """How many tokens each place gets at set-up, beside it."""
        return tuple(
            BoardMark(
                kind=MarkKind.PLACE_BADGE,
                targets=(place,),
                label=str(count),
                meaning=f"ses {tokens.plural} au début de la partie",
            )
            for tokens in self.rules(edition)
            for place, count in tokens.on
        )

    def score_lines(self, edition: Edition) -> tuple[ScoreLine, ...]:
        return tuple(
            ScoreLine(label=f"majorités de {tokens.plural}", path=("majorities", tokens.id), reads="sum")
            for tokens in self.rules(edition)
        )

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(sets=self.rules(edition))

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("take_token",)

    def messages(self, edition: Edition) -> dict[str, str]:
        return {
            "must_take_token": "Prends d’abord {token} à {city}.",
            "no_token_to_take": "Aucun jeton n’attend d’être pris.",
            "wrong_token_city": "C’est à {city} que tu prends {token}, pas à « {given} ».",
            "no_such_token": "Il n’y a pas de jeton « {kind} » à prendre à {city}.",
        }

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:

        return [
            Part(what=f"« tokens {tokens.id} »", actions=len(tokens.on) * len(tokens.kinds), span=tokens.span)
            for tokens in self.rules(edition)
        ]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        wordings = [TokenWording(tokens=tokens) for tokens in self.rules(edition)]
        return SheetWords(
            material=tuple(item for w in wordings for item in w.material()),
            setup=tuple(w.setup() for w in wordings),
            gains_last=tuple(w.gain() for w in wordings if w.tokens.majority),
            claim=tuple(w.claim() for w in wordings),
            scoring=tuple(w.scoring() for w in wordings if w.tokens.majority),
            mistakes=tuple(w.mistake() for w in wordings),
            summary=tuple(w.summary() for w in wordings),
            formula=tuple(w.formula() for w in wordings if w.tokens.majority),
            sections=tuple(w.example(engine) for w in wordings if w.tokens.majority),
        )

    def score_rows(self, edition: Edition) -> list[str]:
        return [TokenWording(tokens=tokens).score_row() for tokens in self.rules(edition) if tokens.majority]

    def facts(self, edition: Edition) -> list[Fact]:
        found = []
        for tokens in self.rules(edition):
            wording = TokenWording(tokens=tokens)
            found.append(
                Fact(
                    section="Matériel",
                    label=wording.title(),
                    value=f"{tokens.placed} sur {_places(edition, tokens)}"
                    + (f" ({enumerate_fr(wording.kind_counts())})" if len(tokens.kinds) > 1 else ""),
                )
            )
            found.append(
                Fact(section="Le tour", label=f"Prendre une route ({tokens.plural})", value=wording.taken())
            )
            if tokens.majority:
                found.append(
                    Fact(
                        section="Décompte",
                        label=f"Majorités de {tokens.plural}",
                        value=" / ".join(f"{points} points" for points in tokens.majority)
                        + (
                            f", pour chaque {'couleur' if len(tokens.kinds) > 1 else 'sorte'}"
                            if len(tokens.kinds) > 1
                            else ""
                        ),
                    )
                )
        return found

    def example_lines(self, edition: Edition, result: dict) -> list[tuple[str, int]]:
        lines = []
        for tokens in self.rules(edition):
            points = sum(result.get("majorities", {}).get(tokens.id, {}).values())
            if points:
                lines.append((f"Ses majorités de {tokens.plural} lui rapportent {points} points", points))
        return lines


MECHANISM = TokenRules()
