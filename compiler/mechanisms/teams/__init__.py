"""Team play: players sit in teams that share a card holder, a ticket holder and their score.

``teams 2 face_up_locomotive: holder share_at_setup: 1 share_at_draw: 1`` (Asia, team play):
team k is players k×size to k×size+size−1, who play one after the other; the first card of a
draw goes where the player says (hand or holder), each next one to the other place; a face-up
locomotive taken alone goes to the holder (``holder``) or where the player says (``chosen``);
of the tickets kept, ``share_at_setup`` at set-up and ``share_at_draw`` after a draw go to the
team's holder; a claim pays from the hand and the holder together; tickets and bonus cards
count by team. ``turn { share_tickets N }`` is a whole turn putting 1 to N of one's tickets in
the holder. Team play changes how the core pays, draws and keeps tickets: the core's code reads
this mechanism's rule there (``teams_of``); its own state, actions and words are here. Moved
here from the core (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import JOKERS, words
from ...frontend.positions import Span
from ...ir import IR, Edition
from ..base import ActionWords, Fact, Mechanism, SheetWords, citation


@dataclass(**IR)
class ShareTickets:
    """A whole turn spent putting 1 to `at_most` of one's own tickets in the team's holder."""

    at_most: int
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Teams:
    """Team play: teams of `size` players sitting in turn order, each with a card and a ticket holder."""

    size: int
    face_up_locomotive_to_holder: bool  # a face-up locomotive taken alone goes to the holder
    share_at_setup: int  # tickets each player puts in the team's holder at set-up, of those kept
    share_at_draw: int  # of the tickets newly kept after a draw
    share_tickets: ShareTickets | None = None  # the turn that shares tickets, when the edition has it
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EngineView:
    teams: Teams

    @property
    def citation(self) -> str:
        return citation((self.teams,))

    @property
    def share_citation(self) -> str:
        return citation((self.teams.share_tickets,)) if self.teams.share_tickets else "built in"


def teams_of(edition: Edition) -> Teams | None:
    """The edition's team play, or None."""
    return next((rule for rule in edition.rules if isinstance(rule, Teams)), None)


