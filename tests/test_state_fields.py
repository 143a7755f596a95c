"""The declared state (`STATE_FIELDS`) holds what the engines keep, and the invariants read from
it fail where the state breaks them (issue 38, §1).

The invariants of `tests/engines.py` know no mechanism: they read each engine's declarations.
Each case here takes a real position of a shipped edition, breaks one declared property the
way a faulty engine would, and expects the check to say so; the untouched position passes.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from tests.engines import EDITIONS, check_invariants, engine, seat_counts

ENGINES = Path(__file__).resolve().parent.parent / "generated"


class Position:
    """A state as a game's `to_dict()` gives it, for the checks that take a game."""

    def __init__(self, state: dict) -> None:
        self.state = state

    def to_dict(self) -> dict:
        return copy.deepcopy(self.state)


def position(edition: str, wanted, players: int | None = None, games: int = 40) -> dict:
    """The first state of a random game of `edition` for which `wanted(state)` holds."""
    module = engine(edition)
    count = players or seat_counts(module)[0]
    for seed in range(games):
        game, chooser = module.new_game(count, seed), random.Random(seed)
        while not game.is_over():
            state = game.to_dict()
            if wanted(state):
                return state
            game.apply(chooser.choice(game.legal_actions()))
    raise AssertionError(f"no position of {edition} is the one wanted")


def first_with(state: dict, key: str) -> int:
    return next(seat for seat, player in enumerate(state["players"]) if player[key])


def _stations_twice(state):
    a = first_with(state, "stations")
    state["players"][1 - a]["stations"].append(state["players"][a]["stations"][0])


def _stations_too_many(state):
    seat = first_with(state, "stations")
    state["players"][seat]["stations"] += ["Zürich", "Wien", "Roma", "Paris"]


def _token_lost(state):
    board = state["tokens"]["passengers"]
    place = next(place for place, kinds in board.items() if kinds)
    kind = next(iter(board[place]))
    board[place][kind] -= 1
    if not board[place][kind]:
        del board[place][kind]


def _token_zero_listed(state):
    held = state["players"][0]["tokens"]["passengers"]
    held["zero"] = 0


def _share_twice(state):
    company = next(company for company, taken in state["shares_taken"].items() if taken)
    state["players"][1]["shares"].setdefault(company, []).append(1)


def _shares_above_their_count(state):
    state["shares_taken"]["prr"] = 99


def _public_route_owned(state):
    route = next(iter(state["public_routes"]))
    player, length = state["players"][0], engine("japan").ROUTES[route]["length"]
    player["routes"].append(route)  # with its points and trains, as a claim would have
    player["score"] += engine("japan").ROUTE_POINTS[length]
    player["trains"] -= length


def _public_track_off(state):
    state["players"][0]["public_track"] += 1


def _extra_card_lost(state):
    state["extra_pile"] -= 1


def _ticket_in_the_wrong_pile(state):
    (kind,) = state["ticket_decks"]
    state["ticket_decks"][kind].append(state["ticket_deck"].pop())


def _tunnel_outside_its_phase(state):
    state["tunnel"] = {"route": "x", "surcharge": 1}


def _holder_card_made(state):
    state["teams"][0]["holder"]["red"] += 1


def _team_ticket_lost(state):
    team = next(team for team in state["teams"] if team["tickets"])
    team["tickets"].pop()


CASES = [
    (
        "europe",
        lambda s: any(p["stations"] for p in s["players"]),
        _stations_twice,
        "stations: an id held twice",
    ),
    (
        "europe",
        lambda s: any(p["stations"] for p in s["players"]),
        _stations_too_many,
        "stations: more than 3",
    ),
    ("germany", lambda s: s["phase"] == "turn", _token_lost, "tokens passengers not conserved"),
    ("germany", lambda s: s["phase"] == "turn", _token_zero_listed, "tokens passengers: a number below 1"),
    (
        "pennsylvania",
        lambda s: any(s["shares_taken"].values()),
        _share_twice,
        "numbered items not each held once",
    ),
    (
        "pennsylvania",
        lambda s: s["phase"] == "turn",
        _shares_above_their_count,
        "shares_taken above its bound",
    ),
    ("japan", lambda s: bool(s["public_routes"]), _public_route_owned, "public_routes: also owned"),
    ("japan", lambda s: s["phase"] == "turn", _public_track_off, "public_track differs from the spaces"),
    ("italy", lambda s: s["extra_pile"] > 0, _extra_card_lost, "extra deck not conserved"),
    ("germany", lambda s: s["phase"] == "turn", _ticket_in_the_wrong_pile, "ticket_decks: kinds"),
    ("europe", lambda s: s["phase"] == "turn", _tunnel_outside_its_phase, "tunnel outside its phase"),
    ("asia-equipes", lambda s: s["phase"] == "turn", _holder_card_made, "cards instead of"),
    ("asia-equipes", lambda s: any(t["tickets"] for t in s["teams"]), _team_ticket_lost, "a ticket is lost"),
]


