"""Stage 5: the typed intermediate representation of one edition.

Built from a merged, checked document by ``ir.build``. Every emitter
(engine, rule sheet, differences page) reads only this. Spans do not take part in equality so
that tests can build IR by hand and compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..frontend.positions import Span
from ..frontend.text import Text as Text  # every string a spec wrote, in any field

IR = dict(frozen=True, slots=True, kw_only=True)


class CardColor(Enum):
    """Train-card colours in the canonical order of every generated engine."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    ORANGE = "orange"
    BLACK = "black"
    WHITE = "white"
    PINK = "pink"
    LOCOMOTIVE = "locomotive"
    TUNNEL = "tunnel"  # Switzerland's joker: it pays tunnels only


GRAY = "gray"


class TicketsRejected(Enum):
    UNDER_CHOSEN_ORDER = "under_chosen_order"
    SHUFFLED_UNDER = "shuffled_under"
    OUT_OF_GAME = "out_of_game"


class FaceUpLocomotive(Enum):
    WHOLE_TURN = "whole_turn"
    NORMAL = "normal"


class TwinPolicy(Enum):
    CLOSED = "closed"
    OTHER_PLAYER = "other_player"
    OTHER_TEAM = "other_team"  # open to another team only: a team never holds both tracks


class Criterion(Enum):
    """The core's tie-break criteria; a mechanism's are named by a string (``fewest_stations``)."""

    COMPLETED_TICKETS = "completed_tickets"
    BONUS = "bonus"


@dataclass(**IR)
class Range:
    min: int
    max: int


@dataclass(**IR)
class CardCount:
    color: CardColor
    count: int


@dataclass(**IR)
class Route:
    id: str
    a: str
    b: str
    length: int
    color: str  # a CardColor value other than locomotive, or GRAY
    double_group: int | None = None
    tunnel: bool = False
    ferry: int = 0  # locomotives a ferry's payment needs at least; 0 when not a ferry
    endpoint: str | None = None  # a route to a country: ``b`` is the country, this its arrow (``France#2``)
    reveal: int | None = None  # a tunnel's own number of cards to turn over (else the edition's)
    # The value of each property the board declares, in declaration order (defaults included).
    properties: tuple[tuple[str, int | bool | str], ...] = ()
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Target:
    place: str
    points: int


@dataclass(**IR)
class Ticket:
    """A ticket: ``a`` to ``b`` for ``points``; or, with ``targets``, ``a`` to the best
    target reached (``b`` is empty and ``points`` the best target's)."""

    id: str
    a: str
    b: str
    points: int
    kind: str = "regular"
    deck: str | None = None
    targets: tuple[Target, ...] = ()
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Country:
    """A neighbouring country: routes reach it through its border arrows (``France#1``…)."""

    name: str
    arrows: int
    french: str | None = None  # its French name, when the board prints another
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class RouteProperty:
    """A property every route of a board has (mountain marks, a bridge): its default and French name."""

    name: str
    default: int | bool | str
    singular: str
    plural: str
    feminine: bool = True
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Place:
    """Where a city or a border arrow (``France#1``) lies on the map, in decimal degrees."""

    name: str
    latitude: float
    longitude: float
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Board:
    map: str
    cities: tuple[str, ...]
    routes: tuple[Route, ...]
    countries: tuple[Country, ...] = ()
    # Every city and arrow placed, cities first in spec order; empty when the spec places none.
    places: tuple[Place, ...] = ()
    stand_in: str | None = None  # why this board stands in for one that could not be sourced
    properties: tuple[RouteProperty, ...] = ()  # the route properties it declares
    span: Span | None = field(default=None, compare=False)

    def track_groups(self) -> tuple[tuple[Route, ...], ...]:
        """The tracks of each double (two) or triple (three) route, in board order."""
        groups: dict[int, list[Route]] = {}
        for route in self.routes:
            if route.double_group is not None:
                groups.setdefault(route.double_group, []).append(route)
        return tuple(tuple(tracks) for tracks in groups.values())

    @property
    def has_triple_routes(self) -> bool:
        return any(len(tracks) == 3 for tracks in self.track_groups())


