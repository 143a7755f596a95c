"""Where the tickets a player gives back go, folded at compile time.

An edition's spec fixes three policies (``setup { tickets_rejected }``, ``draw_tickets {
rejected }`` and, with long tickets, ``setup { long_rejected }``), so the engine's
``keep_tickets`` never needs to ask which one holds: it is written for the policies its spec
names, and a policy the spec cannot reach leaves no branch, list or message behind (issue 38,
§4). Each question the template asks gets a Python condition on ``phase`` that is ``True``,
``False`` or a comparison, so the template only prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Edition, TicketsRejected

ORDERED = TicketsRejected.UNDER_CHOSEN_ORDER
SHUFFLED = TicketsRejected.SHUFFLED_UNDER
OUT = TicketsRejected.OUT_OF_GAME

AT_SETUP = 'phase == "setup_tickets"'
AFTER_A_DRAW = 'phase != "setup_tickets"'

# Why a player may not choose the order of what they give back, by where it goes instead.
_WHY_NO_ORDER = {OUT: "ils quittent la partie", SHUFFLED: "ils sont mélangés sous la pioche"}

# Where a ticket given back goes, said in the engine's comments.
_WHERE = {
    ORDERED: "under the deck, in the order the player chooses",
    SHUFFLED: "shuffled under the deck once everyone has chosen",
    OUT: "out of the game",
}


def _when(at_setup: bool, after_a_draw: bool) -> str:
    """The condition on ``phase`` that holds exactly in the phases named."""
    if at_setup and after_a_draw:
        return "True"
    if at_setup:
        return AT_SETUP
    if after_a_draw:
        return AFTER_A_DRAW
    return "False"


@dataclass(frozen=True, slots=True)
class TicketReturns:
    setup: TicketsRejected
    draw: TicketsRejected
    long: TicketsRejected | None  # None where the edition deals no long ticket

    @classmethod
    def of(cls, edition: Edition) -> TicketReturns:
        draw = edition.turn.draw_tickets
        return cls(
            setup=edition.setup.tickets_rejected,
            draw=draw.rejected if draw else edition.setup.tickets_rejected,
            long=edition.setup.long_tickets_rejected if edition.setup.long_tickets_dealt > 0 else None,
        )

    def when(self, policy: str) -> str:
        """When a regular ticket given back goes by ``policy`` (a TicketsRejected value)."""
        wanted = TicketsRejected(policy)
        return _when(self.setup is wanted, self.draw is wanted)

    @property
    def can_order(self) -> str:
        """When the player may choose the order: a regular ticket or, at set-up, a long one
        goes under the deck in the order they choose."""
        return _when(self._orders_at_setup, self.draw is ORDERED)

    @property
    def order_refused(self) -> str:
        """When a ``return_order`` is refused: the phases where ``can_order`` does not hold."""
        return _when(not self._orders_at_setup, self.draw is not ORDERED)

    @property
    def _orders_at_setup(self) -> bool:
        return self.setup is ORDERED or self.long is ORDERED

    @property
    def why_no_order(self) -> str:
        """The refusal's reason as a Python expression, in the phases where ordering is refused."""
        reasons = {}
        if self.can_order in ("False", AT_SETUP):
            reasons[AFTER_A_DRAW] = _WHY_NO_ORDER[self.draw]
        if self.can_order in ("False", AFTER_A_DRAW):
            reasons[AT_SETUP] = _WHY_NO_ORDER[self.setup]
        if len(set(reasons.values())) == 1:
            return repr(next(iter(reasons.values())))
        return f"{reasons[AT_SETUP]!r} if {AT_SETUP} else {reasons[AFTER_A_DRAW]!r}"

    @property
    def long_given_back(self) -> bool:
        """Whether ``keep_tickets`` sorts out the long tickets given back at set-up: they go
        elsewhere than the regular ones, or somewhere at all."""
        return self.long is not None and (self.long is not OUT or self.setup is not OUT)

    def reaches(self, policy: str) -> bool:
        """Whether some ticket given back, regular or long, can go by ``policy``."""
        return self.when(policy) != "False" or self.long is TicketsRejected(policy)

    @property
    def any_back_in_deck(self) -> bool:
        """Whether some ticket given back returns to the deck (else ``keep_tickets`` need not
        even list what was given back)."""
        return OUT is not self.setup or OUT is not self.draw or self.long_given_back

    @property
    def long_policy(self) -> str:
        return "" if self.long is None else self.long.value

    @property
    def undealt_long_kept(self) -> bool:
        """Whether the long tickets nobody was dealt go back under the deck at set-up's end."""
        return self.long is not None and self.long is not OUT

    @property
    def shuffled_at_setup_end(self) -> bool:
        """Whether some ticket can wait to be shuffled under the deck once everyone has chosen."""
        return SHUFFLED in (self.setup, self.draw, self.long) or self.undealt_long_kept

    @property
    def comment(self) -> list[str]:
        """The comment's lines: where a ticket given back goes, by phase."""
        if self.setup is self.draw:
            return [f"Each ticket given back goes {_WHERE[self.setup]}."]
        return [
            f"A ticket given back at set-up goes {_WHERE[self.setup]};",
            f"after a draw, {_WHERE[self.draw]}.",
        ]

    @property
    def long_comment(self) -> str:
        return (
            f"A long ticket given back at set-up goes {_WHERE[self.long]} (`long_rejected`)."
            if self.long
            else ""
        )