@pytest.mark.parametrize(
    ("edition", "wanted", "broken", "said"), CASES, ids=[case[2].__name__ for case in CASES]
)
def test_a_declared_invariant_fails_where_the_state_breaks_it(edition, wanted, broken, said) -> None:
    module = engine(edition)
    state = position(edition, wanted)
    check_invariants(module, Position(state))  # the position itself holds
    broken(state)
    with pytest.raises(AssertionError, match=said):
        check_invariants(module, Position(state))


def test_every_key_a_mechanism_adds_to_the_state_is_declared() -> None:
    """Beyond the core's keys (those of an edition with no mechanism keeping state), each key of
    `to_dict()`, of a player's record and of a team's is a declared field's (or the teams' list,
    which holds the team fields), so that what reads the declarations misses nothing."""
    core = engine("usa-2025").new_game(2, 1).to_dict()
    core_keys, core_player = set(core) | {"teams", "owed_cards"}, set(core["players"][0])
    for edition in EDITIONS:
        module = engine(edition)
        state = module.new_game(seat_counts(module)[0], 1).to_dict()
        keys = {field["key"] for field in module.STATE_FIELDS}
        assert set(state) - core_keys <= keys, edition
        assert set(state["players"][0]) - core_player <= keys, edition
        for team in state.get("teams", []):
            assert set(team) - {"players"} <= keys, edition


def test_the_declarations_name_ids_the_engine_has() -> None:
    from aventuriers.play.state_fields import ids

    for edition in EDITIONS:
        module = engine(edition)
        for field in module.STATE_FIELDS:
            over = ids(module, field)
            assert len(over) == len(set(over)), (edition, field["key"])
            assert field["shape"] in ("count", "card", "pending") or over, (edition, field["key"])
            assert field["label"] and field["label"] == field["label"].strip()


@pytest.mark.parametrize(
    ("edition", "wanted", "scope", "line"),
    [
        ("europe", lambda s: any(p["stations"] for p in s["players"]), "player", "gares posées\u00a0: "),
        ("germany", lambda s: s["phase"] == "turn", "game", "voyageurs sur le plateau\u00a0: "),
        (
            "pennsylvania",
            lambda s: any(s["shares_taken"].values()),
            "game",
            "actions prises de chaque compagnie\u00a0: ",
        ),
        ("japan", lambda s: bool(s["public_routes"]), "game", "trains rapides de la réserve\u00a0: "),
        ("italy", lambda s: s["phase"] == "turn", "game", "cartes Ferry de la pioche\u00a0: "),
        ("germany", lambda s: s["phase"] == "turn", "game", "pioche des tickets longs\u00a0: long "),
    ],
)
def test_the_play_page_says_each_declared_field_it_sees(edition, wanted, scope, line) -> None:
    """The page reads what a mechanism keeps from its declaration (`STATE_FIELDS`), naming none:
    each line « label : value », with the ids' French (a company's name, a colour, a route)."""
    from aventuriers.play.page import _declared_lines

    module = engine(edition)
    state = position(edition, wanted)
    seat = state["current_player"]
    seen = module.Game.from_dict(state).observation(seat)
    if scope == "player":
        seat = next(seat for seat, player in enumerate(state["players"]) if player["stations"])
        records = [(seen["players"][seat], "player")]
    else:
        records = [(seen, "game")]
    lines = _declared_lines(module, seen, records)
    assert any(said.startswith(line) for said in lines), lines
    if edition == "pennsylvania":
        company = next(company for company, taken in state["shares_taken"].items() if taken)
        assert module.SHARES[company]["name"] in " ".join(lines)  # the company's name, not its id
    if edition == "germany" and scope == "game":
        assert "rouge" in " ".join(lines) or "noir" in " ".join(lines)  # the colours as nouns


