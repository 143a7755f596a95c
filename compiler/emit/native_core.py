"""The native engine of an edition: a Cython module (`engine_core.pyx`) emitted from the same
IR as the engine, played in C arrays.

The native engine plays the same games as `engine.py` (the canonical order of
`legal_actions()`, counted rather than listed; the same shuffles). It covers the core game
and the mechanisms that say so (`Mechanism.plays_natively`): ferries, what the joker pays
and trains set aside change a route's *shape*, by which claims are counted; tunnels, stations
and the others bring their own part (`native/game.pyx.j2` in their folders: a child of the
template below it, overriding the core template's blocks, `NATIVE_BLOCKS`), with their kinds
of action and phases. The parts are stacked at compile time, in the registry's order, into one
final Cython class, so that its methods stay inlined (`native_template`). An edition using a mechanism it does not play
yet (claim effects owing cards; team play with tunnels) has none, and `unsupported` says why, in French, so that a build
never falls back in silence. Mechanisms that only deal or score (`native_scoring` False)
leave both to the pure engine's code, run on the native state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ..french import enumerate_fr
from ..ir import Edition, Route
from ..mechanisms import (
    EnginePart,
    bonus_rows,
    claim_points,
    joker_pays_route,
    least_jokers,
    set_aside,
    spared_trains,
    used_by,
)
from ..mechanisms.base import CONDITIONS, NATIVE_CLASS
from ..mechanisms.state import Scope, Shape
from .engine import EngineView, environment
from .native_kept import NativeKept

if TYPE_CHECKING:
    import jinja2

# The template of an edition's native engine is named after the mechanisms whose parts it stacks:
# `native-stack:teams,tunnels` is tunnels' part extending `native-stack:teams`, which extends the
# core's template.
STACK = "native-stack:"
CORE_TEMPLATE = "native/core.pyx.j2"
_BLOCK_TAG = re.compile(r"(\{%-?\s*block\s+\w+\s*-?%\})")


@dataclass(frozen=True, slots=True, kw_only=True)
class CoreView:
    engine: EngineView

    @property
    def edition(self) -> Edition:
        return self.engine.edition

    def unsupported(self) -> str | None:
        """Why this edition's playout is not native yet, in French, or None."""
        e, view = self.edition, self.engine
        playing = [m.native_gap(e) for m in used_by(e) if not m.plays_natively(e)]
        if playing:
            return f"il ne joue pas encore {enumerate_fr(playing)}"
        if not (e.turn.draw_cards and e.turn.claim_route):
            return "un tour sans pioche de cartes ou sans prise de route n’est pas encore natif"
        if view.keep_at_most:
            return "un nombre de tickets gardés plafonné n’est pas encore natif"
        if any(route.length >= 64 for route in e.board.routes):
            return "une route de 64 cases ou plus n’est pas native"
        return None

    @property
    def option_phases(self) -> list[tuple[str, str]]:
        """The mechanisms' phases the core plays from their options: each phase's C constant and
        the method listing its options (`Mechanism.native_phase_options`)."""
        found = []
        for m in used_by(self.edition):
            for name, (options, _) in m.native_phase_options(self.edition).items():
                found.append((m.native_phases[name], options))
        return found

    @property
    def more_claims(self) -> list[tuple[str, str]]:
        """The mechanisms' claims listed after the core's (`Mechanism.native_more_claims`), in
        the registry's order."""
        return [found for m in used_by(self.edition) if (found := m.native_more_claims(self.edition))]

    @property
    def turn_actions(self) -> list[tuple[str, str, str | None]]:
        """The mechanisms' kinds of action in a turn the core counts, finds, lists and plays
        (`Mechanism.native_turn_actions`), in the registry's order."""
        return [found for m in used_by(self.edition) if (found := m.native_turn_actions(self.edition))]

    @property
    def phase_ids_room(self) -> str:
        """Room for the options of any of those phases (their rooms added)."""
        return " + ".join(
            f"({room})"
            for m in used_by(self.edition)
            for _, room in m.native_phase_options(self.edition).values()
        )

    @property
    def setup_phase(self) -> str:
        """The native phase each player's choice of tickets at set-up begins in: the core's
        choice itself, or the phase a mechanism puts before it (`Mechanism.setup_choice_phase`)."""
        found = [m for m in used_by(self.edition) if m.setup_choice_phase]
        if len(found) > 1:
            raise ValueError(f"set-up choices begun by {[m.name for m in found]}, one mechanism at most")
        phase = found[0].setup_choice_phase if found else None
        return found[0].native_phases[phase] if phase else "SETUP_TICKETS"

    @property
    def kept(self) -> NativeKept:
        """The state fields the core keeps for the mechanisms (`derived`), in C."""
        # A pending record's, piles', grids' and choices' native forms are their mechanism's own
        # (a tunnel's claim in C fields, a deck of ticket indices, tokens by place and kind),
        # and so are those of fields under a key's paths, a team's and those kept by index (a
        # team's holder): its native part loads and writes them.
        own = (Shape.PENDING, Shape.PILES, Shape.GRID, Shape.CHOICES)
        return NativeKept.of(
            tuple(
                f
                for f in self.engine.kept.fields
                if f.shape not in own and not f.path and not f.indexed and f.scope is not Scope.TEAM
            )
        )

    @property
    def native_scoring(self) -> bool:
        """Whether the native game deals and scores itself: no mechanism adds to the core's
        set-up or scoring (else the pure engine's code does both, on the same state)."""
        return all(m.scores_natively(self.edition) for m in used_by(self.edition))

    def policy(self, literal: str) -> int:
        """Where given-back tickets go, as the core numbers it."""
        return {"'under_chosen_order'": 0, "'shuffled_under'": 1, "'out_of_game'": 2}[literal]

    @property
    def offered_most(self) -> int:
        s, draw = self.edition.setup, self.edition.turn.draw_tickets
        return max(s.tickets_dealt + s.long_tickets_dealt, draw.draw if draw else 0, 1)

    @property
    def keep_bits(self) -> int:
        """The bits of a ticket choice in the native engine: the positions kept among those
        offered, and the masks the mechanisms add (`native_keep_marks`)."""
        marks = sum(mechanism.native_keep_marks for mechanism in used_by(self.edition))
        return self.offered_most * (1 + marks)

    def condition(self, name: str) -> str:
        """An engine condition (`CONDITIONS`) in C: the mechanisms' native terms joined by ``and``;
        "" when none adds one."""
        assert name in CONDITIONS, name
        terms = [t for m in used_by(self.edition) if (t := m.native_conditions(self.edition).get(name))]
        return " and ".join(f"({term})" for term in terms)

    @property
    def native_parts(self) -> list[EnginePart]:
        """The native parts of the mechanisms this edition uses, in the registry's order."""
        return [part for m in used_by(self.edition) if (part := m.native_part(self.edition))]

    def overrides(self, block: str) -> bool:
        """Whether a mechanism's native part overrides the core template's ``block``."""
        return any(block in template_blocks(part.template) for part in self.native_parts)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of action the mechanisms' native parts add."""
        owed = ("KIND_PAY_CARD",) if self.engine.owes_cards else ()
        return owed + tuple(kind for mechanism in used_by(self.edition) for kind in mechanism.native_kinds)

    @property
    def phases(self) -> dict[str, str]:
        """The phases the mechanisms' native parts add, by the pure engine's name."""
        owed = {"owed_cards": "OWED"} if self.engine.owes_cards else {}
        return owed | {name: phase for m in used_by(self.edition) for name, phase in m.native_phases.items()}

    @property
    def route_shapes(self) -> tuple[tuple[int, ...], ...]:
        """Each route's shape: its length, the jokers a claim lays at least (a ferry's
        locomotives), whether the joker pays it (1) or not (0), the trains its claim sets aside
        besides its length and, where some claim spares trains (`spares`), the trains it
        spares while the ``spares_trains`` condition holds. Open routes of one colour and shape
        have the same claims, so the native engine counts them by shape."""
        e = self.edition
        spared = (tuple(spared_trains(e, route) for route in e.board.routes),) if self.spares else ()
        marks = (tuple(self._mark(route) for route in e.board.routes),) if self.shape_marks else ()
        return tuple(
            zip(
                (route.length for route in e.board.routes),
                (least_jokers(e, route) for route in e.board.routes),
                (int(joker_pays_route(e, route)) for route in e.board.routes),
                (set_aside(e, route) for route in e.board.routes),
                *spared,
                *marks,
                strict=True,
            )
        )

    @property
    def set_aside(self) -> bool:
        """Whether some claim takes more trains than its route's length."""
        return any(shape[3] for shape in self.shapes)

    @property
    def spares(self) -> bool:
        """Whether some claim takes fewer trains than its route's length at times (a public
        route built with a piece of a shared supply): the trains a claim takes are then read
        from the game's state (`Game.shape_trains`), and a bucket's reach is not capped by the
        trains left where one of its routes is spared (`BUCKET_SPARES`)."""
        return any(spared_trains(self.edition, route) for route in self.edition.board.routes)

    def _mark(self, route: Route) -> int:
        marking = [m for m in used_by(self.edition) if m.shape_mark(self.edition, route)]
        if len(marking) > 1:
            raise ValueError(
                f"route {route.id!r}: marked by {[m.name for m in marking]}, one mechanism at most"
            )
        return marking[0].shape_mark(self.edition, route) if marking else 0

    @property
    def shape_marks(self) -> bool:
        """Whether a mechanism lists the claims of some routes otherwise than others of their
        length and payment (`Mechanism.shape_mark`): the shapes then count the mark."""
        return any(
            m.shape_mark(self.edition, route)
            for m in used_by(self.edition)
            for route in self.edition.board.routes
        )

    @property
    def trains_vary(self) -> bool:
        """Whether a claim may take other than its route's length in trains: then each shape's
        claims are checked against the trains left."""
        return self.set_aside or self.spares

    @property
    def claim_points(self) -> tuple[int, ...] | None:
        """The points each route's claim scores besides its own, or None where none does."""
        points = tuple(claim_points(self.edition, route) for route in self.edition.board.routes)
        return points if any(points) else None

    @property
    def shapes(self) -> tuple[tuple[int, ...], ...]:
        """The routes' shapes, in increasing order (of length first)."""
        return tuple(sorted(set(self.route_shapes)))

    @property
    def shape_of_route(self) -> tuple[int, ...]:
        numbers = {shape: number for number, shape in enumerate(self.shapes)}
        return tuple(numbers[shape] for shape in self.route_shapes)

    @property
    def bonus_room(self) -> int:
        """Room for the edition's bonuses in C arrays (one at least: C has no empty array)."""
        return max(1, len(bonus_rows(self.edition)))

    @property
    def city_count(self) -> int:
        # A route to a country ends at its own border arrow, as the engine's `_ROUTE_ENDS` has it.
        ends = {
            end
            for route in self.edition.board.routes
            for end in (route.a, route.b if route.endpoint is None else f"{route.endpoint}@{route.id}")
        }
        # A ticket to targets (countries) has no second city, and no rollout aims at it; its
        # places are nodes all the same, for the scoring.
        ends |= {end for ticket in self.edition.tickets.tickets if ticket.b for end in (ticket.a, ticket.b)}
        ends |= {
            end
            for ticket in self.edition.tickets.tickets
            if ticket.targets
            for end in (ticket.a, *(target.place for target in ticket.targets))
        }
        return len(ends)

    @property
    def has_arrows(self) -> bool:
        """Whether some route ends at a border arrow (a country's), a node of its own."""
        return any(route.endpoint for route in self.edition.board.routes)

    @property
    def place_nodes_most(self) -> int:
        """The most nodes one place stands for: itself and, for a country, its arrows."""
        arrows: dict[str, int] = {}
        for route in self.edition.board.routes:
            if route.endpoint:
                arrows[route.b] = arrows.get(route.b, 0) + 1
        return 1 + max(arrows.values(), default=0)

    @property
    def longest(self) -> int:
        return max(route.length for route in self.edition.board.routes)

    @property
    def players_most(self) -> int:
        return self.edition.players.max

    @property
    def color_count(self) -> int:
        return len(self.edition.cards)

    @property
    def card_count(self) -> int:
        return sum(card.count for card in self.edition.cards)

    @property
    def route_count(self) -> int:
        return len(self.edition.board.routes)

    @property
    def ticket_count(self) -> int:
        return len(self.edition.tickets.tickets)


