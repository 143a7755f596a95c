"""Stage 6c: two IRs to the French « les différences » page.

Each edition is described as facts: a section, a label and a French value,
compared as plain data. The page lists only the facts that differ, in the
order of the rule sheet, then what changed in the ticket deck and the
bonuses. The template only loops and prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..french import (
    COLOR_NAMES,
    JOKERS,
    KIND_ALL,
    TrackWording,
    counted,
    enumerate_fr,
    kept_phrase,
    players_phrase,
    the_edition,
    typo,
    words,
)
from ..ir import Edition, Route, Ticket, TicketsRejected
from ..mechanisms import Fact, joker_kinds, side_size, used_by
from .engine import environment
from .escape import for_markdown
from .sheet_model import tiebreak_phrases

SECTIONS = ("Généralités", "Matériel", "Le plateau", "Mise en place", "Le tour", "Décompte", "Cartes bonus")

REJECTED = {
    TicketsRejected.UNDER_CHOSEN_ORDER: "sous la pioche, dans l’ordre choisi par le joueur",
    TicketsRejected.SHUFFLED_UNDER: "mélangés ensemble, puis sous la pioche",
    TicketsRejected.OUT_OF_GAME: "retirés du jeu",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffSection:
    title: str
    bullets: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffPage:
    title: str
    intro: str
    sections: tuple[DiffSection, ...]


def facts(edition: Edition, *, triples: bool = False) -> list[Fact]:
    """The rules an edition states, one fact each; `triples` words the double-route rule for a
    comparison in which either board has a triple route, so that the board alone shows no change."""
    e, s, t = edition, edition.setup, edition.turn
    found = [
        Fact(
            section="Généralités",
            label="Joueurs",
            value=players_phrase(e.players, side_size(e)).removeprefix("À ").replace("De ", "de ", 1),
        ),
        Fact(section="Matériel", label="Wagons par joueur", value=str(e.trains)),
        Fact(
            section="Matériel",
            label="Cartes Wagon",
            value=enumerate_fr(
                [
                    f"{c.count} {JOKERS[c.color.value][c.count != 1] if c.color.value in JOKERS else COLOR_NAMES[c.color.value]}"
                    for c in e.cards
                    if c.count
                ]
            )
            + f" ({e.total_cards} cartes)",
        ),
        Fact(
            section="Matériel",
            label="Joker",
            value=f"{JOKERS[e.joker.value][1]}, "
            + (
                "sur " + " et ".join(KIND_ALL[kind] for kind in joker_kinds(e)) + " seulement"
                if joker_kinds(e)
                else "sur toute route"
            ),
        ),
        Fact(section="Matériel", label="Tickets Destination de la règle", value=str(e.tickets.printed)),
        Fact(section="Le plateau", label="Villes", value=str(len(e.board.cities))),
        # As the sheet counts them: the routes a player sees, then their tracks (a double route has two).
        Fact(section="Le plateau", label="Routes", value=str(_route_count(e))),
        Fact(section="Le plateau", label="Voies", value=str(len(e.board.routes))),
        Fact(section="Mise en place", label="Cartes Wagon distribuées", value=words(s.train_cards)),
        Fact(section="Mise en place", label="Cartes visibles", value=words(s.market_size)),
        Fact(
            section="Mise en place",
            label="Marché renouvelé à partir de",
            value=f"{words(s.market_locomotive_reset, feminine=True)} {JOKERS[e.joker.value][1]} visibles"
            if s.market_locomotive_reset is not None
            else "jamais",
        ),
        Fact(section="Mise en place", label="Tickets distribués", value=_dealt(edition)),
        Fact(
            section="Mise en place",
            label="Tickets gardés",
            value=kept_phrase(s.tickets_keep_at_least, s.tickets_keep_at_most),
        ),
        Fact(section="Mise en place", label="Tickets rejetés", value=REJECTED[s.tickets_rejected]),
    ]
    if t.draw_cards:
        found.append(Fact(section="Le tour", label="Cartes Wagon piochées", value=words(t.draw_cards.count)))
        found.append(
            Fact(
                section="Le tour",
                label="Joker visible",
                value="tout le tour" if t.face_up_locomotive_ends_draw else "une carte comme une autre",
            )
        )
    if t.draw_tickets:
        d = t.draw_tickets
        found += [
            Fact(section="Le tour", label="Tickets piochés", value=words(d.draw)),
            Fact(
                section="Le tour",
                label="Tickets gardés après une pioche",
                value=kept_phrase(d.keep_at_least, d.keep_at_most),
            ),
            Fact(section="Le tour", label="Tickets rendus", value=REJECTED[d.rejected]),
        ]
    found += [
        Fact(section="Décompte", label=f"Route de {length} cases", value=f"{points} points")
        for length, points in e.route_points
    ]
    # One fact for all player counts, so that regrouping the counts is a change, never a removal.
    found.append(
        Fact(
            section="Décompte",
            label="Routes doubles",
            value=" ; ".join(
                f"{players_phrase(rule.players, side_size(e)).lower()}, "
                + TrackWording(triples=triples).diff_values[rule.twin.value]
                for rule in e.double_rules
            ),
        )
    )
    found.append(
        Fact(
            section="Décompte",
            label="Dernier tour",
            value=f"à {words(e.end.trains_at_most)} wagons ou moins"
            + (" pour les joueurs d’une équipe réunis" if e.end.trains_of_team else ""),
        )
    )
    # A mechanism's fact of a core label says it in the core's place (what it changes of it).
    own = [fact for mechanism in used_by(e) for fact in mechanism.facts(e)]
    replacing = {(fact.section, fact.label): fact for fact in own}
    found = [replacing.pop((fact.section, fact.label), fact) for fact in found]
    found += [fact for fact in own if (fact.section, fact.label) in replacing]
    ties = tiebreak_phrases(e)  # after the bonus cards it may name
    found.append(Fact(section="Cartes bonus", label="Départage", value=", puis ".join(ties) or "aucun"))
    return found


def _dealt(edition: Edition) -> str:
    """Every ticket a player is dealt, as the sheet counts them: « trois », « quatre, un long et trois
    ordinaires »."""
    s = edition.setup
    if not s.long_tickets_dealt:
        return words(s.tickets_dealt)
    long = counted(s.long_tickets_dealt, "long", "longs")
    return (
        f"{words(s.long_tickets_dealt + s.tickets_dealt)}, {words(s.long_tickets_dealt)} {long} "
        f"et {words(s.tickets_dealt)} ordinaires"
    )


def _deck_lines(old: Edition, new: Edition) -> list[str]:
    """The ticket deck, ticket by ticket: which left, which came, which changed value."""
    before = {ticket.id: ticket for ticket in old.tickets.tickets}
    after = {ticket.id: ticket for ticket in new.tickets.tickets}
    added = [after[name] for name in after if name not in before]
    removed = [before[name] for name in before if name not in after]
    changed = [
        after[name]
        for name in after
        if name in before
        and (after[name].points, after[name].targets) != (before[name].points, before[name].targets)
    ]
    if not (added or removed or changed):
        return []
    name = f" ({new.tickets.name})" if new.tickets.name else ""
    line = f"Pioche de tickets{name} : {len(after)} {counted(len(after), 'ticket', 'tickets')}"
    # A deck replaced whole is said in one sentence; a deck edited is said ticket by ticket.
    if len(added) == len(after):
        line += ", tous nouveaux"
    if len(removed) == len(before):
        line += f" ; les {len(before)} tickets de {the_edition(old.title)} n’y sont plus"
    lines = [line + "."]
    if removed and len(removed) < len(before):
        lines.append(f"{_counted_label(removed, 'Ticket retiré', 'Tickets retirés')} : {_tickets(removed)}.")
    if added and len(added) < len(after):
        lines.append(f"{_counted_label(added, 'Ticket ajouté', 'Tickets ajoutés')} : {_tickets(added)}.")
    lines += [
        f"{_ticket_name(t)} ({instead_of(_ticket_name(before[t.id]))})."
        if t.targets or before[t.id].targets
        else f"{t.a} – {t.b} : {t.points} points ({instead_of(str(before[t.id].points))})."
        for t in changed
    ]
    return lines


def _route_count(edition: Edition) -> int:
    """The routes a player sees: the tracks of a double or triple route are one route."""
    board = edition.board
    return len(board.routes) - sum(len(group) - 1 for group in board.track_groups())


# The facts a board replaced whole says in its one line.
BOARD_COUNTS = (("Le plateau", "Villes"), ("Le plateau", "Routes"), ("Le plateau", "Voies"))


def board_replaced(old: Edition, new: Edition) -> bool:
    """Whether the new board keeps none of the old one's routes: a board of its own."""
    kept = {route.id for route in old.board.routes} & {route.id for route in new.board.routes}
    return bool(old.board.routes and new.board.routes) and not kept


