"""Semantic checks of the route properties a board declares, and of the mechanisms' rules.

A route may carry any property its board declares (``property mountain default: 0 …``);
the schema accepts any such pair, so what is undeclared, or of the wrong kind, is said here,
with the same words as the schema's unknown keys.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Code, did_you_mean
from ..mechanisms import REGISTRY
from .lower import resolve_ref, schema

KINDS = {bool: "oui ou non (yes/no)", int: "un nombre entier", str: "un nom"}
# Keys an engine's `ROUTES` records have besides the route's own: a property never takes them.
RECORD_KEYS = ("twin", "siblings", "endpoint")


def route_keys() -> list[str]:
    """The keys every route has in the language, whatever its board declares."""
    node = resolve_ref(schema()["properties"]["board"]["properties"]["route"]["items"])
    return sorted(node["properties"])


def _kind(value: Any) -> type:
    return bool if isinstance(value, bool) else int if isinstance(value, int) else str


def check_properties(checker: Any) -> None:
    board = checker.data["board"]
    fixed = route_keys()
    declared: dict[str, Any] = {}
    for index, prop in enumerate(board.get("property", [])):
        name = prop.get("name")
        if name in fixed or name in RECORD_KEYS:
            checker.report(
                Code.DUPLICATE_NAME,
                f"« {name} » nomme déjà une donnée de toute route : une propriété ne peut pas s’appeler ainsi",
                ("board", "property", index, "name"),
            )
            continue
        declared[name] = prop.get("default")
        french = prop.get("french")
        first = french.split()[0].lower() if isinstance(french, str) and french.split() else ""
        if first in ("route", "routes"):  # « 2 routes avec une route maudite »
            article = "un" if prop.get("feminine") is False else "une"
            checker.report(
                Code.BAD_VALUE,
                f"« {french} » nomme une route, pas ce qu’elle porte : la fiche écrirait "
                f"« une route avec {article} {french} »",
                ("board", "property", index, "french"),
                hint="le nom français d’une propriété nomme, sans article, une marque ou une chose "
                "qu’une route porte (« montagne », « pont »)",
            )
    for index, route in enumerate(board.get("route", [])):
        for key, value in route.items():
            if key in fixed:
                continue
            if key not in declared:
                allowed = sorted([*fixed, *declared])
                checker.report(
                    Code.UNKNOWN_KEY,
                    f"« {key} » n’est pas une clé connue ici",
                    ("board", "route", index, key),
                    did_you_mean(key, allowed) or "clés possibles : " + ", ".join(allowed),
                )
            elif _kind(value) is not _kind(declared[key]):
                checker.report(
                    Code.WRONG_TYPE,
                    f"« {key} » attend {KINDS[_kind(declared[key])]}, comme sa valeur par défaut",
                    ("board", "route", index, key),
                )


def check_mechanisms(checker: Any) -> None:
    for mechanism in REGISTRY:
        mechanism.check(checker)