def test_a_mechanism_whose_state_the_core_keeps_writes_none_of_its_bookkeeping() -> None:
    """A field declared `derived` is set up, copied, recorded, loaded, observed and checked by the
    core: no part of its mechanism assigns it in a copy or a load, or writes it in a record."""

    from aventuriers.compiler.build import loader
    from aventuriers.compiler.ir.build import build
    from aventuriers.compiler.mechanisms.used import used_by

    editions, kept_by_core = loader(), set()
    for edition in EDITIONS:
        built = build(editions.load(editions.path_of(edition))[0])
        for mechanism in used_by(built):
            derived = [field for field in mechanism.state_fields(built) if field.derived]
            if not derived:
                continue
            kept_by_core.add(mechanism.name)
            pure = "\n".join(path.read_text() for path in (Path(mechanism.folder) / "engine").rglob("*.j2"))
            text = "\n".join(path.read_text() for path in Path(mechanism.folder).rglob("*.j2"))
            native = ENGINES / built.module_name / "engine_core.pyx"
            # Their native form is their mechanism's own, which its native part loads and writes.
            natively_own = [
                f
                for f in derived
                if f.shape.value in _NATIVELY_OWN or f.path or f.indexed or f.scope.value == "team"
            ]
            for field in derived if native.exists() else ():
                if field in natively_own:
                    continue
                # The native core keeps it too, in its struct, read from and written to the
                # pure game by the core: no native part of the mechanism does either.
                core = native.read_text()
                assert (
                    f"    int {field.key}" in core.split("ctypedef struct State:")[1].split("uint64_t rng")[0]
                )
                assert f"_room(game._{field.key}" not in text, (mechanism.name, field.key)
            for field in derived:
                for bookkeeping in (
                    f"game._{field.key} =",
                    f'state["{field.key}"] =',
                    f'seen["{field.key}"] =',
                    f'"{field.key}": self._',
                    f'        "_{field.key}",',  # a slot
                ):
                    assert bookkeeping not in (pure if field in natively_own else text), (
                        mechanism.name,
                        bookkeeping,
                    )
    assert {
        "shares",
        "extra_deck",
        "public_routes",
        "stations",
        "tunnels",
        "ticket_mix",
        "tokens",
    } <= kept_by_core


# The shapes whose native form is their mechanism's own (a tunnel's claim in C fields, a deck of
# ticket indices, tokens by place and kind), as are a team's fields and those kept by index.
_NATIVELY_OWN = ("pending", "piles", "grid", "choices")


def test_the_core_refuses_to_keep_a_shape_it_cannot_yet() -> None:
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Shape, StateField

    pending = StateField(key="waiting", scope=Scope.GAME, shape=Shape.CARD, label="x", derived=True)
    with pytest.raises(ValueError, match="the core cannot keep 'waiting' yet"):
        KeptState.of([pending])
    named = StateField(key="x); import os", scope=Scope.GAME, shape=Shape.COUNT, label="x", derived=True)
    with pytest.raises(ValueError, match="identifiers"):
        KeptState.of([named])
    count = StateField(key="left", scope=Scope.PLAYER, shape=Shape.COUNT, label="x", derived=True, at_most=3)
    kept = KeptState.of([count, pending.__class__(key="other", scope=Scope.GAME, shape=Shape.IDS, label="y")])
    assert kept.record_player() == ['"left": self._left[player],']
    assert kept.init() == ["self._left: list[int] = [0] * players"]
    assert kept.check_player() == ['_check_count(record.get("left"), f"{where}.left", 3)']


def test_the_core_keeps_a_pending_record_as_it_is_written() -> None:
    """A record waiting to be settled (a tunnel's claim): None when nothing waits, copied with its
    own lists and mappings, present exactly in its phase."""
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Shape, StateField

    fields = {"key": "waiting", "scope": Scope.GAME, "shape": Shape.PENDING, "label": "x", "phase": "wait"}
    with pytest.raises(ValueError, match="lists its keys"):
        KeptState.of([StateField(**fields, derived=True)])
    kept = KeptState.of([StateField(**fields, keys=("route", "cards"), derived=True)])
    assert kept.init() == ["self._waiting: dict[str, Any] | None = None"]
    assert kept.copy() == ["game._waiting = _pending_copy(self._waiting, ('route', 'cards'))"]
    assert kept.record_state() == ["state[\"waiting\"] = _pending_copy(self._waiting, ('route', 'cards'))"]
    assert kept.load_state() == ["game._waiting = _pending_copy(state.get(\"waiting\"), ('route', 'cards'))"]
    assert kept.constants() == []
    assert kept.check_end() == [
        "_check_pending(state.get(\"waiting\"), 'waiting')",
        "if (phase == 'wait') != bool(state.get(\"waiting\")):",
        '    _invalid("waiting attend si et seulement si la phase est wait")',
    ]