def _board_line(old: Edition, new: Edition) -> str:
    """« Le plateau Inde remplace celui de l’édition « USA » : 39 villes, 80 routes et 108 voies. »"""
    board = new.board
    name = f"Le plateau {board.map}" if board.map and board.map != old.board.map else "Un autre plateau"
    countries = len(board.countries)
    places = f"{len(board.cities)} {counted(len(board.cities), 'ville', 'villes')}" + (
        f" et {countries} {counted(countries, 'pays voisin', 'pays voisins')}" if countries else ""
    )
    routes, tracks = _route_count(new), len(board.routes)
    return (
        f"{name} remplace celui de {the_edition(old.title)} : {places}, "
        f"{routes} {counted(routes, 'route', 'routes')} et {tracks} {counted(tracks, 'voie', 'voies')}."
    )


def _route_lines(old: Edition, new: Edition) -> list[str]:
    """The board, route by route: which left, which came, which changed and how; a board
    replaced whole, in one line."""
    if board_replaced(old, new):
        return [_board_line(old, new)]
    before = {route.id: route for route in old.board.routes}
    after = {route.id: route for route in new.board.routes}
    lines = []
    removed = [before[name] for name in before if name not in after]
    added = [after[name] for name in after if name not in before]
    if removed:
        lines.append(
            f"{_counted_label(removed, 'Route retirée', 'Routes retirées')} : {_routes(old, removed)}."
        )
    if added:
        lines.append(f"{_counted_label(added, 'Route ajoutée', 'Routes ajoutées')} : {_routes(new, added)}.")
    kept = [(before[name], after[name]) for name in after if name in before and before[name] != after[name]]
    for was, wording in (
        (True, ("Ne sont plus des tunnels", "N’est plus un tunnel")),
        (False, ("Deviennent des tunnels", "Devient un tunnel")),
    ):
        moved = [
            new_route for old_route, new_route in kept if old_route.tunnel == was and new_route.tunnel != was
        ]
        if moved:
            label = wording[1] if len(moved) == 1 else wording[0]
            lines.append(f"{label} : {_routes(new, moved)}.")
    for old_route, new_route in kept:
        details = []
        if old_route.length != new_route.length:
            details.append(f"{new_route.length} cases ({instead_of(str(old_route.length))})")
        if old_route.color != new_route.color:
            details.append(f"{COLOR_NAMES[new_route.color]} ({instead_of(COLOR_NAMES[old_route.color])})")
        if old_route.ferry != new_route.ferry:
            details.append(
                f"ferry à {counted(new_route.ferry, 'locomotive', 'locomotives')}"
                if new_route.ferry
                else "plus un ferry"
            )
        said = _mechanism_words(old, old_route), _mechanism_words(new, new_route)
        if said[0] != said[1]:
            details.append(enumerate_fr(said[1]) if said[1] else "sans " + enumerate_fr(said[0]))
        if details:
            lines.append(f"{_route_name(old, old_route)} : {', '.join(details)}.")
    return lines


