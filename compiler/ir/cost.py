"""How much an edition asks of its engine: the size of its action index.

Every engine lists each action of its edition once, when it is imported (``ACTIONS``,
the integer API's ids), and so does the compiler when it plays the worked examples.
Values well inside the schema's limits can ask for millions (`share_tickets 7`,
`tunnels reveal: 1000`, `draw_tickets draw: 24`), which no check would survive. This
counts the actions as the engine's ``_index_actions`` lists them, statement by
statement, and reports a located E316 naming what costs what. Counting is bounded
too: a part stops once it passes the limit, and the combinations are closed forms.
``tests/test_strict_inputs.py`` checks the count against ``len(ACTIONS)`` of every
engine it builds.
"""

from __future__ import annotations

from math import comb

from ..diagnostics import Code, Diagnostic
from ..french import grouped
from ..mechanisms import joker_pays_route, used_by
from . import Edition
from .action_space import MAX_ACTIONS, Part, ways_to_pay


def action_parts(edition: Edition, cap: int = MAX_ACTIONS) -> list[Part]:
    """The action index of ``edition``'s engine, by the statement that asks for it."""
    used = used_by(edition)
    split = any(mechanism.pays_from_shared(edition) for mechanism in used)
    plain = len(edition.cards) - 1  # every colour but the joker
    turn, setup = edition.turn, edition.setup
    parts = [Part(what="passer son tour", actions=1, span=edition.span)]
    if turn.draw_cards:
        sources = 1 + setup.market_size
        sources = max([sources] + [mechanism.card_draws(edition, sources) for mechanism in used])
        parts.append(Part(what="« draw_cards »", actions=sources, span=turn.draw_cards.span))
    if turn.draw_tickets:
        parts.append(Part(what="« draw_tickets »", actions=1, span=turn.draw_tickets.span))
    if turn.claim_route:
        claims, counted, routes = 0, 0, edition.board.routes
        while counted < len(routes) and claims <= cap:
            route = routes[counted]
            colors = plain if route.color == "gray" else 1
            jokers = joker_pays_route(edition, route)
            claims += ways_to_pay(route.length, colors, route.ferry, jokers, split)
            counted += 1
        capped = counted < len(routes)
        parts.append(
            Part(what="les routes du plateau", actions=claims, span=edition.board.span, capped=capped)
        )
    parts.append(_keeps(edition, cap))
    for mechanism in used:
        parts += mechanism.action_parts(edition, split)
    if any(mechanism.owes_cards(edition) for mechanism in used):
        parts.append(
            Part(what="les cartes dues (« pay_card »)", actions=len(edition.cards), span=edition.span)
        )
    return parts


def _keeps(edition: Edition, cap: int) -> Part:
    """Ticket choices by position among the tickets offered (each listed as many ways as a mechanism
    asks: in team play, with each choice of the tickets shared)."""
    setup, draw = edition.setup, edition.turn.draw_tickets
    offered = setup.tickets_dealt + setup.long_tickets_dealt
    part = Part(what="les tickets distribués (« setup »)", actions=0, span=setup.span)
    if draw and draw.draw > offered:
        offered, part = draw.draw, Part(what="« draw_tickets »", actions=0, span=draw.span)
    used = used_by(edition)
    keeps = 0
    for count in range(1, offered + 1):
        for size in range(count + 1):
            ways = max([1] + [mechanism.keep_ways(edition, size) for mechanism in used])
            keeps += comb(count, size) * ways
        if keeps > cap:
            return Part(what=part.what, actions=keeps, span=part.span, capped=count < offered)
    return Part(what=part.what, actions=keeps, span=part.span)


def action_count(edition: Edition) -> int:
    return sum(part.actions for part in action_parts(edition))


def check_cost(edition: Edition) -> list[Diagnostic]:
    """An E316 at the costliest statement when the index would pass MAX_ACTIONS."""
    parts = action_parts(edition)
    total = sum(part.actions for part in parts)
    if total <= MAX_ACTIONS:
        return []
    costliest = max(parts, key=lambda part: part.actions)
    span = costliest.span or edition.span
    assert span is not None

    def amount(part: Part) -> str:
        if part.actions >= 10**9:
            return "plus d’un milliard"
        return f"plus de {grouped(part.actions)}" if part.capped else grouped(part.actions)

    capped = any(part.capped for part in parts)
    listed = sorted((part for part in parts if part.actions > 1), key=lambda part: -part.actions)
    return [
        Diagnostic(
            code=Code.LIMIT_EXCEEDED,
            message=f"le moteur listerait {amount(Part(what='', actions=total, span=None, capped=capped))} "
            f"{'d’' if total >= 10**9 else ''}actions possibles, pour {grouped(MAX_ACTIONS)} au plus : "
            f"{costliest.what} en demande {amount(costliest)}",
            span=span,
            hint="chaque action possible est préparée au chargement du moteur ; "
            + " ; ".join(f"{part.what} : {amount(part)}" for part in listed[:4]),
        )
    ]
