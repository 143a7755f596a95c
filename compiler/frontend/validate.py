"""Stage 3: JSON Schema (Draft 2020-12) validation of a lowered document.

Every schema error is mapped back to the span of the statement or value it is
about and worded in French for the rule author.
"""

from __future__ import annotations

from functools import cache

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from ..diagnostics import Code, Diagnostic, did_you_mean
from .lower import Document, resolve_ref, schema

TYPE_NAMES = {
    "integer": "un nombre entier",
    "string": "un texte",
    "boolean": "un drapeau (sans argument)",
    "object": "un bloc { … } ou des paires clé: valeur",
    "array": "une liste",
}


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(_inlined(schema()))


def _inlined(node, defs=None):
    """The schema with each `$ref` replaced by what it names: the same checks, the same errors,
    without a lookup for every value checked (most of the validation's time). The language's
    definitions refer to no cycle, so the whole comes out finite."""
    defs = node["$defs"] if defs is None else defs
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        named = _inlined(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        beside = {
            key: _inlined(value, defs) for key, value in node.items() if key not in ("$ref", "description")
        }
        return {"allOf": [named], **beside} if beside else named
    return {key: value if key == "$defs" else _inlined(value, defs) for key, value in node.items()}


# What a merged edition is checked for again: only whether keys or items are missing (every
# file was checked whole on its own). These keywords reach every place the inlined schema can
# require something (`allOf` holds a `$ref` that had checks beside it); the others (types,
# bounds, enums) only cost time here. Under `anyOf` a missing key is not reported on its own, by
# either validator.
_MISSING_KEYWORDS = ("allOf", "properties", "additionalProperties", "items", "required", "minItems")


@cache
def _missing_keys_validator():
    checker = validators.create(
        meta_schema=Draft202012Validator.META_SCHEMA,
        validators={keyword: Draft202012Validator.VALIDATORS[keyword] for keyword in _MISSING_KEYWORDS},
        type_checker=Draft202012Validator.TYPE_CHECKER,
        id_of=Draft202012Validator.ID_OF,
    )
    return checker(_inlined(schema()))


def _allowed_keys(error: ValidationError) -> list[str]:
    return sorted(resolve_ref(error.schema).get("properties", {}))


def _describe(error: ValidationError, document: Document) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    names = [step for step in path if isinstance(step, str)]
    where = names[-1] if names else "le fichier"
    kind = error.validator
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = _allowed_keys(error)
        found = []
        for key in sorted(error.instance):
            if key not in allowed:
                found.append(
                    Diagnostic(
                        code=Code.UNKNOWN_KEY,
                        message=f"« {key} » n\u2019est pas une clé connue ici",
                        span=document.span(path + (key,)),
                        hint=did_you_mean(key, allowed)
                        or ("clés possibles : " + ", ".join(allowed) if allowed else None),
                    )
                )
        return found
    if kind == "required":
        missing = [key for key in error.validator_value if key not in error.instance]
        return [
            Diagnostic(
                code=Code.MISSING_KEY,
                message=f"« {key} » manque" + (f" dans « {where} »" if path else ""),
                span=document.span(path),
            )
            for key in missing
        ]
    span = document.span(path)
    if kind in ("type", "anyOf"):
        expected = error.validator_value if kind == "type" else "integer"
        wanted = TYPE_NAMES.get(expected, str(expected)) if isinstance(expected, str) else "une autre forme"
        wanted = error.schema.get("x-what", wanted) if isinstance(error.schema, dict) else wanted
        return [Diagnostic(code=Code.WRONG_TYPE, message=f"« {where} » attend {wanted}", span=span)]
    if kind == "enum":
        options = [str(option) for option in error.validator_value]
        value = error.instance
        return [
            Diagnostic(
                code=Code.BAD_VALUE,
                message=f"« {value} » n\u2019est pas permis pour « {where} » ; valeurs possibles : "
                + ", ".join(options),
                span=span,
                hint=did_you_mean(str(value), options),
            )
        ]
    if kind in ("minimum", "maximum"):
        bound = "au moins" if kind == "minimum" else "au plus"
        return [
            Diagnostic(
                code=Code.OUT_OF_RANGE,
                message=f"« {where} » vaut {error.instance} ; il faut {bound} {error.validator_value}",
                span=span,
            )
        ]
    if "propertyNames" in error.schema_path:
        return [
            Diagnostic(
                code=Code.BAD_VALUE,
                message=f"« {error.instance} » n\u2019est pas une clé permise dans « {where} »",
                span=document.span(path + (error.instance,)),
                hint="une longueur de route, en chiffres" if where == "route_points" else None,
            )
        ]
    if kind == "pattern":
        return [
            Diagnostic(
                code=Code.BAD_VALUE,
                message=f"« {error.instance} » n\u2019est pas un identifiant valide",
                span=span,
                hint="lettres minuscules, chiffres, « _ » et « - » seulement",
            )
        ]
    if kind == "maxItems":
        return [
            Diagnostic(
                code=Code.LIMIT_EXCEEDED,
                message=f"{len(error.instance)} « {where} » ; il en faut au plus {error.validator_value}",
                span=span,
            )
        ]
    if kind == "minItems" and error.validator_value > 1 and error.instance:
        return [
            Diagnostic(
                code=Code.BAD_VALUE,
                message=f"{len(error.instance)} « {where} » ; il en faut au moins {error.validator_value}",
                span=span,
            )
        ]
    if kind in ("minItems", "minProperties", "minLength"):
        return [Diagnostic(code=Code.BAD_VALUE, message=f"« {where} » ne peut pas être vide", span=span)]
    return [Diagnostic(code=Code.SCHEMA, message=f"« {where} » : {error.message}", span=span)]


def validate(document: Document, *, complete: bool) -> list[Diagnostic]:
    """Check ``document`` against the schema.

    A file that ``extends`` another is only complete after merging, so
    ``complete=False`` leaves out missing-key errors; they are checked on the
    merged document.
    """
    diagnostics: list[Diagnostic] = []
    for error in _validator().iter_errors(document.data):
        if error.validator == "required" and not complete and _merged_key_by_key(error):
            continue
        if error.validator == "minItems" and not complete and "x-key" in error.schema:
            continue  # a variant's `city` lines add to the inherited ones: one is enough
        diagnostics.extend(_describe(error, document))
    return diagnostics


def _merged_key_by_key(error: ValidationError) -> bool:
    """A block a child may complete from its parent: blocks, and items of keyed lists
    (``bonus longest_path { points 15 }``); an item of any other list is always whole."""
    node = schema()
    for step in error.absolute_path:
        node = resolve_ref(node) or {}
        if isinstance(step, int):
            if "x-key" not in node:
                return False
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(step, {})
    return True


def missing_keys(document: Document) -> list[Diagnostic]:
    """What a merged edition still lacks: its missing keys, and the items a list that merges
    item by item (the board's cities) needs at least."""
    return [
        diagnostic
        for error in _missing_keys_validator().iter_errors(document.data)
        if error.validator == "required" or (error.validator == "minItems" and "x-key" in error.schema)
        for diagnostic in _describe(error, document)
    ]


def incomplete_statements(document: Document) -> frozenset[str]:
    """The top-level statements that lack a key somewhere inside: an abstract base may leave
    them to its children, and the semantic checks, which read whole statements, wait for them."""
    return frozenset(
        str(error.absolute_path[0])
        for error in _missing_keys_validator().iter_errors(document.data)
        if error.validator == "required" and error.absolute_path
    )
