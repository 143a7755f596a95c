"""Stage 6e: the printable rule sheet, one self-contained HTML file.

The rules are the Markdown sheet itself, rendered by markdown-it-py (raw HTML
in it is shown as text, never run). Paper adds what a table needs: the board
picture on a landscape page, the tickets with their points grouped by kind,
and a score sheet. Every word and number here comes from the IR; the template
(autoescaped) only prints these view models.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..french import guillemets, typo, words
from ..ir import Edition, Ticket
from ..mechanisms import board_marks, bonus_rows, side_size, used_by
from .board import legend as marks_legend
from .board import markup_environment

# The page fetches nothing and runs nothing: inline styles, pictures only as data, no script.
CONTENT_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "base-uri 'none'; form-action 'none'"
)

# How each kind of ticket is headed on paper; a kind not listed keeps its own name.
KIND_TITLES = {
    "regular": "Tickets ordinaires",
    "long": "Tickets longs",
    "big_city": "Tickets Grandes villes",
    "city_to_countries": "D’une ville vers les pays voisins",
    "country_to_countries": "D’un pays vers les pays voisins",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class TicketGroup:
    title: str
    # Rows of the two-column table: (trip, points) on the left, then on the right when any.
    rows: tuple[tuple[str, str, str, str], ...]
    # False for tickets with targets: each target's points are in the trip itself.
    with_points: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreSheet:
    scale: tuple[tuple[str, ...], tuple[str, ...]]  # route lengths, then their points
    columns: tuple[str, ...]  # a player or a team per column
    rows: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    title: str
    policy: str
    rules: Markup
    board: Markup | None
    board_missing: str
    legend: tuple[str, ...]
    tickets: tuple[TicketGroup, ...]
    tickets_intro: str
    score: ScoreSheet


@cache
def _markdown() -> MarkdownIt:
    # The sheet has no links nor pictures of its own: a page that can show none fetches none.
    return (
        MarkdownIt("commonmark", {"html": False, "typographer": False})
        .enable("table")
        .disable(["link", "image", "autolink"])
    )


def rules_html(sheet: str) -> Markup:
    """The Markdown sheet as HTML; markdown-it escapes every character of the text."""
    return Markup(_markdown().render(sheet))


def trip(ticket: Ticket) -> str:
    if ticket.targets:
        targets = ", ".join(f"{target.place} {target.points}" for target in ticket.targets)
        return typo(f"{ticket.a} → {targets}")
    return typo(f"{ticket.a} – {ticket.b}")


def ticket_groups(edition: Edition) -> tuple[TicketGroup, ...]:
    kinds: dict[str, list[Ticket]] = {}
    for ticket in edition.tickets.tickets:
        kinds.setdefault(ticket.kind, []).append(ticket)
    groups = []
    for kind, tickets in kinds.items():
        ordered = sorted(tickets, key=lambda t: (t.points, t.a, t.b))
        cells = [(trip(t), "" if t.targets else str(t.points)) for t in ordered]
        half = (len(cells) + 1) // 2
        rows = tuple(
            (*cells[i], *(cells[half + i] if half + i < len(cells) else ("", ""))) for i in range(half)
        )
        title = KIND_TITLES.get(kind, f"Tickets {guillemets(kind)}")
        groups.append(
            TicketGroup(
                title=typo(f"{title} ({len(tickets)})"),
                rows=rows,
                with_points=not all(ticket.targets for ticket in tickets),
            )
        )
    return tuple(groups)


def score_sheet(edition: Edition) -> ScoreSheet:
    lengths = tuple(str(length) for length, _ in edition.route_points)
    points = tuple(str(points) for _, points in edition.route_points)
    # A column per side: per player, or per team where a mechanism seats players together.
    name = next((n for m in used_by(edition) if (n := m.side_name(edition))), "Joueur")
    columns = tuple(f"{name} {n}" for n in range(1, edition.players.max // side_size(edition) + 1))
    rows = ["Routes (piste de score)", "Tickets réussis (+)", "Tickets ratés (−)"]
    rows += [typo(f"{guillemets(bonus.title)} (+{bonus.points})") for bonus in bonus_rows(edition)]
    rows += [row for mechanism in used_by(edition) for row in mechanism.score_rows(edition)]
    rows.append("Total")
    return ScoreSheet(scale=(("Longueur", *lengths), ("Points", *points)), columns=columns, rows=tuple(rows))


def legend(edition: Edition) -> tuple[str, ...]:
    board = edition.board
    lines = ["Chaque rectangle est une case : une carte Wagon de sa couleur ; gris, une couleur au choix."]
    if board.track_groups():
        lines.append(
            "Deux rangées côte à côte : une route double ; trois : une route triple."
            if board.has_triple_routes
            else "Deux rangées côte à côte : une route double."
        )
    if any(route.tunnel for route in board.routes):
        lines.append("Cases en pointillés : un tunnel.")
    if any(route.ferry for route in board.routes):
        lines.append("Locomotive dessinée sur une case : un ferry, qui se paie avec autant de locomotives.")
    if board.countries:
        names = ", ".join(country.name for country in board.countries)
        lines.append(f"Flèches au bord : les routes vers les pays voisins ({names}).")
    # What the mechanisms draw (a company's initials, a region's tint…), as they word it.
    lines += [line[:1].upper() + line[1:] + "." for line in marks_legend(board_marks(edition))]
    if board.stand_in:
        lines.append(f"Plateau de remplacement : {board.stand_in}.")
    return tuple(typo(line) for line in lines)


def emit_document(edition: Edition, sheet: str, board_svg: str | None) -> str:
    """The whole printable sheet as one HTML file: rules, board, tickets, score sheet."""
    dealt = edition.setup.tickets_dealt + edition.setup.long_tickets_dealt
    document = Document(
        title=typo(f"{edition.game} — {edition.title}"),
        policy=CONTENT_POLICY,
        rules=rules_html(sheet),
        board=Markup(board_svg) if board_svg else None,
        board_missing=typo(
            "Le dessin du plateau manque : la spec ne place aucune ville sur la carte "
            "(une position, latitude et longitude, pour chaque ville)."
        ),
        legend=legend(edition),
        tickets=ticket_groups(edition),
        tickets_intro=typo(
            f"Les {len(edition.tickets.tickets)} tickets du jeu, par sorte, du plus petit au plus grand "
            f"nombre de points ; chaque joueur en reçoit {words(dealt)} au départ."
            + (
                f" La règle en compte {edition.tickets.printed} : voir « Quand la règle ne dit rien »."
                if edition.tickets.printed != len(edition.tickets.tickets)
                else ""
            )
        ),
        score=score_sheet(edition),
    )
    return markup_environment().get_template("fiche.html.j2").render(document=document)


def tightened(document: str) -> str:
    """The printable sheet with its rules' lines closer together (the style of ``body.tight``):
    the PDF keeps this print when it has fewer pages (a short last page of rules taken back)."""
    return document.replace("<body>", '<body class="tight">', 1)