def unsupported(edition: Edition) -> str | None:
    """Why an edition has no native playout yet, in French, or None when it has one."""
    return CoreView(engine=EngineView(edition=edition, sources=())).unsupported()


def emit_core(edition: Edition, sources: tuple[str, ...]) -> str | None:
    """The Cython source of an edition's native playout, or None where the core does not cover
    its rules (`unsupported` says why)."""
    core = CoreView(engine=EngineView(edition=edition, sources=sources))
    if core.unsupported() is not None:
        return None
    parts = core.native_parts
    name = STACK + ",".join(_owner(part) for part in parts) if parts else CORE_TEMPLATE
    views = {_owner(part): part.view for part in parts}
    return native_environment().get_template(name).render(view=core.engine, core=core, native_views=views)


def _owner(part: EnginePart) -> str:
    """The folder of the mechanism whose native part it is."""
    folder = part.template.split("/", 1)[0]
    assert part.template == _part_template(folder), part.template
    return folder


@cache
def native_environment() -> jinja2.Environment:
    """The house template settings, with the stacks of mechanisms' native parts (`STACK`)."""
    import jinja2

    files = environment().loader
    assert files is not None
    return environment().overlay(loader=jinja2.ChoiceLoader([jinja2.FunctionLoader(_stacked), files]))