def test_only_a_player_s_ids_lie_within_another_of_its_lists() -> None:
    from aventuriers.compiler.mechanisms.state import Scope, Shape, StateField

    with pytest.raises(ValueError) as error:
        StateField(key="seen", scope=Scope.GAME, shape=Shape.IDS, label="x", within="tickets")
    assert str(error.value) == "seen: only a player's ids lie within another of its lists"
    StateField(key="seen", scope=Scope.PLAYER, shape=Shape.IDS, label="x", within="tickets")


@pytest.mark.parametrize("edition", EDITIONS)
def test_what_only_its_owner_sees_the_others_see_as_declared(edition: str) -> None:
    """A field holding cards or tickets that only its owner sees is, in every other seat's
    observation, its size under `counted_as` (or, kept for the whole game, absent in its phase):
    what the search's sampled games deal anew. Checked at every step of random games."""
    from aventuriers.play.state_fields import declared, field_value, measure, present, values

    module = engine(edition)
    for seed in range(2):
        players = seat_counts(module)[-1]
        game, chooser = module.new_game(players, seed), random.Random(seed)
        secrets = [
            f
            for f in declared(module, players)
            if f.get("holds") in ("cards", "tickets") and f.get("seen", "all") == "owner"
        ]
        while not game.is_over():
            state = game.to_dict()
            for seat in range(players):
                seen = game.observation(seat)
                for field in secrets:
                    if field["scope"] == "game":
                        assert field.get("phase"), field["key"]
                        assert (field_value(seen, field) is None) == (
                            seat != state["current_player"] or state["phase"] != field["phase"]
                        )
                        continue
                    kept = list(values(state, field))
                    shown = seen["players"] if field["scope"] == "player" else seen.get("teams", [])
                    for (_, owners, value), record in zip(kept, shown, strict=True):
                        if seat in owners:
                            assert present(record, field) and field_value(record, field) == value
                        else:
                            assert not present(record, field), field["key"]
                            assert record[field["counted_as"]] == measure(field, value), field["key"]
            game.apply(chooser.choice(game.legal_actions()))
        assert secrets or edition != "asia-equipes"


def test_only_a_field_its_owner_alone_sees_is_counted_for_the_others() -> None:
    from aventuriers.compiler.mechanisms.state import Scope, Seen, Shape, StateField

    with pytest.raises(ValueError) as error:
        StateField(key="holder", scope=Scope.TEAM, shape=Shape.TALLY, label="x", counted_as="holder_size")
    assert str(error.value) == "holder: only a field its owner alone sees is counted for the others"
    StateField(
        key="holder",
        scope=Scope.TEAM,
        shape=Shape.TALLY,
        label="x",
        seen=Seen.OWNER,
        counted_as="holder_size",
    )


def test_the_core_keeps_piles_hidden_but_their_sizes() -> None:
    """Piles of tickets (a second deck): recorded whole, observed as their sizes under their own key."""
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Seen, Shape, StateField

    piles = StateField(
        key="decks",
        scope=Scope.GAME,
        shape=Shape.PILES,
        label="x",
        over=("long",),
        seen=Seen.SIZES,
        shown_as="deck_sizes",
        derived=True,
    )
    kept = KeptState.of([piles])
    assert kept.constants() == ["_DECKS_IDS = ('long',)"]
    assert kept.record_state() == [
        'state["decks"] = {item: list(pile) for item, pile in self._decks.items()}'
    ]
    assert kept.observe_state() == [
        'seen["deck_sizes"] = {item: len(pile) for item, pile in self._decks.items()}'
    ]
    assert kept.check_end() == ["_check_piles(state.get(\"decks\"), 'decks', _DECKS_IDS)"]


