"""Stage 4a, continued: a variant's edits of what it inherits.

After the child's statements are merged over the parent's (``merge``), its
``without`` statements drop inherited things and its ``change`` statements
edit inherited routes and tickets, each named by its id:

* ``without bonus ID`` / ``decision ID`` / ``route ID`` / ``ticket ID`` drop one item;
* ``without tunnel_example`` / ``score_example`` drops a worked example;
* ``without long_tickets`` drops the long tickets (those dealt apart at set-up,
  and every ticket of kind ``long``), ``without teams`` team play (its holders,
  shared tickets, team trains; a double route closed to a team becomes closed
  to a player), ``without market_reset`` the face-up reset; a mechanism's kinds
  (``without stations``, ``without tunnels``, ``without ferries``,
  ``without claim_effects``…) drop its rules and what depends on them (the
  station action and tie-breaker; every route's tunnel or ferry mark and the
  counts that check them);
* ``change route ID length: 3 color: red tunnel: no …`` and ``change ticket ID
  points: 13 kind: regular`` replace the fields they name, and the item keeps its id.

Spans follow: a changed field points at the variant's line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..diagnostics import Code, did_you_mean
from ..ir.ids import assign_ids, slug
from ..mechanisms import REGISTRY, Mechanism
from .lower import JsonPath

if TYPE_CHECKING:
    from .merge import _Merger

# Where each kind of keyed item lives, and whether colours tell its twins apart in ids.
ITEMS: dict[str, tuple[JsonPath, bool]] = {
    "bonus": (("bonus",), False),
    "decision": (("decision",), False),
    "route": (("board", "route"), True),
    "ticket": (("tickets", "ticket"), False),
    "city": (("board", "city"), False),
}
# Each kind in French, and whether the noun is feminine (for « aucune route », « quel bonus »).
FRENCH = {
    "bonus": ("bonus", False),
    "decision": ("décision", True),
    "route": ("route", True),
    "ticket": ("ticket", False),
    "city": ("ville", True),
}


def apply_edits(merger: _Merger, data: dict) -> None:
    """Apply the child's ``without`` and ``change`` statements to the merged ``data``."""
    board = merger.child.data.get("board")
    if isinstance(board, dict) and ("route" in board or "city" in board):
        # A new board: an inherited worked example that no longer fits it is the board's doing.
        affected = ("tickets",) if ("board", "city") in merger.replaced_lists else ()
        merger.edited(("board",), *affected, "score_example", "tunnel_example")
        _forget_replaced_counts(data, board)
    tickets = merger.child.data.get("tickets")
    if (
        isinstance(tickets, dict)
        and "ticket" in tickets
        and "expect" not in tickets
        and "expect" in data["tickets"]
    ):
        # The variant listed its own tickets: the inherited count is not theirs.
        _forget_counts(data, "ticket")
    for index, dropped in enumerate(data.pop("without", [])):
        _without(merger, data, dropped, ("without", index))
    for index, change in enumerate(data.pop("change", [])):
        _change(merger, data, change, ("change", index))


def item_ids(kind: str, items: list) -> list[str]:
    path, by_color = ITEMS[kind]
    if kind in ("route", "ticket"):
        return assign_ids([item for item in items if isinstance(item, dict)], by_color=by_color)
    if kind == "city":
        return [slug(str(item.get("name", ""))) if isinstance(item, dict) else "" for item in items]
    return [str(item.get("id")) if isinstance(item, dict) else "" for item in items]


def _find(merger: _Merger, data: dict, kind: str, name: Any, where: JsonPath, verb: str) -> int | None:
    """The index of the item ``name`` of ``kind``, or None (reported) when there is none."""
    path, _ = ITEMS[kind]
    items = get_path(data, path)
    if not isinstance(items, list) or not isinstance(name, str):
        if name is None:
            noun, feminine = FRENCH[kind]
            merger.report(Code.MISSING_KEY, f"dites {'quelle' if feminine else 'quel'} {noun} {verb}", where)
        return None
    ids = item_ids(kind, items)
    if name not in ids:
        noun, feminine = FRENCH[kind]
        merger.report(
            Code.UNKNOWN_REFERENCE,
            f"{'aucune' if feminine else 'aucun'} {noun} « {name} » à {verb}",
            where + ("id",),
            did_you_mean(name, ids),
        )
        return None
    return ids.index(name)


