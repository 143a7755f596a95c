"""Stage 6a: IR to the Python source of an edition's rules engine.

The view model turns the IR into Python literals (always through ``repr``, so
a spec string can never become code) and flags for the mechanisms the edition
uses; the template only prints them. The output is formatted by ruff, pinned
in pyproject.toml, so that it is byte-identical on every machine.
"""

from __future__ import annotations

import subprocess
import textwrap
from dataclasses import dataclass
from functools import cache

import jinja2

from ..french import COLOR_NAMES, card_forms, engine_messages
from ..ir import Edition, TwinPolicy
from ..mechanisms import (
    EXPRESSIONS,
    EnginePart,
    Mechanism,
    bonus_rows,
    claim_points,
    joker_kinds,
    joker_refusal,
    joker_rules,
    set_aside,
    side_size,
    spared_trains,
    tiebreaks,
    used_by,
)
from ..mechanisms.base import CONDITIONS, Attribute, ScoreLine, citation
from . import template_environment
from .api_types import ApiTypesView, api_types
from .escape import cite, cite_name
from .kept_state import KeptState
from .ticket_returns import TicketReturns


@cache
def environment() -> jinja2.Environment:
    return template_environment(autoescape=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameClass:
    """A mechanism's class in the engine: its name, the class it subclasses, its body."""

    name: str
    base: str
    part: EnginePart
    french: str  # the mechanism's French name, as the build's messages say it
    rules: str  # the spec lines of its rules


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineView:
    edition: Edition
    sources: tuple[str, ...]

    @property
    def used_mechanisms(self) -> tuple[Mechanism, ...]:
        """The registered mechanisms this edition's rules use, in the registry's order."""
        return used_by(self.edition)

    def parts(self, hook: str) -> list[EnginePart]:
        """The mechanisms' parts printed at the hook point ``hook``."""
        found = []
        for mechanism in self.used_mechanisms:
            part = mechanism.parts(self.edition).get(hook)
            if part is not None:
                found.append(part)
        return found

    @property
    def game_classes(self) -> list[GameClass]:
        """The mechanisms' classes, each a subclass of the one before it, the core's first; the
        public ``Game`` subclasses the last."""
        found, base = [], "_CoreGame"
        for mechanism in self.used_mechanisms:
            part = mechanism.game_part(self.edition)
            if part is not None:
                rules = citation(mechanism.rules(self.edition))
                found.append(
                    GameClass(
                        name=mechanism.class_name,
                        base=base,
                        part=part,
                        french=mechanism.french,
                        rules=rules,
                    )
                )
                base = mechanism.class_name
        return found

    @property
    def game_base(self) -> str:
        """The class the public ``Game`` subclasses: the last mechanism's, else the core's."""
        classes = self.game_classes
        return classes[-1].name if classes else "_CoreGame"

    @property
    def mechanism_exports(self) -> list[str]:
        """The public names the mechanisms' parts define, as literals for `__all__`."""
        return [
            repr(name) for mechanism in self.used_mechanisms for name in mechanism.exports_for(self.edition)
        ]

    def _terms(self, name: str) -> list[str]:
        return [
            term
            for mechanism in self.used_mechanisms
            if (term := mechanism.expressions(self.edition).get(name))
        ]

    def has_expression(self, name: str) -> bool:
        """Whether a mechanism adds to the expression `name` (else the engine keeps its own code)."""
        return bool(self._terms(name))

    def expression(self, name: str) -> str:
        """An engine expression with the terms the mechanisms add to it (a zero core value dropped),
        or the one a mechanism replaces it with."""
        for mechanism in self.used_mechanisms:
            replaced = mechanism.replacements(self.edition).get(name)
            if replaced:
                return replaced
        core = EXPRESSIONS[name]
        terms = self._terms(name)
        joined = "" if terms and core == "0" else core
        for term in terms:
            # A term written `-(…)` is taken away: `length - (…)`, not `length + -(…)`.
            if joined and term.startswith("-"):
                joined += f" - {term[1:]}"
            else:
                joined += f" + {term}" if joined else term
        return joined

    @property
    def spared_buckets(self) -> str:
        """The colours (LOCOMOTIVE for gray) of the routes whose claim takes fewer trains while
        the ``spares_trains`` condition holds (`Mechanism.spared_trains`), as the engine's
        expressions, joined; "" where none does."""
        colors = sorted(
            {route.color for route in self.edition.board.routes if spared_trains(self.edition, route)}
        )
        return ", ".join("LOCOMOTIVE" if color == "gray" else f"COLORS.index({color!r})" for color in colors)

    def condition(self, name: str) -> str:
        """An engine condition (`CONDITIONS`): the mechanisms' terms, each in parentheses, joined
        by ``and``; "" when none adds one (the engine then prints no test of it)."""
        assert name in CONDITIONS, name
        terms = [
            t for mechanism in self.used_mechanisms if (t := mechanism.conditions(self.edition).get(name))
        ]
        return " and ".join(f"({term})" for term in terms)

    def needs(self, helper: str) -> bool:
        """Whether a mechanism's parts call one of the core's optional helpers (`payments`…)."""
        return any(helper in mechanism.engine_helpers(self.edition) for mechanism in self.used_mechanisms)

    @property
    def phases_literal(self) -> str:
        """`PHASES`: every phase a game of this edition may be in, in play order, `over` last."""
        phases = ["setup_tickets", "turn", "second_card", "keep_tickets"]
        phases += [phase for m in self.used_mechanisms for phase in m.phases(self.edition)]
        phases += ["owed_cards"] * self.owes_cards + ["over"]
        return repr(tuple(phases))

    @property
    def side_size(self) -> int:
        """`SIDE_SIZE`: how many players play as one side (a team's size, else 1)."""
        return side_size(self.edition)

    @property
    def score_lines(self) -> list[str]:
        """`SCORE_LINES`: the parts of a player's total, the core's (routes, tickets, bonuses) then
        the mechanisms', as `ScoreLine` records."""
        lines = [
            ScoreLine(label="routes", path=("route_points",)),
            ScoreLine(label="tickets réussis", path=("tickets_completed",), reads="each"),
            ScoreLine(label="tickets manqués", path=("tickets_failed",), reads="each", sign=-1),
        ]
        lines += [ScoreLine(label=row.title, path=("bonuses", row.id)) for row in bonus_rows(self.edition)]
        lines += [line for m in self.used_mechanisms for line in m.score_lines(self.edition)]
        return [repr(line.record()) for line in lines]

    @property
    def claim_extras(self) -> list[str]:
        """`CLAIM_EXTRAS`: the trains a claim of a route sets aside besides its spaces and the points
        it scores besides the route's own, for the routes with either, in board order."""
        found = []
        for route in self.edition.board.routes:
            trains, points = set_aside(self.edition, route), claim_points(self.edition, route)
            if trains or points:
                found.append(f"{route.id!r}: ({trains}, {points})")
        return found

    @property
    def route_notes(self) -> list[str]:
        """`ROUTE_NOTES`: what a claim of a route costs or gains besides its cards, for the routes
        that have any, as `route id: (French, …)` literals in board order."""
        found = []
        for route in self.edition.board.routes:
            notes = tuple(note for m in self.used_mechanisms for note in m.claim_notes(self.edition, route))
            if notes:
                found.append(f"{route.id!r}: {notes!r}")
        return found

    @property
    def action_words_literal(self) -> str:
        """`ACTION_WORDS`: the log's sentences of the mechanisms' actions, what they add to the core's
        (by action type, in the registry's order), the cards of their own a payment may lay and the
        train cards it may lay from elsewhere than the hand (`payment_from`, only where some may)."""
        sentences, clauses, payment, sources = {}, {}, [], []
        for m in self.used_mechanisms:
            sentences.update({kind: said.record() for kind, said in m.action_sentences(self.edition).items()})
            for kind, added in m.action_clauses(self.edition).items():
                clauses.setdefault(kind, []).extend(clause.record() for clause in added)
            payment += [list(words) for words in m.payment_words(self.edition)]
            sources += [list(words) for words in m.payment_sources(self.edition)]
        words = {"sentences": sentences, "clauses": clauses, "payment": payment}
        return repr(words | {"payment_from": sources} if sources else words)

    @property
    def state_fields(self) -> list[str]:
        """`STATE_FIELDS`: the mechanisms' declared state fields, one literal each, in the registry's order."""
        return [repr(field.record()) for m in self.used_mechanisms for field in m.state_fields(self.edition)]

    @property
    def attributes(self) -> list[Attribute]:
        """The mechanisms' working attributes of the game (`Mechanism.attributes`), in the registry's order."""
        return [attribute for m in self.used_mechanisms for attribute in m.attributes(self.edition)]

    @property
    def kept(self) -> KeptState:
        """The state fields the core keeps for the mechanisms (`derived`): their bookkeeping's lines."""
        return KeptState.of([field for m in self.used_mechanisms for field in m.state_fields(self.edition)])

    @property
    def action_handlers(self) -> list[tuple[str, str, str, str]]:
        """The mechanisms' entries of `_HANDLERS`: each kind's literal, the method playing it (an
        identifier), and its fields' literals."""
        found = []
        for mechanism in self.used_mechanisms:
            for kind, (method, needed, allowed) in mechanism.action_handlers(self.edition).items():
                if not method.isidentifier():
                    raise ValueError(f"a handler is a method's name, not {method!r}")
                found.append((repr(kind), method, repr(tuple(needed)), repr(tuple(allowed))))
        return found

    @property
    def leaves_claim_choices(self) -> bool:
        """Whether a claim may leave a choice to make before its turn ends (`_claim_choice`)."""
        return any(mechanism.leaves_claim_choices for mechanism in self.used_mechanisms)

    @property
    def owes_cards(self) -> bool:
        """Whether a claim may owe cards of any colour, given one by one after it (`pay_card`)."""
        return any(mechanism.owes_cards(self.edition) for mechanism in self.used_mechanisms)

    @property
    def name_literal(self) -> str:
        return repr(self.edition.name)

    @property
    def sources_docstring(self) -> str:
        return ", ".join(cite_name(source) for source in self.sources)

    @property
    def title_literal(self) -> str:
        return repr(f"{self.edition.game} — {self.edition.title}")

    @property
    def players_literal(self) -> str:
        return repr((self.edition.players.min, self.edition.players.max))

    @property
    def colors_literal(self) -> str:
        return repr(tuple(card.color.value for card in self.edition.cards))

    @property
    def locomotive_index(self) -> int:
        """The joker's index (a locomotive, or Switzerland's tunnel card): always the last colour."""
        return [card.color for card in self.edition.cards].index(self.edition.joker)

    @property
    def joker_literal(self) -> str:
        """The joker's card name, as written in payments (« locomotive », « tunnel »)."""
        return repr(self.edition.joker.value)

    @property
    def joker_reach(self) -> str:
        """How many jokers a bucket of routes may use at most (the enumeration's upper bound)."""
        return "hand[LOCOMOTIVE]" if self.joker_restricted else "locomotives"

    @property
    def joker_tunnels_only(self) -> bool:
        return joker_kinds(self.edition) == ("tunnels",)

    @property
    def joker_restricted(self) -> bool:
        """Whether the joker pays some kinds of route only (tunnels; tunnels and ferries)."""
        return bool(joker_kinds(self.edition))

    @property
    def joker_route_test(self) -> str:
        """Whether the joker pays `route`, as an expression of the engine."""
        return "_ROUTE_TUNNEL[route]" if self.joker_tunnels_only else "_JOKER_PAYS[route]"

    @property
    def joker_scope(self) -> str:
        """The kinds of route the joker pays, in English for comments: « tunnels only »."""
        return " and ".join(joker_kinds(self.edition)) + " only"

    @property
    def joker_refusal(self) -> str:
        """The code of a joker laid on a route it does not pay."""
        return joker_refusal(joker_kinds(self.edition))

    @property
    def deck_literal(self) -> str:
        return repr(tuple(card.count for card in self.edition.cards))

    @property
    def trains(self) -> int:
        return self.edition.trains

    @property
    def setup(self):
        return self.edition.setup

    @property
    def draw_cards(self):
        return self.edition.turn.draw_cards

    @property
    def claim_route(self):
        return self.edition.turn.claim_route

    @property
    def draw_tickets(self):
        return self.edition.turn.draw_tickets

    @property
    def end(self):
        return self.edition.end

    @property
    def keep_at_most(self) -> bool:
        """Whether a ticket choice has a maximum below the number of tickets offered."""
        draw = self.edition.turn.draw_tickets
        return self.edition.setup.tickets_keep_at_most is not None or (
            draw is not None and draw.keep_at_most is not None
        )

    @property
    def setup_keep_at_most(self) -> str:
        s = self.edition.setup
        most = s.tickets_keep_at_most
        return (
            str(most)
            if most is not None
            else "SETUP_TICKETS + SETUP_LONG_TICKETS"
            if s.long_tickets_dealt
            else "SETUP_TICKETS"
        )

    @property
    def draw_keep_at_most(self) -> str:
        draw = self.edition.turn.draw_tickets
        return str(draw.keep_at_most) if draw and draw.keep_at_most is not None else "TICKETS_PER_DRAW"

    @property
    def market_reset(self) -> bool:
        """Whether face-up jokers ever send the market to the discard."""
        return self.edition.setup.market_locomotive_reset is not None

    @property
    def face_up_locomotive_whole_turn(self) -> bool:
        return self.edition.turn.face_up_locomotive_ends_draw

    @property
    def route_points_literal(self) -> str:
        return repr(dict(self.edition.route_points))

    @property
    def _double_rule_fields(self) -> tuple:
        return tuple(field for m in self.used_mechanisms for field in m.double_rule_fields(self.edition))

    @property
    def double_rules_literal(self) -> str:
        rules = tuple(
            (rule.players.min, rule.players.max, rule.twin is TwinPolicy.CLOSED)
            + tuple(value(rule) for _, value in self._double_rule_fields)
            for rule in self.edition.double_rules
        )
        return repr(rules)

    @property
    def double_rules_comment(self) -> list[str]:
        """The comment above ``DOUBLE_ROUTE_RULES``: what each field of a rule says."""
        meanings = ["lowest player count", "highest", "whether taking one track closes its twin"]
        meanings += [meaning for meaning, _ in self._double_rule_fields]
        return textwrap.wrap(
            f"({', '.join(meanings)})", width=92, initial_indent="# ", subsequent_indent="# "
        )

    @property
    def double_rule_names(self) -> str:
        """The names that unpack a rule of ``DOUBLE_ROUTE_RULES`` (the mechanisms' fields unused)."""
        return ", ".join(["low", "high", "closes"] + ["_"] * len(self._double_rule_fields))

    def optional_fields(self, action: str, *core: str) -> str:
        """The optional fields of a core action, the mechanisms' after the core's, as a literal tuple."""
        fields = list(core) + [
            f for m in self.used_mechanisms for f in m.action_fields(self.edition).get(action, ())
        ]
        return "(" + ", ".join(f'"{field}"' for field in fields) + ("," if len(fields) == 1 else "") + ")"

    @property
    def bonuses_literal(self) -> str:
        return repr({row.id: (row.measure, row.points) for row in bonus_rows(self.edition)})

    @property
    def routes(self) -> list[str]:
        siblings: dict[str, list[str]] = {}
        for tracks in self.edition.board.track_groups():
            for track in tracks:
                siblings[track.id] = [other.id for other in tracks if other is not track]
        # The route properties the edition's rules give a meaning to (mountain marks…).
        exported = dict.fromkeys(
            name for m in self.used_mechanisms for name in m.properties_used(self.edition)
        )
        records = []
        for route in self.edition.board.routes:
            record = {"a": route.a, "b": route.b, "length": route.length, "color": route.color}
            # "twin" is the other track of a double route; a triple route's tracks also list "siblings".
            record["twin"] = siblings[route.id][0] if route.id in siblings else None
            if self.triple_routes:
                record["siblings"] = siblings.get(route.id, [])
            for mechanism in self.used_mechanisms:
                record.update(mechanism.route_record(self.edition, route))
            if self.ferries:  # the board's marks, read by the joker and the card sets too
                record["ferry"] = route.ferry
            if self.countries:
                record["endpoint"] = route.endpoint
            for name in exported:
                record[name] = self.edition.route_property(route, name)
            records.append(f"{route.id!r}: {record!r}")
        return records

    @property
    def triple_routes(self) -> bool:
        return self.edition.board.has_triple_routes

    @property
    def countries(self) -> bool:
        return bool(self.edition.board.countries)

    @property
    def tickets(self) -> list[str]:
        records = []
        for ticket in self.edition.tickets.tickets:
            if ticket.targets:
                record = {"a": ticket.a, "targets": {t.place: t.points for t in ticket.targets}}
            else:
                record = {"a": ticket.a, "b": ticket.b, "points": ticket.points}
            if self.ticket_kinds:
                record["kind"] = ticket.kind
            records.append(f"{ticket.id!r}: {record!r}")
        return records

    @property
    def ticket_kinds(self) -> bool:
        """Whether each record of ``TICKETS`` says its ``kind``."""
        return self.long_tickets or self.target_tickets or self.needs("ticket_kinds")

    @property
    def types(self) -> ApiTypesView:
        """The types of the engine's API (its records and actions as TypedDicts)."""
        return api_types(self.edition, self)

    @property
    def mechanisms(self) -> set[str]:
        used = set()
        if self.keep_among_regular:
            used.add("keep_among_regular")
        if self.face_up_locomotive_whole_turn:
            used.add("face_up_locomotive_whole_turn")
        if self.keep_at_most:
            used.add("keep_at_most")
        if self.triple_routes:
            used.add("triple_routes")
        if self.owes_cards:
            used.add("owed_cards")
        return used

    @property
    def card_forms_literal(self) -> str:
        forms = card_forms()
        return repr({card.color.value: forms[card.color.value] for card in self.edition.cards})

    @property
    def messages(self) -> list[str]:
        own = {code: text for m in self.used_mechanisms for code, text in m.messages(self.edition).items()}
        messages = engine_messages(self.mechanisms, self.edition.joker.value, own)
        return [f"{code!r}: {text!r}" for code, text in messages.items()]

    @property
    def ferries(self) -> bool:
        return any(route.ferry for route in self.edition.board.routes)

    @property
    def shared_payment(self) -> bool:
        """Whether payments split between the hand and shared cards (see `Mechanism.pays_from_shared`)."""
        return any(mechanism.pays_from_shared(self.edition) for mechanism in self.used_mechanisms)

    @property
    def long_tickets(self) -> bool:
        return self.edition.setup.long_tickets_dealt > 0

    @property
    def target_tickets(self) -> bool:
        """Whether some ticket scores the best of several targets."""
        return any(ticket.targets for ticket in self.edition.tickets.tickets)

    @property
    def keep_among_regular(self) -> bool:
        return self.edition.setup.keep_among_regular

    @property
    def ticket_returns(self) -> TicketReturns:
        return TicketReturns.of(self.edition)

    @property
    def long_rejected_literal(self) -> str:
        return repr(self.edition.setup.long_tickets_rejected.value)

    @property
    def joker_citation(self) -> str:
        return citation(joker_rules(self.edition))

    @property
    def french_colors_literal(self) -> str:
        return repr({card.color.value: COLOR_NAMES[card.color.value] for card in self.edition.cards})

    @property
    def setup_rejected_literal(self) -> str:
        return repr(self.edition.setup.tickets_rejected.value)

    @property
    def draw_rejected_literal(self) -> str:
        draw = self.edition.turn.draw_tickets
        return repr(draw.rejected.value if draw else self.edition.setup.tickets_rejected.value)

    @property
    def tiebreak_keys(self) -> list[str]:
        criteria = tiebreaks(self.edition)
        return [criteria[rule.name][0] for rule in self.edition.tiebreakers]

    # Citations of the spec lines each rule function implements.
    @property
    def setup_citation(self) -> str:
        return cite(self.edition.setup.span)

    @property
    def market_citation(self) -> str:
        return cite(self.edition.setup.span)

    @property
    def draw_cards_citation(self) -> str:
        return cite(self.draw_cards.span if self.draw_cards else None)

    @property
    def claim_route_citation(self) -> str:
        return cite(self.claim_route.span if self.claim_route else None)

    @property
    def draw_tickets_citation(self) -> str:
        return cite(self.draw_tickets.span if self.draw_tickets else None)

    @property
    def route_points_citation(self) -> str:
        return cite(self.edition.route_points_span)

    @property
    def double_rules_citation(self) -> str:
        return ", ".join(cite(rule.span) for rule in self.edition.double_rules)

    @property
    def end_citation(self) -> str:
        return cite(self.edition.end.span)

    @property
    def scoring_citation(self) -> str:
        return ", ".join(cite(row.span) for row in bonus_rows(self.edition)) or "tickets only"

    @property
    def tiebreak_citation(self) -> str:
        return ", ".join(cite(rule.span) for rule in self.edition.tiebreakers) or "total only"


def ruff_format(source: str) -> str:
    """Format generated code with the pinned ruff; deterministic for one version."""
    from ruff.__main__ import find_ruff_bin

    result = subprocess.run(
        [
            find_ruff_bin(),
            "format",
            "--isolated",
            "--line-length",
            "110",
            "--stdin-filename",
            "engine.py",
            "-",
        ],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"ruff could not format the generated engine:\n{result.stderr}")
    return result.stdout


def emit_engine(edition: Edition, sources: tuple[str, ...]) -> str:
    view = EngineView(edition=edition, sources=sources)
    return ruff_format(environment().get_template("engine.py.j2").render(view=view))
