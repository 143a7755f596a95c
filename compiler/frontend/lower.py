"""Stage 2: concrete syntax tree to a plain JSON document with spans.

The grammar is generic (a statement is a key, arguments and a block), so the
lowering asks the JSON Schema what each key is: an array marked
``x-repeated`` collects every statement of that name (``route …`` lines); an
object names its positional arguments in ``x-positional``; anything else,
lists included, takes a single value. The result
is data only: a JSON-compatible document and a map from JSON paths to spans.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from lark import Token, Tree

from ..diagnostics import Code, Diagnostic
from ..mechanisms import with_fragments
from .parse import string_value
from .positions import SourceFile, Span

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "spec" / "schema.json"

JsonPath = tuple[str | int, ...]

# The deepest a value sits in a real spec is 5 steps (`double_routes rule 0 players min`).
MAX_DEPTH = 10
# No number in a spec needs more digits (the schema's maxima are far lower).
MAX_DIGITS = 9


@cache
def schema() -> dict[str, Any]:
    """The core schema (``spec/schema.json``) with every mechanism's fragment."""
    return with_fragments(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


# The whole schema as published (`generated/schema.json`), and what it says of itself there.
PUBLISHED_SCHEMA = "schema.json"
PUBLISHED_NOTE = (
    "Written by `aventuriers build`, never by hand: the language's whole schema, the core "
    "(spec/schema.json) with each mechanism's fragment (compiler/mechanisms/NAME/schema.json), "
    "as the compiler checks a spec against it."
)


def published_schema() -> str:
    """The text of `generated/schema.json`: the schema the validator uses, every key sorted,
    with a note that says where it comes from (``$comment``, which no validator reads)."""
    return (
        json.dumps({**schema(), "$comment": PUBLISHED_NOTE}, ensure_ascii=False, indent=2, sort_keys=True)
        + "\n"
    )


def resolve_ref(node: dict[str, Any] | None) -> dict[str, Any] | None:
    while node is not None and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema()["$defs"][name]
    return node


@dataclass(slots=True, kw_only=True)
class Document:
    """A lowered spec file: its data, and where each path came from."""

    source: SourceFile
    data: dict[str, Any]
    spans: dict[JsonPath, Span] = field(default_factory=dict)
    # (kind, id) of inherited items dropped by `without`, so references to them are skipped.
    removed: frozenset[tuple[str, str]] = frozenset()
    # Top-level key -> the variant's statement that last edited what it inherited there
    # (`change`, `without`), so that a conflict it causes is reported at its line.
    edits: dict[str, Span] = field(default_factory=dict)

    def span(self, path: JsonPath) -> Span:
        """The span of the deepest recorded prefix of ``path``."""
        for end in range(len(path), -1, -1):
            found = self.spans.get(tuple(path[:end]))
            if found is not None:
                return found
        return Span.whole_file(self.source)


@dataclass(slots=True)
class _Statement:
    name: Token
    span: Span
    positional: list[Tree] = field(default_factory=list)
    pairs: list[tuple[Token, Tree]] = field(default_factory=list)
    block: list[Tree] | None = None


class _Lowerer:
    def __init__(self, source: SourceFile):
        self.source = source
        self.spans: dict[JsonPath, Span] = {}
        self.diagnostics: list[Diagnostic] = []

    def span(self, node: Tree | Token) -> Span:
        return Span.of_meta(self.source, node if isinstance(node, Token) else node.meta)

    def error(self, code: Code, message: str, span: Span, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code=code, message=message, span=span, hint=hint))

    def statement(self, tree: Tree) -> _Statement:
        name, *rest = tree.children
        result = _Statement(name=name, span=self.span(name))
        for child in rest:
            if child.data == "pair":
                key_tree, value = child.children
                result.pairs.append((key_tree.children[0], value))
            elif child.data == "block":
                result.block = list(child.children)
            else:
                result.positional.append(child)
        return result

    def block(self, statements: list[Tree], node: dict | None, path: JsonPath) -> dict[str, Any]:
        properties = (node or {}).get("properties", {})
        out: dict[str, Any] = {}
        if statements and self.too_deep(path, self.span(statements[0])):
            return out
        for tree in statements:
            statement = self.statement(tree)
            key = str(statement.name)
            child = resolve_ref(properties.get(key))
            if child is not None and child.get("x-repeated"):
                items = out.setdefault(key, [])
                self.spans.setdefault(path + (key,), statement.span)
                item_path = path + (key, len(items))
                self.spans[item_path] = statement.span
                items.append(self.value_of(statement, resolve_ref(child.get("items")), item_path))
                continue
            if key in out:
                if child is not None:  # an unknown key is said once, at its first line
                    self.error(
                        Code.DUPLICATE_KEY,
                        f"« {key} » est déjà déclaré dans ce bloc",
                        statement.span,
                        hint=f"première déclaration ligne {self.spans[path + (key,)].line}",
                    )
                continue
            self.spans[path + (key,)] = statement.span
            out[key] = self.value_of(statement, child, path + (key,))
            if child is None:
                self.spans[path + (key,)] = statement.span  # an unknown statement is located at its name
        return out

    def value_of(self, statement: _Statement, node: dict | None, path: JsonPath) -> Any:
        is_single_value = len(statement.positional) == 1 and not statement.pairs and statement.block is None
        if node is not None and node.get("type") == "object" and "properties" in node:
            if is_single_value and "x-positional" not in node:
                return self.value(statement.positional[0], path)  # a range, such as `2..5`
            return self.object_of(statement, node, path)
        if node is not None and node.get("type") == "object":
            # A map written as pairs, such as `route_points 1: 1, 2: 2`.
            return self.pairs_of(statement, path, {})
        if not statement.positional and not statement.pairs and statement.block is None:
            return True  # a flag, such as `abstract`
        if is_single_value:
            return self.value(statement.positional[0], path, node)
        if node is None:
            # An unknown key: validation reports it; keep something of the right shape.
            return self.pairs_of(statement, path, {})
        self.error(
            Code.WRONG_ARGUMENTS,
            f"« {statement.name} » attend une seule valeur",
            statement.span,
        )
        return None

    def object_of(self, statement: _Statement, node: dict, path: JsonPath) -> dict[str, Any]:
        names = node.get("x-positional", [])
        properties = node.get("properties", {})
        out: dict[str, Any] = {}
        for index, argument in enumerate(statement.positional):
            if index >= len(names):
                expected = ", ".join(names) if names else "aucun argument sans nom"
                self.error(
                    Code.WRONG_ARGUMENTS,
                    f"trop d\u2019arguments pour « {statement.name} » (attendu : {expected})",
                    self.span(argument),
                )
                break
            out[names[index]] = self.value(argument, path + (names[index],), properties.get(names[index]))
        self.pairs_of(statement, path, out, properties)
        if statement.block is not None:
            for key, value in self.block(statement.block, node, path).items():
                if key in out:
                    self.error(
                        Code.DUPLICATE_KEY,
                        f"« {key} » est déjà donné sur la ligne de « {statement.name} »",
                        self.spans[path + (key,)],
                    )
                else:
                    out[key] = value
        return out

    def pairs_of(
        self, statement: _Statement, path: JsonPath, out: dict[str, Any], properties: dict | None = None
    ) -> dict:
        for key_token, value in statement.pairs:
            key = str(key_token)
            if key in out:
                self.error(Code.DUPLICATE_KEY, f"« {key} » est donné deux fois", self.span(key_token))
                continue
            out[key] = self.value(value, path + (key,), (properties or {}).get(key))
            self.spans[path + (key,)] = self.span(key_token)
        return out

    def too_deep(self, path: JsonPath, span: Span) -> bool:
        if len(path) <= MAX_DEPTH:
            return False
        self.error(Code.LIMIT_EXCEEDED, f"imbrication trop profonde (au plus {MAX_DEPTH} niveaux)", span)
        return True

    def integer(self, token: Token, span: Span) -> int | None:
        if len(token.lstrip("-")) > MAX_DIGITS:
            self.error(Code.OUT_OF_RANGE, f"nombre trop grand : au plus {MAX_DIGITS} chiffres", span)
            return None
        return int(token)

    def decimal(self, text: str, span: Span) -> float | None:
        if len(text.lstrip("-").replace(".", "")) > MAX_DIGITS:
            self.error(Code.OUT_OF_RANGE, f"nombre trop long : au plus {MAX_DIGITS} chiffres", span)
            return None
        return float(text)

    def value(self, tree: Tree, path: JsonPath, node: dict | None = None) -> Any:
        span = self.spans[path] = self.span(tree)
        if self.too_deep(path, span):
            return None
        kind = tree.data
        if kind == "integer" and (resolve_ref(node) or {}).get("type") == "string":
            return str(tree.children[0])  # a name written as a number, such as `deck: 1910`
        if kind == "string":
            text, problem = string_value(tree.children[0], self.source)
            if problem:
                self.diagnostics.append(problem)
            return text
        if kind == "integer":
            return self.integer(tree.children[0], span)
        if kind == "range":
            low, high = (self.integer(token, span) for token in tree.children)
            return {"min": low, "max": high}
        if kind == "decimal":
            return self.decimal(str(tree.children[0]), span)
        if kind == "position":
            latitude, longitude = (part.strip() for part in str(tree.children[0]).split(","))
            self.spans[path + ("latitude",)] = self.spans[path + ("longitude",)] = span
            return {"latitude": self.decimal(latitude, span), "longitude": self.decimal(longitude, span)}
        if kind == "name":
            name = str(tree.children[0])
            return {"yes": True, "no": False}.get(name, name)
        assert kind == "list", kind
        return [self.value(item, path + (index,)) for index, item in enumerate(tree.children)]


def lower(tree: Tree, source: SourceFile) -> tuple[Document, list[Diagnostic]]:
    lowerer = _Lowerer(source)
    data = lowerer.block(list(tree.children), schema(), ())
    return Document(source=source, data=data, spans=lowerer.spans), lowerer.diagnostics