def _mechanism_words(edition: Edition, route: Route) -> list[str]:
    """What the edition's mechanisms say of a route (« 2 montagnes »)."""
    return [word for mechanism in used_by(edition) for word in mechanism.route_words(edition, route)]


def _counted_label(items: list, singular: str, plural: str) -> str:
    return singular if len(items) == 1 else f"{plural} ({len(items)})"


def _route_name(edition: Edition, route: Route) -> str:
    """« Madrid – Pamplona »; where other tracks of the board join the same two places, told apart
    by what differs among them: their colour and their length (« (gris, 2 cases) »), else their kind
    (« (ferry) », « (publique (Shinkansen)) »), else their rank, as in their ids (« (voie 2) »)."""
    name = f"{route.a} – {route.b}"
    tracks = [other for other in edition.board.routes if {other.a, other.b} == {route.a, route.b}]
    if len(tracks) < 2:
        return name
    details = []
    if len({track.color for track in tracks}) > 1:
        details.append(COLOR_NAMES[route.color])
    if len({track.length for track in tracks}) > 1:
        details.append(f"{route.length} {counted(route.length, 'case', 'cases')}")
    kinds = {track.id: _kind_words(edition, track) for track in tracks}
    if not details and len({tuple(words) for words in kinds.values()}) > 1:
        details = kinds[route.id] or ["ordinaire"]
    if not details:
        rank = route.id.rsplit("-", 1)[-1]
        details.append(f"voie {rank if rank.isdigit() else tracks.index(route) + 1}")
    return f"{name} ({', '.join(details)})"