def _stacked(name: str) -> tuple[str, str | None, Any] | None:
    """The source of a stack of native parts: its last part's text, extending the stack below
    it, each of its blocks seeing that part's view as ``m``."""
    if not name.startswith(STACK):
        return None
    owners = name.removeprefix(STACK).split(",")
    below = STACK + ",".join(owners[:-1]) if owners[:-1] else CORE_TEMPLATE
    files = environment().loader
    assert files is not None
    text, filename, uptodate = files.get_source(environment(), _part_template(owners[-1]))
    # The `extends` tag on the first line keeps the part's line numbers in the template's errors;
    # the part is as fresh as its file (the stack below is checked when it is loaded).
    view = "{% set m = native_views[" + repr(owners[-1]) + "] %}"
    return (
        "{% extends " + repr(below) + " %}" + _BLOCK_TAG.sub(lambda found: found[1] + view, text),
        filename,
        uptodate,
    )


def _part_template(folder: str) -> str:
    return f"{folder}/native/{NATIVE_CLASS}.pyx.j2"


@cache
def template_blocks(template: str) -> tuple[str, ...]:
    """The blocks a template defines, in its order: the core's (`CORE_TEMPLATE`), or those a
    mechanism's native part overrides."""
    import jinja2

    files = environment().loader
    assert files is not None
    text, _, _ = files.get_source(environment(), template)
    return tuple(block.name for block in environment().parse(text).find_all(jinja2.nodes.Block))
