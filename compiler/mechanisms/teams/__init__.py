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
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from ...diagnostics import Code
from ...french import JOKERS, enumerate_fr, words
from ...frontend.positions import Span
from ...ir import Edition, TwinPolicy
from ...ir.action_space import Part
from ..base import (
    ActionSentence,
    ActionWords,
    ApiTypes,
    Attribute,
    Fact,
    Mechanism,
    SheetWords,
    citation,
    literal,
)
from ..state import Scope, Seen, Shape, StateField
from ..used import used_by
from .rule import ShareTickets, Teams
from .wording import TeamWording

# Where a drawn card goes: the player's hand or the team's holder (the state's and actions' ids,
# the engine's `_PLACES`), and as the log says it.
DRAW_PLACES = ("hand", "holder")
_PLACES_TO = {"hand": "en main", "holder": "pour le porte-cartes de l’équipe"}


@dataclass(frozen=True, slots=True)
class EngineView:
    teams: Teams

    @property
    def places(self) -> str:
        """Where a drawn card may go, as the engine's literal."""
        return repr(DRAW_PLACES)

    @property
    def citation(self) -> str:
        return citation((self.teams,))

    @property
    def share_most(self) -> int:
        """The most tickets a turn shares (at least 1: the native engine's arrays)."""
        return max(self.teams.share_tickets.at_most if self.teams.share_tickets else 0, 1)

    @property
    def share_citation(self) -> str:
        return citation((self.teams.share_tickets,)) if self.teams.share_tickets else "built in"