def _kind_words(edition: Edition, route: Route) -> list[str]:
    """What a route is besides its colour and length: « ferry », « tunnel », a mechanism's words."""
    return ["ferry"] * bool(route.ferry) + ["tunnel"] * bool(route.tunnel) + _mechanism_words(edition, route)


# Past this many, a list names the first ones and counts the others (two unrelated boards).
LISTED = 40


def _listed(names: list[str]) -> str:
    if len(names) <= LISTED:
        return enumerate_fr(names)
    return ", ".join(names[:LISTED]) + f" et {len(names) - LISTED} autres"


def _routes(edition: Edition, routes: list[Route]) -> str:
    return _listed([_route_name(edition, route) for route in routes])


def _tickets(tickets: list[Ticket]) -> str:
    return _listed([_ticket_name(ticket) for ticket in tickets])


def _ticket_name(ticket: Ticket) -> str:
    """« Boston – Miami (12) »; with targets, « Bern – France 5 ou Italia 8 »."""
    if ticket.targets:
        return f"{ticket.a} – " + " ou ".join(f"{t.place} {t.points}" for t in ticket.targets)
    return f"{ticket.a} – {ticket.b} ({ticket.points})"


def instead_of(value: str) -> str:
    """« au lieu de trois », « au lieu d’au moins deux », « au lieu du plus de tickets »."""
    if value.startswith("de "):
        return "au lieu " + value
    if value.startswith("le "):
        return "au lieu du " + value[3:]
    if value.startswith("les "):
        return "au lieu des " + value[4:]
    if value[:1].lower() in "aeiouyéèêàh":
        return "au lieu d’" + value
    return "au lieu de " + value


def diff_page(old: Edition, new: Edition, *, annex: bool = False) -> DiffPage:
    triples = old.board.has_triple_routes or new.board.has_triple_routes
    # A board replaced whole says its counts in its own line.
    left_out = BOARD_COUNTS if board_replaced(old, new) else ()
    before = {
        (f.section, f.label): f for f in facts(old, triples=triples) if (f.section, f.label) not in left_out
    }
    after = {
        (f.section, f.label): f for f in facts(new, triples=triples) if (f.section, f.label) not in left_out
    }
    bullets: dict[str, list[str]] = {section: [] for section in SECTIONS}
    for key, fact in after.items():
        section, label, value = fact.section, fact.label, fact.value
        if key not in before and section == "Cartes bonus":
            bullets[section].append(f"La carte {label} s’ajoute : {value}.")
        elif key not in before and fact.without is not None:
            bullets[section].append(f"{label} : {value} ({instead_of(fact.without)}).")
        elif key not in before:
            bullets[section].append(f"{label} : {value} (nouveau).")
        elif before[key].value != value:
            bullets[section].append(f"{label} : {value} ({instead_of(before[key].value)}).")
    for key, fact in before.items():
        if key not in after:
            section, label, value = fact.section, fact.label, fact.value
            if section == "Cartes bonus":
                bullets[section].append(f"La carte {label} n’est plus utilisée.")
            elif fact.without is not None:
                bullets[section].append(f"{label} : {fact.without} (avant : {value}).")
            else:
                bullets[section].append(f"{label} : plus dans cette édition (avant : {value}).")
    bullets["Matériel"] += _deck_lines(old, new)
    # A board replaced whole is said first, what it brings (its ferries, its countries) after.
    if left_out:
        bullets["Le plateau"][:0] = _route_lines(old, new)
    else:
        bullets["Le plateau"] += _route_lines(old, new)
    return DiffPage(
        title=typo(
            f"Annexe : les différences avec {the_edition(old.title)}"
            if annex
            else f"Les différences : {new.title}"
        ),
        intro=typo(
            f"Cette page présente les changements de règles de {the_edition(new.title)} par rapport à "
            f"{the_edition(old.title)}. Tout ce qui n’y figure pas se joue de la même façon."
        ),
        sections=tuple(
            DiffSection(title=section, bullets=tuple(typo(b) for b in bullets[section]))
            for section in SECTIONS
            if bullets[section]
        ),
    )


def emit_diff(old: Edition, new: Edition, *, annex: bool = False) -> str:
    """The differences page; as an ``annex`` of a rule sheet, one heading level down."""
    page = diff_page(for_markdown(old), for_markdown(new), annex=annex)
    return environment().get_template("diff.md.j2").render(page=page, level="##" if annex else "#")