def test_the_core_keeps_fields_under_a_key_s_paths_and_choices_of_several_sets() -> None:
    """Tokens: a grid on the board and a tally per player under each set's path (the path a
    spec's id, so a literal), the choices of every set in one list of records."""
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Shape, StateField

    path = 'gold"); import os; ("'
    common = {"key": "tokens", "path": (path,), "positive": True, "conserved": ("g", 3), "derived": True}
    grid = StateField(**common, scope=Scope.GAME, shape=Shape.GRID, label="x", over=("Reno",), by=("nugget",))
    held = StateField(**common, scope=Scope.PLAYER, shape=Shape.TALLY, label="y", over=("nugget",))
    choices = StateField(
        key="picks",
        scope=Scope.GAME,
        shape=Shape.CHOICES,
        label="z",
        over=("Reno",),
        pick="city",
        match=("tokens", path),
        phase="pick",
        derived=True,
    )
    kept = KeptState.of([grid, held, choices])
    assert kept.slots() == ['"_tokens",', '"_players_tokens",', '"_picks",']
    assert kept.constants() == [
        f"_TOKENS_IDS = {{{path!r}: ('Reno',)}}",
        f"_TOKENS_BY = {{{path!r}: ('nugget',)}}",
        "_PLAYERS_TOKENS_IDS = _TOKENS_BY",  # the same ids, printed once
        "_PICKS_IDS = _TOKENS_IDS",
    ]
    assert kept.record_player() == [
        f'"tokens": {{{path!r}: {{item: number for item, number in self._players_tokens[player][{path!r}].items() if number}}}},'
    ]
    assert kept.load_state()[1] == (
        "game._picks = [{key: choice[key] for key in ('tokens', 'city')} for choice in state.get(\"picks\") or []]"
    )
    assert kept.check_end()[-2:] == [
        "if conserved > 3:",
        f"    _invalid({'tokens.' + path + ' et players[…].tokens.' + path!r}"
        ' + f" font {conserved}, quand ils doivent faire au plus 3")',
    ]
    for lines in (kept.init(), kept.copy(), kept.check_player(), kept.check_end(), kept.constants()):
        compile("\n".join(lines), "<kept>", "exec")  # each section parses: nothing pasted raw
    twice = StateField(
        key="tokens", scope=Scope.GAME, shape=Shape.TALLY, label="x", over=("a",), derived=True
    )
    with pytest.raises(ValueError, match="no path tells them apart"):
        KeptState.of([twice, twice])


def test_the_core_keeps_a_team_s_fields_by_index_and_shows_the_others_their_sizes() -> None:
    """A team's holder of cards, kept by colour index as the core keeps a hand: recorded for
    every team with its seats, observed whole by its own team, as its size by the others."""
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Seen, Shape, StateField

    holder = StateField(
        key="holder",
        scope=Scope.TEAM,
        shape=Shape.TALLY,
        label="x",
        over="COLORS",
        seen=Seen.OWNER,
        counted_as="holder_size",
        holds="cards",
        derived=True,
        indexed=True,
    )
    kept = KeptState.of([holder])
    assert kept.init() == [
        "self._team_holder: list[list[int]] = [[0] * len(COLORS) for _ in range(players // TEAM_SIZE)]"
    ]
    seats = '"players": list(range(team * TEAM_SIZE, (team + 1) * TEAM_SIZE))'
    assert kept.record_state() == [
        f'state["teams"] = [{{{seats}, "holder": dict(zip(COLORS, self._team_holder[team]))}}'
        " for team in range(self.players // TEAM_SIZE)]"
    ]
    assert kept.observe_state() == [
        f'seen["teams"] = [{{{seats}, "holder_size": sum(self._team_holder[team])}}'
        " for team in range(self.players // TEAM_SIZE)]",
        'own_team = seen["teams"][player // TEAM_SIZE]',
        'own_team["holder"] = dict(zip(COLORS, self._team_holder[player // TEAM_SIZE]))',
    ]
    assert kept.load_state() == [
        'for team, record in enumerate(state.get("teams", [])):',
        '    game._team_holder[team] = [(record.get("holder") or {}).get(item, 0) for item in COLORS]',
    ]
    assert kept.check_end()[-3:] == [
        '    _check_tally(record.get("holder"), f"{where}.holder", COLORS, None)',
        '    for color, held in (record.get("holder") or {}).items():',
        "        cards[_COLOR_INDEX[color]] += held",
    ]
    with pytest.raises(ValueError, match="kept by index only"):
        KeptState.of(
            [StateField(key="x", scope=Scope.GAME, shape=Shape.GRID, label="x", indexed=True, derived=True)]
        )


def test_the_core_keeps_one_id_that_waits_where_no_record_does() -> None:
    """Where the first card of a draw went, while the second waits: one id of its list, or None."""
    from aventuriers.compiler.emit.kept_state import KeptState
    from aventuriers.compiler.mechanisms.state import Scope, Shape, StateField

    place = StateField(
        key="last_to",
        scope=Scope.GAME,
        shape=Shape.PENDING,
        label="x",
        over=("hand", "holder"),
        phase="second",
        derived=True,
    )
    kept = KeptState.of([place])
    assert kept.init() == ["self._last_to: str | None = None"]
    assert kept.record_state() == ['state["last_to"] = self._last_to']
    assert kept.constants() == ["_LAST_TO_IDS = ('hand', 'holder')"]
    assert kept.check_end() == [
        "_check_pending_id(state.get(\"last_to\"), 'last_to', _LAST_TO_IDS)",
        "if (phase == 'second') != bool(state.get(\"last_to\")):",
        '    _invalid("last_to attend si et seulement si la phase est second")',
    ]