class TeamPlay(Mechanism):
    name = "teams"
    french = "le jeu en équipes"
    rule_types = (Teams,)
    example_tickets = ("holder_tickets",)
    folder = Path(__file__).resolve().parent
    # The native engine plays team play (its draws, splits, shares); dealing and scoring by
    # team are the pure engine's code, run on the native state.
    native = True
    native_scoring = (
        True  # its set-up and scoring by team: its `set_up` and `score_player` parts, `team_scores`
    )
    native_kinds = (
        "KIND_BLIND",
        "KIND_DECK_TO",
        "KIND_MARKET_TO",
        "KIND_PLACE",
        "KIND_TEAM_CLAIM",
        "KIND_SHARE",
    )
    native_phases = {"place_card": "PLACE_CARD"}
    native_keep_marks = 1  # the tickets shared among those kept
    # Mechanisms whose native parts pay from the hand alone: their splits with the holder are
    # not native yet.
    not_native_with = ("tunnels", "stations", "card_sets", "joker_pays", "claim_effects")

    def native_turn_actions(self, edition: Edition) -> tuple[str, str, str | None] | None:
        return ("share_count", "share_id", None) if self.rule(edition).share_tickets else None

    def native_phase_options(self, edition: Edition) -> dict[str, tuple[str, str]]:
        return {"place_card": ("place_card_options", "2")} if edition.turn.draw_cards else {}  # hand, holder

    def action_handlers(self, edition: Edition) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
        found = {"place_card": ("_apply_place_card", ("to",), ())} if edition.turn.draw_cards else {}
        if self.rule(edition).share_tickets:
            found["share_tickets"] = ("_apply_share_tickets", ("tickets",), ())
        return found

    def build(self, data: dict[str, Any], span: Callable[..., Span]) -> tuple[Any, ...]:
        teams = data.get("teams")
        if not teams:
            return ()
        share = data["turn"].get("share_tickets")
        example = data.get("score_example") or {}
        return (
            Teams(
                size=teams["size"],
                face_up_locomotive_to_holder=teams["face_up_locomotive"] == "holder",
                share_at_setup=teams["share_at_setup"],
                share_at_draw=teams["share_at_draw"],
                share_tickets=ShareTickets(at_most=share["at_most"], span=span("turn", "share_tickets"))
                if share
                else None,
                example_tickets=tuple(example.get("holder_tickets", ())),
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
        example = data.get("score_example")
        if example and example.get("holder_tickets"):
            team_only.append(("score_example", "holder_tickets"))
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
        if example and (example["players"] % size or example["players"] < 2 * size):
            # The example's opponent sits in the next team: there must be two whole teams.
            checker.report(
                Code.BAD_PLAYER_RANGES,
                f"l’exemple se joue à {example['players']} joueurs : il faut au moins deux équipes "
                f"entières de {size}",
                ("score_example", "players"),
                hint=f"« players {2 * size} » dans « score_example »"
                if players["min"] <= 2 * size <= players["max"]
                else None,
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
    def action_sentences(self, edition: Edition) -> dict[str, ActionSentence]:
        counted = ("aucun ticket", "ticket", "tickets")
        found = {
            "share_tickets": ActionSentence(
                text="met {tickets:count} dans le porte-cartes de l’équipe", counts={"tickets": counted}
            )
        }
        if edition.turn.draw_cards:
            found["place_card"] = ActionSentence(text="met la carte piochée {to}", names={"to": _PLACES_TO})
        return found

    def action_clauses(self, edition: Edition) -> dict[str, tuple[ActionSentence, ...]]:
        # Where a drawn card goes; which kept tickets go to the team's holder.
        to = ActionSentence(text=" {to}", names={"to": _PLACES_TO}, present="to")
        counted = ("aucun ticket", "ticket", "tickets")
        shared = ActionSentence(
            text=", dont {share:tickets} au porte-cartes de l’équipe",
            counts={"share": counted},
            filled="share",
            legend="Au porte-cartes de l’équipe",
        )
        return {"draw_card": (to,), "keep_tickets": (shared,)}

    def payment_sources(self, edition: Edition) -> tuple[tuple[str, str], ...]:
        return (("holder_cards", "du porte-cartes"),)

    def attributes(self, edition: Edition) -> tuple[Attribute, ...]:
        return (
            Attribute(
                name="_side",
                type="list[int]",
                start="_twin_sides(players)",
                why="Whom the twin of a double route is closed to.",
                fixed=True,
            ),
        )

    def state_fields(self, edition: Edition) -> tuple[StateField, ...]:
        return (
            StateField(
                key="holder",
                scope=Scope.TEAM,
                shape=Shape.TALLY,
                label="cartes du porte-cartes de l’équipe",
                over="COLORS",
                seen=Seen.OWNER,
                counted_as="holder_size",
                holds="cards",
                derived=True,
                indexed=True,
            ),
            StateField(
                key="tickets",
                scope=Scope.TEAM,
                shape=Shape.IDS,
                label="tickets du porte-tickets de l’équipe",
                over="TICKETS",
                seen=Seen.OWNER,
                counted_as="tickets_count",
                holds="tickets",
                keeps_every_ticket=True,  # team play gives every ticket back under the deck
                derived=True,
                indexed=True,
            ),
            StateField(
                key="setup_share",
                scope=Scope.PLAYER,
                shape=Shape.IDS,
                label="tickets gardés à la mise en place, à partager",
                over="TICKETS",
                seen=Seen.OWNER,
                counted_as="setup_share_count",
                holds="tickets",
                derived=True,
                indexed=True,
            ),
            StateField(
                key="last_card_to",
                scope=Scope.GAME,
                shape=Shape.PENDING,
                label="où est allée la première carte de la pioche",
                over=DRAW_PLACES,
                phase="second_card",  # the second card goes to the other place
                derived=True,
            ),
            StateField(
                key="drawn_card",
                scope=Scope.GAME,
                shape=Shape.CARD,
                label="carte piochée à l’aveugle, à placer",
                over="COLORS",
                seen=Seen.OWNER,
                holds="cards",
                phase="place_card",  # drawn from the deck unseen by the others, then placed
                derived=True,
                indexed=True,
            ),
        )

    def scores_natively(self, edition: Edition) -> bool:
        # Its native team scores judge the holder's tickets between two places: a ticket to
        # targets is the pure engine's.
        return not any(ticket.targets for ticket in edition.tickets.tickets)

    def engine_view(self, edition: Edition) -> EngineView:
        return EngineView(teams=self.rule(edition))

    def plays_natively(self, edition: Edition) -> bool:
        return not self._native_gaps(edition)

    def native_gap(self, edition: Edition) -> str:
        return f"{self.french} avec {enumerate_fr(self._native_gaps(edition))}"

    def _native_gaps(self, edition: Edition) -> list[str]:
        return [m.french for m in used_by(edition) if m.name in self.not_native_with]

    def exports_for(self, edition: Edition) -> tuple[str, ...]:
        shared = ("SHARE_TICKETS_AT_MOST",) if self.rule(edition).share_tickets else ()
        return ("SHARE_AT_DRAW", "SHARE_AT_SETUP", "TEAM_SIZE", *shared)

    def pays_from_shared(self, edition: Edition) -> bool:
        return True

    def action_fields(self, edition: Edition) -> dict[str, tuple[str, ...]]:
        # A card's place, the cards paid from the holder, the tickets shared with the team.
        return {"draw_card": ("to",), "claim_route": ("holder_cards",), "keep_tickets": ("share",)}

    def double_rule_fields(self, edition: Edition) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
        return (
            (
                "whether the twin stays closed to the whole team of the player who took the first track",
                lambda rule: rule.twin is TwinPolicy.OTHER_TEAM,
            ),
        )

    def phases(self, edition: Edition) -> tuple[str, ...]:
        return ("place_card",) if edition.turn.draw_cards else ()

    def api_types(self, edition: Edition) -> ApiTypes:
        tickets = {"tickets": "list[TicketId]"}  # the tickets of the team's holder
        actions: dict[str, dict[str, str]] = {}
        if edition.turn.draw_cards:
            actions["place_card"] = {"to": "Place"}
        entries: tuple[str, ...] = ()
        records = {
            "TeamState": {"players": "list[int]", "holder": "Cards", **tickets},
            # The observer's own team shows its holders; the others, their sizes.
            "ObservedTeam": {
                "players": "list[int]",
                "holder_size": "int",
                "tickets_count": "int",
                "holder": "NotRequired[Cards]",
                "tickets": "NotRequired[list[TicketId]]",
            },
            "TeamScore": {
                "team": "int",
                "players": "list[int]",
                "route_points": "int",
                "tickets_completed": "list[TicketResult]",
                "tickets_failed": "list[TicketResult]",
                "holder_tickets_completed": "list[TicketResult]",
                "holder_tickets_failed": "list[TicketResult]",
                "longest_path": "int",
                "routes_claimed": "int",
                "largest_network": "int",
                "bonuses": "dict[str, int]",
                "total": "int",
            },
        }
        if self.rule(edition).share_tickets:
            actions["share_tickets"] = dict(tickets)
            # An entry of ACTIONS sharing tickets by their position among those held.
            records["ShareTicketsByPosition"] = {"type": literal(["share_tickets"]), "held": "list[int]"}
            entries = ("ShareTicketsByPosition",)
        table = {"teams": "list[TeamState]", "last_card_to": "Place | None", "drawn_card": "Color | None"}
        return ApiTypes(
            fields={
                "State": table,
                "PlayerState": {"setup_share": "list[TicketId]"},
                "Observation": table | {"teams": "list[ObservedTeam]"},
                "ObservedPlayer": {
                    "team": "int",
                    "setup_share_count": "int",
                    "setup_share": "NotRequired[list[TicketId]]",
                },
                "ScoreRecord": {"team": "int"},
                "DrawCard": {"to": "NotRequired[Place]"},
                "ClaimRoute": {"holder_cards": "NotRequired[Cards]"},
                "KeepTickets": {"share": "NotRequired[list[TicketId]]"},
                "KeepTicketsByPosition": {"shared": "list[int]"},
            },
            records=records,
            actions=actions,
            entries=entries,
            aliases={"Place": literal(["hand", "holder"])},
        )

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

        share = self.rule(edition).share_tickets
        if share is None:
            return []
        # Exact: at most 1,000 sizes (the schema's bound), each one product.
        tickets = len(edition.tickets.tickets)
        shares = sum(comb(tickets, size) for size in range(1, share.at_most + 1))
        return [Part(what="« share_tickets »", actions=shares, span=share.span)]

    def card_draws(self, edition: Edition, core: int) -> int:
        # Each source to the hand or the holder, and the first card drawn blind from the deck,
        # then placed in the hand or the holder.
        return 2 * core + 3

    def keep_ways(self, edition: Edition, size: int) -> int:
        teams = self.rule(edition)
        wanted = {min(teams.share_at_setup, size), min(teams.share_at_draw, size)}
        return sum(comb(size, chosen) for chosen in wanted)

    # -- worked examples ---------------------------------------------------
    def lay_example(self, edition: Edition, state: dict) -> None:
        # The team's holder holds the example's holder tickets, the other holders none.
        tickets = self.rule(edition).example_tickets
        for team in state["teams"]:
            team["tickets"] = []
        state["teams"][0]["tickets"] = list(tickets)
        state["ticket_deck"] = [ticket for ticket in state["ticket_deck"] if ticket not in tickets]

    def side_results(self, edition: Edition, game: Any) -> list[dict] | None:
        return game.team_scores()

    def shared_tickets(self, edition: Edition, result: dict) -> tuple[list[dict], list[dict]]:
        return result.get("holder_tickets_completed", []), result.get("holder_tickets_failed", [])

    # -- words -------------------------------------------------------------
    def borrowed_routes(self, edition: Edition) -> str | None:
        return "d’un coéquipier"  # a ticket is completed by the routes of the whole team

    def side_size(self, edition: Edition) -> int:
        return self.rule(edition).size

    def side_name(self, edition: Edition) -> str | None:
        return "Équipe"

    def sheet(self, edition: Edition, engine: Any) -> SheetWords:
        wording = TeamWording(edition=edition)
        share = self.rule(edition).share_tickets
        actions = (
            (
                ActionWords(
                    name="partager des tickets",
                    title="Partager des tickets",
                    paragraphs=(wording.share_paragraph(),),
                ),
            )
            if share
            else ()
        )
        return SheetWords(
            material=tuple(wording.material_items()),
            actions=actions,
            mistakes=tuple(wording.mistakes()),
            decisions=tuple(wording.decisions()),
            sides=wording.sides(),
        )

    def facts(self, edition: Edition) -> list[Fact]:
        teams = self.rule(edition)
        drawn = edition.turn.draw_cards.count if edition.turn.draw_cards else 2
        # What each says without teams, so that a page between a team edition and another says
        # what takes its place (« les deux dans la main »), not that it is gone.
        found = [
            Fact(
                section="Généralités",
                label="Équipes",
                value=f"de {words(teams.size)} joueurs, avec un porte-cartes Wagon et un porte-cartes de tickets "
                "communs ; les routes et les tickets se comptent par équipe",
                without="aucune, chacun joue pour soi",
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
                without="dans la main" if drawn == 1 else f"les {words(drawn, feminine=True)} dans la main",
            ),
            Fact(
                section="Mise en place",
                label="Tickets partagés",
                value=f"{words(teams.share_at_setup)} des tickets gardés, dans le porte-cartes de l’équipe",
                without="aucun, chacun garde les siens",
            ),
            Fact(
                section="Le tour",
                label="Tickets partagés après une pioche",
                value=f"{words(teams.share_at_draw)} des tickets gardés",
                without="aucun",
            ),
        ]
        if teams.share_tickets:
            found.append(
                Fact(
                    section="Le tour",
                    label="Partager des tickets",
                    value=f"d’un à {words(teams.share_tickets.at_most)} tickets, tout le tour",
                )
            )
        return found


MECHANISM = TeamPlay()
