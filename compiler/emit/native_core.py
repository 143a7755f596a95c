"""The native playout core of an edition: a Cython module (`engine_core.pyx`) emitted from the
same IR as the engine, played in C arrays.

The core plays `Game.playout` exactly: the same moves in the same order (the canonical order
of `legal_actions()`, counted rather than listed), the same shuffles. It covers the rules of
the core game; an edition whose rules a mechanism changes during play (stations, tunnels,
ferries, team play, what the joker pays…) is not native yet, and `unsupported` says why, in
French, so that a build never falls back in silence. Mechanisms that only score at the end
(bonus cards, countries, tickets with targets, score tables, a starting score) change nothing
in a playout (each says so: `Mechanism.native`): the game's `scores()` counts them once it
is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..french import enumerate_fr
from ..ir import Edition
from ..mechanisms import used_by
from .engine import EngineView, environment


@dataclass(frozen=True, slots=True, kw_only=True)
class CoreView:
    engine: EngineView

    @property
    def edition(self) -> Edition:
        return self.engine.edition

    def unsupported(self) -> str | None:
        """Why this edition's playout is not native yet, in French, or None."""
        e, view = self.edition, self.engine
        playing = [m.french for m in used_by(e) if not m.native]
        if playing:
            return f"{enumerate_fr(playing)} n’y sont pas encore joués"
        if not (e.turn.draw_cards and e.turn.claim_route):
            return "un tour sans pioche de cartes ou sans prise de route n’est pas encore natif"
        if view.keep_at_most or view.keep_among_regular:
            return (
                "un nombre de tickets gardés plafonné ou compté parmi les ordinaires n’est pas encore natif"
            )
        if any(route.length >= 64 for route in e.board.routes):
            return "une route de 64 cases ou plus n’est pas native"
        return None

    @property
    def native_scoring(self) -> bool:
        """Whether the native game deals and scores itself: no mechanism adds to the core's
        set-up or scoring (else the pure engine's code does both, on the same state)."""
        return all(m.native_scoring for m in used_by(self.edition))

    def policy(self, literal: str) -> int:
        """Where given-back tickets go, as the core numbers it."""
        return {"'under_chosen_order'": 0, "'shuffled_under'": 1, "'out_of_game'": 2}[literal]

    @property
    def offered_most(self) -> int:
        s, draw = self.edition.setup, self.edition.turn.draw_tickets
        return max(s.tickets_dealt + s.long_tickets_dealt, draw.draw if draw else 0, 1)

    @property
    def city_count(self) -> int:
        ends = {end for route in self.edition.board.routes for end in (route.a, route.b)}
        ends |= {end for ticket in self.edition.tickets.tickets for end in (ticket.a, ticket.b)}
        return len(ends)

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
    return environment().get_template("native/core.pyx.j2").render(view=core.engine, core=core)
