"""The log says the mechanisms' actions from what the engine declares (`ACTION_WORDS`), not from
knowing the mechanisms (issue 38, §1): their own actions' sentences, what they add to a claim or
a draw, the cards of their own a payment lays."""

from __future__ import annotations

import pytest
from aventuriers.compiler.french import typo
from aventuriers.play.describe import describe, said

from tests.engines import engine


@pytest.mark.parametrize(
    ("edition", "action", "sentence"),
    [
        (
            "europe",
            {"type": "build_station", "city": "Wien", "cards": {"red": 2}},
            "construit une gare à Wien avec 2 cartes rouges",
        ),
        (
            "europe",
            {"type": "pay_tunnel", "cards": {"locomotive": 1}},
            "paie le supplément du tunnel : 1 locomotive",
        ),
        ("europe", {"type": "abandon_tunnel"}, "renonce au tunnel"),
        ("italy", {"type": "draw_extra_card"}, "prend une carte Ferry"),
        (
            "italy",
            {"type": "claim_route", "route": "ancona-croazia-2", "cards": {"red": 1}, "extra_cards": 1},
            "prend la route Ancona – Croazia#2 (4) avec 1 carte rouge et 1 carte Ferry",
        ),
        (
            "italy",
            {"type": "claim_route", "route": "ancona-croazia-2", "cards": {}, "extra_cards": 2},
            "prend la route Ancona – Croazia#2 (4) avec 2 cartes Ferry",
        ),
        ("germany", {"type": "draw_tickets", "long": 0}, "pioche des tickets, dont aucun long"),
        ("germany", {"type": "draw_tickets", "long": 1}, "pioche des tickets, dont 1 long"),
        ("germany", {"type": "draw_tickets", "long": 2}, "pioche des tickets, dont 2 longs"),
        ("germany", {"type": "take_token", "kind": "red", "city": "Köln"}, "prend le jeton « red » à Köln"),
        (
            "pennsylvania",
            {"type": "take_share", "company": "nyc"},
            "prend une action du New York Central System",
        ),
        ("pennsylvania", {"type": "take_share", "company": "nowhere"}, "prend une action « nowhere »"),
        (
            "asia-equipes",
            {"type": "share_tickets", "tickets": ["a"]},
            "met 1 ticket dans le porte-cartes de l’équipe",
        ),
        ("usa-2025", {"type": "draw_tickets", "long": 2}, "pioche des tickets"),  # no mix: no clause
        (
            "asia-equipes",
            {"type": "draw_card", "source": "deck", "to": "holder"},
            "pioche une carte pour le porte-cartes de l’équipe",
        ),
        ("asia-equipes", {"type": "draw_card", "source": "deck"}, "pioche une carte"),  # placed once seen
        ("asia-equipes", {"type": "place_card", "to": "hand"}, "met la carte piochée en main"),
        (
            "asia-equipes",
            {"type": "keep_tickets", "tickets": ["perm-tehran", "omsk-astrakhan"], "share": ["perm-tehran"]},
            "garde 2 tickets, dont 1 ticket au porte-cartes de l’équipe",
        ),
        ("asia-equipes", {"type": "keep_tickets", "tickets": ["perm-tehran"], "share": []}, "garde 1 ticket"),
        (
            "asia-equipes",
            {
                "type": "claim_route",
                "route": "agra-bombay",
                "cards": {"red": 1},
                "holder_cards": {"locomotive": 1},
            },
            "prend la route Agra – Bombay (2) avec 1 carte rouge (du porte-cartes : 1 locomotive)",
        ),
        ("europe", {"type": "draw_card", "source": "deck", "to": "holder"}, "pioche une carte"),  # no teams
    ],
)
def test_a_mechanism_action_is_said_as_its_engine_declares(edition: str, action: dict, sentence: str) -> None:
    assert describe(engine(edition), action) == typo(sentence)  # with French typography's spaces


def test_an_action_sentence_keeps_a_spec_strings_braces_as_text() -> None:
    """A spec's name with braces (`sentence_text` doubles them) reaches the log as written; a field
    the sentence names but the action lacks never breaks it."""
    words = {"text": "prend une carte {{x}} à {city}"}
    assert said(None, words, {"city": "Wien"}) == "prend une carte {x} à Wien"
    assert said(None, {"text": "à {city}"}, {}) == "à ?"


def test_the_player_who_keeps_tickets_reads_them_named_the_others_counted() -> None:
    """Team play's clause on a ticket choice names the shared tickets for their keeper only."""
    asia = engine("asia-equipes")
    action = {"type": "keep_tickets", "tickets": ["perm-tehran", "omsk-astrakhan"], "share": ["perm-tehran"]}
    assert describe(asia, action, own=True) == typo(
        "garde Perm – Tehran (6), Omsk – Astrakhan (6), dont Perm – Tehran (6) au porte-cartes de l’équipe"
    )
    market = ["red", "blue", "green", "white", "black"]
    drawn = {"type": "draw_card", "source": "market", "slot": 1, "to": "hand"}
    assert describe(asia, drawn, market) == typo("prend la carte bleue visible en main")
    assert describe(
        asia, {"type": "draw_card", "source": "deck", "to": "holder"}, own=True, drawn="red"
    ) == typo("pioche une carte rouge pour le porte-cartes de l’équipe")
