"""Team play's rule in the IR: the teams' size and what the players share, read by the
mechanism's engine parts and by its words (``wording``) alike."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...frontend.positions import Span
from ...ir import IR, Edition


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
    example_tickets: tuple[str, ...] = ()  # the tickets in the team's holder in the score example
    span: Span | None = field(default=None, compare=False)


def teams_of(edition: Edition) -> Teams | None:
    """The edition's team play, or None."""
    return next((rule for rule in edition.rules if isinstance(rule, Teams)), None)