class TeamPlay(Mechanism):
    name = "teams"
    rule_types = (Teams,)
    folder = Path(__file__).resolve().parent

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        teams = data.get("teams")
        if not teams:
            return ()
        share = data["turn"].get("share_tickets")
        return (
            Teams(
                size=teams["size"],
                face_up_locomotive_to_holder=teams["face_up_locomotive"] == "holder",
                share_at_setup=teams["share_at_setup"],
                share_at_draw=teams["share_at_draw"],
                share_tickets=ShareTickets(at_most=share["at_most"], span=span("turn", "share_tickets"))
                if share
                else None,
                span=span("teams"),
            ),
        )

    # -- checks --------------------------------------------------------------
    def check(self, checker: Any) -> None:
        """Player counts the teams divide, shares the kept tickets allow, and the team-only rules
        (sharing tickets, team trains, doubles closed to a team) only with teams."""
        if not checker.has("players", "turn", "setup.tickets", "end", "double_routes.rule"):
            return
        data = checker.data
        teams = data.get("teams")
        team_only = [("turn", "share_tickets")] if "share_tickets" in data["turn"] else []
        if data["end"].get("trains_of") == "team":
            team_only.append(("end", "trains_of"))
        team_only += [
            ("double_routes", "rule", i, "twin")
            for i, rule in enumerate(data["double_routes"]["rule"])
            if rule["twin"] == "other_team"
        ]
        if teams is None:
            for path in team_only:
                checker.report(
                    Code.INCONSISTENT_RULE,
                    f"« {path[-1]} » ne se joue qu’en équipes",
                    path,
                    hint="déclarez les équipes : « teams 2 … »",
                )
            return
        size, players = teams["size"], data["players"]
        counts = range(players["min"], players["max"] + 1)
        if not any(count % size == 0 and count >= 2 * size for count in counts):
            checker.report(
                Code.BAD_PLAYER_RANGES,
                f"aucun nombre de joueurs de {players['min']} à {players['max']} ne forme au moins deux "
                f"équipes de {size}",
                ("teams", "size"),
            )
        elif players["min"] < 2 * size:
            # A single team would win every game it plays.
            checker.report(
                Code.BAD_PLAYER_RANGES,
                f"à {players['min']} joueurs, il n’y a pas deux équipes de {size} : une partie en équipes "
                f"se joue à {2 * size} joueurs au moins",
                ("players",),
                hint=f"« players {2 * size}..{players['max']} »",
            )
        if teams["share_at_setup"] > data["setup"]["tickets"]["keep_at_least"]:
            checker.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager à la mise en place plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_setup"),
            )
        draw = data["turn"].get("draw_tickets")
        if draw and teams["share_at_draw"] > draw["keep_at_least"]:
            checker.report(
                Code.INCONSISTENT_RULE,
                "on ne peut pas partager après une pioche plus de tickets qu’on n’en garde au moins",
                ("teams", "share_at_draw"),
            )

    def without(
        self, data: dict[str, Any], kind: str, keep_items: Callable[..., None]
    ) -> tuple[str, ...] | None:
        """``without teams``: the holders, shared tickets and team trains go; a double route closed
        to a team becomes closed to a player; the example's holder tickets become the player's."""
        if "teams" not in data:
            return None
        data.pop("teams")
        turn = data.get("turn", {})
        if "share_tickets" in turn:
            data["turn"] = {key: value for key, value in turn.items() if key != "share_tickets"}
        end = data.get("end", {})
        if end.get("trains_of") == "team":
            data["end"] = {key: value for key, value in end.items() if key != "trains_of"}
        example = data.get("score_example")
        if isinstance(example, dict) and example.get("holder_tickets"):
            # Without a team holder, the example's player holds those tickets.
            mine = [*example.get("tickets", []), *example["holder_tickets"]]
            data["score_example"] = {
                **{k: v for k, v in example.items() if k != "holder_tickets"},
                "tickets": mine,
            }
        doubles = data.get("double_routes")
        if isinstance(doubles, dict):
            data["double_routes"] = {
                **doubles,
                "rule": [
                    {**rule, "twin": "other_player"} if rule.get("twin") == "other_team" else rule
                    for rule in doubles.get("rule", [])
                ],
            }
        return ("teams", "turn", "end", "double_routes", "players", "score_example")

    # -- engine ------------------------------------------------------------
    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(teams=self.rule(edition))

    def exports_for(self, edition: Edition) -> tuple[str, ...]:
        shared = ("SHARE_TICKETS_AT_MOST",) if self.rule(edition).share_tickets else ()
        return ("SHARE_AT_DRAW", "SHARE_AT_SETUP", "TEAM_SIZE", *shared)

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("place_card",) if edition.turn.draw_cards else ()

    def messages(self, edition: Edition) -> dict[str, str]:
        found = {
            "unknown_place": "Une carte piochée va dans ta main (« hand ») ou dans le porte-cartes de l’équipe "
            "(« holder »), pas « {place} ».",
            "same_place_twice": "Ta carte précédente est déjà allée dans {place} : celle-ci va à l’autre place.",
            "locomotive_to_holder": "Une {JOKER} visible prise seule va dans le porte-cartes de l’équipe.",
            "must_place_card": "Place d’abord la carte piochée : dans ta main (« hand ») ou dans le "
            "porte-cartes de l’équipe (« holder »).",
            "no_card_to_place": "Aucune carte piochée n’attend sa place.",
            "not_enough_holder_cards": "Il faut {wanted} dans le porte-cartes de l’équipe, qui en a {held}.",
            "double_route_same_team": "Ton équipe a déjà l’autre voie de la route double « {route} ».",
            "wrong_share_count": "Tu dois partager avec ton équipe exactement {tickets} parmi ceux que tu "
            "gardes, pas {given}.",
            "share_not_kept": "Le ticket « {ticket} » ne fait pas partie des tickets que tu gardes.",
        }
        if self.rule(edition).share_tickets:
            found["wrong_share_tickets_count"] = (
                "Tu peux partager de 1 à {most} tickets en un tour, pas {given}."
            )
            found["ticket_not_held"] = "Le ticket « {ticket} » n’est pas dans ta main."
        return found

    def action_parts(self, edition: Edition, split: bool) -> list[Any]:
        from ...ir.cost import Part

        share = self.rule(edition).share_tickets
        if share is None:
            return []
        # Exact: at most 1,000 sizes (the schema's bound), each one product.
        tickets = len(edition.tickets.tickets)
        shares = sum(comb(tickets, size) for size in range(1, share.at_most + 1))
        return [Part(what="« share_tickets »", actions=shares, span=share.span)]

    # -- words -------------------------------------------------------------
    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        from .wording import TeamWording

        if self.rule(edition).share_tickets is None:
            return SheetWords()
        share = TeamWording(edition=edition).share_paragraph()
        return SheetWords(
            actions=(
                ActionWords(name="partager des tickets", title="Partager des tickets", paragraphs=(share,)),
            )
        )

    def facts(self, edition: Edition) -> list[Fact]:
        teams = self.rule(edition)
        found = [
            Fact(
                section="Généralités",
                label="Équipes",
                value=f"de {words(teams.size)} joueurs, avec un porte-cartes Wagon et un porte-cartes de tickets "
                "communs ; les routes et les tickets se comptent par équipe",
            ),
            Fact(
                section="Le tour",
                label="Cartes piochées",
                value="la première dans la main ou dans le porte-cartes, au choix, la suivante à l’autre place"
                + (
                    f" ; une {JOKERS[edition.joker.value][0]} visible prise seule, dans le porte-cartes"
                    if teams.face_up_locomotive_to_holder
                    else ""
                ),
            ),
            Fact(
                section="Mise en place",
                label="Tickets partagés",
                value=f"{words(teams.share_at_setup)} des tickets gardés, dans le porte-cartes de l’équipe",
            ),
            Fact(
                section="Le tour",
                label="Tickets partagés après une pioche",
                value=f"{words(teams.share_at_draw)} des tickets gardés",
            ),
        ]
        if teams.share_tickets:
            found.append(
                Fact(
                    section="Le tour",
                    label="Partager des tickets",
                    value=f"de un à {words(teams.share_tickets.at_most)} tickets, tout le tour",
                )
            )
        return found


MECHANISM = TeamPlay()