def _without(merger: _Merger, data: dict, dropped: dict, where: JsonPath) -> None:
    kind, name = dropped.get("kind"), dropped.get("id")
    if kind in ITEMS:
        index = _find(merger, data, kind, name, where, "retirer")
        if index is not None:
            path, _ = ITEMS[kind]
            merger.edited(where, path[0], "score_example", "tunnel_example", "tiebreak")
            merger.keep_items(data, path, [i for i in range(len(get_path(data, path))) if i != index])
            _forget_counts(data, kind)
            merger.removed.add((kind, name))
        return
    if kind == "tunnel_example":
        example = data.get("tunnel_example")
        if example is None or (name is not None and example.get("route") != name):
            merger.report(Code.UNKNOWN_REFERENCE, "aucun exemple de tunnel à retirer", where)
            return
        data.pop("tunnel_example")
        merger.edited(where, "tunnel_example")
        return
    if kind in ("cities", "routes"):
        return  # done by the merge: the inherited list is not merged, the variant's stands alone
    owner = next((m for m in REGISTRY if kind in m.schema().get("without", ())), None)
    if owner is not None:
        _without_mechanism(merger, data, owner, dropped, where)
        return
    if kind not in (
        "score_example",
        "long_tickets",
        "market_reset",
    ):
        return  # the schema has reported the statement
    if name is not None:
        merger.report(
            Code.WRONG_ARGUMENTS, f"« without {kind} » retire toute la règle : pas d’identifiant", where
        )
        return
    _without_rule(merger, data, kind, where)


def _without_mechanism(merger: _Merger, data: dict, owner: Mechanism, dropped: dict, where: JsonPath) -> None:
    """``without claim_effects`` drops a mechanism's every rule; ``without claim_effect ID`` one."""
    kind, name = dropped["kind"], dropped.get("id")
    whole = kind == owner.schema()["without"][0]
    if whole and name is not None:
        merger.report(
            Code.WRONG_ARGUMENTS, f"« without {kind} » retire toute la règle : pas d’identifiant", where
        )
        return
    if not whole:
        items = data.get(kind, [])
        kept = [i for i, item in enumerate(items) if item.get("id") != name]
        if name is None:
            merger.report(Code.WRONG_ARGUMENTS, f"« without {kind} » attend l’identifiant de la règle", where)
            return
        if len(kept) == len(items):
            merger.report(
                Code.UNKNOWN_REFERENCE,
                f"l’édition héritée n’a pas de « {kind} {name} » à retirer",
                where,
                did_you_mean(name, [item.get("id") for item in items]),
            )
            return
        merger.keep_items(data, (kind,), kept)
        merger.removed.add((kind, name))
        merger.edited(where, kind)
        return
    touched = owner.without(data, kind, merger.keep_items)
    if touched is None:
        merger.report(
            Code.UNKNOWN_REFERENCE, f"l’édition héritée n’a pas de règle « {kind} » à retirer", where
        )
        return
    merger.removed.add((kind, ""))
    merger.edited(where, *touched)


def _without_rule(merger: _Merger, data: dict, kind: str, where: JsonPath) -> None:
    """``without score_example`` / ``long_tickets`` / ``market_reset``."""
    setup = data.get("setup", {})
    present = {
        "score_example": "score_example" in data,
        "long_tickets": "long" in setup.get("tickets", {}),
        "market_reset": setup.get("market", {}).get("locomotive_reset") not in (None, "never"),
    }[kind]
    if not present:
        merger.report(Code.UNKNOWN_REFERENCE, f"l’édition héritée n’a pas de « {kind} » à retirer", where)
        return
    merger.removed.add((kind, ""))
    touched = {
        "score_example": ("score_example",),
        "market_reset": ("setup",),
        "long_tickets": ("setup", "tickets", "score_example"),
    }[kind]
    merger.edited(where, *touched)
    if kind == "score_example":
        data.pop("score_example")
    elif kind == "market_reset":
        set_path(data, ("setup", "market", "locomotive_reset"), "never")
    elif kind == "long_tickets":
        tickets = {
            key: value
            for key, value in setup["tickets"].items()
            if key not in ("long", "long_rejected", "keep_among")
        }
        set_path(data, ("setup", "tickets"), tickets)
        listed = data["tickets"]["ticket"]
        merger.keep_items(
            data,
            ("tickets", "ticket"),
            [i for i, ticket in enumerate(listed) if ticket.get("kind") != "long"],
        )
        _forget_counts(data, "ticket")


