"""Where given-back tickets go, as the spec says (issue 20, §1): `long_rejected` is played, the
sheet says the same, and a `return_order` is refused with the right reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from aventuriers.compiler.build import compile_edition, loader
from aventuriers.compiler.emit.example import load_engine

from tests.engines import engine


def europe_with(tmp_path: Path, setup: str):
    spec = tmp_path / "longs.aventuriers"
    spec.write_text(f"edition longs\nextends europe\nsetup {{\n  tickets {setup}\n}}\n", encoding="utf-8")
    compiled = compile_edition(spec, loader())
    return compiled, load_engine(compiled.engine_source, "longs")


def long_ids(module) -> set[str]:
    return {ticket for ticket, record in module.TICKETS.items() if record["kind"] == "long"}


@pytest.mark.parametrize("policy", ["shuffled_under", "under_chosen_order"])
def test_long_tickets_not_dealt_join_the_deck_unless_they_leave_the_game(tmp_path, policy) -> None:
    setup = f"deal: 3 long: 1 keep_at_least: 2 keep_among: regular rejected: {policy} long_rejected: {policy}"
    compiled, module = europe_with(tmp_path, setup)
    game = module.new_game(2, 4)
    while game.to_dict()["phase"] == "setup_tickets":
        game.apply(game.legal_actions()[-1])  # everyone keeps all they were dealt
    deck = set(game.to_dict()["ticket_deck"])
    assert len(deck & long_ids(module)) == len(long_ids(module)) - 2
    assert module.LONG_REJECTED == policy
    assert "restants sont mélangés et glissés sous la pioche" in compiled.sheet
    europe = engine("europe")
    played = europe.new_game(2, 4)
    while played.to_dict()["phase"] == "setup_tickets":
        played.apply(played.legal_actions()[-1])
    assert not set(played.to_dict()["ticket_deck"]) & long_ids(europe)  # Europe: they leave the game


def test_a_long_ticket_given_back_in_a_chosen_order_goes_under_the_deck(tmp_path) -> None:
    setup = (
        "deal: 3 long: 1 keep_at_least: 2 keep_among: regular rejected: under_chosen_order "
        "long_rejected: under_chosen_order"
    )
    compiled, module = europe_with(tmp_path, setup)
    game = module.new_game(2, 4)
    pending = game.to_dict()["players"][0]["pending_tickets"]
    long, *regular = sorted(pending, key=lambda ticket: module.TICKETS[ticket]["kind"] != "long")
    game.apply({"type": "keep_tickets", "tickets": regular[:2], "return_order": [regular[2], long]})
    assert game.to_dict()["ticket_deck"][-2:] == [regular[2], long]
    assert (
        "Tous les tickets rendus vont sous la pioche, dans l’ordre choisi par chaque joueur" in compiled.sheet
    )
    rules = compiled.sheet.split("## Annexe")[0]  # the sheet, without the differences page
    assert "dans l’ordre choisi par le joueur" not in rules


def test_shuffled_long_tickets_take_no_order_and_are_said_shuffled(tmp_path) -> None:
    setup = "deal: 3 long: 1 keep_at_least: 2 keep_among: regular rejected: shuffled_under long_rejected: shuffled_under"
    compiled, module = europe_with(tmp_path, setup)
    game = module.new_game(2, 4)
    pending = game.to_dict()["players"][0]["pending_tickets"]
    long, *regular = sorted(pending, key=lambda ticket: module.TICKETS[ticket]["kind"] != "long")
    with pytest.raises(module.IllegalAction) as refused:
        game.apply({"type": "keep_tickets", "tickets": regular[:2], "return_order": [regular[2], long]})
    assert refused.value.code == "return_order_not_allowed"
    assert (
        refused.value.message
        == "Tu ne choisis pas l’ordre des tickets que tu rends\u00a0: ils sont mélangés sous la pioche."
    )
    game.apply({"type": "keep_tickets", "tickets": regular[:2]})
    game.apply(game.legal_actions()[-1])
    assert long in game.to_dict()["ticket_deck"]  # given back, shuffled under: not out of the game
    assert "dans l’ordre choisi" not in compiled.sheet.split("## ")[2]


@pytest.mark.parametrize("edition", ["switzerland", "europe"])
def test_tickets_that_leave_the_game_have_no_order_and_are_said_to_leave(edition) -> None:
    module = engine(edition)
    game = module.new_game(2, 4)
    pending = game.to_dict()["players"][0]["pending_tickets"]
    regular = [ticket for ticket in pending if module.TICKETS[ticket].get("kind") != "long"]
    kept = regular[: module.SETUP_KEEP_AT_LEAST]
    given_back = [ticket for ticket in pending if ticket not in kept]
    with pytest.raises(module.IllegalAction) as refused:
        game.apply({"type": "keep_tickets", "tickets": kept, "return_order": given_back})
    assert (
        refused.value.message
        == "Tu ne choisis pas l’ordre des tickets que tu rends\u00a0: ils quittent la partie."
    )


def test_a_message_that_cannot_be_raised_is_not_in_the_catalogue() -> None:
    """Seed 003: a face-up tunnel card may be taken as the second card, so no message says otherwise."""
    assert "locomotive_second_card" not in engine("switzerland").MESSAGES
    assert "locomotive_second_card" in engine("usa-2025").MESSAGES