@dataclass(**IR)
class TicketDeck:
    tickets: tuple[Ticket, ...]
    printed: int
    name: str | None = None  # what the sheet calls the deck, when it is a selection
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Setup:
    train_cards: int
    market_size: int
    market_locomotive_reset: int | None  # None: the market is never reset
    tickets_dealt: int
    tickets_keep_at_least: int
    tickets_rejected: TicketsRejected
    tickets_keep_at_most: int | None = None  # None: every ticket dealt may be kept
    long_tickets_dealt: int = 0
    long_tickets_rejected: TicketsRejected = TicketsRejected.OUT_OF_GAME
    # `keep_at_least` counts only the regular tickets dealt; a long one may be kept or given back.
    keep_among_regular: bool = False
    steps: tuple[str, ...] = ()  # the edition's own set-up steps, in French, first on the sheet
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class DrawCards:
    count: int
    face_up_locomotive: FaceUpLocomotive
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class ClaimRoute:
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class DrawTickets:
    draw: int
    keep_at_least: int
    rejected: TicketsRejected
    keep_at_most: int | None = None  # None: every ticket drawn may be kept
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Turn:
    draw_cards: DrawCards | None
    claim_route: ClaimRoute | None
    draw_tickets: DrawTickets | None

    @property
    def face_up_locomotive_ends_draw(self) -> bool:
        """Whether a face-up locomotive is a whole draw (and never a second card)."""
        draw = self.draw_cards
        return draw is not None and draw.face_up_locomotive is FaceUpLocomotive.WHOLE_TURN


@dataclass(**IR)
class DoubleRule:
    players: Range
    twin: TwinPolicy
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class End:
    trains_at_most: int
    final_round: str
    when_nobody_can_play: str
    trains_of_team: bool = False  # `trains_at_most` counts the trains of the player's whole team
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Tiebreaker:
    criterion: Criterion | str  # a string: a mechanism's criterion
    bonus: str | None = None
    span: Span | None = field(default=None, compare=False)

    @property
    def name(self) -> Criterion | str:
        """How the mechanisms' tie-breaks name it: a bonus card's step is « bonus ID »."""
        return (
            f"{Criterion.BONUS.value} {self.bonus}" if self.criterion is Criterion.BONUS else self.criterion
        )


@dataclass(**IR)
class Decision:
    """What an edition decided where its rules text is silent, in French for the sheet."""

    id: str
    text: str
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class ScoreExample:
    player: str
    players: int
    routes: tuple[str, ...]
    tickets: tuple[str, ...]
    opponent_routes: tuple[str, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(**IR)
class Edition:
    name: str
    extends: str | None
    game: str
    title: str
    rulebook: str | None
    players: Range
    duration: Range | None
    trains: int
    cards: tuple[CardCount, ...]
    board: Board
    tickets: TicketDeck
    setup: Setup
    turn: Turn
    route_points: tuple[tuple[int, int], ...]
    double_rules: tuple[DoubleRule, ...]
    end: End
    tiebreakers: tuple[Tiebreaker, ...]
    score_example: ScoreExample | None
    decisions: tuple[Decision, ...] = ()
    joker: CardColor = CardColor.LOCOMOTIVE  # the card that stands in for a colour
    # The rules of the edition's mechanisms (`compiler.mechanisms`), in the registry's order.
    rules: tuple[object, ...] = ()
    span: Span | None = field(default=None, compare=False)
    route_points_span: Span | None = field(default=None, compare=False)

    def route_property(self, route: Route, name: str) -> int | bool | str:
        """A route's value of a declared property."""
        return dict(route.properties)[name]

    def property_named(self, name: str) -> RouteProperty:
        return next(p for p in self.board.properties if p.name == name)

    @property
    def module_name(self) -> str:
        return self.name.replace("-", "_")

    @property
    def total_cards(self) -> int:
        return sum(card.count for card in self.cards)