def _change(merger: _Merger, data: dict, change: dict, where: JsonPath) -> None:
    kind, name = change.get("item"), change.get("id")
    if kind not in ("route", "ticket", "city"):
        return  # the schema has reported the statement
    index = _find(merger, data, kind, name, where, "changer")
    if index is None:
        return
    fields = {key: value for key, value in change.items() if key not in ("item", "id")}
    allowed = {
        # A route's fixed fields, and the properties its board declares (`mountain`…).
        "route": {"length", "color", "tunnel", "ferry", "double", "reveal"}
        | {p.get("name") for p in data["board"].get("property", [])},
        "ticket": {"points", "deck", "kind"},
        "city": {"at"},
    }[kind]
    wrong = sorted(set(fields) - allowed)
    for field in wrong:
        noun, feminine = FRENCH[kind]
        merger.report(
            Code.UNKNOWN_KEY,
            f"« {field} » ne se change pas sur {'une' if feminine else 'un'} {noun}",
            where + (field,),
            did_you_mean(field, sorted(allowed)) or "champs possibles : " + ", ".join(sorted(allowed)),
        )
    if wrong:
        return
    path, _ = ITEMS[kind]
    items = list(get_path(data, path))
    changed = {**({} if kind == "city" else {"id": name}), **items[index], **fields}
    if changed.get("ferry") == 0:
        changed.pop("ferry")
    items[index] = changed
    set_path(data, path, items)
    # The worked examples name routes and tickets: a conflict there is this edit's too.
    merger.edited(
        where, path[0], "score_example", *(("tunnel_example",) if kind == "route" else ()), counts=False
    )
    _forget_counts(data, kind)
    for field in fields:
        merger.spans[path + (index, field)] = merger.child.span(where + (field,))


def _forget_replaced_counts(data: dict, board: dict) -> None:
    """The inherited ``expect`` counts of the lists a variant's board replaces, unless it restates them."""
    expect = data["board"].get("expect")
    if not isinstance(expect, dict):
        return
    own = board.get("expect") if isinstance(board.get("expect"), dict) else {}
    replaced = ({"cities"} if "city" in board else set()) | (
        {"routes", "doubles", "spaces", "tunnels", "ferries"} if "route" in board else set()
    )
    set_path(data, ("board", "expect"), {k: v for k, v in expect.items() if k not in replaced or k in own})


def _forget_counts(data: dict, kind: str) -> None:
    """An inherited ``expect`` count checks the list it was written beside: once a variant
    edits that list, the count no longer applies (the variant may state its own)."""
    if kind == "city" and isinstance(data["board"].get("expect"), dict):
        kept = {key: value for key, value in data["board"]["expect"].items() if key != "cities"}
        set_path(data, ("board", "expect"), kept)
    if kind == "route" and isinstance(data["board"].get("expect"), dict):
        kept = {key: value for key, value in data["board"]["expect"].items() if key == "cities"}
        set_path(data, ("board", "expect"), kept)
    if kind == "ticket" and "expect" in data["tickets"]:
        set_path(
            data, ("tickets",), {key: value for key, value in data["tickets"].items() if key != "expect"}
        )


def get_path(data: Any, path: JsonPath) -> Any:
    """The value at ``path`` (keys and list indexes), or None when there is none."""
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def set_path(data: dict, path: JsonPath, value: Any) -> None:
    """Set ``path`` in ``data``, copying the blocks on the way (they may be the parent's own)."""
    node = data
    for step in path[:-1]:
        node[step] = dict(node[step])
        node = node[step]
    node[path[-1]] = value
